/* input_docstream: one large document read as it comes, a chunk of the input at a time:
 * a DescribeTasks answer ({"tasks":[...],"failures":[...]}, as `aws ecs describe-tasks`
 * prints it, through `jq -c` or not) or a top-level array of tasks, events or recording
 * lines. A small scanner finds where each element of the arrays ends (strings, escapes
 * and nesting followed across chunks); each complete element is read on its own by
 * input_stream.c (taskscan.c when it is plain, else jansson, through the code the
 * whole-document reader uses), and the results are merged a batch at a time. So memory is
 * the tasks plus a buffer of one chunk and the largest element, not the text (a one-line
 * answer was held whole first, up to 1 GiB: issue 31; bench/doc_memory.py measures it).
 * The text is not checked as a whole first: an element that is not JSON stops the read
 * naming its byte, and so does an end of input inside the document (a truncated file),
 * the tasks before it kept, as the JSON Lines reader keeps the lines before a bad one. */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_docstream.h"
#include "input_stream.h"

/* the members that make an object another shape than a DescribeTasks answer (input.c's
 * shape_of()): a document that starts with "tasks" and holds one is not read so */
static const char *const other_shape[] = { "ecsprof", "detail-type", "detail", "TaskARN",
	"taskArn", "imageDetails", "images" };

struct ds {
	struct fstate *f;
	struct src *s;
	struct task_set *set;
	struct err *err;
	char *buf;
	size_t len, cap, pos;       /* buf[pos..len) not read yet */
	uint64_t base;              /* the text's byte at buf[0] */
	long line;                  /* the line of buf[lpos] (newlines before it counted) */
	size_t lpos;
	size_t chunk;               /* bytes read at a time, and a batch's text */
	uint64_t merged;            /* the text's byte up to which results were merged */
	struct pctx c;              /* the tasks, merged batch by batch */
	struct pctx fc;             /* failures[]: merged after the tasks, as the DOM orders */
	struct input_stream st;     /* the array being read */
};

static bool
is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static long
count_nl(const char *p, size_t n)
{
	long k = 0;

	for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
		k++;
	return k;
}

static int
fail(struct ds *d, enum err_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct ds *d, enum err_code code, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	err_set(d->err, code, "%s: %s", d->f->name, msg);
	return -1;
}

/* The line of buf[pos], counted on from the last time it was asked. */
static long
line_at(struct ds *d)
{
	d->line += count_nl(d->buf + d->lpos, d->pos - d->lpos);
	d->lpos = d->pos;
	return d->line;
}

static unsigned long long
at(const struct ds *d, size_t off)
{
	return (unsigned long long)(d->base + off);
}

/* More of the input after buf[len]: 1, 0 at its end, -1 (err set) on a read error or an
 * element too large to hold. The bytes before pos are read: dropped first. */
static int
fill(struct ds *d)
{
	size_t got;

	if (d->s->eof)
		return 0;
	if (d->pos > 0) {
		line_at(d);
		d->lpos = 0;
		memmove(d->buf, d->buf + d->pos, d->len - d->pos);
		d->base += d->pos;
		d->len -= d->pos;
		d->pos = 0;
	}
	if (d->cap - d->len < d->chunk) {
		if (d->len >= INPUT_MAX_LINE)
			return fail(d, ERR_PARSE, "an element larger than %zu MiB at byte %llu: each "
			    "task of a document is held whole while it is read", INPUT_MAX_LINE >> 20,
			    at(d, 0));
		d->cap = d->len + d->chunk > d->cap * 2 ? d->len + d->chunk : d->cap * 2;
		d->buf = xrealloc(d->buf, d->cap);
	}
	/* a chunk at a time: the buffer is the element being read and one chunk */
	got = src_read(d->s, d->buf + d->len, d->chunk);
	if (d->s->error)
		return fail(d, d->s->error == ENOMEM ? ERR_INTERNAL : ERR_IO, "%s",
		    src_error(d->s));
	d->len += got;
	return got > 0 ? 1 : 0;
}

/* Past white space: 1 at a byte, 0 at the end of the input, -1 on an error. */
static int
skip_ws(struct ds *d)
{
	for (;;) {
		int r;

		while (d->pos < d->len && is_ws(d->buf[d->pos]))
			d->pos++;
		if (d->pos < d->len)
			return 1;
		if ((r = fill(d)) <= 0)
			return r;
	}
}

/* The length of the value at pos (complete: its closing bracket or quote read, or the
 * byte after a bare word), following strings and nesting, not checking the grammar
 * (the element's reader does): 1, 0 when the input ends inside it, -1 on an error. */
