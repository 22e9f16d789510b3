#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"
#include "fixtures/task_text.h"
#include "../src/model/task_pool.h"

/* where mk() puts a task's strings: NULL, a private pool of its own */
static struct task_strpool *mk_pool;

static struct task
mk(const char *arn, long long version, int64_t created, int64_t started)
{
	struct task t;

	task_init_pool(&t, mk_pool);
	task_set_arn(&t, arn, strlen(arn));
	if (version >= 0) {
		t.has_version = true;
		t.version = version;
	}
	task_set_ts(&t, TS_CREATED, created);
	task_set_ts(&t, TS_STARTED, started);
	return t;
}

Test(task, derive_new_arn_format)
{
	struct task t = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/0f1e2d3c4b5a69788796a5b4c3d2e1f0", 1, 0, 0);

	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:123456789012:task-definition/checkout-api:8");
	task_str(&t, &task_edit_profile(&t)->group, "service:checkout-api");
	task_derive(&t);
	cr_expect_str_eq(task_id(&t), "0f1e2d3c4b5a69788796a5b4c3d2e1f0");
	cr_expect_str_eq(t.prof->cluster, "prod");
	cr_expect_str_eq(t.prof->service, "checkout-api");
	cr_expect_str_eq(t.prof->family, "checkout-api");
	cr_expect_str_eq(t.prof->taskdef, "checkout-api:8");
	task_cleanup(&t);
}

Test(task, derive_missing_everything)
{
	struct task t;

	task_init(&t);
	task_derive(&t);
	cr_expect_str_eq(task_id(&t), "");
	cr_expect_str_eq(t.prof->cluster, "");
	cr_expect_str_eq(t.prof->service, "");
	cr_expect_str_eq(t.prof->taskdef, "");
	/* a family: group without a task definition still names the family */
	task_str(&t, &task_edit_profile(&t)->group, "family:batch");
	task_derive(&t);
	cr_expect_str_eq(t.prof->family, "batch");
	cr_expect_str_eq(t.prof->service, "");
	task_cleanup(&t);
}

Test(task, merge_keeps_newest_version_and_fills_gaps)
{
	struct task_set s;
	struct task a = mk("arn:t/1", 3, 1000, TS_NONE), b = mk("arn:t/1", 5, 1000, 9000);
	struct task old = mk("arn:t/1", 4, 1000, 7000);

	task_set_init(&s);
	task_str(&a, &task_edit_profile(&a)->availability_zone, "us-east-1a");
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	task_set_take(&s, &old);           /* older than what we have: ignored for state */
	cr_assert_eq(s.len, 1);
	cr_expect_eq(s.tasks[0].version, 5);
	cr_expect_eq(task_ts(&s.tasks[0], TS_STARTED), 9000);
	/* b lacked the AZ: kept from a */
	cr_expect_str_eq(s.tasks[0].prof->availability_zone, "us-east-1a");
	task_set_cleanup(&s);
}

Test(task, metadata_merges_snapshotter_onto_api_task)
{
	struct task_set s;
	struct task api = mk("arn:t/9", 7, 1000, 5000), meta = mk("arn:t/9", -1, 1000, TS_NONE);

	task_set_init(&s);
	task_containers(&api, 1);
	task_str(&api, &container_edit_profile(&api, &api.containers[0])->name, "app");
	task_str(&api, &container_edit_profile(&api, &api.containers[0])->image, "repo/app:1");
	task_containers(&meta, 1);
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->name, "app");
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->snapshotter, "soci");
	meta.from_metadata = true;
	task_set_take(&s, &meta);          /* metadata first, API view second: API wins */
	task_set_take(&s, &api);
	cr_assert_eq(s.len, 1);
	cr_expect_eq(s.tasks[0].version, 7);
	cr_expect_eq(task_ts(&s.tasks[0], TS_STARTED), 5000);
	cr_expect(s.tasks[0].from_metadata);
	cr_assert_eq(s.tasks[0].ncontainers, 1);
	cr_expect_str_eq(s.tasks[0].containers[0].prof->snapshotter, "soci");
	cr_expect_str_eq(s.tasks[0].containers[0].prof->image, "repo/app:1");
	task_set_cleanup(&s);
}

static bool
keep_even(const struct task *t, void *ctx)
{
	(void)ctx;
	return task_ts(t, TS_CREATED) % 2 == 0;
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
	cr_expect_eq(task_ts(&s.tasks[1], TS_CREATED), 2, "order is kept");
	cr_expect_not_null(task_set_find(&s, "arn:aws:ecs:r:1:task/c/4320"));
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:r:1:task/c/4321"));
	task_set_cleanup(&s);
}

/* ---- the set's string pool ---- */

#define CLUSTER_ARN "arn:aws:ecs:us-east-1:123456789012:cluster/prod"
#define TASKDEF_ARN "arn:aws:ecs:us-east-1:123456789012:task-definition/web:7"
#define IMAGE "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:v7"

/* A task as the input reader makes one, in mk_pool. */
static struct task
mk_full(const char *id, long long version, const char *digest)
{
	char arn[128];
	struct task t;

	snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/%s", id);
	t = mk(arn, version, 1000, 5000);
	task_str(&t, &task_edit_profile(&t)->cluster_arn, CLUSTER_ARN);
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, TASKDEF_ARN);
	task_str(&t, &task_edit_profile(&t)->group, "service:web");
	task_str(&t, &task_edit_profile(&t)->launch_type, "FARGATE");
	task_str(&t, &task_edit_profile(&t)->last_status, "RUNNING");
	task_str(&t, &task_edit_profile(&t)->source, "events.jsonl");
	task_containers(&t, 1);
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->name, "web");
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->image, IMAGE);
	container_set_digest(&t, &t.containers[0], digest, digest != NULL ? strlen(digest) : 0);
	struct tag *tg = task_tags(&t, 1);
	task_str(&t, &tg[0].key, "team");
	task_str(&t, &tg[0].value, "payments");
	task_derive(&t);
	return t;
}

/* A batch pool (the input reader's, one per chunk) keeps one copy of each text; the set
 * takes its storage as it is: the strings are not copied or looked up again. */
