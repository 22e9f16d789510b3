/* cloudwatch: CloudWatch's DescribeAlarms and DescribeAlarmHistory (query protocol, API
 * 2010-08-01), every page, read along botocore's output shapes into the JSON the AWS CLI
 * prints. */
#include <stdio.h>
#include <stdlib.h>

#include "aws_scaleout_int.h"
#include "ecsprof/timeutil.h"

#define VERSION "2010-08-01"
#define ALARMS_BATCH 100   /* AlarmNames: at most 100 per request */

/* botocore's cloudwatch service-2.json, members in its order */
static const struct awsquery_field dimension[] = {
	{ "Name", AQ_STRING, NULL },
	{ "Value", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field metric[] = {
	{ "Namespace", AQ_STRING, NULL },
	{ "MetricName", AQ_STRING, NULL },
	{ "Dimensions", AQ_LIST, dimension },
	{ NULL, 0, NULL },
};
static const struct awsquery_field metric_stat[] = {
	{ "Metric", AQ_STRUCT, metric },
	{ "Period", AQ_INTEGER, NULL },
	{ "Stat", AQ_STRING, NULL },
	{ "Unit", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field metric_query[] = {
	{ "Id", AQ_STRING, NULL },
	{ "MetricStat", AQ_STRUCT, metric_stat },
	{ "Expression", AQ_STRING, NULL },
	{ "Label", AQ_STRING, NULL },
	{ "ReturnData", AQ_BOOLEAN, NULL },
	{ "Period", AQ_INTEGER, NULL },
	{ "AccountId", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field promql[] = {
	{ "Query", AQ_STRING, NULL },
	{ "PendingPeriod", AQ_INTEGER, NULL },
	{ "RecoveryPeriod", AQ_INTEGER, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field criteria[] = {
	{ "PromQLCriteria", AQ_STRUCT, promql },
	{ NULL, 0, NULL },
};
static const struct awsquery_field metric_alarm[] = {
	{ "AlarmName", AQ_STRING, NULL },
	{ "AlarmArn", AQ_STRING, NULL },
	{ "AlarmDescription", AQ_STRING, NULL },
	{ "AlarmConfigurationUpdatedTimestamp", AQ_TIMESTAMP, NULL },
	{ "ActionsEnabled", AQ_BOOLEAN, NULL },
	{ "OKActions", AQ_LIST, NULL },
	{ "AlarmActions", AQ_LIST, NULL },
	{ "InsufficientDataActions", AQ_LIST, NULL },
	{ "StateValue", AQ_STRING, NULL },
	{ "StateReason", AQ_STRING, NULL },
	{ "StateReasonData", AQ_STRING, NULL },
	{ "StateUpdatedTimestamp", AQ_TIMESTAMP, NULL },
	{ "MetricName", AQ_STRING, NULL },
	{ "Namespace", AQ_STRING, NULL },
	{ "Statistic", AQ_STRING, NULL },
	{ "ExtendedStatistic", AQ_STRING, NULL },
	{ "Dimensions", AQ_LIST, dimension },
	{ "Period", AQ_INTEGER, NULL },
	{ "Unit", AQ_STRING, NULL },
	{ "EvaluationPeriods", AQ_INTEGER, NULL },
	{ "DatapointsToAlarm", AQ_INTEGER, NULL },
	{ "Threshold", AQ_DOUBLE, NULL },
	{ "ComparisonOperator", AQ_STRING, NULL },
	{ "TreatMissingData", AQ_STRING, NULL },
	{ "EvaluateLowSampleCountPercentile", AQ_STRING, NULL },
	{ "Metrics", AQ_LIST, metric_query },
	{ "ThresholdMetricId", AQ_STRING, NULL },
	{ "EvaluationState", AQ_STRING, NULL },
	{ "StateTransitionedTimestamp", AQ_TIMESTAMP, NULL },
	{ "EvaluationCriteria", AQ_STRUCT, criteria },
	{ "EvaluationInterval", AQ_INTEGER, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field composite_alarm[] = {
	{ "ActionsEnabled", AQ_BOOLEAN, NULL },
	{ "AlarmActions", AQ_LIST, NULL },
	{ "AlarmArn", AQ_STRING, NULL },
	{ "AlarmConfigurationUpdatedTimestamp", AQ_TIMESTAMP, NULL },
	{ "AlarmDescription", AQ_STRING, NULL },
	{ "AlarmName", AQ_STRING, NULL },
	{ "AlarmRule", AQ_STRING, NULL },
	{ "InsufficientDataActions", AQ_LIST, NULL },
	{ "OKActions", AQ_LIST, NULL },
	{ "StateReason", AQ_STRING, NULL },
	{ "StateReasonData", AQ_STRING, NULL },
	{ "StateUpdatedTimestamp", AQ_TIMESTAMP, NULL },
	{ "StateValue", AQ_STRING, NULL },
	{ "StateTransitionedTimestamp", AQ_TIMESTAMP, NULL },
	{ "ActionsSuppressedBy", AQ_STRING, NULL },
	{ "ActionsSuppressedReason", AQ_STRING, NULL },
	{ "ActionsSuppressor", AQ_STRING, NULL },
	{ "ActionsSuppressorWaitPeriod", AQ_INTEGER, NULL },
	{ "ActionsSuppressorExtensionPeriod", AQ_INTEGER, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field cloudwatch_alarms_shape[] = {
	{ "CompositeAlarms", AQ_LIST, composite_alarm },
	{ "MetricAlarms", AQ_LIST, metric_alarm },
	{ "NextToken", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field history_item[] = {
	{ "AlarmName", AQ_STRING, NULL },
	{ "AlarmContributorId", AQ_STRING, NULL },
	{ "AlarmType", AQ_STRING, NULL },
	{ "Timestamp", AQ_TIMESTAMP, NULL },
	{ "HistoryItemType", AQ_STRING, NULL },
	{ "HistorySummary", AQ_STRING, NULL },
	{ "HistoryData", AQ_STRING, NULL },
	{ "AlarmContributorAttributes", AQ_MAP, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field cloudwatch_history_shape[] = {
	{ "AlarmHistoryItems", AQ_LIST, history_item },
	{ "NextToken", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};

int
cloudwatch_describe_alarms(struct aws_scaleout *c, const struct http_transport *t,
			   const char *const *names, size_t n, char **json, struct err *err)
{
	static const char *const lists[] = { "MetricAlarms", "CompositeAlarms", NULL };
	static const struct awsquery_paging pg = {
		"DescribeAlarms", VERSION, cloudwatch_alarms_shape, "NextToken", "NextToken", lists,
	};
	/* composite alarms too: without AlarmTypes only metric alarms are listed */
	static const struct awsquery_param types[] = {
		{ "AlarmTypes.member.1", "CompositeAlarm" },
		{ "AlarmTypes.member.2", "MetricAlarm" },
	};
	json_t *all = NULL, *out;

	*json = NULL;
	if (awsquery_batched(c->cloudwatch, t, &pg, types, 2, "AlarmNames", names, n,
			     ALARMS_BATCH, c->cancel, &all, err) != 0) {
		json_decref(all);
		return -1;
	}
	/* the CLI's order: its paginator writes MetricAlarms first */
	out = json_pack("{s:O,s:O}", "MetricAlarms", json_object_get(all, "MetricAlarms"),
			"CompositeAlarms", json_object_get(all, "CompositeAlarms"));
	json_decref(all);
	return aws_scaleout_take(out, "DescribeAlarms", json, err);
}

int
cloudwatch_alarm_history(struct aws_scaleout *c, const struct http_transport *t,
			 const char *name, int64_t start_ms, int64_t end_ms, char **json,
			 struct err *err)
{
	static const char *const lists[] = { "AlarmHistoryItems", NULL };
	static const struct awsquery_paging pg = {
		"DescribeAlarmHistory", VERSION, cloudwatch_history_shape, "NextToken", "NextToken",
		lists,
	};
	char start[TIMEUTIL_ISO_LEN], end[TIMEUTIL_ISO_LEN];
	struct awsquery_param p[4];
	size_t np = 0;
	json_t *all = NULL;

	*json = NULL;
	p[np++] = (struct awsquery_param){ "AlarmName", name };
	p[np++] = (struct awsquery_param){ "HistoryItemType", "StateUpdate" };
	if (start_ms != TS_NONE) {
		timeutil_format_iso(start_ms, start);
		p[np++] = (struct awsquery_param){ "StartDate", start };
	}
	if (end_ms != TS_NONE) {
		timeutil_format_iso(end_ms, end);
		p[np++] = (struct awsquery_param){ "EndDate", end };
	}
	if (awsquery_paged(c->cloudwatch, t, &pg, p, np, c->cancel, &all, err) != 0) {
		json_decref(all);
		return -1;
	}
	return aws_scaleout_take(all, "DescribeAlarmHistory", json, err);
}
