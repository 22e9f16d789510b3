/* report: task set -> rows, groups, per-phase summaries and the baseline comparison,
 * shared by every output (csv, json, table, tui); a row's cells and sorting are
 * report_cell.c. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/numfmt.h"
#include "ecsprof/report.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* The verdict's rule: a difference is called significant when the two-sided
 * Mann-Whitney p-value is below REPORT_ALPHA (0.05), the conventional 1-in-20 chance of
 * seeing such a difference between two groups drawn from the same distribution. */
#define REPORT_ALPHA 0.05

/* ---- building ---- */

static int
report_cmp_group_names(const char *a, const char *b)
{
	bool na = strcmp(a, GROUP_NONE) == 0, nb = strcmp(b, GROUP_NONE) == 0;

	/* "(none)" would sort first in byte order; it is the least interesting group */
	if (na != nb)
		return na ? 1 : -1;
	return strcmp(a, b);
}

static int
report_cmp_group_ptrs(const void *pa, const void *pb)
{
	return report_cmp_group_names(*(char *const *)pa, *(char *const *)pb);
}

static uint64_t
report_name_hash(const char *s)
{
	uint64_t h = 14695981039346656037u;   /* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* Fills r->groups (names owned, sorted by report_cmp_group_names, ntasks) and each row's
 * group, and returns the tasks by group, each group's in set order (NULL for one group:
 * the set's order); (*gstart)[g] is where group g starts in it, (*gstart)[ngroups] =
 * set->len. Task indices are 32 bits (report_build takes fewer than 2^32 tasks): 4
 * bytes a task (issue 35). */
static uint32_t *
report_group_tasks(struct report *r, const struct task_set *set, const struct group_key *key,
		   size_t **gstart)
{
	size_t n = set->len, ndistinct = 0, cap = 16, slots = 64;
	char **distinct = xreallocarray(NULL, cap, sizeof *distinct);
	size_t *table = xcalloc(slots, sizeof *table);   /* distinct index + 1; 0 empty */
	uint32_t *gid = xreallocarray(NULL, n ? n : 1, sizeof *gid);
	uint32_t *order;
	size_t *rank, *pos;
	char vbuf[512];

	for (size_t i = 0; i < n; i++) {
		const char *name = group_value_images(&set->tasks[i], key, set->images, vbuf,
						      sizeof vbuf);
		size_t h = (size_t)report_name_hash(name) & (slots - 1);

		while (table[h] != 0 && strcmp(distinct[table[h] - 1], name) != 0)
			h = (h + 1) & (slots - 1);
		if (table[h] == 0) {
			if (ndistinct == cap)
				distinct = xgrow(distinct, ndistinct + 1, &cap, sizeof *distinct);
			distinct[ndistinct++] = xstrdup(name);
			table[h] = ndistinct;
			if (2 * ndistinct > slots) {
				/* rehash at half full */
				slots *= 2;
				free(table);
				table = xcalloc(slots, sizeof *table);
				for (size_t d = 0; d < ndistinct; d++) {
					size_t k = (size_t)report_name_hash(distinct[d]) & (slots - 1);

					while (table[k] != 0)
						k = (k + 1) & (slots - 1);
					table[k] = d + 1;
				}
				h = (size_t)report_name_hash(name) & (slots - 1);
				while (strcmp(distinct[table[h] - 1], name) != 0)
					h = (h + 1) & (slots - 1);
			}
		}
		gid[i] = (uint32_t)(table[h] - 1);
	}
	free(table);

	/* distinct -> group index: sort the distinct names (pointers), then rank them */
	char **sorted = xreallocarray(NULL, ndistinct ? ndistinct : 1, sizeof *sorted);

	memcpy(sorted, distinct, ndistinct * sizeof *sorted);
	qsort(sorted, ndistinct, sizeof *sorted, report_cmp_group_ptrs);
	rank = xreallocarray(NULL, ndistinct ? ndistinct : 1, sizeof *rank);
	r->groups = xreallocarray(NULL, ndistinct ? ndistinct : 1, sizeof *r->groups);
	r->ngroups = ndistinct;
	for (size_t g = 0; g < ndistinct; g++) {
		memset(&r->groups[g], 0, sizeof r->groups[g]);
		r->groups[g].name = sorted[g];
	}
	/* the distinct names are unique: find each one's place by binary search */
	for (size_t d = 0; d < ndistinct; d++) {
		size_t lo = 0, hi = ndistinct;

		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (report_cmp_group_names(sorted[mid], distinct[d]) <= 0)
				lo = mid;
			else
				hi = mid;
		}
		rank[d] = lo;
	}
	free(sorted);
	free(distinct);

	/* counting sort of the tasks by group, stable: set order within a group; the rows
	 * (still in set order) keep each task's group, so gid goes before order comes */
	*gstart = xcalloc(ndistinct + 1, sizeof **gstart);
	for (size_t i = 0; i < n; i++) {
		r->rows[i].group = rank[gid[i]];
		r->groups[r->rows[i].group].ntasks++;
	}
	free(gid);
	free(rank);
	for (size_t g = 0; g < ndistinct; g++)
		(*gstart)[g + 1] = (*gstart)[g] + r->groups[g].ntasks;
	if (ndistinct <= 1)
		return NULL;
	pos = xcalloc(ndistinct + 1, sizeof *pos);
	memcpy(pos, *gstart, (ndistinct + 1) * sizeof *pos);
	order = xreallocarray(NULL, n, sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[pos[r->rows[i].group]++] = (uint32_t)i;
	free(pos);
	return order;
}

static int
report_baseline_missing(const struct report *r, const char *name, struct err *err)
{
	struct buf b;
	int rc;

	if (r->ngroups == 0)
		return err_set(err, ERR_USAGE, "--baseline '%s': there are no groups (no tasks)",
			       name);
	buf_init(&b, 4096);
	for (size_t i = 0; i < r->ngroups; i++)
		if (buf_addf(&b, "%s'%s'", i ? ", " : "", r->groups[i].name) < 0)
			break;
	rc = err_set(err, ERR_USAGE, "--baseline '%s' is not a group; the groups are: %s",
		     name, buf_str(&b));
	buf_cleanup(&b);
	return rc;
}

static double report_min_p(size_t m, size_t n);

/* The per-group, per-phase summaries and every group against the baseline: nothing the
 * costs or the row order read, so it runs on a second thread while this one does those
 * (issue 35: the report was all serial after the parallel read). It writes only the
 * groups' phase, cmp and pull_share, and vals: one array of n reused phase by phase (8
 * bytes a task rather than one array a phase, issue 35). */
struct report_stats_job {
	const struct task_set *set;
	struct report_group *groups;
	size_t ngroups, baseline;
	const uint32_t *order;     /* NULL: the set's order (one group) */
	const size_t *gstart;
	double *vals;
};

static void *
report_stats_run(void *arg)
{
	struct report_stats_job *j = arg;
	const struct task *tasks = j->set->tasks;
	const size_t *gstart = j->gstart;
	const uint32_t *order = j->order;
	double *vals = j->vals;

	/* phase by phase: each group's durations in seconds, in task (name-sorted) order,
	 * summarized, then every other group against the baseline */
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct stats_summary *bs = &j->groups[j->baseline].phase[p];

		for (size_t gi = 0; gi < j->ngroups; gi++) {
			double *v = vals + gstart[gi];
			size_t k = 0;

			for (size_t i = gstart[gi]; i < gstart[gi + 1]; i++) {
				int64_t ms = phase_ms(&tasks[order != NULL ? order[i] : i],
						      (enum phase_id)p);

				if (ms != TS_NONE)
					v[k++] = (double)ms / 1000.0;
			}
			stats_summarize(v, k, &j->groups[gi].phase[p]);
		}
		for (size_t gi = 0; gi < j->ngroups; gi++) {
			struct report_group *g = &j->groups[gi];
			struct phase_compare *c = &g->cmp[p];
			const struct stats_summary *gs = &g->phase[p];

			memset(c, 0, sizeof *c);
			c->p_value = NAN;
			c->p_holm = NAN;
			c->u = NAN;
			c->p50_delta_s = c->p50_ratio = c->p90_delta_s = c->p90_ratio = NAN;
			if (gi == j->baseline || bs->n == 0 || gs->n == 0)
				continue;
			c->valid = true;
			c->p50_delta_s = gs->p50 - bs->p50;
			c->p90_delta_s = gs->p90 - bs->p90;
			/* a ratio against zero says nothing; leave it empty */
			c->p50_ratio = bs->p50 > 0 ? gs->p50 / bs->p50 : NAN;
			c->p90_ratio = bs->p90 > 0 ? gs->p90 / bs->p90 : NAN;
			if (stats_mann_whitney(vals + gstart[gi], gs->n,
					       vals + gstart[j->baseline], bs->n,
					       &c->p_value, &c->u) < 0)
				c->p_value = NAN;
			c->too_few = report_min_p(gs->n, bs->n) >= REPORT_ALPHA;
		}
	}
	for (size_t gi = 0; gi < j->ngroups; gi++) {
		struct report_group *g = &j->groups[gi];
		double pull_sum = 0, total_sum = 0;
		size_t both = 0;

		for (size_t i = gstart[gi]; i < gstart[gi + 1]; i++) {
			const struct task *t = &tasks[order != NULL ? order[i] : i];
			int64_t pull = phase_ms(t, PHASE_PULL), total = phase_ms(t, PHASE_TOTAL);

			if (pull != TS_NONE && total != TS_NONE) {
				pull_sum += (double)pull;
				total_sum += (double)total;
				both++;
			}
		}
		g->pull_share = both > 0 && total_sum > 0 ? pull_sum / total_sum : NAN;
		/* five phases compared at once: Holm keeps the chance of any false
		 * "significant" among them at alpha */
		double praw[PHASE_COUNT], padj[PHASE_COUNT];

		for (int p = 0; p < PHASE_COUNT; p++)
			praw[p] = g->cmp[p].valid ? g->cmp[p].p_value : NAN;
		stats_holm(praw, PHASE_COUNT, padj);
		for (int p = 0; p < PHASE_COUNT; p++)
			g->cmp[p].p_holm = padj[p];
	}
	return NULL;
}

