/* input: every shape of saved task data into struct task, with jansson kept inside this
 * file and fastjson.c, its reader for plain lines. JSON Lines are read as a stream in
 * chunks that worker threads parse while the calling thread reads ahead and merges results
 * in input order, so memory follows the number of tasks, not the file size, and the output
 * never depends on thread timing. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "fastjson.h"
#include "input_serving.h"

#define RECORD_TAG "record/1"
#define TASK_EVENT "ECS Task State Change"

/* ---- warnings -------------------------------------------------------------------- */

static void
warn_stderr(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "ecsprof: warning: %s\n", line);
}

static input_warn_fn *warn_fn = warn_stderr;
static void *warn_ctx;
static unsigned tune_threads;
static size_t tune_chunk;

void
input_set_warn(input_warn_fn *fn, void *ctx)
{
	warn_fn = fn ? fn : warn_stderr;
	warn_ctx = fn ? ctx : NULL;
}

void
input_set_tuning(unsigned threads, size_t chunk_bytes)
{
	tune_threads = threads;
	tune_chunk = chunk_bytes;
}

/* Untrusted text inside a message: printable ASCII only, so a message stays one line and
 * never carries terminal escapes; long values are cut. */
static void
quote_text(char *out, size_t size, const char *s, size_t len)
{
	size_t o = 0, max = size > 200 ? 192 : size - 8;

	if (size < 16)
		return;
	out[o++] = '"';
	for (size_t i = 0; i < len && o + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == max) {
			out[o++] = '.';
			out[o++] = '.';
			out[o++] = '.';
			break;
		}
		out[o++] = (c >= 0x20 && c < 0x7f && c != '"') ? (char)c : '?';
	}
	out[o++] = '"';
	out[o] = '\0';
}

static void
sanitize(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

static void
describe(const json_t *v, char *out, size_t size)
{
	if (v == NULL) {
		/* a member that is missing altogether, e.g. a recording line without "task" */
		snprintf(out, size, "nothing");
		return;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		quote_text(out, size, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		snprintf(out, size, "the number %" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(out, size, "the number %g", json_real_value(v));
		break;
	case JSON_OBJECT:
		snprintf(out, size, "an object");
		break;
	case JSON_ARRAY:
		snprintf(out, size, "an array");
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		snprintf(out, size, "a boolean");
		break;
	default:
		snprintf(out, size, "null");
		break;
	}
}

/* ---- results of parsing one document -------------------------------------------- */

enum origin { ORIGIN_TASK, ORIGIN_EVENT, ORIGIN_RECORD, ORIGIN_METADATA };

enum item_kind { ITEM_TASK, ITEM_SKIP, ITEM_FAILURE };

struct item {
	enum item_kind kind;
	enum origin origin;
	struct task task;   /* ITEM_TASK */
	char *msg;          /* warnings: the whole line, "FILE:LINE: ..." */
};

struct items {
	struct item *v;
	size_t n, cap;
};

static struct item *
items_push(struct items *it)
{
	if (it->n == it->cap) {
		it->cap = it->cap ? it->cap * 2 : 16;
		it->v = xreallocarray(it->v, it->cap, sizeof *it->v);
	}
	memset(&it->v[it->n], 0, sizeof it->v[it->n]);
	return &it->v[it->n++];
}

static void
items_cleanup(struct items *it)
{
	for (size_t i = 0; i < it->n; i++) {
		if (it->v[i].kind == ITEM_TASK)
			task_cleanup(&it->v[i].task);
		free(it->v[i].msg);
	}
	free(it->v);
	memset(it, 0, sizeof *it);
}

/* What parsing one document needs and produces; one per worker chunk. */
struct pctx {
	const char *name;
	long line;             /* line of the document in the file; 0 for a whole document */
	struct items out;
	size_t other_events;   /* EventBridge events that are not task state changes */
	char other_type[80];
	bool failed;           /* document-level error in err */
	struct err err;
	struct task_strpool *strings;   /* of the tasks in out (those parsed by one_task) */
};

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

static void
emit_task(struct pctx *c, struct task *t, enum origin o)
{
	struct item *it = items_push(&c->out);

	it->kind = ITEM_TASK;
	it->origin = o;
	/* not derived here: task_set_take() derives every task it takes */
	if (t->pool != NULL)
		task_strpool_assign(t->pool, &t->source, c->name, strlen(c->name));
	else
		t->source = xstrdup(c->name);
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

/* ---- one task object ------------------------------------------------------------- */

/* Field problems are collected as "FIELD: what" so the caller can name the task first. */
struct why {
	char msg[320];
};

static int
why_set(struct why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
why_set(struct why *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof w->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* "containers[2]." before a field problem found inside an array element */
static void
why_in(struct why *w, const char *array, size_t i)
{
	char inner[sizeof w->msg + 64];
	size_t n;

	snprintf(inner, sizeof inner, "%s[%zu].%s", array, i, w->msg);
	n = strnlen(inner, sizeof w->msg - 1);
	memcpy(w->msg, inner, n);
	w->msg[n] = '\0';
}

/* The string at key, checked; *out is NULL when it is absent or null. */
static int
str_value(const json_t *obj, const char *key, const json_t **out, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v)) {
		describe(v, d, sizeof d);
		return why_set(w, "%s: expected a string, got %s", key, d);
	}
	if (json_string_length(v) > INPUT_MAX_STRING)
		return why_set(w, "%s: a string of %zu bytes, longer than the %zu-byte limit", key,
		    json_string_length(v), INPUT_MAX_STRING);
	*out = v;
	return 0;
}

static int
get_str(const json_t *obj, const char *key, char **dst, struct why *w)
{
	const json_t *v;

	if (str_value(obj, key, &v, w) != 0)
		return -1;
	if (v != NULL) {
		free(*dst);
		*dst = xstrndup(json_string_value(v), json_string_length(v));
	}
	return 0;
}

/* A string of task t: from t's pool when it has one (a worker's chunk: one copy of each
 * text instead of a malloc per field), else t's own copy. */
static int
get_task_str(const struct task *t, const json_t *obj, const char *key, char **dst,
    struct why *w)
{
	const json_t *v;

	if (t->pool == NULL)
		return get_str(obj, key, dst, w);
	if (str_value(obj, key, &v, w) != 0)
		return -1;
	if (v != NULL)
		task_strpool_assign(t->pool, dst, json_string_value(v), json_string_length(v));
	return 0;
}

/* A whole number that is really a number: "3" or 3.5 are refused, not guessed. */
static int
get_int(const json_t *obj, const char *key, bool *has, int64_t *out, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];

	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v)) {
		describe(v, d, sizeof d);
		return why_set(w, "%s: expected a whole number, got %s", key, d);
	}
	*has = true;
	*out = json_integer_value(v);
	return 0;
}

/* A timestamp: epoch seconds as a number (the API) or an ISO 8601 string (the AWS CLI,
 * EventBridge, task metadata). A numeric string is read as epoch seconds too. */
static int
get_time(const json_t *obj, const char *key, int64_t *out, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];
	double secs;

	if (v == NULL || json_is_null(v))
		return 0;
	if (json_is_integer(v)) {
		secs = (double)json_integer_value(v);
	} else if (json_is_real(v)) {
		secs = json_real_value(v);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;

		if (json_string_length(v) < 64 && timeutil_parse_iso8601(s, out) == 0)
			return 0;
		errno = 0;
		secs = strtod(s, &end);
		if (!(s[0] >= '0' && s[0] <= '9') || end == s || *end != '\0' || errno != 0 || json_string_length(v) >= 64) {
			describe(v, d, sizeof d);
			return why_set(w, "%s: expected a time (ISO 8601 or epoch seconds), got %s",
			    key, d);
		}
	} else {
		describe(v, d, sizeof d);
		return why_set(w, "%s: expected a time, got %s", key, d);
	}
	if (timeutil_epoch_seconds_to_ms(secs, out) != 0) {
		describe(v, d, sizeof d);
		return why_set(w, "%s: %s is not a time in epoch seconds between 1970 and 9999%s",
		    key, d, secs > 1e11 && secs < 1e15 ? " (milliseconds? ECS gives seconds)" : "");
	}
	return 0;
}

