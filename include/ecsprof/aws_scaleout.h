/* aws_scaleout: the AWS calls behind `ecsprof scaleout` (besides ECS's): Application Auto
 * Scaling's scaling activities and policies (JSON protocol), CloudWatch's alarms and their
 * history, and Elastic Load Balancing v2's target groups and target health (query
 * protocol, XML), each signed, retried and paginated through the one AWS client
 * (src/aws/awsjson.c, awsquery.c). Every answer is the text of ONE JSON document in the
 * shape `aws <service> <call> --output json` prints (botocore's member names and types,
 * every page merged into one list, no NextToken; times as the CLI writes them, in UTC:
 * "2026-12-07T14:02:00.123000+00:00"), so that a saved CLI file and a live answer are read
 * by the same reader. ECS's DescribeServices is ecs_describe_services_json() (ecs.h).
 * Ownership: a client borrows its options' callbacks and owns its copies of the region and
 * the endpoints; every char ** answer is the caller's to free. */
#ifndef ECSPROF_AWS_SCALEOUT_H
#define ECSPROF_AWS_SCALEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"

/* The services whose endpoints are resolved here (EC2: for `check`). */
enum aws_scaleout_service {
	AWS_SCALEOUT_APPSCALING,    /* AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING,
				     * https://application-autoscaling.REGION.amazonaws.com */
	AWS_SCALEOUT_CLOUDWATCH,    /* AWS_ENDPOINT_URL_CLOUDWATCH, monitoring.REGION... */
	AWS_SCALEOUT_ELBV2,         /* AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2,
				     * elasticloadbalancing.REGION... */
	AWS_SCALEOUT_EC2,           /* AWS_ENDPOINT_URL_EC2, ec2.REGION... */
};

/* The service's endpoint in ctx's region as the AWS CLI resolves it:
 * AWS_ENDPOINT_URL_<SERVICE ID> > AWS_ENDPOINT_URL > the profile's services section (keys
 * application_auto_scaling, cloudwatch, elastic_load_balancing_v2, ec2) > the profile's
 * endpoint_url > the standard regional host (FIPS / dual-stack applied, every partition).
 * --endpoint-url is ECS's and does not apply. The caller frees *url. */
int aws_scaleout_endpoint(struct aws_context *ctx, enum aws_scaleout_service s, char **url,
			  struct err *err);

struct aws_scaleout_options {
	struct aws_client_common common;
	const char *appscaling_endpoint;    /* aws_scaleout_endpoint(); required */
	const char *cloudwatch_endpoint;    /* required */
	const char *elbv2_endpoint;         /* required */
};

struct aws_scaleout;

int aws_scaleout_new(const struct aws_scaleout_options *o, struct aws_scaleout **out,
		     struct err *err);
void aws_scaleout_free(struct aws_scaleout *c);
/* HTTP attempts made through c (retries included) and throttled answers, all services. */
void aws_scaleout_counts(struct aws_scaleout *c, size_t *requests, size_t *throttled);

/* Each call below sends its pages one after the other on transport t (give each thread
 * its own; the calls are safe from several threads at once) and returns 0 with the
 * merged answer in *json, or -1 with err one line: "CODE: message — what to do", the
 * IAM action to grant on AccessDenied ("grant cloudwatch:DescribeAlarmHistory ..."),
 * err->aws_type the AWS code (AccessDenied, AccessDeniedException, TargetGroupNotFound,
 * ValidationException, ...). A repeated page token or more than 1000 pages is an error. */

/* DescribeScalingActivities of service/CLUSTER/SERVICE (namespace ecs, dimension
 * ecs:service:DesiredCount) -> {"ScalingActivities":[...]}, newest first. since_ms
 * (TS_NONE: all, AWS keeps six weeks): the activities started at or after it, and no page
 * after the one that reaches past it. cluster and service: names or ARNs. */
int appscaling_describe_activities(struct aws_scaleout *c, const struct http_transport *t,
				   const char *cluster, const char *service, int64_t since_ms,
				   char **json, struct err *err);
/* DescribeScalingPolicies of the same resource -> {"ScalingPolicies":[...]} (each with its
 * Alarms[].AlarmName, for cloudwatch_describe_alarms). */
int appscaling_describe_policies(struct aws_scaleout *c, const struct http_transport *t,
				 const char *cluster, const char *service, char **json,
				 struct err *err);

/* DescribeAlarms of names[0..n) (100 per request), metric and composite alarms ->
 * {"MetricAlarms":[...],"CompositeAlarms":[...]}; a name no alarm has is just absent.
 * n == 0 asks for every alarm of the account, as the CLI without --alarm-names does. */
int cloudwatch_describe_alarms(struct aws_scaleout *c, const struct http_transport *t,
			       const char *const *names, size_t n, char **json,
			       struct err *err);
/* DescribeAlarmHistory of alarm name, HistoryItemType StateUpdate, from start_ms to end_ms
 * (either TS_NONE: open) -> {"AlarmHistoryItems":[...]}, newest first; HistoryData is the
 * JSON text AWS sends (stateReasonData.evaluatedDatapoints is in it). */
int cloudwatch_alarm_history(struct aws_scaleout *c, const struct http_transport *t,
			     const char *name, int64_t start_ms, int64_t end_ms, char **json,
			     struct err *err);

/* DescribeTargetGroups of arns[0..n) (20 per request) -> {"TargetGroups":[...]} (health
 * check interval, thresholds, ...). An unknown ARN fails the call (TargetGroupNotFound).
 * n == 0 asks for every target group of the region. */
int elbv2_describe_target_groups(struct aws_scaleout *c, const struct http_transport *t,
				 const char *const *arns, size_t n, char **json,
				 struct err *err);
/* DescribeTargetHealth of one target group -> {"TargetHealthDescriptions":[...]}. */
int elbv2_describe_target_health(struct aws_scaleout *c, const struct http_transport *t,
				 const char *arn, char **json, struct err *err);

#endif
