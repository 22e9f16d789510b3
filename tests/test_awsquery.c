/* awsquery and the scale-out calls (aws_scaleout.h): the query protocol's XML answers read
 * along botocore's output shapes into the JSON the AWS CLI prints, the requests as the
 * protocol wants them (form body, SigV4 service name), paging, throttling, AccessDenied,
 * and hostile XML refused with one clear line. The answers below are written from
 * botocore's service-2.json shapes in the query protocol's layout (<member>, <entry>). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "ecsprof/ec2.h"
#include "src/aws/aws_scaleout_int.h"
#include "src/aws/ec2_int.h"

/* ---- a scripted server: the answers in order, the requests kept ------------------ */

#define MAX_STEPS 8

struct step {
	long status;
	const char *body;
};

static struct {
	struct step steps[MAX_STEPS];
	size_t nsteps, at;
	char *bodies[MAX_STEPS * 2];
	char *auth[MAX_STEPS * 2];
	char *content_type[MAX_STEPS * 2];
	bool target[MAX_STEPS * 2];
	char *url[MAX_STEPS * 2];
	size_t nreq;
} S;

static void
script(size_t n, const struct step *steps)
{
	for (size_t i = 0; i < S.nreq; i++) {
		free(S.bodies[i]);
		free(S.auth[i]);
		free(S.content_type[i]);
		free(S.url[i]);
	}
	memset(&S, 0, sizeof S);
	memcpy(S.steps, steps, n * sizeof *steps);
	S.nsteps = n;
}

static const char *
header(const struct http_request *req, const char *name)
{
	for (size_t i = 0; i < req->nheaders; i++)
		if (strcasecmp(req->headers[i].name, name) == 0)
			return req->headers[i].value;
	return NULL;
}

static int
scripted_send(void *ctx, const struct http_request *req, struct http_response *resp,
	      struct err *err)
{
	const struct step *s;

	(void)ctx;
	(void)err;
	cr_assert_lt(S.nreq, MAX_STEPS * 2, "more requests than the script has answers");
	S.bodies[S.nreq] = xstrndup(req->body, req->body_len);
	S.auth[S.nreq] = xstrdup(header(req, "Authorization") ? header(req, "Authorization") : "");
	S.content_type[S.nreq] = xstrdup(header(req, "Content-Type") ? header(req, "Content-Type")
						: "");
	S.target[S.nreq] = header(req, "X-Amz-Target") != NULL;
	S.url[S.nreq] = xstrdup(req->url);
	S.nreq++;
	cr_assert_lt(S.at, S.nsteps, "request %zu has no answer in the script", S.nreq);
	s = &S.steps[S.at++];
	resp->status = s->status;
	resp->headers = xstrdup("");
	buf_adds(&resp->body, s->body);
	return 0;
}

static const struct http_transport T = { scripted_send, NULL };

static int
test_creds(void *arg, struct aws_creds *out, struct err *err)
{
	(void)arg;
	(void)err;
	memset(out, 0, sizeof *out);
	out->access_key_id = xstrdup("AKIDTEST");
	out->secret_access_key = xstrdup("secret");
	out->expires_ms = TS_NONE;
	out->source = xstrdup("test");
	return 0;
}

static int64_t
real_now(void *ctx)
{
	return timeutil_clock_real.now_ms(ctx);
}

static void
no_sleep(void *ctx, int64_t ms)
{
	(void)ctx, (void)ms;
}

/* the real time without the backoff waits: retries run at once */
static const struct timeutil_clock no_wait = { real_now, no_sleep, NULL };

static struct aws_scaleout *
client(void)
{
	struct aws_scaleout_options o = { 0 };
	struct aws_scaleout *c = NULL;
	struct err err = { 0 };

	o.common.clock = &no_wait;
	o.common.region = "us-east-1";
	o.appscaling_endpoint = "https://application-autoscaling.example.test";
	o.cloudwatch_endpoint = "https://monitoring.example.test";
	o.elbv2_endpoint = "https://elasticloadbalancing.example.test";
	o.common.creds = test_creds;
	cr_assert_eq(aws_scaleout_new(&o, &c, &err), 0, "%s", err.msg);
	return c;
}

/* json_dumps of text, compact and with sorted keys: the same document whatever the order */
static void
expect_json(const char *got, const char *want)
{
	json_t *g = json_loads(got, 0, NULL), *w = json_loads(want, 0, NULL);

	cr_assert_not_null(g, "not JSON: %s", got);
	cr_assert_not_null(w, "the expected text is not JSON: %s", want);
	cr_expect(json_equal(g, w), "got  %s\nwant %s", got, want);
	json_decref(g);
	json_decref(w);
}

static char *
read_as(const char *xml, const char *op, const struct awsquery_field *shape, struct err *err)
{
	json_t *out = NULL;
	char *s;

	if (awsquery_read(xml, strlen(xml), op, shape, &out, err) != 0)
		return NULL;
	s = json_dumps(out, JSON_COMPACT);
	json_decref(out);
	return s;
}

/* ---- reading answers ------------------------------------------------------------- */