/* Arrays of objects; absent or null is an empty list. */
static int
get_array(const json_t *obj, const char *key, const json_t **arr, struct why *w)
{
	const json_t *v = json_object_get(obj, key);
	char d[80];

	*arr = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_array(v)) {
		describe(v, d, sizeof d);
		return why_set(w, "%s: expected an array, got %s", key, d);
	}
	for (size_t i = 0; i < json_array_size(v); i++) {
		if (!json_is_object(json_array_get(v, i))) {
			describe(json_array_get(v, i), d, sizeof d);
			return why_set(w, "%s[%zu]: expected an object, got %s", key, i, d);
		}
	}
	*arr = v;
	return 0;
}

static const struct {
	const char *key;
	size_t off;
} task_strings[] = {
	{ "taskArn", offsetof(struct task, arn) },
	{ "clusterArn", offsetof(struct task, cluster_arn) },
	{ "taskDefinitionArn", offsetof(struct task, taskdef_arn) },
	{ "group", offsetof(struct task, group) },
	{ "startedBy", offsetof(struct task, started_by) },
	{ "launchType", offsetof(struct task, launch_type) },
	{ "platformVersion", offsetof(struct task, platform_version) },
	{ "platformFamily", offsetof(struct task, platform_family) },
	{ "capacityProviderName", offsetof(struct task, capacity_provider) },
	{ "availabilityZone", offsetof(struct task, availability_zone) },
	{ "cpu", offsetof(struct task, cpu) },
	{ "memory", offsetof(struct task, memory) },
	{ "lastStatus", offsetof(struct task, last_status) },
	{ "desiredStatus", offsetof(struct task, desired_status) },
	{ "stopCode", offsetof(struct task, stop_code) },
	{ "stoppedReason", offsetof(struct task, stopped_reason) },
	{ "healthStatus", offsetof(struct task, health_status) },
};

static const struct {
	const char *key;
	size_t off;
} container_strings[] = {
	{ "name", offsetof(struct container, name) },
	{ "image", offsetof(struct container, image) },
	{ "imageDigest", offsetof(struct container, image_digest) },
	{ "lastStatus", offsetof(struct container, last_status) },
	{ "reason", offsetof(struct container, reason) },
};

#define FIELD(base, off) ((char **)(void *)((char *)(base) + (off)))

static int
parse_containers(const json_t *o, struct task *t, struct why *w)
{
	const json_t *arr;

	if (get_array(o, "containers", &arr, w) != 0)
		return -1;
	if (arr == NULL || json_array_size(arr) == 0)
		return 0;
	t->ncontainers = json_array_size(arr);
	t->containers = xcalloc(t->ncontainers, sizeof *t->containers);
	for (size_t i = 0; i < t->ncontainers; i++) {
		const json_t *c = json_array_get(arr, i);
		struct container *k = &t->containers[i];
		int64_t code = 0;
		bool has = false;

		for (size_t f = 0; f < sizeof container_strings / sizeof container_strings[0]; f++)
			if (get_task_str(t, c, container_strings[f].key,
			    FIELD(k, container_strings[f].off), w) != 0)
				goto bad;
		if (get_int(c, "exitCode", &has, &code, w) != 0)
			goto bad;
		if (has && (code < INT32_MIN || code > INT32_MAX)) {
			why_set(w, "exitCode: %" PRId64 " is out of range", code);
			goto bad;
		}
		k->has_exit_code = has;
		k->exit_code = (int)code;
		continue;
bad:
		why_in(w, "containers", i);
		return -1;
	}
	return 0;
}

static int
parse_tags(const json_t *o, struct task *t, struct why *w)
{
	const json_t *arr;

	if (get_array(o, "tags", &arr, w) != 0)
		return -1;
	if (arr == NULL || json_array_size(arr) == 0)
		return 0;
	t->ntags = json_array_size(arr);
	t->tags = xcalloc(t->ntags, sizeof *t->tags);
	for (size_t i = 0; i < t->ntags; i++) {
		const json_t *g = json_array_get(arr, i);

		if (get_task_str(t, g, "key", &t->tags[i].key, w) != 0 ||
		    get_task_str(t, g, "value", &t->tags[i].value, w) != 0) {
			why_in(w, "tags", i);
			return -1;
		}
	}
	return 0;
}

