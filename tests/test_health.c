/* health: healthy_at from task metadata v4 Containers[].Health, and from successive polls. */
#include <criterion/criterion.h>
#include <string.h>

#include "ecsprof/health.h"
#include "ecsprof/input.h"
#include "ecsprof/phase.h"
#include "ecsprof/timeutil.h"

static const char META[] =
	"{\"Cluster\":\"prod\",\"TaskARN\":\"arn:aws:ecs:us-east-1:111122223333:task/prod/abc\","
	"\"Family\":\"web\",\"Revision\":\"3\",\"KnownStatus\":\"RUNNING\","
	"\"PullStartedAt\":\"2024-05-01T10:00:10.000Z\",\"StartedAt\":\"2024-05-01T10:00:20.000Z\","
	"\"Containers\":[{\"Name\":\"app\",\"Image\":\"web:1\",\"KnownStatus\":\"RUNNING\","
	"\"Health\":{\"status\":\"HEALTHY\",\"statusSince\":\"2024-05-01T10:00:31.250Z\"},"
	"\"Networks\":[{\"NetworkMode\":\"awsvpc\",\"IPv4Addresses\":[\"10.0.0.5\"]}]},"
	"{\"Name\":\"sidecar\",\"Image\":\"envoy\",\"KnownStatus\":\"RUNNING\","
	"\"Health\":{\"status\":\"HEALTHY\",\"statusSince\":\"2024-05-01T10:00:28.000Z\"}},"
	"{\"Name\":\"log\",\"Image\":\"fluentbit\",\"KnownStatus\":\"RUNNING\"}]}";

Test(health, metadata_takes_the_last_healthy_container)
{
	struct task_set s;
	struct err err;
	int64_t want;

	task_set_init(&s);
	cr_assert_eq(input_read_mem("meta.json", META, strlen(META), &s,
				    &(struct input_stats){ 0 }, &err), 0, "%s", err.msg);
	cr_assert_eq(s.len, 1);
	timeutil_parse_iso8601("2024-05-01T10:00:31.250Z", &want);
	cr_expect_eq(task_ts(&s.tasks[0], TS_HEALTHY), want);
	cr_expect(!s.tasks[0].healthy_observed);
	cr_expect_eq(phase_ms(&s.tasks[0], PHASE_READY), 11250);
	cr_expect_eq(s.tasks[0].awsvpc, TRI_YES);
	task_set_cleanup(&s);
}

Test(health, one_unhealthy_container_means_not_yet)
{
	struct task t;
	struct container c[2];
	struct container_profile p[2] = { { .health_status = "HEALTHY" },
					   { .health_status = "UNHEALTHY" } };

	memset(c, 0, sizeof c);
	task_init(&t);
	t.containers = c;
	t.ncontainers = 2;
	c[0].prof = &p[0];
	c[1].prof = &p[1];
	c[0].has_health_since = true;
	c[0].health_since_ms = 5000;
	c[1].has_health_since = true;
	c[1].health_since_ms = 4000;
	health_from_containers(&t);
	cr_expect_eq(task_ts(&t, TS_HEALTHY), TS_NONE);
	c[1].essential = TRI_NO;   /* a non-essential container does not count */
	health_from_containers(&t);
	cr_expect_eq(task_ts(&t, TS_HEALTHY), 5000);
}

static void
add(struct task_set *s, const char *arn, const char *health, int64_t created, int64_t started,
    int64_t fetched)
{
	struct task t;

	task_init(&t);
	task_set_arn(&t, arn, strlen(arn));
	task_str(&t, &task_edit_profile(&t)->health_status, health);
	task_set_ts(&t, TS_CREATED, created);
	task_set_ts(&t, TS_STARTED, started);
	task_set_ts(&t, TS_FETCHED, fetched);
	task_set_take(s, &t);
}

Test(health, polls_observe_the_change)
{
	struct task_set p1, p2, p3;

	task_set_init(&p1);
	task_set_init(&p2);
	task_set_init(&p3);
	add(&p1, "arn:a", "UNHEALTHY", 0, 1000, 10000);
	add(&p1, "arn:b", "HEALTHY", 0, 1000, 10000);     /* healthy before we looked */
	health_observe(&p1, NULL, TS_NONE, 10000);
	cr_expect_eq(task_ts(&p1.tasks[0], TS_HEALTHY), TS_NONE);
	cr_expect_eq(task_ts(&p1.tasks[1], TS_HEALTHY), TS_NONE, "not known since when");
	add(&p2, "arn:a", "HEALTHY", 0, 1000, 15000);
	add(&p2, "arn:b", "HEALTHY", 0, 1000, 15000);
	add(&p2, "arn:c", "HEALTHY", 12000, 13000, 15000);  /* created since the last poll */
	health_observe(&p2, &p1, 10000, 15000);
	cr_expect_eq(task_ts(&p2.tasks[0], TS_HEALTHY), 15000);
	cr_expect(p2.tasks[0].healthy_observed);
	cr_expect_eq(p2.tasks[0].healthy_resolution_ms, 5000);
	cr_expect_eq(task_ts(&p2.tasks[1], TS_HEALTHY), TS_NONE);
	cr_expect_eq(task_ts(&p2.tasks[2], TS_HEALTHY), 15000);
	cr_expect_eq(p2.tasks[2].healthy_resolution_ms, 2000, "no earlier than startedAt");
	add(&p3, "arn:a", "HEALTHY", 0, 1000, 20000);
	health_observe(&p3, &p2, 15000, 20000);
	cr_expect_eq(task_ts(&p3.tasks[0], TS_HEALTHY), 15000, "the first poll that saw it stays");
	task_set_cleanup(&p1);
	task_set_cleanup(&p2);
	task_set_cleanup(&p3);
}
