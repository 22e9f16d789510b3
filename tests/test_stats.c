/* Tests for stats.c: percentiles and summaries against numpy, Mann-Whitney against
 * published results (R's wilcox.test as quoted in scipy's test suite) and against the
 * independently computed exact p-values in fixtures/stats (gen_expectations.py). */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/stats.h"

#define STATS_FIXTURE(name) FIXTURE_DIR "/stats/" name

static bool
close_rel(double got, double want, double rel)
{
	if (got == want)
		return true;
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-300);
}

static double
num(char **p)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(*p, &end);
	cr_assert(end != *p && errno == 0, "fixture: number expected at '%.20s'", *p);
	*p = end;
	return v;
}

/* ---- percentiles and summaries vs numpy ---- */

Test(stats, percentiles_match_numpy)
{
	FILE *f = fopen(STATS_FIXTURE("percentiles.txt"), "r");
	char *line = NULL;
	size_t cap = 0, n = 0, npct = 0, nsum = 0;
	double *data = NULL;

	cr_assert_not_null(f, "cannot open %s", STATS_FIXTURE("percentiles.txt"));
	while (getline(&line, &cap, f) > 0) {
		char *p = line;

		if (strncmp(p, "data ", 5) == 0) {
			p += 5;
			n = (size_t)num(&p);
			free(data);
			data = malloc(n * sizeof *data);
			for (size_t i = 0; i < n; i++)
				data[i] = num(&p);
		} else if (strncmp(p, "pct ", 4) == 0) {
			double *sorted = malloc(n * sizeof *sorted), q, want, got;

			p += 4;
			q = num(&p);
			want = num(&p);
			memcpy(sorted, data, n * sizeof *sorted);
			/* sort through the public API: stats_summarize sorts in place */
			struct stats_summary ignored;
			stats_summarize(sorted, n, &ignored);
			got = stats_percentile_sorted(sorted, n, q);
			cr_expect(close_rel(got, want, 1e-12),
				  "n=%zu q=%.17g: got %.17g, numpy %.17g", n, q, got, want);
			free(sorted);
			npct++;
		} else if (strncmp(p, "sum ", 4) == 0) {
			double *copy = malloc(n * sizeof *copy), w[6];
			struct stats_summary s;

			p += 4;
			for (int i = 0; i < 6; i++)
				w[i] = num(&p);
			memcpy(copy, data, n * sizeof *copy);
			stats_summarize(copy, n, &s);
			cr_expect_eq(s.n, n);
			cr_expect(close_rel(s.min, w[0], 0), "n=%zu min %.17g vs %.17g", n, s.min, w[0]);
			cr_expect(close_rel(s.p50, w[1], 1e-12), "n=%zu p50 %.17g vs %.17g", n, s.p50, w[1]);
			cr_expect(close_rel(s.p90, w[2], 1e-12), "n=%zu p90 %.17g vs %.17g", n, s.p90, w[2]);
			cr_expect(close_rel(s.p99, w[3], 1e-12), "n=%zu p99 %.17g vs %.17g", n, s.p99, w[3]);
			cr_expect(close_rel(s.max, w[4], 0), "n=%zu max %.17g vs %.17g", n, s.max, w[4]);
			cr_expect(close_rel(s.mean, w[5], 1e-12), "n=%zu mean %.17g vs %.17g", n, s.mean, w[5]);
			/* sorted in place, as the header promises */
			for (size_t i = 1; i < n; i++)
				cr_expect(copy[i - 1] <= copy[i]);
			free(copy);
			nsum++;
		}
	}
	free(line);
	free(data);
	fclose(f);
	/* the fixture really was read */
	cr_expect_geq(npct, 100);
	cr_expect_geq(nsum, 10);
}

