/* deploy: the set of deployments and service events, and the per-deployment figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/deploy.h"
#include "ecsprof/xalloc.h"

void
deploy_set_init(struct deploy_set *s)
{
	memset(s, 0, sizeof *s);
}

void
deploy_set_cleanup(struct deploy_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct deployment *d = &s->v[i];

		free(d->service);
		free(d->id);
		free(d->status);
		free(d->rollout_state);
		free(d->taskdef);
	}
	for (size_t i = 0; i < s->nev; i++) {
		free(s->ev[i].service);
		free(s->ev[i].id);
		free(s->ev[i].message);
	}
	free(s->v);
	free(s->ev);
	memset(s, 0, sizeof *s);
}

static bool
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

struct deployment *
deploy_set_get(struct deploy_set *s, const char *service, const char *id)
{
	struct deployment *d;

	for (size_t i = 0; i < s->n; i++)
		if (same(s->v[i].service, service) && same(s->v[i].id, id))
			return &s->v[i];
	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	d = &s->v[s->n++];
	memset(d, 0, sizeof *d);
	d->service = xstrdup_or_null(service);
	d->id = xstrdup_or_null(id);
	d->created_ms = d->updated_ms = d->completed_ms = d->seen_ms = TS_NONE;
	d->desired = d->failed = -1;
	return d;
}

static void
take(char **dst, const char *src, bool replace)
{
	if (src == NULL || (*dst != NULL && !replace))
		return;
	free(*dst);
	*dst = xstrdup(src);
}

static void
take_ms(int64_t *dst, int64_t src, bool replace)
{
	if (src != TS_NONE && (*dst == TS_NONE || replace))
		*dst = src;
}

void
deploy_merge(struct deployment *d, const struct deployment *f)
{
	bool newer = f->seen_ms != TS_NONE && (d->seen_ms == TS_NONE || f->seen_ms > d->seen_ms);

	take(&d->status, f->status, newer);
	take(&d->rollout_state, f->rollout_state, newer);
	take(&d->taskdef, f->taskdef, newer);
	/* a start is a start: the earliest any source saw */
	if (f->created_ms != TS_NONE && (d->created_ms == TS_NONE || f->created_ms < d->created_ms))
		d->created_ms = f->created_ms;
	take_ms(&d->updated_ms, f->updated_ms, newer);
	take_ms(&d->completed_ms, f->completed_ms, false);
	if (f->desired >= 0 && (d->desired < 0 || newer))
		d->desired = f->desired;
	if (f->failed >= 0 && (d->failed < 0 || newer))
		d->failed = f->failed;
	if (newer)
		d->seen_ms = f->seen_ms;
}

