/* ecs_run: RunTask, StopTask and DescribeTaskDefinition, through the one JSON-protocol
 * client. RunTask is not idempotent by itself: a retried call whose first answer was lost
 * would start its tasks twice, so every call carries a clientToken (ECS starts the tasks
 * of one token once). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "ecs_int.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

static json_t *
string_array(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
run_request(const struct ecs_run_request *r)
{
	json_t *req = json_object();

	if (r->cluster != NULL)
		json_object_set_new(req, "cluster", json_string(r->cluster));
	json_object_set_new(req, "taskDefinition", json_string(r->taskdef));
	json_object_set_new(req, "count", json_integer(r->count));
	if (r->capacity_provider != NULL) {
		json_t *item = json_pack("{s:s,s:i}", "capacityProvider", r->capacity_provider,
					 "weight", 1);
		json_object_set_new(req, "capacityProviderStrategy", json_pack("[o]", item));
	} else if (r->launch_type != NULL) {
		json_object_set_new(req, "launchType", json_string(r->launch_type));
	}
	if (r->platform_version != NULL)
		json_object_set_new(req, "platformVersion", json_string(r->platform_version));
	if (r->nsubnets > 0) {
		json_t *vpc = json_object();

		json_object_set_new(vpc, "subnets", string_array(r->subnets, r->nsubnets));
		if (r->nsecurity_groups > 0)
			json_object_set_new(vpc, "securityGroups",
					    string_array(r->security_groups, r->nsecurity_groups));
		if (r->assign_public_ip >= 0)
			json_object_set_new(vpc, "assignPublicIp",
					    json_string(r->assign_public_ip ? "ENABLED" : "DISABLED"));
		json_object_set_new(req, "networkConfiguration",
				    json_pack("{s:o}", "awsvpcConfiguration", vpc));
	}
	if (r->started_by != NULL)
		json_object_set_new(req, "startedBy", json_string(r->started_by));
	if (r->ntags > 0) {
		json_t *tags = json_array();

		for (size_t i = 0; i < r->ntags; i++)
			json_array_append_new(tags, json_pack("{s:s,s:s}", "key", r->tags[i].key,
							      "value", r->tags[i].value));
		json_object_set_new(req, "tags", tags);
		/* the experiment's tags on the task only: not propagated from a service */
	}
	if (r->client_token != NULL)
		json_object_set_new(req, "clientToken", json_string(r->client_token));
	return req;
}

char *
ecs_run_request_json(const struct ecs_run_request *r, bool pretty)
{
	json_t *req = run_request(r);
	char *s = json_dumps(req, pretty ? JSON_INDENT(2) | JSON_PRESERVE_ORDER
					 : JSON_COMPACT | JSON_PRESERVE_ORDER);

	json_decref(req);
	return s != NULL ? s : xstrdup("{}");
}

static char *
jstr(json_t *o, const char *key)
{
	return xstrdup_or_null(json_string_value(json_object_get(o, key)));
}

static char *
task_text(json_t *task)
{
	/* 16 digits keep epoch seconds with milliseconds exact (as ecs_fetch.c) */
	char *s = json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16));
	return s != NULL ? s : xstrdup("{}");
}

int
ecs_run_task(struct ecs_client *c, const struct ecs_run_request *r, struct ecs_run_result *out,
	     struct err *err)
{
	json_t *req, *resp = NULL, *v;
	size_t i;
	int rc;

	memset(out, 0, sizeof *out);
	awsjson_reset(c->api);
	req = run_request(r);
	rc = awsjson_call(c->api, &c->transports[0], "RunTask", req, &resp, &out->answered_ms,
			  err);
	json_decref(req);
	if (rc != 0) {
		if (strcmp(err->aws_type, "ClusterNotFoundException") == 0)
			ecs_explain_cluster_not_found(c, r->cluster, err);
		return -1;
	}
	v = json_object_get(resp, "tasks");
	if (json_array_size(v) > 0)
		out->tasks = xcalloc(json_array_size(v), sizeof *out->tasks);
	json_t *t;
	json_array_foreach(v, i, t)
		if (json_is_object(t) && json_is_string(json_object_get(t, "taskArn")))
			out->tasks[out->ntasks++] = task_text(t);
	v = json_object_get(resp, "failures");
	if (json_array_size(v) > 0)
		out->failures = xcalloc(json_array_size(v), sizeof *out->failures);
	json_array_foreach(v, i, t) {
		struct ecs_failure *f = &out->failures[out->nfailures++];
		f->arn = jstr(t, "arn");
		f->reason = jstr(t, "reason");
		f->detail = jstr(t, "detail");
	}
	json_decref(resp);
	return 0;
}

void
ecs_run_result_cleanup(struct ecs_run_result *r)
{
	for (size_t i = 0; i < r->ntasks; i++)
		free(r->tasks[i]);
	free(r->tasks);
	for (size_t i = 0; i < r->nfailures; i++) {
		free(r->failures[i].arn);
		free(r->failures[i].reason);
		free(r->failures[i].detail);
	}
	free(r->failures);
	memset(r, 0, sizeof *r);
}

bool
ecs_failure_retryable(const char *reason)
{
	/* RESOURCE:CPU/MEMORY/PORTS/ENI (EC2 capacity), AGENT, "Capacity is unavailable at
	 * this time" (Fargate), throttling of task launches */
	static const char *const retry[] = { "RESOURCE", "AGENT", "Capacity", "capacity",
					     "Throttl", "throttl", "Rate exceeded" };

	if (reason == NULL)
		return false;
	for (size_t i = 0; i < sizeof retry / sizeof retry[0]; i++)
		if (strstr(reason, retry[i]) != NULL)
			return true;
	return false;
}