int
report_build(struct report *r, const struct task_set *set, const struct report_options *o,
	     struct err *err)
{
	double *vals = NULL;
	size_t *gstart, n = set->len;
	uint32_t *order;
	struct report_stats_job job;
	pthread_t tid;
	bool threaded;
	int rc = 0;

	memset(r, 0, sizeof *r);
	/* 32-bit task indices: 2^32 tasks would be over a terabyte of them */
	if (n > UINT32_MAX)
		return err_set(err, ERR_USAGE, "%zu tasks: a report takes fewer than 2^32", n);
	r->images = set->images;
	cost_prices_init(&r->prices);
	if (o->prices != NULL && o->prices->n > 0) {
		r->prices.v = xreallocarray(NULL, o->prices->n, sizeof *r->prices.v);
		memcpy(r->prices.v, o->prices->v, o->prices->n * sizeof *r->prices.v);
		r->prices.n = o->prices->n;
	}

	/* rows, in createdAt order (set order among equal or missing times) */
	r->rows = xreallocarray(NULL, n ? n : 1, sizeof *r->rows);
	r->nrows = n;
	for (size_t i = 0; i < n; i++) {
		r->rows[i].task = &set->tasks[i];
		r->rows[i].group = 0;
	}

	/* groups: the distinct names, sorted; each group's tasks in set order (what sorting
	 * (name, task) pairs gave, without n log n string comparisons and a copy a task) */
	order = report_group_tasks(r, set, &o->group_by, &gstart);

