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

#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

static int64_t
dj_time(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	int64_t ms;

	if (json_is_number(v) && timeutil_epoch_seconds_to_ms(json_number_value(v), &ms) == 0)
		return ms;
	if (json_is_string(v) && timeutil_parse_iso8601(json_string_value(v), &ms) == 0)
		return ms;
	return TS_NONE;
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
dj_deployment(struct deploy_set *s, const char *service, const json_t *d, int64_t seen_ms)
{
	struct deployment f;

	if (!json_is_string(json_object_get(d, "id")))
		return;
	memset(&f, 0, sizeof f);
	f.status = (char *)dj_str(d, "status");
	f.rollout_state = (char *)dj_str(d, "rolloutState");
	f.taskdef = (char *)dj_str(d, "taskDefinition");
	f.created_ms = dj_time(d, "createdAt");
	f.updated_ms = dj_time(d, "updatedAt");
	f.completed_ms = TS_NONE;
	f.desired = dj_long(d, "desiredCount");
	f.failed = dj_long(d, "failedTasks");
	f.seen_ms = seen_ms;
	/* a COMPLETED rollout's last update is when it completed */
	if (f.rollout_state != NULL && strcmp(f.rollout_state, "COMPLETED") == 0)
		f.completed_ms = f.updated_ms;
	deploy_merge(deploy_set_get(s, service, dj_str(d, "id")), &f);
}

static void
dj_event(struct deploy_set *s, const char *service, const json_t *e)
{
	deploy_set_event(s, service, dj_str(e, "id"), dj_time(e, "createdAt"), dj_str(e, "message"));
}

/* A Service object (DescribeServices): its deployments and events. */
static void
dj_service(struct deploy_set *s, const json_t *svc, int64_t seen_ms)
{
	const char *name = dj_str(svc, "serviceName");
	const json_t *v;
	size_t i;

	if (name == NULL)
		name = dj_service_name(dj_str(svc, "serviceArn"));
	json_array_foreach(json_object_get(svc, "deployments"), i, v)
		dj_deployment(s, name, v, seen_ms);
	json_array_foreach(json_object_get(svc, "events"), i, v)
		dj_event(s, name, v);
}

/* EventBridge: "ECS Deployment State Change" (SERVICE_DEPLOYMENT_IN_PROGRESS, _COMPLETED,
 * _FAILED) and "ECS Service Action" (SERVICE_STEADY_STATE, TASKS_STOPPED, ...). */
static void
dj_eventbridge(struct deploy_set *s, const json_t *o, const char *type)
{
	const json_t *detail = json_object_get(o, "detail");
	const char *service = dj_service_name(json_string_value(json_array_get(
		json_object_get(o, "resources"), 0)));
	const char *name = dj_str(detail, "eventName"), *reason = dj_str(detail, "reason");
	int64_t at = dj_time(detail, "updatedAt");
	char msg[1024];

	if (at == TS_NONE)
		at = dj_time(detail, "createdAt");
	if (at == TS_NONE)
		at = dj_time(o, "time");
	if (name == NULL)
		return;
	if (strcmp(type, "ECS Deployment State Change") == 0) {
		const char *id = dj_str(detail, "deploymentId");
		struct deployment f;

		if (id == NULL)
			return;
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
		deploy_merge(deploy_set_get(s, service, id), &f);
		snprintf(msg, sizeof msg, "%s %s%s%s", name, id, reason ? ": " : "",
			 reason ? reason : "");
		deploy_set_event(s, service, NULL, at, msg);
		return;
	}
	if (strcmp(name, "SERVICE_STEADY_STATE") == 0)
		snprintf(msg, sizeof msg, "(service %s) has reached a steady state.",
			 service ? service : "?");
	else
		snprintf(msg, sizeof msg, "%s%s%s", name, reason ? ": " : "", reason ? reason : "");
	deploy_set_event(s, service, NULL, at, msg);
}

static void
dj_object(struct deploy_set *s, const json_t *o)
{
	const json_t *v;
	const char *type;
	size_t i;

	if (json_is_array(o)) {
		json_array_foreach(o, i, v)
			dj_object(s, v);
		return;
	}
	if (!json_is_object(o))
		return;
	if (json_is_string(json_object_get(o, "ecsprof"))) {
		/* recording lines: "service" beside a "deployment" or an "event" */
		const char *svc = dj_str(o, "service");
		int64_t seen = dj_time(o, "fetched_at");

		if (json_is_object(json_object_get(o, "deployment")))
			dj_deployment(s, svc, json_object_get(o, "deployment"), seen);
		if (json_is_object(json_object_get(o, "event")))
			dj_event(s, svc, json_object_get(o, "event"));
		return;
	}
	if ((type = dj_str(o, "detail-type")) != NULL) {
		if (strcmp(type, "ECS Deployment State Change") == 0 ||
		    strcmp(type, "ECS Service Action") == 0)
			dj_eventbridge(s, o, type);
		return;
	}
	if (json_is_array(json_object_get(o, "services"))) {
		json_array_foreach(json_object_get(o, "services"), i, v)
			dj_service(s, v, TS_NONE);
		return;
	}
	if (json_object_get(o, "serviceName") != NULL &&
	    json_is_array(json_object_get(o, "deployments")))
		dj_service(s, o, TS_NONE);
}

int
input_deploy_read_mem(const char *name, const char *data, size_t len, struct deploy_set *s,
		      struct err *err)
{
	json_error_t e;
	json_t *root = json_loadb(data, len, JSON_DECODE_ANY, &e);
	const char *p = data, *end = data + len;
	long line = 1;

	if (root != NULL) {
		dj_object(s, root);
		json_decref(root);
		return 0;
	}
	/* JSON Lines: input.c has already said what is wrong with a bad line */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > 0 && (root = json_loadb(p, n, JSON_DECODE_ANY, &e)) != NULL) {
			dj_object(s, root);
			json_decref(root);
		}
		p += n + (nl != NULL);
		line++;
	}
	(void)name;
	(void)err;
	return 0;
}

int
input_deploy_read_file(const char *path, struct deploy_set *s, struct err *err)
{
	FILE *f = strcmp(path, "-") == 0 ? NULL : fopen(path, "rb");
	struct buf b;
	char chunk[65536];
	size_t n;
	int rc;

	if (strcmp(path, "-") == 0)
		return 0;   /* stdin was read once already, for the tasks */
	if (f == NULL)
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	buf_init(&b, INPUT_MAX_DOC);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (buf_add(&b, chunk, n) != 0) {
			fclose(f);
			buf_cleanup(&b);
			return err_set(err, ERR_IO, "%s: larger than %zu MiB", path,
				       INPUT_MAX_DOC >> 20);
		}
	fclose(f);
	rc = input_deploy_read_mem(path, b.data ? b.data : "", b.len, s, err);
	buf_cleanup(&b);
	return rc;
}
