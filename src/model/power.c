/* power: the sample-size side of the summary's Mann-Whitney test (power.h has the formula),
 * so that "not significant" with 5 tasks per arm is read as "too few to tell", not as "no
 * difference". */
#include <math.h>

#include "ecsprof/power.h"

double
power_norm_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

double
power_norm_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
				    -2.759285104469687e+02, 1.383577518672690e+02,
				    -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
				    -1.556989798598866e+02, 6.680131188771972e+01,
				    -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
				    -2.400758277161838e+00, -2.549732539343734e+00,
				    4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
				    2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e, u;

	if (!(p > 0 && p < 1))
		return NAN;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p > 1 - 0.02425) {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	/* one Halley step against the exact cdf */
	e = power_norm_cdf(x) - p;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

static double
noether_scale(size_t na, size_t nb)
{
	double N = (double)(na + nb);

	return sqrt(12.0 * (double)na * (double)nb / (N + 1));
}

double
power_mw(size_t na, size_t nb, double delta, double sd, double alpha)
{
	double pp;

	if (na == 0 || nb == 0 || !(sd > 0))
		return NAN;
	pp = power_norm_cdf(fabs(delta) / (sd * sqrt(2.0)));
	return power_norm_cdf(noether_scale(na, nb) * (pp - 0.5) -
			      power_norm_quantile(1 - alpha / 2));
}

double
power_mw_min_p(size_t na, size_t nb)
{
	double c = 1;   /* C(na + nb, na), in doubles: only compared against small p */

	for (size_t i = 1; i <= na; i++) {
		c = c * (double)(nb + i) / (double)i;
		if (c > 1e12)
			return 0;
	}
	return 2 / c > 1 ? 1 : 2 / c;
}

double
power_mw_detectable(size_t na, size_t nb, double sd, double alpha, double power)
{
	double need, pp;

	if (na == 0 || nb == 0 || !(sd > 0) || power_mw_min_p(na, nb) >= alpha)
		return NAN;
	need = power_norm_quantile(1 - alpha / 2) + power_norm_quantile(power);
	pp = 0.5 + need / noether_scale(na, nb);
	if (pp >= 1)
		return NAN;
	return sd * sqrt(2.0) * power_norm_quantile(pp);
}

size_t
power_mw_needed(double delta, double sd, double alpha, double power)
{
	size_t n = 2;

	if (!(delta > 0) || !(sd > 0))
		return 0;
	/* power grows with n: double, then bisect (a closed form would ignore the +1 and
	 * the exact test's floor at small n) */
	while (n < ((size_t)1 << 30) &&
	       (power_mw_min_p(n, n) >= alpha || power_mw(n, n, delta, sd, alpha) < power))
		n *= 2;
	size_t lo = n / 2 < 2 ? 2 : n / 2, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (power_mw_min_p(mid, mid) < alpha && power_mw(mid, mid, delta, sd, alpha) >= power)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

double
power_pooled_sd(const double *const *v, const size_t *n, size_t ngroups)
{
	double ss = 0;
	size_t total = 0;

	for (size_t g = 0; g < ngroups; g++) {
		double mean = 0;

		if (n[g] == 0)
			continue;
		for (size_t i = 0; i < n[g]; i++)
			mean += v[g][i];
		mean /= (double)n[g];
		for (size_t i = 0; i < n[g]; i++)
			ss += (v[g][i] - mean) * (v[g][i] - mean);
		total += n[g] - 1;
	}
	if (total < 1)
		return NAN;
	return sqrt(ss / (double)total);
}