static const char alarms_xml[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<DescribeAlarmsResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\">\n"
	"  <DescribeAlarmsResult>\n"
	"    <MetricAlarms>\n"
	"      <member>\n"
	"        <AlarmName>TargetTracking-service/prod/web-AlarmHigh-1a2b</AlarmName>\n"
	"        <AlarmArn>arn:aws:cloudwatch:us-east-1:123456789012:alarm:TargetTracking-service/prod/web-AlarmHigh-1a2b</AlarmArn>\n"
	"        <AlarmDescription>DO NOT EDIT &amp; &lt;ok&gt;</AlarmDescription>\n"
	"        <AlarmConfigurationUpdatedTimestamp>2026-12-07T13:00:00.512Z</AlarmConfigurationUpdatedTimestamp>\n"
	"        <ActionsEnabled>true</ActionsEnabled>\n"
	"        <OKActions/>\n"
	"        <AlarmActions><member>arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:p</member></AlarmActions>\n"
	"        <InsufficientDataActions></InsufficientDataActions>\n"
	"        <StateValue>ALARM</StateValue>\n"
	"        <StateReason>Threshold Crossed: 3 datapoints [81.2 (07/12/26 14:01:00)] were greater than the threshold (75.0).</StateReason>\n"
	"        <StateReasonData>{&quot;version&quot;:&quot;1.0&quot;,&quot;evaluatedDatapoints&quot;:[{&quot;value&quot;:81.2}]}</StateReasonData>\n"
	"        <StateUpdatedTimestamp>2026-12-07T14:02:00Z</StateUpdatedTimestamp>\n"
	"        <MetricName>CPUUtilization</MetricName>\n"
	"        <Namespace>AWS/ECS</Namespace>\n"
	"        <Statistic>Average</Statistic>\n"
	"        <Dimensions>\n"
	"          <member><Name>ClusterName</Name><Value>prod</Value></member>\n"
	"          <member><Name>ServiceName</Name><Value>web</Value></member>\n"
	"        </Dimensions>\n"
	"        <Period>60</Period>\n"
	"        <Unit>Percent</Unit>\n"
	"        <EvaluationPeriods>3</EvaluationPeriods>\n"
	"        <DatapointsToAlarm>3</DatapointsToAlarm>\n"
	"        <Threshold>75.5</Threshold>\n"
	"        <ComparisonOperator>GreaterThanThreshold</ComparisonOperator>\n"
	"        <SomethingNew>ignored as botocore ignores it</SomethingNew>\n"
	"        <StateTransitionedTimestamp>2026-12-07T14:02:00.000Z</StateTransitionedTimestamp>\n"
	"      </member>\n"
	"    </MetricAlarms>\n"
	"    <CompositeAlarms/>\n"
	"  </DescribeAlarmsResult>\n"
	"  <ResponseMetadata><RequestId>5e1b</RequestId></ResponseMetadata>\n"
	"</DescribeAlarmsResponse>\n";

Test(awsquery, alarms_read_as_the_cli_prints_them)
{
	struct err err = { 0 };
	char *got = read_as(alarms_xml, "DescribeAlarms", cloudwatch_alarms_shape, &err);

	cr_assert_not_null(got, "%s", err.msg);
	expect_json(got,
		"{\"CompositeAlarms\":[],\"MetricAlarms\":[{"
		"\"AlarmName\":\"TargetTracking-service/prod/web-AlarmHigh-1a2b\","
		"\"AlarmArn\":\"arn:aws:cloudwatch:us-east-1:123456789012:alarm:TargetTracking-service/prod/web-AlarmHigh-1a2b\","
		"\"AlarmDescription\":\"DO NOT EDIT & <ok>\","
		"\"AlarmConfigurationUpdatedTimestamp\":\"2026-12-07T13:00:00.512000+00:00\","
		"\"ActionsEnabled\":true,\"OKActions\":[],"
		"\"AlarmActions\":[\"arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:p\"],"
		"\"InsufficientDataActions\":[],\"StateValue\":\"ALARM\","
		"\"StateReason\":\"Threshold Crossed: 3 datapoints [81.2 (07/12/26 14:01:00)] were greater than the threshold (75.0).\","
		"\"StateReasonData\":\"{\\\"version\\\":\\\"1.0\\\",\\\"evaluatedDatapoints\\\":[{\\\"value\\\":81.2}]}\","
		"\"StateUpdatedTimestamp\":\"2026-12-07T14:02:00+00:00\","
		"\"MetricName\":\"CPUUtilization\",\"Namespace\":\"AWS/ECS\",\"Statistic\":\"Average\","
		"\"Dimensions\":[{\"Name\":\"ClusterName\",\"Value\":\"prod\"},{\"Name\":\"ServiceName\",\"Value\":\"web\"}],"
		"\"Period\":60,\"Unit\":\"Percent\",\"EvaluationPeriods\":3,\"DatapointsToAlarm\":3,"
		"\"Threshold\":75.5,\"ComparisonOperator\":\"GreaterThanThreshold\","
		"\"StateTransitionedTimestamp\":\"2026-12-07T14:02:00+00:00\"}]}");
	/* botocore's member order, which the CLI prints in */
	cr_expect(strstr(got, "\"AlarmName\"") < strstr(got, "\"AlarmArn\""));
	cr_expect(strstr(got, "\"Threshold\":75.5,\"ComparisonOperator\"") != NULL, "%s", got);
	free(got);
}

Test(awsquery, history_data_stays_the_json_text_it_is)
{
	static const char xml[] =
		"<DescribeAlarmHistoryResponse><DescribeAlarmHistoryResult><AlarmHistoryItems>"
		"<member><AlarmName>hi</AlarmName><AlarmType>MetricAlarm</AlarmType>"
		"<Timestamp>2026-12-07T14:02:00.789Z</Timestamp>"
		"<HistoryItemType>StateUpdate</HistoryItemType>"
		"<HistorySummary>Alarm updated from OK to ALARM</HistorySummary>"
		"<HistoryData>{&quot;newState&quot;:{&quot;stateValue&quot;:&quot;ALARM&quot;,"
		"&quot;stateReasonData&quot;:{&quot;evaluatedDatapoints&quot;:[{&quot;timestamp&quot;:"
		"&quot;2026-12-07T14:01:00.000+0000&quot;,&quot;value&quot;:81.2}]}}}&#10;</HistoryData>"
		"<AlarmContributorAttributes><entry><key>k</key><value>v &#x2014; w</value></entry>"
		"</AlarmContributorAttributes></member>"
		"</AlarmHistoryItems><NextToken>tok-2</NextToken></DescribeAlarmHistoryResult>"
		"</DescribeAlarmHistoryResponse>";
	struct err err = { 0 };
	char *got = read_as(xml, "DescribeAlarmHistory", cloudwatch_history_shape, &err);

	cr_assert_not_null(got, "%s", err.msg);
	expect_json(got,
		"{\"AlarmHistoryItems\":[{\"AlarmName\":\"hi\",\"AlarmType\":\"MetricAlarm\","
		"\"Timestamp\":\"2026-12-07T14:02:00.789000+00:00\",\"HistoryItemType\":\"StateUpdate\","
		"\"HistorySummary\":\"Alarm updated from OK to ALARM\","
		"\"HistoryData\":\"{\\\"newState\\\":{\\\"stateValue\\\":\\\"ALARM\\\",\\\"stateReasonData\\\":"
		"{\\\"evaluatedDatapoints\\\":[{\\\"timestamp\\\":\\\"2026-12-07T14:01:00.000+0000\\\","
		"\\\"value\\\":81.2}]}}}\\n\","
		"\"AlarmContributorAttributes\":{\"k\":\"v \u2014 w\"}}],\"NextToken\":\"tok-2\"}");
	free(got);
}

Test(awsquery, empty_lists_are_empty_not_missing)
{
	static const char xml[] =
		"<DescribeTargetGroupsResponse><DescribeTargetGroupsResult><TargetGroups/>"
		"</DescribeTargetGroupsResult></DescribeTargetGroupsResponse>";
	static const char health[] =
		"<DescribeTargetHealthResponse><DescribeTargetHealthResult>"
		"<TargetHealthDescriptions></TargetHealthDescriptions>"
		"</DescribeTargetHealthResult></DescribeTargetHealthResponse>";
	struct err err = { 0 };
	char *got = read_as(xml, "DescribeTargetGroups", elbv2_target_groups_shape, &err);

	cr_assert_not_null(got, "%s", err.msg);
	cr_expect_str_eq(got, "{\"TargetGroups\":[]}");
	free(got);
	got = read_as(health, "DescribeTargetHealth", elbv2_target_health_shape, &err);
	cr_assert_not_null(got, "%s", err.msg);
	cr_expect_str_eq(got, "{\"TargetHealthDescriptions\":[]}");
	free(got);
}

Test(awsquery, target_groups_and_health)
{
	static const char groups[] =
		"<DescribeTargetGroupsResponse xmlns=\"http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/\">"
		"<DescribeTargetGroupsResult><TargetGroups><member>"
		"<TargetGroupArn>arn:aws:elasticloadbalancing:us-east-1:1:targetgroup/web/73e2</TargetGroupArn>"
		"<TargetGroupName>web</TargetGroupName><Protocol>HTTP</Protocol><Port>80</Port>"
		"<VpcId>vpc-1</VpcId><HealthCheckProtocol>HTTP</HealthCheckProtocol>"
		"<HealthCheckPort>traffic-port</HealthCheckPort><HealthCheckEnabled>true</HealthCheckEnabled>"
		"<HealthCheckIntervalSeconds>30</HealthCheckIntervalSeconds>"
		"<HealthCheckTimeoutSeconds>5</HealthCheckTimeoutSeconds>"
		"<HealthyThresholdCount>5</HealthyThresholdCount>"
		"<UnhealthyThresholdCount>2</UnhealthyThresholdCount><HealthCheckPath>/health</HealthCheckPath>"
		"<Matcher><HttpCode>200</HttpCode></Matcher>"
		"<LoadBalancerArns><member>arn:lb/1</member></LoadBalancerArns>"
		"<TargetType>ip</TargetType><ProtocolVersion>HTTP1</ProtocolVersion>"
		"<IpAddressType>ipv4</IpAddressType></member></TargetGroups>"
		"</DescribeTargetGroupsResult></DescribeTargetGroupsResponse>";
	static const char health[] =
		"<DescribeTargetHealthResponse><DescribeTargetHealthResult><TargetHealthDescriptions>"
		"<member><Target><Id>10.0.1.5</Id><Port>8080</Port><AvailabilityZone>us-east-1a</AvailabilityZone></Target>"
		"<HealthCheckPort>8080</HealthCheckPort><TargetHealth><State>initial</State>"
		"<Reason>Elb.RegistrationInProgress</Reason>"
		"<Description>Target registration is in progress</Description></TargetHealth></member>"
		"<member><Target><Id>10.0.1.6</Id><Port>8080</Port></Target>"
		"<TargetHealth><State>healthy</State></TargetHealth></member>"
		"</TargetHealthDescriptions></DescribeTargetHealthResult></DescribeTargetHealthResponse>";
	struct err err = { 0 };
	char *got = read_as(groups, "DescribeTargetGroups", elbv2_target_groups_shape, &err);

	cr_assert_not_null(got, "%s", err.msg);
	expect_json(got,
		"{\"TargetGroups\":[{\"TargetGroupArn\":\"arn:aws:elasticloadbalancing:us-east-1:1:targetgroup/web/73e2\","
		"\"TargetGroupName\":\"web\",\"Protocol\":\"HTTP\",\"Port\":80,\"VpcId\":\"vpc-1\","
		"\"HealthCheckProtocol\":\"HTTP\",\"HealthCheckPort\":\"traffic-port\",\"HealthCheckEnabled\":true,"
		"\"HealthCheckIntervalSeconds\":30,\"HealthCheckTimeoutSeconds\":5,\"HealthyThresholdCount\":5,"
		"\"UnhealthyThresholdCount\":2,\"HealthCheckPath\":\"/health\",\"Matcher\":{\"HttpCode\":\"200\"},"
		"\"LoadBalancerArns\":[\"arn:lb/1\"],\"TargetType\":\"ip\",\"ProtocolVersion\":\"HTTP1\","
		"\"IpAddressType\":\"ipv4\"}]}");
	free(got);
	got = read_as(health, "DescribeTargetHealth", elbv2_target_health_shape, &err);
	cr_assert_not_null(got, "%s", err.msg);
	expect_json(got,
		"{\"TargetHealthDescriptions\":[{\"Target\":{\"Id\":\"10.0.1.5\",\"Port\":8080,"
		"\"AvailabilityZone\":\"us-east-1a\"},\"HealthCheckPort\":\"8080\",\"TargetHealth\":"
		"{\"State\":\"initial\",\"Reason\":\"Elb.RegistrationInProgress\","
		"\"Description\":\"Target registration is in progress\"}},"
		"{\"Target\":{\"Id\":\"10.0.1.6\",\"Port\":8080},\"TargetHealth\":{\"State\":\"healthy\"}}]}");
	free(got);
}

/* ---- hostile and broken answers: refused with one line that says why ------------- */

static void
expect_refused(const char *xml, size_t len, const char *why)
{
	struct err err = { 0 };
	json_t *out = NULL;

	cr_expect_eq(awsquery_read(xml, len, "DescribeAlarms", cloudwatch_alarms_shape, &out,
				   &err), -1, "accepted: %.80s", xml);
	cr_expect_null(out);
	cr_expect(strncmp(err.msg, "DescribeAlarms: the XML answer is refused: ", 43) == 0,
		  "%s", err.msg);
	cr_expect(strstr(err.msg, why) != NULL, "'%s' does not say '%s'", err.msg, why);
	cr_expect(strchr(err.msg, '\n') == NULL, "%s", err.msg);
}

Test(awsquery, hostile_xml_is_refused_with_one_line)
{
	static const char entity[] =
		"<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
		"<!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">]><DescribeAlarmsResponse><DescribeAlarmsResult>"
		"<MetricAlarms><member><AlarmName>&lol2;</AlarmName></member></MetricAlarms>"
		"</DescribeAlarmsResult></DescribeAlarmsResponse>";
	static const char inner_entity[] =
		"<DescribeAlarmsResponse><DescribeAlarmsResult><MetricAlarms><member>"
		"<AlarmName><![CDATA[x]]></AlarmName></member></MetricAlarms></DescribeAlarmsResult>"
		"</DescribeAlarmsResponse>";
	static const char truncated[] =
		"<DescribeAlarmsResponse><DescribeAlarmsResult><MetricAlarms><member>"
		"<AlarmName>x</AlarmName></member>";
	static const char cut_in_tag[] = "<DescribeAlarmsResponse><DescribeAlarmsResult><Metr";
	static const char mismatched[] =
		"<DescribeAlarmsResponse><DescribeAlarmsResult><MetricAlarms><member>"
		"<AlarmName>x</Period></member></MetricAlarms></DescribeAlarmsResult>"
		"</DescribeAlarmsResponse>";
	static const char not_a_number[] =
		"<DescribeAlarmsResponse><DescribeAlarmsResult><MetricAlarms><member>"
		"<Period>60s</Period></member></MetricAlarms></DescribeAlarmsResult>"
		"</DescribeAlarmsResponse>";
	static const char wrong_root[] = "<html><body>proxy login</body></html>";
	static const char nul[] = "<DescribeAlarmsResponse>\0</DescribeAlarmsResponse>";
	struct buf deep, huge;

	expect_refused(entity, strlen(entity), "DOCTYPE");
	expect_refused(inner_entity, strlen(inner_entity), "CDATA");
	expect_refused(truncated, strlen(truncated), "cut short");
	expect_refused(cut_in_tag, strlen(cut_in_tag), "cut short");
	expect_refused(mismatched, strlen(mismatched), "does not match");
	expect_refused(not_a_number, strlen(not_a_number), "<Period> is not an integer");
	expect_refused(wrong_root, strlen(wrong_root), "its root is <html>");
	expect_refused(nul, sizeof nul - 1, "NUL");

	buf_init(&deep, 0);
	buf_adds(&deep, "<DescribeAlarmsResponse>");
	for (int i = 0; i < 100; i++)
		buf_adds(&deep, "<a>");
	expect_refused(buf_str(&deep), deep.len, "nested too deep");
	buf_cleanup(&deep);

	buf_init(&huge, 0);
	buf_adds(&huge, "<DescribeAlarmsResponse><DescribeAlarmsResult>");
	while (huge.len <= AWSQUERY_MAX_ANSWER)
		buf_adds(&huge, "<NextToken>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</NextToken>");
	buf_adds(&huge, "</DescribeAlarmsResult></DescribeAlarmsResponse>");
	expect_refused(buf_str(&huge), huge.len, "MiB");
	buf_cleanup(&huge);
}

