/* ecs: the Amazon ECS client and its small operations (ListClusters, DescribeServices);
 * every call goes through awsjson.c, the fetch of tasks through ecs_fetch.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ecs_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define SERVICES_BATCH 10  /* DescribeServices: at most 10 per call */

int
ecs_client_new(const struct ecs_client_options *o, struct ecs_client **out, struct err *err)
{
	struct awsjson_options ao = { 0 };
	struct ecs_client *c;

	*out = NULL;
	if (o->common.creds == NULL || o->transport_new == NULL)
		return err_set(err, ERR_INTERNAL, "ecs client without credentials or transport");
	ao.service = &awsjson_ecs;
	ao.endpoint = o->endpoint;
	ao.common = o->common;
	c = xcalloc(1, sizeof *c);
	c->clock = o->common.clock;
	c->log = o->common.log;
	if (awsjson_client_new(&ao, &c->api, err) != 0) {
		free(c);
		return -1;
	}
	c->concurrency = o->concurrency > 0 ? o->concurrency : 4;
	if (c->concurrency > ECS_MAX_CONCURRENCY)
		c->concurrency = ECS_MAX_CONCURRENCY;
	c->transport_free = o->transport_free;
	c->transport_arg = o->transport_arg;
	c->transports = xcalloc((size_t)c->concurrency, sizeof *c->transports);
	for (long i = 0; i < c->concurrency; i++) {
		if (o->transport_new(o->transport_arg, &c->transports[i], err) != 0) {
			c->concurrency = i;
			ecs_client_free(c);
			return -1;
		}
	}
	*out = c;
	return 0;
}

void
ecs_client_free(struct ecs_client *c)
{
	if (c == NULL)
		return;
	for (long i = 0; i < c->concurrency; i++)
		if (c->transport_free != NULL)
			c->transport_free(c->transport_arg, &c->transports[i]);
	free(c->transports);
	awsjson_client_free(c->api);
	free(c);
}

size_t
ecs_client_requests(struct ecs_client *c)
{
	struct awsjson_counts n;

	awsjson_counts(c->api, &n);
	return n.requests;
}

int
ecs_error_from_response(const char *op, const struct http_response *resp, int attempts,
			struct err *err)
{
	return awsjson_error(&awsjson_ecs, op, resp, attempts, err);
}

/* ---- ListClusters ------------------------------------------------------------------- */

void
ecs_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static const char *
after_slash(const char *arn)
{
	const char *s = strrchr(arn, '/');
	return s ? s + 1 : arn;
}

int
ecs_list_clusters(struct ecs_client *c, char ***names, size_t *n, struct err *err)
{
	char *token = NULL, *prev = NULL;
	size_t cap = 0, pages = 0;

	awsjson_reset(c->api);
	*names = NULL;
	*n = 0;
	do {
		json_t *req = json_object(), *resp = NULL, *arns;
		size_t i;
		json_t *v;
		int rc;

		json_object_set_new(req, "maxResults", json_integer(100));
		if (token != NULL)
			json_object_set_new(req, "nextToken", json_string(token));
		rc = awsjson_call(c->api, &c->transports[0], "ListClusters", req, &resp, NULL, err);
		json_decref(req);
		free(prev);
		prev = token;
		token = NULL;
		pages++;
		if (rc != 0) {
			free(prev);
			ecs_names_free(*names, *n);
			*names = NULL;
			*n = 0;
			return -1;
		}
		arns = json_object_get(resp, "clusterArns");
		json_array_foreach(arns, i, v) {
			if (!json_is_string(v))
				continue;
			*names = xgrow(*names, *n + 1, &cap, sizeof **names);
			(*names)[(*n)++] = xstrdup(after_slash(json_string_value(v)));
		}
		if (json_is_string(json_object_get(resp, "nextToken")))
			token = xstrdup(json_string_value(json_object_get(resp, "nextToken")));
		json_decref(resp);
		if (token != NULL && !ecs_page_continue(c->log, "ListClusters", prev, token, pages)) {
			free(token);
			token = NULL;
		}
	} while (token != NULL);
	free(prev);
	return 0;
}

