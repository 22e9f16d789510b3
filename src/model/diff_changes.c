/* diff_changes: `report --changes`: one history cut into windows (a UTC day of createdAt,
 * or a deployment), each window diffed against the one before it (diff_build: the same
 * statistics, splits and explanations as `ecsprof diff`), Holm's correction over every
 * phase of every comparison (a long history makes many tests: one family keeps the chance
 * of a false change point at alpha for the whole history), and one change point per
 * window and phase that shifted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff_int.h"
#include "ecsprof/diff_changes.h"
#include "ecsprof/group.h"
#include "ecsprof/stats.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define DAY_MS 86400000LL

int
changes_by_parse(const char *s)
{
	if (strcasecmp(s, "day") == 0)
		return CHANGES_DAY;
	if (strcasecmp(s, "deployment") == 0)
		return CHANGES_DEPLOYMENT;
	return -1;
}

/* A task and the window it falls in: the day, or its deployment (id, then its start). */
struct keyed {
	const struct task *t;
	const char *id;                 /* deployment only */
	int64_t key;                    /* the window's start */
};

static int
cmp_id(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->id, b->id);

	if (c != 0)
		return c;
	return task_ts(a->t, TS_CREATED) < task_ts(b->t, TS_CREATED) ? -1 :
	       task_ts(a->t, TS_CREATED) > task_ts(b->t, TS_CREATED);
}

static int
cmp_key(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->id != NULL && b->id != NULL && strcmp(a->id, b->id) != 0)
		return strcmp(a->id, b->id);   /* two deployments begun the same millisecond */
	return task_ts(a->t, TS_CREATED) < task_ts(b->t, TS_CREATED) ? -1 :
	       task_ts(a->t, TS_CREATED) > task_ts(b->t, TS_CREATED);
}

/* The keyed tasks of s (those with a createdAt, and a deployment when by deployment). */
static struct keyed *
key_tasks(struct changes *c, const struct task_set *s, size_t *n)
{
	struct keyed *k = xmalloc((s->len ? s->len : 1) * sizeof *k);
	struct group_key gk = { .kind = GK_DEPLOYMENT };
	char buf[8];

	*n = 0;
	for (size_t i = 0; i < s->len; i++) {
		const struct task *t = &s->tasks[i];
		int64_t created = task_ts(t, TS_CREATED);
		const char *id = NULL;

		if (created != TS_NONE && c->by == CHANGES_DEPLOYMENT) {
			id = group_value(t, &gk, buf, sizeof buf);
			if (strcmp(id, GROUP_NONE) == 0)
				id = NULL;
		}
		if (created == TS_NONE || (c->by == CHANGES_DEPLOYMENT && id == NULL)) {
			c->left_out++;
			continue;
		}
		/* floor, so a createdAt before 1970 still falls in its own day */
		k[*n] = (struct keyed){ t, id, created >= 0 ? created / DAY_MS * DAY_MS :
					   -((-created + DAY_MS - 1) / DAY_MS) * DAY_MS };
		(*n)++;
	}
	if (c->by == CHANGES_DEPLOYMENT && *n > 0) {
		/* a deployment's window starts at its first task */
		qsort(k, *n, sizeof *k, cmp_id);
		for (size_t i = 0, first = 0; i < *n; i++) {
			if (strcmp(k[i].id, k[first].id) != 0)
				first = i;
			k[i].key = task_ts(k[first].t, TS_CREATED);
		}
	}
	qsort(k, *n, sizeof *k, cmp_key);
	return k;
}

static void
make_windows(struct changes *c, const struct task_set *s)
{
	size_t n;
	struct keyed *k = key_tasks(c, s, &n);

	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && k[j].key == k[i].key &&
		       (k[i].id == NULL || strcmp(k[j].id, k[i].id) == 0))
			j++;
		const struct task **v = xmalloc((j - i) * sizeof *v);

		for (size_t x = i; x < j; x++)
			v[x - i] = k[x].t;
		c->windows = xreallocarray(c->windows, c->nwindows + 1, sizeof *c->windows);
		struct change_window *w = &c->windows[c->nwindows++];

		*w = (struct change_window){ .w = { v, j - i, s->images }, .start_ms = k[i].key };
		if (k[i].id != NULL) {
			snprintf(w->label, sizeof w->label, "%s", k[i].id);
		} else {
			char iso[TIMEUTIL_ISO_LEN];

			timeutil_format_iso(k[i].key, iso);
			snprintf(w->label, sizeof w->label, "%.10s", iso);
		}
		i = j;
	}
	free(k);
}

/* The explaining attribute's new value in phase p: the new value with the most tasks, as
 * diff_cause_text picks it. */
