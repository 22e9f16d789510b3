/* scaleout_story: the scale-outs of a service and the tasks started for each
 * (scaleout_story.h). A row is a rise of the desired count: a scaling activity that sets
 * a higher count than the one before it (or, when none is known before it, one whose
 * alarm watches for a value above its threshold), a deployment (a row even when the count
 * stays, a rolling replacement: it started tasks), or tasks started that neither explains
 * (a manual UpdateService). A deployment's desiredCount is the one when its document was
 * fetched: its count at the start is that only when nothing changed it in between. Its tasks are the ones ECS's service events
 * name ("has started N tasks: (task ID) ..."), else those created in its window by its
 * deployment (startedBy). The stages are scaleout_stages.c's, the advice
 * scaleout_advice.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaleout_int.h"
#include "ecsprof/xalloc.h"

/* ECS's scheduler starts tasks seconds after the activity's StartTime; a clock a little
 * apart between services must not push a task out of its row */
#define SO_SLACK_MS 5000

/* qsort of n items, none when there is nothing to sort (v may then be NULL) */
static void
so_sort(void *v, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, sz, cmp);
}

static int
cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int
row_cmp(const void *a, const void *b)
{
	const struct so_row *x = a, *y = b;
	int c = strcmp(x->service, y->service);

	return c != 0 ? c : cmp_i64(x->span[SO_SCHEDULE].from_ms, y->span[SO_SCHEDULE].from_ms);
}

static int
row_trigger_cmp(const void *a, const void *b)
{
	const struct so_row *x = a, *y = b;
	int c = cmp_i64(x->trigger_ms, y->trigger_ms);

	return c != 0 ? c : strcmp(x->service, y->service);
}

static int
activity_cmp(const void *a, const void *b)
{
	const struct so_activity *x = *(const struct so_activity *const *)a;
	const struct so_activity *y = *(const struct so_activity *const *)b;

	return cmp_i64(x->start_ms, y->start_ms);
}

static int
task_created_cmp(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
	int c = cmp_i64(task_ts(x, TS_CREATED), task_ts(y, TS_CREATED));

	struct task_arn_buf ax, ay;
	const char *sx, *sy;

	if (c != 0)
		return c;
	sx = task_arn(x, &ax);
	sy = task_arn(y, &ay);
	return strcmp(sx ? sx : "", sy ? sy : "");
}

const struct so_service *
so_service_of(const struct so_sources *src, const char *name)
{
	for (size_t i = 0; i < src->nservices; i++)
		if (src->services[i].name != NULL && strcmp(src->services[i].name, name) == 0)
			return &src->services[i];
	return NULL;
}

/* The deployment whose tasks a scaling activity at `at` starts: the service's newest
 * one created by then (the PRIMARY at the time) */
static const struct deployment *
deployment_at(const struct so_sources *src, const char *service, int64_t at)
{
	const struct deployment *best = NULL;

	for (size_t i = 0; i < src->deploys.n; i++) {
		const struct deployment *d = &src->deploys.v[i];

		if (d->service == NULL || strcmp(d->service, service) != 0 ||
		    d->created_ms == TS_NONE || d->created_ms > at)
			continue;
		if (best == NULL || d->created_ms > best->created_ms)
			best = d;
	}
	return best;
}

static struct so_row *
row_add(struct so_story *st, size_t *cap, const char *cluster, const char *service,
	int64_t sched_ms)
{
	struct so_row *r;

	st->rows = xgrow(st->rows, st->n + 1, cap, sizeof *st->rows);
	r = &st->rows[st->n++];
	memset(r, 0, sizeof *r);
	r->cluster = cluster ? cluster : "";
	r->service = service;
	r->trigger_name = "";
	r->desired_from = r->desired_to = -1;
	r->largest = -1;
	r->launch_rate = NAN;
	for (int s = 0; s < SO_STAGE_COUNT; s++) {
		r->span[s].from_ms = r->span[s].to_ms = TS_NONE;
		r->dist[s].p50_s = r->dist[s].max_s = NAN;
	}
	r->span[SO_SCHEDULE].from_ms = sched_ms;
	return r;
}

