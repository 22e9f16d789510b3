/* stats: order statistics and the Mann-Whitney U test, on plain arrays of doubles.
 * Ownership: functions read caller arrays (stats_summarize sorts its input in place)
 * and allocate nothing that outlives the call. */
#ifndef ECSPROF_STATS_H
#define ECSPROF_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats_summary {
	size_t n;
	double min, p50, p90, p99, max, mean;   /* NAN when n == 0 */
	/* the 95% confidence interval of the median from order statistics (distribution
	 * free, as benchstat's); NAN when n < 6, too few for 95% */
	double ci_lo, ci_hi;
};

/* Linear interpolation between closest ranks (numpy's default "linear", spreadsheet
 * PERCENTILE.INC): h = (n-1)q, v = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * sorted ascending, n >= 1, 0 <= q <= 1. */
double stats_percentile_sorted(const double *sorted, size_t n, double q);
/* Sorts v ascending in place, stably (as qsort with (x > y) - (x < y) does with glibc's
 * merge sort), by radix on the bits; allocates nothing unless v holds a -0.0. */
void stats_sort(double *v, size_t n);
/* Sorts v in place and fills out. */
void stats_summarize(double *v, size_t n, struct stats_summary *out);
/* Two-sided Mann-Whitney U test of a vs b (samples sorted ascending, as stats_summarize
 * leaves them, are ranked where they are; others are copied and sorted). The exact permutation distribution (with ties:
 * midranks, as R's coin and scipy's permutation test count them) whenever it is cheap to
 * count (up to about 50 against 50); otherwise the normal approximation with tie
 * correction and continuity correction. *u gets U of sample a. Returns -1 (p untouched)
 * when either sample is empty. p = 1 for identical samples or all ties. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       double *p_two_sided, double *u);

/* The distribution-free confidence interval of the median at level (0.95): the order
 * statistics x[k-1], x[n-k] (0-based) for the largest k with 1 - 2 P(Bin(n, 1/2) < k) >=
 * level. sorted ascending. Returns -1 (lo, hi untouched) when n is too small for it. */
int stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi);
/* Holm-Bonferroni: adj[i] is p[i] adjusted for the n tests of the family (step-down,
 * monotone, capped at 1). NAN p-values are left out of the family and stay NAN. */
void stats_holm(const double *p, size_t n, double *adj);

/* Fisher's exact test of the 2x2 table [[a, b], [c, d]], two-sided as R's fisher.test
 * (the tables at most as likely as the one observed). 1 for an empty table. */
double stats_fisher_2x2(size_t a, size_t b, size_t c, size_t d);
/* P(X > x) for X chi-square with df degrees of freedom; NAN when df <= 0. */
double stats_chi2_sf(double x, double df);

/* Whether two samples' mix of k categories differs: a[i] and b[i] count category i in
 * each. Two categories present: Fisher's exact test; more: Pearson's chi-square with
 * (categories present - 1) degrees of freedom (no continuity correction; with small
 * expected counts it is approximate). One category: p = 1. */
struct stats_mix {
	double p;
	bool fisher;          /* the 2x2 exact test; else chi-square */
	double chi2;          /* the statistic (chi-square only) */
	int df;
};
/* -1 when either sample is empty (out->p = 1). */
int stats_mix_test(const size_t *a, const size_t *b, size_t k, struct stats_mix *out);

#endif
