/* stats: percentiles, summaries and the two-sided Mann-Whitney U test. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

/* The exact null distribution of the rank sum (ties included) costs about
 * min(m,n) * (m+n) * (m+n)^2 steps; up to this it takes well under a second, beyond it the
 * normal approximation is good (both samples are then large). */
#define STATS_EXACT_MAX_STEPS 6.0e7

static int
stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sort order of a double as an unsigned key: the sign bit flipped for positives, all
 * bits for negatives; -0.0 keyed as +0.0, since the comparison takes them as equal and a
 * stable sort keeps them in input order. */
static uint64_t
stats_key(double x)
{
	uint64_t u;

	if (x == 0)
		x = 0.0;
	memcpy(&u, &x, sizeof u);
	return u >> 63 ? ~u : u | ((uint64_t)1 << 63);
}

static uint64_t
stats_key_at(const double *v, size_t i)
{
	uint64_t u;

	memcpy(&u, &v[i], sizeof u);
	return u;
}

static void
stats_key_put(double *v, size_t i, uint64_t u)
{
	memcpy(&v[i], &u, sizeof u);
}

/* MSD radix sort in place (American flag sort) of the keys held in v's slots, from the
 * byte at shift down; below 32 keys, insertion. Keys equal in every bit are the same
 * double, so not being stable changes nothing. */
static void
stats_flag_sort(double *v, size_t n, int shift)
{
	size_t count[256], next[256];

	for (;;) {
		if (n < 32) {
			for (size_t i = 1; i < n; i++) {
				uint64_t k = stats_key_at(v, i);
				size_t j = i;

				for (; j > 0 && stats_key_at(v, j - 1) > k; j--)
					stats_key_put(v, j, stats_key_at(v, j - 1));
				stats_key_put(v, j, k);
			}
			return;
		}
		memset(count, 0, sizeof count);
		for (size_t i = 0; i < n; i++)
			count[(stats_key_at(v, i) >> shift) & 0xff]++;
		/* a byte all keys share leaves the order as it is */
		if (count[(stats_key_at(v, 0) >> shift) & 0xff] != n)
			break;
		if (shift == 0)
			return;
		shift -= 8;
	}
	for (size_t b = 0, pos = 0; b < 256; b++) {
		next[b] = pos;
		pos += count[b];
	}
	/* each key to its bucket, by cycles: next[b] is the first slot of b not yet right */
	for (size_t b = 0, end = 0; b < 256; b++) {
		end += count[b];
		while (next[b] < end) {
			uint64_t k = stats_key_at(v, next[b]);
			size_t d = (k >> shift) & 0xff;

			while (d != b) {
				uint64_t t = stats_key_at(v, next[d]);

				stats_key_put(v, next[d]++, k);
				k = t;
				d = (k >> shift) & 0xff;
			}
			stats_key_put(v, next[b]++, k);
		}
	}
	if (shift == 0)
		return;
	for (size_t b = 0, pos = 0; b < 256; pos += count[b], b++)
		if (count[b] > 1)
			stats_flag_sort(v + pos, count[b], shift - 8);
}

/* Ascending, stable: what qsort with stats_cmp_double gives (glibc's is a stable merge
 * sort; equal doubles are the same bits except -0.0 and 0.0, which keep their order), in
 * a handful of passes over the data instead of n log n calls of a comparator. In place
 * (issue 35: the three arrays of n it took were 24 bytes a task at the report's peak):
 * each double becomes its key, the keys are sorted by radix from the top byte, and each
 * becomes its double again. A -0.0 (its key is 0.0's, and a stable sort keeps the two
 * in input order) goes to the LSD radix sort beside, NaN (no order at all) and short
 * arrays to qsort. */