Test(task, batch_pool_shares_strings_and_the_set_adopts_them)
{
	struct task_set s;
	struct task a, b;
	const struct task *x, *y;
	const char *cluster, *arn, *image;

	mk_pool = task_strpool_new();
	a = mk_full("aaaa", 3, "sha256:1111");
	b = mk_full("bbbb", 3, "sha256:2222");
	cr_expect_eq(a.prof->cluster_arn, b.prof->cluster_arn, "one copy per pool");
	cluster = a.prof->cluster_arn;
	arn = a.arn_tail;
	image = b.containers[0].prof->image;
	task_set_init(&s);
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	task_strpool_free(mk_pool);   /* before the set: what the set took stays (ASan) */
	mk_pool = NULL;
	cr_assert_eq(s.len, 2);
	x = &s.tasks[0];
	y = &s.tasks[1];
	cr_expect_eq(x->pool, s.pool);
	cr_expect_eq(y->pool, s.pool);
	/* adopted where they lie, not copied */
	cr_expect_eq(x->prof->cluster_arn, cluster);
	cr_expect_eq(x->arn_tail, arn);
	cr_expect_eq(y->containers[0].prof->image, image);
	/* the same text is one copy */
	cr_expect_eq(x->prof->cluster_arn, y->prof->cluster_arn);
	cr_expect_eq(x->prof->taskdef_arn, y->prof->taskdef_arn);
	cr_expect_eq(x->prof->launch_type, y->prof->launch_type);
	cr_expect_eq(x->prof->source, y->prof->source);
	cr_expect_eq(x->containers[0].prof->image, y->containers[0].prof->image);
	cr_expect_eq(x->containers[0].prof->name, y->containers[0].prof->name);
	cr_expect_eq(x->prof->tags[0].value, y->prof->tags[0].value);
	cr_expect_eq(x->prof->service, y->prof->service);
	/* ... and different text stays different */
	cr_expect_neq(x->arn_tail, y->arn_tail);
	/* one prefix for the tasks of a cluster, in their profile */
	cr_expect_eq(x->prof->arn_prefix, y->prof->arn_prefix);
	cr_expect_str_eq(DIGEST_OF(&x->containers[0]), "sha256:1111");
	cr_expect_str_eq(DIGEST_OF(&y->containers[0]), "sha256:2222");
	cr_expect_str_eq(ARN_OF(x), "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa");
	cr_expect_str_eq(x->arn_tail, "aaaa");
	cr_expect_str_eq(x->prof->arn_prefix, "arn:aws:ecs:us-east-1:123456789012:task/prod/");
	/* derived again, tails of the adopted strings */
	cr_expect_str_eq(task_id(x), "aaaa");
	cr_expect_eq(task_id(x), x->arn_tail);
	cr_expect_str_eq(task_id(y), "bbbb");
	cr_expect_str_eq(x->prof->cluster, "prod");
	cr_expect_str_eq(x->prof->service, "web");
	cr_expect_str_eq(x->prof->family, "web");
	cr_expect_str_eq(y->prof->family, "web");
	cr_expect_str_eq(x->prof->taskdef, "web:7");
	cr_expect_str_eq(x->prof->cluster_arn, CLUSTER_ARN);
	cr_expect_str_eq(y->containers[0].prof->image, IMAGE);
	cr_expect_str_eq(y->prof->tags[0].key, "team");
	/* the caller's task was emptied */
	cr_expect_null(a.arn_tail);
	cr_expect_null(a.containers);
	cr_expect_null(b.pool);
	task_set_cleanup(&s);
	cr_expect_null(s.pool);
}

/* The tasks of one service share one profile (8 bytes a task, not 176): a batch pool and
 * the set keep one copy of each; writing one task's profile gives it a draft of its own,
 * so the others never change, and deriving it shares an equal profile again. */
Test(task, tasks_of_one_service_share_a_profile)
{
	struct task_set s;
	struct task a, b, c;
	const struct task *x, *y, *z;
	const struct task_profile *shared;

	mk_pool = task_strpool_new();
	a = mk_full("aaaa", 3, "sha256:1111");
	b = mk_full("bbbb", 3, "sha256:2222");
	c = mk_full("cccc", 3, "sha256:3333");
	task_str(&c, &task_edit_profile(&c)->availability_zone, "us-east-1b");
	task_derive(&c);
	cr_expect_eq(a.prof, b.prof, "one copy per pool");
	cr_expect_neq(a.prof, c.prof, "another zone, another profile");
	cr_expect_eq(a.prof->draft, false);
	task_set_init(&s);
	x = task_set_take(&s, &a);
	y = task_set_take(&s, &b);
	z = task_set_take(&s, &c);
	task_strpool_free(mk_pool);
	mk_pool = NULL;
	shared = x->prof;
	cr_expect_eq(y->prof, shared);
	/* a write is the writer's alone */
	task_str(&s.tasks[1], &task_edit_profile(&s.tasks[1])->stopped_reason, "Scaling in");
	cr_expect_neq(y->prof, shared);
	cr_expect_eq(y->prof->draft, true);
	cr_expect_null(x->prof->stopped_reason, "the other task keeps its profile");
	cr_expect_str_eq(y->prof->stopped_reason, "Scaling in");
	cr_expect_str_eq(y->prof->service, "web", "a draft starts as a copy");
	task_derive(&s.tasks[1]);
	cr_expect_eq(y->prof->draft, false);
	cr_expect_neq(y->prof, shared);
	/* written back to what it was, it shares the set's copy again */
	task_edit_profile(&s.tasks[1])->stopped_reason = NULL;
	task_derive(&s.tasks[1]);
	cr_expect_eq(y->prof, shared);
	cr_expect_str_eq(z->prof->availability_zone, "us-east-1b");
	cr_expect_null(x->prof->availability_zone);
	/* their containers differ only in the digest: one container profile */
	cr_expect_neq(x->containers, y->containers);
	cr_expect_eq(x->containers[0].prof, y->containers[0].prof);
	cr_expect_eq(x->containers[0].prof->draft, false);
	cr_expect_str_eq(y->containers[0].prof->image, IMAGE);
	cr_expect_str_eq(DIGEST_OF(&y->containers[0]), "sha256:2222");
	task_set_cleanup(&s);
}

/* A newer state without a field keeps the older one's: the merge fills a draft of the
 * winner's profile, never the profile the loser shares with other tasks. */
Test(task, merge_fills_a_profile_without_touching_the_shared_one)
{
	struct task_set s;
	struct task a, b, newer;
	const struct task_profile *old_shared;
	const struct task *x;

	mk_pool = task_strpool_new();
	a = mk_full("aaaa", 3, "sha256:1111");
	b = mk_full("bbbb", 3, "sha256:2222");
	task_set_init(&s);
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	old_shared = s.tasks[0].prof;
	newer = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa", 4, 1000, 5000);
	task_str(&newer, &task_edit_profile(&newer)->last_status, "STOPPED");
	task_derive(&newer);
	x = task_set_take(&s, &newer);
	task_strpool_free(mk_pool);
	mk_pool = NULL;
	cr_expect_str_eq(x->prof->last_status, "STOPPED", "the newer state wins");
	cr_expect_str_eq(x->prof->launch_type, "FARGATE", "what it lacks comes from the older");
	cr_expect_str_eq(x->prof->service, "web", "and is derived again");
	cr_expect_eq(x->prof->draft, false);
	cr_expect_eq(s.tasks[1].prof, old_shared, "the other task's profile is as it was");
	cr_expect_str_eq(old_shared->last_status, "RUNNING");
	task_set_cleanup(&s);
}

