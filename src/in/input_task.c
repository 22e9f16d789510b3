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
#include "ecsprof/log.h"
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
		log_warn("%s", line);
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
	rc = taskscan_task(json, len, buf, &t);
	free(buf);
	if (rc != 0)
		return input_parse_task_json_dom(json, len, source, fetched_at_ms, o, set, err);
	task_str(&t, &t.source, source);
	t.fetched_at_ms = fetched_at_ms;
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
	task_str(&t, &t.source, source);
	t.fetched_at_ms = fetched_at_ms;
	task_set_take(set, &t);
	return 0;
}