/* Is this activity a rise? Against the count the activity before it set; with none, the
 * alarm's direction (a scale-out alarm watches for a value above its threshold). */
static bool
activity_rises(const struct so_sources *src, const struct so_activity *a, long from)
{
	const struct so_alarm *al = so_alarm_of(src, a->alarm);

	if (from >= 0 && a->desired_to >= 0)
		return a->desired_to > from;
	if (al != NULL && al->comparison != NULL)
		return strncmp(al->comparison, "GreaterThan", 11) == 0;
	return a->alarm != NULL && strstr(a->alarm, "AlarmHigh") != NULL;
}

/* Has this activity set the service's desired count? One answer for the count before a
 * rise and for the count in force at a deployment (desired_at), so that a row's "from" and
 * the rise that made it agree. Application Auto Scaling's StatusCode: Pending is not yet
 * acted on; InProgress means it has made the request to the scalable target, and for ECS
 * that request is UpdateService's desiredCount, which is the service's count as soon as
 * the call returns (the tasks start after it: that is the scale-out we time), so it has
 * set the count already; Successful is the same once ECS reports it fulfilled ("Change
 * successfully fulfilled by ecs"); Failed set nothing, and Overridden or Unfulfilled say
 * no count took effect from it. A recording without a status (NULL) is taken at its
 * description's word. */
static bool
activity_set_count(const struct so_activity *a)
{
	return a->status == NULL || strcmp(a->status, "Successful") == 0 ||
	       strcmp(a->status, "InProgress") == 0;
}

static void
rows_of_activities(const struct so_sources *src, struct so_story *st, size_t *cap)
{
	const struct so_activity **v = xcalloc(src->nactivities + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < src->nactivities; i++)
		if (src->activities[i].start_ms != TS_NONE)
			v[n++] = &src->activities[i];
	so_sort(v, n, sizeof *v, activity_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct so_activity *a = v[i];
		const struct so_service *svc;
		const struct deployment *d;
		struct so_row *r;
		long from = -1;

		if (a->service == NULL)
			continue;   /* not an ECS service's desired count */
		/* the count before: the last activity of the same target that set one */
		for (size_t j = i; j-- > 0;)
			if (v[j]->resource_id != NULL && strcmp(v[j]->resource_id, a->resource_id) == 0 &&
			    v[j]->desired_to >= 0 && activity_set_count(v[j])) {
				from = v[j]->desired_to;
				break;
			}
		if ((a->status != NULL && strcmp(a->status, "Failed") == 0) ||
		    !activity_rises(src, a, from))
			continue;   /* a scale-in, or nothing changed: never a row */
		svc = so_service_of(src, a->service);
		r = row_add(st, cap, a->cluster, a->service, a->start_ms);
		r->activity = a;
		r->svc = svc;
		r->trigger = SO_TRIGGER_ACTIVITY;
		r->trigger_name = a->id ? a->id : "";
		r->trigger_ms = a->start_ms;
		r->desired_from = from;
		r->desired_to = a->desired_to;
		d = deployment_at(src, r->service, a->start_ms);
		r->deployment = d != NULL ? d->id : NULL;
	}
	free(v);
}

/* The service's desired count in force just before instant `at`, from the latest source
 * before it that says it: the count a scaling activity set (activity_set_count; from its
 * start), or a deployment other than skip recorded while PRIMARY (its desiredCount was
 * then the service's; once replaced, ECS drains it, so an ACTIVE or INACTIVE one's count
 * is the drain's, not the service's): from its fetch time, or from its createdAt when that is
 * unknown (a lower bound: an activity after it wins, and had the deployment been fetched
 * after that activity it would have said the same count); -1 when none says (empty in
 * the rows, not 0) */
