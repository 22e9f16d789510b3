#include <criterion/criterion.h>

#include "ecsprof/phase.h"
#include "ecsprof/xalloc.h"

static struct task
timeline(int64_t created, int64_t pull_start, int64_t pull_stop, int64_t started, int64_t conn)
{
	struct task t;

	task_init(&t);
	task_set_ts(&t, TS_CREATED, created);
	task_set_ts(&t, TS_PULL_STARTED, pull_start);
	task_set_ts(&t, TS_PULL_STOPPED, pull_stop);
	task_set_ts(&t, TS_STARTED, started);
	task_set_ts(&t, TS_CONNECTIVITY, conn);
	return t;
}

Test(phase, definitions)
{
	struct task t = timeline(1000, 21500, 95000, 99250, 12000);

	cr_expect_eq(phase_ms(&t, PHASE_PROVISION), 20500);
	cr_expect_eq(phase_ms(&t, PHASE_PULL), 73500);
	cr_expect_eq(phase_ms(&t, PHASE_START), 4250);
	cr_expect_eq(phase_ms(&t, PHASE_TOTAL), 98250);
	cr_expect_eq(phase_ms(&t, PHASE_CONNECTIVITY), 11000);
	cr_expect_eq(phase_ms(&t, PHASE_PROVISION) + phase_ms(&t, PHASE_PULL) +
		     phase_ms(&t, PHASE_START), phase_ms(&t, PHASE_TOTAL));
}

Test(phase, missing_is_absent_not_zero)
{
	struct task t = timeline(1000, 21500, TS_NONE, TS_NONE, TS_NONE);

	cr_expect_eq(phase_ms(&t, PHASE_PROVISION), 20500);
	cr_expect_eq(phase_ms(&t, PHASE_PULL), TS_NONE);
	cr_expect_eq(phase_ms(&t, PHASE_START), TS_NONE);
	cr_expect_eq(phase_ms(&t, PHASE_TOTAL), TS_NONE);
}

Test(phase, negative_is_absent_and_flagged)
{
	struct task t = timeline(50000, 40000, 60000, 70000, TS_NONE);

	cr_expect_eq(phase_ms(&t, PHASE_PROVISION), TS_NONE);
	cr_expect(phase_is_negative(&t, PHASE_PROVISION));
	cr_expect_not(phase_is_negative(&t, PHASE_PULL));
	cr_expect_eq(phase_ms(&t, PHASE_PULL), 20000);
}

Test(phase, current)
{
	struct task t = timeline(1000, TS_NONE, TS_NONE, TS_NONE, TS_NONE);
	int64_t since = 0;

	cr_expect_eq(phase_current(&t, &since), PHASE_PROVISION);
	cr_expect_eq(since, 1000);
	task_set_ts(&t, TS_PULL_STARTED, 5000);
	cr_expect_eq(phase_current(&t, &since), PHASE_PULL);
	cr_expect_eq(since, 5000);
	task_set_ts(&t, TS_PULL_STOPPED, 9000);
	cr_expect_eq(phase_current(&t, &since), PHASE_START);
	task_set_ts(&t, TS_STARTED, 9500);
	cr_expect_eq(phase_current(&t, &since), -1);
	/* failed before RUNNING: not "in progress" */
	task_set_ts(&t, TS_STARTED, TS_NONE);
	task_str(&t, &task_edit_profile(&t)->last_status, "STOPPED");
	cr_expect_eq(phase_current(&t, &since), -1);
	task_cleanup(&t);
	cr_expect_eq(phase_by_name("pull"), PHASE_PULL);
	cr_expect_eq(phase_by_name("nope"), -1);
}

#include "fixtures/failed_start.h"

/* phase_current is task_stage in phase terms: a failed start being torn down is in no
 * phase, so no output draws it as still provisioning */
Test(phase, current_of_a_deprovisioning_failed_start)
{
	struct task t;
	int64_t since = 0;

	fs_failed_task(&t, false);
	cr_expect_eq(phase_current(&t, &since), -1);
	task_cleanup(&t);
}
