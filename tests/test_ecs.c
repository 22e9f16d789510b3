/* Unit tests for ecs.c: the awsJson1_1 requests it sends, paging and batching with several
 * requests in flight, failures[], --since, and the one-line errors, against an in-memory
 * ECS behind a fake transport. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/ecs.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "src/aws/awsjson.h"
#include "src/aws/ecs_int.h"

/* ---- the in-memory ECS ------------------------------------------------------------------ */

struct fake {
	pthread_mutex_t lock;
	size_t nrunning, nstopped;   /* tasks t0..: running first, then stopped */
	size_t overlap;              /* stopped list repeats this many running ARNs */
	bool missing_cluster;
	int bad_json;                /* next N answers are cut short */
	bool starve_after;           /* jansson's allocations fail once the answer is built */
	int throttle;                /* next N answers are ThrottlingException */
	size_t requests, list_calls, describe_calls, max_batch;
	int inflight, max_inflight;
	char last_error_op[64];
	bool deny_stopped;           /* ListTasks STOPPED: AccessDeniedException */
	bool unavailable_running;    /* ListTasks RUNNING: 503, every time */
	bool bad_request;            /* a request broke the protocol */
	bool hold_services;          /* DescribeServices waits (unlocked) for release */
	bool repeat_token;           /* ListTasks/ListClusters send back the token they got */
	bool unasked;                /* DescribeTasks adds tasks nobody asked for */
	size_t asked_by_arn;         /* DescribeTasks tasks asked by ARN, not by id */
	size_t cluster_calls;        /* ListClusters asked */
	size_t list_at_describe;     /* ListTasks pages asked when the first DescribeTasks came */
	volatile bool release;
	char first_op[32];           /* the first operation asked */
	char last_date[20];          /* the last request's X-Amz-Date */
	char why[256];
};

static struct fake F;
static bool starving;   /* jansson's malloc fails (see starve_after) */

static void
fake_reset(void)
{
	memset(&F, 0, sizeof F);
	pthread_mutex_init(&F.lock, NULL);
}

static const char *
hdr(const struct http_request *req, const char *name)
{
	for (size_t i = 0; i < req->nheaders; i++)
		if (strcasecmp(req->headers[i].name, name) == 0)
			return req->headers[i].value;
	return NULL;
}

static void
protocol_error(const char *why)
{
	F.bad_request = true;
	snprintf(F.why, sizeof F.why, "%s", why);
}

static void
reply(struct http_response *resp, long status, const char *headers, char *body)
{
	resp->status = status;
	resp->headers = xstrdup(headers);
	buf_adds(&resp->body, body);
	free(body);
}

static char *
arn_of(size_t i)
{
	return xasprintf("arn:aws:ecs:us-east-1:123456789012:task/prod/t%05zu", i);
}

static char *
list_tasks(json_t *req)
{
	const char *status = json_string_value(json_object_get(req, "desiredStatus"));
	const char *token = json_string_value(json_object_get(req, "nextToken"));
	json_int_t max = json_integer_value(json_object_get(req, "maxResults"));
	size_t start = token ? strtoul(token + 1, NULL, 10) : 0, first, count;
	json_t *out = json_object(), *arr = json_array();
	char *s;

	if (max != 100)
		protocol_error("maxResults is not 100");
	if (status == NULL)
		protocol_error("no desiredStatus");
	if (status != NULL && strcmp(status, "STOPPED") == 0) {
		first = F.nrunning - F.overlap;
		count = F.nstopped + F.overlap;
	} else {
		first = 0;
		count = F.nrunning;
	}
	for (size_t i = start; i < count && i < start + 100; i++) {
		char *a = arn_of(first + i);
		json_array_append_new(arr, json_string(a));
		free(a);
	}
	json_object_set_new(out, "taskArns", arr);
	if (F.repeat_token && token != NULL) {
		json_object_set_new(out, "nextToken", json_string(token));
	} else if (start + 100 < count) {
		char t[32];
		snprintf(t, sizeof t, "p%zu", start + 100);
		json_object_set_new(out, "nextToken", json_string(t));
	}
	s = json_dumps(out, JSON_COMPACT);
	json_decref(out);
	return s;
}

static char *
describe_tasks(json_t *req)
{
	json_t *tasks = json_object_get(req, "tasks"), *v, *out = json_object();
	json_t *arr = json_array(), *fail = json_array();
	json_t *inc = json_object_get(req, "include");
	size_t i;
	char *s;

	if (json_array_size(tasks) == 0 || json_array_size(tasks) > 100)
		protocol_error("DescribeTasks with 0 or more than 100 tasks");
	if (!json_is_array(inc) || json_array_size(inc) != 1 ||
	    strcmp(json_string_value(json_array_get(inc, 0)), "TAGS") != 0)
		protocol_error("include is not [\"TAGS\"]");
	if (json_array_size(tasks) > F.max_batch)
		F.max_batch = json_array_size(tasks);
	json_array_foreach(tasks, i, v) {
		/* as ECS: a task asked by its id (in cluster prod) is named by its ARN */
		char *own = strncmp(json_string_value(v), "arn:", 4) == 0 ? NULL :
			xasprintf("arn:aws:ecs:us-east-1:123456789012:task/prod/%s",
				  json_string_value(v));

		F.asked_by_arn += own == NULL;
		const char *a = own != NULL ? own : json_string_value(v), *t = strrchr(a, 't');
		size_t n = strtoul(t + 1, NULL, 10);
		bool stopped = n >= F.nrunning;

		if (strstr(a, "gone") != NULL) {
			json_array_append_new(fail, json_pack("{s:s,s:s}", "arn", a, "reason", "MISSING"));
			free(own);
			continue;
		}
		/* createdAt: task n was created n seconds after 1714557600 */
		json_array_append_new(arr, json_pack("{s:s,s:s,s:f,s:s,s:s,s:I}",
			"taskArn", a, "clusterArn", "arn:aws:ecs:us-east-1:123456789012:cluster/prod",
			"createdAt", 1714557600.125 + (double)n,
			"lastStatus", stopped ? "STOPPED" : "RUNNING",
			"desiredStatus", stopped ? "STOPPED" : "RUNNING", "version", (json_int_t)3));
		free(own);
	}
	if (F.unasked) {
		/* the same id in another cluster, another account's task, and one by id only */
		static const char *const extra[] = {
			"arn:aws:ecs:us-east-1:123456789012:task/staging/t00000",
			"arn:aws:ecs:us-east-1:999999999999:task/prod/x99999",
			"arn:aws:ecs:us-east-1:123456789012:task/prod/t77777",
		};
		for (i = 0; i < sizeof extra / sizeof extra[0]; i++)
			json_array_append_new(arr, json_pack("{s:s,s:f,s:s,s:I}", "taskArn", extra[i],
				"createdAt", 1714557600.125, "lastStatus", "RUNNING",
				"version", (json_int_t)3));
	}
	json_object_set_new(out, "tasks", arr);
	json_object_set_new(out, "failures", fail);
	s = json_dumps(out, JSON_COMPACT);
	json_decref(out);
	return s;
}