/* ---- the calls: requests, paging, throttling, errors ------------------------------ */

static const char *
page(size_t i)
{
	static const char *const pages[] = {
		"<DescribeAlarmHistoryResponse><DescribeAlarmHistoryResult><AlarmHistoryItems>"
		"<member><AlarmName>hi</AlarmName><Timestamp>2026-12-07T14:03:00Z</Timestamp></member>"
		"</AlarmHistoryItems><NextToken>t/2+=</NextToken></DescribeAlarmHistoryResult>"
		"</DescribeAlarmHistoryResponse>",
		"<DescribeAlarmHistoryResponse><DescribeAlarmHistoryResult><AlarmHistoryItems>"
		"<member><AlarmName>hi</AlarmName><Timestamp>2026-12-07T14:02:00Z</Timestamp></member>"
		"</AlarmHistoryItems><NextToken>t3</NextToken></DescribeAlarmHistoryResult>"
		"</DescribeAlarmHistoryResponse>",
		"<DescribeAlarmHistoryResponse><DescribeAlarmHistoryResult><AlarmHistoryItems>"
		"<member><AlarmName>hi</AlarmName><Timestamp>2026-12-07T14:01:00.12345Z</Timestamp></member>"
		"</AlarmHistoryItems></DescribeAlarmHistoryResult></DescribeAlarmHistoryResponse>",
	};
	return pages[i];
}