/* "ClusterNotFoundException: ... — clusters here are: a, b" */
void
ecs_explain_cluster_not_found(struct ecs_client *c, const char *cluster, struct err *err)
{
	struct err e2;
	char **names;
	size_t n;
	struct buf b;

	err_clear(&e2);
	if (ecs_list_clusters(c, &names, &n, &e2) != 0)
		return;
	buf_init(&b, 300);
	for (size_t i = 0; i < n; i++)
		if (buf_addf(&b, "%s%s", i ? ", " : "", names[i]) != 0) {
			buf_reset(&b);
			buf_addf(&b, "%zu clusters (see aws ecs list-clusters)", n);
			break;
		}
	err_set(err, ERR_AWS, "ClusterNotFoundException: cluster '%s' not found in %s — %s%s",
		cluster ? cluster : "default", awsjson_region(c->api),
		n ? "clusters here are: " : "there are no clusters in this region; check --region",
		buf_str(&b));
	snprintf(err->aws_type, sizeof err->aws_type, "ClusterNotFoundException");
	err->http_status = 400;
	buf_cleanup(&b);
	ecs_names_free(names, n);
}

/* ---- DescribeServices ----------------------------------------------------------------- */

static char *
jstr(json_t *o, const char *key)
{
	return xstrdup_or_null(json_string_value(json_object_get(o, key)));
}