Test(stats, percentile_by_hand)
{
	/* PERCENTILE.INC({1,2,3,4}, 0.9) = 3.7: h = 3 * 0.9 = 2.7 -> 3 + 0.7 * (4 - 3) */
	double v[] = { 1, 2, 3, 4 };

	cr_expect(close_rel(stats_percentile_sorted(v, 4, 0.9), 3.7, 1e-15));
	cr_expect_eq(stats_percentile_sorted(v, 4, 0.0), 1.0);
	cr_expect_eq(stats_percentile_sorted(v, 4, 1.0), 4.0);
	cr_expect(close_rel(stats_percentile_sorted(v, 4, 0.5), 2.5, 1e-15));
	cr_expect(isnan(stats_percentile_sorted(v, 0, 0.5)));
}

Test(stats, summary_empty_is_nan)
{
	struct stats_summary s;

	stats_summarize(NULL, 0, &s);
	cr_expect_eq(s.n, 0);
	cr_expect(isnan(s.min) && isnan(s.p50) && isnan(s.p90) && isnan(s.p99));
	cr_expect(isnan(s.max) && isnan(s.mean));
}

/* ---- Mann-Whitney: published results ---- */

/* scipy's docs example (Conover, Practical Nonparametric Statistics): U = 17, exact
 * two-sided p = 1/9. */
Test(stats, mwu_scipy_docs_example)
{
	double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	double p = -1, u = -1;

	cr_assert_eq(stats_mann_whitney(males, 5, females, 4, &p, &u), 0);
	cr_expect_eq(u, 17.0);
	cr_expect(close_rel(p, 1.0 / 9.0, 1e-12), "p = %.17g", p);
	/* swapping the samples gives the other U and the same p */
	cr_assert_eq(stats_mann_whitney(females, 4, males, 5, &p, &u), 0);
	cr_expect_eq(u, 3.0);
	cr_expect(close_rel(p, 1.0 / 9.0, 1e-12));
}

/* R: wilcox.test(x, y, exact = TRUE) -> W = 35, p-value = 0.2544122544123 (scipy gh-9184) */
Test(stats, mwu_r_exact)
{
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	double p, u;

	cr_assert_eq(stats_mann_whitney(x, 10, y, 5, &p, &u), 0);
	cr_expect_eq(u, 35.0);
	cr_expect(close_rel(p, 0.2544122544123, 1e-11), "p = %.17g", p);
}

/* 30 vs 20, no ties: U = 498 (scipy's test suite, from R). R's normal approximation gives
 * p = 9.188326533255e-05; the exact distribution, counted with Mann and Whitney's own
 * recurrence f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u) in Python, gives
 * 2 * P(U >= 498) = 4.0932670803281534e-05, and that is what a sample this small gets. */
Test(stats, mwu_normal_large)
{
	double X[] = { 19.8958398126694, 19.5452691647182, 19.0577309166425, 21.716543054589,
		       20.3269502208702, 20.0009273294025, 19.3440043632957, 20.4216806548105,
		       19.0649894736528, 18.7808043120398, 19.3680942943298, 19.4848044069953,
		       20.7514611265663, 19.0894948874598, 19.4975522356628, 18.9971170734274,
		       20.3239606288208, 20.6921298083835, 19.0724259532507, 18.9825187935021,
		       19.5144462609601, 19.8256857844223, 20.5174677102032, 21.1122407995892,
		       17.9490854922535, 18.2847521114727, 20.1072217648826, 18.6439891962179,
		       20.4970638083542, 19.5567594734914 };
	double Y[] = { 19.2790668029091, 16.993808441865, 18.5416338448258, 17.2634018833575,
		       19.1577183624616, 18.5119655377495, 18.6068455037221, 18.8358343362655,
		       19.0366413269742, 18.1135025515417, 19.2201873866958, 17.8344909022841,
		       18.2894380745856, 18.6661374133922, 19.9688601693252, 16.0672254617636,
		       19.00596360572, 19.201561539032, 19.0487501090183, 19.0847908674356 };
	double p, u;

	cr_assert_eq(stats_mann_whitney(X, 30, Y, 20, &p, &u), 0);
	cr_expect_eq(u, 498.0);
	cr_expect(close_rel(p, 4.0932670803281534e-05, 1e-10), "p = %.17g", p);
	cr_assert_eq(stats_mann_whitney(Y, 20, X, 30, &p, &u), 0);
	cr_expect_eq(u, 102.0);
	cr_expect(close_rel(p, 4.0932670803281534e-05, 1e-10));
}