/* A DescribeTasks Task (camelCase), wherever it was found. */
static int
parse_task(const json_t *o, struct task *t, struct why *w)
{
	w->msg[0] = '\0';
	for (size_t f = 0; f < sizeof task_strings / sizeof task_strings[0]; f++)
		if (get_task_str(t, o, task_strings[f].key, FIELD(t, task_strings[f].off), w) != 0)
			return -1;
	if (get_int(o, "version", &t->has_version, &t->version, w) != 0)
		return -1;
	for (int i = 0; i < TS_COUNT; i++)
		if (get_time(o, ts_defs[i].json_name, &t->ts[i], w) != 0)
			return -1;
	if (parse_containers(o, t, w) != 0 || parse_tags(o, t, w) != 0)
		return -1;
	input_serving_task(o, t);
	return 0;
}

/* "arn:aws:ecs:us-east-1:123:task/c/id" -> "arn:aws:ecs:us-east-1:123:" (6 fields). */
static size_t
arn_prefix_len(const char *arn)
{
	size_t colons = 0;

	if (strncmp(arn, "arn:", 4) != 0)
		return 0;
	for (size_t i = 0; arn[i] != '\0'; i++)
		if (arn[i] == ':' && ++colons == 5)
			return i + 1;
	return 0;
}

/* Task metadata endpoint v4 /task (PascalCase). Its Snapshotter is the one proof of a
 * lazily loaded (SOCI) image. ImageID is the local image config digest, not the registry
 * digest DescribeTasks reports, so it is not used as image_digest. */
static int
parse_metadata(const json_t *o, struct task *t, struct why *w)
{
	char *family = NULL, *revision = NULL, *service = NULL;
	const json_t *arr, *rev;
	int rc = -1;

	w->msg[0] = '\0';
	if (get_str(o, "TaskARN", &t->arn, w) != 0 || get_str(o, "Cluster", &t->cluster_arn, w) != 0 ||
	    get_str(o, "Family", &family, w) != 0 ||
	    get_str(o, "ServiceName", &service, w) != 0 ||
	    get_str(o, "DesiredStatus", &t->desired_status, w) != 0 ||
	    get_str(o, "KnownStatus", &t->last_status, w) != 0 ||
	    get_str(o, "AvailabilityZone", &t->availability_zone, w) != 0 ||
	    get_str(o, "LaunchType", &t->launch_type, w) != 0)
		goto out;
	/* Revision is a string in v4 ("26"); accept a number too */
	rev = json_object_get(o, "Revision");
	if (json_is_integer(rev))
		revision = xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(rev));
	else if (get_str(o, "Revision", &revision, w) != 0)
		goto out;
	for (int i = 0; i < TS_COUNT; i++)
		if (ts_defs[i].meta_name != NULL &&
		    get_time(o, ts_defs[i].meta_name, &t->ts[i], w) != 0)
			goto out;
	if (t->arn == NULL) {
		why_set(w, "TaskARN: missing");
		goto out;
	}
	if (family != NULL) {
		size_t pl = arn_prefix_len(t->arn);

		t->taskdef_arn = xasprintf("%.*stask-definition/%s%s%s", (int)pl, t->arn, family,
		    revision ? ":" : "", revision ? revision : "");
	}
	if (service != NULL)
		t->group = xasprintf("service:%s", service);
	if (get_array(o, "Containers", &arr, w) != 0)
		goto out;
	if (arr != NULL && json_array_size(arr) > 0) {
		t->ncontainers = json_array_size(arr);
		t->containers = xcalloc(t->ncontainers, sizeof *t->containers);
		for (size_t i = 0; i < t->ncontainers; i++) {
			const json_t *c = json_array_get(arr, i);
			struct container *k = &t->containers[i];
			int64_t code = 0;
			bool has = false;

			if (get_str(c, "Name", &k->name, w) != 0 ||
			    get_str(c, "Image", &k->image, w) != 0 ||
			    get_str(c, "KnownStatus", &k->last_status, w) != 0 ||
			    get_str(c, "Snapshotter", &k->snapshotter, w) != 0 ||
			    get_int(c, "ExitCode", &has, &code, w) != 0) {
				why_in(w, "Containers", i);
				goto out;
			}
			k->has_exit_code = has && code >= INT32_MIN && code <= INT32_MAX;
			k->exit_code = (int)code;
		}
	}
	input_serving_metadata(o, t);
	t->from_metadata = true;
	rc = 0;
out:
	free(family);
	free(revision);
	free(service);
	return rc;
}

/* ---- document shapes ------------------------------------------------------------- */

enum shape { SHAPE_UNKNOWN, SHAPE_TASK, SHAPE_EVENT, SHAPE_RECORD, SHAPE_METADATA,
	SHAPE_DESCRIBE };

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
	if (json_object_get(o, "tasks") != NULL || json_object_get(o, "failures") != NULL)
		return SHAPE_DESCRIBE;
	return SHAPE_UNKNOWN;
}

/* "task arn:aws:..." or "tasks[3]": how a warning names a task. */
static void
task_label(const json_t *o, const char *where, char *out, size_t size)
{
	const json_t *arn = json_is_object(o) ? json_object_get(o, "taskArn") : NULL;
	char q[200];

	if (arn == NULL && json_is_object(o))
		arn = json_object_get(o, "TaskARN");
	if (json_is_string(arn)) {
		quote_text(q, sizeof q, json_string_value(arn), json_string_length(arn));
		/* drop the quotes: ARNs read better bare */
		q[strlen(q) - 1] = '\0';
		snprintf(out, size, "task %s%s%s%s", q + 1, where[0] ? " (" : "", where,
		    where[0] ? ")" : "");
	} else {
		snprintf(out, size, "%s", where[0] ? where : "task");
	}
}