static long
jlong(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

int64_t
ecs_json_time(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	int64_t ms;

	if (json_is_number(v) && timeutil_epoch_seconds_to_ms(json_number_value(v), &ms) == 0)
		return ms;
	/* timeutil reads any year; an ECS time is not before 1970 (as epoch seconds) */
	if (json_is_string(v) && timeutil_parse_iso8601(json_string_value(v), &ms) == 0 && ms >= 0)
		return ms;
	return TS_NONE;
}

/* json_dumps() allocates with jansson's allocator, malloc (nothing in ecsprof replaces
 * it): the text is the caller's, freed with free(). */
static char *
service_raw(const json_t *o)
{
	return json_dumps(o, JSON_COMPACT);
}

static void
service_from_json(struct ecs_service *s, json_t *o)
{
	json_t *deps = json_object_get(o, "deployments"), *d;
	size_t i;

	memset(s, 0, sizeof *s);
	s->name = jstr(o, "serviceName");
	s->arn = jstr(o, "serviceArn");
	s->status = jstr(o, "status");
	s->taskdef_arn = jstr(o, "taskDefinition");
	s->launch_type = jstr(o, "launchType");
	s->desired = jlong(o, "desiredCount");
	s->running = jlong(o, "runningCount");
	s->pending = jlong(o, "pendingCount");
	s->created_ms = ecs_json_time(o, "createdAt");
	s->raw_json = service_raw(o);
	if (json_array_size(deps) > 0)
		s->deployments = xcalloc(json_array_size(deps), sizeof *s->deployments);
	json_array_foreach(deps, i, d) {
		struct ecs_deployment *x = &s->deployments[s->ndeployments++];
		x->id = jstr(d, "id");
		x->status = jstr(d, "status");
		x->rollout_state = jstr(d, "rolloutState");
		x->taskdef_arn = jstr(d, "taskDefinition");
		x->created_ms = ecs_json_time(d, "createdAt");
		x->updated_ms = ecs_json_time(d, "updatedAt");
		x->desired = jlong(d, "desiredCount");
		x->running = jlong(d, "runningCount");
		x->pending = jlong(d, "pendingCount");
		x->failed = jlong(d, "failedTasks");
	}
}

static void
service_cleanup(struct ecs_service *s)
{
	for (size_t i = 0; i < s->ndeployments; i++) {
		free(s->deployments[i].id);
		free(s->deployments[i].status);
		free(s->deployments[i].rollout_state);
		free(s->deployments[i].taskdef_arn);
	}
	free(s->deployments);
	free(s->raw_json);
	free(s->name);
	free(s->arn);
	free(s->status);
	free(s->taskdef_arn);
	free(s->launch_type);
}

void
ecs_service_list_cleanup(struct ecs_service_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		service_cleanup(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int
ecs_describe_services(struct ecs_client *c, const char *cluster, const char *const *names,
		      size_t n, struct ecs_service_list *out, struct err *err)
{
	awsjson_reset(c->api);
	if (ecs_describe_services_on(c, &c->transports[0], NULL, cluster, names, n, out,
				     err) == 0)
		return 0;
	if (strcmp(err->aws_type, "ClusterNotFoundException") == 0)
		ecs_explain_cluster_not_found(c, cluster, err);
	return -1;
}

int
ecs_describe_services_json(struct ecs_client *c, const char *cluster,
			   const char *const *names, size_t n, char **json, struct err *err)
{
	awsjson_reset(c->api);
	if (ecs_describe_services_json_on(c, &c->transports[0], cluster, names, n, json,
					  err) == 0)
		return 0;
	if (strcmp(err->aws_type, "ClusterNotFoundException") == 0)
		ecs_explain_cluster_not_found(c, cluster, err);
	return -1;
}

int
ecs_describe_services_json_on(struct ecs_client *c, const struct http_transport *t,
			      const char *cluster, const char *const *names, size_t n,
			      char **json, struct err *err)
{
	static const char *const times[] = { "createdAt", "updatedAt", "stabilityStatusAt",
					     NULL };
	json_t *all = json_pack("{s:[],s:[]}", "services", "failures");

	*json = NULL;
	for (size_t at = 0; at < n; at += SERVICES_BATCH) {
		json_t *req = json_object(), *arr = json_array(), *resp = NULL;
		size_t end = at + SERVICES_BATCH < n ? at + SERVICES_BATCH : n;
		int rc;

		if (cluster != NULL)
			json_object_set_new(req, "cluster", json_string(cluster));
		for (size_t i = at; i < end; i++)
			json_array_append_new(arr, json_string(names[i]));
		json_object_set_new(req, "services", arr);
		rc = awsjson_call(c->api, t, "DescribeServices", req, &resp, NULL, err);
		json_decref(req);
		if (rc != 0) {
			json_decref(all);
			return -1;
		}
		json_array_extend(json_object_get(all, "services"), json_object_get(resp, "services"));
		json_array_extend(json_object_get(all, "failures"), json_object_get(resp, "failures"));
		json_decref(resp);
	}
	awsjson_cli_times(all, times);
	*json = json_dumps(all, JSON_COMPACT);
	json_decref(all);
	if (*json == NULL)
		return err_set(err, ERR_INTERNAL, "DescribeServices: cannot encode the answer");
	return 0;
}

int
ecs_describe_services_on(struct ecs_client *c, const struct http_transport *t,
			 const int *cancel, const char *cluster, const char *const *names,
			 size_t n, struct ecs_service_list *out, struct err *err)
{
	out->v = NULL;
	out->n = 0;
	for (size_t at = 0; at < n; at += SERVICES_BATCH) {
		json_t *req = json_object(), *arr = json_array(), *resp = NULL, *v;
		size_t i, end = at + SERVICES_BATCH < n ? at + SERVICES_BATCH : n;
		int rc;

		if (cluster != NULL)
			json_object_set_new(req, "cluster", json_string(cluster));
		for (i = at; i < end; i++)
			json_array_append_new(arr, json_string(names[i]));
		json_object_set_new(req, "services", arr);
		struct awsjson_call_options o = { .cancel = cancel };

		rc = awsjson_call_opt(c->api, t, "DescribeServices", req, &o, &resp, err);
		json_decref(req);
		if (rc != 0) {
			ecs_service_list_cleanup(out);
			return -1;
		}
		json_array_foreach(json_object_get(resp, "failures"), i, v) {
			const char *arn = json_string_value(json_object_get(v, "arn"));
			const char *reason = json_string_value(json_object_get(v, "reason"));
			err_set(err, ERR_AWS, "service '%s' %s in cluster '%s' — check --service, "
				"--cluster and --region", arn ? after_slash(arn) : "?",
				reason && strcmp(reason, "MISSING") == 0 ? "not found"
									  : (reason ? reason : "failed"),
				cluster ? cluster : "default");
			snprintf(err->aws_type, sizeof err->aws_type, "ServiceNotFoundException");
			json_decref(resp);
			ecs_service_list_cleanup(out);
			return -1;
		}
		json_array_foreach(json_object_get(resp, "services"), i, v) {
			struct ecs_service s;
			service_from_json(&s, v);
			out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
			out->v[out->n++] = s;
		}
		json_decref(resp);
	}
	return 0;
}