/* A task built alone has a private pool; the set takes that whole, without a copy. */
Test(task, private_pool_is_adopted_whole)
{
	struct task_set s;
	struct task a = mk_full("pa", 1, NULL), b = mk_full("pb", 1, NULL);
	const char *arn = a.arn_tail, *tag = b.prof->tags[0].value;

	cr_expect_not_null(a.pool);
	cr_expect_neq(a.pool, b.pool);
	task_set_init(&s);
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	cr_expect_eq(s.tasks[0].arn_tail, arn);
	cr_expect_eq(s.tasks[1].prof->tags[0].value, tag);
	cr_expect_eq(s.tasks[1].pool, s.pool);
	/* two pools, two copies of the same text: allowed */
	cr_expect_str_eq(s.tasks[0].prof->cluster_arn, s.tasks[1].prof->cluster_arn);
	cr_expect_null(a.pool);
	/* a task meant for the set, built in its pool: shares the set's copies */
	struct task c;

	task_init_pool(&c, task_set_pool(&s));
	task_set_arn(&c, "arn:aws:ecs:us-east-1:123456789012:task/prod/pc", strlen("arn:aws:ecs:us-east-1:123456789012:task/prod/pc"));
	task_str(&c, &task_edit_profile(&c)->launch_type, "EC2");
	const char *lt = c.prof->launch_type;
	cr_expect_eq(task_set_take(&s, &c)->prof->launch_type, lt);
	task_set_cleanup(&s);
}

/* The strings of another set's task would go with that set: a task_copy() is the way;
 * taking such a task is a bug, stopped at once rather than left dangling. */
Test(task, take_of_another_sets_task_aborts, .signal = SIGABRT)
{
	struct task_set s, other;
	struct task t = mk_full("x", 1, NULL), steal;

	task_set_init(&s);
	task_set_init(&other);
	task_set_take(&s, &t);
	steal = s.tasks[0];
	task_set_take(&other, &steal);
}

/* A batch pool's tasks all go to one set: its storage went to the first. */
Test(task, batch_pool_into_two_sets_aborts, .signal = SIGABRT)
{
	struct task_set s, other;
	struct task a, b;

	mk_pool = task_strpool_new();
	a = mk_full("a", 1, NULL);
	b = mk_full("b", 1, NULL);
	task_set_init(&s);
	task_set_init(&other);
	task_set_take(&s, &a);
	task_set_take(&other, &b);
}

Test(task, pool_merge_pooled_tasks_both_ways)
{
	struct task_set s;
	struct task older = mk_full("m1", 3, "sha256:old"), newer = mk_full("m1", 5, NULL);
	struct task late = mk_full("m1", 4, "sha256:late"), meta = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/m1", -1, 1000, TS_NONE);
	const struct task *have;

	task_set_init(&s);
	/* newer lacks the AZ, the digest and the task definition: kept from the older state */
	task_str(&older, &task_edit_profile(&older)->availability_zone, "us-east-1a");
	task_edit_profile(&newer)->taskdef_arn = NULL;
	task_str(&newer, &task_edit_profile(&newer)->last_status, "STOPPED");
	task_derive(&newer);
	cr_expect_str_eq(newer.prof->taskdef, "");
	task_set_take(&s, &older);
	task_set_take(&s, &newer);          /* replaces the state in the set */
	task_set_take(&s, &late);           /* older than what the set has: fills gaps only */
	task_containers(&meta, 1);
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->name, "web");
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->snapshotter, "soci");
	meta.from_metadata = true;
	task_set_take(&s, &meta);
	cr_assert_eq(s.len, 1);
	have = &s.tasks[0];
	cr_expect_eq(have->version, 5);
	cr_expect_str_eq(have->prof->last_status, "STOPPED");
	cr_expect_str_eq(have->prof->availability_zone, "us-east-1a");
	cr_expect_str_eq(have->prof->taskdef_arn, TASKDEF_ARN);
	/* derived after the merge, so the task definition found in the older state shows */
	cr_expect_str_eq(have->prof->taskdef, "web:7");
	cr_expect_str_eq(have->prof->family, "web");
	cr_assert_eq(have->ncontainers, 1);
	cr_expect_str_eq(DIGEST_OF(&have->containers[0]), "sha256:old");
	cr_expect_str_eq(have->containers[0].prof->snapshotter, "soci");
	cr_expect(have->from_metadata);
	cr_expect_str_eq(task_id(have), "m1");
	task_set_cleanup(&s);
}

static bool
keep_b(const struct task *t, void *ctx)
{
	(void)ctx;
	return strcmp(task_id(t), "b") == 0;
}

