/* diff: a phase of two windows compared: the summary's statistics (stats.h) on each
 * side, Mann-Whitney with Holm's correction over the phases, and the CI of the p50 change
 * by a percentile bootstrap with a fixed seed (order statistics for large windows).
 * diff_build.c puts a whole diff together from these, the attributes (diff_attr.c) and
 * the explanation (diff_text.c). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff_int.h"
#include "ecsprof/diff.h"
#include "ecsprof/phase.h"
#include "ecsprof/power.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

static const char *const phase_names[DIFF_PHASE_COUNT] = {
	"provision", "attach", "wait", "pull", "start", "total", "ready", "serving",
};

const char *
diff_phase_name(enum diff_phase p)
{
	return (unsigned)p < DIFF_PHASE_COUNT ? phase_names[p] : "?";
}

int
diff_phase_by_name(const char *name)
{
	for (int i = 0; i < DIFF_PHASE_COUNT; i++)
		if (strcasecmp(name, phase_names[i]) == 0)
			return i;
	return -1;
}

double
diff_phase_secs(const struct task *t, enum diff_phase p)
{
	static const enum phase_id same[DIFF_PHASE_COUNT] = {
		[DIFF_PROVISION] = PHASE_PROVISION, [DIFF_ATTACH] = PHASE_CONNECTIVITY,
		[DIFF_PULL] = PHASE_PULL, [DIFF_START] = PHASE_START, [DIFF_TOTAL] = PHASE_TOTAL,
		[DIFF_READY] = PHASE_READY, [DIFF_SERVING] = PHASE_SERVING,
	};
	int64_t ms;

	if (p == DIFF_WAIT) {
		/* not a phase of phase.h: the rest of provision once the ENI is attached */
		int64_t a = task_ts(t, TS_CONNECTIVITY), b = task_ts(t, TS_PULL_STARTED);

		if (a == TS_NONE || b == TS_NONE || b < a)
			return NAN;
		return (double)(b - a) / 1000.0;
	}
	ms = phase_ms(t, same[p]);
	return ms == TS_NONE ? NAN : (double)ms / 1000.0;
}

/* splitmix64: a small, portable stream; the state is the caller's */
static uint64_t
rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The median of one resample of sorted x (n values drawn with replacement), as
 * stats_percentile_sorted(q = 0.5) gives it: x being sorted, the resample's order
 * statistics are read off how many times each index was drawn (cnt, n zeroed counters),
 * without copying or selecting; the same draws give the same median as sorting them. */
static double
resample_median(const double *x, size_t n, uint32_t *cnt, uint64_t *s)
{
	size_t k = (n - 1) / 2, seen = 0, i = 0;
	double lo, hi;

	memset(cnt, 0, n * sizeof *cnt);
	for (size_t j = 0; j < n; j++)
		cnt[rng_next(s) % n]++;
	while (seen + cnt[i] <= k)
		seen += cnt[i++];
	lo = x[i];
	if (n % 2 == 1)
		return lo;
	/* the (k+1)-th smallest: the same index when it was drawn again, else the next drawn */
	if (seen + cnt[i] <= k + 1)
		for (i++; cnt[i] == 0; i++)
			;
	hi = x[i];
	return lo + 0.5 * (hi - lo);
}

/* The 95% percentile bootstrap of median(b) - median(a), a and b sorted: each resample
 * draws na values of a and nb of b with replacement. Percentile rather than BCa: the
 * median's bootstrap distribution is lumpy and BCa's acceleration adds nothing reliable on
 * it. The seed is fixed, so one data set always gives one interval. */
void
diff_bootstrap_ci(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	double *d = xmalloc(DIFF_BOOTSTRAP * sizeof *d);
	uint32_t *cnt = xmalloc((na > nb ? na : nb) * sizeof *cnt);
	uint64_t s = DIFF_SEED;

	for (size_t r = 0; r < DIFF_BOOTSTRAP; r++) {
		double ma = resample_median(a, na, cnt, &s);

		d[r] = resample_median(b, nb, cnt, &s) - ma;
	}
	stats_sort(d, DIFF_BOOTSTRAP);
	*lo = stats_percentile_sorted(d, DIFF_BOOTSTRAP, 0.025);
	*hi = stats_percentile_sorted(d, DIFF_BOOTSTRAP, 0.975);
	free(d);
	free(cnt);
}