static int
fake_send(void *ctx, const struct http_request *req, struct http_response *resp,
	  struct err *err)
{
	const char *target = hdr(req, "X-Amz-Target"), *op;
	json_t *body;
	char *out = NULL;

	pthread_mutex_lock(&F.lock);
	F.requests++;
	F.inflight++;
	if (F.inflight > F.max_inflight)
		F.max_inflight = F.inflight;
	pthread_mutex_unlock(&F.lock);
	/* let other threads overlap with this request */
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&F.lock);

	if (strcmp(req->method, "POST") != 0 || strcmp(req->url, "https://ecs.example.test/") != 0)
		protocol_error("not POST https://ecs.example.test/");
	if (hdr(req, "Content-Type") == NULL ||
	    strcmp(hdr(req, "Content-Type"), "application/x-amz-json-1.1") != 0)
		protocol_error("Content-Type");
	if (hdr(req, "Host") == NULL || strcmp(hdr(req, "Host"), "ecs.example.test") != 0)
		protocol_error("Host");
	if (hdr(req, "Authorization") == NULL ||
	    strstr(hdr(req, "Authorization"), "Credential=AKIDTEST/") == NULL ||
	    strstr(hdr(req, "Authorization"), "/us-east-1/ecs/aws4_request") == NULL)
		protocol_error("Authorization");
	if (hdr(req, "X-Amz-Date") == NULL)
		protocol_error("X-Amz-Date");
	else
		snprintf(F.last_date, sizeof F.last_date, "%s", hdr(req, "X-Amz-Date"));
	if (target == NULL || strncmp(target, "AmazonEC2ContainerServiceV20141113.", 35) != 0) {
		protocol_error("X-Amz-Target");
		target = "AmazonEC2ContainerServiceV20141113.?";
	}
	op = target + 35;
	if (F.first_op[0] == '\0')
		snprintf(F.first_op, sizeof F.first_op, "%s", op);
	if (strcmp(op, "DescribeServices") == 0 && F.hold_services) {
		pthread_mutex_unlock(&F.lock);
		while (!F.release)
			nanosleep(&ts, NULL);
		pthread_mutex_lock(&F.lock);
	}
	body = json_loadb(req->body, req->body_len, 0, NULL);
	if (!json_is_object(body))
		protocol_error("body is not a JSON object");
	if (strcmp(op, "DescribeTasks") == 0 && json_is_object(body)) {
		/* ecs_batch.c writes this request without a DOM: the bytes jansson would */
		char *dump = json_dumps(body, JSON_COMPACT);

		if (dump == NULL || strlen(dump) != req->body_len ||
		    memcmp(dump, req->body, req->body_len) != 0)
			protocol_error("DescribeTasks body is not jansson's compact encoding");
		free(dump);
	}

	if (F.throttle > 0) {
		F.throttle--;
		reply(resp, 400, "", xstrdup("{\"__type\":\"ThrottlingException\",\"message\":\"Rate exceeded\"}"));
	} else if (F.bad_json > 0) {
		F.bad_json--;
		reply(resp, 200, "", xstrdup("{\"taskArns\":[\"arn:aws:e"));
	} else if (F.missing_cluster && strcmp(op, "ListClusters") != 0) {
		reply(resp, 400, "", xstrdup("{\"__type\":\"ClusterNotFoundException\",\"message\":\"Cluster not found.\"}"));
	} else if (strcmp(op, "ListTasks") == 0 && F.deny_stopped &&
		   strcmp(json_string_value(json_object_get(body, "desiredStatus")), "STOPPED") == 0) {
		reply(resp, 400, "", xstrdup("{\"__type\":\"AccessDeniedException\",\"message\":\"no\"}"));
	} else if (strcmp(op, "ListTasks") == 0 && F.unavailable_running &&
		   strcmp(json_string_value(json_object_get(body, "desiredStatus")), "RUNNING") == 0) {
		reply(resp, 503, "", xstrdup("{\"__type\":\"ServiceUnavailableException\"}"));
	} else if (strcmp(op, "ListTasks") == 0 && F.starve_after) {
		/* a \u escape: the one-pass reader (ecs_scan.c) leaves the page to jansson,
		 * whose allocations then fail */
		F.list_calls++;
		reply(resp, 200, "", xstrdup("{\"taskArns\":[\"arn:aws:ecs:us-east-1:1:task/prod/t\\u0030\"]}"));
	} else if (strcmp(op, "ListTasks") == 0) {
		F.list_calls++;
		out = list_tasks(body);
		reply(resp, 200, "Content-Type: application/x-amz-json-1.1\r\n", out);
	} else if (strcmp(op, "DescribeTasks") == 0) {
		if (F.describe_calls == 0)
			F.list_at_describe = F.list_calls;
		F.describe_calls++;
		out = describe_tasks(body);
		reply(resp, 200, "", out);
	} else if (strcmp(op, "ListClusters") == 0) {
		const char *tok = json_string_value(json_object_get(body, "nextToken"));
		F.cluster_calls++;
		if (F.repeat_token && tok != NULL)
			reply(resp, 200, "", xasprintf("{\"clusterArns\":[\"arn:aws:ecs:us-east-1:1:cluster/batch\"],"
						       "\"nextToken\":\"%s\"}", tok));
		else if (tok == NULL)
			reply(resp, 200, "", xstrdup("{\"clusterArns\":[\"arn:aws:ecs:us-east-1:1:cluster/prod\",\"arn:aws:ecs:us-east-1:1:cluster/staging\"],\"nextToken\":\"x\"}"));
		else
			reply(resp, 200, "", xstrdup("{\"clusterArns\":[\"arn:aws:ecs:us-east-1:1:cluster/batch\"]}"));
	} else if (strcmp(op, "DescribeServices") == 0) {
		reply(resp, 200, "", xstrdup(
			"{\"services\":[{\"serviceName\":\"web\",\"serviceArn\":\"arn:s/web\",\"status\":\"ACTIVE\","
			"\"desiredCount\":5,\"runningCount\":3,\"pendingCount\":2,\"taskDefinition\":\"arn:td/web:3\","
			"\"deployments\":[{\"id\":\"ecs-svc/2\",\"status\":\"PRIMARY\",\"taskDefinition\":\"arn:td/web:3\","
			"\"desiredCount\":5,\"runningCount\":3,\"pendingCount\":2,\"createdAt\":1714557600.5,"
			"\"rolloutState\":\"IN_PROGRESS\"},{\"id\":\"ecs-svc/1\",\"status\":\"ACTIVE\","
			"\"taskDefinition\":\"arn:td/web:2\",\"desiredCount\":0,\"runningCount\":1,"
			"\"pendingCount\":0,\"createdAt\":1714500000}]}],\"failures\":[]}"));
	} else {
		reply(resp, 400, "", xstrdup("{\"__type\":\"UnknownOperationException\"}"));
	}
	json_decref(body);
	F.inflight--;
	if (F.starve_after)
		starving = true;
	pthread_mutex_unlock(&F.lock);
	return 0;
}