static char *
new_value(const struct diff *d, enum diff_phase p)
{
	const struct diff_explain *e = &d->explain[p];
	size_t best = SIZE_MAX;

	if (e->why != DIFF_WHY_EXPLAINED && e->why != DIFF_WHY_CONFOUNDED)
		return NULL;
	for (size_t i = 0; i < d->nparts; i++)
		if (d->parts[i].phase == p && d->parts[i].attr == e->attr && !d->parts[i].in_baseline &&
		    (best == SIZE_MAX || d->parts[i].cmp.cur.n > d->parts[best].cmp.cur.n))
			best = i;
	return best == SIZE_MAX ? NULL : xstrdup(d->mix[e->attr].values[d->parts[best].value].value);
}

static void
add_note(struct changes *c, char *text)
{
	c->notes = xreallocarray(c->notes, c->nnotes + 1, sizeof *c->notes);
	c->notes[c->nnotes++] = text;
}

int
changes_build(struct changes *c, const struct task_set *s, enum changes_by by, struct err *err)
{
	struct diff *d;
	struct diff_cmp *cmp, **fam;
	size_t npairs;

	memset(c, 0, sizeof *c);
	c->by = by;
	make_windows(c, s);
	if (c->nwindows < 2)
		return err_set(err, ERR_PARSE,
			       "--changes: the history has %zu %s with tasks: nothing to compare (%zu task%s in no window)",
			       c->nwindows, by == CHANGES_DAY ? "day(s)" : "deployment(s)", c->left_out,
			       c->left_out == 1 ? "" : "s");
	npairs = c->nwindows - 1;
	d = xcalloc(npairs, sizeof *d);
	cmp = xcalloc(npairs * DIFF_PHASE_COUNT, sizeof *cmp);
	fam = xcalloc(npairs * DIFF_PHASE_COUNT, sizeof *fam);
	for (size_t i = 0; i < npairs; i++) {
		/* both windows have tasks by construction: diff_build cannot fail */
		if (diff_build(&d[i], &c->windows[i].w, &c->windows[i + 1].w, err) != 0)
			abort();
		for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
			cmp[i * DIFF_PHASE_COUNT + p] = d[i].phase[p];
			if (d[i].phase[p].valid)
				fam[c->compared++] = &cmp[i * DIFF_PHASE_COUNT + p];
		}
	}
	/* one family over the whole history; its significant ones are significant in their
	 * own diff's family too (a subset's Holm is never stricter), so each has its
	 * explanation there */
	diff_holm(fam, c->compared);
	for (size_t i = 0; i < npairs; i++)
		for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
			const struct diff_cmp *x = &cmp[i * DIFF_PHASE_COUNT + p];
			char line[1024];

			if (!x->valid || !x->significant)
				continue;
			c->points = xreallocarray(c->points, c->npoints + 1, sizeof *c->points);
			struct change_point *pt = &c->points[c->npoints++];
			const struct diff_explain *e = &d[i].explain[p];

			*pt = (struct change_point){ .window = i + 1, .phase = (enum diff_phase)p, .cmp = *x,
						     .why = e->why, .attr = -1 };
			if (e->why == DIFF_WHY_EXPLAINED || e->why == DIFF_WHY_CONFOUNDED)
				pt->attr = (int)e->attr;
			pt->value = new_value(&d[i], (enum diff_phase)p);
			diff_cause_text(&d[i], (enum diff_phase)p, line, sizeof line);
			pt->cause = xstrdup(line);
			diff_explain_text(&d[i], (enum diff_phase)p, line, sizeof line);
			pt->explanation = xstrdup(line);
		}
	add_note(c, xasprintf("%zu windows (%s), each compared with the one before it: %zu phase comparisons, Holm-corrected together; p: Mann-Whitney; CI: the p50 change's 95%% interval (bootstrap; order statistics from %d tasks a side)",
			      c->nwindows, by == CHANGES_DAY ? "UTC days of createdAt" : "deployments",
			      c->compared, DIFF_ORDER_CI_MIN));
	if (c->npoints == 0)
		add_note(c, xasprintf("no change point: no phase's distribution shifted significantly (p < %.2f) from one window to the next",
				      DIFF_ALPHA));
	if (c->left_out > 0)
		add_note(c, xasprintf("%zu task%s in no window (%s)", c->left_out,
				      c->left_out == 1 ? "" : "s",
				      by == CHANGES_DAY ? "no createdAt" : "no createdAt or no deployment (startedBy ecs-svc/...)"));
	for (size_t i = 0; i < npairs; i++)
		diff_cleanup(&d[i]);
	free(d);
	free(cmp);
	free(fam);
	return 0;
}

void
changes_cleanup(struct changes *c)
{
	for (size_t i = 0; i < c->nwindows; i++)
		diff_window_free(&c->windows[i].w);
	free(c->windows);
	for (size_t i = 0; i < c->npoints; i++) {
		free(c->points[i].value);
		free(c->points[i].cause);
		free(c->points[i].explanation);
	}
	free(c->points);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	memset(c, 0, sizeof *c);
}