/* Small samples with ties (scipy gh-11355; inf replaced by a large value, which leaves the
 * ranks unchanged): the exact permutation distribution with midranks, by brute force in
 * Python over all C(15, 4) = 1365 splits of the pooled values (2 * min(P(S >= s),
 * P(S <= s)) of the first sample's rank sum). R's normal approximation gave 0.1298,
 * 0.08736, 0.5989, 0.4687 and 0.7913. */
Test(stats, mwu_ties_small)
{
	double x1[] = { 1, 2, 3, 4 }, y1[] = { 3, 6, 7, 8, 1e9, 3, 2, 1, 4, 4, 5 };
	double y2[] = { 3, 6, 7, 8, 1e9, 1e9, 2, 1, 4, 4, 5 };
	double x3[] = { 1, 2, 1e9, 4 }, x4[] = { 1, 1e9, 1e9, 4 };
	double p, u;

	cr_assert_eq(stats_mann_whitney(x1, 4, y1, 11, &p, &u), 0);
	cr_expect_eq(u, 10.0);
	cr_expect(close_rel(p, 0.147985347985348, 1e-11), "p = %.17g", p);
	cr_assert_eq(stats_mann_whitney(x1, 4, y2, 11, &p, &u), 0);
	cr_expect_eq(u, 8.5);
	cr_expect(close_rel(p, 0.09816849816849817, 1e-11), "p = %.17g", p);
	cr_assert_eq(stats_mann_whitney(x3, 4, y1, 11, &p, &u), 0);
	cr_expect_eq(u, 17.5);
	cr_expect(close_rel(p, 0.5978021978021978, 1e-11), "p = %.17g", p);
	cr_assert_eq(stats_mann_whitney(x3, 4, y2, 11, &p, &u), 0);
	cr_expect_eq(u, 16.0);
	cr_expect(close_rel(p, 0.4879120879120879, 1e-11), "p = %.17g", p);
	cr_assert_eq(stats_mann_whitney(x4, 4, y2, 11, &p, &u), 0);
	cr_expect_eq(u, 24.5);
	cr_expect(close_rel(p, 0.7941391941391941, 1e-11), "p = %.17g", p);
}

/* Heavy ties in large samples (scipy gh-1428, from R): 233 ones, 10 twos, 1 three vs
 * 132 ones, 25 twos, 1 three: U = 16980.5, two-sided p = 5.642865531266e-5. */
Test(stats, mwu_heavy_ties)
{
	double x[244], y[158], p, u;
	size_t i;

	for (i = 0; i < 244; i++)
		x[i] = i < 233 ? 1 : i < 243 ? 2 : 3;
	for (i = 0; i < 158; i++)
		y[i] = i < 132 ? 1 : i < 157 ? 2 : 3;
	cr_assert_eq(stats_mann_whitney(x, 244, y, 158, &p, &u), 0);
	cr_expect_eq(u, 16980.5);
	cr_expect(close_rel(p, 5.642865531266e-5, 1e-9), "p = %.17g", p);
}

/* Two tasks against twelve, with ties on both sides (the small-sample case that used to
 * fall to the normal approximation, whose tie-shrunk variance gave p = 0.00056, printed
 * "p < 0.001"): the twelve share one midrank and the two another, so only 1 of the
 * C(14, 2) = 91 splits is as extreme: p = 2/91 = 0.022. */
Test(stats, mwu_two_tasks_with_ties_exact)
{
	double a[] = { 9.5, 9.5 }, b[] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 };
	double p, u;

	cr_assert_eq(stats_mann_whitney(a, 2, b, 12, &p, &u), 0);
	cr_expect_eq(u, 24.0);
	cr_expect(close_rel(p, 2.0 / 91.0, 1e-12), "p = %.17g, expected 2/91 = 0.022", p);
	cr_assert_eq(stats_mann_whitney(b, 12, a, 2, &p, &u), 0);
	cr_expect(close_rel(p, 2.0 / 91.0, 1e-12), "p = %.17g", p);
}

