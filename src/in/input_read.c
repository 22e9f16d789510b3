/* input_read: bytes from a file, stdin or memory (input_src.c) into documents: tells the
 * input's shape from its first chunk; JSON Lines go on as chunks (input_chunk.c) parsed
 * by a pool of workers (input_pool.c); one whole document, from a file or stdin, when
 * large and a DescribeTasks answer or an array, is read as it comes (input_docstream.c,
 * on one line or many); any other held once, and when large read element by element
 * (input_stream.c) and given back as it is read. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecsprof/input.h"
#include "ecsprof/ncpu.h"
#include "ecsprof/xalloc.h"
#include "input_chunk.h"
#include "input_gzip.h"
#include "input_docstream.h"
#include "input_src.h"
#include "input_int.h"
#include "input_stream.h"
#include "ecsprof/jsonscan.h"

static unsigned
thread_count(unsigned asked)
{
	unsigned n;

	if (asked > 0)
		return asked;
	n = ncpu_usable();   /* `taskset -c 0`: one worker, not two taking turns on a core */
	return n > 4 ? 4 : n;
}

/* From this size on a whole document (or a JSON Lines line that is one) of the shapes
 * input_stream.c reads is read element by element. */
static size_t
stream_min(const struct input_options *o)
{
	return o->stream_bytes ? o->stream_bytes : (size_t)1 << 20;
}

/* The whole pages of our own text before upto go back to the system as the stream
 * reads past them, so the text shrinks while the tasks grow (the block stays allocated,
 * freed as a whole later; only bytes that are never read again are dropped). */
static void
text_release(const char *data, const char *upto, size_t *done)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)data + *done + page - 1) & ~(page - 1);
	uintptr_t to = (uintptr_t)upto & ~(page - 1);

	if (page == 0 || (page & (page - 1)) != 0 || to < from + ((uintptr_t)4 << 20))
		return;
	if (madvise((void *)from, to - from, MADV_DONTNEED) == 0)
		*done = (size_t)(to - (uintptr_t)data);
}

/* A document opened as a stream (s), a batch at a time, each merged as it goes, so
 * memory is the text and the tasks; the text, when it is ours (owned), given back as it
 * is read. line: the document's line (a JSON Lines line), 0 for a whole document. */
static int
stream_batches(struct fstate *f, struct input_stream *s, const char *data, bool owned,
    long line, struct task_set *set, struct err *err)
{
	const struct input_options *o = f->opts;
	size_t batch = o->chunk_bytes ? o->chunk_bytes : (size_t)1 << 20, released = 0;
	struct pctx c;
	int more = 1;

	input_pctx_init(&c, f->name);
	c.line = line;
	while (more) {
		more = input_stream_next(s, &c, batch);
		input_merge(f, &c, set);
		if (c.failed)
			break;
		if (owned)
			text_release(data, input_stream_read_upto(s), &released);
	}
	input_stream_close(s);
	if (c.failed)
		*err = c.err;
	return c.failed ? -1 : 0;
}

/* One whole document in memory: element by element when it is large and of a shape
 * input_stream.c reads so, else as one DOM. */
static int
parse_whole(struct fstate *f, const char *data, size_t len, bool owned,
    struct task_set *set, struct err *err)
{
	struct input_stream s;
	struct pctx c;

	if (len >= stream_min(f->opts) && input_stream_open(&s, data, len) == 0)
		return stream_batches(f, &s, data, owned, 0, set, err);
	input_pctx_init(&c, f->name);
	input_parse_doc(&c, data, len);
	input_merge(f, &c, set);
	if (c.failed)
		*err = c.err;
	return c.failed ? -1 : 0;
}

/* A document read as it comes (input_docstream.c) from data (len bytes of cap, handed
 * over; line: its first line) on, then what follows it, as JSON Lines (a one-line
 * document is the first line of JSON Lines). */
