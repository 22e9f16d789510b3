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

/* ---- the set's string pool ---- */

#define CLUSTER_ARN "arn:aws:ecs:us-east-1:123456789012:cluster/prod"
#define TASKDEF_ARN "arn:aws:ecs:us-east-1:123456789012:task-definition/web:7"
#define IMAGE "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:v7"

/* A task as the input reader makes one: every string its own heap copy. */
static struct task
mk_full(const char *id, long long version, const char *digest)
{
	char arn[128];
	struct task t;

	snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/%s", id);
	t = mk(arn, version, 1000, 5000);
	t.cluster_arn = xstrdup(CLUSTER_ARN);
	t.taskdef_arn = xstrdup(TASKDEF_ARN);
	t.group = xstrdup("service:web");
	t.launch_type = xstrdup("FARGATE");
	t.last_status = xstrdup("RUNNING");
	t.source = xstrdup("events.jsonl");
	t.containers = xcalloc(1, sizeof *t.containers);
	t.ncontainers = 1;
	t.containers[0].name = xstrdup("web");
	t.containers[0].image = xstrdup(IMAGE);
	t.containers[0].image_digest = digest ? xstrdup(digest) : NULL;
	t.tags = xcalloc(1, sizeof *t.tags);
	t.ntags = 1;
	t.tags[0].key = xstrdup("team");
	t.tags[0].value = xstrdup("payments");
	task_derive(&t);
	return t;
}

