/* scaleout_advice: which stage of a scale-out to shorten and how, with the arithmetic from
 * the settings read (the alarm's period and datapoints, the policy's cooldown, the target
 * group's health check, the service's grace period, the image facts, the launch rate, the
 * capacity errors), and the story's notes naming every source that was not read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaleout_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/image.h"
#include "ecsprof/xalloc.h"

/* What a short health check reaches: ALB's minimum interval that is still common (10 s)
 * times its minimum healthy threshold (2) */
#define SO_FAST_INTERVAL_S 10
#define SO_FAST_THRESHOLD 2

static void
say_secs(struct buf *b, const struct so_row *r, enum so_stage s)
{
	double v = so_row_seconds(r, s);

	buf_addf(b, "%s%s %s%.0f s", b->len ? ". " : "", so_stage_defs[s].name,
		 so_stage_defs[s].per_task ? "p50 " : so_row_estimated(r, s) ? "~" : "", v);
}

static void
advise_detect(struct buf *b, const struct so_row *r)
{
	const struct so_alarm *a = r->alarm;
	long min_s;

	if (a == NULL || a->period_s <= 0 || a->datapoints <= 0) {
		buf_adds(b, ": the alarm's settings were not read");
		return;
	}
	min_s = a->period_s * a->datapoints;
	buf_addf(b, ": the alarm needs Period %ld x DatapointsToAlarm %ld = %ld s of breaching "
		 "data (EvaluationPeriods %ld)", a->period_s, a->datapoints, min_s,
		 a->evaluation_periods);
	if (a->datapoints > 1)
		buf_addf(b, "; %ld x 1 would save about %ld s", a->period_s, min_s - a->period_s);
	if (r->policy != NULL && r->policy->type != NULL &&
	    strcmp(r->policy->type, "TargetTrackingScaling") == 0)
		buf_adds(b, " (target tracking owns its alarm: add a step scaling policy on a "
			 "1-datapoint alarm to act sooner)");
}

static void
advise_react(struct buf *b, const struct so_row *r)
{
	buf_adds(b, ": Application Auto Scaling's activity started after the alarm");
	if (r->policy != NULL && r->policy->scale_out_cooldown_s >= 0)
		buf_addf(b, "; ScaleOutCooldown %ld s holds a scale-out that follows another",
			 r->policy->scale_out_cooldown_s);
}

static void
advise_launch(struct buf *b, const struct so_row *r)
{
	if (!isnan(r->launch_rate))
		buf_addf(b, " for %zu tasks (%.2f tasks/s)", r->ntasks, r->launch_rate);
	if (r->launch_throttled)
		buf_adds(b, ": Fargate's launch throttle (a burst of 100, then 20 tasks/s); "
			 "spread the tasks over services or ask for a higher rate");
	else
		buf_adds(b, ": below Fargate's 20 tasks/s, ECS started them in waves");
}

static void
advise_pull(struct buf *b, const struct so_row *r, const struct task_set *ts)
{
	struct image_task_info info;

	memset(&info, 0, sizeof info);
	for (size_t i = 0; i < r->ntasks && !info.known; i++)
		image_task_info(ts->images, r->tasks[i], &info);
	if (!info.known) {
		buf_adds(b, ": no image facts read (ecsprof images): a smaller image or a SOCI "
			 "index shortens it");
		return;
	}
	if (info.size_bytes >= 0)
		buf_addf(b, ": image %.0f MB", (double)info.size_bytes / 1e6);
	if (info.compression[0] != '\0')
		buf_addf(b, ", %s", info.compression);
	if (info.soci == IMAGE_SOCI_NONE)
		buf_adds(b, ", no SOCI index: one would lazy-load the image");
	else if (info.soci != IMAGE_SOCI_UNKNOWN)
		buf_addf(b, ", SOCI index %s", image_soci_name(info.soci));
}

static void
advise_register(struct buf *b, const struct so_row *r)
{
	const struct so_target_group *g = r->tg;
	double secs = so_row_seconds(r, SO_REGISTER);

	if (g == NULL || g->interval_s <= 0 || g->healthy_threshold <= 0) {
		buf_adds(b, ": the target group's health check settings were not read");
		return;
	}
	buf_addf(b, ": HealthCheckIntervalSeconds %ld x HealthyThresholdCount %ld",
		 g->interval_s, g->healthy_threshold);
	/* each target waits interval x threshold at least; register spans the waves too,
	 * so the saving is per target: what the settings cost beyond the fast ones */
	double need = (double)(g->interval_s * g->healthy_threshold);
	double fast = SO_FAST_INTERVAL_S * SO_FAST_THRESHOLD;

	if (need > fast && secs > fast)
		buf_addf(b, "; %d x %d would save about %.0f s", SO_FAST_INTERVAL_S,
			 SO_FAST_THRESHOLD, (secs < need ? secs : need) - fast);
	if (r->svc != NULL && r->svc->grace_s >= 0)
		buf_addf(b, " (healthCheckGracePeriodSeconds %ld)", r->svc->grace_s);
}

