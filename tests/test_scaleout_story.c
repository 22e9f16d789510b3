/* scaleout_story: scripted scale-outs (scaleout_story.h): the rows, their tasks, every
 * stage's instants, what is estimated, the largest stage, the advice and the notes that
 * name the sources not read. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/scaleout_story.h"

#define T0 1796040000000LL   /* 2026-12-01T08:00:00Z */
#define S(x) ((int64_t)((x) * 1000))
#define TG "arn:aws:elasticloadbalancing:us-east-1:1:targetgroup/web/0123456789abcdef"
#define HIGH "TargetTracking-service/prod/web-AlarmHigh-1"
#define LOW "TargetTracking-service/prod/web-AlarmLow-1"

struct phases { double created, conn, pull_start, pull_stop, started; };

/* A service task of web in prod: times in seconds after T0 (< 0: absent) */
static struct task *
add_task(struct task_set *set, const char *id, const char *started_by, struct phases p)
{
	struct task t;
	const double at[] = { p.created, p.conn, p.pull_start, p.pull_stop, p.started };
	const enum ts_field f[] = { TS_CREATED, TS_CONNECTIVITY, TS_PULL_STARTED, TS_PULL_STOPPED,
				    TS_STARTED };

	task_init(&t);
	task_set_arnf(&t, "arn:aws:ecs:us-east-1:1:task/prod/%s", id);
	task_str(&t, &task_edit_profile(&t)->cluster_arn, "arn:aws:ecs:us-east-1:1:cluster/prod");
	task_str(&t, &task_edit_profile(&t)->group, "service:web");
	task_str(&t, &task_edit_profile(&t)->started_by, started_by);
	for (size_t i = 0; i < 5; i++)
		if (at[i] >= 0)
			task_set_ts(&t, f[i], T0 + S(at[i]));
	task_str(&t, &task_edit_profile(&t)->last_status, p.started >= 0 ? "RUNNING" : "PENDING");
	task_derive(&t);
	return task_set_take(set, &t);
}

static void
add_alarm(struct so_sources *s, const char *name, const char *op, long period, long n)
{
	struct so_alarm *a = so_sources_alarm(s, NULL, name);

	a->comparison = strdup(op);
	a->period_s = period;
	a->evaluation_periods = a->datapoints = n;
	a->threshold = 50;
	s->read[SO_SRC_ALARMS] = true;
}

static void
add_activity(struct so_sources *s, const char *id, double start, long to, const char *alarm)
{
	struct so_activity *a = so_sources_activity(s, id);
	char d[64], c[200];

	snprintf(d, sizeof d, "Setting desired count to %ld.", to);
	snprintf(c, sizeof c, "monitor alarm %s in state ALARM triggered policy web-cpu", alarm);
	a->resource_id = strdup("service/prod/web");
	a->description = strdup(d);
	a->cause = strdup(c);
	a->status = strdup("Successful");
	a->start_ms = T0 + S(start);
	a->desired_to = so_desired_of_description(a->description);
	so_cause_names(a->cause, &a->alarm, &a->policy);
	so_activity_resource(a);
	s->read[SO_SRC_ACTIVITIES] = true;
}

static void
add_service(struct so_sources *s, bool lb)
{
	struct so_service *v = so_sources_service(s, "web");

	v->cluster = strdup("prod");
	v->grace_s = 60;
	if (lb) {
		v->target_groups = calloc(1, sizeof *v->target_groups);
		v->target_groups[0] = strdup(TG);
		v->ntarget_groups = 1;
	}
	s->read[SO_SRC_SERVICES] = true;
}

static void
add_tg(struct so_sources *s, long interval, long threshold)
{
	struct so_target_group *g = so_sources_target_group(s, TG);

	g->interval_s = interval;
	g->healthy_threshold = threshold;
	s->read[SO_SRC_TARGET_GROUPS] = true;
}

static void
event(struct so_sources *s, const char *id, double at, const char *msg)
{
	deploy_set_event(&s->deploys, "web", id, T0 + S(at), msg);
}

static bool
has_note(const struct so_story *st, const char *needle)
{
	for (size_t i = 0; i < st->nnotes; i++)
		if (strstr(st->notes[i], needle) != NULL)
			return true;
	return false;
}

static const struct phases P3[] = {
	{ 13, 23, 33, 43, 46 }, { 14, 24, 34, 44, 47 }, { 15, 25, 35, 45, 48 },
};