void
deploy_set_event(struct deploy_set *s, const char *service, const char *id, int64_t at_ms,
		 const char *message)
{
	struct deploy_event *e;

	if (message == NULL || at_ms == TS_NONE)
		return;
	for (size_t i = 0; i < s->nev; i++) {
		e = &s->ev[i];
		if (!same(e->service, service))
			continue;
		if (id != NULL && e->id != NULL ? strcmp(id, e->id) == 0
		    : e->at_ms == at_ms && strcmp(e->message, message) == 0)
			return;
	}
	s->ev = xreallocarray(s->ev, s->nev + 1, sizeof *s->ev);
	e = &s->ev[s->nev++];
	e->service = xstrdup_or_null(service);
	e->id = xstrdup_or_null(id);
	e->at_ms = at_ms;
	e->message = xstrdup(message);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int
cmp_rows(const void *pa, const void *pb)
{
	const struct deploy_row *a = pa, *b = pb;
	int c = strcmp(a->d->service ? a->d->service : "", b->d->service ? b->d->service : "");

	if (c != 0)
		return c;
	return cmp_i64(&a->d->created_ms, &b->d->created_ms);
}

static int
cmp_events(const void *pa, const void *pb)
{
	const struct deploy_event *const *a = pa, *const *b = pb;

	return cmp_i64(&(*a)->at_ms, &(*b)->at_ms);
}

/* the model's one answer (task_stage), so a deployment counts as failed the starts every
 * other output marks, DEPROVISIONING ones among them */
static bool
failed_start(const struct task *t)
{
	return task_stage(t, NULL) == STAGE_FAILED;
}

/* The k-th smallest (1-based) of v[0..n), or the largest when k is 0; TS_NONE if n < k. */
static int64_t
kth(int64_t *v, size_t n, long k)
{
	if (n == 0 || (k > 0 && (size_t)k > n))
		return TS_NONE;
	qsort(v, n, sizeof *v, cmp_i64);
	return k > 0 ? v[k - 1] : v[n - 1];
}

static void
deploy_measure(struct deploy_row *r, const struct deploy_set *s, const struct task_set *ts)
{
	const struct deployment *d = r->d;
	int64_t start = d->created_ms, next = TS_NONE;
	int64_t *run = xreallocarray(NULL, ts->len + 1, sizeof *run);
	int64_t *ok = xreallocarray(NULL, ts->len + 1, sizeof *ok);
	size_t nrun = 0, nok = 0, pending = 0;
	long failed = 0;

	r->first_running_ms = r->p50_running_ms = r->all_running_ms = TS_NONE;
	r->all_healthy_ms = r->steady_ms = TS_NONE;
	for (size_t i = 0; i < ts->len; i++) {
		const struct task *t = &ts->tasks[i];

		if (d->id == NULL || t->prof->started_by == NULL || strcmp(t->prof->started_by, d->id) != 0)
			continue;
		if (d->service != NULL && t->prof->service != NULL && t->prof->service[0] != '\0' &&
		    strcmp(t->prof->service, d->service) != 0)
			continue;
		r->tasks_started++;
		if (failed_start(t)) {
			failed++;
			continue;
		}
		if (start == TS_NONE)
			continue;
		if (task_ts(t, TS_STARTED) != TS_NONE && task_ts(t, TS_STARTED) >= start)
			run[nrun++] = task_ts(t, TS_STARTED) - start;
		else if (task_ts(t, TS_STARTED) == TS_NONE)
			pending++;
		if (task_ts(t, TS_HEALTHY) != TS_NONE && task_ts(t, TS_HEALTHY) >= start)
			ok[nok++] = task_ts(t, TS_HEALTHY) - start;
	}
	r->failed_tasks = d->failed > failed ? d->failed : failed;
	if (nrun > 0) {
		qsort(run, nrun, sizeof *run, cmp_i64);
		r->first_running_ms = run[0];
		r->p50_running_ms = nrun % 2 ? run[nrun / 2] : (run[nrun / 2 - 1] + run[nrun / 2]) / 2;
		/* all: as many as the deployment wants; without a desired count, every task
		 * it started, once none is still starting */
		r->all_running_ms = d->desired > 0 ? kth(run, nrun, d->desired)
				  : pending == 0 ? run[nrun - 1] : TS_NONE;
	}
	if (nok > 0)
		r->all_healthy_ms = d->desired > 0 ? kth(ok, nok, d->desired)
				  : nok == nrun && pending == 0 ? kth(ok, nok, 0) : TS_NONE;
	/* the events of this deployment: from its start to the next one of the service */
	for (size_t i = 0; i < s->n; i++) {
		const struct deployment *o = &s->v[i];

		if (o != d && same(o->service, d->service) && o->created_ms != TS_NONE &&
		    start != TS_NONE && o->created_ms > start &&
		    (next == TS_NONE || o->created_ms < next))
			next = o->created_ms;
	}
	r->events = xreallocarray(NULL, s->nev + 1, sizeof *r->events);
	for (size_t i = 0; start != TS_NONE && i < s->nev; i++) {
		const struct deploy_event *e = &s->ev[i];

		if (!same(e->service, d->service) || e->at_ms < start ||
		    (next != TS_NONE && e->at_ms >= next))
			continue;
		r->events[r->nevents++] = e;
	}
	qsort(r->events, r->nevents, sizeof *r->events, cmp_events);
	for (size_t i = 0; i < r->nevents && r->steady_ms == TS_NONE; i++)
		if (strcasestr(r->events[i]->message, "has reached a steady state") != NULL)
			r->steady_ms = r->events[i]->at_ms - start;
	if (r->steady_ms == TS_NONE && d->completed_ms != TS_NONE && start != TS_NONE &&
	    d->completed_ms >= start && d->rollout_state != NULL &&
	    strcmp(d->rollout_state, "COMPLETED") == 0)
		r->steady_ms = d->completed_ms - start;
	free(run);
	free(ok);
}

void
deploy_rows(const struct deploy_set *s, const struct task_set *tasks, struct deploy_row **rows,
	    size_t *n)
{
	*rows = xcalloc(s->n ? s->n : 1, sizeof **rows);
	*n = s->n;
	for (size_t i = 0; i < s->n; i++) {
		(*rows)[i].d = &s->v[i];
		deploy_measure(&(*rows)[i], s, tasks);
	}
	qsort(*rows, *n, sizeof **rows, cmp_rows);
}

void
deploy_rows_free(struct deploy_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].events);
	free(rows);
}

static void
secs(int64_t ms, char *out, size_t size)
{
	snprintf(out, size, "+%.0f s", (double)ms / 1000.0);
}

void
deploy_row_sentence(const struct deploy_row *r, char *out, size_t size)
{
	char a[32];
	size_t at;

	snprintf(out, size, "%zu task%s", r->tasks_started, r->tasks_started == 1 ? "" : "s");
	if (r->first_running_ms == TS_NONE) {
		at = strlen(out);
		snprintf(out + at, size - at, ": none RUNNING yet");
	} else {
		secs(r->first_running_ms, a, sizeof a);
		at = strlen(out);
		snprintf(out + at, size - at, ": first RUNNING %s", a);
		if (r->all_running_ms != TS_NONE) {
			secs(r->all_running_ms, a, sizeof a);
			at = strlen(out);
			snprintf(out + at, size - at, ", all %s", a);
		}
	}
	if (r->all_healthy_ms != TS_NONE) {
		secs(r->all_healthy_ms, a, sizeof a);
		at = strlen(out);
		snprintf(out + at, size - at, ", all healthy %s", a);
	}
	if (r->steady_ms != TS_NONE) {
		secs(r->steady_ms, a, sizeof a);
		at = strlen(out);
		snprintf(out + at, size - at, ", steady state %s", a);
	}
	if (r->failed_tasks > 0) {
		at = strlen(out);
		snprintf(out + at, size - at, ", %ld failed", r->failed_tasks);
	}
}