Test(awsquery, history_pages_merged_with_the_query_request)
{
	struct step steps[] = { { 200, page(0) }, { 200, page(1) }, { 200, page(2) } };
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;
	int64_t from = 1796652000000, to = 1796655600000;   /* 2026-12-07 14:00 and 15:00 */

	script(3, steps);
	cr_assert_eq(cloudwatch_alarm_history(c, &T, "TargetTracking-service/prod/web-AlarmHigh",
					      from, to, &json, &err), 0, "%s", err.msg);
	expect_json(json, "{\"AlarmHistoryItems\":["
		    "{\"AlarmName\":\"hi\",\"Timestamp\":\"2026-12-07T14:03:00+00:00\"},"
		    "{\"AlarmName\":\"hi\",\"Timestamp\":\"2026-12-07T14:02:00+00:00\"},"
		    "{\"AlarmName\":\"hi\",\"Timestamp\":\"2026-12-07T14:01:00.123000+00:00\"}]}");
	cr_expect(strstr(json, "NextToken") == NULL, "%s", json);
	cr_assert_eq(S.nreq, 3);
	cr_expect_str_eq(S.bodies[0],
		"Action=DescribeAlarmHistory&Version=2010-08-01"
		"&AlarmName=TargetTracking-service%2Fprod%2Fweb-AlarmHigh"
		"&HistoryItemType=StateUpdate&StartDate=2026-12-07T14%3A00%3A00.000Z"
		"&EndDate=2026-12-07T15%3A00%3A00.000Z");
	cr_expect(strstr(S.bodies[1], "&NextToken=t%2F2%2B%3D") != NULL, "%s", S.bodies[1]);
	cr_expect(strstr(S.bodies[2], "&NextToken=t3") != NULL, "%s", S.bodies[2]);
	cr_expect_str_eq(S.content_type[0], "application/x-www-form-urlencoded; charset=utf-8");
	cr_expect(!S.target[0], "the query protocol has no X-Amz-Target");
	cr_expect(strstr(S.auth[0], "/us-east-1/monitoring/aws4_request") != NULL, "%s", S.auth[0]);
	cr_expect_str_eq(S.url[0], "https://monitoring.example.test/");
	free(json);
	aws_scaleout_free(c);
}