static int
stream_doc(struct fstate *f, struct reader *r, char *data, size_t len, size_t cap, long line,
    struct task_set *set, struct err *err)
{
	struct chunk k;
	char *rest;
	size_t rest_len;

	if (input_docstream_read(f, r->src, data, len, cap, line, set, &rest, &rest_len,
	    &r->next_line, err) != 0)
		return -1;
	free(r->carry);
	r->carry = rest;
	r->carry_len = rest_len;
	r->max_line = INPUT_MAX_LINE;
	r->probe = 0;
	memset(&k, 0, sizeof k);
	return input_lines_parse(f, r, &k, 1, set, err);
}

/* The rest of the input after the first chunk, appended to it in place (one copy of the
 * document, grown by realloc, which moves no bytes of a large block on Linux), then
 * parsed whole. */
static int
read_whole(struct fstate *f, struct reader *r, struct chunk *first, struct task_set *set,
    struct err *err)
{
	char *d;
	size_t len, cap;
	int rc;

	if (src_in_place(r->src)) {
		/* in memory already: parse in place (after a byte order mark, if any) */
		size_t bom = r->src->len >= 3 && memcmp(r->src->mem, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;

		return parse_whole(f, r->src->mem + bom, r->src->len - bom, false, set, err);
	}
	len = first->len;
	cap = len + r->carry_len + ((size_t)1 << 16);
	d = xrealloc(first->data, cap);
	first->data = NULL;
	if (r->carry_len > 0)   /* carry is NULL when nothing was carried */
		memcpy(d + len, r->carry, r->carry_len);
	len += r->carry_len;
	r->carry_len = 0;
	/* enough to tell its shape, and to be large */
	while (!r->src->eof && (len < stream_min(f->opts) || len < 64) && len <= INPUT_MAX_DOC) {
		if (cap - len < ((size_t)1 << 16)) {
			cap = cap * 2 > INPUT_MAX_DOC + 2 ? INPUT_MAX_DOC + 2 : cap * 2;
			d = xrealloc(d, cap);
		}
		len += src_read(r->src, d + len, cap - len - 1 < r->chunk_bytes ? cap - len - 1 :
		    r->chunk_bytes);
	}
	/* a large document of a shape input_docstream.c reads: as it comes, not held */
	if (!r->src->eof && !r->src->error && !f->opts->whole_doc &&
	    input_docstream_takes(d, len))
		return stream_doc(f, r, d, len, cap, first->first_line, set, err);
	while (!r->src->eof && len <= INPUT_MAX_DOC) {
		if (cap - len < ((size_t)1 << 16)) {
			cap = cap * 2 > INPUT_MAX_DOC + 2 ? INPUT_MAX_DOC + 2 : cap * 2;
			d = xrealloc(d, cap);
		}
		len += src_read(r->src, d + len, cap - len - 1);
	}
	if (r->src->error) {
		free(d);
		return err_set(err, r->src->error == ENOMEM ? ERR_INTERNAL : ERR_IO, "%s: %s",
		    f->name, src_error(r->src));
	}
	if (len > INPUT_MAX_DOC) {
		free(d);
		return err_set(err, ERR_PARSE, "%s: a document larger than %zu MiB is not "
		    "supported; write it as JSON Lines (one task or event per line)", f->name,
		    INPUT_MAX_DOC >> 20);
	}
	d[len] = '\0';
	rc = parse_whole(f, d, len, true, set, err);
	free(d);
	return rc;
}

/* The whole input is one line from p on (blank lines around it aside), a document as
 * long as stream_min() that input_stream.c reads: read it so, its results merged batch by
 * batch (with the line's number in warnings, as the JSON Lines reader gives them), where
 * the line reader would hold all its tasks twice before merging. false: not such an
 * input, nothing done. */
static bool
try_one_line(struct fstate *f, struct chunk *first, const char *p, struct task_set *set,
    int *rc, struct err *err)
{
	const char *end = first->data + first->len, *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
	struct input_stream s;
	long line = first->first_line;

	if (n < stream_min(f->opts) || (nl != NULL && !input_blank(nl, (size_t)(end - nl))) ||
	    input_stream_open(&s, p, n) != 0)
		return false;
	for (const char *q = first->data; (q = memchr(q, '\n', (size_t)(p - q))) != NULL; q++)
		line++;
	*rc = stream_batches(f, &s, first->data, true, line, set, err);
	return true;
}

/* Decides between JSON Lines and one whole document from the first non-blank line: when
 * it is a complete JSON value on its own, the input is JSON Lines (a one-line document is
 * JSON Lines of one line); when it ends early, the document spans lines. */
static int
read_src(const char *name, struct src *s, const struct input_options *o,
    struct task_set *set, struct input_stats *st, struct err *err)
{
	static const struct input_options defaults;
	struct fstate f;
	struct reader r;
	struct chunk first;
	const char *p, *end;
	int rc = 0, more;
	bool whole = false;