void
stats_sort(double *v, size_t n)
{
	size_t (*count)[256];
	uint64_t *key, *key2;
	double *val, *val2;
	bool negzero = false;

	if (n < 64) {
		qsort(v, n, sizeof *v, stats_cmp_double);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i])) {
			qsort(v, n, sizeof *v, stats_cmp_double);
			return;
		}
		negzero |= v[i] == 0 && signbit(v[i]);
	}
	if (!negzero) {
		for (size_t i = 0; i < n; i++)
			stats_key_put(v, i, stats_key(v[i]));
		stats_flag_sort(v, n, 56);
		for (size_t i = 0; i < n; i++) {
			uint64_t k = stats_key_at(v, i);

			/* stats_key backwards: positives had the sign bit set, negatives all */
			k = k >> 63 ? k ^ ((uint64_t)1 << 63) : ~k;
			memcpy(&v[i], &k, sizeof k);
		}
		return;
	}
	/* LSD radix over the key's bytes, skipping the bytes all keys share: stable */
	count = xcalloc(8, sizeof *count);
	key = xmalloc(n * sizeof *key);
	key2 = xmalloc(n * sizeof *key2);
	val = v;
	val2 = xmalloc(n * sizeof *val2);
	for (size_t i = 0; i < n; i++) {
		key[i] = stats_key(v[i]);
		for (int d = 0; d < 8; d++)
			count[d][(key[i] >> (8 * d)) & 0xff]++;
	}
	for (int d = 0; d < 8; d++) {
		size_t pos = 0;

		/* a byte all keys share leaves the order as it is */
		if (count[d][(key[0] >> (8 * d)) & 0xff] == n)
			continue;
		for (int b = 0; b < 256; b++) {
			size_t c = count[d][b];

			count[d][b] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++) {
			size_t j = count[d][(key[i] >> (8 * d)) & 0xff]++;

			key2[j] = key[i];
			val2[j] = val[i];
		}
		uint64_t *k = key;
		double *w = val;

		key = key2;
		key2 = k;
		val = val2;
		val2 = w;
	}
	if (val != v) {
		memcpy(v, val, n * sizeof *v);
		val2 = val;
	}
	free(val2);
	free(key2);
	free(key);
	free(count);
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
	stats_sort(v, n);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->min = v[0];
	out->max = v[n - 1];
	out->p50 = stats_percentile_sorted(v, n, 0.50);
	out->p90 = stats_percentile_sorted(v, n, 0.90);
	out->p99 = stats_percentile_sorted(v, n, 0.99);
	out->mean = sum / (double)n;
	out->ci_lo = out->ci_hi = NAN;
	stats_median_ci(v, n, 0.95, &out->ci_lo, &out->ci_hi);
}

/* log(C(n, j) / 2^n), as stats_median_ci has always summed it */
static double
stats_log_binom_half(size_t n, size_t j)
{
	return lgamma((double)n + 1) - lgamma((double)j + 1) - lgamma((double)(n - j) + 1) -
	       (double)n * log(2.0);
}

