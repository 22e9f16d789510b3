/* input_pctx: what every reader of a document shares: the results of parsing one
 * (tasks, warnings, image facts: a pctx), the document's errors, the jansson load that
 * warns about keys named twice, and the merging of the results into the set, in input
 * order. It calls no reader: the shape dispatch (input.c), the line and document readers
 * (input_lines.c), input_stream.c and input_export.c all build on it. */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/image.h"
#include "ecsprof/input.h"
#include "ecsprof/jsonscan.h"
#include "ecsprof/log.h"
#include "ecsprof/xalloc.h"
#include "image_int.h"
#include "input_int.h"

/* ---- warnings -------------------------------------------------------------------- */

void
input_warn(const struct fstate *f, const char *line)
{
	if (f->opts->warn != NULL)
		f->opts->warn(f->opts->warn_ctx, line);
	else
		log_warn(f->opts->log, "%s", line);
}

/* ---- results of parsing one document -------------------------------------------- */

/* The results grow in blocks that malloc takes as chunks of a power of two (the request
 * is that less the size_t glibc keeps before each chunk): a chunk's item array, freed
 * once merged, is then tiled by the string pools' blocks of 8 KB (task_pool.c) that come
 * after it. Doubling a count of items (120 bytes each) left a 30736-byte array to be
 * filled by three blocks and a 6 KB hole nothing fitted: 345 holes, 2.1 MB of a 200k-task
 * read's arenas (malloc_info). */
#define ITEMS_FIRST_BYTES ((size_t)2 << 10)

static void
items_grow(struct items *it)
{
	size_t head = sizeof(size_t), bytes = ITEMS_FIRST_BYTES;

	/* the chunk the array has now is the least power of two above its bytes */
	while (it->cap > 0 && bytes < it->cap * sizeof *it->v + head)
		bytes *= 2;
	if (it->cap > 0)
		bytes *= 2;
	it->v = xrealloc(it->v, bytes - head);
	it->cap = (bytes - head) / sizeof *it->v;
}

struct item *
input_items_push(struct items *it)
{
	if (it->n == it->cap)
		items_grow(it);
	memset(&it->v[it->n], 0, sizeof it->v[it->n]);
	return &it->v[it->n++];
}

static void
items_cleanup(struct items *it)
{
	for (size_t i = 0; i < it->n; i++) {
		if (it->v[i].kind == ITEM_TASK)
			task_cleanup(&it->v[i].task);
		image_set_free(it->v[i].images);
		free(it->v[i].msg);
	}
	free(it->v);
	memset(it, 0, sizeof *it);
}

void
input_emit_warn(struct pctx *c, enum item_kind kind, const char *fmt, ...)
{
	struct item *it = input_items_push(&c->out);
	struct buf b;
	va_list ap;
	char tmp[600];

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	buf_init(&b, 0);
	if (c->line > 0)
		buf_addf(&b, "%s:%ld: %s", c->name, c->line, tmp);
	else
		buf_addf(&b, "%s: %s", c->name, tmp);
	it->kind = kind;
	it->msg = buf_take(&b);
}

struct task_strpool *
input_pctx_pool(struct pctx *c)
{
	if (c->strings == NULL)
		c->strings = task_strpool_new();
	return c->strings;
}

void
input_emit_task(struct pctx *c, struct task *t, enum origin o)
{
	struct item *it = input_items_push(&c->out);

	it->kind = ITEM_TASK;
	it->origin = o;
	/* derived here, on the reader's thread (a worker's for JSON Lines), so that the
	 * merge does not (task_set_take_derived) */
	task_str(t, &task_edit_profile(t)->source, c->name);
	task_derive(t);
	it->task = *t;
	task_init(t);
}

int
input_doc_error(struct pctx *c, const char *fmt, ...)
{
	va_list ap;
	char tmp[480];

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	c->failed = true;
	if (c->line > 0)
		return err_set(&c->err, ERR_PARSE, "%s:%ld: %s", c->name, c->line, tmp);
	return err_set(&c->err, ERR_PARSE, "%s: %s", c->name, tmp);
}

/* ---- a document's errors ------------------------------------------------------------ */

static void
json_fail(struct pctx *c, const json_error_t *e, long line_base)
{
	char text[JSON_ERROR_TEXT_LENGTH + 1];
	long line = line_base > 0 ? line_base + (e->line > 1 ? e->line - 1 : 0) : e->line;

	snprintf(text, sizeof text, "%s", e->text);
	input_sanitize(text);
	c->failed = true;
	if (input_json_oom(e)) {
		/* jansson could not allocate: the JSON may well be fine */
		if (line > 0)
			err_set(&c->err, ERR_INTERNAL, "%s:%ld: out of memory parsing the JSON",
			    c->name, line);
		else
			err_set(&c->err, ERR_INTERNAL, "%s: out of memory parsing the JSON", c->name);
		return;
	}
	if (line > 0 && e->column > 0)
		err_set(&c->err, ERR_PARSE, "%s:%ld:%d: malformed JSON: %s", c->name, line,
		    e->column, text);
	else if (line > 0)
		err_set(&c->err, ERR_PARSE, "%s:%ld: malformed JSON: %s", c->name, line, text);
	else
		err_set(&c->err, ERR_PARSE, "%s: malformed JSON: %s", c->name, text);
}