Test(task, pool_filter_keeps_shared_strings_alive)
{
	struct task_set s;
	struct task t;
	const char *cluster;

	task_set_init(&s);
	mk_pool = task_set_pool(&s);   /* built where they are going: one copy each */
	t = mk_full("a", 1, "sha256:a");
	task_set_take(&s, &t);
	t = mk_full("b", 1, "sha256:b");
	task_set_take(&s, &t);
	t = mk_full("c", 1, "sha256:c");
	task_set_take(&s, &t);
	cluster = s.tasks[0].prof->cluster_arn;
	task_set_filter(&s, keep_b, NULL);
	cr_assert_eq(s.len, 1);
	/* the dropped tasks shared these strings with the kept one */
	cr_expect_eq(s.tasks[0].prof->cluster_arn, cluster);
	cr_expect_str_eq(s.tasks[0].prof->cluster_arn, CLUSTER_ARN);
	cr_expect_str_eq(s.tasks[0].containers[0].prof->image, IMAGE);
	cr_expect_str_eq(DIGEST_OF(&s.tasks[0].containers[0]), "sha256:b");
	cr_expect_not_null(task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/b"));
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/a"));
	/* a task with that ARN again is new, and gets the pool's copy of its strings */
	t = mk_full("a", 2, "sha256:a");
	task_set_take(&s, &t);
	cr_assert_eq(s.len, 2);
	cr_expect_eq(s.tasks[1].prof->cluster_arn, cluster);
	cr_expect_eq(s.tasks[1].version, 2);
	mk_pool = NULL;
	task_set_cleanup(&s);
}

Test(task, pool_copy_out_of_a_set_owns_its_strings)
{
	struct task_set s, other;
	struct task t, copy;

	task_set_init(&s);
	t = mk_full("cp", 1, "sha256:cp");
	task_str(&t, &task_edit_profile(&t)->stopped_reason, "Essential container in task exited");
	task_set_take(&s, &t);
	task_copy(&copy, &s.tasks[0]);
	cr_expect_not_null(copy.pool);
	cr_expect_neq(copy.pool, s.pool);
	cr_expect_neq(copy.arn_tail, s.tasks[0].arn_tail);
	cr_expect_neq(task_id(&copy), task_id(&s.tasks[0]));
	cr_expect_neq(copy.containers, s.tasks[0].containers);
	cr_expect_neq(copy.containers[0].prof->image, s.tasks[0].containers[0].prof->image);
	task_set_cleanup(&s);
	/* the set and its pool are gone; the copy reads fine (ASan would say otherwise) */
	cr_expect_str_eq(ARN_OF(&copy), "arn:aws:ecs:us-east-1:123456789012:task/prod/cp");
	cr_expect_str_eq(task_id(&copy), "cp");
	cr_expect_str_eq(copy.prof->family, "web");
	cr_expect_str_eq(copy.prof->stopped_reason, "Essential container in task exited");
	cr_expect_str_eq(DIGEST_OF(&copy.containers[0]), "sha256:cp");
	cr_expect_str_eq(copy.prof->tags[0].value, "payments");
	/* an owned task again: it can be changed, derived, and taken by another set */
	task_str(&copy, &task_edit_profile(&copy)->group, "service:api");
	task_derive(&copy);
	cr_expect_str_eq(copy.prof->service, "api");
	task_set_init(&other);
	task_set_take(&other, &copy);
	cr_expect_str_eq(other.tasks[0].prof->service, "api");
	task_set_cleanup(&other);
}

/* A watch poll keeps the last poll's unchanged tasks: each is copied into the new set's
 * pool (one owner per string), so the old sets can go first; the copies share their
 * strings and arrays within the new set. */
Test(task, copied_tasks_outlive_the_set_they_came_from)
{
	struct task_set sets[4];
	struct task t, b;

	task_set_init(&sets[0]);
	t = mk_full("bw", 1, "sha256:bw");
	task_str(&t, &task_edit_profile(&t)->stopped_reason, "Essential container in task exited");
	task_set_take(&sets[0], &t);
	t = mk_full("bx", 1, "sha256:bw");
	task_set_take(&sets[0], &t);
	t = mk_full("by", 1, "sha256:by");   /* another array: not the memo's */
	task_set_take(&sets[0], &t);
	for (size_t i = 1; i < sizeof sets / sizeof sets[0]; i++) {
		struct task_copy_memo memo;
		struct task *in, *in2, *in3;

		memset(&memo, 0, sizeof memo);
		task_set_init(&sets[i]);
		b = sets[i - 1].tasks[0];
		task_set_ts(&b, TS_FETCHED, (int64_t)i);
		in = task_set_take_copy(&sets[i], &b, &memo);
		/* the second through the memo: what it shares with the first is not looked up */
		in2 = task_set_take_copy(&sets[i], &sets[i - 1].tasks[1], &memo);
		in3 = task_set_take_copy(&sets[i], &sets[i - 1].tasks[2], &memo);
		in = &sets[i].tasks[0];
		in2 = &sets[i].tasks[1];
		cr_assert_eq(sets[i].len, 3);
		cr_expect_eq(in->pool, sets[i].pool);
		cr_expect_eq(task_ts(in, TS_FETCHED), (int64_t)i);
		cr_expect_neq(in->arn_tail, sets[i - 1].tasks[0].arn_tail);
		/* one copy of what the two tasks have in common */
		cr_expect_eq(in->prof->cluster_arn, in2->prof->cluster_arn);
		cr_expect_eq(in->prof->tags, in2->prof->tags);
		cr_expect_eq(in->containers, in2->containers);
		cr_expect_neq(in3->containers, in2->containers);
		cr_expect_eq(in3->containers[0].prof->image, in2->containers[0].prof->image);
		/* the set before goes, as in watch (valgrind/ASan would see a read of freed
		 * strings below) */
		task_set_cleanup(&sets[i - 1]);
		cr_expect_str_eq(ARN_OF(in), "arn:aws:ecs:us-east-1:123456789012:task/prod/bw");
		cr_expect_str_eq(task_id(in), "bw");
		cr_expect_str_eq(in->prof->family, "web");
		cr_expect_str_eq(in->prof->stopped_reason, "Essential container in task exited");
		cr_expect_str_eq(DIGEST_OF(&in->containers[0]), "sha256:bw");
		cr_expect_str_eq(in->prof->tags[0].value, "payments");
		cr_expect_str_eq(task_id(in2), "bx");
		cr_expect_str_eq(task_id(in3), "by");
		cr_expect_str_eq(DIGEST_OF(&in3->containers[0]), "sha256:by");
		cr_expect_null(in3->prof->stopped_reason);
	}
	task_set_cleanup(&sets[3]);
}

/* A copied task merged with a described one of the same ARN in the new set. */
Test(task, copied_task_merges_with_a_described_one)
{
	struct task_set old, s;
	struct task t, b;

	task_set_init(&old);
	task_set_init(&s);
	t = mk_full("m", 1, "sha256:m");
	task_set_take(&old, &t);
	t = mk(ARN_OF(&old.tasks[0]), 2, 1000, 2000);
	task_set_take(&s, &t);
	task_copy_to(&b, &old.tasks[0], task_set_pool(&s));
	task_set_cleanup(&old);
	task_set_take(&s, &b);
	cr_assert_eq(s.len, 1);
	cr_expect_eq(s.tasks[0].version, 2);
	/* filled from the copied task */
	cr_expect_str_eq(DIGEST_OF(&s.tasks[0].containers[0]), "sha256:m");
	cr_expect_str_eq(s.tasks[0].prof->family, "web");
	task_set_cleanup(&s);
}

Test(task, pool_derive_on_a_pooled_task)
{
	struct task_set s;
	struct task t;
	struct task *in;
	const char *id;

	task_set_init(&s);
	t = mk_full("dv", 1, NULL);
	in = task_set_take(&s, &t);
	id = task_id(in);
	/* again: nothing freed (the pool owns it all), same answers */
	task_derive(in);
	task_derive(in);
	cr_expect_str_eq(task_id(in), "dv");
	cr_expect_eq(task_id(in), id);
	cr_expect_str_eq(in->prof->cluster, "prod");
	cr_expect_str_eq(in->prof->family, "web");
	cr_expect_str_eq(in->prof->taskdef, "web:7");
	/* a task from the old ARN format, without cluster: the cluster comes from nowhere */
	t = mk("arn:aws:ecs:us-east-1:1:task/0123", 1, 0, 0);
	task_str(&t, &task_edit_profile(&t)->group, "family:batch");
	in = task_set_take(&s, &t);
	cr_expect_str_eq(task_id(in), "0123");
	cr_expect_str_eq(in->prof->cluster, "");
	cr_expect_str_eq(in->prof->family, "batch");
	cr_expect_str_eq(in->prof->taskdef, "");
	cr_expect_str_eq(in->prof->service, "");
	/* a task without ARN is kept as is, derived */
	task_init(&t);
	task_str(&t, &task_edit_profile(&t)->launch_type, "EC2");
	in = task_set_take(&s, &t);
	cr_expect_str_eq(task_id(in), "");
	cr_expect_str_eq(in->prof->launch_type, "EC2");
	cr_expect_neq(in->prof->launch_type, s.tasks[0].prof->launch_type);
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
	mk_pool = task_set_pool(&s);   /* built where they are going: one copy each */
	for (int i = 0; i < 3; i++) {
		t = mk_full(i == 0 ? "l0" : i == 1 ? "l1" : "l2", 1, NULL);
		task_str(&t, &task_edit_profile(&t)->stopped_reason, big);
		task_set_take(&s, &t);
	}
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(strlen(s.tasks[i].prof->stopped_reason), sizeof big - 1);
		cr_expect_eq(s.tasks[i].prof->cluster_arn, s.tasks[0].prof->cluster_arn);
	}
	/* enough distinct strings to grow the pool's index and fill many blocks */
	for (int i = 0; i < 20000; i++) {
		snprintf(arn, sizeof arn, "arn:aws:ecs:r:1:task/c/%d", i);
		t = mk(arn, 1, i, TS_NONE);
		task_strf(&t, &task_edit_profile(&t)->stop_code, "code-%d", i % 7);
		task_set_take(&s, &t);
	}
	cr_assert_eq(s.len, 20003);
	for (int i = 0; i < 20000; i++) {
		char want[32];

		snprintf(want, sizeof want, "%d", i);
		cr_assert_str_eq(task_id(&s.tasks[3 + i]), want);
		snprintf(want, sizeof want, "code-%d", i % 7);
		cr_assert_str_eq(s.tasks[3 + i].prof->stop_code, want);
		cr_assert_eq(s.tasks[3 + i].prof->stop_code, s.tasks[3 + i % 7].prof->stop_code);
	}
	mk_pool = NULL;
	task_set_cleanup(&s);
}