static int
value_end(struct ds *d, size_t *n)
{
	size_t i = 0;
	int depth = 0;
	bool str = false;

	for (;;) {
		const char *p, *e;
		int r;

		if (d->pos + i >= d->len) {
			if ((r = fill(d)) <= 0)
				return r;
			continue;
		}
		p = d->buf + d->pos + i;
		e = d->buf + d->len;
		if (str) {
			/* to the next quote or backslash */
			while (p < e && *p != '"' && *p != '\\')
				p++;
			i = (size_t)(p - d->buf) - d->pos;
			if (p == e)
				continue;
			if (*p == '\\') {
				if (p + 1 == e) {
					if ((r = fill(d)) <= 0)
						return r;
					continue;
				}
				i += 2;
				continue;
			}
			str = false;
			i++;
			if (depth == 0) {
				*n = i;
				return 1;
			}
			continue;
		}
		switch (*p) {
		case '"':
			str = true;
			break;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0) {
				*n = i;
				return 1;
			}
			if (--depth == 0) {
				*n = i + 1;
				return 1;
			}
			break;
		case ',':
		case ':':
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			if (depth == 0) {
				*n = i;
				return 1;
			}
			break;
		default:
			break;
		}
		i++;
	}
}

static void
merge(struct ds *d)
{
	input_merge(d->f, &d->c, d->set);
	d->merged = d->base + d->pos;
}

/* The array at pos ('['), its elements read into pc (where: "tasks", "failures" or "" for
 * a top-level array, for messages): 0 at its end, -1 on an error. */
static int
read_array(struct ds *d, struct pctx *pc, const char *where)
{
	size_t n;
	int r;

	d->pos++;   /* '[' */
	if ((r = skip_ws(d)) <= 0)
		goto short_read;
	if (d->buf[d->pos] == ']') {
		d->pos++;
		return 0;
	}
	for (;;) {
		if ((r = skip_ws(d)) <= 0 || (r = value_end(d, &n)) <= 0)
			goto short_read;
		if (n == 0)
			return fail(d, ERR_PARSE, "malformed JSON at byte %llu: a value expected in "
			    "%s[%zu]", at(d, d->pos), where, d->st.index);
		pc->line = line_at(d);   /* the element's, for its warnings */
		input_stream_element(&d->st, pc, d->buf + d->pos, n, d->base + d->pos);
		d->pos += n;
		if (pc->failed) {
			*d->err = pc->err;
			return -1;
		}
		if (d->base + d->pos - d->merged >= d->chunk)
			merge(d);
		if ((r = skip_ws(d)) <= 0)
			goto short_read;
		if (d->buf[d->pos] == ']') {
			d->pos++;
			return 0;
		}
		if (d->buf[d->pos] != ',')
			return fail(d, ERR_PARSE, "malformed JSON at byte %llu: ',' or ']' expected "
			    "after %s[%zu]", at(d, d->pos), where, d->st.index - 1);
		d->pos++;
	}
short_read:
	if (r < 0)
		return -1;
	return fail(d, ERR_PARSE, "truncated JSON: the input ends at byte %llu, inside %s[%zu] "
	    "(from byte %llu); the tasks before it are kept", at(d, d->len), where,
	    d->st.index, at(d, d->pos));
}

/* A value that is not one of the arrays, at pos, checked and described as the DOM
 * reader would (what, when not NULL: the message's words for it). n: its length. */
static int
other_value(struct ds *d, size_t n, const char *key, const char *what)
{
	json_error_t e;
	json_t *v = json_loadb(d->buf + d->pos, n, JSON_DECODE_ANY, &e);
	char desc[80];

	if (v == NULL) {
		input_sanitize(e.text);
		return fail(d, ERR_PARSE, "malformed JSON at byte %llu: %s",
		    at(d, d->pos + (size_t)(e.position > 0 ? e.position - 1 : 0)), e.text);
	}
	if (what != NULL && !json_is_null(v)) {
		input_describe(v, desc, sizeof desc);
		json_decref(v);
		return fail(d, ERR_PARSE, "\"%s\": expected %s, got %s", key, what, desc);
	}
	json_decref(v);
	d->pos += n;
	return 0;
}