	if (o == NULL)
		o = &defaults;
	s->gz_alloc.zalloc = o->gz_alloc;
	s->gz_alloc.zfree = o->gz_free;
	s->gz_alloc.opaque = o->gz_opaque;
	memset(&f, 0, sizeof f);
	f.name = name;
	f.opts = o;
	memset(&r, 0, sizeof r);
	r.src = s;
	r.name = name;
	r.chunk_bytes = o->chunk_bytes ? o->chunk_bytes : (size_t)1 << 20;
	r.next_line = 1;
	r.max_line = INPUT_MAX_DOC;
	r.probe = (s->f != NULL || s->copy) && !o->whole_doc ? stream_min(o) : 0;
	memset(&first, 0, sizeof first);
	json_object_seed(0); /* before any thread: jansson seeds its hash once */

	more = input_chunk_read(&r, &first, err);
	r.max_line = INPUT_MAX_LINE;
	if (more < 0)
		goto out_err;
	if (more == 0)
		goto empty;
	if (r.partial) {
		r.partial = false;
		r.probe = 0;
		if (input_docstream_takes(first.data, first.len)) {
			/* a first line of 1 MiB and more that starts a DescribeTasks answer or an
			 * array: read as it comes, not held whole */
			rc = stream_doc(&f, &r, first.data, first.len, first.len, 1, set, err);
			first.data = NULL;
			goto read;
		}
		/* any other: the first line read on whole, as before */
		r.carry = first.data;
		r.carry_len = first.len;
		first.data = NULL;
		r.max_line = INPUT_MAX_DOC;
		more = input_chunk_read(&r, &first, err);
		r.max_line = INPUT_MAX_LINE;
		if (more < 0)
			goto out_err;
		if (more == 0)
			goto empty;
	}
	/* a UTF-8 byte order mark, as some Windows editors write, is not JSON */
	if (first.len >= 3 && memcmp(first.data, "\xef\xbb\xbf", 3) == 0)
		memset(first.data, ' ', 3);
	p = first.data;
	end = first.data + first.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!input_blank(p, n) && n > INPUT_MAX_LINE) {
			/* longer than a JSON Lines line may be: one document (jq -c's), read whole;
			 * values after it on other lines are read as a concatenation of documents */
			whole = true;
			break;
		} else if (!input_blank(p, n)) {
			json_error_t e;
			json_t *root;

			if (jsonscan_document(p, n))
				break;   /* as json_loadb would say, without a DOM of a long line */
			root = json_loadb(p, n, 0, &e);
			if (root != NULL)
				json_decref(root);
			else if (json_error_code(&e) == json_error_premature_end_of_input)
				whole = true;
			break;
		}
		p += n + 1;
	}
	if (p >= end && r.src->eof)
		goto empty;
	if (!whole && r.src->eof && try_one_line(&f, &first, p, set, &rc, err)) {
		/* the input is one long line, a document: read as a stream, batch by batch */
		free(first.data);
	} else if (whole) {
		if (src_in_place(s)) {
			free(first.data);
			first.data = NULL;
		}
		rc = read_whole(&f, &r, &first, set, err);
		free(first.data);
	} else {
		unsigned nt = thread_count(o->threads);

		/* a small input (all read already) or one CPU: no threads */
		rc = input_lines_parse(&f, &r, &first, nt <= 1 || r.src->eof ? 1 : nt, set, err);
	}