static int
fake_transport_new(void *arg, struct http_transport *out, struct err *err)
{
	out->send = fake_send;
	out->ctx = NULL;
	return 0;
}

static int
fake_creds(void *arg, struct aws_creds *out, struct err *err)
{
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

static char warnings[4096];
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;

static void
capture(enum log_level level, const char *line, void *ctx)
{
	pthread_mutex_lock(&warn_lock);
	size_t n = strlen(warnings);
	if (level <= LOG_WARN)
		snprintf(warnings + n, sizeof warnings - n, "%s\n", line);
	pthread_mutex_unlock(&warn_lock);
}

static struct log lg;   /* the clients' warnings to capture() */

static void
setup(void)
{
	fake_reset();
	warnings[0] = '\0';
	log_init(&lg, 0, capture, NULL);
}

static void
teardown(void)
{
	log_cleanup(&lg);
}

TestSuite(ecs, .init = setup, .fini = teardown);

static struct ecs_client *
client(long concurrency)
{
	struct ecs_client_options o = { 0 };
	struct ecs_client *c;
	struct err err;

	o.common.region = "us-east-1";
	o.endpoint = "https://ecs.example.test";
	o.concurrency = concurrency;
	o.common.creds = fake_creds;
	o.transport_new = fake_transport_new;
	o.common.clock = &no_wait;
	o.common.log = &lg;
	err_clear(&err);
	cr_assert_eq(ecs_client_new(&o, &c, &err), 0, "%s", err.msg);
	return c;
}

struct collected {
	char **arns;
	size_t n;
	int64_t fetched_at;
	pthread_t want_thread;       /* set: every callback must come on this thread */
	bool check_thread, wrong_thread;
};

static int
collect(void *arg, const char *json, size_t len, int64_t fetched_at_ms, struct err *err)
{
	struct collected *k = arg;
	json_t *t = json_loadb(json, len, 0, NULL);

	cr_assert(json_is_object(t), "callback got no JSON object: %.*s", (int)len, json);
	if (k->check_thread && !pthread_equal(pthread_self(), k->want_thread))
		k->wrong_thread = true;
	k->arns = xreallocarray(k->arns, k->n + 1, sizeof *k->arns);
	k->arns[k->n++] = xstrdup(json_string_value(json_object_get(t, "taskArn")));
	/* the task is handed over as ECS sent it, milliseconds intact */
	cr_expect(strstr(json, ".125") != NULL, "%.*s", (int)len, json);
	k->fetched_at = fetched_at_ms;
	json_decref(t);
	return 0;
}

static void
collected_free(struct collected *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->arns[i]);
	free(k->arns);
}

static void
check_all_once(struct collected *k, size_t n)
{
	cr_assert_eq(k->n, n);
	for (size_t i = 0; i < n; i++) {
		char *want = arn_of(i);
		cr_expect_str_eq(k->arns[i], want, "task %zu in ListTasks order", i);
		free(want);
	}
}

Test(ecs, pages_and_batches_with_one_request_at_a_time)
{
	struct ecs_client *c = client(1);
	struct ecs_query q = { .cluster = "prod", .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct err err;

	F.nrunning = 250;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), 0, "%s", err.msg);
	cr_expect(!F.bad_request, "%s", F.why);
	check_all_once(&k, 250);
	cr_expect_eq(F.list_calls, 3);
	cr_expect_eq(F.describe_calls, 3);
	cr_expect_eq(F.max_batch, 100);
	/* by id: the ARN's last part, a third of the request's bytes (issue 35) */
	cr_expect_eq(F.asked_by_arn, 0);
	cr_expect_eq(st.pages, 3);
	cr_expect_eq(st.listed, 250);
	cr_expect_eq(st.requests, 6);
	cr_expect_eq(F.max_inflight, 1);
	collected_free(&k);
	ecs_client_free(c);
}

