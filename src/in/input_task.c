/* input_task: one DescribeTasks task object as the live client receives it (live.c,
 * experiment polls): read by taskscan.c without a DOM when it is plain, else by jansson,
 * and its warnings (a field ignored, a key named twice) given to the caller's warn
 * function, so that a poll meeting the same task again can say each once. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/jsonscan.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "input_int.h"
#include "taskscan.h"

/* how a warning about a task of a live answer begins (live.c says "DescribeTasks:
 * skipped ..." for the tasks it leaves out) */
static const char *
live_name(const char *source)
{
	return strcmp(source, "live") == 0 ? "DescribeTasks" : source;
}

/* To the caller's warn function (watch and experiment say each once), else log_warn. */
static void live_warn(const struct input_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
live_warn(const struct input_options *o, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (o != NULL && o->warn != NULL)
		o->warn(o->warn_ctx, line);
	else
		log_warn(o != NULL ? o->log : NULL, "%s", line);
}

struct dup_ctx {
	const char *source;
	const struct input_options *o;
};

static void
dup_warn(void *arg, long line, const char *arn, const char *path)
{
	struct dup_ctx *d = arg;
	char a[INPUT_DUP_PATH + 8], k[INPUT_DUP_PATH + 8];

	(void)line;
	input_quote(k, sizeof k, path, strlen(path));
	a[0] = '\0';
	if (arn[0] != '\0') {
		input_quote(a, sizeof a, arn, strlen(arn));
		a[strlen(a) - 1] = '\0';   /* ARNs read better bare */
	}
	live_warn(d->o, "%s: %s%s%sduplicate key %s: the last value is used",
	    live_name(d->source), a[0] ? "task " : "", a[0] ? a + 1 : "", a[0] ? ": " : "", k);
}

static void
dup_scan(const char *source, const struct input_options *o, const char *p, size_t n)
{
	struct dup_ctx d = { source, o };
	size_t said, found = input_dup_keys(p, n, dup_warn, &d, &said);

	if (found > said)
		live_warn(o, "%s: %zu more duplicate keys not listed (the last value of each "
		    "is used)", live_name(source), found - said);
}

int
input_parse_task_json(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, struct task_set *set, struct err *err)
{
	return input_parse_task_json_with(json, len, source, fetched_at_ms, NULL, set, err);
}

int
input_parse_task_json_with(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, const struct input_options *o, struct task_set *set,
    struct err *err)
{
	/* a plain task without a DOM (taskscan.c); anything else, and every error, jansson's */
	char *buf = xmalloc(len + 1);
	struct task t;
	int rc;

	/* straight into the set's pool: nothing to move when it is taken */
	task_init_pool(&t, task_set_pool(set));
	rc = o != NULL && o->keys_unique ? taskscan_task_unique(json, len, buf, &t) :
	    taskscan_task(json, len, buf, &t);
	free(buf);
	if (rc != 0)
		return input_parse_task_json_dom(json, len, source, fetched_at_ms, o, set, err);
	task_str(&t, &task_edit_profile(&t)->source, source);
	task_set_ts(&t, TS_FETCHED, fetched_at_ms);
	task_set_take(set, &t);
	return 0;
}

int
input_parse_task_json_dom(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, const struct input_options *o, struct task_set *set,
    struct err *err)
{
	json_error_t e;
	json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &e);
	struct task t;
	struct why w;
	char label[260], text[JSON_ERROR_TEXT_LENGTH + 1];

	if (root == NULL && json_error_code(&e) == json_error_duplicate_key &&
	    (root = json_loadb(json, len, 0, &e)) != NULL)
		dup_scan(source, o, json, len);

	if (root == NULL && input_json_oom(&e))
		return err_set(err, ERR_INTERNAL, "%s: out of memory parsing a task's JSON", source);
	if (root == NULL) {
		snprintf(text, sizeof text, "%s", e.text);
		input_sanitize(text);
		return err_set(err, ERR_PARSE, "%s: malformed task JSON at column %d: %s", source,
		    e.column, text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return err_set(err, ERR_PARSE, "%s: a task must be a JSON object", source);
	}
	task_init_pool(&t, task_set_pool(set));
	if (input_parse_task(root, &t, &w) != 0) {
		input_task_label(root, "", label, sizeof label);
		json_decref(root);
		task_cleanup(&t);
		return err_set(err, ERR_PARSE, "%s: %s: %s", source, label, w.msg);
	}
	if (w.ndropped > 0) {
		input_task_label(root, "", label, sizeof label);
		for (unsigned i = 0; i < w.ndropped; i++)
			live_warn(o, "%s: %s: ignored %s", live_name(source), label, w.dropped[i]);
	}
	json_decref(root);
	task_str(&t, &task_edit_profile(&t)->source, source);
	task_set_ts(&t, TS_FETCHED, fetched_at_ms);
	task_set_take(set, &t);
	return 0;
}

/* The key of a plain raw task at its top level, as input_peek_task() reads it: 0, or 1
 * when it is not sure (an escaped or non-string taskArn, a version that is not a plain
 * integer, a key twice, anything jsonscan gives up). */
static int
quick_task_key(const char *json, size_t len, struct input_key *k)
{
	char *buf = xmalloc(len + 1);   /* the other strings' escapes, decoded and dropped */
	/* no check of repeated keys but these two: jansson keeps the last value of any, and
	 * only these two make the key */
	struct jsonscan sc = { json, json + len, buf, 0, NULL };
	struct jsonscan_str key, s;
	bool seen_version = false;
	int r, rc = 1;

	memset(k, 0, sizeof *k);
	k->fetched_at_ms = TS_NONE;
	jsonscan_ws(&sc);
	for (bool first = true;; first = false) {
		if ((r = jsonscan_member(&sc, first, &key)) < 0)
			goto out;
		if (r == 0)
			break;
		if (key.n == 7 && memcmp(key.s, "taskArn", 7) == 0) {
			/* an escape gives up */
			if (k->arn != NULL || jsonscan_string(&sc, false, &s) != 0)
				goto out;
			k->arn = xstrndup(s.s, s.n);
		} else if (key.n == 7 && memcmp(key.s, "version", 7) == 0) {
			bool is_int;
			double dv;

			if (seen_version || jsonscan_number(&sc, &is_int, &k->version, &dv) != 0 ||
			    !is_int)
				goto out;
			seen_version = k->has_version = true;
		} else if (jsonscan_skip(&sc) != 0) {
			goto out;
		}
	}
	jsonscan_ws(&sc);
	if (sc.p == sc.end && k->arn != NULL)
		rc = 0;
out:
	free(buf);
	if (rc != 0)
		input_key_cleanup(k);
	return rc;
}

int
input_peek_built_record(const char *line, size_t len, const char *task, size_t task_len,
    int64_t fetched_at_ms, struct input_key *k, struct err *err)
{
	/* fetched_at is written as ISO 8601 to the millisecond: it reads back as it was */
	if (fetched_at_ms >= 0 && fetched_at_ms <= 253402300799999LL &&
	    len < INPUT_MAX_LINE && quick_task_key(task, task_len, k) == 0) {
		struct err e;

		err_clear(&e);
		if (input_record_line_check(line, len, &e) == 0) {
			k->fetched_at_ms = fetched_at_ms;
			return 0;
		}
		input_key_cleanup(k);
	}
	return input_peek_record(line, len, k, err);
}
