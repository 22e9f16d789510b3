/* power: what difference a two-sample comparison of this size could detect, for the
 * two-sided Mann-Whitney U test that the summary uses, by Noether's (1987) normal
 * approximation under a normal location shift at the observed spread: with
 * P = P(X < Y) = Phi(delta / (sd * sqrt 2)), the test of na vs nb tasks has power
 * Phi(sqrt(12 na nb / (na + nb + 1)) * |P - 1/2| - z(1 - alpha/2)).
 * Ownership: plain numbers in and out; nothing is allocated. */
#ifndef ECSPROF_POWER_H
#define ECSPROF_POWER_H

#include <stdbool.h>
#include <stddef.h>

#define POWER_ALPHA 0.05
#define POWER_TARGET 0.80

double power_norm_cdf(double x);
/* The standard normal quantile (Acklam's rational approximation refined by one Halley
 * step: |error| < 1e-12); NAN outside (0, 1). */
double power_norm_quantile(double p);

/* The approximate power to detect a shift delta (same unit as sd). */
double power_mw(size_t na, size_t nb, double delta, double sd, double alpha);
/* The smallest shift detected with the given power; NAN when no shift is (too few tasks:
 * even perfectly separated samples cannot reach p < alpha, or sd is not positive). */
double power_mw_detectable(size_t na, size_t nb, double sd, double alpha, double power);
/* Tasks per arm (equal arms) needed to detect delta with the given power; 0 when delta or
 * sd is not positive. */
size_t power_mw_needed(double delta, double sd, double alpha, double power);
/* The smallest two-sided p the exact test can give with na vs nb distinct values:
 * 2 / C(na + nb, na), capped at 1. */
double power_mw_min_p(size_t na, size_t nb);
/* The sample standard deviation pooled over groups (each group's own mean removed):
 * sqrt(sum of squares / (N - groups)); NAN when N - groups < 1. */
double power_pooled_sd(const double *const *v, const size_t *n, size_t ngroups);

#endif