static long
desired_at(const struct so_sources *src, const char *service, int64_t at,
	   const struct deployment *skip)
{
	int64_t best_ms = TS_NONE;
	long best = -1;

	for (size_t i = 0; i < src->nactivities; i++) {
		const struct so_activity *a = &src->activities[i];

		if (a->service != NULL && strcmp(a->service, service) == 0 &&
		    a->desired_to >= 0 && a->start_ms != TS_NONE && a->start_ms < at &&
		    activity_set_count(a) && (best_ms == TS_NONE || a->start_ms > best_ms)) {
			best_ms = a->start_ms;
			best = a->desired_to;
		}
	}
	for (size_t i = 0; i < src->deploys.n; i++) {
		const struct deployment *p = &src->deploys.v[i];
		int64_t since = p->seen_ms != TS_NONE ? p->seen_ms : p->created_ms;

		if (p != skip && p->service != NULL && strcmp(p->service, service) == 0 &&
		    p->desired >= 0 && p->status != NULL && strcmp(p->status, "PRIMARY") == 0 &&
		    since != TS_NONE && since < at && (best_ms == TS_NONE || since > best_ms)) {
			best_ms = since;
			best = p->desired;
		}
	}
	return best;
}

/* Did the service's desired count change after deployment d's createdAt and by the time
 * its document was fetched (any time later when that is unknown): a scaling activity
 * that set a count (activity_set_count), or a later deployment (which replaces d, whose
 * count is then the drain's)? */
static bool
desired_changed_after(const struct so_sources *src, const struct deployment *d)
{
	int64_t from = d->created_ms, to = d->seen_ms;

	for (size_t i = 0; i < src->nactivities; i++) {
		const struct so_activity *a = &src->activities[i];

		if (a->service != NULL && strcmp(a->service, d->service) == 0 &&
		    a->desired_to >= 0 && activity_set_count(a) && a->start_ms != TS_NONE &&
		    a->start_ms > from && (to == TS_NONE || a->start_ms <= to))
			return true;
	}
	for (size_t i = 0; i < src->deploys.n; i++) {
		const struct deployment *p = &src->deploys.v[i];

		if (p != d && p->service != NULL && strcmp(p->service, d->service) == 0 &&
		    p->created_ms != TS_NONE && p->created_ms > from &&
		    (to == TS_NONE || p->created_ms <= to))
			return true;
	}
	return false;
}

/* Deployment d's desired count when it started. Its desiredCount is the count when its
 * document was fetched, not when it started: it is taken only when nothing changed the
 * service's count in between and d was not already replaced (ACTIVE or INACTIVE: the
 * drain's count); otherwise the count in force at its createdAt; -1 when none says. */
static long
desired_of_deployment(const struct so_sources *src, const struct deployment *d)
{
	bool replaced = d->status != NULL && strcmp(d->status, "PRIMARY") != 0;

	if (d->desired >= 0 && !replaced && !desired_changed_after(src, d))
		return d->desired;
	return desired_at(src, d->service, d->created_ms, d);
}

static void
rows_of_deployments(const struct so_sources *src, struct so_story *st, size_t *cap)
{
	for (size_t i = 0; i < src->deploys.n; i++) {
		const struct deployment *d = &src->deploys.v[i];
		const struct so_service *svc;
		struct so_row *r;

		if (d->service == NULL || d->created_ms == TS_NONE)
			continue;
		svc = so_service_of(src, d->service);
		r = row_add(st, cap, svc && svc->cluster ? svc->cluster : "", d->service,
			    d->created_ms);
		r->svc = svc;
		r->trigger = SO_TRIGGER_DEPLOYMENT;
		r->trigger_name = d->id ? d->id : "";
		r->trigger_ms = d->created_ms;
		/* equal for a rolling replacement: still a row, it started tasks */
		r->desired_from = desired_at(src, d->service, d->created_ms, d);
		r->desired_to = desired_of_deployment(src, d);
		r->deployment = d->id;
	}
}