int
ecs_stop_task_on(struct ecs_client *c, const struct http_transport *tr, const int *cancel,
		 const char *cluster, const char *task, const char *reason, char **raw,
		 int64_t *answered_ms, struct err *err)
{
	struct awsjson_call_options co = { .cancel = cancel };
	json_t *req = json_object(), *resp = NULL, *t;
	char cut[256];
	int rc;

	if (raw != NULL)
		*raw = NULL;
	snprintf(cut, sizeof cut, "%s", reason ? reason : "stopped by ecsprof");
	if (cluster != NULL)
		json_object_set_new(req, "cluster", json_string(cluster));
	json_object_set_new(req, "task", json_string(task));
	json_object_set_new(req, "reason", json_string(cut));
	rc = awsjson_call_opt(c->api, tr, "StopTask", req, &co, &resp, err);
	json_decref(req);
	if (rc != 0)
		return -1;
	if (answered_ms != NULL)
		*answered_ms = co.answered_ms;
	t = json_object_get(resp, "task");
	if (raw != NULL && json_is_object(t) && json_is_string(json_object_get(t, "taskArn")))
		*raw = task_text(t);
	json_decref(resp);
	return 0;
}

static void
compat(json_t *list, bool *ec2, bool *fargate)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v) {
		const char *s = json_string_value(v);
		if (s != NULL && strcmp(s, "EC2") == 0)
			*ec2 = true;
		if (s != NULL && strcmp(s, "FARGATE") == 0)
			*fargate = true;
	}
}

/* DescribeTaskDefinition's answer, with its taskDefinition object */
static int
describe_taskdef(struct ecs_client *c, const char *name, json_t **resp, struct err *err)
{
	json_t *req = json_object();
	int rc;

	*resp = NULL;
	awsjson_reset(c->api);
	json_object_set_new(req, "taskDefinition", json_string(name));
	rc = awsjson_call(c->api, &c->transports[0], "DescribeTaskDefinition", req, resp, NULL,
			  err);
	json_decref(req);
	if (rc != 0) {
		/* ECS says "ClientException: Unable to describe task definition." */
		if (strcmp(err->aws_type, "ClientException") == 0 ||
		    strcmp(err->aws_type, "InvalidParameterException") == 0) {
			char was[sizeof err->msg];
			snprintf(was, sizeof was, "%s", err->msg);
			err_set(err, ERR_AWS, "task definition '%s' not found (%s) — check the "
				"family:revision, aws ecs list-task-definitions, and --region", name,
				was);
		}
		return -1;
	}
	if (!json_is_object(json_object_get(*resp, "taskDefinition"))) {
		json_decref(*resp);
		*resp = NULL;
		return err_set(err, ERR_AWS, "DescribeTaskDefinition %s: no taskDefinition in the "
			       "answer", name);
	}
	return 0;
}

int
ecs_describe_task_definition_json(struct ecs_client *c, const char *name, char **json,
				  struct err *err)
{
	json_t *resp;

	*json = NULL;
	if (describe_taskdef(c, name, &resp, err) != 0)
		return -1;
	*json = json_dumps(resp, JSON_COMPACT);
	json_decref(resp);
	if (*json == NULL)
		return err_set(err, ERR_INTERNAL, "DescribeTaskDefinition %s: cannot encode the "
			       "answer", name);
	return 0;
}

int
ecs_describe_task_definition(struct ecs_client *c, const char *name, struct ecs_taskdef *out,
			     struct err *err)
{
	json_t *resp = NULL, *td, *v;
	size_t i;

	memset(out, 0, sizeof *out);
	if (describe_taskdef(c, name, &resp, err) != 0)
		return -1;
	td = json_object_get(resp, "taskDefinition");
	out->arn = jstr(td, "taskDefinitionArn");
	out->family = jstr(td, "family");
	v = json_object_get(td, "revision");
	out->revision = json_is_integer(v) ? (long)json_integer_value(v) : 0;
	out->status = jstr(td, "status");
	/* task-level cpu and memory are strings in the model; accept numbers too */
	v = json_object_get(td, "cpu");
	out->cpu = json_is_integer(v) ? xasprintf("%lld", (long long)json_integer_value(v))
				      : jstr(td, "cpu");
	v = json_object_get(td, "memory");
	out->memory = json_is_integer(v) ? xasprintf("%lld", (long long)json_integer_value(v))
					 : jstr(td, "memory");
	out->network_mode = jstr(td, "networkMode");
	out->cpu_arch = jstr(json_object_get(td, "runtimePlatform"), "cpuArchitecture");
	compat(json_object_get(td, "compatibilities"), &out->compat_ec2, &out->compat_fargate);
	compat(json_object_get(td, "requiresCompatibilities"), &out->requires_ec2,
	       &out->requires_fargate);
	json_array_foreach(json_object_get(td, "containerDefinitions"), i, v) {
		json_t *ess = json_object_get(v, "essential");
		if ((ess == NULL || json_is_true(ess)) && json_is_object(json_object_get(v, "healthCheck")))
			out->health_check = true;
	}
	json_decref(resp);
	return 0;
}

void
ecs_taskdef_cleanup(struct ecs_taskdef *td)
{
	free(td->arn);
	free(td->family);
	free(td->status);
	free(td->cpu);
	free(td->memory);
	free(td->network_mode);
	free(td->cpu_arch);
	memset(td, 0, sizeof *td);
}
