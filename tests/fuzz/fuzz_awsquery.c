/* fuzz_awsquery: libFuzzer harness for the query protocol's XML answers (CloudWatch,
 * ELBv2, EC2's <item> lists without a Result wrapper) as their calls read them: the first byte picks the operation and its
 * botocore shape, the rest is the server's bytes, read by awsquery_read on base's XML
 * scanner. What must hold for every input:
 * - no crash, leak or out-of-bounds read (ASan/UBSan), whatever the nesting or the size;
 * - a refusal is one line naming the operation ("OP: the XML answer is refused: ...");
 * - an accepted answer is a JSON object that jansson writes and reads back equal, whose
 *   lists are arrays;
 * - xmlscan_next, walked over the whole text, never reports an element outside it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xmlscan.h"
#include "src/aws/aws_scaleout_int.h"
#include "src/aws/ec2_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
walk(const char *p, const char *end, const char *lo, const char *hi, int depth)
{
	struct xmlscan_el el;
	const char *why = NULL;
	int rc;

	if (depth > 8)
		return;
	while ((rc = xmlscan_next(&p, end, &el, &why)) == 1) {
		if (el.name < lo || el.name + el.name_len > hi || el.body < lo ||
		    el.body + el.body_len > hi || p > end)
			abort();
		walk(el.body, el.body + el.body_len, lo, hi, depth + 1);
	}
	if (rc < 0 && why == NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *op;
		const struct awsquery_field *shape;
		const char *list;
	} ops[] = {
		{ "DescribeAlarms", cloudwatch_alarms_shape, "MetricAlarms" },
		{ "DescribeAlarmHistory", cloudwatch_history_shape, "AlarmHistoryItems" },
		{ "DescribeTargetGroups", elbv2_target_groups_shape, "TargetGroups" },
		{ "DescribeTargetHealth", elbv2_target_health_shape, "TargetHealthDescriptions" },
		{ "DescribeSubnets", ec2_subnets_shape, "subnetSet" },
		{ "DescribeRouteTables", ec2_route_tables_shape, "routeTableSet" },
		{ "DescribeVpcEndpoints", ec2_endpoints_shape, "vpcEndpointSet" },
	};
	const char *text;
	size_t len, k;
	struct err err = { 0 };
	json_t *out = NULL;
	char prefix[64];

	if (size == 0)
		return 0;
	k = data[0] % (sizeof ops / sizeof ops[0]);
	text = (const char *)data + 1;
	len = size - 1;
	walk(text, text + len, text, text + len, 0);
	if (awsquery_read(text, len, ops[k].op, ops[k].shape, &out, &err) != 0) {
		snprintf(prefix, sizeof prefix, "%s: ", ops[k].op);
		if (out != NULL || strchr(err.msg, '\n') != NULL ||
		    strncmp(err.msg, prefix, strlen(prefix)) != 0)
			abort();
		return 0;
	}
	if (!json_is_object(out))
		abort();
	{
		json_t *l = json_object_get(out, ops[k].list), *back;
		char *s;

		if (l != NULL && !json_is_array(l))
			abort();
		s = json_dumps(out, JSON_COMPACT);
		if (s == NULL)
			abort();
		back = json_loads(s, 0, NULL);
		if (!json_equal(back, out))
			abort();
		json_decref(back);
		free(s);
	}
	json_decref(out);
	return 0;
}