/* The chain of ListTasks pages is the only sequential part: a page's tasks are described
 * while the next pages are asked, not once the chain is over (issue 35). */
Test(ecs, describing_starts_from_the_first_pages)
{
	struct ecs_client *c = client(4);
	struct ecs_query q = { .cluster = "prod", .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct err err;

	F.nrunning = 3000;   /* 30 pages of 2 ms each at least */
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), 0, "%s", err.msg);
	cr_expect(!F.bad_request, "%s", F.why);
	check_all_once(&k, 3000);
	cr_expect_eq(F.list_calls, 30);
	cr_expect_eq(F.describe_calls, 30);
	/* the first batch goes out beside the second page, as a rule; half the chain is the
	 * margin a loaded machine's scheduling gets */
	cr_expect_leq(F.list_at_describe, 15, "the first DescribeTasks came after %zu of 30 "
		      "pages", F.list_at_describe);
	collected_free(&k);
	ecs_client_free(c);
}

Test(ecs, running_and_stopped_in_parallel_without_duplicates)
{
	struct ecs_client *c = client(4);
	struct ecs_query q = { .cluster = "prod", .running = true, .stopped = true,
			       .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct err err;

	F.nrunning = 1000;
	F.nstopped = 230;
	F.overlap = 30;   /* tasks that stopped between the two ListTasks chains */
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), 0, "%s", err.msg);
	cr_expect(!F.bad_request, "%s", F.why);
	cr_expect_eq(k.n, 1230);
	cr_expect_eq(st.listed, 1230);
	cr_expect_gt(F.max_inflight, 1, "requests should overlap");
	cr_expect_leq(F.max_inflight, 4);
	cr_expect_eq(F.max_batch, 100);
	cr_expect_eq(F.describe_calls, 13);
	/* each ARN exactly once */
	for (size_t i = 1; i < k.n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(k.arns[i], k.arns[j]) == 0)
				cr_assert_fail("duplicate %s", k.arns[i]);
	collected_free(&k);
	ecs_client_free(c);
}

Test(ecs, many_in_flight_keeps_list_order)
{
	struct ecs_client *c = client(8);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;

	F.nrunning = 777;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), 0, "%s", err.msg);
	check_all_once(&k, 777);
	collected_free(&k);
	ecs_client_free(c);
}

Test(ecs, since_filters_on_created_at)
{
	struct ecs_client *c = client(2);
	/* task n was created at 1714557600.125 + n s: keep 150.. */
	struct ecs_query q = { .running = true, .since_ms = (1714557600LL + 150) * 1000 };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct err err;

	F.nrunning = 200;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(k.n, 50);
	cr_expect_eq(st.described, 200);
	cr_expect_eq(st.kept, 50);
	collected_free(&k);
	ecs_client_free(c);
}

Test(ecs, given_tasks_skip_list_tasks_and_failures_warn)
{
	struct ecs_client *c = client(2);
	const char *tasks[] = { "arn:aws:ecs:us-east-1:123456789012:task/prod/t00007",
				"arn:aws:ecs:us-east-1:123456789012:task/prod/gone1",
				"arn:aws:ecs:us-east-1:123456789012:task/prod/t00007" };
	struct ecs_query q = { .cluster = "prod", .tasks = tasks, .ntasks = 3,
			       .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct err err;

	F.nrunning = 10;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(F.list_calls, 0);
	cr_expect_eq(F.describe_calls, 1);
	cr_expect_eq(k.n, 1);
	cr_expect_eq(st.failures, 1);
	cr_expect(strstr(warnings, "gone1") != NULL && strstr(warnings, "MISSING") != NULL,
		  "warnings: %s", warnings);
	collected_free(&k);
	ecs_client_free(c);
}

Test(ecs, cluster_not_found_names_the_clusters)
{
	struct ecs_client *c = client(3);
	struct ecs_query q = { .cluster = "prdo", .running = true, .stopped = true,
			       .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;

	F.missing_cluster = true;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), -1);
	cr_expect_eq(err.code, ERR_AWS);
	cr_expect_str_eq(err.aws_type, "ClusterNotFoundException");
	cr_expect(strstr(err.msg, "'prdo'") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "clusters here are: prod, staging, batch") != NULL, "%s", err.msg);
	cr_expect_eq(k.n, 0);
	ecs_client_free(c);
}

Test(ecs, cut_short_answer_is_asked_again)
{
	struct ecs_client *c = client(1);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;

	F.nrunning = 5;
	F.bad_json = 1;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(k.n, 5);
	collected_free(&k);

	F.bad_json = 10;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), -1);
	cr_expect_eq(err.code, ERR_NETWORK);
	cr_expect(strstr(err.msg, "cut short") != NULL, "%s", err.msg);
	ecs_client_free(c);
}

Test(ecs, throttling_is_retried_then_reported)
{
	struct ecs_client *c = client(1);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct err err;

	F.nrunning = 5;
	F.throttle = 2;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(k.n, 5);
	cr_expect_eq(st.throttled, 2);
	collected_free(&k);

	memset(&k, 0, sizeof k);
	F.throttle = 3;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, &st, &err), -1);
	cr_expect_eq(err.code, ERR_THROTTLED);
	cr_expect(strstr(err.msg, "ThrottlingException: Rate exceeded (after 3 attempts)") != NULL,
		  "%s", err.msg);
	ecs_client_free(c);
}

Test(ecs, describe_services_keeps_deployments)
{
	struct ecs_client *c = client(1);
	const char *names[] = { "web" };
	struct ecs_service_list l;
	struct err err;

	err_clear(&err);
	cr_assert_eq(ecs_describe_services(c, "prod", names, 1, &l, &err), 0, "%s", err.msg);
	cr_assert_eq(l.n, 1);
	cr_expect_str_eq(l.v[0].name, "web");
	cr_expect_eq(l.v[0].desired, 5);
	cr_assert_eq(l.v[0].ndeployments, 2);
	cr_expect_str_eq(l.v[0].deployments[0].id, "ecs-svc/2");
	cr_expect_str_eq(l.v[0].deployments[0].status, "PRIMARY");
	cr_expect_str_eq(l.v[0].deployments[0].rollout_state, "IN_PROGRESS");
	cr_expect_eq(l.v[0].deployments[0].created_ms, 1714557600500);
	cr_expect_eq(l.v[0].deployments[0].pending, 2);
	cr_expect_eq(l.v[0].deployments[1].running, 1);
	cr_expect_null(l.v[0].deployments[1].rollout_state);
	ecs_service_list_cleanup(&l);
	ecs_client_free(c);
}