/* The input reader's worker threads fill tasks from a pool of their own (one copy of each
 * text per chunk); the set takes the pool's storage at the first of its tasks, the
 * worker then frees the (empty) pool. */
Test(task, batch_pool_storage_moves_to_the_set)
{
	struct task_strpool *mine = task_strpool_new();
	struct task_set s;
	struct task t, spare;
	const char *cluster_in_mine = NULL;
	const char *arn = "arn:aws:ecs:us-east-1:123456789012:task/prod/own1";

	task_set_init(&s);
	for (int i = 0; i < 2; i++) {
		char a[80];

		snprintf(a, sizeof a, "%s%d", arn, i);
		task_init_pool(&t, mine);
		task_set_arn(&t, a, strlen(a));
		/* only the first 47 bytes: the pool copies n bytes and ends them */
		task_strn(&t, &task_edit_profile(&t)->cluster_arn, CLUSTER_ARN "/ignored", strlen(CLUSTER_ARN));
		task_strn(&t, &task_edit_profile(&t)->group, "service:web", 11);
		task_containers(&t, 1);
		task_strn(&t, &container_edit_profile(&t, &t.containers[0])->image, IMAGE, strlen(IMAGE));
		if (i == 0)
			cluster_in_mine = t.prof->cluster_arn;
		else
			cr_expect_neq(t.prof->cluster_arn, cluster_in_mine, "the pool's index went with the "
			    "first take: a new copy");
		task_set_take(&s, &t);
		cr_expect_null(t.pool);
	}
	/* a task of that pool that no set takes: nothing of it is freed but by the pool */
	task_init_pool(&spare, mine);
	task_strn(&spare, &task_edit_profile(&spare)->launch_type, "FARGATE", 7);
	struct tag *tg = task_tags(&spare, 1);
	task_strn(&spare, &tg[0].key, "team", 4);
	task_cleanup(&spare);
	cr_expect_null(spare.pool);

	cr_expect_str_eq(s.tasks[0].prof->cluster_arn, CLUSTER_ARN);
	cr_expect_eq(s.tasks[0].prof->cluster_arn, cluster_in_mine);
	task_strpool_free(mine);
	/* the set's tasks do not point into what the pool freed (ASan would tell) */
	cr_assert_eq(s.len, 2);
	cr_expect_str_eq(s.tasks[1].prof->cluster_arn, CLUSTER_ARN);
	cr_expect_str_eq(ARN_OF(&s.tasks[1]), "arn:aws:ecs:us-east-1:123456789012:task/prod/own11");
	cr_expect_str_eq(task_id(&s.tasks[1]), "own11");
	cr_expect_str_eq(s.tasks[0].prof->cluster, "prod");
	cr_expect_str_eq(s.tasks[0].prof->service, "web");
	cr_expect_str_eq(s.tasks[1].containers[0].prof->image, IMAGE);
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
	task_set_ts(&t, TS_PULL_STARTED, 5000);
	cr_expect_eq(task_stage(&t, &since), STAGE_PULL);
	cr_expect_eq(since, 5000);
	task_set_ts(&t, TS_PULL_STOPPED, 9000);
	cr_expect_eq(task_stage(&t, &since), STAGE_START);
	cr_expect_eq(since, 9000);
	task_set_ts(&t, TS_STARTED, 9500);
	cr_expect_eq(task_stage(&t, &since), STAGE_RUNNING);
	cr_expect_eq(since, 9500);
	cr_expect_not(task_is_final(&t));
	/* stopping after it ran: stopped, since the first sign of it */
	task_set_ts(&t, TS_STOPPING, 20000);
	cr_expect_eq(task_stage(&t, &since), STAGE_STOPPED);
	cr_expect_eq(since, 20000);
	cr_expect_not(task_is_final(&t));
	task_set_ts(&t, TS_STOPPED, 22000);
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
	task_str(&t, &task_edit_profile(&t)->last_status, "RUNNING");
	cr_expect_eq(task_stage(&t, &since), STAGE_RUNNING);
	cr_expect_eq(since, TS_NONE);
	task_cleanup(&t);
	/* a status alone says the task is on its way down */
	t = mk("arn:aws:ecs:us-east-1:1:task/c/b", -1, 1000, 2000);
	task_str(&t, &task_edit_profile(&t)->last_status, "DEACTIVATING");
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
	task_edit_profile(&t)->stop_code = task_edit_profile(&t)->stopped_reason = NULL;
	cr_expect_eq(task_stage(&t, NULL), STAGE_FAILED);
	task_cleanup(&t);
}

/* ECS's verdict wins over a startedAt (one container came up, another one died) */
Test(task, stage_task_failed_to_start_wins)
{
	struct task t;

	fs_failed_task(&t, true);
	task_set_ts(&t, TS_STARTED, FS_T0 + 30000);
	cr_expect_eq(task_stage(&t, NULL), STAGE_FAILED);
	task_str(&t, &task_edit_profile(&t)->stop_code, "EssentialContainerExited");
	cr_expect_eq(task_stage(&t, NULL), STAGE_STOPPED);
	task_cleanup(&t);
}

/* the input reader counts repeated deliveries from the same probe that merges them */
Test(task, take_seen_tells_a_repeat)
{
	struct task_set s;
	struct task t;
	bool repeat = true;

	task_set_init(&s);
	t = mk("arn:t/r", 3, 1000, TS_NONE);
	task_set_take_seen(&s, &t, &repeat);
	cr_expect_not(repeat, "new");
	t = mk("arn:t/r", 3, 1000, 2000);
	task_set_take_seen(&s, &t, &repeat);
	cr_expect(repeat, "the same version again");
	cr_expect_eq(task_ts(&s.tasks[0], TS_STARTED), 2000, "and merged");
	t = mk("arn:t/r", 4, 1000, TS_NONE);
	task_set_take_seen(&s, &t, &repeat);
	cr_expect_not(repeat, "a newer version");
	t = mk("arn:t/r", -1, 1000, TS_NONE);
	task_set_take_seen(&s, &t, &repeat);
	cr_expect_not(repeat, "no version");
	task_init(&t);
	task_set_take_seen(&s, &t, &repeat);
	cr_expect_not(repeat, "no ARN");
	cr_expect_eq(s.len, 2);
	/* the one probe keeps the index right as it grows past many sizes */
	for (int i = 0; i < 5000; i++) {
		char arn[40];

		snprintf(arn, sizeof arn, "arn:t/g%d", i % 2500);
		t = mk(arn, i / 2500, 1, TS_NONE);
		task_set_take_seen(&s, &t, &repeat);
		cr_assert_eq(repeat, false);
	}
	cr_expect_eq(s.len, 2502);
	cr_expect_eq(task_set_find(&s, "arn:t/g2499")->version, 1);
	cr_expect_not_null(task_set_find(&s, "arn:t/r"));
	task_set_cleanup(&s);
}

