/* stats: percentiles, summaries and the two-sided Mann-Whitney U test. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

/* Both samples at or below this size and no ties: the exact null distribution of U is
 * cheap (at most C(40,20) ~ 1.4e11 arrangements, counted, not enumerated) and the normal
 * approximation is poorest there. */
#define STATS_EXACT_MAX 20

static int
stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
stats_percentile_sorted(const double *sorted, size_t n, double q)
{
	double h, t, a, b, diff;
	size_t lo;

	if (n == 0)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return sorted[n - 1];
	t = h - (double)lo;
	a = sorted[lo];
	b = sorted[lo + 1];
	diff = b - a;
	/* numpy's _lerp: interpolating from the nearer end keeps the result monotonic and
	 * bit-identical to numpy's, so the committed expectations match exactly */
	if (t >= 0.5)
		return b - diff * (1.0 - t);
	return a + diff * t;
}

void
stats_summarize(double *v, size_t n, struct stats_summary *out)
{
	double sum = 0;

	out->n = n;
	if (n == 0) {
		out->min = out->p50 = out->p90 = out->p99 = out->max = out->mean = NAN;
		return;
	}
	qsort(v, n, sizeof *v, stats_cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->min = v[0];
	out->max = v[n - 1];
	out->p50 = stats_percentile_sorted(v, n, 0.50);
	out->p90 = stats_percentile_sorted(v, n, 0.90);
	out->p99 = stats_percentile_sorted(v, n, 0.99);
	out->mean = sum / (double)n;
}

struct stats_obs {
	double v;
	int from_a;
};

static int
stats_cmp_obs(const void *a, const void *b)
{
	return stats_cmp_double(&((const struct stats_obs *)a)->v,
				&((const struct stats_obs *)b)->v);
}

/* P(U >= u) under H0 for samples of m and n without ties. Counts the m-subsets of the
 * ranks 1..m+n by their rank sum: cnt[j][s] = number of j-subsets of the ranks seen so
 * far with sum s. U = s - m(m+1)/2. Counts stay below 2^53, so doubles are exact. */
static double
stats_exact_sf(size_t m, size_t n, double u)
{
	size_t N = m + n, smax = N * (N + 1) / 2, base = m * (m + 1) / 2;
	double *cnt = xcalloc((m + 1) * (smax + 1), sizeof *cnt);
	double ge = 0, all = 0;

	cnt[0] = 1;
	for (size_t k = 1; k <= N; k++) {
		size_t jtop = k < m ? k : m;

		/* downwards in j so each rank is used at most once */
		for (size_t j = jtop; j >= 1; j--) {
			double *row = cnt + j * (smax + 1);
			const double *prev = cnt + (j - 1) * (smax + 1);

			for (size_t s = smax; s >= k; s--)
				row[s] += prev[s - k];
		}
	}
	for (size_t s = base; s <= smax; s++) {
		double c = cnt[m * (smax + 1) + s];

		all += c;
		if ((double)(s - base) >= u - 1e-9)
			ge += c;
	}
	free(cnt);
	return ge / all;
}

int
stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		   double *p_two_sided, double *u)
{
	size_t N = na + nb;
	struct stats_obs *obs;
	double ra = 0, ties = 0, u1, u2, umax, p;
	bool has_ties = false;

	if (na == 0 || nb == 0)
		return -1;
	obs = xmalloc(N * sizeof *obs);
	for (size_t i = 0; i < na; i++)
		obs[i] = (struct stats_obs){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		obs[na + i] = (struct stats_obs){ b[i], 0 };
	qsort(obs, N, sizeof *obs, stats_cmp_obs);

	/* midranks for runs of equal values; sum of t^3 - t for the tie correction */
	for (size_t i = 0; i < N;) {
		size_t j = i;
		double rank, t;

		while (j + 1 < N && obs[j + 1].v == obs[i].v)
			j++;
		rank = ((double)(i + 1) + (double)(j + 1)) / 2.0;
		t = (double)(j - i + 1);
		if (t > 1) {
			has_ties = true;
			ties += t * t * t - t;
		}
		for (size_t k = i; k <= j; k++)
			if (obs[k].from_a)
				ra += rank;
		i = j + 1;
	}
	free(obs);

	u1 = ra - (double)na * ((double)na + 1) / 2.0;
	u2 = (double)na * (double)nb - u1;
	umax = u1 > u2 ? u1 : u2;
	if (u != NULL)
		*u = u1;

	if (!has_ties && na <= STATS_EXACT_MAX && nb <= STATS_EXACT_MAX) {
		/* the null distribution is symmetric: P(U >= max) = P(U <= min) */
		p = 2.0 * stats_exact_sf(na, nb, umax);
	} else {
		double n = (double)N;
		double mu = (double)na * (double)nb / 2.0;
		double var = (double)na * (double)nb / 12.0 *
			     ((n + 1) - ties / (n * (n - 1)));

		if (var <= 0) {
			/* every value equal: no evidence of any difference */
			p = 1.0;
		} else {
			/* continuity correction: U moves in steps of 0.5 at most */
			double z = (umax - mu - 0.5) / sqrt(var);

			p = erfc(z / sqrt(2.0));
		}
	}
	*p_two_sided = p > 1.0 ? 1.0 : p;
	return 0;
}
