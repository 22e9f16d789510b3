/* input: the shape dispatch: which kind of document or line this is (DescribeTasks
 * response, task, EventBridge event, recording, task metadata), what each becomes, and the
 * merging of the results into the set, in input order. Bytes come from input_read.c,
 * field values from input_fields.c. */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "ecsprof/image.h"
#include "fastjson.h"
#include "image_int.h"
#include "input_int.h"
#include "input_serving.h"
#include "input_stream.h"
#include "ecsprof/jsonscan.h"
#include "taskscan.h"

/* ---- warnings -------------------------------------------------------------------- */

void
input_warn(const struct fstate *f, const char *line)
{
	if (f->opts->warn != NULL)
		f->opts->warn(f->opts->warn_ctx, line);
	else
		log_warn("%s", line);
}

/* ---- results of parsing one document -------------------------------------------- */

static struct item *
items_push(struct items *it)
{
	it->v = xgrow(it->v, it->n + 1, &it->cap, sizeof *it->v);
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

static void
emit_warn(struct pctx *c, enum item_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
emit_warn(struct pctx *c, enum item_kind kind, const char *fmt, ...)
{
	struct item *it = items_push(&c->out);
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
	struct item *it = items_push(&c->out);

	it->kind = ITEM_TASK;
	it->origin = o;
	/* not derived here: task_set_take() derives every task it takes */
	task_str(t, &t->source, c->name);
	it->task = *t;
	task_init(t);
}

static int
doc_error(struct pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
doc_error(struct pctx *c, const char *fmt, ...)
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


/* ---- document shapes ------------------------------------------------------------- */

enum shape { SHAPE_UNKNOWN, SHAPE_TASK, SHAPE_EVENT, SHAPE_RECORD, SHAPE_METADATA,
	SHAPE_ECR, SHAPE_DESCRIBE, SHAPE_SERVICES, SHAPE_INSIGHTS };

static enum shape
shape_of(const json_t *o)
{
	if (!json_is_object(o))
		return SHAPE_UNKNOWN;
	if (json_object_get(o, "ecsprof") != NULL)
		return SHAPE_RECORD;
	if (json_object_get(o, "detail-type") != NULL && json_object_get(o, "detail") != NULL)
		return SHAPE_EVENT;
	if (json_object_get(o, "TaskARN") != NULL)
		return SHAPE_METADATA;
	if (json_object_get(o, "taskArn") != NULL)
		return SHAPE_TASK;
	if (json_is_array(json_object_get(o, "imageDetails")) ||
	    (json_is_array(json_object_get(o, "images")) && json_object_get(o, "tasks") == NULL))
		return SHAPE_ECR;   /* aws ecr describe-images / batch-get-image */
	if (json_object_get(o, "tasks") != NULL || json_object_get(o, "failures") != NULL)
		return SHAPE_DESCRIBE;
	if (json_is_array(json_object_get(o, "services")))
		return SHAPE_SERVICES;   /* DescribeServices without failures: input_deploy.c's */
	if (input_is_insights(o))
		return SHAPE_INSIGHTS;
	if (input_scaleout_doc(o))
		return SHAPE_SERVICES;   /* a scale-out source document: input_scaleout.c's */   /* Container Insights performance log (input_export.c) */
	return SHAPE_UNKNOWN;
}

void
input_task_label(const json_t *o, const char *where, char *out, size_t size)
{
	const json_t *arn = json_is_object(o) ? json_object_get(o, "taskArn") : NULL;
	char q[200];

	if (arn == NULL && json_is_object(o))
		arn = json_object_get(o, "TaskARN");
	if (arn == NULL && json_is_object(o) && json_is_string(json_object_get(o, "TaskId"))) {
		/* a Container Insights event: its cluster and task id */
		const json_t *id = json_object_get(o, "TaskId"), *cl = json_object_get(o, "ClusterName");
		char c[100];

		input_quote(q, sizeof q, json_string_value(id), json_string_length(id));
		q[strlen(q) - 1] = '\0';
		c[0] = '\0';
		if (json_is_string(cl)) {
			input_quote(c, sizeof c, json_string_value(cl), json_string_length(cl));
			c[strlen(c) - 1] = '\0';
		}
		snprintf(out, size, "task %.60s%s%.100s%s%.40s%s", c[0] ? c + 1 : "", c[0] ? "/" : "", q + 1,
		    where[0] ? " (" : "", where, where[0] ? ")" : "");
		return;
	}
	if (json_is_string(arn)) {
		input_quote(q, sizeof q, json_string_value(arn), json_string_length(arn));
		/* drop the quotes: ARNs read better bare */
		q[strlen(q) - 1] = '\0';
		snprintf(out, size, "task %s%s%s%s", q + 1, where[0] ? " (" : "", where,
		    where[0] ? ")" : "");
	} else {
		snprintf(out, size, "%s", where[0] ? where : "task");
	}
}

/* The time fields input_parse_task() left out of a task it kept, one warning each. */
static void
warn_dropped(struct pctx *c, const json_t *o, const char *where, const struct why *w)
{
	char label[260];

	if (w->ndropped == 0)
		return;
	input_task_label(o, where, label, sizeof label);
	for (unsigned i = 0; i < w->ndropped; i++)
		emit_warn(c, ITEM_WARN, "%s: ignored %s", label, w->dropped[i]);
}

static void
one_task(struct pctx *c, const json_t *o, const char *where, enum origin origin,
    int64_t fetched_at_ms, const json_t *record)
{
	struct task t;
	struct why w;
	char label[260];

	task_init_pool(&t, input_pctx_pool(c));
	if (input_parse_task(o, &t, &w) != 0) {
		input_task_label(o, where, label, sizeof label);
		emit_warn(c, ITEM_SKIP, "skipped %s: %s", label, w.msg);
		task_cleanup(&t);
		return;
	}
	warn_dropped(c, o, where, &w);
	t.fetched_at_ms = fetched_at_ms;
	if (record != NULL)
		input_serving_record(record, &t);
	input_emit_task(c, &t, origin);
}

static void
one_event(struct pctx *c, const json_t *o, const char *where)
{
	const json_t *dt = json_object_get(o, "detail-type");
	const json_t *detail = json_object_get(o, "detail");
	char d[80], here[160];

	/* deployment and service events: input_deploy.c's, for report --deployments */
	if (json_is_string(dt) && input_deploy_event_type(json_string_value(dt)))
		return;
	if (!json_is_string(dt) || strcmp(json_string_value(dt), TASK_EVENT) != 0) {
		/* container-instance or service events in the same stream: counted, not noise */
		if (c->other_events++ == 0) {
			if (json_is_string(dt))
				input_quote(c->other_type, sizeof c->other_type,
				    json_string_value(dt), json_string_length(dt));
			else
				input_describe(dt, c->other_type, sizeof c->other_type);
		}
		return;
	}
	snprintf(here, sizeof here, "%s%sdetail", where, where[0] ? "." : "");
	if (!json_is_object(detail)) {
		input_describe(detail, d, sizeof d);
		emit_warn(c, ITEM_SKIP, "skipped event: %s: expected an object, got %s", here, d);
		return;
	}
	one_task(c, detail, where, ORIGIN_EVENT, TS_NONE, NULL);
}

/* Image facts: a recording's image line, or saved aws ecr output (image_parse.c). */
static int
one_images(struct pctx *c, const json_t *o, const char *where)
{
	struct image_set *s = image_set_new();
	struct item *it;
	char why[200];

	if (json_object_get(o, "ecsprof") != NULL) {
		struct image_facts f;

		if (image_facts_from_jobj(json_object_get(o, "image"), &f, why, sizeof why) != 0) {
			emit_warn(c, ITEM_SKIP, "skipped image line%s%s: %s", where[0] ? " " : "",
			    where, why);
			image_set_free(s);
			return 0;
		}
		image_set_put(s, &f);
	} else if (image_read_describe_images(o, s) < 0 && image_read_batch_get_image(o, s) < 0) {
		image_set_free(s);
		return -1;
	}
	it = items_push(&c->out);
	it->kind = ITEM_IMAGES;
	it->images = s;
	return 0;
}

static int
one_record(struct pctx *c, const json_t *o, const char *where)
{
	const json_t *tag = json_object_get(o, "ecsprof");
	const json_t *task = json_object_get(o, "task");
	int64_t fetched = TS_NONE;
	struct why w;
	char d[80], label[260];

	if (!json_is_string(tag) || strncmp(json_string_value(tag), "record/", 7) != 0) {
		input_describe(tag, d, sizeof d);
		return doc_error(c, "\"ecsprof\" is %s, expected \"%s\"", d, RECORD_TAG);
	}
	if (strcmp(json_string_value(tag), RECORD_TAG) != 0) {
		input_quote(d, sizeof d, json_string_value(tag), json_string_length(tag));
		return doc_error(c, "recording format %s is not supported (this ecsprof reads \"%s\")",
		    d, RECORD_TAG);
	}
	if (input_deploy_record_line(o))
		return 0;   /* a service's deployment or event: input_deploy.c reads those */
	if (task == NULL && json_is_object(json_object_get(o, "scaleout")))
		return 0;   /* a scale-out source document: input_scaleout.c's */
	if (json_object_get(o, "image") != NULL && task == NULL)
		return one_images(c, o, where);   /* image facts (image_parse.c) */
	if (!json_is_object(task)) {
		input_describe(task, d, sizeof d);
		emit_warn(c, ITEM_SKIP, "skipped record%s%s: task: expected an object, got %s",
		    where[0] ? " " : "", where, d);
		return 0;
	}
	w.msg[0] = '\0';
	if (input_get_time(o, "fetched_at", &fetched, &w) != 0) {
		/* as a bad time in the task: the field is dropped, not the task (a3bdc71) */
		input_task_label(task, where, label, sizeof label);
		emit_warn(c, ITEM_WARN, "%s: ignored %s", label, w.msg);
		fetched = TS_NONE;
	}
	one_task(c, task, where, ORIGIN_RECORD, fetched, o);
	return 0;
}

static void
one_metadata(struct pctx *c, const json_t *o, const char *where)
{
	struct task t;
	struct why w;
	char label[260];

	task_init_pool(&t, input_pctx_pool(c));
	if (input_parse_metadata(o, &t, &w) != 0) {
		input_task_label(o, where, label, sizeof label);
		emit_warn(c, ITEM_SKIP, "skipped task metadata %s: %s", label, w.msg);
		task_cleanup(&t);
		return;
	}
	warn_dropped(c, o, where, &w);
	input_emit_task(c, &t, ORIGIN_METADATA);
}

static void
one_insights(struct pctx *c, const json_t *o, const char *where)
{
	struct task t;
	struct why w;
	char label[260];

	if (!input_insights_is_task(o)) {
		c->insights_other++;   /* Container, Instance, Service...: no task times */
		return;
	}
	task_init_pool(&t, input_pctx_pool(c));
	if (input_parse_insights(o, &t, &w) != 0) {
		input_task_label(o, where, label, sizeof label);
		emit_warn(c, ITEM_SKIP, "skipped Container Insights %s: %s", label, w.msg);
		task_cleanup(&t);
		return;
	}
	warn_dropped(c, o, where, &w);
	input_emit_task(c, &t, ORIGIN_TASK);
}

static int
one_describe(struct pctx *c, const json_t *o)
{
	const json_t *tasks = json_object_get(o, "tasks");
	const json_t *failures = json_object_get(o, "failures");
	char d[80];

	if (tasks != NULL && !json_is_null(tasks) && !json_is_array(tasks)) {
		input_describe(tasks, d, sizeof d);
		return doc_error(c, "\"tasks\": expected an array of tasks, got %s", d);
	}
	if (failures != NULL && !json_is_null(failures) && !json_is_array(failures)) {
		input_describe(failures, d, sizeof d);
		return doc_error(c, "\"failures\": expected an array, got %s", d);
	}
	for (size_t i = 0; i < json_array_size(tasks); i++)
		input_describe_task(c, json_array_get(tasks, i), i);
	for (size_t i = 0; i < json_array_size(failures); i++)
		input_describe_failure(c, json_array_get(failures, i));
	return 0;
}

void
input_describe_task(struct pctx *c, const json_t *t, size_t i)
{
	char d[80], where[40];

	snprintf(where, sizeof where, "tasks[%zu]", i);
	if (!json_is_object(t)) {
		input_describe(t, d, sizeof d);
		emit_warn(c, ITEM_SKIP, "skipped %s: expected a task object, got %s", where, d);
		return;
	}
	one_task(c, t, where, ORIGIN_TASK, TS_NONE, NULL);
}

void
input_describe_failure(struct pctx *c, const json_t *f)
{
	const json_t *arn = json_object_get(f, "arn"), *reason = json_object_get(f, "reason");
	const json_t *detail = json_object_get(f, "detail");
	char qa[200] = "(no arn)", qr[80] = "(no reason)", qd[200] = "";

	if (json_is_string(arn))
		input_quote(qa, sizeof qa, json_string_value(arn), json_string_length(arn));
	if (json_is_string(reason))
		input_quote(qr, sizeof qr, json_string_value(reason), json_string_length(reason));
	if (json_is_string(detail))
		input_quote(qd, sizeof qd, json_string_value(detail), json_string_length(detail));
	emit_warn(c, ITEM_FAILURE, "DescribeTasks failure: %s: %s%s%s", qa, qr,
	    qd[0] ? " " : "", qd);
}

/* One element of a top-level array, or a whole object document. */
static int
one_object(struct pctx *c, const json_t *o, const char *where)
{
	switch (shape_of(o)) {
	case SHAPE_TASK:
		one_task(c, o, where, ORIGIN_TASK, TS_NONE, NULL);
		return 0;
	case SHAPE_EVENT:
		one_event(c, o, where);
		return 0;
	case SHAPE_RECORD:
		return one_record(c, o, where);
	case SHAPE_METADATA:
		one_metadata(c, o, where);
		return 0;
	case SHAPE_ECR:
		return where[0] == '\0' ? one_images(c, o, where) : -1;
	case SHAPE_DESCRIBE:
		/* a response nested in an array is not a shape anyone writes */
		return where[0] == '\0' ? one_describe(c, o) : -1;
	case SHAPE_SERVICES:
		return where[0] == '\0' ? 0 : -1;
	case SHAPE_INSIGHTS:
		one_insights(c, o, where);
		return 0;
	case SHAPE_UNKNOWN:
		break;
	}
	return -1;
}

/* Drops the results pushed since n (a document rejected as a whole). */
static void
items_truncate(struct items *it, size_t n)
{
	for (size_t i = n; i < it->n; i++) {
		if (it->v[i].kind == ITEM_TASK)
			task_cleanup(&it->v[i].task);
		image_set_free(it->v[i].images);
		free(it->v[i].msg);
	}
	it->n = n;
}

int
input_array_element(struct pctx *c, const json_t *el, size_t i)
{
	size_t before = c->out.n;
	char where[40], d[80];

	snprintf(where, sizeof where, "[%zu]", i);
	if (json_is_object(el) && one_object(c, el, where) == 0)
		return 1;
	if (c->failed)
		return -1;
	items_truncate(&c->out, before);
	input_describe(el, d, sizeof d);
	emit_warn(c, ITEM_SKIP, "skipped %s: not a task or task event (got %s)", where,
	    json_is_object(el) ? "an object of unknown shape" : d);
	return 0;
}

static int
dispatch(struct pctx *c, const json_t *root)
{
	size_t known = 0, start = c->out.n;

	if (json_is_object(root)) {
		if (one_object(c, root, "") == 0)
			return 0;
		if (c->failed)
			return -1;
		if (input_unknown_hint(root) != NULL)
			return doc_error(c, "not a known input: %s", input_unknown_hint(root));
		return doc_error(c, "not a known input: expected a DescribeTasks response, a task, "
		    "an EventBridge task event, an ecsprof recording, a task metadata document or "
		    "a Container Insights performance log event");
	}
	for (size_t i = 0; i < json_array_size(root); i++) {
		int k = input_array_element(c, json_array_get(root, i), i);

		if (k < 0)
			return -1;
		known += (size_t)k;
	}
	if (json_array_size(root) > 0 && known == 0) {
		items_truncate(&c->out, start); /* warnings about a document rejected whole */
		return doc_error(c, "not a known input: an array with no task or task event in it");
	}
	return 0;
}

/* ---- parsing bytes ----------------------------------------------------------------- */

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
static void
json_fail_text(struct pctx *c, json_error_t *e, long line_base, const char *p, size_t n)
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
	emit_warn(d->c, ITEM_WARN, "%s%s%sduplicate key %s: the last value is used",
	    a[0] ? "task " : "", a[0] ? a + 1 : "", a[0] ? ": " : "", k);
}

static void
dup_scan(struct dup_ctx *d, const char *p, size_t n)
{
	long line = d->c->line;
	size_t said, found = input_dup_keys(p, n, dup_warn, d, &said);

	if (found > said) {
		d->c->line = d->base;
		emit_warn(d->c, ITEM_WARN, "%zu more duplicate keys not listed (the last value of "
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

/* A task state change event or a recording's task line read by taskscan.c straight into a
 * task: true when it took the line, false when the line is for jansson. */
static bool
scan_line(struct pctx *c, const char *p, size_t n, char *buf, long line)
{
	struct task t;
	enum origin origin;

	task_init_pool(&t, input_pctx_pool(c));
	if (taskscan_line(p, n, buf, &t, &origin) != 0)
		return false;
	c->line = line;
	c->scanned++;
	input_emit_task(c, &t, origin);
	return true;
}

/* A long line that is a DescribeTasks answer or an array (jq -c's), element by element
 * (input_stream.c) as a whole document is: true when it was read so. */
static bool
stream_line(struct pctx *c, const char *p, size_t n, long line)
{
	struct input_stream s;

	if (c->stream_bytes == 0 || n < c->stream_bytes || c->dom_only ||
	    input_stream_open(&s, p, n) != 0)
		return false;
	c->line = line;
	while (input_stream_next(&s, c, SIZE_MAX))
		;
	input_stream_close(&s);
	return true;
}

/* Task events and recorded tasks are read without a DOM (taskscan.c); other plain lines skip
 * jansson's lexer (fastjson.c); on any other, json_loadb() starts again, so jansson words
 * every error. */
void
input_parse_lines(struct pctx *c, const char *data, size_t len, long first_line)
{
	const char *p = data, *end = data + len;
	long line = first_line;
	char *buf = NULL;   /* scratch for taskscan and fastjson: the longest line's size */
	size_t bufcap = 0;

	while (p < end && !c->failed) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (input_blank(p, n)) {
			line++;
			p += n + 1;
			continue;
		}
		if (stream_line(c, p, n, line)) {
			/* a document on one line, read element by element: no scratch needed */
			line++;
			p += n + 1;
			continue;
		}
		if (bufcap < n + 1) {
			free(buf);
			bufcap = n + 1 > 4096 ? n + 1 : 4096;
			buf = xmalloc(bufcap);
		}
		if (!c->dom_only && scan_line(c, p, n, buf, line)) {
			/* a task read without a DOM (taskscan.c) */
		} else {
			json_error_t e;
			size_t skip = input_log_prefix(p, n);   /* CloudWatch Logs export */
			json_t *root = fastjson_load(p + skip, n - skip, buf);

			c->line = line;
			if (root == NULL)
				root = input_load(c, p + skip, n - skip, 0, line, &e);
			if (root == NULL) {
				if (input_parse_concat(c, p + skip, n - skip, line) == 0) {
					if (c->failed)
						break;
					line++;
					p += n + 1;
					continue;
				}
				json_fail_text(c, &e, line, p + skip, n - skip);
				if (input_text_hint(p, n) != NULL)
					err_set(&c->err, ERR_PARSE, "%s:%ld: not a known input: %s", c->name,
					    line, input_text_hint(p, n));
				break;
			}
			dispatch(c, root);
			json_decref(root);
		}
		line++;
		p += n + 1;
	}
	free(buf);
}

void
input_parse_doc(struct pctx *c, const char *data, size_t len)
{
	json_error_t e;
	json_t *root;

	c->line = 0;
	root = input_load(c, data, len, 0, 0, &e);
	if (root == NULL) {
		if (input_parse_concat(c, data, len, 1) == 0)
			return;   /* pretty-printed values one after another */
		json_fail_text(c, &e, 0, data, len);
		return;
	}
	dispatch(c, root);
	json_decref(root);
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
		task_set_take_seen(set, &it->task, &repeat);
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


int
input_dispatch(struct pctx *c, const json_t *root)
{
	return dispatch(c, root);
}

void
input_json_fail(struct pctx *c, const json_error_t *e, long line_base)
{
	json_fail(c, e, line_base);
}