/* U == mn/2 with ties: the continuity correction must not push p above 1 (scipy gh-2118) */
Test(stats, mwu_p_capped_at_one)
{
	double a[] = { 1, 2, 3 }, b[] = { 2 }, c[] = { 1, 2 };
	double p, u;

	cr_assert_eq(stats_mann_whitney(a, 3, b, 1, &p, &u), 0);
	cr_expect_eq(u, 1.5);
	cr_expect_eq(p, 1.0);
	cr_assert_eq(stats_mann_whitney(c, 2, c, 2, &p, &u), 0);
	cr_expect_eq(u, 2.0);
	cr_expect_eq(p, 1.0);
}

/* ---- Mann-Whitney: exact p-values computed independently ---- */

Test(stats, mwu_exact_matches_independent_computation)
{
	FILE *f = fopen(STATS_FIXTURE("mwu_exact.txt"), "r");
	char *line = NULL;
	size_t cap = 0, ncases = 0;
	bool saw_small_p = false;

	cr_assert_not_null(f, "cannot open %s", STATS_FIXTURE("mwu_exact.txt"));
	while (getline(&line, &cap, f) > 0) {
		char *p = line;
		size_t na, nb;
		double wu, wp, u, pv, *a, *b;

		if (strncmp(p, "mwu ", 4) != 0)
			continue;
		p += 4;
		na = (size_t)num(&p);
		nb = (size_t)num(&p);
		wu = num(&p);
		wp = num(&p);
		a = malloc(na * sizeof *a);
		b = malloc(nb * sizeof *b);
		for (size_t i = 0; i < na; i++)
			a[i] = num(&p);
		for (size_t i = 0; i < nb; i++)
			b[i] = num(&p);
		cr_assert_eq(stats_mann_whitney(a, na, b, nb, &pv, &u), 0);
		cr_expect_eq(u, wu, "%zu vs %zu: U %g, expected %g", na, nb, u, wu);
		cr_expect(close_rel(pv, wp, 1e-9), "%zu vs %zu: p %.17g, expected %.17g",
			  na, nb, pv, wp);
		if (wp < 1e-6)
			saw_small_p = true;
		free(a);
		free(b);
		ncases++;
	}
	free(line);
	fclose(f);
	cr_expect_geq(ncases, 20);
	cr_expect(saw_small_p, "the fixture should include a clearly significant case");
}

/* ---- edge cases ---- */

Test(stats, mwu_empty_sample)
{
	double a[] = { 1, 2 }, p = 0.5, u = 7;

	cr_expect_eq(stats_mann_whitney(a, 2, NULL, 0, &p, &u), -1);
	cr_expect_eq(stats_mann_whitney(NULL, 0, a, 2, &p, &u), -1);
	cr_expect_eq(p, 0.5, "p must be left untouched");
}

Test(stats, mwu_n1_each)
{
	double a[] = { 1 }, b[] = { 2 }, p, u;

	/* two arrangements, each probability 1/2: nothing can be significant */
	cr_assert_eq(stats_mann_whitney(a, 1, b, 1, &p, &u), 0);
	cr_expect_eq(u, 0.0);
	cr_expect_eq(p, 1.0);
	cr_assert_eq(stats_mann_whitney(b, 1, a, 1, &p, &u), 0);
	cr_expect_eq(u, 1.0);
	cr_expect_eq(p, 1.0);
}

Test(stats, mwu_all_ties)
{
	double a[] = { 5, 5, 5, 5 }, b[] = { 5, 5, 5 }, p, u;

	cr_assert_eq(stats_mann_whitney(a, 4, b, 3, &p, &u), 0);
	cr_expect_eq(u, 6.0);
	cr_expect_eq(p, 1.0);
}