/* memory per task (issue 16): a set holds one struct task per task, its containers and
 * tags in the pool; these sizes are the budget (on LP64), padding included */
Test(task, struct_sizes_stay_in_budget)
{
	if (sizeof(void *) != 8)
		return;
	/* 328 before the profile took its 22 strings (issue 35), 160 before it took the tags,
	 * the id was found from the ARN and the four small enums became bit-fields, 136 before
	 * the times were kept as 32-bit differences, 104 before the health resolution took 32
	 * bits and the container count 16 */
	cr_expect_leq(sizeof(struct task), 96, "struct task: %zu bytes", sizeof(struct task));
	/* 72 before its profile took its six strings */
	cr_expect_leq(sizeof(struct container), 32, "struct container: %zu bytes",
		      sizeof(struct container));
	cr_expect_eq(sizeof(struct tag), 16);
}

/* Tasks of one service mostly have the same tags (and often the same containers): a pool
 * keeps one copy of each array; a merge that fills a container copies it first, so the
 * other tasks sharing it are not changed. */
Test(task, shared_arrays_are_copied_before_a_merge_fills_them)
{
	struct task_set s;
	struct task a, b, meta;
	struct container c[1];
	struct tag g[2];
	const char *ids[] = { "sa", "sb" };
	struct task *in[2];

	mk_pool = task_strpool_new();
	for (int i = 0; i < 2; i++) {
		struct task *t = i == 0 ? &a : &b;
		char arn[80];

		snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/%s", ids[i]);
		*t = mk(arn, 2, 1000, 5000);
		memset(c, 0, sizeof c);
		task_str(t, &container_edit_profile(t, &c[0])->name, "web");
		task_str(t, &container_edit_profile(t, &c[0])->image, IMAGE);
		task_share_containers(t, c, 1);
		memset(g, 0, sizeof g);
		task_str(t, &g[0].key, "team");
		task_str(t, &g[0].value, "payments");
		task_str(t, &g[1].key, "env");
		task_str(t, &g[1].value, "prod");
		task_share_tags(t, g, 2);
	}
	cr_expect_eq(a.prof->tags, b.prof->tags, "one copy of the same tags");
	cr_expect_eq(a.containers, b.containers, "one copy of the same containers");
	cr_expect_str_eq(b.prof->tags[1].value, "prod");
	task_set_init(&s);
	in[0] = task_set_take(&s, &a);
	in[1] = task_set_take(&s, &b);
	task_strpool_free(mk_pool);
	mk_pool = NULL;
	/* task metadata for sa only: its container's snapshotter */
	meta = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/sa", -1, 1000, TS_NONE);
	task_containers(&meta, 1);
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->name, "web");
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->snapshotter, "soci");
	meta.containers[0].essential = TRI_YES;
	task_set_take(&s, &meta);
	in[0] = task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/sa");
	in[1] = task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/sb");
	cr_assert_str_eq(in[0]->containers[0].prof->snapshotter, "soci");
	cr_expect_eq(in[0]->containers[0].essential, TRI_YES);
	cr_expect_str_eq(in[0]->containers[0].prof->image, IMAGE);
	cr_expect_null(in[1]->containers[0].prof->snapshotter, "the other task's containers unchanged");
	cr_expect_eq(in[1]->containers[0].essential, TRI_UNKNOWN);
	cr_expect_neq(in[0]->containers, in[1]->containers);
	cr_expect_eq(in[0]->prof->tags, in[1]->prof->tags);
	/* a merge that changes nothing keeps the shared array */
	const struct container *before = in[1]->containers;
	meta = mk("arn:aws:ecs:us-east-1:123456789012:task/prod/sb", 1, 1000, TS_NONE);
	task_containers(&meta, 1);
	task_str(&meta, &container_edit_profile(&meta, &meta.containers[0])->name, "web");
	task_set_take(&s, &meta);
	cr_expect_eq(task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/sb")->containers,
		     before);
	task_set_cleanup(&s);
}

static bool
keep_all(const struct task *t, void *ctx)
{
	(void)t;
	(void)ctx;
	return true;
}

/* a filter that keeps every task leaves the index as it was (not rebuilt: a SELECT that
 * keeps all is the common case), and it still finds them */
Test(task, filter_keeping_all_keeps_the_index)
{
	struct task_set s;
	struct task t;
	task_set_init(&s);
	for (int i = 0; i < 100; i++) {
		char arn[40];

		snprintf(arn, sizeof arn, "arn:t/k%d", i);
		t = mk(arn, 1, 1, TS_NONE);
		task_set_take(&s, &t);
	}
	task_set_filter(&s, keep_all, NULL);
	cr_expect_eq(s.len, 100);
	cr_expect_str_eq(task_id(task_set_find(&s, "arn:t/k57")), "k57");
	t = mk("arn:t/k57", 2, 1, TS_NONE);
	cr_expect_eq(task_set_take(&s, &t), &s.tasks[57]);
	cr_expect_eq(s.len, 100);
	task_set_cleanup(&s);
}

/* A task's times are a base and 32-bit differences (issue 35): any time, however far from
 * the others, reads back exactly as set, and a copy changing its times leaves the
 * original's alone, wide or not. */