static void
expect_error(long status, const char *headers, const char *body, const char *op,
	     enum err_code ec, const char *code, const char *want)
{
	struct http_response r;
	struct err err;

	http_response_init(&r);
	r.status = status;
	r.headers = xstrdup(headers);
	buf_adds(&r.body, body);
	err_clear(&err);
	cr_assert_eq(ecs_error_from_response(op, &r, 1, &err), -1);
	cr_expect_eq(err.code, ec, "%s", err.msg);
	cr_expect_str_eq(err.aws_type, code);
	cr_expect_eq(err.http_status, status);
	cr_expect_str_eq(err.msg, want);
	cr_expect(strchr(err.msg, '\n') == NULL);
	http_response_cleanup(&r);
}

Test(ecs, errors_become_one_actionable_line)
{
	expect_error(400, "", "{\"__type\":\"AccessDeniedException\",\"Message\":\"User: "
		     "arn:aws:iam::1:user/x is not authorized to perform: ecs:DescribeTasks\"}",
		     "DescribeTasks", ERR_AWS, "AccessDeniedException",
		     "AccessDeniedException: User: arn:aws:iam::1:user/x is not authorized to "
		     "perform: ecs:DescribeTasks — grant ecs:DescribeTasks in the IAM policy of "
		     "these credentials");
	expect_error(400, "", "{\"__type\":\"com.amazon.coral.service#InvalidSignatureException\","
		     "\"message\":\"The request signature we calculated does not match\"}",
		     "ListTasks", ERR_CREDS, "InvalidSignatureException",
		     "InvalidSignatureException: The request signature we calculated does not "
		     "match — check the secret key and the clock");
	/* moto answers auth failures in the Query protocol's XML */
	expect_error(403, "Content-Type: text/xml\r\n",
		     "<?xml version=\"1.0\"?><ErrorResponse><Errors><Error><Type>Sender</Type>"
		     "<Code>SignatureDoesNotMatch</Code><Message>Check your AWS Secret Access Key "
		     "&amp; signing method.</Message></Error></Errors></ErrorResponse>",
		     "ListTasks", ERR_CREDS, "SignatureDoesNotMatch",
		     "SignatureDoesNotMatch: Check your AWS Secret Access Key & signing method. — "
		     "check the secret key and the clock");
	expect_error(400, "X-Amzn-ErrorType: ClusterNotFoundException:http://internal\r\n",
		     "{\"message\":\"Cluster not found.\"}", "ListTasks", ERR_AWS,
		     "ClusterNotFoundException",
		     "ClusterNotFoundException: Cluster not found. — check --cluster and --region");
	expect_error(502, "", "<html>\n<body>Bad Gateway</body></html>", "ListTasks", ERR_AWS, "",
		     "ListTasks: HTTP 502 with no AWS error code: <html> <body>Bad Gateway</body>"
		     "</html> — a failure on the AWS side; retry later");
	expect_error(400, "", "{\"__type\":\"UnrecognizedClientException\",\"message\":\"The "
		     "security token included in the request is invalid.\"}", "ListTasks",
		     ERR_CREDS, "UnrecognizedClientException",
		     "UnrecognizedClientException: The security token included in the request is "
		     "invalid. — the access key is unknown here; check AWS_ACCESS_KEY_ID / "
		     "--profile, the session token and --region");
}

/* The hint that names the clusters: for DescribeServices (watch --service) as for the
 * fetch. */
Test(ecs, describe_services_cluster_not_found_names_the_clusters)
{
	struct ecs_client *c = client(1);
	const char *names[] = { "web" };
	struct ecs_service_list l;
	struct err err;

	F.missing_cluster = true;
	err_clear(&err);
	cr_assert_eq(ecs_describe_services(c, "prdo", names, 1, &l, &err), -1);
	cr_expect_str_eq(err.aws_type, "ClusterNotFoundException");
	cr_expect(strstr(err.msg, "cluster 'prdo' not found in us-east-1") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "clusters here are: prod, staging, batch") != NULL, "%s", err.msg);
	cr_expect_eq(l.n, 0);
	ecs_client_free(c);
}

/* issue 10 item 2: a server that sends back the nextToken it was given would be paged
 * forever (1,327 requests in 30 s); ecsprof stops, as the AWS SDKs do, and says so */
Test(ecs, repeated_next_token_stops_list_tasks)
{
	struct ecs_client *c = client(1);
	struct ecs_query q = { .cluster = "prod", .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;

	F.nrunning = 250;
	F.repeat_token = true;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), 0, "%s", err.msg);
	/* page 1 (p100), page 2 asked with p100 answers p100 again: stop there */
	cr_expect_eq(F.list_calls, 2, "ListTasks asked %zu times", F.list_calls);
	cr_expect_eq(k.n, 200);
	cr_expect(strstr(warnings, "ListTasks: the server sent the same nextToken twice") != NULL,
		  "%s", warnings);
	collected_free(&k);
	ecs_client_free(c);
}

Test(ecs, repeated_next_token_stops_list_clusters)
{
	struct ecs_client *c = client(1);
	struct ecs_query q = { .cluster = "prdo", .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;

	F.missing_cluster = true;
	F.repeat_token = true;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), -1);
	cr_expect_str_eq(err.aws_type, "ClusterNotFoundException");
	cr_expect(F.cluster_calls <= 3, "ListClusters asked %zu times", F.cluster_calls);
	cr_expect(strstr(err.msg, "prod, staging, batch") != NULL, "%s", err.msg);
	cr_expect(strstr(warnings, "ListClusters: the server sent the same nextToken twice") != NULL,
		  "%s", warnings);
	ecs_client_free(c);
}