Test(awsquery, a_repeated_token_is_an_error)
{
	static const char again[] =
		"<DescribeTargetGroupsResponse><DescribeTargetGroupsResult><TargetGroups/>"
		"<NextMarker>m1</NextMarker></DescribeTargetGroupsResult></DescribeTargetGroupsResponse>";
	struct step steps[] = { { 200, again }, { 200, again } };
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;

	script(2, steps);
	cr_expect_eq(elbv2_describe_target_groups(c, &T, NULL, 0, &json, &err), -1);
	cr_expect_null(json);
	cr_expect(strstr(err.msg, "DescribeTargetGroups: the server sent the token it was given "
			 "again") != NULL, "%s", err.msg);
	cr_expect(strstr(S.bodies[1], "&Marker=m1") != NULL, "%s", S.bodies[1]);
	cr_expect(strstr(S.auth[0], "/elasticloadbalancing/aws4_request") != NULL, "%s", S.auth[0]);
	aws_scaleout_free(c);
}

Test(awsquery, throttling_is_retried_then_succeeds)
{
	static const char throttled[] =
		"<ErrorResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\"><Error>"
		"<Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error>"
		"<RequestId>r</RequestId></ErrorResponse>";
	struct step steps[] = { { 400, throttled }, { 200, alarms_xml } };
	const char *names[] = { "TargetTracking-service/prod/web-AlarmHigh-1a2b" };
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;
	size_t requests, throttles;

	script(2, steps);
	cr_assert_eq(cloudwatch_describe_alarms(c, &T, names, 1, &json, &err), 0, "%s", err.msg);
	cr_expect(strncmp(json, "{\"MetricAlarms\":[{\"AlarmName\":", 30) == 0, "%s", json);
	cr_expect(strstr(json, "\"CompositeAlarms\":[]") != NULL, "%s", json);
	aws_scaleout_counts(c, &requests, &throttles);
	cr_expect_eq(requests, 2);
	cr_expect_eq(throttles, 1);
	cr_expect_str_eq(S.bodies[1], "Action=DescribeAlarms&Version=2010-08-01"
			 "&AlarmTypes.member.1=CompositeAlarm&AlarmTypes.member.2=MetricAlarm"
			 "&AlarmNames.member.1=TargetTracking-service%2Fprod%2Fweb-AlarmHigh-1a2b");
	free(json);
	aws_scaleout_free(c);
}