static void
one_task(struct pctx *c, const json_t *o, const char *where, enum origin origin,
    int64_t fetched_at_ms)
{
	struct task t;
	struct why w;
	char label[260];

	task_init(&t);
	if (c->strings == NULL)
		c->strings = task_strpool_new();
	t.pool = c->strings;
	if (parse_task(o, &t, &w) != 0) {
		task_label(o, where, label, sizeof label);
		emit_warn(c, ITEM_SKIP, "skipped %s: %s", label, w.msg);
		task_cleanup(&t);
		return;
	}
	t.fetched_at_ms = fetched_at_ms;
	emit_task(c, &t, origin);
}

static void
one_event(struct pctx *c, const json_t *o, const char *where)
{
	const json_t *dt = json_object_get(o, "detail-type");
	const json_t *detail = json_object_get(o, "detail");
	char d[80], here[160];

	if (!json_is_string(dt) || strcmp(json_string_value(dt), TASK_EVENT) != 0) {
		/* container-instance or service events in the same stream: counted, not noise */
		if (c->other_events++ == 0) {
			if (json_is_string(dt))
				quote_text(c->other_type, sizeof c->other_type,
				    json_string_value(dt), json_string_length(dt));
			else
				describe(dt, c->other_type, sizeof c->other_type);
		}
		return;
	}
	snprintf(here, sizeof here, "%s%sdetail", where, where[0] ? "." : "");
	if (!json_is_object(detail)) {
		describe(detail, d, sizeof d);
		emit_warn(c, ITEM_SKIP, "skipped event: %s: expected an object, got %s", here, d);
		return;
	}
	one_task(c, detail, where, ORIGIN_EVENT, TS_NONE);
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
		describe(tag, d, sizeof d);
		return doc_error(c, "\"ecsprof\" is %s, expected \"%s\"", d, RECORD_TAG);
	}
	if (strcmp(json_string_value(tag), RECORD_TAG) != 0) {
		quote_text(d, sizeof d, json_string_value(tag), json_string_length(tag));
		return doc_error(c, "recording format %s is not supported (this ecsprof reads \"%s\")",
		    d, RECORD_TAG);
	}
	if (!json_is_object(task)) {
		describe(task, d, sizeof d);
		emit_warn(c, ITEM_SKIP, "skipped record%s%s: task: expected an object, got %s",
		    where[0] ? " " : "", where, d);
		return 0;
	}
	w.msg[0] = '\0';
	if (get_time(o, "fetched_at", &fetched, &w) != 0) {
		task_label(task, where, label, sizeof label);
		emit_warn(c, ITEM_SKIP, "skipped %s: %s", label, w.msg);
		return 0;
	}
	one_task(c, task, where, ORIGIN_RECORD, fetched);
	return 0;
}

static void
one_metadata(struct pctx *c, const json_t *o, const char *where)
{
	struct task t;
	struct why w;
	char label[260];

	task_init(&t);
	if (parse_metadata(o, &t, &w) != 0) {
		task_label(o, where, label, sizeof label);
		emit_warn(c, ITEM_SKIP, "skipped task metadata %s: %s", label, w.msg);
		task_cleanup(&t);
		return;
	}
	emit_task(c, &t, ORIGIN_METADATA);
}

static int
one_describe(struct pctx *c, const json_t *o)
{
	const json_t *tasks = json_object_get(o, "tasks");
	const json_t *failures = json_object_get(o, "failures");
	char d[80], where[40];

	if (tasks != NULL && !json_is_null(tasks) && !json_is_array(tasks)) {
		describe(tasks, d, sizeof d);
		return doc_error(c, "\"tasks\": expected an array of tasks, got %s", d);
	}
	if (failures != NULL && !json_is_null(failures) && !json_is_array(failures)) {
		describe(failures, d, sizeof d);
		return doc_error(c, "\"failures\": expected an array, got %s", d);
	}
	for (size_t i = 0; i < json_array_size(tasks); i++) {
		const json_t *t = json_array_get(tasks, i);

		snprintf(where, sizeof where, "tasks[%zu]", i);
		if (!json_is_object(t)) {
			describe(t, d, sizeof d);
			emit_warn(c, ITEM_SKIP, "skipped %s: expected a task object, got %s", where, d);
			continue;
		}
		one_task(c, t, where, ORIGIN_TASK, TS_NONE);
	}
	for (size_t i = 0; i < json_array_size(failures); i++) {
		const json_t *f = json_array_get(failures, i);
		const json_t *arn = json_object_get(f, "arn"), *reason = json_object_get(f, "reason");
		const json_t *detail = json_object_get(f, "detail");
		char qa[200] = "(no arn)", qr[80] = "(no reason)", qd[200] = "";

		if (json_is_string(arn))
			quote_text(qa, sizeof qa, json_string_value(arn), json_string_length(arn));
		if (json_is_string(reason))
			quote_text(qr, sizeof qr, json_string_value(reason),
			    json_string_length(reason));
		if (json_is_string(detail))
			quote_text(qd, sizeof qd, json_string_value(detail),
			    json_string_length(detail));
		emit_warn(c, ITEM_FAILURE, "DescribeTasks failure: %s: %s%s%s", qa, qr,
		    qd[0] ? " " : "", qd);
	}
	return 0;
}

/* One element of a top-level array, or a whole object document. */
static int
one_object(struct pctx *c, const json_t *o, const char *where)
{
	switch (shape_of(o)) {
	case SHAPE_TASK:
		one_task(c, o, where, ORIGIN_TASK, TS_NONE);
		return 0;
	case SHAPE_EVENT:
		one_event(c, o, where);
		return 0;
	case SHAPE_RECORD:
		return one_record(c, o, where);
	case SHAPE_METADATA:
		one_metadata(c, o, where);
		return 0;
	case SHAPE_DESCRIBE:
		/* a response nested in an array is not a shape anyone writes */
		return where[0] == '\0' ? one_describe(c, o) : -1;
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
		free(it->v[i].msg);
	}
	it->n = n;
}

