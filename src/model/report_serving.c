/* report_serving: the report's time-to-serving, startup-cost and diagnosis columns, the
 * groups' cost figures and the diagnosis counts, kept apart from report.c so that the
 * column table stays the one place every output reads. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/cost.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/numfmt.h"
#include "ecsprof/report.h"
#include "ecsprof/xalloc.h"

/* t's place among the set's tasks whose costs report_build keeps, or SIZE_MAX */
static size_t
report_cost_slot(const struct report *r, const struct task *t)
{
	uintptr_t at = (uintptr_t)t, base = (uintptr_t)r->cost_tasks;

	if (r->cost_usd == NULL || at < base || (at - base) % sizeof *t != 0 ||
	    (at - base) / sizeof *t >= r->cost_n)
		return SIZE_MAX;
	return (at - base) / sizeof *t;
}

double
report_row_cost_usd(const struct report *r, const struct report_row *row)
{
	size_t k = r != NULL ? report_cost_slot(r, row->task) : SIZE_MAX;

	if (k != SIZE_MAX)
		return r->cost_usd[k];
	return cost_startup_usd(r != NULL ? &r->prices : NULL, row->task);
}

const char *
report_serving_text(const struct report *r, const struct report_row *row, enum col_id c,
		    char *buf, size_t size)
{
	const struct task *t = row->task;
	const struct diag_rule *d;

	switch (c) {
	case COL_HEALTHY_SOURCE:
		if (task_ts(t, TS_HEALTHY) == TS_NONE)
			return NULL;
		return t->healthy_observed ? "observed" : "metadata";
	case COL_DIAGNOSIS:
		return (d = diagnose_task(t)) != NULL ? d->id : NULL;
	case COL_DIAGNOSIS_CAUSE:
		return (d = diagnose_task(t)) != NULL ? d->cause : NULL;
	case COL_DIAGNOSIS_NEXT:
		return (d = diagnose_task(t)) != NULL ? d->next_step : NULL;
	case COL_STARTUP_COST_USD: {
		double usd = report_row_cost_usd(r, row);
		char num[NUMFMT_FIXED_LEN];
		size_t n;

		if (buf == NULL || size == 0)
			return NULL;
		buf[0] = '\0';
		if (!isfinite(usd))
			return buf;
		/* "%.6f", cut as snprintf cuts */
		n = numfmt_fixed(num, usd, 6);
		if (n >= size)
			n = size - 1;
		memcpy(buf, num, n);
		buf[n] = '\0';
		return buf;
	}
	default:
		return NULL;
	}
}

int64_t
report_serving_ms(const struct report *r, const struct report_row *row, enum col_id c)
{
	const struct task *t = row->task;

	switch (c) {
	case COL_HEALTHY_RES_S:
		return task_ts(t, TS_HEALTHY) != TS_NONE && t->healthy_observed ?
		       t->healthy_resolution_ms : TS_NONE;
	case COL_BILLED_STARTUP_S:
		return cost_billed_ms(t);
	case COL_STARTUP_COST_USD: {
		double usd;

		if (r == NULL)
			return TS_NONE;
		usd = report_row_cost_usd(r, row);
		return isfinite(usd) ? (int64_t)llround(usd * 1e6) : TS_NONE;
	}
	default:
		return TS_NONE;
	}
}

/* "eu-west-1 x86_64 FARGATE_SPOT": the line a --prices file would need. */
static void
unpriced_what(const struct task *t, char *out, size_t size)
{
	char region[64];

	if (!cost_task_region(t, region, sizeof region))
		snprintf(region, sizeof region, "(region unknown)");
	snprintf(out, size, "%s %s %s", region, t->prof->cpu_arch != NULL ? t->prof->cpu_arch : "x86_64",
		 t->prof->capacity_provider != NULL && strcmp(t->prof->capacity_provider, "FARGATE_SPOT") == 0 ?
		 "FARGATE_SPOT" : "FARGATE");
}

bool
report_row_unpriced(const struct report *r, const struct report_row *row, char *what,
		    size_t size)
{
	const struct task *t = row->task;

	if (cost_billed_ms(t) == TS_NONE || cost_price_for(&r->prices, t) != NULL)
		return false;
	if (what != NULL)
		unpriced_what(t, what, size);
	return true;
}

/* counts one unpriced task under its kind, adding the kind when new */
static void
unpriced_add(struct report_group *g, const char *what)
{
	size_t k;

	g->cost_unpriced++;
	for (k = 0; k < g->nunpriced; k++)
		if (strcmp(g->unpriced[k].what, what) == 0)
			break;
	if (k == g->nunpriced) {
		g->unpriced = xreallocarray(g->unpriced, k + 1, sizeof *g->unpriced);
		snprintf(g->unpriced[k].what, sizeof g->unpriced[k].what, "%s", what);
		g->unpriced[k].n = 0;
		g->nunpriced++;
	}
	g->unpriced[k].n++;
}

const char *
report_unpriced_list(const struct report_group *g, char *out, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return out;
	out[0] = '\0';
	for (size_t k = 0; k < g->nunpriced && len < size; k++)
		len += (size_t)snprintf(out + len, size - len, "%s%s (%zu)", k ? "; " : "",
					g->unpriced[k].what, g->unpriced[k].n);
	return out;
}