/* issue 10 item 4: answers are matched to requests. Tasks in a DescribeTasks answer that
 * were not asked for (the same id in another cluster, another account's) are dropped with
 * a warning; the tasks asked for are all kept, in order */
Test(ecs, described_tasks_not_asked_for_are_dropped)
{
	struct ecs_client *c = client(2);
	struct ecs_query q = { .cluster = "prod", .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;

	F.nrunning = 150;
	F.unasked = true;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), 0, "%s", err.msg);
	check_all_once(&k, 150);
	cr_expect(strstr(warnings, "task/staging/t00000, which was not asked for") != NULL,
		  "%s", warnings);
	cr_expect(strstr(warnings, "999999999999:task/prod/x99999, which was not asked for") != NULL,
		  "%s", warnings);
	collected_free(&k);
	ecs_client_free(c);
}

static void
real_sleep(int64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static struct ecs_client *
client_attempts(long concurrency, int attempts)
{
	struct ecs_client_options o = { 0 };
	struct ecs_client *c;
	struct err err;

	o.common.region = "us-east-1";
	o.endpoint = "https://ecs.example.test";
	o.concurrency = concurrency;
	o.common.max_attempts = attempts;
	o.common.creds = fake_creds;
	o.transport_new = fake_transport_new;
	o.common.clock = &timeutil_clock_real;   /* these time real backoff */
	err_clear(&err);
	cr_assert_eq(ecs_client_new(&o, &c, &err), 0, "%s", err.msg);
	return c;
}

/* One chain fails at once while the other retries a 503 with real backoff (10 attempts:
 * about 25 s on average): the failure must end the fetch without waiting for them. */
Test(ecs, a_failure_cancels_the_retries_in_flight)
{
	struct ecs_client *c = client_attempts(2, 10);
	struct ecs_query q = { .running = true, .stopped = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct err err;
	int64_t t0;

	F.deny_stopped = true;
	F.unavailable_running = true;
	err_clear(&err);
	t0 = timeutil_now_ms();
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), -1);
	cr_expect_str_eq(err.aws_type, "AccessDeniedException", "%s", err.msg);
	cr_expect_lt(timeutil_now_ms() - t0, 2000, "the retries of the other chain ran on");
	ecs_client_free(c);
}

struct counted_clock {
	int64_t now;
	int reads;
	int64_t slept;
};

static int64_t
counted_now(void *ctx)
{
	struct counted_clock *k = ctx;
	__atomic_add_fetch(&k->reads, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&k->now, __ATOMIC_SEQ_CST);
}

static void
counted_sleep(void *ctx, int64_t ms)
{
	struct counted_clock *k = ctx;
	cr_assert_geq(ms, 0);
	__atomic_add_fetch(&k->slept, ms, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&k->now, ms, __ATOMIC_SEQ_CST);
}

/* The client signs by and waits on the clock its options give, not a process-wide one
 * (the backoff is full jitter and may be 0 ms: what is checked is the signing time). */
Test(ecs, retries_wait_on_the_clock_passed_in)
{
	struct counted_clock k = { .now = 1700000000000 };
	const struct timeutil_clock clock = { counted_now, counted_sleep, &k };
	struct ecs_client_options o = { 0 };
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected got = { 0 };
	struct ecs_client *c;
	struct err err;

	o.common.region = "us-east-1";
	o.endpoint = "https://ecs.example.test";
	o.concurrency = 1;
	o.common.max_attempts = 3;
	o.common.creds = fake_creds;
	o.transport_new = fake_transport_new;
	o.common.clock = &clock;
	err_clear(&err);
	cr_assert_eq(ecs_client_new(&o, &c, &err), 0, "%s", err.msg);
	F.unavailable_running = true;
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &got, NULL, &err), -1);
	cr_expect_eq(ecs_client_requests(c), 3);
	cr_expect_geq(__atomic_load_n(&k.reads, __ATOMIC_SEQ_CST), 3);
	cr_expect_str_eq(F.last_date, "20231114T221320Z", "signed by the clock passed in");
	collected_free(&got);
	ecs_client_free(c);
}

static volatile sig_atomic_t interrupted;

static void *
interrupt_later(void *arg)
{
	(void)arg;
	real_sleep(200);
	interrupted = 1;
	return NULL;
}

/* Ctrl-C (watch's SIGINT flag) stops a fetch stuck in retries. */
Test(ecs, interrupt_flag_stops_the_fetch)
{
	struct ecs_client *c = client_attempts(2, 10);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE, .interrupt = &interrupted };
	struct collected k = { 0 };
	struct err err;
	pthread_t th;
	int64_t t0;

	F.unavailable_running = true;
	interrupted = 0;
	err_clear(&err);
	t0 = timeutil_now_ms();
	cr_assert_eq(pthread_create(&th, NULL, interrupt_later, NULL), 0);
	cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), -1);
	pthread_join(th, NULL);
	cr_expect_str_eq(err.aws_type, HTTP_CANCELLED, "%s", err.msg);
	cr_expect_lt(timeutil_now_ms() - t0, 2000, "the interrupt was not seen");
	ecs_client_free(c);
}

/* Tasks reach the callback on the polling thread, in ListTasks order, and progress can be
 * read while the fetch runs. */