static void
advise_stage(struct buf *b, const struct so_row *r, enum so_stage s, const struct task_set *ts)
{
	say_secs(b, r, s);
	/* detect is before the trigger, the others inside the total that follows it */
	if (r->largest == (int)s && !isnan(so_row_seconds(r, SO_TOTAL)))
		buf_addf(b, " %s %s%.0f s", s == SO_DETECT ? "before the alarm, then" : "of",
			 so_row_estimated(r, SO_TOTAL) ? "~" : "", so_row_seconds(r, SO_TOTAL));
	switch (s) {
	case SO_DETECT: advise_detect(b, r); break;
	case SO_REACT: advise_react(b, r); break;
	case SO_SCHEDULE: buf_adds(b, ": ECS's scheduler, from the desired count to the first "
				   "task"); break;
	case SO_LAUNCH: advise_launch(b, r); break;
	case SO_PROVISION:
		if (r->dist[SO_ATTACH].n > 0)
			buf_addf(b, ": attach (ENI) p50 %.0f s, wait p50 %.0f s",
				 r->dist[SO_ATTACH].p50_s, r->dist[SO_WAIT].p50_s);
		break;
	case SO_PULL: advise_pull(b, r, ts); break;
	case SO_START: buf_adds(b, ": the containers' start up to RUNNING"); break;
	case SO_HEALTH:
		buf_adds(b, ": container health checks until HEALTHY (interval x retries, "
			 "startPeriod)");
		break;
	case SO_REGISTER: advise_register(b, r); break;
	default: break;
	}
}

void
so_row_advise(struct so_row *r, const struct task_set *ts)
{
	struct buf b;
	int first = -1, second = -1;

	for (int s = 0; s < SO_STAGE_COUNT; s++) {
		double v = so_row_seconds(r, (enum so_stage)s);

		if (!so_stage_defs[s].in_largest || isnan(v))
			continue;
		if (first < 0 || v > so_row_seconds(r, (enum so_stage)first)) {
			second = first;
			first = s;
		} else if (second < 0 || v > so_row_seconds(r, (enum so_stage)second)) {
			second = s;
		}
	}
	r->largest = first;
	buf_init(&b, 1 << 16);
	if (first >= 0)
		advise_stage(&b, r, (enum so_stage)first, ts);
	if (second >= 0 && so_row_seconds(r, (enum so_stage)second) >= 10.0)
		advise_stage(&b, r, (enum so_stage)second, ts);
	if (r->tasks_failed > 0) {
		const char *why = NULL;

		for (size_t i = 0; i < r->ntasks && why == NULL; i++)
			if (task_stage(r->tasks[i], NULL) == STAGE_FAILED)
				why = r->tasks[i]->prof->stopped_reason;
		buf_addf(&b, "%s%zu task%s failed to start%s%.72s%s", b.len ? ". " : "",
			 r->tasks_failed, r->tasks_failed == 1 ? "" : "s", why ? " (" : "",
			 why ? why : "", why == NULL ? "" : strlen(why) > 72 ? "...)" : ")");
	}
	if (r->capacity_errors > 0)
		buf_addf(&b, "%s%zu capacity error%s in the service events (unable to place a "
			 "task): more subnets and Availability Zones, or a capacity provider "
			 "strategy across Fargate and Fargate Spot", b.len ? ". " : "",
			 r->capacity_errors, r->capacity_errors == 1 ? "" : "s");
	r->advice = buf_take(&b);
}

/* Whether any row would have used what a source gives */
static bool
rows_have(const struct so_story *st, bool (*want)(const struct so_row *))
{
	for (size_t i = 0; i < st->n; i++)
		if (want(&st->rows[i]))
			return true;
	return false;
}

static bool want_alarm(const struct so_row *r) { return r->activity != NULL; }
static bool want_tg(const struct so_row *r) { return r->span[SO_REGISTER].from_ms != TS_NONE; }

void
so_story_notes(const struct so_sources *src, const struct task_set *ts, struct so_story *st,
	       void (*add)(struct so_story *, char *))
{
	const bool *rd = src->read;

	if (!rd[SO_SRC_ACTIVITIES])
		add(st, xstrdup("no scaling activities (application-autoscaling "
				"describe-scaling-activities): react not measured, scale-outs "
				"found from deployments, service events and bursts of tasks only"));
	if (!rd[SO_SRC_ALARM_HISTORY] && rows_have(st, want_alarm))
		add(st, xstrdup(rd[SO_SRC_ALARMS] ?
				"no alarm history (cloudwatch describe-alarm-history): detect "
				"estimated as the alarm's Period x DatapointsToAlarm, react not "
				"measured" :
				"no alarm history (cloudwatch describe-alarm-history): detect and "
				"react not measured"));
	if (!rd[SO_SRC_ALARMS] && rows_have(st, want_alarm))
		add(st, xstrdup("no alarm settings (cloudwatch describe-alarms): detect's "
				"Period x DatapointsToAlarm not known"));
	if (!rd[SO_SRC_POLICIES] && rows_have(st, want_alarm))
		add(st, xstrdup("no scaling policies (application-autoscaling "
				"describe-scaling-policies): policy type and cooldowns not known"));
	if (!rd[SO_SRC_SERVICES])
		add(st, xstrdup("no service events (ecs describe-services): tasks matched by "
				"createdAt (the others' bursts taken as manual changes), register "
				"and capacity errors not measured"));
	if (!rd[SO_SRC_TARGET_GROUPS] && rows_have(st, want_tg))
		add(st, xstrdup("no target group settings (elbv2 describe-target-groups): "
				"register's end not estimated"));
	if (!rd[SO_SRC_TARGET_HEALTH] && rows_have(st, want_tg))
		add(st, xstrdup("no target health observed (elbv2 describe-target-health, "
				"recorded by watch): register ends at registered + "
				"HealthCheckIntervalSeconds x HealthyThresholdCount, estimated"));
	if (ts->len == 0)
		add(st, xstrdup("no tasks (ecs describe-tasks or a recording): launch and the "
				"per-task stages not measured"));
	if (st->n == 0)
		add(st, xstrdup("no scale-out found: no rise of a desired count in the sources "
				"read"));
}