/* The alarm-triggered scale-out of the contract's example: the alarm fires after 120 s of
 * breaching data, Auto Scaling acts 10 s later, three tasks, and the target group's
 * 30 x 5 health check makes register (estimated: no target health observed) the largest
 * stage. The scale-in before it is not a row. */
Test(scaleout_story, alarm_triggered_register_is_the_largest_stage)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	struct so_transition *tr;
	const struct so_row *r;

	so_sources_init(&src);
	task_set_init(&set);
	add_alarm(&src, HIGH, "GreaterThanThreshold", 60, 3);
	add_alarm(&src, LOW, "LessThanThreshold", 60, 15);
	add_activity(&src, "scale-in", -3600, 2, LOW);
	add_activity(&src, "scale-out", 10, 5, HIGH);
	tr = so_sources_transition(&src, HIGH, T0);
	tr->new_state = strdup("ALARM");
	tr->first_breach_ms = T0 - S(120);
	src.read[SO_SRC_ALARM_HISTORY] = src.read[SO_SRC_POLICIES] = true;
	add_service(&src, true);
	add_tg(&src, 30, 5);
	add_task(&set, "aaaa", "ecs-svc/1", P3[0]);
	add_task(&set, "bbbb", "ecs-svc/1", P3[1]);
	add_task(&set, "cccc", "ecs-svc/1", P3[2]);
	add_task(&set, "old0", "ecs-svc/1", (struct phases){ -7200, -7190, -7180, -7170, -7160 });
	event(&src, "e1", 16, "(service web) has started 3 tasks: (task aaaa) (task bbbb) (task cccc).");
	event(&src, "e2", 50, "(service web) registered 3 targets in (target-group " TG ")");

	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1, "rows: %zu (a scale-in is never a row)", st.n);
	r = &st.rows[0];
	cr_expect_eq(r->trigger, SO_TRIGGER_ALARM);
	cr_expect_eq(r->trigger_ms, T0);
	cr_expect_eq(r->desired_from, 2);
	cr_expect_eq(r->desired_to, 5);
	cr_expect_eq(r->tasks_started, 3);
	cr_expect_eq(r->ntasks, 3, "the task of two hours ago is not the scale-out's");
	cr_expect_float_eq(so_row_seconds(r, SO_DETECT), 120.0, 1e-9);
	cr_expect_not(so_row_estimated(r, SO_DETECT));
	cr_expect_float_eq(so_row_seconds(r, SO_REACT), 10.0, 1e-9);
	cr_expect_float_eq(so_row_seconds(r, SO_SCHEDULE), 3.0, 1e-9);
	cr_expect_float_eq(so_row_seconds(r, SO_LAUNCH), 2.0, 1e-9);
	cr_expect_float_eq(r->dist[SO_PROVISION].p50_s, 20.0, 1e-9);
	cr_expect_float_eq(r->dist[SO_ATTACH].p50_s, 10.0, 1e-9);
	cr_expect_float_eq(r->dist[SO_WAIT].p50_s, 10.0, 1e-9);
	cr_expect_float_eq(r->dist[SO_PULL].max_s, 10.0, 1e-9);
	cr_expect_eq(r->dist[SO_HEALTH].n, 0);
	cr_expect(isnan(so_row_seconds(r, SO_HEALTH)), "no HEALTHY: empty, not 0");
	/* registered at +50, then 30 x 5 = 150 s: estimated */
	cr_expect_eq(r->span[SO_REGISTER].from_ms, T0 + S(50));
	cr_expect_eq(r->span[SO_REGISTER].to_ms, T0 + S(200));
	cr_expect(so_row_estimated(r, SO_REGISTER));
	cr_expect(so_row_estimated(r, SO_TOTAL));
	cr_expect_float_eq(so_row_seconds(r, SO_TOTAL), 200.0, 1e-9);
	cr_expect_eq(r->largest, SO_REGISTER);
	cr_expect(strstr(r->advice, "register ~150 s of ~200 s: HealthCheckIntervalSeconds 30 x "
		  "HealthyThresholdCount 5; 10 x 2 would save about 130 s") != NULL, "%s", r->advice);
	cr_expect(strstr(r->advice, "detect 120 s: the alarm needs Period 60 x DatapointsToAlarm 3 "
		  "= 180 s") != NULL, "%s", r->advice);
	cr_expect(has_note(&st, "no target health observed"));
	cr_expect_not(has_note(&st, "no alarm history"));
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* Observed target health ends register where the last new target was seen healthy */
Test(scaleout_story, observed_target_health_is_not_an_estimate)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	const char *ids[] = { "10.0.0.1", "10.0.0.2", "10.0.0.9" };

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 10, 3, HIGH);
	add_service(&src, true);
	add_tg(&src, 30, 5);
	add_task(&set, "aaaa", "ecs-svc/1", P3[0]);
	add_task(&set, "bbbb", "ecs-svc/1", P3[1]);
	event(&src, "e2", 50, "(service web) registered 2 targets in (target-group " TG ")");
	for (double t = 40; t <= 200; t += 10)
		for (size_t k = 0; k < 3; k++) {
			struct so_target_obs *o;

			if (k < 2 && t < 50)
				continue;   /* not registered yet */
			o = so_sources_observation(&src, TG, ids[k], T0 + S(t));
			/* the third target served before: healthy from the first look */
			o->state = strdup(k == 2 || t >= 140 + 10 * (double)k ? "healthy" : "initial");
		}
	src.read[SO_SRC_TARGET_HEALTH] = true;
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	cr_expect_eq(st.rows[0].span[SO_REGISTER].to_ms, T0 + S(150));
	cr_expect_not(so_row_estimated(&st.rows[0], SO_REGISTER));
	cr_expect_float_eq(so_row_seconds(&st.rows[0], SO_REGISTER), 100.0, 1e-9);
	cr_expect_not(has_note(&st, "no target health observed"));
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* No ECS event says when the targets were registered, but `watch --record` saw the first
 * new target `initial` at +50: register starts there, observed (not the tasks' RUNNING,
 * which is the estimate when nothing was seen) */