Test(ecs, poll_delivers_on_the_calling_thread_with_progress)
{
	struct ecs_client *c = client(4);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st = { 0 };
	struct ecs_fetch *f;
	struct err err;
	int rc, polls = 0;

	F.nrunning = 450;
	k.check_thread = true;
	k.want_thread = pthread_self();
	err_clear(&err);
	cr_assert_eq(ecs_fetch_start(c, &q, &f, &err), 0, "%s", err.msg);
	while ((rc = ecs_fetch_poll(f, 5, collect, &k, &err)) == 1) {
		ecs_fetch_progress(f, &st);
		cr_expect_leq(st.kept, st.described);
		cr_expect_leq(st.described, st.listed);
		polls++;
	}
	cr_assert_eq(rc, 0, "%s", err.msg);
	ecs_fetch_progress(f, &st);
	cr_expect(st.listed_all, "listing is over: listed is the total");
	ecs_fetch_free(f);
	cr_expect(!k.wrong_thread, "a task was handed over on a worker thread");
	cr_expect_gt(polls, 0);
	cr_expect_eq(st.pages, 5);
	cr_expect_eq(st.kept, 450);
	check_all_once(&k, 450);
	collected_free(&k);
	ecs_client_free(c);
}

/* The TUI's q during a fetch stuck in retries (10 attempts with real backoff): cancelled
 * from the polling thread, the next poll fails at once and the workers are joined within
 * a second, not after their retries. */
Test(ecs, cancel_from_the_polling_thread_is_prompt)
{
	struct ecs_client *c = client_attempts(2, 10);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct ecs_fetch *f;
	struct err err;
	int64_t t0;
	int rc, polls = 0;

	F.unavailable_running = true;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_start(c, &q, &f, &err), 0, "%s", err.msg);
	while ((rc = ecs_fetch_poll(f, 50, collect, &k, &err)) == 1 && ++polls < 6)
		;
	cr_assert_eq(rc, 1, "the fetch should still be retrying: %s", err.msg);
	ecs_fetch_progress(f, &st);
	cr_expect(!st.listed_all, "ListTasks is not done yet");
	t0 = timeutil_now_ms();
	ecs_fetch_cancel(f);
	cr_expect_eq(ecs_fetch_poll(f, 1000, collect, &k, &err), -1);
	cr_expect_str_eq(err.aws_type, HTTP_CANCELLED, "%s", err.msg);
	ecs_fetch_free(f);
	cr_expect_lt(timeutil_now_ms() - t0, 1000, "cancel waited for the retries");
	collected_free(&k);
	ecs_client_free(c);
}

static int
no_creds(void *arg, struct aws_creds *out, struct err *err)
{
	(void)arg, (void)out;
	return err_set(err, ERR_CREDS, "no credentials here");
}

/* A fetch that fails before ecs_fetch_start() returns (workers race the start) still
 * reports its own error. */