int
stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi)
{
	/* P(Bin(n, 1/2) <= j), summed term by term in logs (n may be large) */
	double cdf = 0;
	size_t k = 0;

	if (n == 0)
		return -1;
	/* the first terms (j far below n/2) are below 2^-1075 and exp() gives exactly 0 for
	 * them: adding them changes nothing and each j passes the test below, so start where
	 * they end. lt grows with j (below n/2); -760 leaves a wide margin over exp's
	 * underflow at -745.2 for lgamma's rounding (a level above 1 stops at j = 0, so it
	 * takes the whole loop). For 200k tasks, 7 phases, this skips
	 * ~98% of 700k lgamma triples. */
	size_t j0 = 0;

	if (n > 64 && level <= 1.0) {
		size_t a = 0, b = n / 2;   /* lt(a) < -760 is known once a > 0 */

		while (b - a > 1) {
			size_t mid = a + (b - a) / 2;

			if (stats_log_binom_half(n, mid) < -760.0)
				a = mid;
			else
				b = mid;
		}
		if (a > 0 && stats_log_binom_half(n, a) < -760.0)
			j0 = a;   /* j < j0: every term is 0 and k becomes j + 1 */
	}
	k = j0;
	for (size_t j = j0; j < n / 2; j++) {
		double lt = stats_log_binom_half(n, j);

		cdf += exp(lt);
		/* [x(j+1), x(n-j)] (1-based) covers the median with 1 - 2 P(B <= j) */
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

void
stats_holm(const double *p, size_t n, double *adj)
{
	size_t *order = xmalloc((n ? n : 1) * sizeof *order), m = 0;
	double run = 0;

	for (size_t i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			order[m++] = i;
	}
	/* ascending p, by insertion: a family is a handful of phases */
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && p[order[j]] < p[order[j - 1]]; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t r = 0; r < m; r++) {
		double a = (double)(m - r) * p[order[r]];

		if (a > run)
			run = a;
		adj[order[r]] = run > 1.0 ? 1.0 : run;
	}
	free(order);
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

/* The exact permutation distribution of the rank sum of m of the N observations, with
 * midranks for ties: ranks are doubled (2 * midrank is a whole number) and counted by tie
 * group, cnt[j][s] = ways to pick j observations from the groups seen so far with doubled
 * rank sum s; a group of t tied values at doubled rank r adds C(t,k) ways per k taken.
 * Returns 2 * min(P(S >= obs), P(S <= obs)), obs the doubled rank sum of the sample. */
static double
stats_exact_p(size_t m, size_t N, const size_t *tsize, const size_t *trank2, size_t ngroups,
	      size_t obs2)
{
	size_t smax = N * (N + 1), row = smax + 1;
	double *cnt = xcalloc((m + 1) * row, sizeof *cnt);
	double ge = 0, le = 0, all = 0, p;

	cnt[0] = 1;
	for (size_t g = 0; g < ngroups; g++) {
		size_t t = tsize[g], r = trank2[g];

		/* downwards in j: cnt[j - k] still holds the counts without this group */
		for (size_t j = m; j >= 1; j--) {
			double binom = 1;

			for (size_t k = 1; k <= t && k <= j; k++) {
				const double *src = cnt + (j - k) * row;
				double *dst = cnt + j * row;
				size_t shift = k * r;

				binom = binom * (double)(t - k + 1) / (double)k;
				for (size_t s = smax; s >= shift; s--) {
					if (src[s - shift] != 0)
						dst[s] += binom * src[s - shift];
					if (s == shift)
						break;
				}
			}
		}
	}
	for (size_t s = 0; s <= smax; s++) {
		double c = cnt[m * row + s];

		all += c;
		if (s >= obs2)
			ge += c;
		if (s <= obs2)
			le += c;
	}
	free(cnt);
	p = 2.0 * (ge < le ? ge : le) / all;
	return p > 1.0 ? 1.0 : p;
}

/* The ranks of the pooled samples, run by run of equal values (midranks): what the test
 * needs of them, and each run's size and doubled rank when tsize is not NULL. */
struct stats_ranks {
	double ra;            /* a's rank sum */
	double ties;          /* sum of t^3 - t over runs of t */
	size_t ngroups;       /* runs */
	size_t ra2, rb2;      /* each sample's doubled rank sum */
	size_t *tsize, *trank2;
};

/* a run of t equal values, ta of them from a, from 0-based position i */
static void
stats_rank_run(struct stats_ranks *k, size_t i, size_t t, size_t ta)
{
	size_t j = i + t - 1;
	double rank = ((double)(i + 1) + (double)(j + 1)) / 2.0, tt = (double)t;

	if (tt > 1)
		k->ties += tt * tt * tt - tt;
	if (k->tsize != NULL) {
		k->tsize[k->ngroups] = t;
		k->trank2[k->ngroups] = i + 1 + j + 1;
	}
	k->ngroups++;
	/* one addition a value, as the sum has always been made */
	for (size_t q = 0; q < ta; q++)
		k->ra += rank;
	k->ra2 += ta * (i + 1 + j + 1);
	k->rb2 += (t - ta) * (i + 1 + j + 1);
}

static bool
stats_ascending(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]) || (i > 0 && v[i - 1] > v[i]))
			return false;
	return true;
}