	/* the baseline: named, or the first group in name order */
	r->baseline = 0;
	if (o->baseline != NULL) {
		size_t gi;

		for (gi = 0; gi < r->ngroups; gi++)
			if (strcmp(r->groups[gi].name, o->baseline) == 0)
				break;
		if (gi == r->ngroups) {
			rc = report_baseline_missing(r, o->baseline, err);
			goto out;
		}
		r->baseline = gi;
	}

	/* the summaries and comparisons on a second thread (on this one when none is to be
	 * had: the same figures), the costs and the row order here meanwhile */
	vals = xreallocarray(NULL, n ? n : 1, sizeof *vals);
	job = (struct report_stats_job){ .set = set, .groups = r->groups, .ngroups = r->ngroups,
					 .baseline = r->baseline, .order = order,
					 .gstart = gstart, .vals = vals };
	threaded = n >= 4096 && pthread_create(&tid, NULL, report_stats_run, &job) == 0;
	if (!threaded)
		report_stats_run(&job);
	/* here, not there: the thread has the longer share */
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < PHASE_COUNT; p++)
			if (phase_is_negative(&set->tasks[i], (enum phase_id)p))
				r->negative_phases++;
	r->cost_tasks = set->tasks;
	r->cost_n = n;
	r->cost_usd = xreallocarray(NULL, n ? n : 1, sizeof *r->cost_usd);
	for (size_t i = 0; i < n; i++)
		r->cost_usd[i] = NAN;
	report_serving_build(r);
	report_sort(r, o->sort_col, o->sort_desc);
	if (threaded)
		pthread_join(tid, NULL);

