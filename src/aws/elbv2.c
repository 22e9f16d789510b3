/* elbv2: Elastic Load Balancing v2's DescribeTargetGroups and DescribeTargetHealth (query
 * protocol, API 2015-12-01), read along botocore's output shapes into the JSON the AWS
 * CLI prints. */
#include <stdio.h>
#include <stdlib.h>

#include "aws_scaleout_int.h"

#define VERSION "2015-12-01"
#define GROUPS_BATCH 20   /* TargetGroupArns per request */

/* botocore's elbv2 service-2.json, members in its order */
static const struct awsquery_field matcher[] = {
	{ "HttpCode", AQ_STRING, NULL },
	{ "GrpcCode", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field target_group[] = {
	{ "TargetGroupArn", AQ_STRING, NULL },
	{ "TargetGroupName", AQ_STRING, NULL },
	{ "Protocol", AQ_STRING, NULL },
	{ "Port", AQ_INTEGER, NULL },
	{ "VpcId", AQ_STRING, NULL },
	{ "HealthCheckProtocol", AQ_STRING, NULL },
	{ "HealthCheckPort", AQ_STRING, NULL },
	{ "HealthCheckEnabled", AQ_BOOLEAN, NULL },
	{ "HealthCheckIntervalSeconds", AQ_INTEGER, NULL },
	{ "HealthCheckTimeoutSeconds", AQ_INTEGER, NULL },
	{ "HealthyThresholdCount", AQ_INTEGER, NULL },
	{ "UnhealthyThresholdCount", AQ_INTEGER, NULL },
	{ "HealthCheckPath", AQ_STRING, NULL },
	{ "Matcher", AQ_STRUCT, matcher },
	{ "LoadBalancerArns", AQ_LIST, NULL },
	{ "TargetType", AQ_STRING, NULL },
	{ "ProtocolVersion", AQ_STRING, NULL },
	{ "IpAddressType", AQ_STRING, NULL },
	{ "TargetControlPort", AQ_INTEGER, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field elbv2_target_groups_shape[] = {
	{ "TargetGroups", AQ_LIST, target_group },
	{ "NextMarker", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field target[] = {
	{ "Id", AQ_STRING, NULL },
	{ "Port", AQ_INTEGER, NULL },
	{ "AvailabilityZone", AQ_STRING, NULL },
	{ "QuicServerId", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field target_health[] = {
	{ "State", AQ_STRING, NULL },
	{ "Reason", AQ_STRING, NULL },
	{ "Description", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field anomaly[] = {
	{ "Result", AQ_STRING, NULL },
	{ "MitigationInEffect", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field health_description[] = {
	{ "Target", AQ_STRUCT, target },
	{ "HealthCheckPort", AQ_STRING, NULL },
	{ "TargetHealth", AQ_STRUCT, target_health },
	{ "AnomalyDetection", AQ_STRUCT, anomaly },
	{ "AdministrativeOverride", AQ_STRUCT, target_health },
	{ NULL, 0, NULL },
};
const struct awsquery_field elbv2_target_health_shape[] = {
	{ "TargetHealthDescriptions", AQ_LIST, health_description },
	{ NULL, 0, NULL },
};

int
elbv2_describe_target_groups(struct aws_scaleout *c, const struct http_transport *t,
			     const char *const *arns, size_t n, char **json, struct err *err)
{
	static const char *const lists[] = { "TargetGroups", NULL };
	static const struct awsquery_paging pg = {
		"DescribeTargetGroups", VERSION, elbv2_target_groups_shape, "Marker", "NextMarker",
		lists,
	};
	json_t *all = NULL;

	*json = NULL;
	if (awsquery_batched(c->elbv2, t, &pg, NULL, 0, "TargetGroupArns", arns, n,
			     GROUPS_BATCH, c->cancel, &all, err) != 0) {
		json_decref(all);
		return -1;
	}
	return aws_scaleout_take(all, "DescribeTargetGroups", json, err);
}

int
elbv2_describe_target_health(struct aws_scaleout *c, const struct http_transport *t,
			     const char *arn, char **json, struct err *err)
{
	const struct awsquery_param p[] = { { "TargetGroupArn", arn } };
	json_t *out = NULL;

	*json = NULL;
	if (awsquery_call(c->elbv2, t, "DescribeTargetHealth", VERSION, p, 1,
			  elbv2_target_health_shape, c->cancel, &out, err) != 0)
		return -1;
	if (!json_is_array(json_object_get(out, "TargetHealthDescriptions")))
		json_object_set_new(out, "TargetHealthDescriptions", json_array());
	return aws_scaleout_take(out, "DescribeTargetHealth", json, err);
}