void
report_serving_build(struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct task *t = r->rows[i].task;
		double usd = cost_startup_usd(&r->prices, t);
		char what[sizeof r->groups[0].unpriced[0].what];

		size_t k = report_cost_slot(r, t);

		/* kept for the cost cells and the cost sort (report_row_cost_usd) */
		if (k != SIZE_MAX)
			r->cost_usd[k] = usd;

		if (task_ts(t, TS_HEALTHY) != TS_NONE)
			r->any_healthy = true;
		if (r->rows[i].group >= r->ngroups)
			continue;
		struct report_group *g = &r->groups[r->rows[i].group];

		if (isfinite(usd)) {
			g->cost_n++;
			g->cost_sum_usd += usd;
		} else if (report_row_unpriced(r, &r->rows[i], what, sizeof what)) {
			unpriced_add(g, what);
		}
	}
	for (size_t g = 0; g < r->ngroups; g++) {
		struct report_group *gr = &r->groups[g];

		gr->cost_mean_usd = gr->cost_n > 0 ? gr->cost_sum_usd / (double)gr->cost_n : NAN;
	}
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct report_group *base = &r->groups[r->baseline];
		struct report_group *gr = &r->groups[g];

		gr->cost_delta_per_1000_usd = NAN;
		if (g != r->baseline && gr->cost_n > 0 && base->cost_n > 0)
			gr->cost_delta_per_1000_usd = (gr->cost_mean_usd - base->cost_mean_usd) * 1000.0;
	}
}

bool
report_cost_text(const struct report *r, size_t gi, char *out, size_t size)
{
	const struct report_group *g = &r->groups[gi];
	size_t len;

	out[0] = '\0';
	if (g->cost_n == 0 && g->cost_unpriced == 0)
		return false;
	if (g->cost_n > 0)
		snprintf(out, size, "startup cost: $%.6f per start (mean of %zu, $%.2f per 1,000 "
			 "starts)", g->cost_mean_usd, g->cost_n, g->cost_mean_usd * 1000.0);
	else
		snprintf(out, size, "startup cost: unknown");
	len = strlen(out);
	if (isfinite(g->cost_delta_per_1000_usd) && len < size)
		len += (size_t)snprintf(out + len, size - len, ", $%.2f %s per 1,000 starts than %s",
					fabs(g->cost_delta_per_1000_usd),
					g->cost_delta_per_1000_usd < 0 ? "less" : "more",
					r->groups[r->baseline].name);
	if (g->cost_unpriced > 0 && len < size) {
		/* the --prices lines it needs: the first three kinds, then how many more */
		len += (size_t)snprintf(out + len, size - len, "; %zu task%s without a price (",
					g->cost_unpriced, g->cost_unpriced == 1 ? "" : "s");
		for (size_t k = 0; k < g->nunpriced && k < 3 && len < size; k++)
			len += (size_t)snprintf(out + len, size - len, "%s%s", k ? "; " : "",
						g->unpriced[k].what);
		if (g->nunpriced > 3 && len < size)
			len += (size_t)snprintf(out + len, size - len, "; %zu more",
						g->nunpriced - 3);
		if (len < size)
			snprintf(out + len, size - len, "): add %s with --prices FILE",
				 g->nunpriced > 1 ? "them" : "it");
	}
	return true;
}

bool
report_phase_shown(const struct report *r, enum phase_id p)
{
	return !phase_is_extra(p) || r->any_healthy;
}

/* The counts of the rows of group gi (SIZE_MAX: every row) per diagnosis id, in the
 * order of the rules table: one diagnose_task() a row. */
static size_t
diagnosis_counts(const struct report *r, size_t gi, const char **ids, size_t *counts,
		 size_t max)
{
	const char *all[64];
	size_t c[64] = { 0 }, nall = 0, n = 0;

	/* a rule id may appear on several rows of the table: one slot per id */
	for (size_t k = 0; k < diag_nrules && nall < 64; k++) {
		size_t j;

		for (j = 0; j < nall; j++)
			if (strcmp(all[j], diag_rules[k].id) == 0)
				break;
		if (j == nall)
			all[nall++] = diag_rules[k].id;
	}
	for (size_t i = 0; i < r->nrows; i++) {
		const struct diag_rule *d;

		if (gi != SIZE_MAX && r->rows[i].group != gi)
			continue;
		if ((d = diagnose_task(r->rows[i].task)) == NULL)
			continue;
		for (size_t j = 0; j < nall; j++)
			if (strcmp(all[j], d->id) == 0) {
				c[j]++;
				break;
			}
	}
	for (size_t j = 0; j < nall; j++)
		if (c[j] > 0 && n < max) {
			ids[n] = all[j];
			counts[n++] = c[j];
		}
	return n;
}

size_t
report_diagnosis_counts(const struct report *r, const char **ids, size_t *counts, size_t max)
{
	return diagnosis_counts(r, SIZE_MAX, ids, counts, max);
}

size_t
report_group_diagnosis_counts(const struct report *r, size_t gi, const char **ids,
			      size_t *counts, size_t max)
{
	return diagnosis_counts(r, gi, ids, counts, max);
}

const char *
report_group_diagnosis_list(const struct report *r, size_t gi, char *out, size_t size)
{
	const char *ids[64];
	size_t counts[64], n = report_group_diagnosis_counts(r, gi, ids, counts, 64), len = 0;

	if (size == 0)
		return out;
	out[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s (%zu)", i ? "; " : "", ids[i],
					counts[i]);
	return out;
}
