/* stats: order statistics and the Mann-Whitney U test, on plain arrays of doubles.
 * Ownership: functions read caller arrays (stats_summarize sorts its input in place)
 * and allocate nothing that outlives the call. */
#ifndef ECSPROF_STATS_H
#define ECSPROF_STATS_H

#include <stddef.h>

struct stats_summary {
	size_t n;
	double min, p50, p90, p99, max, mean;   /* NAN when n == 0 */
};

/* Linear interpolation between closest ranks (numpy's default "linear", spreadsheet
 * PERCENTILE.INC): h = (n-1)q, v = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * sorted ascending, n >= 1, 0 <= q <= 1. */
double stats_percentile_sorted(const double *sorted, size_t n, double q);
/* Sorts v in place and fills out. */
void stats_summarize(double *v, size_t n, struct stats_summary *out);
/* Two-sided Mann-Whitney U test of a vs b. The exact permutation distribution (with ties:
 * midranks, as R's coin and scipy's permutation test count them) whenever it is cheap to
 * count (up to about 50 against 50); otherwise the normal approximation with tie
 * correction and continuity correction. *u gets U of sample a. Returns -1 (p untouched)
 * when either sample is empty. p = 1 for identical samples or all ties. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       double *p_two_sided, double *u);

#endif