/* the runs of two samples sorted ascending, merged where they are (issue 35: the pooled
 * copy and the run arrays were 32 bytes a task of both groups) */
static void
stats_rank_sorted(const double *a, size_t na, const double *b, size_t nb,
		  struct stats_ranks *k)
{
	size_t ia = 0, ib = 0;

	while (ia < na || ib < nb) {
		double x = ib == nb || (ia < na && a[ia] <= b[ib]) ? a[ia] : b[ib];
		size_t ta = 0, tb = 0;

		while (ia + ta < na && a[ia + ta] == x)
			ta++;
		while (ib + tb < nb && b[ib + tb] == x)
			tb++;
		stats_rank_run(k, ia + ib, ta + tb, ta);
		ia += ta;
		ib += tb;
	}
}

/* the same of samples in any order: pooled, sorted */
static void
stats_rank_any(const double *a, size_t na, const double *b, size_t nb, struct stats_ranks *k)
{
	size_t N = na + nb;
	struct stats_obs *obs = xmalloc(N * sizeof *obs);

	for (size_t i = 0; i < na; i++)
		obs[i] = (struct stats_obs){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		obs[na + i] = (struct stats_obs){ b[i], 0 };
	qsort(obs, N, sizeof *obs, stats_cmp_obs);
	for (size_t i = 0; i < N;) {
		size_t j = i, ta = 0;

		while (j + 1 < N && obs[j + 1].v == obs[i].v)
			j++;
		for (size_t q = i; q <= j; q++)
			ta += obs[q].from_a != 0;
		stats_rank_run(k, i, j - i + 1, ta);
		i = j + 1;
	}
	free(obs);
}

int
stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		   double *p_two_sided, double *u)
{
	size_t N = na + nb, m = na < nb ? na : nb;
	struct stats_ranks k = { 0 };
	double ra, ties, u1, u2, umax, p;
	/* the exact count when cheap (small samples): it needs every run */
	bool exact = (double)m * (double)N * (double)N * (double)(N + 1) <= STATS_EXACT_MAX_STEPS;

	if (na == 0 || nb == 0)
		return -1;
	if (exact) {
		k.tsize = xmalloc(N * sizeof *k.tsize);
		k.trank2 = xmalloc(N * sizeof *k.trank2);
	}
	if (stats_ascending(a, na) && stats_ascending(b, nb))
		stats_rank_sorted(a, na, b, nb, &k);
	else
		stats_rank_any(a, na, b, nb, &k);
	ra = k.ra;
	ties = k.ties;

	u1 = ra - (double)na * ((double)na + 1) / 2.0;
	u2 = (double)na * (double)nb - u1;
	umax = u1 > u2 ? u1 : u2;
	if (u != NULL)
		*u = u1;

	if (k.ngroups == 1) {
		/* every value equal: no evidence of any difference */
		p = 1.0;
	} else if (exact) {
		/* the smaller sample's rank sum: the same test, the cheaper count */
		p = stats_exact_p(m, N, k.tsize, k.trank2, k.ngroups, na <= nb ? k.ra2 : k.rb2);
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
	free(k.tsize);
	free(k.trank2);
	*p_two_sided = p > 1.0 ? 1.0 : p;
	return 0;
}

/* log P(first row = a) for a 2x2 table with these margins (hypergeometric) */
static double
stats_log_hyper(size_t a, size_t row1, size_t col1, size_t n)
{
	size_t b = row1 - a, c = col1 - a, d = n - row1 - c;

	return lgamma((double)row1 + 1) + lgamma((double)(n - row1) + 1) +
	       lgamma((double)col1 + 1) + lgamma((double)(n - col1) + 1) - lgamma((double)n + 1) -
	       lgamma((double)a + 1) - lgamma((double)b + 1) - lgamma((double)c + 1) -
	       lgamma((double)d + 1);
}

double
stats_fisher_2x2(size_t a, size_t b, size_t c, size_t d)
{
	size_t row1 = a + b, col1 = a + c, n = a + b + c + d;
	size_t lo = col1 > n - row1 ? col1 - (n - row1) : 0, hi = row1 < col1 ? row1 : col1;
	double obs, p = 0;

	if (n == 0)
		return 1.0;
	obs = stats_log_hyper(a, row1, col1, n);
	/* R's fisher.test: every table at most as likely as the one observed, with a
	 * relative tolerance so that ties in floating point count as ties */
	for (size_t x = lo; x <= hi; x++) {
		double l = stats_log_hyper(x, row1, col1, n);

		if (l <= obs + 1e-7 * fabs(obs) + 1e-12)
			p += exp(l);
	}
	return p > 1.0 ? 1.0 : p;
}

/* The regularized upper incomplete gamma Q(s, x): the series below s + 1, Lentz's
 * continued fraction above it (Numerical Recipes' gammq, to 1e-14). */
static double
stats_gamma_q(double s, double x)
{
	if (x <= 0)
		return 1.0;
	if (x < s + 1) {
		double term = 1.0 / s, sum = term;

		for (int k = 1; k < 10000 && fabs(term) > fabs(sum) * 1e-15; k++) {
			term *= x / (s + k);
			sum += term;
		}
		double p = sum * exp(-x + s * log(x) - lgamma(s));
		return p >= 1.0 ? 0.0 : 1.0 - p;
	}
	double b = x + 1 - s, c = 1.0 / 1e-300, d = 1.0 / b, h = d;

	for (int i = 1; i < 10000; i++) {
		double an = -i * (i - s), del;

		b += 2;
		d = an * d + b;
		if (fabs(d) < 1e-300)
			d = 1e-300;
		c = b + an / c;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		d = 1.0 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1.0) < 1e-15)
			break;
	}
	return exp(-x + s * log(x) - lgamma(s)) * h;
}