/* The closed-form CI for large windows: each median's distribution-free 95% interval
 * (stats_median_ci, order statistics) read as 1.96 standard errors, the difference's
 * interval the change +- the root of the sum of the squared half-widths (as Price and
 * Bonett's for a difference of medians). -1 when a side is too small for it. */
int
diff_order_ci(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	double alo, ahi, blo, bhi, d, w;

	if (stats_median_ci(a, na, 0.95, &alo, &ahi) != 0 ||
	    stats_median_ci(b, nb, 0.95, &blo, &bhi) != 0)
		return -1;
	d = stats_percentile_sorted(b, nb, 0.5) - stats_percentile_sorted(a, na, 0.5);
	w = sqrt((ahi - alo) * (ahi - alo) / 4.0 + (bhi - blo) * (bhi - blo) / 4.0);
	*lo = d - w;
	*hi = d + w;
	return 0;
}

static void
side_of(double *v, size_t n, struct diff_side *s)
{
	struct stats_summary sum;

	stats_summarize(v, n, &sum);
	s->n = n;
	s->p50 = sum.p50;
	s->p90 = sum.p90;
	s->mean = sum.mean;
}

void
diff_compare(double *a, size_t na, double *b, size_t nb, struct diff_cmp *c)
{
	double u;

	memset(c, 0, sizeof *c);
	side_of(a, na, &c->base);
	side_of(b, nb, &c->cur);
	c->p50_delta_s = c->p90_delta_s = c->mean_delta_s = NAN;
	c->ci_lo_s = c->ci_hi_s = c->p_value = c->p_holm = c->sd_s = NAN;
	if (na == 0 || nb == 0)
		return;
	c->valid = true;
	c->p50_delta_s = c->cur.p50 - c->base.p50;
	c->p90_delta_s = c->cur.p90 - c->base.p90;
	c->mean_delta_s = c->cur.mean - c->base.mean;
	if (stats_mann_whitney(a, na, b, nb, &c->p_value, &u) != 0)
		c->p_value = NAN;
	else if (c->p_value < DBL_MIN)
		c->p_value = DBL_MIN;   /* erfc underflows far out: "below 2.2e-308", never 0 */
	c->p_holm = c->p_value;
	c->significant = c->p_holm < DIFF_ALPHA;
	c->too_few = power_mw_min_p(na, nb) >= DIFF_ALPHA;
	if (na >= 2 && nb >= 2) {
		const double *v[2] = { a, b };
		size_t n[2] = { na, nb };

		/* large windows: the order-statistic interval gives the bootstrap's within a
		 * few hundredths of a second (bench/bench_diff), at a thousandth of its cost */
		if (na < DIFF_ORDER_CI_MIN || nb < DIFF_ORDER_CI_MIN ||
		    diff_order_ci(a, na, b, nb, &c->ci_lo_s, &c->ci_hi_s) != 0)
			diff_bootstrap_ci(a, na, b, nb, &c->ci_lo_s, &c->ci_hi_s);
		c->sd_s = power_pooled_sd(v, n, 2);
	}
}

/* The phase's values over the window's tasks that have one (caller frees). */
double *
diff_window_values(const struct diff_window *w, enum diff_phase p, size_t *n)
{
	double *v = xmalloc((w->n ? w->n : 1) * sizeof *v);

	*n = 0;
	for (size_t i = 0; i < w->n; i++) {
		double s = diff_phase_secs(w->v[i], p);

		if (!isnan(s))
			v[(*n)++] = s;
	}
	return v;
}

void
diff_holm(struct diff_cmp *const *c, size_t n)
{
	double *p = xmalloc((n ? n : 1) * sizeof *p), *adj = xmalloc((n ? n : 1) * sizeof *adj);

	for (size_t i = 0; i < n; i++)
		p[i] = c[i]->valid ? c[i]->p_value : NAN;
	stats_holm(p, n, adj);
	for (size_t i = 0; i < n; i++) {
		c[i]->p_holm = adj[i];
		c[i]->significant = !isnan(adj[i]) && adj[i] < DIFF_ALPHA;
	}
	free(p);
	free(adj);
}