/* The members of a DescribeTasks answer, pos at its '{'. */
static int
read_object(struct ds *d)
{
	bool seen[2] = { false, false };
	size_t n;
	int r;

	d->pos++;   /* '{' */
	for (bool first = true;; first = false) {
		char key[64];
		int which = -1;

		if ((r = skip_ws(d)) <= 0)
			goto short_read;
		if (first && d->buf[d->pos] == '}')
			break;
		if (d->buf[d->pos] != '"' || (r = value_end(d, &n)) <= 0) {
			if (r <= 0)
				goto short_read;
			return fail(d, ERR_PARSE, "malformed JSON at byte %llu: a member's name "
			    "expected", at(d, d->pos));
		}
		snprintf(key, sizeof key, "%.*s", n - 2 < sizeof key ? (int)(n - 2) : 0,
		    d->buf + d->pos + 1);
		if (strcmp(key, "tasks") == 0)
			which = 0;
		else if (strcmp(key, "failures") == 0)
			which = 1;
		for (size_t i = 0; i < sizeof other_shape / sizeof *other_shape; i++)
			if (strcmp(key, other_shape[i]) == 0)
				return fail(d, ERR_PARSE, "member \"%s\" at byte %llu: a document that "
				    "starts with \"tasks\" or \"failures\" is read as a DescribeTasks "
				    "answer", key, at(d, d->pos));
		if (which >= 0 && seen[which])
			return fail(d, ERR_PARSE, "\"%s\" named twice (again at byte %llu)", key,
			    at(d, d->pos));
		d->pos += n;
		if ((r = skip_ws(d)) <= 0)
			goto short_read;
		if (d->buf[d->pos] != ':')
			return fail(d, ERR_PARSE, "malformed JSON at byte %llu: ':' expected",
			    at(d, d->pos));
		d->pos++;
		if ((r = skip_ws(d)) <= 0)
			goto short_read;
		if (which >= 0 && d->buf[d->pos] == '[') {
			seen[which] = true;
			input_stream_close(&d->st);   /* the tasks' scratch; then failures[] */
			d->st.phase = which;
			if (read_array(d, which == 0 ? &d->c : &d->fc, key) != 0)
				return -1;
		} else {
			if ((r = value_end(d, &n)) <= 0)
				goto short_read;
			if (which >= 0)
				seen[which] = true;
			if (other_value(d, n, key, which == 0 ? "an array of tasks" :
			    which == 1 ? "an array" : NULL) != 0)
				return -1;
		}
		if ((r = skip_ws(d)) <= 0)
			goto short_read;
		if (d->buf[d->pos] == '}')
			break;
		if (d->buf[d->pos] != ',')
			return fail(d, ERR_PARSE, "malformed JSON at byte %llu: ',' or '}' expected",
			    at(d, d->pos));
		d->pos++;
	}
	d->pos++;   /* '}' */
	return 0;
short_read:
	if (r < 0)
		return -1;
	return fail(d, ERR_PARSE, "truncated JSON: the input ends at byte %llu, inside the "
	    "document; the tasks before it are kept", at(d, d->len));
}

int
input_docstream_takes(const char *p, size_t n)
{
	size_t i = 0;

	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && is_ws(p[i]))
		i++;
	if (i < n && p[i] == '[')
		return 1;
	if (i >= n || p[i] != '{')
		return 0;
	for (i++; i < n && is_ws(p[i]); i++)
		;
	return (n - i >= 7 && memcmp(p + i, "\"tasks\"", 7) == 0) ||
	    (n - i >= 10 && memcmp(p + i, "\"failures\"", 10) == 0);
}

int
input_docstream_read(struct fstate *f, struct src *s, char *data, size_t len,
    size_t cap, long line, struct task_set *set, char **rest, size_t *rest_len,
    long *rest_line, struct err *err)
{
	const struct input_options *o = f->opts;
	struct ds d;
	int rc;

	memset(&d, 0, sizeof d);
	d.f = f;
	d.s = s;
	d.set = set;
	d.err = err;
	d.buf = data;
	d.len = len;
	d.cap = cap;
	d.line = line;
	d.chunk = o->chunk_bytes ? o->chunk_bytes : (size_t)1 << 20;
	input_pctx_init(&d.c, f->name);
	input_pctx_init(&d.fc, f->name);
	if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		d.pos = 3;
	rc = skip_ws(&d);
	if (rc > 0) {
		/* warnings name the element's line (on one line: the document's, as the JSON
		 * Lines reader names it) */
		d.c.line = d.fc.line = line_at(&d);
		if (d.buf[d.pos] == '[') {
			d.st.array = true;
			rc = read_array(&d, &d.c, "");
		} else {
			rc = read_object(&d);
		}
	}
	merge(&d);
	input_merge(f, &d.fc, set);
	input_stream_close(&d.st);
	input_pctx_cleanup(&d.c);
	input_pctx_cleanup(&d.fc);
	if (rc < 0) {
		free(d.buf);
		return -1;
	}
	*rest_line = line_at(&d);
	memmove(d.buf, d.buf + d.pos, d.len - d.pos);
	*rest = d.buf;
	*rest_len = d.len - d.pos;
	return 0;
}