static int
dispatch(struct pctx *c, const json_t *root)
{
	char where[40], d[80];
	size_t known = 0, start = c->out.n;

	if (json_is_object(root)) {
		if (one_object(c, root, "") == 0)
			return 0;
		if (c->failed)
			return -1;
		return doc_error(c, "not a known input: expected a DescribeTasks response, a task, "
		    "an EventBridge task event, an ecsprof recording or a task metadata document");
	}
	for (size_t i = 0; i < json_array_size(root); i++) {
		const json_t *el = json_array_get(root, i);
		size_t before = c->out.n;

		snprintf(where, sizeof where, "[%zu]", i);
		if (json_is_object(el) && one_object(c, el, where) == 0) {
			known++;
			continue;
		}
		if (c->failed)
			return -1;
		items_truncate(&c->out, before);
		describe(el, d, sizeof d);
		emit_warn(c, ITEM_SKIP, "skipped %s: not a task or task event (got %s)", where,
		    json_is_object(el) ? "an object of unknown shape" : d);
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
	sanitize(text);
	c->failed = true;
	if (line > 0 && e->column > 0)
		err_set(&c->err, ERR_PARSE, "%s:%ld:%d: malformed JSON: %s", c->name, line,
		    e->column, text);
	else if (line > 0)
		err_set(&c->err, ERR_PARSE, "%s:%ld: malformed JSON: %s", c->name, line, text);
	else
		err_set(&c->err, ERR_PARSE, "%s: malformed JSON: %s", c->name, text);
}

static bool
blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return false;
	return true;
}

/* ---- jansson's memory while parsing JSON Lines ---------------------------------------- */

/* jansson makes a malloc'd node for every value, key and string of a line and frees them
 * all again a moment later, a fifth of the parsing time. While parse_lines() runs, a thread
 * gives jansson memory from its own bump arena instead, emptied after each line. The
 * allocator is process-wide, so it falls back to malloc/free on every thread and at every
 * moment no arena is open; nothing allocated in an arena outlives the line it parsed. */
struct jarena {
	struct jarena *older;   /* blocks filled before this one, freed at the reset */
	size_t size, used;
	max_align_t data[];
};

#define JARENA_BLOCK ((size_t)256 << 10)
#define JARENA_ALIGN sizeof(max_align_t)

static _Thread_local struct jarena *jarena;
static _Thread_local bool jarena_open;
static pthread_once_t jarena_once = PTHREAD_ONCE_INIT;

#if defined(__SANITIZE_ADDRESS__)
#define JARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JARENA_ASAN 1
#endif
#endif
#ifdef JARENA_ASAN
#include <sanitizer/asan_interface.h>
/* poisoned gaps between blocks of memory, so ASan still sees overruns inside jansson */
#define JARENA_GAP JARENA_ALIGN
#define JARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define JARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define JARENA_GAP 0
#define JARENA_POISON(p, n) ((void)(p), (void)(n))
#define JARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static void *
jarena_malloc(size_t n)
{
	struct jarena *a = jarena;
	size_t need;
	char *p;

	if (!jarena_open)
		return malloc(n);
	if (n > SIZE_MAX / 2)
		return NULL;
	need = (n + JARENA_ALIGN - 1) / JARENA_ALIGN * JARENA_ALIGN + JARENA_GAP;
	if (a == NULL || a->size - a->used < need) {
		size_t size = a != NULL && a->size > JARENA_BLOCK / 2 ? a->size * 2 : JARENA_BLOCK;
		struct jarena *b;

		while (size < need)
			size *= 2;
		b = malloc(sizeof *b + size);
		if (b == NULL)
			return NULL; /* jansson reports it as a parse error */
		b->older = a;
		b->size = size;
		b->used = 0;
		JARENA_POISON(b->data, size);
		jarena = a = b;
	}
	p = (char *)a->data + a->used;
	a->used += need;
	JARENA_UNPOISON(p, n);
	return p;
}

static void
jarena_free(void *p)
{
	if (!jarena_open)
		free(p);
	/* else from the arena: freed with the whole line */
}

static void
jarena_install(void)
{
	json_set_alloc_funcs(jarena_malloc, jarena_free);
}

/* After each line: keeps the newest (largest) block for the next line, unless a huge
 * line made it huge. */
static void
jarena_reset(bool keep)
{
	struct jarena *a = jarena, *o, *next;

	if (a == NULL)
		return;
	for (o = a->older; o != NULL; o = next) {
		next = o->older;
		free(o);
	}
	a->older = NULL;
	JARENA_POISON(a->data, a->used);
	a->used = 0;
	if (!keep || a->size > 4 * JARENA_BLOCK) {
		free(a);
		jarena = NULL;
	}
}

/* Parses every line of a chunk of JSON Lines; stops at the first document error, whose
 * earlier results stay valid. Plain lines skip jansson's lexer (fastjson.c); on any
 * other, json_loadb() starts again, so jansson words every error. */
static void
parse_lines(struct pctx *c, const char *data, size_t len, long first_line)
{
	const char *p = data, *end = data + len;
	long line = first_line;
	char *buf = xmalloc(len + 1);   /* for fastjson_load(): no line is longer */

	pthread_once(&jarena_once, jarena_install);
	jarena_open = true;
	while (p < end && !c->failed) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!blank(p, n)) {
			json_error_t e;
			json_t *root = fastjson_load(p, n, buf);

			if (root == NULL)
				root = json_loadb(p, n, 0, &e);
			c->line = line;
			if (root == NULL) {
				json_fail(c, &e, line);
				jarena_reset(true);
				break;
			}
			dispatch(c, root);
			json_decref(root);
			jarena_reset(true);
		}
		line++;
		p += n + 1;
	}
	jarena_open = false;
	jarena_reset(false);
	free(buf);
}

static void
parse_doc(struct pctx *c, const char *data, size_t len)
{
	json_error_t e;
	json_t *root = json_loadb(data, len, 0, &e);

	c->line = 0;
	if (root == NULL) {
		json_fail(c, &e, 0);
		return;
	}
	dispatch(c, root);
	json_decref(root);
}

/* ---- merging results into the set ------------------------------------------------ */

struct fstate {
	const char *name;
	struct input_stats st;
	size_t other_events;
	char other_type[80];
};

/* The results, and the strings of the tasks among them (the set took copies). */
static void
pctx_cleanup(struct pctx *c)
{
	items_cleanup(&c->out);
	task_strpool_free(c->strings);
	c->strings = NULL;
}