/* "(service web) has started 5 tasks: (task 1a2b) (task 3c4d)." */
bool
so_event_started(const char *msg)
{
	return msg != NULL && strstr(msg, " has started ") != NULL && strstr(msg, " tasks") != NULL;
}

/* the task ids an event names, as (start, length) pairs over msg; how many */
static size_t
event_task_ids(const char *msg, const char **ids, size_t *lens, size_t max)
{
	size_t n = 0;

	for (const char *p = msg; n < max && (p = strstr(p, "(task ")) != NULL;) {
		const char *e;

		p += 6;
		if ((e = strchr(p, ')')) == NULL)
			break;
		ids[n] = p;
		lens[n++] = (size_t)(e - p);
		p = e;
	}
	return n;
}

/* The row an instant of a service belongs to: the one with the latest schedule start at
 * or before it and within SCALEOUT_GAP_MS (else one that starts within SO_SLACK_MS after
 * it: a clock apart), whose deployment is dep (or that has none, or dep NULL); -1 */
static long
row_of(const struct so_story *st, const char *service, int64_t at, const char *dep)
{
	long best = -1, early = -1;

	if (at == TS_NONE)
		return -1;
	for (size_t i = 0; i < st->n; i++) {
		const struct so_row *r = &st->rows[i];
		int64_t s = r->span[SO_SCHEDULE].from_ms;

		if (strcmp(r->service, service) != 0 || s == TS_NONE || at < s - SO_SLACK_MS ||
		    at >= s + SCALEOUT_GAP_MS)
			continue;
		if (dep != NULL && r->deployment != NULL && strcmp(r->deployment, dep) != 0)
			continue;
		if (at < s) {
			if (early < 0 || s < st->rows[early].span[SO_SCHEDULE].from_ms)
				early = (long)i;
		} else if (best < 0 || s > st->rows[best].span[SO_SCHEDULE].from_ms) {
			best = (long)i;
		}
	}
	return best >= 0 ? best : early;
}

/* Tasks started that no activity or deployment explains: a manual change, one row per
 * burst of such events (SCALEOUT_GAP_MS apart) */
static int
event_cmp(const void *a, const void *b)
{
	const struct deploy_event *x = *(const struct deploy_event *const *)a;
	const struct deploy_event *y = *(const struct deploy_event *const *)b;

	return cmp_i64(x->at_ms, y->at_ms);
}

static void
rows_of_manual(const struct so_sources *src, struct so_story *st, size_t *cap)
{
	/* oldest first (ECS lists the newest first): a burst's first event makes its row and
	 * the later ones fall into it */
	const struct deploy_event **ev = xcalloc(src->deploys.nev + 1, sizeof *ev);

	for (size_t i = 0; i < src->deploys.nev; i++)
		ev[i] = &src->deploys.ev[i];
	so_sort(ev, src->deploys.nev, sizeof *ev, event_cmp);
	for (size_t i = 0; i < src->deploys.nev; i++) {
		const struct deploy_event *e = ev[i];
		const struct so_service *svc;
		int64_t trig = e->at_ms;
		struct so_row *r;

		if (e->service == NULL || !so_event_started(e->message) ||
		    row_of(st, e->service, e->at_ms, NULL) >= 0)
			continue;
		/* the PRIMARY deployment's updatedAt, when it is shortly before: UpdateService */
		for (size_t j = 0; j < src->deploys.n; j++) {
			const struct deployment *d = &src->deploys.v[j];

			if (d->service != NULL && strcmp(d->service, e->service) == 0 &&
			    d->status != NULL && strcmp(d->status, "PRIMARY") == 0 &&
			    d->updated_ms != TS_NONE && d->updated_ms <= e->at_ms &&
			    d->updated_ms > e->at_ms - SCALEOUT_GAP_MS && d->updated_ms < trig)
				trig = d->updated_ms;
		}
		svc = so_service_of(src, e->service);
		r = row_add(st, cap, svc && svc->cluster ? svc->cluster : "", e->service, trig);
		r->svc = svc;
		r->trigger = SO_TRIGGER_MANUAL;
		r->trigger_ms = trig;
		r->span[SO_SCHEDULE].from_est = trig == e->at_ms;
	}
	free(ev);
}

