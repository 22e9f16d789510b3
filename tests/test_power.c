/* Tests for power.c: the normal quantile against Python's statistics.NormalDist, Noether's
 * detectable shift against the formula worked by hand, and the approximation against a
 * simulation of the real test (stats_mann_whitney) at the shift it says is detectable. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "ecsprof/power.h"
#include "ecsprof/stats.h"

Test(power, quantile_matches_python_normaldist)
{
	/* NormalDist().inv_cdf(p), Python 3.11 */
	cr_expect(fabs(power_norm_quantile(0.975) - 1.9599639845400536) < 1e-9);
	cr_expect(fabs(power_norm_quantile(0.8) - 0.8416212335729144) < 1e-9);
	cr_expect(fabs(power_norm_quantile(1e-5) - -4.2648907939228256) < 1e-9);
	cr_expect(fabs(power_norm_quantile(0.999) - 3.090232306167813) < 1e-9);
	cr_expect(isnan(power_norm_quantile(0)));
	cr_expect(isnan(power_norm_quantile(1)));
	cr_expect(fabs(power_norm_cdf(power_norm_quantile(0.3)) - 0.3) < 1e-12);
}

Test(power, detectable_shift_is_noethers)
{
	/* 0.5 + (z.975 + z.8) / sqrt(12 na nb / (N + 1)), then sd sqrt(2) Phi^-1 of that
	 * (NormalDist, by hand): 10 vs 10 -> 1.59707 sd, 20 vs 30 -> 0.89154 sd */
	cr_expect(fabs(power_mw_detectable(10, 10, 1.0, 0.05, 0.8) - 1.5970749888025404) < 1e-6);
	cr_expect(fabs(power_mw_detectable(20, 30, 2.0, 0.05, 0.8) - 2 * 0.8915417927194618) < 1e-6);
	/* 5 vs 5 needs P(X<Y) > 1: nothing is detectable with 80 % power */
	cr_expect(isnan(power_mw_detectable(5, 5, 1.0, 0.05, 0.8)));
	/* 3 vs 3: the exact test cannot go below p = 0.1 */
	cr_expect(fabs(power_mw_min_p(3, 3) - 0.1) < 1e-12);
	cr_expect(isnan(power_mw_detectable(3, 3, 1.0, 0.05, 0.01)));
	cr_expect(isnan(power_mw_detectable(10, 10, 0.0, 0.05, 0.8)));
	/* at the detectable shift the power is the target */
	double d = power_mw_detectable(12, 12, 3.0, 0.05, 0.8);
	cr_expect(fabs(power_mw(12, 12, d, 3.0, 0.05) - 0.8) < 1e-9);
}

Test(power, needed_n_is_the_smallest_that_reaches_the_power)
{
	size_t n = power_mw_needed(0.5, 1.0, 0.05, 0.8);

	cr_assert(n > 10);
	cr_expect(power_mw(n, n, 0.5, 1.0, 0.05) >= 0.8);
	cr_expect(power_mw(n - 1, n - 1, 0.5, 1.0, 0.05) < 0.8);
	/* a smaller shift needs more tasks, about (d1/d2)^2 as many */
	size_t n2 = power_mw_needed(0.25, 1.0, 0.05, 0.8);
	cr_expect(n2 > 3 * n && n2 < 5 * n, "n(0.5) = %zu, n(0.25) = %zu", n, n2);
	cr_expect_eq(power_mw_needed(0, 1.0, 0.05, 0.8), 0);
	/* and what 10 per arm detects needs at most 10 per arm */
	double d = power_mw_detectable(10, 10, 1.0, 0.05, 0.8);
	cr_expect_leq(power_mw_needed(d * 1.0001, 1.0, 0.05, 0.8), 10);
}

/* xorshift and Box-Muller: a fixed, portable stream */
static uint64_t rng = 88172645463325252ULL;
static double
uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}
static double
gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

Test(power, approximation_agrees_with_a_simulation_of_the_test)
{
	const size_t n = 12, reps = 600;
	double d = power_mw_detectable(n, n, 1.0, 0.05, 0.8), a[12], b[12];
	size_t hits = 0;

	for (size_t r = 0; r < reps; r++) {
		double p, u;
		for (size_t i = 0; i < n; i++) {
			a[i] = gauss();
			b[i] = gauss() + d;
		}
		cr_assert_eq(stats_mann_whitney(a, n, b, n, &p, &u), 0);
		hits += p < 0.05;
	}
	/* 600 draws: the binomial sd of 0.8 is 0.016; the approximation itself is within a
	 * few points at n = 12 */
	double got = (double)hits / (double)reps;
	cr_expect(got > 0.72 && got < 0.88, "simulated power %.3f at the detectable shift %.3f",
		  got, d);
}

Test(power, pooled_sd_removes_each_groups_mean)
{
	double a[] = { 1, 2, 3 }, b[] = { 101, 102, 103 };
	const double *v[] = { a, b };
	size_t n[] = { 3, 3 };

	/* sum of squares 2 + 2 over 6 - 2 */
	cr_expect(fabs(power_pooled_sd(v, n, 2) - 1.0) < 1e-12);
	size_t one[] = { 1, 0 };
	cr_expect(isnan(power_pooled_sd(v, one, 2)));
}