out:
	free(order);
	free(gstart);
	free(vals);
	if (rc < 0)
		report_cleanup(r);
	return rc;
}

void
report_cleanup(struct report *r)
{
	for (size_t i = 0; i < r->ngroups; i++) {
		free(r->groups[i].name);
		free(r->groups[i].unpriced);
	}
	free(r->groups);
	free(r->rows);
	free(r->cost_usd);
	cost_prices_cleanup(&r->prices);
	memset(r, 0, sizeof *r);
}

/* ---- the verdict ---- */

/* Seconds for people: one decimal from a second up, milliseconds below. */
static void
report_fmt_delta(double d, char *out, size_t size)
{
	snprintf(out, size, fabs(d) >= 1.0 ? "%+.1f s" : "%+.3f s", d);
}

static void
report_fmt_p(double p, char *out, size_t size)
{
	if (p < 0.001)
		snprintf(out, size, "p < 0.001");
	else if (p < 0.1)
		snprintf(out, size, "p = %.3f", p);
	else
		snprintf(out, size, "p = %.2f", p);
}

/* The smallest two-sided p the exact test can reach with m against n tasks, 2 / C(m+n, m):
 * above alpha, no data could ever be called significant. */
static double
report_min_p(size_t m, size_t n)
{
	double c = 1;

	for (size_t i = 1; i <= m; i++)
		c = c * (double)(n + i) / (double)i;
	return 2.0 / c;
}

void
report_verdict(const struct report *r, size_t group, enum phase_id p, char *out, size_t size)
{
	const struct report_group *g, *base;
	const struct phase_compare *c;
	const char *phase = phase_defs[p].name;
	char delta[32], ratio[32], pv[32];
	size_t ng, nb;

	if (size == 0)
		return;
	if (group >= r->ngroups || p >= PHASE_COUNT) {
		out[0] = '\0';
		return;
	}
	g = &r->groups[group];
	base = &r->groups[r->baseline];
	c = &g->cmp[p];
	ng = g->phase[p].n;
	nb = base->phase[p].n;
	if (group == r->baseline) {
		snprintf(out, size, "%s: baseline (the others are compared with it), n = %zu",
			 phase, ng);
		return;
	}
	if (!c->valid) {
		snprintf(out, size, "%s: no data to compare, n = %zu vs %zu", phase, ng, nb);
		return;
	}
	report_fmt_delta(c->p50_delta_s, delta, sizeof delta);
	if (isnan(c->p50_ratio))
		ratio[0] = '\0';
	else
		snprintf(ratio, sizeof ratio, " (x%.2f)", c->p50_ratio);
	/* significance after the Holm correction over the phases, as the table shows it */
	double pa = isnan(c->p_holm) ? c->p_value : c->p_holm;

	if (isnan(pa)) {
		snprintf(out, size, "%s p50 %s%s vs %s, significance not computable, n = %zu vs %zu",
			 phase, delta, ratio, base->name, ng, nb);
		return;
	}
	report_fmt_p(pa, pv, sizeof pv);
	if (pa < REPORT_ALPHA) {
		const char *how = c->p50_delta_s < 0 ? "significantly faster"
				: c->p50_delta_s > 0 ? "significantly slower"
				: "significantly different";

		snprintf(out, size, "%s p50 %s%s vs %s: %s, %s, n = %zu vs %zu", phase, delta,
			 ratio, base->name, how, pv, ng, nb);
	} else {
		snprintf(out, size, "%s p50 %s%s vs %s: not significant (%s) with n = %zu vs %zu%s",
			 phase, delta, ratio, base->name, pv, ng, nb,
			 report_min_p(ng, nb) > REPORT_ALPHA ? ", too few tasks to tell" : "");
	}
}

static int
cmp_id(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* as git cuts hashes: the shortest prefix that still tells every task apart */
int
report_id_prefix_len(const struct report *r)
{
	const char **ids = xcalloc(r->nrows ? r->nrows : 1, sizeof *ids);
	size_t n = 0;
	int len = REPORT_ID_MIN;

	for (size_t i = 0; i < r->nrows; i++)
		ids[n++] = task_id(r->rows[i].task);
	qsort(ids, n, sizeof *ids, cmp_id);
	for (size_t i = 1; i < n; i++) {
		int common = 0;

		while (ids[i - 1][common] != '\0' && ids[i - 1][common] == ids[i][common])
			common++;
		if (ids[i][common] != '\0' && common + 1 > len)
			len = common + 1;
	}
	free(ids);
	return len;
}