Test(awsquery, access_denied_names_the_iam_action)
{
	static const char denied[] =
		"<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code>"
		"<Message>User: arn:aws:iam::1:user/x is not authorized to perform: "
		"cloudwatch:DescribeAlarmHistory</Message></Error></ErrorResponse>";
	struct step steps[] = { { 403, denied } };
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;

	script(1, steps);
	cr_expect_eq(cloudwatch_alarm_history(c, &T, "a", TS_NONE, TS_NONE, &json, &err), -1);
	cr_expect_null(json);
	cr_expect_str_eq(err.aws_type, "AccessDenied");
	cr_expect(strstr(err.msg, "grant cloudwatch:DescribeAlarmHistory in the IAM policy") != NULL,
		  "%s", err.msg);
	cr_expect_eq(S.nreq, 1, "AccessDenied is not retried");
	aws_scaleout_free(c);
}

Test(awsquery, a_cut_answer_is_asked_again)
{
	struct step steps[] = { { 200, "<DescribeAlarmsResponse><DescribeAlarmsResult><Metri" },
				{ 200, alarms_xml } };
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;

	script(2, steps);
	cr_assert_eq(cloudwatch_describe_alarms(c, &T, NULL, 0, &json, &err), 0, "%s", err.msg);
	cr_expect_eq(S.nreq, 2);
	free(json);
	aws_scaleout_free(c);
}

/* ---- Application Auto Scaling (JSON protocol) ------------------------------------- */

Test(awsquery, activities_paged_times_as_the_cli_and_cut_at_since)
{
	struct step steps[] = {
		{ 200, "{\"ScalingActivities\":[{\"ActivityId\":\"a3\",\"ServiceNamespace\":\"ecs\","
		       "\"Description\":\"Setting desired count to 8.\",\"StartTime\":1796652120.123,"
		       "\"EndTime\":1796652181.0,\"StatusCode\":\"Successful\"}],\"NextToken\":\"n2\"}" },
		{ 200, "{\"ScalingActivities\":[{\"ActivityId\":\"a2\",\"StartTime\":1796648400},"
		       "{\"ActivityId\":\"a1\",\"StartTime\":1796562000}],\"NextToken\":\"n3\"}" },
	};
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;

	script(2, steps);
	/* since 13:00: a1 (the day before) is left out, and so is the page after it */
	cr_assert_eq(appscaling_describe_activities(c, &T, "prod", "web", 1796648400000, &json,
						    &err), 0, "%s", err.msg);
	expect_json(json, "{\"ScalingActivities\":[{\"ActivityId\":\"a3\",\"ServiceNamespace\":\"ecs\","
		    "\"Description\":\"Setting desired count to 8.\","
		    "\"StartTime\":\"2026-12-07T14:02:00.123000+00:00\","
		    "\"EndTime\":\"2026-12-07T14:03:01+00:00\",\"StatusCode\":\"Successful\"},"
		    "{\"ActivityId\":\"a2\",\"StartTime\":\"2026-12-07T13:00:00+00:00\"}]}");
	cr_expect_eq(S.nreq, 2);
	expect_json(S.bodies[0], "{\"ServiceNamespace\":\"ecs\",\"ResourceId\":\"service/prod/web\","
		    "\"ScalableDimension\":\"ecs:service:DesiredCount\"}");
	expect_json(S.bodies[1], "{\"ServiceNamespace\":\"ecs\",\"ResourceId\":\"service/prod/web\","
		    "\"ScalableDimension\":\"ecs:service:DesiredCount\",\"NextToken\":\"n2\"}");
	cr_expect(S.target[0]);
	cr_expect(strstr(S.auth[0], "/us-east-1/application-autoscaling/aws4_request") != NULL,
		  "%s", S.auth[0]);
	free(json);
	aws_scaleout_free(c);
}

Test(awsquery, policies_denied_names_the_iam_action_and_arns_are_names)
{
	struct step steps[] = { { 400, "{\"__type\":\"AccessDeniedException\",\"Message\":\"no\"}" } };
	struct aws_scaleout *c = client();
	struct err err = { 0 };
	char *json = NULL;

	script(1, steps);
	cr_expect_eq(appscaling_describe_policies(c, &T, "prod", "web", &json, &err), -1);
	cr_expect(strstr(err.msg, "grant application-autoscaling:DescribeScalingPolicies") != NULL,
		  "%s", err.msg);
	script(1, steps);
	cr_expect_eq(appscaling_describe_policies(c, &T,
		     "arn:aws:ecs:us-east-1:1:cluster/prod",
		     "arn:aws:ecs:us-east-1:1:service/prod/web", &json, &err), -1);
	expect_json(S.bodies[0], "{\"ServiceNamespace\":\"ecs\",\"ResourceId\":\"service/prod/web\","
		    "\"ScalableDimension\":\"ecs:service:DesiredCount\"}");
	aws_scaleout_free(c);
}

Test(awsquery, times_as_python_isoformat_writes_them)
{
	char out[AWSJSON_TIME_LEN];

	awsjson_format_time(1796652120123000, out);
	cr_expect_str_eq(out, "2026-12-07T14:02:00.123000+00:00");
	awsjson_format_time(1796652120000000, out);
	cr_expect_str_eq(out, "2026-12-07T14:02:00+00:00");
	awsjson_format_time(1, out);
	cr_expect_str_eq(out, "1970-01-01T00:00:00.000001+00:00");
	awsjson_format_time(-1000000, out);
	cr_expect_str_eq(out, "1969-12-31T23:59:59+00:00");
}