/* jansson's lexer drops the bytes it has no memory to keep and then calls the text
 * malformed ('string or '}' expected'): text jsonscan.c reads as valid JSON was not, so
 * such an error is memory's (ERR_INTERNAL, 'out of memory parsing the JSON'). */
void
input_json_fail_text(struct pctx *c, json_error_t *e, long line_base, const char *p, size_t n)
{
	if (!input_json_oom(e) && jsonscan_document(p, n)) {
		e->text[0] = '\0';   /* input_json_oom() */
		e->line = 0;          /* where it ran out says nothing about the text */
	}
	json_fail(c, e, line_base);
}

bool
input_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}


/* ---- members named twice ------------------------------------------------------------ */

/* The duplicate keys of one text of a file, as warning items at their lines (the live
 * path's are input_task.c's). */
struct dup_ctx {
	struct pctx *c;
	long base;             /* the text's first line in the file; 0: a whole document */
};

static void
dup_warn(void *arg, long line, const char *arn, const char *path)
{
	struct dup_ctx *d = arg;
	char a[INPUT_DUP_PATH + 8], k[INPUT_DUP_PATH + 8];

	input_quote(k, sizeof k, path, strlen(path));
	a[0] = '\0';
	if (arn[0] != '\0') {
		input_quote(a, sizeof a, arn, strlen(arn));
		a[strlen(a) - 1] = '\0';   /* ARNs read better bare */
	}
	d->c->line = d->base > 0 ? d->base + line - 1 : line;
	input_emit_warn(d->c, ITEM_WARN, "%s%s%sduplicate key %s: the last value is used",
	    a[0] ? "task " : "", a[0] ? a + 1 : "", a[0] ? ": " : "", k);
}

static void
dup_scan(struct dup_ctx *d, const char *p, size_t n)
{
	long line = d->c->line;
	size_t said, found = input_dup_keys(p, n, dup_warn, d, &said);

	if (found > said) {
		d->c->line = d->base;
		input_emit_warn(d->c, ITEM_WARN, "%zu more duplicate keys not listed (the last value of "
		    "each is used)", found - said);
	}
	d->c->line = line;
}

json_t *
input_load(struct pctx *c, const char *p, size_t n, size_t flags, long line, json_error_t *e)
{
	json_t *root = json_loadb(p, n, flags | JSON_REJECT_DUPLICATES, e);
	struct dup_ctx d = { c, line };

	if (root != NULL || json_error_code(e) != json_error_duplicate_key)
		return root;
	root = json_loadb(p, n, flags, e);
	if (root != NULL)
		dup_scan(&d, p, (flags & JSON_DISABLE_EOF_CHECK) ? (size_t)e->position : n);
	return root;
}

/* ---- merging results into the set ------------------------------------------------ */

/* The results, and what the set did not take of their strings' pool. */
void
input_pctx_cleanup(struct pctx *c)
{
	items_cleanup(&c->out);
	task_strpool_free(c->strings);
	c->strings = NULL;
}

void
input_merge(struct fstate *f, struct pctx *c, struct task_set *set)
{
	for (size_t i = 0; i < c->out.n; i++) {
		struct item *it = &c->out.v[i];
		bool repeat;

		if (it->kind == ITEM_IMAGES) {
			if (set->images == NULL)
				set->images = image_set_new();
			image_set_merge(set->images, it->images);
			continue;
		}
		if (it->kind != ITEM_TASK) {
			input_warn(f, it->msg);
			if (it->kind == ITEM_FAILURE)
				f->st.failures++;
			else if (it->kind == ITEM_SKIP)
				f->st.skipped++;
			continue;
		}
		f->st.tasks++;
		f->st.events += it->origin == ORIGIN_EVENT;
		f->st.records += it->origin == ORIGIN_RECORD;
		f->st.metadata += it->origin == ORIGIN_METADATA;
		/* at-least-once delivery repeats states: counted here, merged by task_set_take
		 * (which keeps the newest version and fills what only one copy has) */
		task_set_take_derived(set, &it->task, &repeat);
		f->st.duplicates += repeat;
		it->kind = ITEM_SKIP; /* task moved out; nothing left to free but msg */
	}
	if (c->other_events > 0 && f->other_events == 0)
		snprintf(f->other_type, sizeof f->other_type, "%s", c->other_type);
	f->other_events += c->other_events;
	f->insights_other += c->insights_other;
	input_pctx_cleanup(c);
	c->other_events = 0;
	c->insights_other = 0;
}

void
input_pctx_init(struct pctx *c, const char *name)
{
	memset(c, 0, sizeof *c);
	c->name = name;
	err_clear(&c->err);
}

void
input_json_fail(struct pctx *c, const json_error_t *e, long line_base)
{
	json_fail(c, e, line_base);
}