static void
row_push_task(struct so_row *r, size_t *cap, const struct task *t)
{
	for (size_t i = 0; i < r->ntasks; i++)
		if (r->tasks[i] == t)
			return;
	r->tasks = xgrow(r->tasks, r->ntasks + 1, cap, sizeof *r->tasks);
	r->tasks[r->ntasks++] = t;
}

static const struct task *
task_by_id(const struct task_set *ts, const char *service, const char *id, size_t len)
{
	for (size_t i = 0; i < ts->len; i++) {
		const struct task *t = &ts->tasks[i];

		if (strlen(task_id(t)) == len && memcmp(task_id(t), id, len) == 0 &&
		    strcmp(t->prof->service, service) == 0)
			return t;
	}
	return NULL;
}

/* The tasks of each row; tasks_started counts the events' N when they name more tasks
 * than the data has; the capacity errors are the events that say so in the window */
static void
match_tasks(const struct so_sources *src, const struct task_set *ts, struct so_story *st)
{
	size_t *caps = xcalloc(st->n + 1, sizeof *caps);
	size_t *said = xcalloc(st->n + 1, sizeof *said);
	bool *named = xcalloc(ts->len + 1, sizeof *named);

	for (size_t i = 0; i < src->deploys.nev; i++) {
		const struct deploy_event *e = &src->deploys.ev[i];
		long r = e->service != NULL ? row_of(st, e->service, e->at_ms, NULL) : -1;
		const char *ids[64];
		size_t lens[64], k, n;
		unsigned long count;

		if (r < 0)
			continue;
		if (strcasestr(e->message, "unable to place a task") != NULL ||
		    strcasestr(e->message, "capacity is unavailable") != NULL)
			st->rows[r].capacity_errors++;
		if (!so_event_started(e->message))
			continue;
		n = event_task_ids(e->message, ids, lens, 64);
		if (sscanf(strstr(e->message, " has started ") + 13, "%lu", &count) == 1 && count < 100000)
			said[r] += count;
		for (k = 0; k < n; k++) {
			const struct task *t = task_by_id(ts, e->service, ids[k], lens[k]);
			long tr = t != NULL ? row_of(st, e->service, e->at_ms, t->prof->started_by) : -1;

			if (tr >= 0) {   /* the row of the task's own deployment */
				named[t - ts->tasks] = true;
				row_push_task(&st->rows[tr], &caps[tr], t);
			}
		}
	}
	for (size_t i = 0; i < ts->len; i++) {
		const struct task *t = &ts->tasks[i];
		long r;

		if (named[i] || t->prof->service[0] == '\0')
			continue;
		r = row_of(st, t->prof->service, task_ts(t, TS_CREATED), t->prof->started_by);
		if (r >= 0 && (st->rows[r].cluster[0] == '\0' || t->prof->cluster[0] == '\0' ||
			       strcmp(st->rows[r].cluster, t->prof->cluster) == 0))
			row_push_task(&st->rows[r], &caps[r], t);
	}
	for (size_t r = 0; r < st->n; r++) {
		struct so_row *row = &st->rows[r];

		so_sort(row->tasks, row->ntasks, sizeof *row->tasks, task_created_cmp);
		row->tasks_started = row->ntasks > said[r] ? row->ntasks : said[r];
		for (size_t i = 0; i < row->ntasks; i++)
			if (task_stage(row->tasks[i], NULL) == STAGE_FAILED)
				row->tasks_failed++;
		if (row->cluster[0] == '\0' && row->ntasks > 0)
			row->cluster = row->tasks[0]->prof->cluster;
	}
	free(caps);
	free(said);
	free(named);
}