/* what datetime.fromtimestamp prints for the float a JSON answer holds: the CLI's text to
 * the microsecond (moto's CreationTime 1796606978.1136994 is .113699, not .113700) */
Test(awsquery, epoch_seconds_round_as_python_does)
{
	static const char *const keys[] = { "CreationTime", NULL };
	json_t *v = json_loads("[{\"CreationTime\":1796606978.1136994,\"x\":{\"CreationTime\":"
			       "1.0000015}},{\"CreationTime\":5e-07,\"Other\":1.5},"
			       "{\"CreationTime\":\"2026-12-07T14:02:00+00:00\"}]", 0, NULL);
	char *s;

	cr_assert_not_null(v);
	awsjson_cli_times(v, keys);
	s = json_dumps(v, JSON_COMPACT);
	cr_expect_str_eq(s, "[{\"CreationTime\":\"2026-12-07T01:29:38.113699+00:00\",\"x\":"
			 "{\"CreationTime\":\"1970-01-01T00:00:01.000001+00:00\"}},"
			 "{\"CreationTime\":\"1970-01-01T00:00:00+00:00\",\"Other\":1.5},"
			 "{\"CreationTime\":\"2026-12-07T14:02:00+00:00\"}]");
	free(s);
	json_decref(v);
}

/* ---- EC2: <item> lists, no Result wrapper, <Response><Errors> ------------------------ */

static struct ec2 *
ec2_client(void)
{
	struct ec2_options o = { 0 };
	struct ec2 *c = NULL;
	struct err err = { 0 };

	o.common.clock = &no_wait;
	o.common.region = "us-east-1";
	o.endpoint = "https://ec2.example.test";
	o.common.creds = test_creds;
	cr_assert_eq(ec2_new(&o, &c, &err), 0, "%s", err.msg);
	return c;
}

Test(awsquery, ec2_item_lists_read_without_a_result_wrapper)
{
	static const char xml[] =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<DescribeVpcEndpointsResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
		"<requestId>r-1</requestId><vpcEndpointSet>"
		"<item><vpcEndpointId>vpce-1</vpcEndpointId><vpcEndpointType>Gateway</vpcEndpointType>"
		"<serviceName>com.amazonaws.us-east-1.s3</serviceName><state>available</state>"
		"<routeTableIdSet><item>rtb-1</item><item>rtb-2</item></routeTableIdSet>"
		"<privateDnsEnabled>false</privateDnsEnabled><dnsEntrySet/></item>"
		"<item><vpcEndpointId>vpce-2</vpcEndpointId><routeTableIdSet/></item>"
		"</vpcEndpointSet></DescribeVpcEndpointsResponse>";
	struct err err = { 0 };
	char *s = read_as(xml, "DescribeVpcEndpoints", ec2_endpoints_shape, &err);

	cr_assert_not_null(s, "%s", err.msg);
	expect_json(s, "{\"vpcEndpointSet\":[{\"vpcEndpointId\":\"vpce-1\",\"vpcEndpointType\":"
		    "\"Gateway\",\"serviceName\":\"com.amazonaws.us-east-1.s3\",\"state\":"
		    "\"available\",\"routeTableIdSet\":[\"rtb-1\",\"rtb-2\"],"
		    "\"privateDnsEnabled\":false},{\"vpcEndpointId\":\"vpce-2\","
		    "\"routeTableIdSet\":[]}]}");
	free(s);
}

static const char *
rt_page(size_t i)
{
	static const char *const pages[] = {
		/* the subnet's own table: none */
		"<DescribeRouteTablesResponse><routeTableSet/></DescribeRouteTablesResponse>",
		/* the main table, over two pages */
		"<DescribeRouteTablesResponse><routeTableSet/><nextToken>t/1</nextToken>"
		"</DescribeRouteTablesResponse>",
		"<DescribeRouteTablesResponse><routeTableSet><item><routeTableId>rtb-main</routeTableId>"
		"<associationSet><item><main>true</main></item></associationSet><routeSet>"
		"<item><destinationCidrBlock>10.0.0.0/16</destinationCidrBlock><gatewayId>local"
		"</gatewayId><state>active</state></item>"
		"<item><destinationCidrBlock>0.0.0.0/0</destinationCidrBlock><natGatewayId>nat-9"
		"</natGatewayId><state>blackhole</state></item>"
		"<item><destinationIpv6CidrBlock>::/0</destinationIpv6CidrBlock><gatewayId>igw-6"
		"</gatewayId><state>active</state></item>"
		"</routeSet><vpcId>vpc-1</vpcId></item></routeTableSet></DescribeRouteTablesResponse>",
	};
	return pages[i];
}

Test(awsquery, ec2_route_table_falls_back_to_the_main_one_over_pages)
{
	struct step steps[] = { { 200, rt_page(0) }, { 200, rt_page(1) }, { 200, rt_page(2) } };
	struct ec2 *c = ec2_client();
	struct ec2_route_table rt;
	struct err err = { 0 };

	script(3, steps);
	cr_assert_eq(ec2_subnet_route_table(c, &T, "subnet-1", "vpc-1", &rt, &err), 0, "%s",
		     err.msg);
	cr_expect_str_eq(rt.id, "rtb-main");
	cr_expect(rt.main);
	cr_assert_eq(rt.nroutes, 3);
	cr_expect_str_eq(rt.routes[1].destination, "0.0.0.0/0");
	cr_expect_str_eq(rt.routes[1].target, "nat-9");
	cr_expect(!rt.routes[1].active, "a blackhole route goes nowhere");
	cr_expect_null(rt.routes[2].destination);
	cr_assert_eq(S.nreq, 3);
	cr_expect_str_eq(S.bodies[0], "Action=DescribeRouteTables&Version=2016-11-15"
			 "&Filter.1.Name=association.subnet-id&Filter.1.Value.1=subnet-1");
	cr_expect_str_eq(S.bodies[1], "Action=DescribeRouteTables&Version=2016-11-15"
			 "&Filter.1.Name=vpc-id&Filter.1.Value.1=vpc-1"
			 "&Filter.2.Name=association.main&Filter.2.Value.1=true");
	cr_expect(strstr(S.bodies[2], "&NextToken=t%2F1") != NULL, "%s", S.bodies[2]);
	cr_expect(strstr(S.auth[0], "/us-east-1/ec2/aws4_request") != NULL, "%s", S.auth[0]);
	ec2_route_table_free(&rt);
	ec2_free(c);
}

