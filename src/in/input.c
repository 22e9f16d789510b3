/* input: the shape dispatch: which kind of document or line this is (DescribeTasks
 * response, task, EventBridge event, recording, task metadata), and what each becomes.
 * Values come from input_lines.c and input_stream.c, field values from input_fields.c;
 * the results and their merging into the set are input_pctx.c's. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/image.h"
#include "image_int.h"
#include "input_int.h"
#include "input_serving.h"

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
		input_emit_warn(c, ITEM_WARN, "%s: ignored %s", label, w->dropped[i]);
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
		input_emit_warn(c, ITEM_SKIP, "skipped %s: %s", label, w.msg);
		task_cleanup(&t);
		return;
	}
	warn_dropped(c, o, where, &w);
	task_set_ts(&t, TS_FETCHED, fetched_at_ms);
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
		input_emit_warn(c, ITEM_SKIP, "skipped event: %s: expected an object, got %s", here, d);
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
			input_emit_warn(c, ITEM_SKIP, "skipped image line%s%s: %s", where[0] ? " " : "",
			    where, why);
			image_set_free(s);
			return 0;
		}
		image_set_put(s, &f);
	} else if (image_read_describe_images(o, s) < 0 && image_read_batch_get_image(o, s) < 0) {
		image_set_free(s);
		return -1;
	}
	it = input_items_push(&c->out);
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
		return input_doc_error(c, "\"ecsprof\" is %s, expected \"%s\"", d, RECORD_TAG);
	}
	if (strcmp(json_string_value(tag), RECORD_TAG) != 0) {
		input_quote(d, sizeof d, json_string_value(tag), json_string_length(tag));
		return input_doc_error(c, "recording format %s is not supported (this ecsprof reads \"%s\")",
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
		input_emit_warn(c, ITEM_SKIP, "skipped record%s%s: task: expected an object, got %s",
		    where[0] ? " " : "", where, d);
		return 0;
	}
	w.msg[0] = '\0';
	if (input_get_time(o, "fetched_at", &fetched, &w) != 0) {
		/* as a bad time in the task: the field is dropped, not the task (a3bdc71) */
		input_task_label(task, where, label, sizeof label);
		input_emit_warn(c, ITEM_WARN, "%s: ignored %s", label, w.msg);
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
		input_emit_warn(c, ITEM_SKIP, "skipped task metadata %s: %s", label, w.msg);
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
		input_emit_warn(c, ITEM_SKIP, "skipped Container Insights %s: %s", label, w.msg);
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
		return input_doc_error(c, "\"tasks\": expected an array of tasks, got %s", d);
	}
	if (failures != NULL && !json_is_null(failures) && !json_is_array(failures)) {
		input_describe(failures, d, sizeof d);
		return input_doc_error(c, "\"failures\": expected an array, got %s", d);
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
		input_emit_warn(c, ITEM_SKIP, "skipped %s: expected a task object, got %s", where, d);
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
	input_emit_warn(c, ITEM_FAILURE, "DescribeTasks failure: %s: %s%s%s", qa, qr,
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
	input_emit_warn(c, ITEM_SKIP, "skipped %s: not a task or task event (got %s)", where,
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
			return input_doc_error(c, "not a known input: %s", input_unknown_hint(root));
		return input_doc_error(c, "not a known input: expected a DescribeTasks response, a task, "
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
		return input_doc_error(c, "not a known input: an array with no task or task event in it");
	}
	return 0;
}

int
input_dispatch(struct pctx *c, const json_t *root)
{
	return dispatch(c, root);
}