Test(scaleout_story, watched_initial_sighting_starts_register)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	const char *ids[] = { "10.0.0.1", "10.0.0.2" };

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 10, 3, HIGH);
	add_service(&src, true);
	add_tg(&src, 30, 5);
	add_task(&set, "aaaa", "ecs-svc/1", P3[0]);
	add_task(&set, "bbbb", "ecs-svc/1", P3[1]);
	for (double t = 50; t <= 200; t += 10)
		for (size_t k = 0; k < 2; k++) {
			struct so_target_obs *o;

			if (k == 1 && t < 60)
				continue;   /* the second target is seen a poll later */
			o = so_sources_observation(&src, TG, ids[k], T0 + S(t));
			o->state = strdup(t >= 140 + 10 * (double)k ? "healthy" : "initial");
		}
	src.read[SO_SRC_TARGET_HEALTH] = true;
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	cr_expect_eq(st.rows[0].span[SO_REGISTER].from_ms, T0 + S(50), "the first sighting");
	cr_expect_eq(st.rows[0].span[SO_REGISTER].to_ms, T0 + S(150));
	cr_expect_not(so_row_estimated(&st.rows[0], SO_REGISTER));
	cr_expect_float_eq(so_row_seconds(&st.rows[0], SO_REGISTER), 100.0, 1e-9);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* A deployment: its tasks by startedBy (no service event names them), pull the largest;
 * no load balancer, so serving is RUNNING; the missing activities are named */