Test(awsquery, ec2_subnet_and_its_errors)
{
	static const char subnet[] =
		"<DescribeSubnetsResponse><requestId>r</requestId><subnetSet><item>"
		"<subnetId>subnet-1</subnetId><vpcId>vpc-1</vpcId>"
		"<mapPublicIpOnLaunch>true</mapPublicIpOnLaunch></item></subnetSet>"
		"</DescribeSubnetsResponse>";
	static const char denied[] =
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error>"
		"<Code>UnauthorizedOperation</Code><Message>You are not authorized to perform this "
		"operation.</Message></Error></Errors><RequestID>r</RequestID></Response>";
	static const char unknown[] =
		"<Response><Errors><Error><Code>InvalidSubnetID.NotFound</Code><Message>The subnet "
		"ID 'subnet-2' does not exist</Message></Error></Errors></Response>";
	struct step steps[] = { { 200, subnet }, { 403, denied }, { 400, unknown } };
	struct ec2 *c = ec2_client();
	struct ec2_subnet sn;
	struct err err = { 0 };

	script(3, steps);
	cr_assert_eq(ec2_describe_subnet(c, &T, "subnet-1", &sn, &err), 0, "%s", err.msg);
	cr_expect_str_eq(sn.vpc_id, "vpc-1");
	cr_expect(sn.map_public_ip);
	cr_expect_str_eq(S.bodies[0], "Action=DescribeSubnets&Version=2016-11-15"
			 "&SubnetId.1=subnet-1");
	ec2_subnet_free(&sn);
	cr_expect_eq(ec2_describe_subnet(c, &T, "subnet-1", &sn, &err), -1);
	cr_expect_str_eq(err.aws_type, "UnauthorizedOperation");
	cr_expect(strstr(err.msg, "grant ec2:DescribeSubnets in the IAM policy") != NULL, "%s",
		  err.msg);
	memset(&err, 0, sizeof err);
	cr_expect_eq(ec2_describe_subnet(c, &T, "subnet-2", &sn, &err), -1);
	cr_expect_str_eq(err.aws_type, "InvalidSubnetID.NotFound");
	cr_expect(strstr(err.msg, "does not exist") != NULL, "%s", err.msg);
	cr_expect_null(sn.id);
	ec2_free(c);
}

Test(awsquery, ec2_nat_gateway_state_and_endpoint_subnets)
{
	static const char nat[] =
		"<DescribeNatGatewaysResponse><requestId>r</requestId><natGatewaySet><item>"
		"<natGatewayId>nat-1</natGatewayId><state>failed</state><subnetId>subnet-9"
		"</subnetId><vpcId>vpc-1</vpcId></item></natGatewaySet></DescribeNatGatewaysResponse>";
	static const char none[] =
		"<DescribeNatGatewaysResponse><natGatewaySet/></DescribeNatGatewaysResponse>";
	static const char eps[] =
		"<DescribeVpcEndpointsResponse><vpcEndpointSet><item><vpcEndpointId>vpce-3"
		"</vpcEndpointId><vpcEndpointType>Interface</vpcEndpointType><serviceName>"
		"com.amazonaws.us-east-1.ecr.dkr</serviceName><state>available</state>"
		"<subnetIdSet><item>subnet-a</item><item>subnet-b</item></subnetIdSet>"
		"<privateDnsEnabled>true</privateDnsEnabled></item></vpcEndpointSet>"
		"</DescribeVpcEndpointsResponse>";
	struct step steps[] = { { 200, nat }, { 200, none }, { 200, eps } };
	struct ec2 *c = ec2_client();
	struct ec2_endpoints e;
	struct err err = { 0 };
	char *state = NULL;

	script(3, steps);
	cr_assert_eq(ec2_nat_gateway_state(c, &T, "nat-1", &state, &err), 0, "%s", err.msg);
	cr_expect_str_eq(state, "failed");
	cr_expect_str_eq(S.bodies[0], "Action=DescribeNatGateways&Version=2016-11-15"
			 "&NatGatewayId.1=nat-1");
	free(state);
	cr_assert_eq(ec2_nat_gateway_state(c, &T, "nat-2", &state, &err), 0, "%s", err.msg);
	cr_expect_str_eq(state, "unknown", "a NAT gateway EC2 does not list goes nowhere");
	free(state);
	cr_assert_eq(ec2_vpc_endpoints(c, &T, "vpc-1", &e, &err), 0, "%s", err.msg);
	cr_assert_eq(e.n, 1);
	cr_assert_eq(e.v[0].nsubnets, 2);
	cr_expect_str_eq(e.v[0].subnets[1], "subnet-b");
	cr_expect(e.v[0].private_dns);
	ec2_endpoints_free(&e);
	ec2_free(c);
}