static int
task_service_created_cmp(const void *a, const void *b)
{
	const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
	int c = strcmp(x->prof->service, y->prof->service);

	return c != 0 ? c : task_created_cmp(a, b);
}

/* No service events read: the tasks no row has, by service, in bursts of createdAt
 * (scaleout.h's gap): each a manual change whose trigger is its first createdAt */
static void
rows_of_bursts(const struct so_sources *src, const struct task_set *ts, struct so_story *st,
	       size_t *cap)
{
	bool *taken = xcalloc(ts->len + 1, sizeof *taken);
	const struct task **v = xcalloc(ts->len + 1, sizeof *v);
	size_t n = 0, rows = st->n, tcap = 0;
	struct so_row *r = NULL;

	if (src->read[SO_SRC_SERVICES])
		goto out;
	for (size_t i = 0; i < rows; i++)
		for (size_t k = 0; k < st->rows[i].ntasks; k++)
			taken[st->rows[i].tasks[k] - ts->tasks] = true;
	for (size_t i = 0; i < ts->len; i++)
		if (!taken[i] && ts->tasks[i].prof->service[0] != '\0' &&
		    task_ts(&ts->tasks[i], TS_CREATED) != TS_NONE)
			v[n++] = &ts->tasks[i];
	so_sort(v, n, sizeof *v, task_service_created_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct task *t = v[i], *prev = i > 0 ? v[i - 1] : NULL;

		if (prev == NULL || strcmp(prev->prof->service, t->prof->service) != 0 ||
		    task_ts(t, TS_CREATED) - task_ts(prev, TS_CREATED) > SCALEOUT_GAP_MS) {
			r = row_add(st, cap, t->prof->cluster, t->prof->service, task_ts(t, TS_CREATED));
			r->trigger = SO_TRIGGER_MANUAL;
			r->trigger_ms = task_ts(t, TS_CREATED);
			r->span[SO_SCHEDULE].from_ms = TS_NONE;   /* no source says when it began */
			tcap = 0;
		}
		r->tasks = xgrow(r->tasks, r->ntasks + 1, &tcap, sizeof *r->tasks);
		r->tasks[r->ntasks++] = t;
		r->tasks_started++;
		if (task_stage(t, NULL) == STAGE_FAILED)
			r->tasks_failed++;
	}
out:
	free(taken);
	free(v);
}

static void
story_note(struct so_story *st, char *line)
{
	st->notes = xreallocarray(st->notes, st->nnotes + 1, sizeof *st->notes);
	st->notes[st->nnotes++] = line;
}

void
so_story_build(const struct so_sources *src, const struct task_set *ts, int64_t since_ms,
	       struct so_story *out)
{
	size_t cap = 0, kept = 0;

	memset(out, 0, sizeof *out);
	rows_of_activities(src, out, &cap);
	rows_of_deployments(src, out, &cap);
	so_sort(out->rows, out->n, sizeof *out->rows, row_cmp);
	rows_of_manual(src, out, &cap);
	so_sort(out->rows, out->n, sizeof *out->rows, row_cmp);
	match_tasks(src, ts, out);
	rows_of_bursts(src, ts, out, &cap);
	for (size_t i = 0; i < out->n; i++)
		so_row_stages(src, out, &out->rows[i]);
	for (size_t i = 0; i < out->n; i++) {
		struct so_row *r = &out->rows[i];

		if (since_ms != TS_NONE && r->trigger_ms != TS_NONE && r->trigger_ms < since_ms) {
			free(r->tasks);
			continue;
		}
		so_row_advise(r, ts);
		out->rows[kept++] = *r;
	}
	out->n = kept;
	so_sort(out->rows, out->n, sizeof *out->rows, row_trigger_cmp);
	so_story_notes(src, ts, out, story_note);
}

void
so_story_cleanup(struct so_story *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->rows[i].tasks);
		free(st->rows[i].advice);
	}
	for (size_t i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->rows);
	free(st->notes);
	memset(st, 0, sizeof *st);
}
