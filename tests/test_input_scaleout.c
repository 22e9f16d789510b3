/* input_scaleout: each source document in the AWS CLI's shape, as a whole text and as a
 * recording line, and bad input: one clear error naming where, what was good kept. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecsprof/input_scaleout.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"

static int
rd(struct so_sources *s, const char *text, size_t *docs, struct err *e)
{
	memset(e, 0, sizeof *e);
	return input_scaleout_read_mem(NULL, "doc.json", text, strlen(text), s, docs, e);
}

static int64_t
iso(const char *s)
{
	int64_t ms;

	cr_assert_eq(timeutil_parse_iso8601(s, &ms), 0, "%s", s);
	return ms;
}

Test(input_scaleout, scaling_activities_and_policies)
{
	struct so_sources s;
	struct err e;
	size_t docs;

	so_sources_init(&s);
	cr_assert_eq(rd(&s, "{\"ScalingActivities\":[{\"ActivityId\":\"a1\",\"ServiceNamespace\":\"ecs\","
		"\"ResourceId\":\"service/prod/web\",\"Description\":\"Setting desired count to 30.\","
		"\"Cause\":\"monitor alarm TT-AlarmHigh-1 in state ALARM triggered policy cpu\","
		"\"StartTime\":\"2026-11-30T14:02:08.219000+00:00\",\"EndTime\":1796047359.507,"
		"\"StatusCode\":\"Successful\"}]}", &docs, &e), 0, "%s", e.msg);
	cr_expect_eq(docs, 1);
	cr_assert_eq(s.nactivities, 1);
	cr_expect_eq(s.activities[0].desired_to, 30);
	cr_expect_str_eq(s.activities[0].alarm, "TT-AlarmHigh-1");
	cr_expect_str_eq(s.activities[0].policy, "cpu");
	cr_expect_eq(s.activities[0].start_ms, iso("2026-11-30T14:02:08.219Z"));
	cr_expect_eq(s.activities[0].end_ms, 1796047359507LL, "epoch seconds as the API sends them");
	cr_expect(s.read[SO_SRC_ACTIVITIES]);
	cr_expect_not(s.read[SO_SRC_POLICIES]);
	cr_assert_eq(rd(&s, "{\"ScalingPolicies\":[{\"PolicyName\":\"cpu\",\"PolicyARN\":\"arn:p\","
		"\"PolicyType\":\"TargetTrackingScaling\",\"TargetTrackingScalingPolicyConfiguration\":"
		"{\"TargetValue\":13.0,\"PredefinedMetricSpecification\":{\"PredefinedMetricType\":"
		"\"ECSServiceAverageCPUUtilization\"},\"ScaleOutCooldown\":60,\"ScaleInCooldown\":300},"
		"\"Alarms\":[{\"AlarmName\":\"TT-AlarmHigh-1\",\"AlarmARN\":\"arn:a\"}]}]}", &docs, &e), 0);
	cr_assert_eq(s.npolicies, 1);
	cr_expect_str_eq(s.policies[0].metric, "ECSServiceAverageCPUUtilization");
	cr_expect_eq(s.policies[0].scale_out_cooldown_s, 60);
	cr_expect_float_eq(s.policies[0].target_value, 13.0, 1e-9);
	cr_assert_eq(s.policies[0].nalarms, 1);
	cr_expect_str_eq(s.policies[0].alarms[0], "TT-AlarmHigh-1");
	so_sources_cleanup(&s);
}

Test(input_scaleout, alarms_and_their_history)
{
	struct so_sources s;
	struct err e;

	so_sources_init(&s);
	cr_assert_eq(rd(&s, "{\"MetricAlarms\":[{\"AlarmName\":\"hi\",\"AlarmArn\":\"arn:hi\","
		"\"MetricName\":\"CPUUtilization\",\"Period\":60,\"EvaluationPeriods\":3,"
		"\"Threshold\":13.0,\"ComparisonOperator\":\"GreaterThanThreshold\","
		"\"AlarmActions\":[\"arn:p\"]}],\"CompositeAlarms\":[]}", NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(s.nalarms, 1);
	cr_expect_eq(s.alarms[0].datapoints, 3, "DatapointsToAlarm absent: EvaluationPeriods");
	cr_expect_eq(s.alarms[0].period_s, 60);
	/* HistoryData is a JSON string; CloudWatch's times end in +0000; the breaching
	 * datapoints are the ones above the threshold the reason names */
	cr_assert_eq(rd(&s, "{\"AlarmHistoryItems\":[{\"AlarmName\":\"hi\","
		"\"Timestamp\":\"2026-11-30T14:01:53.612000+00:00\",\"HistoryItemType\":\"StateUpdate\","
		"\"HistoryData\":\"{\\\"oldState\\\":{\\\"stateValue\\\":\\\"OK\\\"},\\\"newState\\\":"
		"{\\\"stateValue\\\":\\\"ALARM\\\",\\\"stateReason\\\":\\\"Threshold Crossed: 3 datapoints "
		"were greater than the threshold (13.0).\\\",\\\"stateReasonData\\\":{\\\"threshold\\\":13.0,"
		"\\\"evaluatedDatapoints\\\":[{\\\"timestamp\\\":\\\"2026-11-30T14:00:00.000+0000\\\","
		"\\\"value\\\":98.4},{\\\"timestamp\\\":\\\"2026-11-30T13:59:00.000+0000\\\",\\\"value\\\":97.1},"
		"{\\\"timestamp\\\":\\\"2026-11-30T13:58:00.000+0000\\\",\\\"value\\\":9.0}]}}}\"},"
		"{\"AlarmName\":\"hi\",\"Timestamp\":\"2026-11-30T08:00:00Z\",\"HistoryItemType\":"
		"\"ConfigurationUpdate\",\"HistoryData\":\"{}\"}]}", NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(s.ntransitions, 1, "a configuration update is not a transition");
	cr_expect_str_eq(s.transitions[0].new_state, "ALARM");
	cr_expect_str_eq(s.transitions[0].old_state, "OK");
	cr_expect_eq(s.transitions[0].ndatapoints, 3);
	cr_expect_eq(s.transitions[0].first_breach_ms, iso("2026-11-30T13:59:00Z"),
		     "13:58's 9.0 is below the threshold");
	so_sources_cleanup(&s);
}

Test(input_scaleout, services_target_groups_and_observed_health)
{
	struct so_sources s;
	struct err e;

	so_sources_init(&s);
	cr_assert_eq(rd(&s, "{\"services\":[{\"serviceName\":\"web\",\"clusterArn\":"
		"\"arn:aws:ecs:us-east-1:1:cluster/prod\",\"desiredCount\":30,"
		"\"healthCheckGracePeriodSeconds\":60,\"loadBalancers\":[{\"targetGroupArn\":\"arn:tg\","
		"\"containerName\":\"web\",\"containerPort\":8080}],\"deployments\":[{\"id\":\"ecs-svc/1\","
		"\"status\":\"PRIMARY\",\"createdAt\":\"2026-11-30T14:04:31Z\"}],\"events\":[{\"id\":\"e1\","
		"\"createdAt\":\"2026-11-30T14:05:00Z\",\"message\":\"(service web) has started 1 tasks: "
		"(task abc).\"}]}],\"failures\":[]}", NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(s.nservices, 1);
	cr_expect_str_eq(s.services[0].cluster, "prod");
	cr_expect_eq(s.services[0].grace_s, 60);
	cr_assert_eq(s.services[0].ntarget_groups, 1);
	cr_expect_str_eq(s.services[0].target_groups[0], "arn:tg");
	cr_expect_eq(s.deploys.n, 1, "the deployments go to the deploy set");
	cr_expect_eq(s.deploys.nev, 1);
	cr_assert_eq(rd(&s, "{\"TargetGroups\":[{\"TargetGroupArn\":\"arn:tg\",\"TargetType\":\"ip\","
		"\"HealthCheckIntervalSeconds\":30,\"HealthyThresholdCount\":5,"
		"\"HealthCheckTimeoutSeconds\":5,\"UnhealthyThresholdCount\":2}]}", NULL, &e), 0);
	cr_assert_eq(s.ntarget_groups, 1);
	cr_expect_eq(s.target_groups[0].interval_s, 30);
	cr_expect_eq(s.target_groups[0].healthy_threshold, 5);
	cr_expect_str_eq(s.target_groups[0].target_type, "ip");
	cr_assert_eq(rd(&s, "{\"observed_at\":\"2026-11-30T14:06:00.000Z\",\"target_group_arn\":"
		"\"arn:tg\",\"TargetHealthDescriptions\":[{\"Target\":{\"Id\":\"10.0.0.1\",\"Port\":8080},"
		"\"TargetHealth\":{\"State\":\"initial\",\"Reason\":\"Elb.InitialHealthChecking\"}}]}",
		NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(s.nobservations, 1);
	cr_expect_str_eq(s.observations[0].state, "initial");
	cr_expect_str_eq(s.observations[0].target, "10.0.0.1");
	cr_expect_eq(s.observations[0].observed_ms, iso("2026-11-30T14:06:00Z"));
	so_sources_cleanup(&s);
}

/* A recording: task lines passed over, source lines read, the same document twice kept
 * once; a service document in a line gives its events too */
Test(input_scaleout, recording_lines)
{
	struct so_sources s;
	struct err e;
	size_t docs;
	const char *rec =
		"{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-11-30T14:06:20Z\",\"task\":{\"taskArn\":\"x\"}}\n"
		"{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-11-30T14:09:00Z\",\"service\":\"web\","
		"\"scaleout\":{\"ScalingActivities\":[{\"ActivityId\":\"a1\",\"Description\":\"Setting desired count to 5.\"}]}}\n"
		"\n"
		"{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-11-30T14:09:00Z\",\"service\":\"web\","
		"\"scaleout\":{\"ScalingActivities\":[{\"ActivityId\":\"a1\",\"Description\":\"Setting desired count to 5.\"}]}}\n"
		"{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-11-30T14:09:00Z\",\"service\":\"web\","
		"\"scaleout\":{\"services\":[{\"serviceName\":\"web\",\"events\":[{\"id\":\"e1\","
		"\"createdAt\":\"2026-11-30T14:05:00Z\",\"message\":\"m\"}]}]}}\n";

	so_sources_init(&s);
	cr_assert_eq(rd(&s, rec, &docs, &e), 0, "%s", e.msg);
	cr_expect_eq(docs, 3);
	cr_expect_eq(s.nactivities, 1);
	cr_expect_eq(s.nservices, 1);
	cr_expect_eq(s.deploys.nev, 1);
	cr_expect(s.read[SO_SRC_SERVICES]);
	so_sources_cleanup(&s);
}

/* Bad input: one line naming the file, the line and what is wrong; what came before stays */
Test(input_scaleout, bad_input_is_one_clear_error)
{
	struct so_sources s;
	struct err e;

	so_sources_init(&s);
	cr_expect_eq(rd(&s, "{\"ScalingActivities\":[{\"ActivityId\":", NULL, &e), -1);
	cr_expect(strstr(e.msg, "doc.json:1:") != NULL && strstr(e.msg, "malformed JSON") != NULL,
		  "%s", e.msg);
	cr_expect_eq(rd(&s, "{\"ScalingActivities\":{}}", NULL, &e), -1);
	cr_expect_str_eq(e.msg, "doc.json: ScalingActivities: expected an array, got an object");
	cr_expect_eq(rd(&s, "{\"TargetGroups\":[{\"TargetGroupArn\":\"a\"},7]}", NULL, &e), -1);
	cr_expect_str_eq(e.msg, "doc.json: TargetGroups[1]: expected an object, got the number 7");
	cr_expect_eq(s.ntarget_groups, 1, "the good item before the bad one is kept");
	cr_expect_eq(rd(&s, "{\"TargetHealthDescriptions\":[]}", NULL, &e), -1);
	cr_expect(strstr(e.msg, "TargetHealthDescriptions without \"observed_at\"") != NULL,
		  "%s", e.msg);
	cr_expect_eq(rd(&s, "{\"ecsprof\":\"record/1\",\"scaleout\":{\"x\":1}}\n{\"ecsprof\":1}\n",
			NULL, &e), -1);
	cr_expect(strstr(e.msg, "doc.json:1: \"scaleout\": not a scale-out source document") != NULL,
		  "%s", e.msg);
	/* wrong types inside an item leave the field absent */
	cr_expect_eq(rd(&s, "{\"MetricAlarms\":[{\"AlarmName\":7,\"Period\":\"60\",\"Threshold\":"
			"\"x\"}]}", NULL, &e), 0);
	cr_expect_eq(s.alarms[0].period_s, -1);
	cr_expect(isnan(s.alarms[0].threshold));
	cr_expect_eq(rd(&s, "{\"AlarmHistoryItems\":[{\"HistoryItemType\":\"StateUpdate\","
			"\"HistoryData\":\"not json\"}]}", NULL, &e), 0);
	cr_expect_eq(s.transitions[0].first_breach_ms, TS_NONE);
	/* a text with no source document is not an error (a tasks file) */
	cr_expect_eq(rd(&s, "{\"tasks\":[],\"failures\":[]}", NULL, &e), 0);
	so_sources_cleanup(&s);
}

/* record_scaleout_lines: one line per item, so that recording again merges item by item
 * (the newer state of an activity replaces the older), and the file reads back */
Test(input_scaleout, recorded_lines_merge_by_item_and_read_back)
{
	char path[] = "/tmp/ecsprof-scaleout-XXXXXX", **lines = NULL, *text;
	const char *doc1 = "{\"ScalingActivities\":[{\"ActivityId\":\"a1\",\"Description\":"
			   "\"Setting desired count to 5.\",\"StatusCode\":\"InProgress\"},"
			   "{\"ActivityId\":\"a2\",\"Description\":\"Setting desired count to 2.\"}]}";
	const char *doc2 = "{\"ScalingActivities\":[{\"ActivityId\":\"a1\",\"Description\":"
			   "\"Setting desired count to 5.\",\"StatusCode\":\"Successful\"}]}";
	const char *th = "{\"observed_at\":\"2026-11-30T14:06:00Z\",\"target_group_arn\":\"arn:tg\","
			 "\"TargetHealthDescriptions\":[{\"Target\":{\"Id\":\"10.0.0.1\"},"
			 "\"TargetHealth\":{\"State\":\"initial\"}}]}";
	size_t n = 0, added, updated, len;
	struct so_sources s;
	struct err e = { 0 };
	FILE *f;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
	cr_assert_eq(record_scaleout_lines(doc1, strlen(doc1), "us-east-1", "prod", "web",
					   1796047000000LL, &lines, &n, &e), 0, "%s", e.msg);
	cr_assert_eq(record_scaleout_lines(th, strlen(th), NULL, NULL, "web", 1796047000000LL,
					   &lines, &n, &e), 0, "%s", e.msg);
	cr_assert_eq(n, 3);
	cr_assert_eq(record_merge_file(NULL, path, lines, n, &added, &updated, &e), 0, "%s", e.msg);
	cr_expect_eq(added, 3);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	n = 0;
	cr_assert_eq(record_scaleout_lines(doc2, strlen(doc2), "us-east-1", "prod", "web",
					   1796047060000LL, &lines, &n, &e), 0);
	cr_assert_eq(record_merge_file(NULL, path, lines, n, &added, &updated, &e), 0, "%s", e.msg);
	cr_expect_eq(added, 0);
	cr_expect_eq(updated, 1);
	free(lines[0]);
	free(lines);
	cr_expect_eq(record_scaleout_lines("{\"x\":[]}", 8, NULL, NULL, NULL, 0, &lines, &n, &e), -1);

	f = fopen(path, "rb");
	cr_assert_not_null(f);
	text = calloc(1, 1 << 16);
	len = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	so_sources_init(&s);
	cr_assert_eq(input_scaleout_read_mem(NULL, path, text, len, &s, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(s.nactivities, 2);
	for (size_t i = 0; i < s.nactivities; i++)
		if (strcmp(s.activities[i].id, "a1") == 0)
			cr_expect_str_eq(s.activities[i].status, "Successful");
	cr_expect_eq(s.nobservations, 1);
	so_sources_cleanup(&s);
	free(text);
	unlink(path);
}

/* what the deployment reader leaves out is said through the caller's log (a view holds
 * it, --verbose is its own), not straight on stderr */
static char so_warned[256];
static int so_nwarned;

static void
so_keep(enum log_level level, const char *line, void *ctx)
{
	(void)ctx;
	if (level == LOG_WARN) {
		snprintf(so_warned, sizeof so_warned, "%s", line);
		so_nwarned++;
	}
}

Test(input_scaleout, a_deployment_left_out_is_said_through_the_log)
{
	const char *text = "{\"ecsprof\":\"1\",\"service\":\"web\",\"event\":{\"id\":\"e2\","
			   "\"message\":\"(service web) has started 3 tasks.\"}}\n";
	struct so_sources s;
	struct log lg;
	struct err e = { 0 };

	so_sources_init(&s);
	log_init(&lg, 0, so_keep, NULL);
	cr_assert_eq(input_scaleout_read_mem(&lg, "rec.jsonl", text, strlen(text), &s, NULL, &e),
		     0, "%s", e.msg);
	cr_expect_eq(so_nwarned, 1, "the warning reached the log's sink");
	cr_expect(strstr(so_warned, "rec.jsonl: 1 deployment or service event") != NULL, "%s",
		  so_warned);
	log_cleanup(&lg);
	so_sources_cleanup(&s);
}