Test(task, times_read_back_exactly_near_or_far)
{
	static const int64_t far[] = { 0, -1, 1, INT32_MAX, (int64_t)INT32_MIN - 5,
				       INT64_MAX, INT64_MIN + 1, 1714557600000, -1714557600000 };
	struct task_set s, other;
	struct task t, copy;

	task_init(&t);
	task_set_arn(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/far", strlen("arn:aws:ecs:us-east-1:123456789012:task/prod/far"));
	for (int f = 0; f < TS_SLOTS; f++)
		cr_expect_eq(task_ts(&t, f), TS_NONE);
	/* within 24.8 days of the first: compact, below the base too */
	task_set_ts(&t, TS_STARTED, 1714557600000);
	task_set_ts(&t, TS_CREATED, 1714557600000 - 86400000);
	task_set_ts(&t, TS_STOPPED, 1714557600000 + 2000000000);
	cr_expect(!t.ts_wide);
	cr_expect_eq(task_ts(&t, TS_CREATED), 1714557600000 - 86400000);
	cr_expect_eq(task_ts(&t, TS_STOPPED), 1714557600000 + 2000000000);
	cr_expect_eq(task_ts(&t, TS_PULL_STARTED), TS_NONE);
	/* a copy changes its own */
	copy = t;
	task_set_ts(&copy, TS_STOPPED, 1714557600000 + 5000);
	cr_expect_eq(task_ts(&t, TS_STOPPED), 1714557600000 + 2000000000);
	/* a month later: wide, every other time kept */
	task_set_ts(&t, TS_FETCHED, 1714557600000 + 31LL * 86400000);
	cr_expect(t.ts_wide);
	cr_expect_eq(task_ts(&t, TS_FETCHED), 1714557600000 + 31LL * 86400000);
	cr_expect_eq(task_ts(&t, TS_CREATED), 1714557600000 - 86400000);
	cr_expect_eq(task_ts(&t, TS_STARTED), 1714557600000);
	for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
		task_set_ts(&t, TS_HEALTHY, far[i]);
		cr_expect_eq(task_ts(&t, TS_HEALTHY), far[i], "%zu", i);
	}
	copy = t;
	task_set_ts(&copy, TS_STARTED, 7);
	cr_expect_eq(task_ts(&copy, TS_STARTED), 7);
	cr_expect_eq(task_ts(&t, TS_STARTED), 1714557600000, "the original's array is not written");
	task_set_ts(&t, TS_PULL_STOPPED, TS_NONE);
	cr_expect_eq(task_ts(&t, TS_PULL_STOPPED), TS_NONE);
	task_derive(&t);
	/* into a set, then copied into another that outlives it */
	task_set_init(&s);
	task_set_init(&other);
	task_set_take(&s, &t);
	task_set_take_copy(&other, &s.tasks[0], NULL);
	task_set_cleanup(&s);
	cr_expect_eq(task_ts(&other.tasks[0], TS_FETCHED), 1714557600000 + 31LL * 86400000);
	cr_expect_eq(task_ts(&other.tasks[0], TS_HEALTHY), -1714557600000);
	cr_expect_eq(task_ts(&other.tasks[0], TS_CREATED), 1714557600000 - 86400000);
	task_set_cleanup(&other);
}

/* The ARN kept as the cluster's prefix (in the profile, one for all) and the id (issue 35):
 * read back whole, found by either form, and kept whole when it cannot be split. */
/* ids of every length up to 80, found by ARNs copied to other addresses: the hash reads a
 * string's bytes in words, and must read only its own, wherever they lie (a hash that read
 * past the end found "task-without-a-slash" only at its own address) */
/* a status alone (no time, no stop code) says a task is going down, and only these four
 * (task_stage() reads the first byte before it compares) */
Test(task, a_status_alone_says_going_down)
{
	static const char *const down[] = { "DEACTIVATING", "STOPPING", "DEPROVISIONING",
					    "STOPPED" };
	static const char *const up[] = { "RUNNING", "PENDING", "PROVISIONING", "ACTIVATING",
					  "STOPPE", "DEACTIVATINGX", "S", "D", "" };
	struct task t;

	for (size_t i = 0; i < sizeof down / sizeof *down + sizeof up / sizeof *up; i++) {
		bool is_down = i < sizeof down / sizeof *down;
		const char *st = is_down ? down[i] : up[i - sizeof down / sizeof *down];

		task_init(&t);
		task_set_ts(&t, TS_CREATED, 1000);
		task_str(&t, &task_edit_profile(&t)->last_status, st);
		cr_expect_eq(task_stage_is_down(task_stage(&t, NULL)), is_down, "%s", st);
		task_cleanup(&t);
	}
}

struct hash_key {
	uint32_t h, k;
};

static int
cmp_hash_key(const void *a, const void *b)
{
	const struct hash_key *x = a, *y = b;

	return x->h != y->h ? (x->h < y->h ? -1 : 1) : (x->k < y->k ? -1 : x->k > y->k);
}

/* Two texts of n bytes at x and y that differ only in the (up to 4) bytes from at, and
 * whose hashes agree in the 32 bits a pool's index keeps: found among 2^18 such texts
 * (eight pairs expected) */
static bool
colliding(size_t n, size_t at, char *x, char *y)
{
	size_t w = n - at < 4 ? n - at : 4, count = (size_t)1 << 18;
	struct hash_key *v = xreallocarray(NULL, count, sizeof *v);
	bool found = false;

	cr_assert_geq(w, 3u, "room for 2^18 texts");
	memset(x, 'q', n);
	for (uint32_t k = 0; k < count; k++) {
		memcpy(x + at, &k, w);
		v[k] = (struct hash_key){ (uint32_t)tpool_hash(x, n), k };
	}
	qsort(v, count, sizeof *v, cmp_hash_key);
	for (size_t i = 1; i < count && !found; i++)
		if (v[i].h == v[i - 1].h) {
			memcpy(y, x, n);
			memcpy(x + at, &v[i - 1].k, w);
			memcpy(y + at, &v[i].k, w);
			found = true;
		}
	free(v);
	return found;
}

/* a batch pool keeps one copy of each text: two texts whose hashes agree, of lengths that
 * take each way of comparing (bytes, halves, words, memcmp()), differing only at the start,
 * the middle or the end, are two texts */
Test(task, texts_of_one_hash_are_two)
{
	static const size_t lens[] = { 3, 5, 7, 8, 12, 16, 17, 20, 24, 31, 32, 33, 40 };
	struct task_strpool *p = task_strpool_new();
	char x[41], y[41];
	struct task t;

	task_init_pool(&t, p);
	for (size_t i = 0; i < sizeof lens / sizeof *lens; i++)
		for (int where = 0; where < 3; where++) {
			size_t n = lens[i], w = n < 4 ? n : 4;
			size_t at = where == 0 ? 0 : where == 1 ? (n - w) / 2 : n - w;
			const char *a, *b, *c;

			cr_assert(colliding(n, at, x, y), "%zu at %zu", n, at);
			cr_assert_neq(memcmp(x, y, n), 0);
			task_strn(&t, &a, x, n);
			task_strn(&t, &b, y, n);
			task_strn(&t, &c, x, n);
			cr_expect_eq(a, c, "%zu at %zu: one copy", n, at);
			cr_expect_neq(a, b, "%zu at %zu", n, at);
			cr_expect_eq(memcmp(b, y, n), 0, "%zu at %zu", n, at);
		}
	task_cleanup(&t);
	task_strpool_free(p);
}

Test(task, ids_of_every_length_found_from_any_address)
{
	char id[81], arn[160], copy[168];
	struct task_set s;
	struct task t;

	task_set_init(&s);
	for (size_t n = 1; n <= 80; n++) {
		for (size_t i = 0; i < n; i++)
			id[i] = "0123456789abcdef"[(n * 7 + i * 5) % 16];
		id[n] = '\0';
		snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:1:task/c/%s", id);
		task_init(&t);
		task_set_arn(&t, arn, strlen(arn));
		task_set_take(&s, &t);
	}
	cr_assert_eq(s.len, 80);
	for (size_t n = 1; n <= 80; n++)
		for (size_t at = 1; at < 8; at++) {
			memset(copy, 'z', sizeof copy);
			memcpy(copy + at, ARN_OF(&s.tasks[n - 1]), strlen(ARN_OF(&s.tasks[n - 1])) + 1);
			cr_expect_eq(task_set_find(&s, copy + at), &s.tasks[n - 1], "%zu at %zu", n, at);
		}
	task_set_cleanup(&s);
}