static void
merge(struct fstate *f, struct pctx *c, struct task_set *set)
{
	for (size_t i = 0; i < c->out.n; i++) {
		struct item *it = &c->out.v[i];
		struct task *have;

		if (it->kind != ITEM_TASK) {
			warn_fn(warn_ctx, it->msg);
			if (it->kind == ITEM_FAILURE)
				f->st.failures++;
			else
				f->st.skipped++;
			continue;
		}
		f->st.tasks++;
		f->st.events += it->origin == ORIGIN_EVENT;
		f->st.records += it->origin == ORIGIN_RECORD;
		f->st.metadata += it->origin == ORIGIN_METADATA;
		/* at-least-once delivery repeats states: counted here, merged by task_set_take
		 * (which keeps the newest version and fills what only one copy has) */
		have = it->task.arn ? task_set_find(set, it->task.arn) : NULL;
		if (have != NULL && have->has_version && it->task.has_version &&
		    have->version == it->task.version)
			f->st.duplicates++;
		task_set_take(set, &it->task);
		it->kind = ITEM_SKIP; /* task moved out; nothing left to free but msg */
	}
	if (c->other_events > 0 && f->other_events == 0)
		snprintf(f->other_type, sizeof f->other_type, "%s", c->other_type);
	f->other_events += c->other_events;
	pctx_cleanup(c);
	c->other_events = 0;
}

static void
pctx_init(struct pctx *c, const char *name)
{
	memset(c, 0, sizeof *c);
	c->name = name;
	err_clear(&c->err);
}

/* ---- reading: files, stdin and memory alike ----------------------------------------- */

struct src {
	FILE *f;
	const char *mem;
	size_t len, pos;
	bool eof;
	int error;      /* errno of a failed read */
};

static size_t
src_read(struct src *s, char *dst, size_t n)
{
	size_t got;

	if (s->eof)
		return 0;
	if (s->f == NULL) {
		got = s->len - s->pos < n ? s->len - s->pos : n;
		memcpy(dst, s->mem + s->pos, got);
		s->pos += got;
	} else {
		got = fread(dst, 1, n, s->f);
		if (got < n && ferror(s->f))
			s->error = errno ? errno : EIO;
	}
	if (got < n)
		s->eof = true;
	return got;
}

struct chunk {
	char *data;
	size_t len;
	long first_line;
	struct pctx c;
	int state;          /* SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE */
	size_t seq;
};

enum { SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE };

/* The reader's state: bytes of an unfinished line carried into the next chunk. */
struct reader {
	struct src *src;
	const char *name;
	size_t chunk_bytes;
	char *carry;
	size_t carry_len;
	long next_line;
};

static const char *
last_nl(const char *p, size_t n)
{
	while (n > 0) {
		if (p[n - 1] == '\n')
			return p + n - 1;
		n--;
	}
	return NULL;
}

/* Fills k with whole lines (at least one, unless the input ended). 0 at end of input,
 * 1 with a chunk, -1 on a line longer than INPUT_MAX_LINE or a read error. */
static int
reader_next(struct reader *r, struct chunk *k, struct err *err)
{
	size_t cap = r->chunk_bytes > r->carry_len ? r->chunk_bytes : r->carry_len * 2;
	size_t len = r->carry_len, scanned = 0;
	char *data = xmalloc(cap);
	const char *nl;

	if (r->carry_len)
		memcpy(data, r->carry, r->carry_len);
	r->carry_len = 0;
	for (;;) {
		len += src_read(r->src, data + len, cap - len);
		if (r->src->error) {
			free(data);
			return err_set(err, ERR_IO, "%s: %s", r->name, strerror(r->src->error));
		}
		nl = last_nl(data + scanned, len - scanned);
		if (nl != NULL || r->src->eof)
			break;
		scanned = len;
		if (cap >= INPUT_MAX_LINE) {
			free(data);
			return err_set(err, ERR_PARSE, "%s:%ld: a line longer than %zu MiB: not JSON "
			    "Lines this program can read", r->name, r->next_line, INPUT_MAX_LINE >> 20);
		}
		cap *= 2;
		data = xrealloc(data, cap);
	}
	if (len == 0) {
		free(data);
		return 0;
	}
	if (nl != NULL && !r->src->eof) {
		size_t keep = (size_t)(nl + 1 - data);

		if (len - keep > 0) {
			r->carry = xrealloc(r->carry, len - keep);
			memcpy(r->carry, nl + 1, len - keep);
		}
		r->carry_len = len - keep;
		len = keep;
	}
	k->data = data;
	k->len = len;
	k->first_line = r->next_line;
	for (const char *p = data; (p = memchr(p, '\n', len - (size_t)(p - data))) != NULL; p++)
		r->next_line++;
	return 1;
}

/* The worker pool for JSON Lines. */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct chunk *slots;
	size_t nslots;
	bool stop;
};