read:
	free(r.carry);
	if (f.other_events > 0) {
		char msg[400];

		snprintf(msg, sizeof msg, "%s: skipped %zu EventBridge event%s that %s not \"%s\" "
		    "(first: detail-type %s)", name, f.other_events, f.other_events == 1 ? "" : "s",
		    f.other_events == 1 ? "is" : "are", TASK_EVENT, f.other_type);
		input_warn(&f, msg);
		f.st.skipped += f.other_events;
	}
	if (f.insights_other > 0 && f.st.tasks == 0) {
		char msg[300];

		/* the log group mixes them; only when nothing else came is it news */
		snprintf(msg, sizeof msg, "%s: skipped %zu Container Insights event%s that %s not "
		    "\"Type\": \"Task\" (only those carry task times)", name, f.insights_other,
		    f.insights_other == 1 ? "" : "s", f.insights_other == 1 ? "is" : "are");
		input_warn(&f, msg);
	}
	if (rc == 0 && f.st.tasks == 0 && f.st.skipped > 0)
		rc = err_set(err, ERR_PARSE, "%s: no usable task in it (%zu skipped, see the warnings)",
		    name, f.st.skipped);
	goto add;
empty:
	{
		char msg[300];

		snprintf(msg, sizeof msg, "%s: empty input, no tasks in it", name);
		input_warn(&f, msg);
	}
	free(first.data);
	free(r.carry);
	return 0;
out_err:
	free(r.carry);
	rc = -1;
add:
	if (st != NULL) {
		st->tasks += f.st.tasks;
		st->events += f.st.events;
		st->records += f.st.records;
		st->metadata += f.st.metadata;
		st->duplicates += f.st.duplicates;
		st->skipped += f.st.skipped;
		st->failures += f.st.failures;
	}
	return rc;
}


int
input_read_mem_with(const char *name, const char *data, size_t len,
    const struct input_options *o, struct task_set *set, struct input_stats *st,
    struct err *err)
{
	struct src s;
	int rc;

	memset(&s, 0, sizeof s);
	s.mem = data;
	s.len = len;
	s.copy = o != NULL && o->mem_as_file;
	rc = read_src(name, &s, o, set, st, err);
	input_gz_free(s.gz);
	return rc;
}

int
input_read_mem(const char *name, const char *data, size_t len, struct task_set *set,
    struct input_stats *st, struct err *err)
{
	return input_read_mem_with(name, data, len, NULL, set, st, err);
}

int
input_read_file_with(const char *path, const struct input_options *o,
    struct task_set *set, struct input_stats *st, struct err *err)
{
	struct src s;
	struct stat sb;
	int rc;

	memset(&s, 0, sizeof s);
	if (strcmp(path, "-") == 0) {
		s.f = stdin;
		s.o = o;
		rc = read_src("-", &s, o, set, st, err);
		input_gz_free(s.gz);
		return rc;
	}
	s.f = fopen(path, "rb");
	if (s.f == NULL)
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, err_strerror(errno));
	s.o = o;
	if (fstat(fileno(s.f), &sb) == 0 && S_ISREG(sb.st_mode))
		s.total = (uint64_t)sb.st_size;
	rc = read_src(path, &s, o, set, st, err);
	input_gz_free(s.gz);
	fclose(s.f);
	return rc;
}

int
input_read_file(const char *path, struct task_set *set, struct input_stats *st,
    struct err *err)
{
	return input_read_file_with(path, NULL, set, st, err);
}
