/* appscaling: Application Auto Scaling's DescribeScalingActivities and
 * DescribeScalingPolicies of an ECS service's desired count, every page, through the
 * JSON-protocol client, answered as the AWS CLI prints them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_scaleout_int.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* the timestamp members of both answers (botocore's shapes) */
static const char *const times[] = { "StartTime", "EndTime", "CreationTime", NULL };

/* "arn:aws:ecs:REGION:ACCOUNT:cluster/NAME" -> NAME (the resource id has the names) */
static const char *
short_name(const char *s)
{
	const char *p = strrchr(s, '/');

	return strncmp(s, "arn:", 4) == 0 && p != NULL ? p + 1 : s;
}

static json_t *
resource_request(const char *cluster, const char *service)
{
	char *id = xasprintf("service/%s/%s", short_name(cluster), short_name(service));
	json_t *req = json_pack("{s:s,s:s,s:s}", "ServiceNamespace", "ecs", "ResourceId", id,
				"ScalableDimension", "ecs:service:DesiredCount");

	free(id);
	return req;
}

/* whether an activity started before since_ms (epoch seconds as sent) */
static bool
before(json_t *activity, int64_t since_ms)
{
	json_t *st = json_object_get(activity, "StartTime");

	return since_ms != TS_NONE && json_is_number(st) &&
	       json_number_value(st) * 1000.0 < (double)since_ms;
}

/* Every page of op for req (borrowed; its NextToken is set here): the members named list
 * merged into {list: [...]}, the times as the CLI writes them. */
static int
paged(struct aws_scaleout *c, const struct http_transport *t, const char *op, json_t *req,
      const char *list, int64_t since_ms, char **json, struct err *err)
{
	json_t *all = json_array();
	char *prev = NULL;
	size_t pages = 0;
	int more;

	*json = NULL;
	do {
		struct awsjson_call_options o = { .cancel = c->cancel };
		json_t *resp = NULL, *v;
		const char *next;
		bool reached = false;
		size_t i;

		if (awsjson_call_opt(c->appscaling, t, op, req, &o, &resp, err) != 0)
			goto fail;
		pages++;
		json_array_foreach(json_object_get(resp, list), i, v) {
			if (before(v, since_ms)) {
				reached = true;   /* newest first: the rest is older still */
				continue;
			}
			json_array_append(all, v);
		}
		next = json_string_value(json_object_get(resp, "NextToken"));
		more = reached ? 0 : awsjson_page_next(op, prev, next, pages, err);
		if (more > 0) {
			free(prev);
			prev = xstrdup(next);
			json_object_set_new(req, "NextToken", json_string(next));
		}
		json_decref(resp);
		if (more < 0)
			goto fail;
	} while (more > 0);
	free(prev);
	awsjson_cli_times(all, times);
	return aws_scaleout_take(json_pack("{s:o}", list, all), op, json, err);
fail:
	free(prev);
	json_decref(all);
	return -1;
}

int
appscaling_describe_activities(struct aws_scaleout *c, const struct http_transport *t,
			       const char *cluster, const char *service, int64_t since_ms,
			       char **json, struct err *err)
{
	json_t *req = resource_request(cluster, service);
	int rc = paged(c, t, "DescribeScalingActivities", req, "ScalingActivities", since_ms,
		       json, err);

	json_decref(req);
	return rc;
}

int
appscaling_describe_policies(struct aws_scaleout *c, const struct http_transport *t,
			     const char *cluster, const char *service, char **json,
			     struct err *err)
{
	json_t *req = resource_request(cluster, service);
	int rc = paged(c, t, "DescribeScalingPolicies", req, "ScalingPolicies", TS_NONE, json,
		       err);

	json_decref(req);
	return rc;
}
