/* input_deploy: deployments and service events from bytes as a file or a live answer holds
 * them; names and lines in what it says about bad input. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/log.h"
#include "ecsprof/xalloc.h"

static char warned[512];
static int nwarned;

static void
keep_warning(void *ctx, const char *line)
{
	(void)ctx;
	snprintf(warned, sizeof warned, "%s", line);
	nwarned++;
}

/* the deployment reader warns through log.c: its sink sees the lines */
static void
log_keep(enum log_level level, const char *line, void *ctx)
{
	if (level == LOG_WARN)
		keep_warning(ctx, line);
}

static struct log lg;   /* the reader's warnings to log_keep() */

static void
setup(void)
{
	warned[0] = '\0';
	nwarned = 0;
	log_init(&lg, 0, log_keep, NULL);
}

static void
teardown(void)
{
	log_cleanup(&lg);
}

TestSuite(input_deploy, .init = setup, .fini = teardown);

#define DEP "{\"ecsprof\":\"1\",\"service\":\"web\",\"deployment\":{\"id\":\"ecs-svc/1\"," \
	"\"createdAt\":\"2026-11-30T14:00:00Z\",\"desiredCount\":3}}\n"
#define EV "{\"ecsprof\":\"1\",\"service\":\"web\",\"event\":{\"id\":\"e1\"," \
	"\"createdAt\":\"2026-11-30T14:01:00Z\",\"message\":\"(service web) has reached a steady state.\"}}\n"
#define EV_NO_TIME "{\"ecsprof\":\"1\",\"service\":\"web\",\"event\":{\"id\":\"e2\"," \
	"\"message\":\"(service web) has started 3 tasks.\"}}\n"

