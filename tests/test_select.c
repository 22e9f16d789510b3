/* select: the SELECT filter on saved data, option by option. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "ecsprof/select.h"
#include "ecsprof/xalloc.h"
#include "fixtures/task_text.h"

static struct task
mk(const char *id, const char *desired, const char *last, int64_t created)
{
	struct task t;

	task_init(&t);
	task_set_arnf(&t, "arn:aws:ecs:us-east-1:1:task/prod/%s", id);
	task_str(&t, &task_edit_profile(&t)->cluster_arn, "arn:aws:ecs:us-east-1:1:cluster/prod");
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:1:task-definition/web:3");
	task_str(&t, &task_edit_profile(&t)->group, "service:web");
	task_str(&t, &task_edit_profile(&t)->started_by, "ecs-svc/1");
	task_str(&t, &task_edit_profile(&t)->desired_status, desired);
	task_str(&t, &task_edit_profile(&t)->last_status, last);
	task_set_ts(&t, TS_CREATED, created);
	task_derive(&t);
	return t;
}

Test(select, each_option)
{
	struct task t = mk("abc", "RUNNING", "RUNNING", 5000);
	const char *svc_arn[] = { "arn:aws:ecs:us-east-1:1:service/prod/web" };
	const char *other[] = { "api" };
	const char *ids[] = { "nope", "abc" };
	struct select_options o = { .since_ms = TS_NONE };

	cr_expect(select_keep(&o, &t), "no option keeps everything");
	o.cluster = "prod";
	cr_expect(select_keep(&o, &t));
	o.cluster = "arn:aws:ecs:us-east-1:1:cluster/prod";
	cr_expect(select_keep(&o, &t), "a cluster ARN");
	o.cluster = "test";
	cr_expect_not(select_keep(&o, &t));
	o.cluster = NULL;
	o.services = svc_arn;
	o.nservices = 1;
	cr_expect(select_keep(&o, &t), "a service ARN counts by its name");
	o.services = other;
	cr_expect_not(select_keep(&o, &t));
	o.nservices = 0;
	o.family = "web";
	cr_expect(select_keep(&o, &t));
	o.family = "api";
	cr_expect_not(select_keep(&o, &t));
	o.family = NULL;
	o.started_by = "ecs-svc/2";
	cr_expect_not(select_keep(&o, &t));
	o.started_by = NULL;
	o.status = SELECT_STOPPED;
	cr_expect_not(select_keep(&o, &t));
	o.status = SELECT_RUNNING;
	cr_expect(select_keep(&o, &t));
	o.status = SELECT_ALL;
	o.tasks = ids;
	o.ntasks = 2;
	cr_expect(select_keep(&o, &t), "by id");
	o.ntasks = 1;
	cr_expect_not(select_keep(&o, &t));
	o.ntasks = 0;
	o.since_ms = 5000;
	cr_expect(select_keep(&o, &t), "created at the cutoff");
	o.since_ms = 5001;
	cr_expect_not(select_keep(&o, &t));
	task_cleanup(&t);
}

/* ListTasks filters on desiredStatus; a task file may only have lastStatus */
Test(select, status_falls_back_to_last_status)
{
	struct task t = mk("abc", NULL, "STOPPED", 5000);
	struct select_options o = { .status = SELECT_STOPPED, .since_ms = TS_NONE };

	cr_expect(select_keep(&o, &t));
	task_cleanup(&t);
	t = mk("abc", "STOPPED", "RUNNING", 5000);
	cr_expect(select_keep(&o, &t), "desiredStatus wins: the task is being stopped");
	task_cleanup(&t);
}

Test(select, apply_keeps_order)
{
	struct task_set s;
	struct task t;
	struct select_options o = { .since_ms = 2000 };

	task_set_init(&s);
	t = mk("a", "RUNNING", "RUNNING", 1000);
	task_set_take(&s, &t);
	t = mk("b", "RUNNING", "RUNNING", 3000);
	task_set_take(&s, &t);
	t = mk("c", "RUNNING", "RUNNING", 2000);
	task_set_take(&s, &t);
	select_apply(&o, &s);
	cr_assert_eq(s.len, 2);
	cr_expect_str_eq(task_id(&s.tasks[0]), "b");
	cr_expect_str_eq(task_id(&s.tasks[1]), "c");
	task_set_cleanup(&s);
}

/* the short id the table and the TUI print, 4 or more characters, never part of an ARN */
Test(select, short_task_id)
{
	struct task t = mk("313da244c0ffee", "RUNNING", "RUNNING", 5000);
	const char *ids[1];
	struct select_options o = { .tasks = ids, .ntasks = 1, .since_ms = TS_NONE };

	ids[0] = "313da244";
	cr_expect(select_keep(&o, &t));
	ids[0] = "313";
	cr_expect_not(select_keep(&o, &t), "fewer than 4 characters is not an id");
	ids[0] = "prod/313da244";
	cr_expect_not(select_keep(&o, &t), "a partial ARN is not a short id");
	task_cleanup(&t);
}

/* no option set: select_apply leaves the set as it was (every task, in order, each found
 * by its ARN), without a pass over it; one option set still filters */
Test(select, no_option_keeps_the_set)
{
	struct task_set s;
	struct select_options none = { .since_ms = TS_NONE };
	struct select_options since = { .since_ms = 3000 };
	char arn[128];

	task_set_init(&s);
	for (int i = 0; i < 50; i++) {
		char id[16];
		struct task t;

		snprintf(id, sizeof id, "t%02d", i);
		t = mk(id, "RUNNING", "RUNNING", 100 * i);
		task_set_take(&s, &t);
	}
	select_apply(&none, &s);
	cr_assert_eq(s.len, 50);
	for (int i = 0; i < 50; i++) {
		snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:1:task/prod/t%02d", i);
		cr_expect_str_eq(ARN_OF(&s.tasks[i]), arn);
		cr_expect_eq(task_set_find(&s, arn), &s.tasks[i]);
	}
	select_apply(&since, &s);
	cr_assert_eq(s.len, 20);
	cr_expect_str_eq(ARN_OF(&s.tasks[0]), "arn:aws:ecs:us-east-1:1:task/prod/t30");
	cr_expect_eq(task_set_find(&s, "arn:aws:ecs:us-east-1:1:task/prod/t49"), &s.tasks[19]);
	cr_expect_null(task_set_find(&s, "arn:aws:ecs:us-east-1:1:task/prod/t10"));
	task_set_cleanup(&s);
}
