/* deploy: what `report --deployments` measures per deployment, from the tasks it started
 * (startedBy) and the service's events. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/deploy.h"
#include "ecsprof/task.h"
#include "fixtures/failed_start.h"

#define DEPLOY_ID "ecs-svc/1234567890123456789"

static void
started_by(struct task_set *set, struct task *t)
{
	task_str(t, &task_edit_profile(t)->started_by, DEPLOY_ID);
	task_derive(t);
	task_set_take(set, t);
}

/* A start ECS is still tearing down (DEPROVISIONING, stoppingAt, no stoppedAt and no stop
 * code yet: ECS fills those in last) is a failed task of its deployment, as every other
 * output marks it, and does not hold "all RUNNING" back as if it were still starting. */
Test(deploy, a_deprovisioning_failed_start_counts_as_failed)
{
	struct deploy_set ds;
	struct task_set set;
	struct deployment *d;
	struct deploy_row *rows;
	size_t n;
	struct task t;

	deploy_set_init(&ds);
	d = deploy_set_get(&ds, "web", DEPLOY_ID);
	d->created_ms = FS_T0 - 1000;
	task_set_init(&set);
	fs_failed_task(&t, false);
	task_edit_profile(&t)->stop_code = NULL;   /* the fixture's string stays in the task's pool */
	started_by(&set, &t);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/0c0c0c0c0c0c0c0c");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 20000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 30000);
	task_str(&t, &task_edit_profile(&t)->last_status, "RUNNING");
	started_by(&set, &t);

	deploy_rows(&ds, &set, &rows, &n);
	cr_assert_eq(n, 1);
	cr_expect_eq(rows[0].tasks_started, 2);
	cr_expect_eq(rows[0].failed_tasks, 1, "failed: %ld", rows[0].failed_tasks);
	cr_expect_eq(rows[0].first_running_ms, 31000);
	cr_expect_eq(rows[0].all_running_ms, 31000, "all RUNNING: %lld",
		     (long long)rows[0].all_running_ms);
	deploy_rows_free(rows, n);
	task_set_cleanup(&set);
	deploy_set_cleanup(&ds);
}