double
stats_chi2_sf(double x, double df)
{
	if (!(df > 0) || isnan(x))
		return NAN;
	return stats_gamma_q(df / 2, x / 2);
}

int
stats_mix_test(const size_t *a, const size_t *b, size_t k, struct stats_mix *out)
{
	size_t na = 0, nb = 0, cols = 0, col = 0;

	memset(out, 0, sizeof *out);
	out->p = 1.0;
	for (size_t i = 0; i < k; i++) {
		na += a[i];
		nb += b[i];
		if (a[i] + b[i] > 0) {
			cols++;
			col = i;
		}
	}
	if (na == 0 || nb == 0)
		return -1;
	if (cols < 2)
		return 0;   /* one value on both sides: the mix cannot differ */
	if (cols == 2) {
		size_t first = 0;

		while (a[first] + b[first] == 0)
			first++;
		out->fisher = true;
		out->df = 1;
		out->p = stats_fisher_2x2(a[first], b[first], a[col], b[col]);
		return 0;
	}
	double n = (double)(na + nb), x2 = 0;

	for (size_t i = 0; i < k; i++) {
		double tot = (double)(a[i] + b[i]);

		if (tot == 0)
			continue;
		double ea = tot * (double)na / n, eb = tot * (double)nb / n;
		x2 += ((double)a[i] - ea) * ((double)a[i] - ea) / ea +
		      ((double)b[i] - eb) * ((double)b[i] - eb) / eb;
	}
	out->df = (int)cols - 1;
	out->chi2 = x2;
	out->p = stats_chi2_sf(x2, out->df);
	return 0;
}