Test(task, arn_kept_as_prefix_and_id)
{
	static const char *const whole[] = {
		"arn:aws:ecs:us-east-1:123456789012:task/prod/0123456789abcdef0123456789abcdef",
		"arn:aws:ecs:us-east-1:123456789012:task/0123abcd",   /* the old format */
		"task-without-a-slash",
		"arn:aws:ecs:us-east-1:123456789012:task/prod/",        /* an empty id */
	};
	char big[TASK_ARN_MAX + 40];
	struct task_set s;
	struct task t;

	task_set_init(&s);
	for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
		task_init(&t);
		task_set_arn(&t, whole[i], strlen(whole[i]));
		task_set_take(&s, &t);
	}
	/* longer than the buffer task_arn() writes into: kept whole */
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "arn:aws:ecs:us-east-1:1:task/c/", 31);
	task_init(&t);
	task_set_arn(&t, big, strlen(big));
	task_set_take(&s, &t);
	cr_assert_eq(s.len, 5);
	for (size_t i = 0; i < 4; i++) {
		cr_expect_str_eq(ARN_OF(&s.tasks[i]), whole[i]);
		cr_expect_eq(task_set_find(&s, whole[i]), &s.tasks[i], "%s", whole[i]);
		cr_expect(task_arn_is(&s.tasks[i], whole[i]));
	}
	cr_expect_str_eq(s.tasks[0].arn_tail, "0123456789abcdef0123456789abcdef");
	cr_expect_str_eq(task_id(&s.tasks[0]), "0123456789abcdef0123456789abcdef");
	cr_expect_str_eq(s.tasks[0].prof->cluster, "prod", "the cluster read from the prefix");
	cr_expect_str_eq(task_id(&s.tasks[1]), "0123abcd");
	cr_expect_str_eq(task_id(&s.tasks[2]), "task-without-a-slash");
	cr_expect_null(s.tasks[2].prof->arn_prefix);
	cr_expect_str_eq(task_id(&s.tasks[3]), "");
	cr_expect_null(s.tasks[4].prof->arn_prefix);
	cr_expect_str_eq(ARN_OF(&s.tasks[4]), big);
	cr_expect_eq(task_set_find(&s, big), &s.tasks[4]);
	cr_expect_str_eq(task_id(&s.tasks[4]), big + 31);
	/* a prefix that only begins the same is another task */
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/pro/"
				     "0123456789abcdef0123456789abcdef"));
	cr_expect(!task_arn_is(&s.tasks[0], "arn:aws:ecs:us-east-1:123456789012:task/prod"));

	/* a probe holding its ARN whole finds the task that keeps it in two parts, and the
	 * same ARN taken again merges with it rather than adding a task */
	task_init(&t);
	t.arn_tail = whole[0];
	cr_expect_eq(task_set_find_task(&s, &t), &s.tasks[0]);
	task_set_arn(&t, whole[0], strlen(whole[0]));
	task_set_ts(&t, TS_CREATED, 1000);
	task_set_take(&s, &t);
	cr_expect_eq(s.len, 5);
	cr_expect_eq(task_ts(&s.tasks[0], TS_CREATED), 1000);
	cr_expect_str_eq(ARN_OF(&s.tasks[0]), whole[0]);
	task_set_cleanup(&s);
}

/* The tasks of one cluster share one prefix: the set keeps it once. */
Test(task, arn_prefix_is_shared_by_a_clusters_tasks)
{
	struct task_set s;
	struct task a, b;

	mk_pool = task_strpool_new();   /* one batch, as a reader's worker reads them */
	a = mk_full("p1", 1, NULL);
	b = mk_full("p2", 1, NULL);
	task_set_init(&s);
	task_set_take(&s, &a);
	task_set_take(&s, &b);
	task_strpool_free(mk_pool);
	mk_pool = NULL;
	cr_assert_eq(s.len, 2);
	cr_expect_eq(s.tasks[0].prof, s.tasks[1].prof, "one profile for both, prefix and all");
	cr_expect_str_eq(s.tasks[1].prof->arn_prefix, "arn:aws:ecs:us-east-1:123456789012:task/prod/");
	cr_expect_str_eq(task_id(&s.tasks[1]), "p2");
	task_set_cleanup(&s);
}

/* An image digest in ECS's form kept as its 32 bytes (issue 35), any other text as it is:
 * each read back as given, through a copy and a copy into another set. */
Test(task, digests_read_back_as_given)
{
	static const char *const given[] = {
		"sha256:0000000000000000000000000000000000000000000000000000000000000000",
		"sha256:00ff10a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1",
		"sha256:00FF10A9B8C7D6E5F4A3B2C1D0E9F8A7B6C5D4E3F2A1B0C9D8E7F6A5B4C3D2E1",   /* upper */
		"sha256:00ff10a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e",    /* short */
		"sha256:00ff10a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2eg",   /* not hex */
		"sha512:00ff10a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1",
		"\001sha256 begins with a mark",
		"\002so does this",
		"",
	};
	size_t n = sizeof given / sizeof *given;
	struct task_set s, other;
	struct task t, copy;

	task_set_init(&s);
	task_set_init(&other);
	task_init(&t);
	task_set_arn(&t, "arn:aws:ecs:us-east-1:1:task/c/d", 32);
	task_containers(&t, n + 1);
	for (size_t i = 0; i < n; i++)
		container_set_digest(&t, &t.containers[i], given[i], strlen(given[i]));
	container_set_digest(&t, &t.containers[n], NULL, 0);
	cr_expect_eq(t.containers[0].digest_raw[0], DIGEST_RAW_SHA256, "kept as bytes");
	cr_expect_eq(digest_raw_len(t.containers[1].digest_raw), DIGEST_RAW_SHA256_LEN);
	cr_expect_str_eq(t.containers[2].digest_raw, given[2], "upper case: kept as text");
	task_set_take(&s, &t);
	task_copy(&copy, &s.tasks[0]);
	task_set_take_copy(&other, &s.tasks[0], NULL);
	task_set_cleanup(&s);
	for (size_t i = 0; i < n; i++) {
		cr_expect_str_eq(DIGEST_OF(&copy.containers[i]), given[i], "%zu", i);
		cr_expect_str_eq(DIGEST_OF(&other.tasks[0].containers[i]), given[i], "%zu", i);
	}
	cr_expect_null(DIGEST_OF(&copy.containers[n]));
	cr_expect_str_eq(task_image_digest(&copy, &(struct digest_buf){ 0 }), given[0]);
	task_cleanup(&copy);
	task_set_cleanup(&other);
}