Test(stats, mwu_identical_groups)
{
	double a[25], p, u;

	for (int i = 0; i < 25; i++)
		a[i] = 10.0 + i * 0.125;
	cr_assert_eq(stats_mann_whitney(a, 25, a, 25, &p, &u), 0);
	cr_expect_eq(u, 25.0 * 25.0 / 2.0);
	cr_expect_eq(p, 1.0);
	cr_assert_eq(stats_mann_whitney(a, 3, a, 3, &p, &u), 0);
	cr_expect_eq(p, 1.0);
}

Test(stats, mwu_separated_groups_significant)
{
	/* 20 vs 20 without overlap: exact p = 2 / C(40, 20) */
	double a[20], b[20], p, u;

	for (int i = 0; i < 20; i++) {
		a[i] = 2.0 + i * 0.01;
		b[i] = 90.0 + i;
	}
	cr_assert_eq(stats_mann_whitney(a, 20, b, 20, &p, &u), 0);
	cr_expect_eq(u, 0.0);
	cr_expect(close_rel(p, 2.0 / 137846528820.0, 1e-12), "p = %.17g", p);
}

/* ---- Holm and the confidence interval of the median ---- */

/* Holm's step-down by hand: sorted 0.005 0.01 0.03 0.04 times 4 3 2 1 gives 0.02 0.03
 * 0.06 0.04, made monotone: 0.02 0.03 0.06 0.06; NAN stays out of the family. */
Test(stats, holm_step_down)
{
	double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 }, adj[5];

	stats_holm(p, 5, adj);
	cr_expect(close_rel(adj[0], 0.03, 1e-12), "adj[0] = %g", adj[0]);
	cr_expect(close_rel(adj[1], 0.06, 1e-12), "adj[1] = %g", adj[1]);
	cr_expect(isnan(adj[2]));
	cr_expect(close_rel(adj[3], 0.06, 1e-12), "adj[3] = %g", adj[3]);
	cr_expect(close_rel(adj[4], 0.02, 1e-12), "adj[4] = %g", adj[4]);
	double q[] = { 0.5, 0.6 };
	stats_holm(q, 2, adj);
	cr_expect_eq(adj[0], 1.0, "capped at 1");
	cr_expect_eq(adj[1], 1.0);
}

/* Order statistics: n = 5 cannot give 95% (1 - 2/32 = 0.9375); n = 6 gives [x1, x6]
 * (0.969); n = 20 gives [x6, x15] (1 - 2 P(Bin(20, 1/2) <= 5) = 0.9586, while <= 6 would
 * be 0.8847), the same as benchstat's table. */
Test(stats, median_ci_order_statistics)
{
	double v[20], lo = -1, hi = -1;

	for (int i = 0; i < 20; i++)
		v[i] = i + 1;
	cr_expect_eq(stats_median_ci(v, 5, 0.95, &lo, &hi), -1);
	cr_expect_eq(lo, -1, "untouched");
	cr_assert_eq(stats_median_ci(v, 6, 0.95, &lo, &hi), 0);
	cr_expect(lo == 1 && hi == 6, "n=6: [%g, %g]", lo, hi);
	cr_assert_eq(stats_median_ci(v, 20, 0.95, &lo, &hi), 0);
	cr_expect(lo == 6 && hi == 15, "n=20: [%g, %g]", lo, hi);
}

/* ---- stats_sort against a stable comparison sort ---- */

struct ref_item {
	double v;
	size_t pos;
};