Test(ecs, an_immediate_failure_is_reported_as_itself)
{
	struct ecs_client_options o = { 0 };
	struct ecs_query q = { .running = true, .stopped = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	struct ecs_client *c;
	struct err err;

	o.common.region = "us-east-1";
	o.endpoint = "https://ecs.example.test";
	o.concurrency = 8;
	o.common.creds = no_creds;
	o.transport_new = fake_transport_new;
	o.common.clock = &no_wait;
	o.common.log = &lg;
	err_clear(&err);
	cr_assert_eq(ecs_client_new(&o, &c, &err), 0, "%s", err.msg);
	for (int i = 0; i < 50; i++) {
		err_clear(&err);
		cr_assert_eq(ecs_fetch_tasks(c, &q, collect, &k, NULL, &err), -1);
		cr_assert(strstr(err.msg, "no credentials here") != NULL, "run %d: %s", i, err.msg);
	}
	cr_expect_eq(F.requests, 0);
	ecs_client_free(c);
}

/* issue 10 item 10: timeutil reads any year; a service's or deployment's time before 1970
 * is no ECS time (epoch seconds refuse it too) */
Test(ecs, json_time_before_1970_is_none)
{
	json_t *o = json_pack("{s:s, s:s, s:f, s:f}", "a", "1969-12-31T23:59:59Z", "b",
	    "1970-01-01T00:00:01Z", "c", -1.0, "d", 1.5e9);

	cr_expect_eq(ecs_json_time(o, "a"), TS_NONE);
	cr_expect_eq(ecs_json_time(o, "b"), 1000);
	cr_expect_eq(ecs_json_time(o, "c"), TS_NONE);
	cr_expect_eq(ecs_json_time(o, "d"), 1500000000000LL);
	json_decref(o);
}

/* issue 10 item 10: jansson out of memory on an answer was "cut short or is not JSON"
 * after asking twice more */
static void *
starving_malloc(size_t n)
{
	return starving ? NULL : malloc(n);
}

Test(ecs, out_of_memory_on_an_answer_is_said_and_not_asked_again)
{
	struct ecs_client *c = client(1);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct collected k = { 0 };
	json_malloc_t m;
	json_free_t f;
	struct err err;
	int rc;

	F.nrunning = 5;
	F.starve_after = true;
	err_clear(&err);
	json_get_alloc_funcs(&m, &f);
	json_set_alloc_funcs(starving_malloc, free);
	rc = ecs_fetch_tasks(c, &q, collect, &k, NULL, &err);
	json_set_alloc_funcs(m, f);
	starving = false;
	cr_assert_eq(rc, -1);
	cr_expect_eq(err.code, ERR_INTERNAL);
	cr_expect(strstr(err.msg, "ListTasks: out of memory parsing the answer") != NULL, "%s", err.msg);
	cr_expect_eq(F.requests, 1, "asked %zu times", F.requests);
	collected_free(&k);
	ecs_client_free(c);
}

/* q.services_out: DescribeServices is asked by the fetch's threads, first, while
 * ecs_fetch_start() has returned (the TUI's screen does not wait for it); the tasks are
 * listed only once it is answered, and its requests are the fetch's. */
Test(ecs, describe_services_behind_the_fetch_and_before_the_tasks)
{
	struct ecs_client *c = client(2);
	const char *names[] = { "web" };
	struct ecs_service_list l = { 0 };
	struct ecs_query q = { .running = true, .since_ms = TS_NONE, .cluster = "prod",
			       .services_out = &l, .describe_services = names,
			       .ndescribe_services = 1 };
	struct collected k = { 0 };
	struct ecs_fetch_stats st;
	struct ecs_fetch *f;
	struct err err;
	int rc;

	F.nrunning = 150;
	F.hold_services = true;
	err_clear(&err);
	cr_assert_eq(ecs_fetch_start(c, &q, &f, &err), 0, "%s", err.msg);
	/* returned while DescribeServices is held: nothing else asked meanwhile */
	cr_expect_eq(ecs_fetch_poll(f, 50, collect, &k, &err), 1);
	pthread_mutex_lock(&F.lock);
	cr_expect_eq(F.list_calls, 0, "ListTasks asked before DescribeServices was answered");
	pthread_mutex_unlock(&F.lock);
	F.release = true;
	while ((rc = ecs_fetch_poll(f, 1000, collect, &k, &err)) == 1)
		;
	cr_assert_eq(rc, 0, "%s", err.msg);
	ecs_fetch_progress(f, &st);
	ecs_fetch_free(f);
	cr_expect_str_eq(F.first_op, "DescribeServices");
	cr_expect_eq(k.n, 150);
	cr_assert_eq(l.n, 1);
	cr_expect_str_eq(l.v[0].name, "web");
	cr_expect_eq(st.requests, F.requests, "the fetch counts DescribeServices too");
	ecs_service_list_cleanup(&l);
	collected_free(&k);
	ecs_client_free(c);
}

/* ecs_task_was_asked_at gives ecs_task_was_asked's answer for every hint, ARN and mix of
 * ARNs and ids asked (the hint only saves the search), and moves the hint past an ARN
 * found at it */
Test(ecs, asked_at_hint_agrees_with_the_search)
{
	char *asked[] = { "arn:aws:ecs:us-east-1:1:task/c/a1", "b2",
		"arn:aws:ecs:us-east-1:1:task/c/c3", "arn:aws:ecs:us-east-1:1:task/d/d4", "e5" };
	const char *arns[] = { "arn:aws:ecs:us-east-1:1:task/c/a1", "arn:aws:ecs:us-east-1:1:task/c/b2",
		"arn:aws:ecs:us-east-1:1:task/x/b2", "arn:aws:ecs:us-east-1:1:task/c/c3",
		"arn:aws:ecs:us-east-1:1:task/d/d4", "arn:aws:ecs:us-east-1:1:task/e5",
		"arn:aws:ecs:us-east-1:1:task/c/zz", "c3", NULL };
	size_t n = sizeof asked / sizeof asked[0];

	for (size_t k = 0; k <= n; k++)
		for (size_t h = 0; h <= n + 1; h++)
			for (size_t a = 0; a < sizeof arns / sizeof arns[0]; a++) {
				size_t hint = h;
				bool want = ecs_task_was_asked(asked, k, "c", arns[a]);

				cr_assert_eq(ecs_task_was_asked_at(asked, k, "c", arns[a], &hint), want,
				    "k %zu hint %zu arn %s", k, h, arns[a] ? arns[a] : "(null)");
				if (h < k && arns[a] != NULL && strcmp(asked[h], arns[a]) == 0)
					cr_assert_eq(hint, h + 1);
				else
					cr_assert_eq(hint, h);
			}
}

static uint64_t dump_rng = 0x9E3779B97F4A7C15ULL;

static unsigned
dump_next(unsigned n)
{
	dump_rng ^= dump_rng << 13;
	dump_rng ^= dump_rng >> 7;
	dump_rng ^= dump_rng << 17;
	return (unsigned)(dump_rng % n);
}

/* a random value: plain and escaped strings, keys, integers, reals, literals, nesting */
static json_t *
dump_random(int depth)
{
	static const char *strs[] = { "", "bench", "arn:aws:ecs:us-east-1:1:task/c/x", "a/b",
		"q\"uote", "back\\slash", "tab\t", "del\x7f", "caf\xc3\xa9", "~ !", "TAGS" };
	unsigned k = dump_next(depth > 3 ? 6 : 8);
	json_t *v;

	switch (k) {
	case 0: return json_string(strs[dump_next(sizeof strs / sizeof strs[0])]);
	case 1: return json_integer((json_int_t)dump_rng >> dump_next(64));
	case 2: return dump_next(4) == 0 ? json_real(1.5) : json_integer(-(json_int_t)dump_next(1000));
	case 3: return json_true();
	case 4: return json_false();
	case 5: return json_null();
	case 6:
		v = json_array();
		for (unsigned i = dump_next(5); i > 0; i--)
			json_array_append_new(v, dump_random(depth + 1));
		return v;
	default:
		v = json_object();
		for (unsigned i = dump_next(5); i > 0; i--)
			json_object_set_new(v, strs[dump_next(sizeof strs / sizeof strs[0])],
			    dump_random(depth + 1));
		return v;
	}
}

/* the request bodies written without jansson's dump are json_dumps(JSON_COMPACT)'s text
 * byte for byte, and anything else falls back to it */
Test(ecs, request_body_dump_is_json_dumps)
{
	json_t *req = json_pack("{s:s, s:[s, s], s:[s]}", "cluster", "bench", "tasks",
	    "arn:aws:ecs:us-east-1:1:task/bench/a", "b", "include", "TAGS");
	char *want = json_dumps(req, JSON_COMPACT), *got = awsjson_dump_compact(req);

	cr_assert_str_eq(got, want);
	free(want);
	free(got);
	json_decref(req);
	for (int i = 0; i < 20000; i++) {
		json_t *v = dump_next(2) ? json_object() : json_array();

		for (unsigned j = dump_next(6); j > 0; j--) {
			if (json_is_object(v))
				json_object_set_new(v, dump_next(2) ? "k" : "tasks", dump_random(1));
			else
				json_array_append_new(v, dump_random(1));
		}
		want = json_dumps(v, JSON_COMPACT);
		got = awsjson_dump_compact(v);
		cr_assert_str_eq(got, want);
		free(want);
		free(got);
		json_decref(v);
	}
	req = json_string("top-level string");
	cr_assert_null(awsjson_dump_compact(req));   /* json_dumps refuses it too */
	json_decref(req);
}
