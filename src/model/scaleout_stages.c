/* scaleout_stages: the instants of a scale-out's stages (product.md's table): detect and
 * react from the alarm's history and the scaling activity, schedule and launch from the
 * tasks' createdAt, the per-task stages as p50 and max (phase.h's definitions, stats.h's
 * percentiles), register from ECS's "registered N targets" events (else the first new
 * target's first sighting) and the target health observed, else estimated from the
 * target group's HealthCheckIntervalSeconds x
 * HealthyThresholdCount, and total from the trigger to the last new task serving. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scaleout_int.h"
#include "ecsprof/phase.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

const struct so_stage_def so_stage_defs[SO_STAGE_COUNT] = {
	{ SO_DETECT, "detect", false, true },
	{ SO_REACT, "react", false, true },
	{ SO_SCHEDULE, "schedule", false, true },
	{ SO_LAUNCH, "launch", false, true },
	{ SO_PROVISION, "provision", true, true },
	{ SO_ATTACH, "attach", true, false },
	{ SO_WAIT, "wait", true, false },
	{ SO_PULL, "pull", true, true },
	{ SO_START, "start", true, true },
	{ SO_HEALTH, "health", true, true },
	{ SO_REGISTER, "register", false, true },
	{ SO_TOTAL, "total", false, false },
};

/* Fargate's documented task launch rate: a burst of 100, then 20 per second */
#define SO_FARGATE_BURST 100
#define SO_FARGATE_RATE 20.0
/* as scaleout_story.c: a clock a little apart between services */
#define SO_SLACK_MS 5000

double
so_row_seconds(const struct so_row *r, enum so_stage s)
{
	const struct so_span *sp = &r->span[s];

	if (so_stage_defs[s].per_task)
		return r->dist[s].n > 0 ? r->dist[s].p50_s : NAN;
	if (sp->from_ms == TS_NONE || sp->to_ms == TS_NONE || sp->to_ms < sp->from_ms)
		return NAN;
	return (double)(sp->to_ms - sp->from_ms) / 1000.0;
}

bool
so_row_estimated(const struct so_row *r, enum so_stage s)
{
	return !so_stage_defs[s].per_task && (r->span[s].from_est || r->span[s].to_est);
}

/* The alarm's ALARM transition that led to the activity: the latest at or before its
 * start, within the hour */
static const struct so_transition *
transition_of(const struct so_sources *src, const char *alarm, int64_t start)
{
	const struct so_transition *best = NULL;

	for (size_t i = 0; alarm != NULL && i < src->ntransitions; i++) {
		const struct so_transition *t = &src->transitions[i];

		if (t->alarm == NULL || strcmp(t->alarm, alarm) != 0 || t->new_state == NULL ||
		    strcmp(t->new_state, "ALARM") != 0 || t->at_ms == TS_NONE ||
		    t->at_ms > start + 1000 || t->at_ms < start - 3600 * 1000)
			continue;
		if (best == NULL || t->at_ms > best->at_ms)
			best = t;
	}
	return best;
}

static const struct so_policy *
policy_of(const struct so_sources *src, const struct so_activity *a)
{
	for (size_t i = 0; a->policy != NULL && i < src->npolicies; i++)
		if (src->policies[i].name != NULL && strcmp(src->policies[i].name, a->policy) == 0)
			return &src->policies[i];
	for (size_t i = 0; a->alarm != NULL && i < src->npolicies; i++)
		for (size_t k = 0; k < src->policies[i].nalarms; k++)
			if (strcmp(src->policies[i].alarms[k], a->alarm) == 0)
				return &src->policies[i];
	return NULL;
}