Test(scaleout_story, deployment_driven_pull_is_the_largest_stage)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	struct deployment *d;
	const struct so_row *r;

	so_sources_init(&src);
	task_set_init(&set);
	add_service(&src, false);
	d = deploy_set_get(&src.deploys, "web", "ecs-svc/2");
	d->created_ms = T0;
	d->desired = 2;
	add_task(&set, "new1", "ecs-svc/2", (struct phases){ 5, 12, 20, 110, 114 });
	add_task(&set, "new2", "ecs-svc/2", (struct phases){ 6, 13, 21, 101, 104 });
	add_task(&set, "oldr", "ecs-svc/1", (struct phases){ 7, 14, 22, 30, 33 });
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	r = &st.rows[0];
	cr_expect_eq(r->trigger, SO_TRIGGER_DEPLOYMENT);
	cr_expect_eq(r->ntasks, 2, "the other deployment's task is not this one's");
	cr_expect_eq(r->desired_from, -1, "unknown, not 0");
	cr_expect_eq(r->largest, SO_PULL);
	cr_expect_float_eq(r->dist[SO_PULL].p50_s, 85.0, 1e-9);
	cr_expect_float_eq(r->dist[SO_PULL].max_s, 90.0, 1e-9);
	cr_expect_eq(r->span[SO_REGISTER].from_ms, TS_NONE);
	cr_expect_float_eq(so_row_seconds(r, SO_TOTAL), 114.0, 1e-9);
	cr_expect(isnan(so_row_seconds(r, SO_DETECT)));
	cr_expect(strstr(r->advice, "pull p50 85 s of 114 s: no image facts read") != NULL, "%s",
		  r->advice);
	cr_expect(has_note(&st, "no scaling activities (application-autoscaling "
			   "describe-scaling-activities): react not measured"));
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* A start that failed is counted and named in the advice; it does not serve */
Test(scaleout_story, a_failed_start_is_counted)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	struct task *t;

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 10, 3, HIGH);
	add_service(&src, false);
	add_task(&set, "okay", "ecs-svc/1", P3[0]);
	t = add_task(&set, "fail", "ecs-svc/1", (struct phases){ 14, 24, 34, -1, -1 });
	task_set_ts(t, TS_STOPPING, T0 + S(95));
	task_str(t, &task_edit_profile(t)->stop_code, "TaskFailedToStart");
	task_str(t, &task_edit_profile(t)->stopped_reason, "CannotPullContainerError: i/o timeout");
	task_str(t, &task_edit_profile(t)->last_status, "STOPPED");
	event(&src, "e1", 16, "(service web) has started 2 tasks: (task okay) (task fail).");
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	cr_expect_eq(st.rows[0].tasks_started, 2);
	cr_expect_eq(st.rows[0].tasks_failed, 1);
	cr_expect_float_eq(so_row_seconds(&st.rows[0], SO_TOTAL), 36.0, 1e-9,
			   "the running task's start, not the failed one's");
	cr_expect(strstr(st.rows[0].advice, "1 task failed to start (CannotPullContainerError: "
		  "i/o timeout)") != NULL, "%s", st.rows[0].advice);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* "unable to place a task ... Capacity is unavailable" in the window: a capacity error */
Test(scaleout_story, a_capacity_error_is_counted)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 10, 3, HIGH);
	add_service(&src, false);
	add_task(&set, "okay", "ecs-svc/1", P3[0]);
	event(&src, "e0", 12, "(service web) was unable to place a task. Reason: Capacity is "
	      "unavailable at this time. Please try again later or in a different availability "
	      "zone.");
	event(&src, "e9", -4000, "(service web) was unable to place a task. Reason: an hour "
	      "before: not this scale-out's.");
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	cr_expect_eq(st.rows[0].capacity_errors, 1);
	cr_expect(strstr(st.rows[0].advice, "1 capacity error in the service events") != NULL,
		  "%s", st.rows[0].advice);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* A source not read is named, and its stages are empty or flagged estimated, never 0 */
Test(scaleout_story, a_missing_source_is_named_not_zero)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	struct row_table t;
	struct cell_value v;
	char scratch[256];
	size_t col;

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 10, 3, HIGH);
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	cr_expect(isnan(so_row_seconds(&st.rows[0], SO_DETECT)));
	cr_expect(has_note(&st, "no alarm history (cloudwatch describe-alarm-history): detect "
			   "and react not measured"));
	cr_expect(has_note(&st, "no alarm settings"));
	cr_expect(has_note(&st, "no service events (ecs describe-services)"));
	cr_expect(has_note(&st, "no tasks"));
	so_story_table(&st, &t);
	for (col = 0; col < t.ncols && strcmp(t.cols[col].name, "detect_s") != 0; col++)
		;
	cr_assert_lt(col, t.ncols);
	memset(&v, 0, sizeof v);
	t.cell(t.ctx, 0, col, &v, scratch, sizeof scratch);
	cr_expect_not(v.present, "detect_s is empty, not 0");
	so_story_cleanup(&st);

	/* with the alarm's settings: detect is their minimum, flagged as an estimate */
	add_alarm(&src, HIGH, "GreaterThanThreshold", 60, 3);
	so_story_build(&src, &set, TS_NONE, &st);
	cr_expect_float_eq(so_row_seconds(&st.rows[0], SO_DETECT), 180.0, 1e-9);
	cr_expect(so_row_estimated(&st.rows[0], SO_DETECT));
	cr_expect(has_note(&st, "detect estimated as the alarm's Period x DatapointsToAlarm"));
	memset(&v, 0, sizeof v);
	so_story_table(&st, &t);
	t.cell(t.ctx, 0, col, &v, scratch, sizeof scratch);
	cr_expect(v.present && v.estimated);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* A deployment-driven row's desired_from: the deployment before it as recorded while
 * PRIMARY, else the last scaling activity before it; a drained one's 0 says nothing */
