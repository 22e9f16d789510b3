/* bench_diff: what the CI of a p50 change costs on large windows, before and after, in one
 * run: per phase, the percentile bootstrap as diff.c drew it before (a copy of every
 * resample, Wirth's selection: the reference below), the bootstrap as it draws now
 * (counting the draws of each index of the sorted sample: the same draws, so the same
 * interval, checked), and the order-statistic closed form diff_compare now uses from
 * DIFF_ORDER_CI_MIN values per side (its interval against the bootstrap's); then the whole
 * diff_build. Usage: bench_diff BASELINE NEW (bench/diff.sh makes 6,000 + 5,200 tasks).
 * Not installed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ecsprof/diff.h"
#include "ecsprof/input.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the reference: diff.c's bootstrap before this change ---- */
static uint64_t
rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
select_kth(double *v, size_t n, size_t k)
{
	long l = 0, m = (long)n - 1, kk = (long)k;

	while (l < m) {
		double x = v[kk];
		long i = l, j = m;

		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return v[kk];
}

static double
median_unsorted(double *v, size_t n)
{
	size_t k = (n - 1) / 2;
	double lo = select_kth(v, n, k);

	if (n % 2 == 1)
		return lo;
	double hi = v[k + 1];

	for (size_t i = k + 2; i < n; i++)
		if (v[i] < hi)
			hi = v[i];
	return lo + 0.5 * (hi - lo);
}

static void
old_bootstrap(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	double *d = xmalloc(DIFF_BOOTSTRAP * sizeof *d);
	double *ra = xmalloc(na * sizeof *ra), *rb = xmalloc(nb * sizeof *rb);
	uint64_t s = DIFF_SEED;

	for (size_t r = 0; r < DIFF_BOOTSTRAP; r++) {
		for (size_t i = 0; i < na; i++)
			ra[i] = a[rng_next(&s) % na];
		for (size_t i = 0; i < nb; i++)
			rb[i] = b[rng_next(&s) % nb];
		d[r] = median_unsorted(rb, nb) - median_unsorted(ra, na);
	}
	stats_sort(d, DIFF_BOOTSTRAP);
	*lo = stats_percentile_sorted(d, DIFF_BOOTSTRAP, 0.025);
	*hi = stats_percentile_sorted(d, DIFF_BOOTSTRAP, 0.975);
	free(d);
	free(ra);
	free(rb);
}

static int
read_set(const char *path, struct task_set *s)
{
	struct input_stats st = { 0 };
	struct err err;

	task_set_init(s);
	if (input_read_file(path, s, &st, &err) != 0) {
		fprintf(stderr, "bench_diff: %s\n", err.msg);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct task_set sa, sb;
	struct diff_window wa, wb;
	double t_old = 0, t_new = 0, t_ord = 0, worst = 0;
	bool same = true;

	if (argc != 3) {
		fprintf(stderr, "usage: bench_diff BASELINE NEW\n");
		return 2;
	}
	if (read_set(argv[1], &sa) != 0 || read_set(argv[2], &sb) != 0)
		return 1;
	diff_window_all(&sa, &wa);
	diff_window_all(&sb, &wb);
	printf("%-9s %6s %6s  %-18s %-18s %-18s\n", "phase", "n_a", "n_b", "bootstrap before",
	       "bootstrap now", "order statistics");
	for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
		size_t na, nb;
		double *a = diff_window_values(&wa, (enum diff_phase)p, &na);
		double *b = diff_window_values(&wb, (enum diff_phase)p, &nb);
		double lo[3], hi[3], t0;

		if (na < 2 || nb < 2) {
			free(a);
			free(b);
			continue;
		}
		stats_sort(a, na);
		stats_sort(b, nb);
		t0 = now_ms();
		old_bootstrap(a, na, b, nb, &lo[0], &hi[0]);
		t_old += now_ms() - t0;
		t0 = now_ms();
		diff_bootstrap_ci(a, na, b, nb, &lo[1], &hi[1]);
		t_new += now_ms() - t0;
		t0 = now_ms();
		if (diff_order_ci(a, na, b, nb, &lo[2], &hi[2]) != 0)
			lo[2] = hi[2] = NAN;
		t_ord += now_ms() - t0;
		same &= lo[0] == lo[1] && hi[0] == hi[1];
		if (fabs(lo[2] - lo[0]) > worst)
			worst = fabs(lo[2] - lo[0]);
		if (fabs(hi[2] - hi[0]) > worst)
			worst = fabs(hi[2] - hi[0]);
		printf("%-9s %6zu %6zu  [%+7.3f, %+7.3f] [%+7.3f, %+7.3f] [%+7.3f, %+7.3f]\n",
		       diff_phase_name((enum diff_phase)p), na, nb, lo[0], hi[0], lo[1], hi[1], lo[2],
		       hi[2]);
		free(a);
		free(b);
	}
	printf("CI time over the phases: bootstrap before %.1f ms, now %.1f ms (%.1fx), order statistics %.2f ms (%.0fx)\n",
	       t_old, t_new, t_old / t_new, t_ord, t_old / (t_ord > 0.001 ? t_ord : 0.001));
	printf("bootstrap now = before, interval for interval: %s\n", same ? "yes" : "NO");
	printf("order statistics vs bootstrap: the ends differ by at most %.3f s\n", worst);

	struct diff d;
	struct err err;
	double t0 = now_ms();

	if (diff_build(&d, &wa, &wb, &err) != 0) {
		fprintf(stderr, "bench_diff: %s\n", err.msg);
		return 1;
	}
	printf("diff_build, whole (%zu vs %zu tasks, %zu parts): %.1f ms\n", d.base_n, d.new_n,
	       d.nparts, now_ms() - t0);
	diff_cleanup(&d);
	diff_window_free(&wa);
	diff_window_free(&wb);
	task_set_cleanup(&sa);
	task_set_cleanup(&sb);
	return same ? 0 : 1;
}