static void
stage_alarm(const struct so_sources *src, struct so_row *r)
{
	const struct so_activity *a = r->activity;
	struct so_span *d = &r->span[SO_DETECT], *re = &r->span[SO_REACT];
	int64_t min_ms;

	if (a == NULL)
		return;
	r->alarm = so_alarm_of(src, a->alarm);
	r->policy = policy_of(src, a);
	r->transition = transition_of(src, a->alarm, a->start_ms);
	min_ms = r->alarm != NULL && r->alarm->period_s > 0 && r->alarm->datapoints > 0 ?
		 r->alarm->period_s * r->alarm->datapoints * 1000 : TS_NONE;
	if (r->transition != NULL) {
		r->trigger = SO_TRIGGER_ALARM;
		r->trigger_name = r->transition->alarm;
		r->trigger_ms = r->transition->at_ms;
		d->to_ms = re->from_ms = r->transition->at_ms;
		re->to_ms = a->start_ms;
		d->from_ms = r->transition->first_breach_ms;
		if (d->from_ms == TS_NONE && min_ms != TS_NONE) {
			d->from_ms = d->to_ms - min_ms;
			d->from_est = true;
		}
	} else if (min_ms != TS_NONE && !src->read[SO_SRC_ALARM_HISTORY]) {
		/* no history: the alarm's minimum, ending where Auto Scaling acted */
		d->to_ms = a->start_ms;
		d->from_ms = a->start_ms - min_ms;
		d->from_est = d->to_est = true;
	}
}

/* p50 and max over the row's tasks of one per-task stage */
static void
stage_dist(struct so_row *r, enum so_stage s, double *v)
{
	size_t n = 0;
	struct stats_summary sum;

	for (size_t i = 0; i < r->ntasks; i++) {
		const struct task *t = r->tasks[i];
		int64_t ms = TS_NONE;

		switch (s) {
		case SO_PROVISION: ms = phase_ms(t, PHASE_PROVISION); break;
		case SO_ATTACH: ms = phase_ms(t, PHASE_CONNECTIVITY); break;
		case SO_WAIT:
			if (task_ts(t, TS_CONNECTIVITY) != TS_NONE && task_ts(t, TS_PULL_STARTED) != TS_NONE &&
			    task_ts(t, TS_PULL_STARTED) >= task_ts(t, TS_CONNECTIVITY))
				ms = task_ts(t, TS_PULL_STARTED) - task_ts(t, TS_CONNECTIVITY);
			break;
		case SO_PULL: ms = phase_ms(t, PHASE_PULL); break;
		case SO_START: ms = phase_ms(t, PHASE_START); break;
		case SO_HEALTH: ms = phase_ms(t, PHASE_READY); break;
		default: break;
		}
		if (ms != TS_NONE)
			v[n++] = (double)ms / 1000.0;
	}
	stats_summarize(v, n, &sum);
	r->dist[s].n = n;
	r->dist[s].p50_s = sum.p50;
	r->dist[s].max_s = sum.max;
}

static void
stage_launch(struct so_row *r)
{
	struct so_span *sc = &r->span[SO_SCHEDULE], *l = &r->span[SO_LAUNCH];
	int64_t first = TS_NONE, last = TS_NONE, at100 = TS_NONE;
	size_t n = 0;

	for (size_t i = 0; i < r->ntasks; i++) {   /* by createdAt */
		int64_t c = task_ts(r->tasks[i], TS_CREATED);

		if (c == TS_NONE)
			continue;
		if (first == TS_NONE)
			first = c;
		last = c;
		if (++n == SO_FARGATE_BURST)
			at100 = c;
	}
	sc->to_ms = first;
	if (sc->from_ms != TS_NONE && first != TS_NONE && first < sc->from_ms)
		sc->from_ms = first;   /* a clock apart: schedule is 0, not negative */
	l->from_ms = first;
	l->to_ms = last;
	if (n >= 2 && last > first)
		r->launch_rate = (double)(n - 1) / ((double)(last - first) / 1000.0);
	if (n > SO_FARGATE_BURST && last > at100) {
		double after = (double)(n - SO_FARGATE_BURST) / ((double)(last - at100) / 1000.0);

		r->launch_throttled = after >= SO_FARGATE_RATE * 0.75 &&
				      after <= SO_FARGATE_RATE * 1.25;
	}
}

/* "(service web) registered 5 targets in (target-group arn:...)": the target group */
static bool
event_registered(const char *msg, const char **tg, size_t *len)
{
	const char *p = msg ? strstr(msg, " registered ") : NULL, *e;

	if (p == NULL || (p = strstr(p, "(target-group ")) == NULL)
		return false;
	p += 14;
	if ((e = strchr(p, ')')) == NULL)
		return false;
	*tg = p;
	*len = (size_t)(e - p);
	return true;
}

