/* input_serving: the task fields that time to serving, the startup cost and the diagnosis
 * need, read from the same JSON objects input.c parses: the network facts (an ENI
 * attachment means awsvpc; a public IPv4 address in its details), the CPU architecture
 * attribute, the containers' health, and task metadata v4 Containers[].Health. Lenient on
 * purpose: these are extras, so a field of an unexpected type is left unknown rather than
 * costing the task. */
#include <jansson.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/health.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "input_serving.h"

/* A string into the task: its pool's copy (see task.h). */
static void
serving_str(struct task *t, const char **dst, const json_t *v)
{
	if (!json_is_string(v) || *dst != NULL)
		return;
	task_strn(t, dst, json_string_value(v), json_string_length(v));
}

static bool
serving_time(const json_t *v, int64_t *out)
{
	int64_t ms;

	/* timeutil reads any year; an ECS time is not before 1970 (as epoch seconds) */
	if (json_is_string(v)) {
		if (timeutil_parse_iso8601(json_string_value(v), &ms) != 0 || ms < 0)
			return false;
		*out = ms;
		return true;
	}
	if (json_is_number(v))
		return timeutil_epoch_seconds_to_ms(json_number_value(v), out) == 0;
	return false;
}

/* The attachment details' names for a public address. DescribeTasks lists the ENI's
 * private address (privateIPv4Address); a public one appears where a producer adds it
 * (some event pipelines do), so its absence proves nothing and stays unknown. */
static bool
serving_is_public_name(const char *n)
{
	return strcasecmp(n, "publicIPv4Address") == 0 || strcasecmp(n, "publicIp") == 0 ||
	       strcasecmp(n, "publicIpAddress") == 0 || strcasecmp(n, "publicIPv4") == 0;
}

static void
serving_attachments(const json_t *o, struct task *t)
{
	const json_t *arr = json_object_get(o, "attachments"), *a;
	size_t i;

	if (!json_is_array(arr))
		return;
	t->awsvpc = TRI_NO;   /* the input lists attachments, and so would list an ENI */
	json_array_foreach(arr, i, a) {
		const json_t *type = json_object_get(a, "type"), *details, *d;
		size_t j;

		if (!json_is_string(type) ||
		    (strcmp(json_string_value(type), "ElasticNetworkInterface") != 0 &&
		     strcmp(json_string_value(type), "eni") != 0))
			continue;
		t->awsvpc = TRI_YES;
		details = json_object_get(a, "details");
		json_array_foreach(details, j, d) {
			const json_t *n = json_object_get(d, "name"), *v = json_object_get(d, "value");

			if (json_is_string(n) && serving_is_public_name(json_string_value(n)) &&
			    json_is_string(v) && json_string_length(v) > 0)
				t->public_ip = TRI_YES;
		}
	}
}

void
input_serving_task(const json_t *o, struct task *t)
{
	const json_t *attrs = json_object_get(o, "attributes"), *a, *cs;
	size_t i;

	serving_attachments(o, t);
	json_array_foreach(attrs, i, a) {
		const json_t *n = json_object_get(a, "name");

		if (json_is_string(n) && strcmp(json_string_value(n), "ecs.cpu-architecture") == 0)
			serving_str(t, &task_edit_profile(t)->cpu_arch, json_object_get(a, "value"));
	}
	cs = json_object_get(o, "containers");
	for (i = 0; i < t->ncontainers && i < json_array_size(cs); i++)
		serving_str(t, &container_edit_profile(t, &t->containers[i])->health_status,
			    json_object_get(json_array_get(cs, i), "healthStatus"));
}

void
input_serving_metadata(const json_t *o, struct task *t)
{
	const json_t *cs = json_object_get(o, "Containers");

	for (size_t i = 0; i < t->ncontainers && i < json_array_size(cs); i++) {
		const json_t *c = json_array_get(cs, i);
		const json_t *h = json_object_get(c, "Health"), *ess = json_object_get(c, "Essential");
		const json_t *nets = json_object_get(c, "Networks"), *n;
		struct container *k = &t->containers[i];
		size_t j;

		if (json_is_boolean(ess))
			k->essential = json_is_true(ess) ? TRI_YES : TRI_NO;
		json_array_foreach(nets, j, n) {
			const json_t *mode = json_object_get(n, "NetworkMode");

			if (json_is_string(mode))
				t->awsvpc = strcmp(json_string_value(mode), "awsvpc") == 0 ?
					    TRI_YES : TRI_NO;
		}
		if (!json_is_object(h))
			continue;
		serving_str(t, &container_edit_profile(t, k)->health_status, json_object_get(h, "status"));
		k->has_health_since = serving_time(json_object_get(h, "statusSince"),
						   &k->health_since_ms);
	}
	health_from_containers(t);
}

void
input_serving_record(const json_t *rec, struct task *t)
{
	const json_t *res = json_object_get(rec, "healthy_resolution_ms");
	int64_t at;

	if (!serving_time(json_object_get(rec, "healthy_at"), &at))
		return;
	task_set_ts(t, TS_HEALTHY, at);
	t->healthy_observed = true;
	t->healthy_resolution_ms = task_resolution_ms(json_is_integer(res) ?
						      (int64_t)json_integer_value(res) : 0);
}

bool
input_deploy_record_line(const json_t *rec)
{
	return json_object_get(rec, "task") == NULL &&
	       (json_is_object(json_object_get(rec, "deployment")) ||
		json_is_object(json_object_get(rec, "event")));
}

int
input_deploy_record_key(const json_t *rec, char **arn)
{
	const char *svc = json_string_value(json_object_get(rec, "service")), *id;
	const json_t *d = json_object_get(rec, "deployment"), *e = json_object_get(rec, "event");

	if (!input_deploy_record_line(rec))
		return -1;
	id = json_string_value(json_object_get(json_is_object(d) ? d : e, "id"));
	*arn = xasprintf("%s:%s/%s", json_is_object(d) ? "deployment" : "event",
			 svc ? svc : "", id ? id : "");
	return 0;
}

bool
input_deploy_event_type(const char *t)
{
	return strcmp(t, "ECS Deployment State Change") == 0 ||
	       strcmp(t, "ECS Service Action") == 0;
}