static int
ref_cmp(const void *pa, const void *pb)
{
	const struct ref_item *a = pa, *b = pb;
	int c = (a->v > b->v) - (a->v < b->v);

	return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

static int
ref_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* v sorted by stats_sort must be, bit for bit, v sorted stably by (x > y) - (x < y) */
static void
expect_sorted_as_reference(const double *in, size_t n)
{
	double *got = malloc((n ? n : 1) * sizeof *got);
	struct ref_item *want = malloc((n ? n : 1) * sizeof *want);

	cr_assert(got != NULL && want != NULL);
	for (size_t i = 0; i < n; i++) {
		got[i] = in[i];
		want[i] = (struct ref_item){ in[i], i };
	}
	stats_sort(got, n);
	qsort(want, n, sizeof *want, ref_cmp);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(memcmp(&got[i], &want[i].v, sizeof got[i]), 0,
			     "n %zu, at %zu: %a, want %a", n, i, got[i], want[i].v);
	free(got);
	free(want);
}

static double
rand_double(unsigned *seed, int kind)
{
	uint64_t u = ((uint64_t)rand_r(seed) << 42) ^ ((uint64_t)rand_r(seed) << 21) ^
		     (uint64_t)rand_r(seed);
	double d;

	switch (kind) {
	case 0:   /* what report_build sorts: whole milliseconds as seconds */
		return (double)(rand_r(seed) % 200000) / 1000.0;
	case 1:   /* few distinct values, both signs, both zeros */
		switch (rand_r(seed) % 6) {
		case 0: return 0.0;
		case 1: return -0.0;
		case 2: return 1.5;
		case 3: return -1.5;
		case 4: return INFINITY;
		default: return -INFINITY;
		}
	case 2:   /* any bits but NaN: subnormals, huge, negative */
		memcpy(&d, &u, sizeof d);
		return isnan(d) ? 0.0 : d;
	case 3:   /* negative milliseconds too (clock skew) */
		return (double)(rand_r(seed) % 2001 - 1000) / 1000.0;
	default:  /* few values, no -0.0: runs of equal keys through every radix level */
		return (double)(rand_r(seed) % 5) - 2.0 + (rand_r(seed) % 2 ? 0x1p-40 : 0.0);
	}
}

Test(stats, sort_matches_a_stable_comparison_sort)
{
	static const size_t sizes[] = { 0, 1, 2, 63, 64, 65, 100, 1000, 4097, 100000 };
	unsigned seed = 16;
	double *v = malloc(100000 * sizeof *v);

	cr_assert_not_null(v);
	for (int kind = 0; kind < 5; kind++)
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			for (size_t i = 0; i < sizes[k]; i++)
				v[i] = rand_double(&seed, kind);
			expect_sorted_as_reference(v, sizes[k]);
		}
	/* already sorted, reversed, all equal, a NaN among them (qsort's order, whatever it is) */
	for (size_t i = 0; i < 5000; i++)
		v[i] = (double)i;
	expect_sorted_as_reference(v, 5000);
	for (size_t i = 0; i < 5000; i++)
		v[i] = -(double)i;
	expect_sorted_as_reference(v, 5000);
	for (size_t i = 0; i < 5000; i++)
		v[i] = 7.25;
	expect_sorted_as_reference(v, 5000);
	for (size_t i = 0; i < 5000; i++)
		v[i] = (double)(i % 97);
	v[1234] = NAN;
	double *w = malloc(5000 * sizeof *w);

	cr_assert_not_null(w);
	memcpy(w, v, 5000 * sizeof *w);
	stats_sort(v, 5000);
	qsort(w, 5000, sizeof *w, ref_cmp_double);
	cr_expect_eq(memcmp(v, w, 5000 * sizeof *w), 0);
	free(w);
	free(v);
}

/* stats_median_ci as it was, every term summed from j = 0: the oracle for the one that
 * starts where exp() stops giving 0 */
static int
ref_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi)
{
	double cdf = 0;
	size_t k = 0;

	if (n == 0)
		return -1;
	for (size_t j = 0; j < n / 2; j++) {
		double lt = lgamma((double)n + 1) - lgamma((double)j + 1) -
			    lgamma((double)(n - j) + 1) - (double)n * log(2.0);

		cdf += exp(lt);
		if (1.0 - 2.0 * cdf < level)
			break;
		k = j + 1;
	}
	if (k == 0)
		return -1;
	*lo = sorted[k - 1];
	*hi = sorted[n - k];
	return 0;
}