static const struct so_target_group *
target_group_of(const struct so_sources *src, const char *arn, size_t len)
{
	for (size_t i = 0; i < src->ntarget_groups; i++)
		if (src->target_groups[i].arn != NULL && strlen(src->target_groups[i].arn) == len &&
		    memcmp(src->target_groups[i].arn, arn, len) == 0)
			return &src->target_groups[i];
	return NULL;
}

/* The latest startedAt at or before `at` (a second of slack) among row r's tasks that
 * ran; TS_NONE */
static int64_t
started_before(const struct so_row *r, int64_t at)
{
	int64_t best = TS_NONE;

	for (size_t i = 0; i < r->ntasks; i++) {
		int64_t s = task_ts(r->tasks[i], TS_STARTED);

		if (s != TS_NONE && s <= at + 1000 && (best == TS_NONE || s > best))
			best = s;
	}
	return best;
}

/* When the new targets of row r in target group tg were all seen healthy. A target is new
 * when it is first seen `initial`; it is r's when r has the task that went RUNNING last
 * before it was seen (ECS registers a task's target at RUNNING: the observation, not the
 * address, ties them, as a task's address is not among the fields read), within
 * SO_REGISTER_LAG_MS. TS_NONE when r has none, or one was never seen healthy. *seen is
 * when the first of r's new targets was first seen (registered by then), TS_NONE when
 * none was. */
#define SO_REGISTER_LAG_MS (120 * 1000)
static int64_t
observed_healthy(const struct so_sources *src, const struct so_story *st,
		 const struct so_row *r, const char *tg, int64_t *seen)
{
	int64_t last = TS_NONE;
	size_t mine = 0;
	bool unhealthy = false;

	*seen = TS_NONE;

	for (size_t i = 0; i < src->nobservations; i++) {
		const struct so_target_obs *o = &src->observations[i], *h;
		int64_t first = o->observed_ms, healthy = TS_NONE, own;
		bool earlier = false;

		if (o->target_group == NULL || o->target == NULL || strcmp(o->target_group, tg) != 0)
			continue;
		for (size_t j = 0; j < src->nobservations && !earlier; j++) {
			h = &src->observations[j];
			earlier = j != i && h->target != NULL && h->target_group != NULL &&
				  strcmp(h->target, o->target) == 0 &&
				  strcmp(h->target_group, tg) == 0 &&
				  (h->observed_ms < first || (h->observed_ms == first && j < i));
		}
		if (earlier || o->state == NULL || strcmp(o->state, "initial") != 0)
			continue;   /* counted at its first sighting, and only a new target */
		own = started_before(r, first);
		if (own == TS_NONE || first - own > SO_REGISTER_LAG_MS)
			continue;
		for (size_t k = 0; k < st->n; k++) {
			int64_t other = started_before(&st->rows[k], first);

			if (&st->rows[k] != r && other != TS_NONE && other > own)
				own = TS_NONE;   /* another scale-out's task went RUNNING later */
		}
		if (own == TS_NONE)
			continue;
		mine++;
		if (*seen == TS_NONE || first < *seen)
			*seen = first;
		for (size_t j = 0; j < src->nobservations; j++) {
			h = &src->observations[j];
			if (h->target_group != NULL && h->target != NULL &&
			    strcmp(h->target_group, tg) == 0 && strcmp(h->target, o->target) == 0 &&
			    h->state != NULL && strcmp(h->state, "healthy") == 0 &&
			    h->observed_ms > first && (healthy == TS_NONE || h->observed_ms < healthy))
				healthy = h->observed_ms;
		}
		if (healthy == TS_NONE)
			unhealthy = true;   /* no end; the others still say when it began */
		else if (last == TS_NONE || healthy > last)
			last = healthy;
	}
	return mine > 0 && !unhealthy ? last : TS_NONE;
}

/* The first and last startedAt of r's tasks that ran */
static void
started_range(const struct so_row *r, int64_t *first, int64_t *last)
{
	*first = *last = TS_NONE;
	for (size_t i = 0; i < r->ntasks; i++) {
		int64_t s = task_ts(r->tasks[i], TS_STARTED);

		if (s == TS_NONE)
			continue;
		if (*first == TS_NONE || s < *first)
			*first = s;
		if (*last == TS_NONE || s > *last)
			*last = s;
	}
}