Test(task, pool_shares_repeated_strings)
{
	struct task_set s;
	struct task a = mk_full("aaaa", 3, "sha256:1111"), b = mk_full("bbbb", 3, "sha256:2222");
	const struct task *x, *y;

	task_set_init(&s);
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	cr_assert_eq(s.len, 2);
	x = &s.tasks[0];
	y = &s.tasks[1];
	cr_expect_not_null(x->pool);
	cr_expect_eq(x->pool, y->pool);
	cr_expect_eq(x->pool, s.pool);
	/* the same text is one copy */
	cr_expect_eq(x->cluster_arn, y->cluster_arn);
	cr_expect_eq(x->taskdef_arn, y->taskdef_arn);
	cr_expect_eq(x->launch_type, y->launch_type);
	cr_expect_eq(x->source, y->source);
	cr_expect_eq(x->containers[0].image, y->containers[0].image);
	cr_expect_eq(x->containers[0].name, y->containers[0].name);
	cr_expect_eq(x->tags[0].value, y->tags[0].value);
	cr_expect_eq(x->family, y->family);
	cr_expect_eq(x->service, y->service);
	/* ... and different text stays different */
	cr_expect_neq(x->arn, y->arn);
	cr_expect_str_eq(x->containers[0].image_digest, "sha256:1111");
	cr_expect_str_eq(y->containers[0].image_digest, "sha256:2222");
	cr_expect_str_eq(x->arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa");
	/* derived again from the pooled strings */
	cr_expect_str_eq(x->id, "aaaa");
	cr_expect_str_eq(y->id, "bbbb");
	cr_expect_str_eq(x->cluster, "prod");
	cr_expect_str_eq(x->service, "web");
	cr_expect_str_eq(x->family, "web");
	cr_expect_str_eq(x->taskdef, "web:7");
	cr_expect_str_eq(x->cluster_arn, CLUSTER_ARN);
	cr_expect_str_eq(y->containers[0].image, IMAGE);
	cr_expect_str_eq(y->tags[0].key, "team");
	/* the caller's task was emptied, its strings moved or freed (ASan checks which) */
	cr_expect_null(a.arn);
	cr_expect_null(a.containers);
	cr_expect_null(b.pool);
	task_set_cleanup(&s);
	cr_expect_null(s.pool);
}

Test(task, pool_merge_pooled_tasks_both_ways)
{
	struct task_set s;
	struct task older = mk_full("m1", 3, "sha256:old"), newer = mk_full("m1", 5, NULL);
	struct task late = mk_full("m1", 4, "sha256:late"), meta = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/m1", -1, 1000, TS_NONE);
	const struct task *have;

	task_set_init(&s);
	/* newer lacks the AZ, the digest and the task definition: kept from the older state */
	older.availability_zone = xstrdup("us-east-1a");
	free(newer.taskdef_arn);
	newer.taskdef_arn = NULL;
	free(newer.last_status);
	newer.last_status = xstrdup("STOPPED");
	task_derive(&newer);
	cr_expect_str_eq(newer.taskdef, "");
	task_set_take(&s, &older);
	task_set_take(&s, &newer);          /* replaces the state in the set */
	task_set_take(&s, &late);           /* older than what the set has: fills gaps only */
	meta.containers = xcalloc(1, sizeof *meta.containers);
	meta.ncontainers = 1;
	meta.containers[0].name = xstrdup("web");
	meta.containers[0].snapshotter = xstrdup("soci");
	meta.from_metadata = true;
	task_set_take(&s, &meta);
	cr_assert_eq(s.len, 1);
	have = &s.tasks[0];
	cr_expect_eq(have->version, 5);
	cr_expect_str_eq(have->last_status, "STOPPED");
	cr_expect_str_eq(have->availability_zone, "us-east-1a");
	cr_expect_str_eq(have->taskdef_arn, TASKDEF_ARN);
	/* derived after the merge, so the task definition found in the older state shows */
	cr_expect_str_eq(have->taskdef, "web:7");
	cr_expect_str_eq(have->family, "web");
	cr_assert_eq(have->ncontainers, 1);
	cr_expect_str_eq(have->containers[0].image_digest, "sha256:old");
	cr_expect_str_eq(have->containers[0].snapshotter, "soci");
	cr_expect(have->from_metadata);
	cr_expect_str_eq(have->id, "m1");
	task_set_cleanup(&s);
}

static bool
keep_b(const struct task *t, void *ctx)
{
	(void)ctx;
	return strcmp(t->id, "b") == 0;
}

Test(task, pool_filter_keeps_shared_strings_alive)
{
	struct task_set s;
	struct task t;
	const char *cluster;

	task_set_init(&s);
	t = mk_full("a", 1, "sha256:a");
	task_set_take(&s, &t);
	t = mk_full("b", 1, "sha256:b");
	task_set_take(&s, &t);
	t = mk_full("c", 1, "sha256:c");
	task_set_take(&s, &t);
	cluster = s.tasks[0].cluster_arn;
	task_set_filter(&s, keep_b, NULL);
	cr_assert_eq(s.len, 1);
	/* the dropped tasks shared these strings with the kept one */
	cr_expect_eq(s.tasks[0].cluster_arn, cluster);
	cr_expect_str_eq(s.tasks[0].cluster_arn, CLUSTER_ARN);
	cr_expect_str_eq(s.tasks[0].containers[0].image, IMAGE);
	cr_expect_str_eq(s.tasks[0].containers[0].image_digest, "sha256:b");
	cr_expect_not_null(task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/b"));
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/a"));
	/* a task with that ARN again is new, and gets the pool's copy of its strings */
	t = mk_full("a", 2, "sha256:a");
	task_set_take(&s, &t);
	cr_assert_eq(s.len, 2);
	cr_expect_eq(s.tasks[1].cluster_arn, cluster);
	cr_expect_eq(s.tasks[1].version, 2);
	task_set_cleanup(&s);
}

Test(task, pool_copy_out_of_a_set_owns_its_strings)
{
	struct task_set s, other;
	struct task t, copy;

	task_set_init(&s);
	t = mk_full("cp", 1, "sha256:cp");
	t.stopped_reason = xstrdup("Essential container in task exited");
	task_set_take(&s, &t);
	task_copy(&copy, &s.tasks[0]);
	cr_expect_null(copy.pool);
	cr_expect_neq(copy.arn, s.tasks[0].arn);
	cr_expect_neq(copy.id, s.tasks[0].id);
	cr_expect_neq(copy.containers, s.tasks[0].containers);
	cr_expect_neq(copy.containers[0].image, s.tasks[0].containers[0].image);
	task_set_cleanup(&s);
	/* the set and its pool are gone; the copy reads fine (ASan would say otherwise) */
	cr_expect_str_eq(copy.arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/cp");
	cr_expect_str_eq(copy.id, "cp");
	cr_expect_str_eq(copy.family, "web");
	cr_expect_str_eq(copy.stopped_reason, "Essential container in task exited");
	cr_expect_str_eq(copy.containers[0].image_digest, "sha256:cp");
	cr_expect_str_eq(copy.tags[0].value, "payments");
	/* an owned task again: it can be changed, derived, and taken by another set */
	free(copy.group);
	copy.group = xstrdup("service:api");
	task_derive(&copy);
	cr_expect_str_eq(copy.service, "api");
	task_set_init(&other);
	task_set_take(&other, &copy);
	cr_expect_str_eq(other.tasks[0].service, "api");
	task_set_cleanup(&other);
}

Test(task, pool_derive_on_a_pooled_task)
{
	struct task_set s;
	struct task t;
	struct task *in;
	char *id;

	task_set_init(&s);
	t = mk_full("dv", 1, NULL);
	in = task_set_take(&s, &t);
	id = in->id;
	/* again: nothing freed (the pool owns it all), same answers */
	task_derive(in);
	task_derive(in);
	cr_expect_str_eq(in->id, "dv");
	cr_expect_eq(in->id, id);
	cr_expect_str_eq(in->cluster, "prod");
	cr_expect_str_eq(in->family, "web");
	cr_expect_str_eq(in->taskdef, "web:7");
	/* a task from the old ARN format, without cluster: the cluster comes from nowhere */
	t = mk("arn:aws:ecs:us-east-1:1:task/0123", 1, 0, 0);
	t.group = xstrdup("family:batch");
	in = task_set_take(&s, &t);
	cr_expect_str_eq(in->id, "0123");
	cr_expect_str_eq(in->cluster, "");
	cr_expect_str_eq(in->family, "batch");
	cr_expect_str_eq(in->taskdef, "");
	cr_expect_str_eq(in->service, "");
	/* a task without ARN is kept as is, derived */
	task_init(&t);
	t.launch_type = xstrdup("EC2");
	in = task_set_take(&s, &t);
	cr_expect_str_eq(in->id, "");
	cr_expect_str_eq(in->launch_type, "EC2");
	cr_expect_neq(in->launch_type, s.tasks[0].launch_type);
	task_set_cleanup(&s);
}

Test(task, pool_long_and_many_strings)
{
	struct task_set s;
	char big[10000], arn[64];
	struct task t;

	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	task_set_init(&s);
	for (int i = 0; i < 3; i++) {
		t = mk_full(i == 0 ? "l0" : i == 1 ? "l1" : "l2", 1, NULL);
		t.stopped_reason = xstrdup(big);
		task_set_take(&s, &t);
	}
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(strlen(s.tasks[i].stopped_reason), sizeof big - 1);
		cr_expect_eq(s.tasks[i].cluster_arn, s.tasks[0].cluster_arn);
	}
	/* enough distinct strings to grow the pool's index and fill many blocks */
	for (int i = 0; i < 20000; i++) {
		snprintf(arn, sizeof arn, "arn:aws:ecs:r:1:task/c/%d", i);
		t = mk(arn, 1, i, TS_NONE);
		t.stop_code = xasprintf("code-%d", i % 7);
		task_set_take(&s, &t);
	}
	cr_assert_eq(s.len, 20003);
	for (int i = 0; i < 20000; i++) {
		char want[32];

		snprintf(want, sizeof want, "%d", i);
		cr_assert_str_eq(s.tasks[3 + i].id, want);
		snprintf(want, sizeof want, "code-%d", i % 7);
		cr_assert_str_eq(s.tasks[3 + i].stop_code, want);
		cr_assert_eq(s.tasks[3 + i].stop_code, s.tasks[3 + i % 7].stop_code);
	}
	task_set_cleanup(&s);
}

/* The input reader's worker threads fill tasks from a pool of their own (one copy of each
 * text per chunk); the set copies what it takes, and the worker's pool goes away. */
Test(task, pool_of_ones_own_is_copied_by_the_set)
{
	struct task_strpool *mine = task_strpool_new();
	struct task_set s;
	struct task t, spare;
	char *cluster_in_mine = NULL;
	const char *arn = "arn:aws:ecs:us-east-1:123456789012:task/prod/own1";

	task_set_init(&s);
	for (int i = 0; i < 2; i++) {
		char a[80];

		snprintf(a, sizeof a, "%s%d", arn, i);
		task_init(&t);
		t.pool = mine;
		task_strpool_assign(mine, &t.arn, a, strlen(a));
		/* only the first 47 bytes: the pool copies n bytes and ends them */
		task_strpool_assign(mine, &t.cluster_arn, CLUSTER_ARN "/ignored", strlen(CLUSTER_ARN));
		task_strpool_assign(mine, &t.group, "service:web", 11);
		t.containers = xcalloc(1, sizeof *t.containers);
		t.ncontainers = 1;
		task_strpool_assign(mine, &t.containers[0].image, IMAGE, strlen(IMAGE));
		if (i == 0)
			cluster_in_mine = t.cluster_arn;
		else
			cr_expect_eq(t.cluster_arn, cluster_in_mine, "one copy per pool");
		task_set_take(&s, &t);
		cr_expect_null(t.pool);
	}
	/* a task of that pool that no set takes: its arrays are freed, its strings are not */
	task_init(&spare);
	spare.pool = mine;
	task_strpool_assign(mine, &spare.launch_type, "FARGATE", 7);
	spare.tags = xcalloc(1, sizeof *spare.tags);
	spare.ntags = 1;
	task_strpool_assign(mine, &spare.tags[0].key, "team", 4);
	task_cleanup(&spare);
	cr_expect_null(spare.pool);

	cr_expect_str_eq(s.tasks[0].cluster_arn, CLUSTER_ARN);
	cr_expect_neq(s.tasks[0].cluster_arn, cluster_in_mine);
	task_strpool_free(mine);
	/* the set's tasks do not point into the freed pool (ASan would tell) */
	cr_assert_eq(s.len, 2);
	cr_expect_eq(s.tasks[0].cluster_arn, s.tasks[1].cluster_arn);
	cr_expect_str_eq(s.tasks[1].arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/own11");
	cr_expect_str_eq(s.tasks[1].id, "own11");
	cr_expect_str_eq(s.tasks[0].cluster, "prod");
	cr_expect_str_eq(s.tasks[0].service, "web");
	cr_expect_str_eq(s.tasks[1].containers[0].image, IMAGE);
	cr_expect_eq(s.tasks[0].containers[0].image, s.tasks[1].containers[0].image);
	cr_expect_eq(s.tasks[0].pool, s.pool);
	task_set_cleanup(&s);
}

/* ---- task_stage: the one answer to "where is this task" ---- */

#include "fixtures/failed_start.h"

Test(task, stage_walks_the_lifecycle)
{
	struct task t = mk("arn:aws:ecs:us-east-1:1:task/c/a", -1, 1000, TS_NONE);
	int64_t since = 0;

	cr_expect_eq(task_stage(&t, &since), STAGE_PROVISION);
	cr_expect_eq(since, 1000);
	t.ts[TS_PULL_STARTED] = 5000;
	cr_expect_eq(task_stage(&t, &since), STAGE_PULL);
	cr_expect_eq(since, 5000);
	t.ts[TS_PULL_STOPPED] = 9000;
	cr_expect_eq(task_stage(&t, &since), STAGE_START);
	cr_expect_eq(since, 9000);
	t.ts[TS_STARTED] = 9500;
	cr_expect_eq(task_stage(&t, &since), STAGE_RUNNING);
	cr_expect_eq(since, 9500);
	cr_expect_not(task_is_final(&t));
	/* stopping after it ran: stopped, since the first sign of it */
	t.ts[TS_STOPPING] = 20000;
	cr_expect_eq(task_stage(&t, &since), STAGE_STOPPED);
	cr_expect_eq(since, 20000);
	cr_expect_not(task_is_final(&t));
	t.ts[TS_STOPPED] = 22000;
	cr_expect_eq(task_stage(&t, &since), STAGE_STOPPED);
	cr_expect_eq(since, 20000);
	cr_expect(task_is_final(&t));
	cr_expect_str_eq(task_stage_names[STAGE_STOPPED], "stopped");
	task_cleanup(&t);
}

Test(task, stage_without_times)
{
	struct task t = mk("arn:aws:ecs:us-east-1:1:task/c/a", -1, TS_NONE, TS_NONE);
	int64_t since = 0;

	cr_expect_eq(task_stage(&t, &since), STAGE_UNKNOWN);
	cr_expect_eq(since, TS_NONE);
	cr_expect_eq(task_stage(&t, NULL), STAGE_UNKNOWN);
	t.last_status = xstrdup("RUNNING");
	cr_expect_eq(task_stage(&t, &since), STAGE_RUNNING);
	cr_expect_eq(since, TS_NONE);
	task_cleanup(&t);
	/* a status alone says the task is on its way down */
	t = mk("arn:aws:ecs:us-east-1:1:task/c/b", -1, 1000, 2000);
	t.last_status = xstrdup("DEACTIVATING");
	cr_expect_eq(task_stage(&t, &since), STAGE_STOPPED);
	cr_expect_eq(since, TS_NONE);
	task_cleanup(&t);
}

/* the task the TUI did not mark failed: DEPROVISIONING, no stoppedAt, TaskFailedToStart */
Test(task, stage_deprovisioning_failed_start_is_failed)
{
	struct task t;
	int64_t since = 0;

	fs_failed_task(&t, false);
	cr_expect_eq(task_stage(&t, &since), STAGE_FAILED);
	cr_expect_eq(since, FS_T0 + 40000);
	cr_expect_not(task_is_final(&t));
	cr_expect_not(task_stage_is_starting(task_stage(&t, NULL)));
	task_cleanup(&t);
	fs_failed_task(&t, true);
	cr_expect_eq(task_stage(&t, NULL), STAGE_FAILED);
	cr_expect(task_is_final(&t));
	task_cleanup(&t);
	/* the same with no stop code at all: still failed, it never ran */
	fs_failed_task(&t, false);
	free(t.stop_code);
	free(t.stopped_reason);
	t.stop_code = t.stopped_reason = NULL;
	cr_expect_eq(task_stage(&t, NULL), STAGE_FAILED);
	task_cleanup(&t);
}

/* ECS's verdict wins over a startedAt (one container came up, another one died) */
Test(task, stage_task_failed_to_start_wins)
{
	struct task t;

	fs_failed_task(&t, true);
	t.ts[TS_STARTED] = FS_T0 + 30000;
	cr_expect_eq(task_stage(&t, NULL), STAGE_FAILED);
	free(t.stop_code);
	t.stop_code = xstrdup("EssentialContainerExited");
	cr_expect_eq(task_stage(&t, NULL), STAGE_STOPPED);
	task_cleanup(&t);
}
