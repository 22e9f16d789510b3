#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"

static struct task
mk(const char *arn, long long version, int64_t created, int64_t started)
{
	struct task t;

	task_init(&t);
	t.arn = xstrdup(arn);
	if (version >= 0) {
		t.has_version = true;
		t.version = version;
	}
	t.ts[TS_CREATED] = created;
	t.ts[TS_STARTED] = started;
	return t;
}

Test(task, derive_new_arn_format)
{
	struct task t = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/0f1e2d3c4b5a69788796a5b4c3d2e1f0", 1, 0, 0);

	t.taskdef_arn = xstrdup("arn:aws:ecs:us-east-1:123456789012:task-definition/checkout-api:8");
	t.group = xstrdup("service:checkout-api");
	task_derive(&t);
	cr_expect_str_eq(t.id, "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
	cr_expect_str_eq(t.cluster, "prod");
	cr_expect_str_eq(t.service, "checkout-api");
	cr_expect_str_eq(t.family, "checkout-api");
	cr_expect_str_eq(t.taskdef, "checkout-api:8");
	task_cleanup(&t);
}

Test(task, derive_missing_everything)
{
	struct task t;

	task_init(&t);
	task_derive(&t);
	cr_expect_str_eq(t.id, "");
	cr_expect_str_eq(t.cluster, "");
	cr_expect_str_eq(t.service, "");
	cr_expect_str_eq(t.taskdef, "");
	/* a family: group without a task definition still names the family */
	t.group = xstrdup("family:batch");
	task_derive(&t);
	cr_expect_str_eq(t.family, "batch");
	cr_expect_str_eq(t.service, "");
	task_cleanup(&t);
}

Test(task, merge_keeps_newest_version_and_fills_gaps)
{
	struct task_set s;
	struct task a = mk("arn:t/1", 3, 1000, TS_NONE), b = mk("arn:t/1", 5, 1000, 9000);
	struct task old = mk("arn:t/1", 4, 1000, 7000);

	task_set_init(&s);
	a.availability_zone = xstrdup("us-east-1a");
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	task_set_take(&s, &old);           /* older than what we have: ignored for state */
	cr_assert_eq(s.len, 1);
	cr_expect_eq(s.tasks[0].version, 5);
	cr_expect_eq(s.tasks[0].ts[TS_STARTED], 9000);
	/* b lacked the AZ: kept from a */
	cr_expect_str_eq(s.tasks[0].availability_zone, "us-east-1a");
	task_set_cleanup(&s);
}

Test(task, metadata_merges_snapshotter_onto_api_task)
{
	struct task_set s;
	struct task api = mk("arn:t/9", 7, 1000, 5000), meta = mk("arn:t/9", -1, 1000, TS_NONE);

	task_set_init(&s);
	api.containers = xcalloc(1, sizeof *api.containers);
	api.ncontainers = 1;
	api.containers[0].name = xstrdup("app");
	api.containers[0].image = xstrdup("repo/app:1");
	meta.containers = xcalloc(1, sizeof *meta.containers);
	meta.ncontainers = 1;
	meta.containers[0].name = xstrdup("app");
	meta.containers[0].snapshotter = xstrdup("soci");
	meta.from_metadata = true;
	task_set_take(&s, &meta);          /* metadata first, API view second: API wins */
	task_set_take(&s, &api);
	cr_assert_eq(s.len, 1);
	cr_expect_eq(s.tasks[0].version, 7);
	cr_expect_eq(s.tasks[0].ts[TS_STARTED], 5000);
	cr_expect(s.tasks[0].from_metadata);
	cr_assert_eq(s.tasks[0].ncontainers, 1);
	cr_expect_str_eq(s.tasks[0].containers[0].snapshotter, "soci");
	cr_expect_str_eq(s.tasks[0].containers[0].image, "repo/app:1");
	task_set_cleanup(&s);
}

static bool
keep_even(const struct task *t, void *ctx)
{
	(void)ctx;
	return t->ts[TS_CREATED] % 2 == 0;
}

Test(task, many_tasks_index_and_filter)
{
	struct task_set s;
	char arn[64];

	task_set_init(&s);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 5000; i++) {
			snprintf(arn, sizeof arn, "arn:aws:ecs:r:1:task/c/%d", i);
			struct task t = mk(arn, round, i, TS_NONE);
			task_set_take(&s, &t);
		}
	cr_assert_eq(s.len, 5000);
	cr_expect_eq(task_set_find(&s, "arn:aws:ecs:r:1:task/c/4321")->version, 1);
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:r:1:task/c/5000"));
	task_set_filter(&s, keep_even, NULL);
	cr_assert_eq(s.len, 2500);
	cr_expect_eq(s.tasks[1].ts[TS_CREATED], 2, "order is kept");
	cr_expect_not_null(task_set_find(&s, "arn:aws:ecs:r:1:task/c/4320"));
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:r:1:task/c/4321"));
	task_set_cleanup(&s);
}