static long
deployment_from(const char *prev_status, long prev_desired, bool activity)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	struct deployment *d;
	long from;

	so_sources_init(&src);
	task_set_init(&set);
	add_service(&src, false);
	if (activity)
		add_activity(&src, "up", -3000, 6, HIGH);
	d = deploy_set_get(&src.deploys, "web", "ecs-svc/1");
	d->created_ms = T0 - S(86400);
	d->desired = prev_desired;
	d->status = prev_status ? strdup(prev_status) : NULL;
	d = deploy_set_get(&src.deploys, "web", "ecs-svc/2");
	d->created_ms = T0;
	d->desired = 8;
	d->status = strdup("PRIMARY");
	add_task(&set, "new1", "ecs-svc/2", (struct phases){ 5, 12, 20, 110, 114 });
	so_story_build(&src, &set, T0 - S(60), &st);
	cr_assert_eq(st.n, 1, "rows: %zu", st.n);
	cr_expect_eq(st.rows[0].trigger, SO_TRIGGER_DEPLOYMENT);
	cr_expect_eq(st.rows[0].desired_to, 8);
	from = st.rows[0].desired_from;
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
	return from;
}

Test(scaleout_story, deployment_desired_from)
{
	/* fetched at an unknown time, its count is known only from its createdAt (a day
	 * before): the activity since then set the count in force (had the deployment been
	 * fetched after it, it would have said 6 too) */
	cr_expect_eq(deployment_from("PRIMARY", 4, true), 6, "the later source's count");
	cr_expect_eq(deployment_from("PRIMARY", 4, false), 4, "the previous deployment's count");
	cr_expect_eq(deployment_from("INACTIVE", 0, true), 6, "else the last activity's");
	cr_expect_eq(deployment_from("ACTIVE", 2, false), -1, "a draining count is not it");
	cr_expect_eq(deployment_from(NULL, -1, false), -1, "none says: unknown, not 0");
}

/* The shipped example's story: desired 4 since 06:12 (an activity), a deployment at 08:40,
 * the alarm's activity setting 30 at 14:02, a deployment at 14:04; the service document
 * fetched at 14:09 says desiredCount 30 for both deployments, which is the count then, not
 * when the 08:40 one started */
static struct deployment *
add_deployment(struct so_sources *s, const char *id, double created, long desired,
	       const char *status, double seen)
{
	struct deployment *d = deploy_set_get(&s->deploys, "web", id);

	d->created_ms = T0 + S(created);
	d->desired = desired;
	d->status = strdup(status);
	d->seen_ms = T0 + S(seen);
	return d;
}

static const struct so_row *
row_of_trigger(const struct so_story *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (strcmp(st->rows[i].trigger_name, name) == 0)
			return &st->rows[i];
	return NULL;
}

