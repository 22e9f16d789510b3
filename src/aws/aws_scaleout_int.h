/* aws_scaleout_int: what the scale-out calls' files share (aws_scaleout.c: the client;
 * appscaling.c, cloudwatch.c, elbv2.c: the calls).
 * Ownership: struct aws_scaleout owns one awsjson client per service. */
#ifndef ECSPROF_AWS_SCALEOUT_INT_H
#define ECSPROF_AWS_SCALEOUT_INT_H

#include <jansson.h>

#include "awsjson.h"
#include "awsquery.h"
#include "ecsprof/aws_scaleout.h"

struct aws_scaleout {
	struct awsjson_client *appscaling;
	struct awsjson_client *cloudwatch;
	struct awsjson_client *elbv2;
	const int *cancel;
};

/* json_dumps of a merged answer into *json (the caller's), and json_decref of it. */
int aws_scaleout_take(json_t *answer, const char *op, char **json, struct err *err);

/* The output shapes of the query-protocol calls (botocore's), for the tests. */
extern const struct awsquery_field cloudwatch_alarms_shape[];
extern const struct awsquery_field cloudwatch_history_shape[];
extern const struct awsquery_field elbv2_target_groups_shape[];
extern const struct awsquery_field elbv2_target_health_shape[];

#endif
