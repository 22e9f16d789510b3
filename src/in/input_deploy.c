/* input_deploy: deployments and service events out of the same files `report` reads: the
 * deployment and event lines of ecsprof recordings, EventBridge "ECS Deployment State
 * Change" and "ECS Service Action" events, and DescribeServices output (the API's or
 * `aws ecs describe-services`'). Everything else in a file (tasks, task events, metadata)
 * is input.c's and is passed over here. A file is read whole, or line by line when it is
 * JSON Lines. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/log.h"
#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "input_int.h"
#include "input_stream.h"
#include "ecsprof/jsonscan.h"

/* Where the reader is: the set read into, the name and line for warnings, and how many
 * deployment-ish objects were left out for want of an id or a time. */
struct dj_ctx {
	const struct log *log;
	struct deploy_set *s;
	const char *name;
	long line;
	size_t skipped;
	long first_skipped;   /* its line (0: a whole document) */
};

static void
dj_skip(struct dj_ctx *c)
{
	if (c->skipped++ == 0)
		c->first_skipped = c->line;
}

static const char *
dj_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static long
dj_long(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* "arn:aws:ecs:r:a:service/cluster/web" or ".../service/web" -> "web" */
static const char *
dj_service_name(const char *arn)
{
	const char *s;

	if (arn == NULL)
		return NULL;
	s = strrchr(arn, '/');
	return s != NULL ? s + 1 : arn;
}

/* One Deployment object of service `service`, as of seen_ms. */
static void
dj_deployment(struct dj_ctx *c, const char *service, const json_t *d, int64_t seen_ms)
{
	struct deployment f;

	if (!json_is_string(json_object_get(d, "id"))) {
		dj_skip(c);
		return;
	}
	memset(&f, 0, sizeof f);
	f.status = (char *)dj_str(d, "status");
	f.rollout_state = (char *)dj_str(d, "rolloutState");
	f.taskdef = (char *)dj_str(d, "taskDefinition");
	f.created_ms = input_aws_time(d, "createdAt");
	f.updated_ms = input_aws_time(d, "updatedAt");
	f.completed_ms = TS_NONE;
	f.desired = dj_long(d, "desiredCount");
	f.failed = dj_long(d, "failedTasks");
	f.seen_ms = seen_ms;
	/* a COMPLETED rollout's last update is when it completed */
	if (f.rollout_state != NULL && strcmp(f.rollout_state, "COMPLETED") == 0)
		f.completed_ms = f.updated_ms;
	deploy_merge(deploy_set_get(c->s, service, dj_str(d, "id")), &f);
}

static void
dj_event(struct dj_ctx *c, const char *service, const json_t *e)
{
	int64_t at = input_aws_time(e, "createdAt");

	if (at == TS_NONE || dj_str(e, "message") == NULL) {
		dj_skip(c);
		return;
	}
	deploy_set_event(c->s, service, dj_str(e, "id"), at, dj_str(e, "message"));
}

/* A Service object (DescribeServices): its deployments and events. */
static void
dj_service(struct dj_ctx *c, const json_t *svc, int64_t seen_ms)
{
	const char *name = dj_str(svc, "serviceName");
	const json_t *v;
	size_t i;

	if (name == NULL)
		name = dj_service_name(dj_str(svc, "serviceArn"));
	json_array_foreach(json_object_get(svc, "deployments"), i, v)
		dj_deployment(c, name, v, seen_ms);
	json_array_foreach(json_object_get(svc, "events"), i, v)
		dj_event(c, name, v);
}

/* EventBridge: "ECS Deployment State Change" (SERVICE_DEPLOYMENT_IN_PROGRESS, _COMPLETED,
 * _FAILED) and "ECS Service Action" (SERVICE_STEADY_STATE, TASKS_STOPPED, ...). */
static void
dj_eventbridge(struct dj_ctx *c, const json_t *o, const char *type)
{
	const json_t *detail = json_object_get(o, "detail");
	const char *service = dj_service_name(json_string_value(json_array_get(
		json_object_get(o, "resources"), 0)));
	const char *name = dj_str(detail, "eventName"), *reason = dj_str(detail, "reason");
	int64_t at = input_aws_time(detail, "updatedAt");
	char msg[1024];

	if (at == TS_NONE)
		at = input_aws_time(detail, "createdAt");
	if (at == TS_NONE)
		at = input_aws_time(o, "time");
	if (name == NULL || at == TS_NONE) {
		dj_skip(c);
		return;
	}
	if (strcmp(type, "ECS Deployment State Change") == 0) {
		const char *id = dj_str(detail, "deploymentId");
		struct deployment f;

		if (id == NULL) {
			dj_skip(c);
			return;
		}
		memset(&f, 0, sizeof f);
		f.created_ms = f.updated_ms = f.completed_ms = f.seen_ms = TS_NONE;
		f.desired = f.failed = -1;
		if (strcmp(name, "SERVICE_DEPLOYMENT_IN_PROGRESS") == 0) {
			f.created_ms = at;
			f.rollout_state = "IN_PROGRESS";
		} else if (strcmp(name, "SERVICE_DEPLOYMENT_COMPLETED") == 0) {
			f.completed_ms = at;
			f.rollout_state = "COMPLETED";
		} else if (strcmp(name, "SERVICE_DEPLOYMENT_FAILED") == 0) {
			f.completed_ms = at;
			f.rollout_state = "FAILED";
		}
		/* the later state wins: COMPLETED or FAILED after IN_PROGRESS */
		f.seen_ms = at;
		deploy_merge(deploy_set_get(c->s, service, id), &f);
		snprintf(msg, sizeof msg, "%s %s%s%s", name, id, reason ? ": " : "",
			 reason ? reason : "");
		deploy_set_event(c->s, service, NULL, at, msg);
		return;
	}
	if (strcmp(name, "SERVICE_STEADY_STATE") == 0)
		snprintf(msg, sizeof msg, "(service %s) has reached a steady state.",
			 service ? service : "?");
	else
		snprintf(msg, sizeof msg, "%s%s%s", name, reason ? ": " : "", reason ? reason : "");
	deploy_set_event(c->s, service, NULL, at, msg);
}

static void dj_warn(const struct dj_ctx *c, const char *what);

/* A recording line's fetched_at, read as a task line's is (input_get_time): one that is
 * no time is left out with a warning naming the line, and the line is kept (55a496a). */
static int64_t
dj_fetched_at(struct dj_ctx *c, const json_t *o)
{
	const json_t *d = json_object_get(o, "deployment"), *e = json_object_get(o, "event");
	const json_t *item = json_is_object(d) ? d : e;
	int64_t at = TS_NONE;
	struct why w;
	char svc[120], id[120], what[600];

	w.msg[0] = '\0';
	if (!json_is_object(item) || input_get_time(o, "fetched_at", &at, &w) == 0)
		return at;
	/* names as they are in the file: untrusted, quoted for the terminal */
	input_quote(svc, sizeof svc, dj_str(o, "service") ? dj_str(o, "service") : "",
	    dj_str(o, "service") ? strlen(dj_str(o, "service")) : 0);
	input_quote(id, sizeof id, dj_str(item, "id") ? dj_str(item, "id") : "",
	    dj_str(item, "id") ? strlen(dj_str(item, "id")) : 0);
	snprintf(what, sizeof what, "%s of service %s, id %s: ignored %s",
	    item == d ? "deployment" : "service event", svc, id, w.msg);
	dj_warn(c, what);
	return TS_NONE;
}

/* A recording line's fetched_at, TS_NONE when it has none that reads */
static int64_t
dj_line_time(const json_t *o)
{
	int64_t at = TS_NONE;
	struct why w;

	w.msg[0] = '\0';
	return input_get_time(o, "fetched_at", &at, &w) == 0 ? at : TS_NONE;
}

static void
dj_object(struct dj_ctx *c, const json_t *o)
{
	const json_t *v;
	const char *type;
	size_t i;

	if (json_is_array(o)) {
		json_array_foreach(o, i, v)
			dj_object(c, v);
		return;
	}
	if (!json_is_object(o))
		return;
	if (json_is_string(json_object_get(o, "ecsprof"))) {
		/* recording lines: "service" beside a "deployment" or an "event" */
		const char *svc = dj_str(o, "service");
		int64_t seen = dj_fetched_at(c, o);

		if (json_is_object(json_object_get(o, "deployment")))
			dj_deployment(c, svc, json_object_get(o, "deployment"), seen);
		if (json_is_object(json_object_get(o, "event")))
			dj_event(c, svc, json_object_get(o, "event"));
		/* a scale-out source line (input_scaleout.c) holding a DescribeServices answer */
		if (json_is_array(json_object_get(json_object_get(o, "scaleout"), "services")))
			json_array_foreach(json_object_get(json_object_get(o, "scaleout"),
							   "services"), i, v)
				dj_service(c, v, dj_line_time(o));
		return;
	}
	if ((type = dj_str(o, "detail-type")) != NULL) {
		if (strcmp(type, "ECS Deployment State Change") == 0 ||
		    strcmp(type, "ECS Service Action") == 0)
			dj_eventbridge(c, o, type);
		return;
	}
	if (json_is_array(json_object_get(o, "services"))) {
		json_array_foreach(json_object_get(o, "services"), i, v)
			dj_service(c, v, TS_NONE);
		return;
	}
	if (json_object_get(o, "serviceName") != NULL &&
	    json_is_array(json_object_get(o, "deployments")))
		dj_service(c, o, TS_NONE);
}

/* A deployment-ish object that is not usable: said once, with where it was. */
static void
dj_warn(const struct dj_ctx *c, const char *what)
{
	char line[768];

	if (c->line > 0)
		snprintf(line, sizeof line, "%s:%ld: %s", c->name, c->line, what);
	else
		snprintf(line, sizeof line, "%s: %s", c->name, what);
	log_warn(c->log, "%s", line);   /* through log.c, as the task reader's default */
}

/* The one warning about what was left out; 0 (nothing here is an error). */
static int
dj_done(struct dj_ctx *c)
{
	char what[160];

	if (c->skipped == 0)
		return 0;
	snprintf(what, sizeof what, "%zu deployment%s or service event%s without an id, a time "
		 "or a message left out%s", c->skipped, c->skipped == 1 ? "" : "s",
		 c->skipped == 1 ? "" : "s", c->skipped > 1 && c->first_skipped ? " (the first)" : "");
	c->line = c->first_skipped;
	dj_warn(c, what);
	return 0;
}

/* A large document input_stream.c reads element by element (input_read.c reads its
 * tasks so): a DescribeTasks answer has no deployment in it, an array's elements are read
 * one at a time, as dj_object() reads an array, without a DOM of the whole. true when it
 * was such a document. */
static bool
dj_stream(struct dj_ctx *c, const char *data, size_t len)
{
	struct input_stream st;
	struct jsonscan sc;
	int e;

	if (len < ((size_t)1 << 20) || input_stream_open(&st, data, len) != 0)
		return false;
	memset(&sc, 0, sizeof sc);
	sc.p = st.array ? st.tasks : st.end;
	sc.end = st.end;
	for (bool first = true; st.array && (e = jsonscan_element(&sc, first)) == 1;
	     first = false) {
		const char *p = sc.p;
		json_error_t je;
		json_t *v;

		jsonscan_skip(&sc);   /* checked by input_stream_open */
		if ((v = json_loadb(p, (size_t)(sc.p - p), JSON_DECODE_ANY, &je)) != NULL) {
			dj_object(c, v);
			json_decref(v);
		}
	}
	input_stream_close(&st);
	return true;
}

int
input_deploy_read_mem(const struct log *lg, const char *name, const char *data, size_t len,
		      struct deploy_set *s, struct err *err)
{
	struct dj_ctx c = { lg, s, name, 0, 0, 0 };
	json_error_t e;
	json_t *root;
	const char *p = data, *end = data + len;
	long line = 1;
	bool any_json = false;

	if (dj_stream(&c, data, len))
		return dj_done(&c);
	root = json_loadb(data, len, JSON_DECODE_ANY, &e);
	if (root != NULL) {
		dj_object(&c, root);
		json_decref(root);
		return dj_done(&c);
	}
	/* JSON Lines. Reading the same bytes as input.c, a bad line was reported there; on
	 * their own (a live answer) bytes with no JSON line at all are an error here. */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > 0 && (root = json_loadb(p, n, JSON_DECODE_ANY, &e)) != NULL) {
			c.line = line;
			dj_object(&c, root);
			json_decref(root);
			any_json = true;
		}
		p += n + (nl != NULL);
		line++;
	}
	if (!any_json && !input_blank(data, len)) {
		root = json_loadb(data, len, JSON_DECODE_ANY, &e);
		json_decref(root);
		if (root == NULL && input_json_oom(&e))
			return err_set(err, ERR_INTERNAL, "%s: out of memory parsing the JSON", name);
		return err_set(err, ERR_PARSE, "%s:%d:%d: malformed JSON: %s", name, e.line,
			       e.column, e.text);
	}
	return dj_done(&c);
}

int
input_deploy_read_file(const struct log *lg, const char *path, struct deploy_set *s,
		       struct err *err)
{
	bool std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "rb");
	struct buf b;
	int rc;

	if (f == NULL)
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, err_strerror(errno));
	rc = input_deploy_slurp(path, f, &b, err);
	if (!std)
		fclose(f);
	if (rc == 0)
		rc = input_deploy_read_mem(lg, path, b.data ? b.data : "", b.len, s, err);
	buf_cleanup(&b);
	return rc;
}

int
input_deploy_slurp(const char *name, FILE *f, struct buf *b, struct err *err)
{
	char chunk[65536];
	size_t n;

	buf_init(b, INPUT_MAX_DOC);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (buf_add(b, chunk, n) != 0)
			return err_set(err, ERR_IO, "%s: larger than %zu MiB", name,
				       INPUT_MAX_DOC >> 20);
	if (ferror(f))
		return err_set(err, ERR_IO, "%s: read error: %s", name, err_strerror(errno));
	return 0;
}