Test(scaleout_story, deployment_desired_is_the_count_when_it_started)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	const struct so_row *r;

	so_sources_init(&src);
	task_set_init(&set);
	add_service(&src, false);
	add_alarm(&src, HIGH, "GreaterThanThreshold", 60, 3);
	add_alarm(&src, LOW, "LessThanThreshold", 60, 15);
	add_activity(&src, "down", 100, 4, LOW);
	add_deployment(&src, "ecs-svc/1", 9000, 30, "ACTIVE", 28420);
	add_activity(&src, "up", 28010, 30, HIGH);
	add_deployment(&src, "ecs-svc/2", 28160, 30, "PRIMARY", 28420);
	add_task(&set, "old1", "ecs-svc/1", (struct phases){ 9010, 9020, 9030, 9100, 9105 });
	add_task(&set, "new1", "ecs-svc/1", (struct phases){ 28013, 28023, 28033, 28043, 28046 });
	add_task(&set, "rep1", "ecs-svc/2", (struct phases){ 28170, 28180, 28190, 28193, 28200 });
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 3, "rows: %zu", st.n);
	cr_assert((r = row_of_trigger(&st, "ecs-svc/1")) != NULL);
	cr_expect_eq(r->desired_from, 4);
	cr_expect_eq(r->desired_to, 4, "the count at 08:40, not the fetched 30: %ld", r->desired_to);
	cr_expect_eq(r->ntasks, 1, "a rolling replacement is a row: it started tasks");
	cr_assert((r = row_of_trigger(&st, "up")) != NULL);
	cr_expect_eq(r->desired_from, 4);
	cr_expect_eq(r->desired_to, 30);
	cr_assert((r = row_of_trigger(&st, "ecs-svc/2")) != NULL);
	cr_expect_eq(r->desired_from, 30);
	cr_expect_eq(r->desired_to, 30, "nothing changed it since: its own count");
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);

	/* PRIMARY but the count changed after it started, and no source before it: empty */
	so_sources_init(&src);
	task_set_init(&set);
	add_service(&src, false);
	add_deployment(&src, "ecs-svc/1", 9000, 30, "PRIMARY", 28420);
	add_activity(&src, "up", 28010, 30, HIGH);
	add_task(&set, "old1", "ecs-svc/1", (struct phases){ 9010, 9020, 9030, 9100, 9105 });
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert((r = row_of_trigger(&st, "ecs-svc/1")) != NULL);
	cr_expect_eq(r->desired_to, -1, "unknown: never 0, never the fetched count");
	cr_expect_eq(r->desired_from, -1);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* Desired 5 then 2: the second activity is a scale-in, never a row; --since drops rows
 * triggered before it */
Test(scaleout_story, a_scale_in_is_not_a_row)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 10, 5, HIGH);
	add_activity(&src, "down", 3000, 2, LOW);
	add_activity(&src, "up-again", 6000, 4, HIGH);
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 2);
	cr_expect_str_eq(st.rows[0].trigger_name, "up");
	cr_expect_str_eq(st.rows[1].trigger_name, "up-again");
	cr_expect_eq(st.rows[1].desired_from, 2);
	so_story_cleanup(&st);
	so_story_build(&src, &set, T0 + S(5000), &st);
	cr_assert_eq(st.n, 1);
	cr_expect_str_eq(st.rows[0].trigger_name, "up-again");
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* 300 tasks, 100 at once then 20 a second: Fargate's launch throttle */
Test(scaleout_story, the_launch_rate_matches_fargates_throttle)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	char id[16];

	so_sources_init(&src);
	task_set_init(&set);
	add_activity(&src, "up", 0, 300, HIGH);
	for (int i = 0; i < 300; i++) {
		double c = 2 + (i < 100 ? 0.001 * i : 0.1 + (i - 99) / 20.0);

		snprintf(id, sizeof id, "t%03d", i);
		add_task(&set, id, "ecs-svc/1", (struct phases){ c, c + 5, c + 10, c + 20, c + 22 });
	}
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1);
	cr_expect_eq(st.rows[0].ntasks, 300);
	cr_expect(st.rows[0].launch_throttled, "rate %f", st.rows[0].launch_rate);
	so_story_cleanup(&st);
	/* the same 300 over ten minutes: the scheduler's pace, not the throttle */
	task_set_cleanup(&set);
	task_set_init(&set);
	for (int i = 0; i < 300; i++) {
		double c = 2 + i * 1.5;

		snprintf(id, sizeof id, "t%03d", i);
		add_task(&set, id, "ecs-svc/1", (struct phases){ c, c + 5, c + 10, c + 20, c + 22 });
	}
	so_story_build(&src, &set, TS_NONE, &st);
	cr_expect_not(st.rows[0].launch_throttled);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

Test(scaleout_story, the_texts_of_the_api)
{
	char c[64], s[64], *alarm, *policy;

	cr_expect_eq(so_desired_of_description("Setting desired count to 30."), 30);
	cr_expect_eq(so_desired_of_description("Setting desired count to ."), -1);
	cr_expect_eq(so_desired_of_description(NULL), -1);
	so_cause_names("monitor alarm A-1 in state ALARM triggered policy p", &alarm, &policy);
	cr_expect_str_eq(alarm, "A-1");
	cr_expect_str_eq(policy, "p");
	free(alarm);
	free(policy);
	so_cause_names("user request", &alarm, &policy);
	cr_expect_null(alarm);
	cr_expect_null(policy);
	cr_expect(so_resource_service("service/prod/web", c, sizeof c, s, sizeof s));
	cr_expect_str_eq(c, "prod");
	cr_expect_str_eq(s, "web");
	cr_expect_not(so_resource_service("table/prod", c, sizeof c, s, sizeof s));
	cr_expect_not(so_resource_service("service/prod/web/x", c, sizeof c, s, sizeof s));
}