Test(stats, median_ci_matches_the_full_sum)
{
	static const double levels[] = { 0.0, 0.5, 0.9, 0.95, 0.99, 0.999999, 1.0, 1.5 };
	static const size_t big[] = { 4096, 10007, 65536, 200000 };
	double *v = malloc(200000 * sizeof *v);

	cr_assert_not_null(v);
	for (size_t i = 0; i < 200000; i++)
		v[i] = (double)i;
	for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
		for (size_t n = 0; n <= 600; n++) {
			double lo = -1, hi = -1, wlo = -1, whi = -1;
			int rc = stats_median_ci(v, n, levels[li], &lo, &hi);
			int wrc = ref_median_ci(v, n, levels[li], &wlo, &whi);

			cr_assert_eq(rc, wrc, "n %zu level %g", n, levels[li]);
			cr_assert(lo == wlo && hi == whi, "n %zu level %g: [%g, %g], want [%g, %g]", n,
				  levels[li], lo, hi, wlo, whi);
		}
		for (size_t b = 0; b < sizeof big / sizeof big[0]; b++) {
			size_t n = big[b];
			double lo = -1, hi = -1, wlo = -1, whi = -1;

			cr_assert_eq(stats_median_ci(v, n, levels[li], &lo, &hi),
				     ref_median_ci(v, n, levels[li], &wlo, &whi));
			cr_assert(lo == wlo && hi == whi, "n %zu level %g: [%g, %g], want [%g, %g]", n,
				  levels[li], lo, hi, wlo, whi);
		}
	}
	free(v);
}

/* Mann-Whitney on samples sorted ascending (merged where they are, as report_build passes
 * them) and on the same samples in any order (pooled and sorted): the same p and U, bit
 * for bit, exact and approximate, with ties, both zeros and infinities */
Test(stats, mwu_sorted_samples_as_any_order)
{
	static const size_t sizes[][2] = { { 1, 1 }, { 3, 5 }, { 12, 9 }, { 40, 40 },
					   { 300, 170 }, { 5000, 4000 } };
	unsigned seed = 35;
	double *a = malloc(5000 * sizeof *a), *b = malloc(5000 * sizeof *b);
	double *sa = malloc(5000 * sizeof *sa), *sb = malloc(5000 * sizeof *sb);

	cr_assert(a != NULL && b != NULL && sa != NULL && sb != NULL);
	for (int kind = 0; kind < 5; kind++)
		for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			size_t na = sizes[k][0], nb = sizes[k][1];
			double p1 = -1, p2 = -2, u1 = -1, u2 = -2;

			for (size_t i = 0; i < na; i++)
				sa[i] = a[i] = rand_double(&seed, kind);
			for (size_t i = 0; i < nb; i++)
				sb[i] = b[i] = rand_double(&seed, kind) + (kind == 0 ? 0.5 : 0.0);
			/* unsorted for sure: the first value the largest */
			if (na > 1 && a[0] <= a[1]) {
				double t = a[0];

				a[0] = a[na - 1] > a[1] ? a[na - 1] : a[1] + 1;
				a[na - 1] = t;
				sa[0] = a[0];
				sa[na - 1] = a[na - 1];
			}
			qsort(sa, na, sizeof *sa, ref_cmp_double);
			qsort(sb, nb, sizeof *sb, ref_cmp_double);
			cr_assert_eq(stats_mann_whitney(a, na, b, nb, &p1, &u1), 0);
			cr_assert_eq(stats_mann_whitney(sa, na, sb, nb, &p2, &u2), 0);
			cr_expect_eq(memcmp(&p1, &p2, sizeof p1), 0, "kind %d, %zu vs %zu: p %a, %a",
				     kind, na, nb, p1, p2);
			cr_expect_eq(memcmp(&u1, &u2, sizeof u1), 0, "kind %d, %zu vs %zu: u %a, %a",
				     kind, na, nb, u1, u2);
		}
	free(a);
	free(b);
	free(sa);
	free(sb);
}