Test(input_deploy, json_lines_of_a_recording)
{
	const char *text = DEP EV;
	struct deploy_set s;
	struct err err = { 0 };

	deploy_set_init(&s);
	cr_assert_eq(input_deploy_read_mem(&lg, "rec.jsonl", text, strlen(text), &s, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(s.n, 1);
	cr_expect_str_eq(s.v[0].id, "ecs-svc/1");
	cr_expect_eq(s.v[0].desired, 3);
	cr_assert_eq(s.nev, 1);
	cr_expect_eq(nwarned, 0, "%s", warned);
	deploy_set_cleanup(&s);
}

Test(input_deploy, what_is_left_out_is_said_with_the_name_and_line)
{
	const char *text = DEP EV_NO_TIME EV;
	struct deploy_set s;
	struct err err = { 0 };

	deploy_set_init(&s);
	cr_assert_eq(input_deploy_read_mem(&lg, "rec.jsonl", text, strlen(text), &s, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(s.nev, 1, "the event without a time is left out");
	cr_expect_eq(nwarned, 1);
	cr_expect_str_eq(warned, "rec.jsonl:2: 1 deployment or service event without an id, "
			 "a time or a message left out");
	deploy_set_cleanup(&s);
}

Test(input_deploy, bytes_without_json_fail_with_the_name)
{
	const char *text = "<html>502 Bad Gateway</html>\n";
	struct deploy_set s;
	struct err err = { 0 };

	deploy_set_init(&s);
	cr_expect_eq(input_deploy_read_mem(&lg, "DescribeServices", text, strlen(text), &s, &err), -1);
	cr_expect_eq(strncmp(err.msg, "DescribeServices:1:", 19), 0, "%s", err.msg);
	cr_expect_neq(strstr(err.msg, "malformed JSON"), NULL, "%s", err.msg);
	cr_expect_eq(s.n, 0);
	deploy_set_cleanup(&s);
}

Test(input_deploy, read_file_reads_the_whole_file)
{
	struct deploy_set s;
	struct err err = { 0 };

	deploy_set_init(&s);
	cr_assert_eq(input_deploy_read_file(&lg, FIXTURE_DIR "/deploy/describe-services.json", &s, &err),
		     0, "%s", err.msg);
	cr_expect_eq(s.n, 2);
	cr_expect_eq(s.nev, 4);
	cr_expect_eq(input_deploy_read_file(&lg, FIXTURE_DIR "/deploy/nope.json", &s, &err), -1);
	cr_expect_neq(strstr(err.msg, "nope.json: cannot open"), NULL, "%s", err.msg);
	deploy_set_cleanup(&s);
}

/* issue 10 item 10: an event "created" before 1970 has no ECS time: left out as one
 * without a time (timeutil itself reads 1969) */
Test(input_deploy, event_before_1970_has_no_time)
{
	const char *text = DEP "{\"ecsprof\":\"1\",\"service\":\"web\",\"event\":{\"id\":\"e3\","
	    "\"createdAt\":\"1969-12-31T23:00:00Z\",\"message\":\"(service web) has started 3 tasks.\"}}\n" EV;
	struct deploy_set s;
	struct err err = { 0 };

	deploy_set_init(&s);
	cr_assert_eq(input_deploy_read_mem(&lg, "rec.jsonl", text, strlen(text), &s, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(s.nev, 1, "the event of 1969 is left out");
	cr_expect_eq(nwarned, 1);
	cr_expect_neq(strstr(warned, "rec.jsonl:2: 1 deployment or service event without an id, "
	    "a time or a message left out"), NULL, "%s", warned);
	deploy_set_cleanup(&s);
}

/* issue 10: a bad fetched_at in a recording's deployment or event line was left out
 * without a word; as in a task line (55a496a) it is left out with a warning naming the
 * line, and the line is kept */
Test(input_deploy, bad_fetched_at_is_left_out_with_a_warning)
{
	const char *text =
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"soon\",\"service\":\"web\","
	    "\"deployment\":{\"id\":\"ecs-svc/1\",\"desiredCount\":3}}\n"
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-11-30T14:02:00Z\",\"service\":"
	    "\"web\",\"deployment\":{\"id\":\"ecs-svc/2\",\"desiredCount\":1}}\n"
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"0x6631f8a0\",\"service\":\"web\","
	    "\"event\":{\"id\":\"e1\",\"createdAt\":\"2026-11-30T14:01:00Z\",\"message\":"
	    "\"(service web) has reached a steady state.\"}}\n";
	struct deploy_set s;
	struct err err = { 0 };

	deploy_set_init(&s);
	cr_assert_eq(input_deploy_read_mem(&lg, "rec.jsonl", text, strlen(text), &s, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(s.n, 2, "both deployments kept");
	cr_expect_eq(s.v[0].seen_ms, TS_NONE);
	cr_expect_eq(s.v[0].desired, 3);
	cr_expect_eq(s.v[1].seen_ms, 1796047320000LL);
	cr_expect_eq(s.nev, 1, "the event kept");
	cr_expect_eq(nwarned, 2);
	cr_expect_str_eq(warned, "rec.jsonl:3: service event of service \"web\", id \"e1\": "
	    "ignored fetched_at: expected a time (ISO 8601 or epoch seconds), got \"0x6631f8a0\"");
	deploy_set_cleanup(&s);
}

/* issue 10 item 11: report --deployments read a large document as one DOM (about 8x its
 * size) to find its deployments; a top-level array is read an element at a time, and a
 * DescribeTasks answer (no deployments in it) is not built at all: jansson's live memory
 * stays a small fraction of the text */
static size_t live_bytes, peak_bytes;

static void *
counting_malloc(size_t n)
{
	size_t *p = malloc(n + 16);

	if (p == NULL)
		return NULL;
	p[0] = n;
	live_bytes += n;
	if (live_bytes > peak_bytes)
		peak_bytes = live_bytes;
	return (char *)p + 16;
}

static void
counting_free(void *q)
{
	size_t *p;

	if (q == NULL)
		return;
	p = (size_t *)(void *)((char *)q - 16);
	live_bytes -= p[0];
	free(p);
}

static size_t
peak_reading(const char *name, const char *text, size_t len, struct deploy_set *s)
{
	json_malloc_t m;
	json_free_t f;
	struct err err = { 0 };

	json_get_alloc_funcs(&m, &f);
	live_bytes = peak_bytes = 0;
	json_set_alloc_funcs(counting_malloc, counting_free);
	cr_expect_eq(input_deploy_read_mem(&lg, name, text, len, s, &err), 0, "%s", err.msg);
	json_set_alloc_funcs(m, f);
	return peak_bytes;
}

Test(input_deploy, a_large_document_is_not_one_dom)
{
	struct buf b;
	struct deploy_set s;
	size_t peak;

	buf_init(&b, 0);
	buf_adds(&b, "[\n");
	for (int i = 0; i < 6000; i++)
		buf_addf(&b, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/%032d\",\"group\":"
		    "\"service:web\",\"createdAt\":\"2026-11-30T14:00:00Z\",\"startedBy\":"
		    "\"ecs-svc/1\",\"lastStatus\":\"RUNNING\",\"version\":3},\n", i);
	buf_adds(&b, "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-11-30T14:02:00Z\","
	    "\"service\":\"web\",\"deployment\":{\"id\":\"ecs-svc/1\",\"desiredCount\":3}},\n"
	    "{\"detail-type\":\"ECS Deployment State Change\",\"resources\":[\"arn:aws:ecs:"
	    "us-east-1:1:service/c/web\"],\"detail\":{\"eventName\":"
	    "\"SERVICE_DEPLOYMENT_COMPLETED\",\"deploymentId\":\"ecs-svc/1\",\"updatedAt\":"
	    "\"2026-11-30T14:05:00Z\"}}]\n");
	cr_assert_gt(b.len, (size_t)1 << 20);
	deploy_set_init(&s);
	peak = peak_reading("big.json", b.data, b.len, &s);
	cr_expect_lt(peak, b.len / 8, "jansson held %zu bytes for %zu of text", peak, b.len);
	cr_assert_eq(s.n, 1);
	cr_expect_str_eq(s.v[0].rollout_state, "COMPLETED");
	cr_expect_eq(s.v[0].desired, 3);
	deploy_set_cleanup(&s);
	/* a DescribeTasks answer: nothing to build */
	b.data[0] = ' ';
	b.data[b.len - 2] = ' ';
	{
		char *doc = xasprintf("{\"tasks\":[%s],\"failures\":[]}", b.data);

		deploy_set_init(&s);
		peak = peak_reading("tasks.json", doc, strlen(doc), &s);
		cr_expect_lt(peak, (size_t)4096, "jansson held %zu bytes", peak);
		deploy_set_cleanup(&s);
		free(doc);
	}
	buf_cleanup(&b);
}