/* Tasks started that no activity or deployment explains: one manual row per burst,
 * whatever order ECS lists the events in (newest first), from the PRIMARY deployment's
 * updatedAt (an UpdateService) */
Test(scaleout_story, a_manual_change_is_one_row_from_updateservice)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	struct deployment *d;

	so_sources_init(&src);
	task_set_init(&set);
	add_service(&src, false);
	d = deploy_set_get(&src.deploys, "web", "ecs-svc/1");
	d->status = strdup("PRIMARY");
	d->updated_ms = T0 + S(15);
	add_task(&set, "aaaa", "ecs-svc/1", P3[0]);
	event(&src, "e2", 60, "(service web) has started 2 tasks: (task cccc) (task dddd).");
	event(&src, "e1", 20, "(service web) has started 3 tasks: (task aaaa) (task bbbb) (task eeee).");
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1, "rows: %zu", st.n);
	cr_expect_eq(st.rows[0].trigger, SO_TRIGGER_MANUAL);
	cr_expect_eq(st.rows[0].trigger_ms, T0 + S(15));
	cr_expect_eq(st.rows[0].tasks_started, 5, "the events' counts: the data has one of them");
	cr_expect_eq(st.rows[0].ntasks, 1);
	cr_expect_eq(st.rows[0].desired_from, -1);
	so_story_cleanup(&st);
	so_sources_cleanup(&src);

	/* no deployment to say when: the burst's first event, as an estimate */
	so_sources_init(&src);
	add_service(&src, false);
	event(&src, "e2", 60, "(service web) has started 2 tasks: (task cccc) (task dddd).");
	event(&src, "e1", 20, "(service web) has started 3 tasks: (task aaaa) (task bbbb) (task eeee).");
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 1, "one burst, one row: %zu", st.n);
	cr_expect_eq(st.rows[0].trigger_ms, T0 + S(20));
	cr_expect(st.rows[0].span[SO_SCHEDULE].from_est);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

/* Tasks alone (no source document): each burst of createdAt of a service is a manual
 * change, triggered at its first createdAt; schedule is not measured */
Test(scaleout_story, tasks_alone_give_one_row_per_burst)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;

	so_sources_init(&src);
	task_set_init(&set);
	add_task(&set, "aaaa", "ecs-svc/1", P3[0]);
	add_task(&set, "bbbb", "ecs-svc/1", P3[1]);
	add_task(&set, "cccc", "ecs-svc/1", (struct phases){ 3600, 3610, 3620, 3630, 3633 });
	so_story_build(&src, &set, TS_NONE, &st);
	cr_assert_eq(st.n, 2);
	cr_expect_eq(st.rows[0].trigger, SO_TRIGGER_MANUAL);
	cr_expect_eq(st.rows[0].trigger_ms, T0 + S(13));
	cr_expect_eq(st.rows[0].tasks_started, 2);
	cr_expect_str_eq(st.rows[0].cluster, "prod");
	cr_expect(isnan(so_row_seconds(&st.rows[0], SO_SCHEDULE)));
	cr_expect_float_eq(so_row_seconds(&st.rows[0], SO_TOTAL), 34.0, 1e-9);
	cr_expect_eq(st.rows[1].tasks_started, 1);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}

Test(scaleout_story, stage_colours_are_the_phase_colours)
{
	/* the TUI, the page and the workbook draw a per-task stage as its phase everywhere */
	cr_assert_eq(so_stage_colours[SO_PROVISION].rgb, phase_colours[PHASE_PROVISION].rgb);
	cr_assert_eq(so_stage_colours[SO_PULL].rgb, phase_colours[PHASE_PULL].rgb);
	cr_assert_eq(so_stage_colours[SO_PULL].xterm256, phase_colours[PHASE_PULL].xterm256);
	cr_assert_eq(so_stage_colours[SO_START].ansi, phase_colours[PHASE_START].ansi);
	cr_assert_eq(so_stage_colours[SO_HEALTH].rgb, phase_colours[PHASE_READY].rgb);
	for (int k = 0; k < SO_STAGE_COUNT - 1; k++)
		cr_assert_geq(so_stage_colours[k].ansi, 0, "stage %d has a colour", k);
}