static void
stage_register(const struct so_sources *src, const struct so_story *st, struct so_row *r)
{
	struct so_span *g = &r->span[SO_REGISTER];
	int64_t first = TS_NONE, last = TS_NONE, s_first, s_last, seen;
	const char *tg = NULL;
	size_t tglen = 0;

	started_range(r, &s_first, &s_last);
	/* ECS's "registered N targets" events of the service while r's tasks went RUNNING */
	for (size_t i = 0; s_first != TS_NONE && i < src->deploys.nev; i++) {
		const struct deploy_event *e = &src->deploys.ev[i];
		const char *p;
		size_t len;

		if (e->service == NULL || strcmp(e->service, r->service) != 0 ||
		    e->at_ms < s_first - SO_SLACK_MS || e->at_ms > s_last + SO_REGISTER_LAG_MS / 2 ||
		    !event_registered(e->message, &p, &len))
			continue;
		if (first == TS_NONE || e->at_ms < first) {
			first = e->at_ms;
			tg = p;
			tglen = len;
		}
		if (last == TS_NONE || e->at_ms > last)
			last = e->at_ms;
	}
	if (tg == NULL && r->svc != NULL && r->svc->ntarget_groups > 0) {
		tg = r->svc->target_groups[0];
		tglen = strlen(tg);
	}
	if (tg == NULL || s_first == TS_NONE)
		return;   /* no load balancer, or no task ran: nothing registered */
	r->tg = target_group_of(src, tg, tglen);
	char *arn = xstrndup(tg, tglen);

	g->to_ms = observed_healthy(src, st, r, arn, &seen);
	free(arn);
	g->from_ms = first;
	if (first == TS_NONE && seen != TS_NONE) {
		/* no ECS event says it: `watch` saw the first new target (`initial`), so it
		 * was registered by then (at most a poll late), observed rather than guessed */
		g->from_ms = seen;
		last = s_last;
	} else if (first == TS_NONE) {
		/* ECS registers a task's targets once it is RUNNING */
		g->from_ms = s_first;
		last = s_last;
		g->from_est = true;
	}
	if (g->to_ms == TS_NONE && r->tg != NULL && r->tg->interval_s > 0 &&
	    r->tg->healthy_threshold > 0) {
		g->to_ms = (last > s_last ? last : s_last) +
			   r->tg->interval_s * r->tg->healthy_threshold * 1000;
		g->to_est = true;
	}
}

static void
stage_total(struct so_row *r)
{
	struct so_span *t = &r->span[SO_TOTAL];
	int64_t healthy = TS_NONE, running = TS_NONE;
	bool all_healthy = r->ntasks > 0;

	t->from_ms = r->trigger_ms;
	for (size_t i = 0; i < r->ntasks; i++) {
		const struct task *k = r->tasks[i];

		if (task_stage(k, NULL) == STAGE_FAILED)
			continue;
		if (task_ts(k, TS_HEALTHY) == TS_NONE)
			all_healthy = false;
		else if (healthy == TS_NONE || task_ts(k, TS_HEALTHY) > healthy)
			healthy = task_ts(k, TS_HEALTHY);
		if (task_ts(k, TS_STARTED) != TS_NONE && (running == TS_NONE || task_ts(k, TS_STARTED) > running))
			running = task_ts(k, TS_STARTED);
	}
	if (r->span[SO_REGISTER].to_ms != TS_NONE) {
		t->to_ms = r->span[SO_REGISTER].to_ms;
		t->to_est = r->span[SO_REGISTER].to_est;
	} else if (r->tg == NULL && r->span[SO_REGISTER].from_ms == TS_NONE) {
		t->to_ms = all_healthy ? healthy : running;
	}
	if (t->to_ms != TS_NONE && t->from_ms != TS_NONE && t->to_ms < t->from_ms)
		t->to_ms = TS_NONE;
}

void
so_row_stages(const struct so_sources *src, const struct so_story *st, struct so_row *r)
{
	double *v = xcalloc(r->ntasks + 1, sizeof *v);

	stage_alarm(src, r);
	stage_launch(r);
	for (int s = 0; s < SO_STAGE_COUNT; s++)
		if (so_stage_defs[s].per_task)
			stage_dist(r, (enum so_stage)s, v);
	free(v);
	stage_register(src, st, r);
	if (r->trigger_ms == TS_NONE)
		r->trigger_ms = r->span[SO_LAUNCH].from_ms;
	stage_total(r);
}