static void *
worker(void *arg)
{
	struct pool *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct chunk *k = NULL;

		for (size_t i = 0; i < p->nslots; i++)
			if (p->slots[i].state == SLOT_READY &&
			    (k == NULL || p->slots[i].seq < k->seq))
				k = &p->slots[i];
		if (k == NULL) {
			if (p->stop)
				break;
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		k->state = SLOT_BUSY;
		pthread_mutex_unlock(&p->mu);
		parse_lines(&k->c, k->data, k->len, k->first_line);
		pthread_mutex_lock(&p->mu);
		k->state = SLOT_DONE;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static unsigned
thread_count(void)
{
	long n;

	if (tune_threads > 0)
		return tune_threads;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > 4 ? 4 : (unsigned)n;
}

/* Merges a finished chunk; returns -1 (err filled) if it ended in a document error. */
static int
finish_chunk(struct fstate *f, struct chunk *k, struct task_set *set, struct err *err)
{
	int rc = 0;

	merge(f, &k->c, set);
	if (k->c.failed) {
		*err = k->c.err;
		rc = -1;
	}
	free(k->data);
	k->data = NULL;
	return rc;
}

static int
lines_threaded(struct fstate *f, struct reader *r, struct chunk *first, unsigned nthreads,
    struct task_set *set, struct err *err)
{
	struct pool p;
	struct err rerr;
	pthread_t *tids = xcalloc(nthreads, sizeof *tids);
	size_t seq = 0, done = 0;
	unsigned started = 0;
	int rc = 0, more = 1;

	memset(&p, 0, sizeof p);
	err_clear(&rerr);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	p.nslots = (size_t)nthreads * 2;
	p.slots = xcalloc(p.nslots, sizeof *p.slots);
	for (unsigned i = 0; i < nthreads; i++)
		if (pthread_create(&tids[started], NULL, worker, &p) == 0)
			started++;
	if (started == 0) {
		/* no threads to be had: parse on this one, same results */
		parse_lines(&first->c, first->data, first->len, first->first_line);
		rc = finish_chunk(f, first, set, err);
		while (rc == 0 && (more = reader_next(r, first, err)) == 1) {
			pctx_init(&first->c, f->name);
			parse_lines(&first->c, first->data, first->len, first->first_line);
			rc = finish_chunk(f, first, set, err);
		}
		goto out;
	}
	for (;;) {
		struct chunk *k = &p.slots[seq % p.nslots];
		bool parsed;

		/* a slot goes READY (here), BUSY and DONE (workers), then READY again here
		 * once merged; workers only touch READY slots, so merging needs no lock */
		pthread_mutex_lock(&p.mu);
		while (k->state != SLOT_FREE && k->state != SLOT_DONE)
			pthread_cond_wait(&p.cv, &p.mu);
		parsed = k->state == SLOT_DONE;
		pthread_mutex_unlock(&p.mu);
		if (parsed) {
			if (finish_chunk(f, k, set, err) != 0) {
				rc = -1;
				break;
			}
			done++;
		}
		if (!more)
			break;
		if (seq == 0) {
			/* field by field: state may be read by workers (under the lock) meanwhile */
			k->data = first->data;
			k->len = first->len;
			k->first_line = first->first_line;
			k->c = first->c;
			memset(first, 0, sizeof *first);
		} else {
			more = reader_next(r, k, &rerr);
			if (more <= 0) {
				/* drain what is in flight, in order */
				for (size_t s = seq + 1; s < seq + p.nslots && rc == 0; s++) {
					struct chunk *d = &p.slots[s % p.nslots];

					bool ready;

					pthread_mutex_lock(&p.mu);
					while (d->state == SLOT_READY || d->state == SLOT_BUSY)
						pthread_cond_wait(&p.cv, &p.mu);
					ready = d->state == SLOT_DONE && d->data != NULL;
					pthread_mutex_unlock(&p.mu);
					if (ready && finish_chunk(f, d, set, err) != 0)
						rc = -1;
				}
				if (rc == 0 && more < 0) {
					*err = rerr;
					rc = -1;
				}
				break;
			}
			pctx_init(&k->c, f->name);
		}
		k->seq = seq++;
		pthread_mutex_lock(&p.mu);
		k->state = SLOT_READY;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
	}
	/* stop: workers finish what they hold; then free whatever was not merged */
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	for (size_t i = 0; i < p.nslots; i++)
		if (p.slots[i].state == SLOT_READY)
			p.slots[i].state = SLOT_DONE; /* never parsed: nothing inside */
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	for (size_t i = 0; i < p.nslots; i++) {
		pctx_cleanup(&p.slots[i].c);
		free(p.slots[i].data);
	}
out:
	if (more < 0 && started == 0)
		rc = -1;
	free(first->data);
	pctx_cleanup(&first->c);
	free(p.slots);
	free(tids);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return rc;
}

static int
read_whole(struct fstate *f, struct reader *r, struct chunk *first, struct task_set *set,
    struct err *err)
{
	struct pctx c;
	struct buf b;
	int rc;

	pctx_init(&c, f->name);
	if (r->src->f == NULL) {
		/* in memory already: parse in place (after a byte order mark, if any) */
		size_t bom = r->src->len >= 3 && memcmp(r->src->mem, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;

		parse_doc(&c, r->src->mem + bom, r->src->len - bom);
	} else {
		char tmp[65536];
		size_t n;

		buf_init(&b, INPUT_MAX_DOC);
		if (buf_add(&b, first->data, first->len) != 0 ||
		    buf_add(&b, r->carry, r->carry_len) != 0)
			goto too_big;
		while ((n = src_read(r->src, tmp, sizeof tmp)) > 0)
			if (buf_add(&b, tmp, n) != 0)
				goto too_big;
		if (r->src->error) {
			buf_cleanup(&b);
			return err_set(err, ERR_IO, "%s: %s", f->name, strerror(r->src->error));
		}
		parse_doc(&c, buf_str(&b), b.len);
		buf_cleanup(&b);
	}
	merge(f, &c, set);
	rc = c.failed ? -1 : 0;
	if (c.failed)
		*err = c.err;
	return rc;
too_big:
	buf_cleanup(&b);
	return err_set(err, ERR_PARSE, "%s: a document larger than %zu MiB is not supported; "
	    "write it as JSON Lines (one task or event per line)", f->name, INPUT_MAX_DOC >> 20);
}

/* Decides between JSON Lines and one whole document from the first non-blank line: when
 * it is a complete JSON value on its own, the input is JSON Lines (a one-line document is
 * JSON Lines of one line); when it ends early, the document spans lines. */
static int
read_src(const char *name, struct src *s, struct task_set *set, struct input_stats *st,
    struct err *err)
{
	struct fstate f;
	struct reader r;
	struct chunk first;
	const char *p, *end;
	int rc = 0, more;
	bool whole = false;

	memset(&f, 0, sizeof f);
	f.name = name;
	memset(&r, 0, sizeof r);
	r.src = s;
	r.name = name;
	r.chunk_bytes = tune_chunk ? tune_chunk : (size_t)1 << 20;
	r.next_line = 1;
	memset(&first, 0, sizeof first);
	json_object_seed(0); /* before any thread: jansson seeds its hash once */

	more = reader_next(&r, &first, err);
	if (more < 0)
		goto out_err;
	if (more == 0)
		goto empty;
	/* a UTF-8 byte order mark, as some Windows editors write, is not JSON */
	if (first.len >= 3 && memcmp(first.data, "\xef\xbb\xbf", 3) == 0)
		memset(first.data, ' ', 3);
	p = first.data;
	end = first.data + first.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!blank(p, n)) {
			json_error_t e;
			json_t *root = json_loadb(p, n, 0, &e);

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
	if (whole) {
		if (s->f == NULL) {
			free(first.data);
			first.data = NULL;
		}
		rc = read_whole(&f, &r, &first, set, err);
		free(first.data);
	} else {
		unsigned nt = thread_count();

		pctx_init(&first.c, name);
		if (nt <= 1 || r.src->eof) {
			/* small input or one CPU: no threads */
			parse_lines(&first.c, first.data, first.len, first.first_line);
			rc = finish_chunk(&f, &first, set, err);
			while (rc == 0 && (more = reader_next(&r, &first, err)) == 1) {
				pctx_init(&first.c, name);
				parse_lines(&first.c, first.data, first.len, first.first_line);
				rc = finish_chunk(&f, &first, set, err);
			}
			if (more < 0)
				rc = -1;
		} else {
			rc = lines_threaded(&f, &r, &first, nt, set, err);
		}
	}
	free(r.carry);
	if (f.other_events > 0) {
		char msg[400];

		snprintf(msg, sizeof msg, "%s: skipped %zu EventBridge event%s that %s not \"%s\" "
		    "(first: detail-type %s)", name, f.other_events, f.other_events == 1 ? "" : "s",
		    f.other_events == 1 ? "is" : "are", TASK_EVENT, f.other_type);
		warn_fn(warn_ctx, msg);
		f.st.skipped += f.other_events;
	}
	if (rc == 0 && f.st.tasks == 0 && f.st.skipped > 0)
		rc = err_set(err, ERR_PARSE, "%s: no usable task in it (%zu skipped, see the warnings)",
		    name, f.st.skipped);
	goto add;
empty:
	{
		char msg[300];

		snprintf(msg, sizeof msg, "%s: empty input, no tasks in it", name);
		warn_fn(warn_ctx, msg);
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
input_read_mem(const char *name, const char *data, size_t len, struct task_set *set,
    struct input_stats *st, struct err *err)
{
	struct src s;

	memset(&s, 0, sizeof s);
	s.mem = data;
	s.len = len;
	return read_src(name, &s, set, st, err);
}

int
input_read_file(const char *path, struct task_set *set, struct input_stats *st,
    struct err *err)
{
	struct src s;
	int rc;

	memset(&s, 0, sizeof s);
	if (strcmp(path, "-") == 0) {
		s.f = stdin;
		return read_src("-", &s, set, st, err);
	}
	s.f = fopen(path, "rb");
	if (s.f == NULL)
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	rc = read_src(path, &s, set, st, err);
	fclose(s.f);
	return rc;
}

int
input_parse_task_json(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, struct task_set *set, struct err *err)
{
	json_error_t e;
	json_t *root = json_loadb(json, len, 0, &e);
	struct task t;
	struct why w;
	char label[260], text[JSON_ERROR_TEXT_LENGTH + 1];

	if (root == NULL) {
		snprintf(text, sizeof text, "%s", e.text);
		sanitize(text);
		return err_set(err, ERR_PARSE, "%s: malformed task JSON at column %d: %s", source,
		    e.column, text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return err_set(err, ERR_PARSE, "%s: a task must be a JSON object", source);
	}
	task_init(&t);
	if (parse_task(root, &t, &w) != 0) {
		task_label(root, "", label, sizeof label);
		json_decref(root);
		task_cleanup(&t);
		return err_set(err, ERR_PARSE, "%s: %s: %s", source, label, w.msg);
	}
	json_decref(root);
	t.source = xstrdup(source);
	t.fetched_at_ms = fetched_at_ms;
	task_derive(&t);
	task_set_take(set, &t);
	return 0;
}

/* ---- identities for record.c ----------------------------------------------------- */

void
input_key_cleanup(struct input_key *k)
{
	free(k->arn);
	k->arn = NULL;
}

static int
key_from_task(const json_t *o, struct input_key *k, struct why *w)
{
	w->msg[0] = '\0';
	if (!json_is_object(o))
		return why_set(w, "a task must be a JSON object");
	if (get_str(o, "taskArn", &k->arn, w) != 0)
		return -1;
	if (k->arn == NULL)
		return why_set(w, "taskArn: missing");
	return get_int(o, "version", &k->has_version, &k->version, w);
}

int
input_peek_task(const char *json, size_t len, struct input_key *k, struct err *err)
{
	json_error_t e;
	json_t *root;
	struct why w;
	int rc = 0;

	memset(k, 0, sizeof *k);
	k->fetched_at_ms = TS_NONE;
	root = json_loadb(json, len, 0, &e);
	if (root == NULL) {
		sanitize(e.text);
		return err_set(err, ERR_PARSE, "malformed task JSON at column %d: %s", e.column,
		    e.text);
	}
	if (key_from_task(root, k, &w) != 0) {
		input_key_cleanup(k);
		rc = err_set(err, ERR_PARSE, "task: %s", w.msg);
	}
	json_decref(root);
	return rc;
}

int
input_peek_record(const char *line, size_t len, struct input_key *k, struct err *err)
{
	json_error_t e;
	json_t *root;
	const json_t *tag;
	struct why w;
	int rc = -1;

	memset(k, 0, sizeof *k);
	k->fetched_at_ms = TS_NONE;
	root = json_loadb(line, len, 0, &e);
	if (root == NULL) {
		sanitize(e.text);
		return err_set(err, ERR_PARSE, "not an ecsprof recording line: malformed JSON at "
		    "column %d: %s", e.column, e.text);
	}
	tag = json_object_get(root, "ecsprof");
	if (!json_is_string(tag) || strcmp(json_string_value(tag), RECORD_TAG) != 0) {
		err_set(err, ERR_PARSE, "not an ecsprof recording line (no \"ecsprof\":\"%s\")",
		    RECORD_TAG);
		goto out;
	}
	w.msg[0] = '\0';
	if (get_time(root, "fetched_at", &k->fetched_at_ms, &w) != 0 ||
	    key_from_task(json_object_get(root, "task"), k, &w) != 0) {
		input_key_cleanup(k);
		err_set(err, ERR_PARSE, "recording line: %s", w.msg);
		goto out;
	}
	rc = 0;
out:
	json_decref(root);
	return rc;
}