/* One rule for the desired counts' words (the table, the page and the TUI all print it): a
 * count that is not known is left out, never '?' or 0; the same count twice is a rolling
 * replacement, not "30 -> 30". */
Test(scaleout_story, desired_text_is_one_rule)
{
	struct so_row r = { .desired_from = 4, .desired_to = 30 };
	char b[128];

	cr_expect_str_eq(so_row_desired_text(&r, "->", false, b, sizeof b), "desired 4 -> 30");
	cr_expect_str_eq(so_row_desired_text(&r, "->", true, b, sizeof b), "4->30");
	r.desired_from = 30;
	cr_expect_str_eq(so_row_desired_text(&r, "->", false, b, sizeof b),
			 "desired 30 (unchanged: a rolling replacement)");
	cr_expect_str_eq(so_row_desired_text(&r, "->", true, b, sizeof b), "30 rolling");
	r.desired_from = -1;
	cr_expect_str_eq(so_row_desired_text(&r, "->", false, b, sizeof b), "desired to 30");
	cr_expect_str_eq(so_row_desired_text(&r, "->", true, b, sizeof b), "to 30");
	r = (struct so_row){ .desired_from = 4, .desired_to = -1 };
	cr_expect_str_eq(so_row_desired_text(&r, "->", true, b, sizeof b), "from 4");
	r.desired_from = -1;
	cr_expect_str_eq(so_row_desired_text(&r, "->", false, b, sizeof b), "");
	cr_expect_str_eq(so_row_desired_text(&r, "->", true, b, sizeof b), "");
	r = (struct so_row){ .desired_from = 4, .desired_to = 30 };
	cr_expect_str_eq(so_row_desired_text(&r, "&rarr;", false, b, 8), "desired",
			 "cut at the size given");
}

/* An InProgress activity has set the desired count already (ECS's desiredCount changes
 * when UpdateService returns): it is the count before the next rise and the count a
 * deployment after it starts from, the same answer both ways; a Pending one (not yet acted
 * on) is neither. */
static void
in_progress_story(const char *status, struct so_sources *src, struct task_set *set,
		  struct so_story *st)
{
	struct deployment *d;

	so_sources_init(src);
	task_set_init(set);
	add_service(src, false);
	add_activity(src, "a4", -7200, 4, HIGH);
	add_activity(src, "a10", -600, 10, HIGH);
	free(src->activities[src->nactivities - 1].status);
	src->activities[src->nactivities - 1].status = strdup(status);
	add_activity(src, "a12", -300, 12, HIGH);   /* a rise from 10, not from 4 */
	d = deploy_set_get(&src->deploys, "web", "ecs-svc/2");
	d->created_ms = T0 - S(400);   /* between a10 and a12 */
	d->status = strdup("ACTIVE");
	so_story_build(src, set, TS_NONE, st);
}

static const struct so_row *
row_named(const struct so_story *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (strcmp(st->rows[i].trigger_name, name) == 0)
			return &st->rows[i];
	return NULL;
}

Test(scaleout_story, an_in_progress_activity_has_set_the_count)
{
	struct so_sources src;
	struct task_set set;
	struct so_story st;
	const struct so_row *r;

	in_progress_story("InProgress", &src, &set, &st);
	r = row_named(&st, "a10");
	cr_assert_not_null(r, "the InProgress rise is a row");
	cr_expect_eq(r->desired_from, 4);
	r = row_named(&st, "a12");
	cr_assert_not_null(r);
	cr_expect_eq(r->desired_from, 10, "the rise after it starts from its count");
	r = row_named(&st, "ecs-svc/2");
	cr_assert_not_null(r);
	cr_expect_eq(r->desired_from, 10, "and so does a deployment after it: %ld",
		     r->desired_from);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);

	in_progress_story("Pending", &src, &set, &st);
	r = row_named(&st, "a12");
	cr_assert_not_null(r);
	cr_expect_eq(r->desired_from, 4, "a Pending activity set nothing yet");
	r = row_named(&st, "ecs-svc/2");
	cr_assert_not_null(r);
	cr_expect_eq(r->desired_from, 4);
	so_story_cleanup(&st);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
}
