/* check_grid: Fargate's fixed grid of task sizes (cpu units and memory), the sizes near
 * one that is not on it, their price (cost.c's table), and the rules that use them:
 * fargate-size, fargate-platform-size and price. The grid is AWS's "Task CPU and
 * memory" table for Fargate: 8 and 16 vCPU need Linux platform version 1.4.0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/xalloc.h"

/* cpu units: memory from min to max MiB in step MiB (step 0: min, 2 x min, 4 x min) */
static const struct grid_row {
	long cpu, min, max, step;
	const char *text;
} grid[] = {
	{ 256, 512, 2048, 0, "0.5, 1 or 2 GB" },
	{ 512, 1024, 4096, 1024, "1-4 GB in 1 GB steps" },
	{ 1024, 2048, 8192, 1024, "2-8 GB in 1 GB steps" },
	{ 2048, 4096, 16384, 1024, "4-16 GB in 1 GB steps" },
	{ 4096, 8192, 30720, 1024, "8-30 GB in 1 GB steps" },
	{ 8192, 16384, 61440, 4096, "16-60 GB in 4 GB steps" },
	{ 16384, 32768, 122880, 8192, "32-120 GB in 8 GB steps" },
};
#define NGRID (sizeof grid / sizeof grid[0])
#define GRID_MAX_SIZES 128

/* Orders sizes by cost whatever the region: ARM and every region's prices keep the
 * proportion of us-east-1's x86 figures closely enough to rank sizes. */
#define RANK_VCPU_HOUR 0.04048
#define RANK_GB_HOUR 0.004445

static const struct grid_row *
grid_row(long cpu)
{
	for (size_t i = 0; i < NGRID; i++)
		if (grid[i].cpu == cpu)
			return &grid[i];
	return NULL;
}

bool
check_grid_valid(long cpu, long mib)
{
	const struct grid_row *g = grid_row(cpu);

	if (g == NULL || mib < g->min || mib > g->max)
		return false;
	if (g->step == 0)
		return mib == g->min || mib == 2 * g->min || mib == 4 * g->min;
	return (mib - g->min) % g->step == 0;
}

const char *
check_grid_describe(long cpu)
{
	const struct grid_row *g = grid_row(cpu);

	return g != NULL ? g->text : NULL;
}

static size_t
grid_all(long (*out)[2])
{
	size_t n = 0;

	for (size_t i = 0; i < NGRID; i++)
		for (long m = grid[i].min; m <= grid[i].max && n < GRID_MAX_SIZES;
		     m = grid[i].step ? m + grid[i].step : m * 2) {
			out[n][0] = grid[i].cpu;
			out[n][1] = m;
			n++;
		}
	return n;
}

static double
rank(const long *s)
{
	return s[0] / 1024.0 * RANK_VCPU_HOUR + s[1] / 1024.0 * RANK_GB_HOUR;
}

size_t
check_grid_nearest(long cpu, long mib, long (*out)[2], size_t max)
{
	long all[GRID_MAX_SIZES][2];
	size_t n = grid_all(all), k = 0;
	long below = -1;

	/* the cheapest sizes that hold both, cheapest first */
	while (k + 1 < max) {
		long best = -1;

		for (size_t i = 0; i < n; i++) {
			bool taken = false;

			if (all[i][0] < cpu || all[i][1] < mib)
				continue;
			for (size_t j = 0; j < k; j++)
				taken |= out[j][0] == all[i][0] && out[j][1] == all[i][1];
			if (!taken && (best < 0 || rank(all[i]) < rank(all[best])))
				best = (long)i;
		}
		if (best < 0)
			break;
		out[k][0] = all[best][0];
		out[k][1] = all[best][1];
		k++;
	}
	/* and the largest that fits inside it, for a definition that asked for too much */
	for (size_t i = 0; i < n; i++)
		if (all[i][0] <= cpu && all[i][1] <= mib &&
		    (below < 0 || rank(all[i]) > rank(all[below])))
			below = (long)i;
	if (below >= 0 && k < max) {
		out[k][0] = all[below][0];
		out[k][1] = all[below][1];
		k++;
	}
	return k;
}

double
check_size_usd_hour(const struct check_input *in, long cpu, long mib)
{
	const struct cost_price *p;

	if (taskdef_is_windows(in->td))
		return NAN;   /* Windows adds a licence fee the table does not have */
	p = cost_price_lookup(in->prices, in->region, taskdef_arch(in->td), false);
	if (p == NULL)
		return NAN;
	return cpu / 1024.0 * p->vcpu_hour + mib / 1024.0 * p->gb_hour;
}

/* "2 vCPU / 8 GB" (0.25 vCPU, 0.5 GB as such) */
static void
size_text(long cpu, long mib, char *out, size_t size)
{
	snprintf(out, size, "%g vCPU / %g GB", cpu / 1024.0, mib / 1024.0);
}

void
check_fargate_size(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	const struct taskdef *td = in->td;
	long near[4][2];
	size_t n;
	struct buf fix;
	char what[64];
	const char *steps;

	if (!check_on_fargate(td))
		return;
	if (td->cpu_units == TASKDEF_UNSET || td->memory_mib == TASKDEF_UNSET) {
		check_emit(out, r, td->cpu_units == TASKDEF_UNSET ? "cpu" : "memory",
			   "set the task's cpu and memory to a Fargate size, e.g. \"1024\" and \"2048\"",
			   "the task's %s is not set: Fargate needs both cpu and memory at task level",
			   td->cpu_units == TASKDEF_UNSET ? "cpu" : "memory");
		return;
	}
	if (check_grid_valid(td->cpu_units, td->memory_mib))
		return;
	buf_init(&fix, 4096);
	buf_adds(&fix, "nearest Fargate sizes:");
	n = check_grid_nearest(td->cpu_units, td->memory_mib, near, 3);
	for (size_t i = 0; i < n; i++) {
		double usd = check_size_usd_hour(in, near[i][0], near[i][1]);

		size_text(near[i][0], near[i][1], what, sizeof what);
		buf_addf(&fix, "%s cpu %ld memory %ld (%s", i ? "," : "", near[i][0], near[i][1],
			 what);
		if (isfinite(usd))
			buf_addf(&fix, ", $%.4f/h", usd);
		buf_adds(&fix, ")");
	}
	steps = check_grid_describe(td->cpu_units);
	if (steps != NULL)
		check_emit(out, r, "memory", buf_str(&fix), "cpu %s with memory %s is not a Fargate "
			   "size: %g vCPU takes %s", td->cpu_text, td->memory_text,
			   td->cpu_units / 1024.0, steps);
	else
		check_emit(out, r, "cpu", buf_str(&fix), "cpu %s is not a Fargate size: cpu is "
			   "256, 512, 1024, 2048, 4096, 8192 or 16384", td->cpu_text);
	buf_cleanup(&fix);
}

static bool
platform_before_1_4(const struct check_platform *p)
{
	return !p->latest && (p->major < 1 || (p->major == 1 && p->minor < 4));
}

void
check_fargate_platform_size(const struct check_rule *r, const struct check_input *in,
			    struct check_findings *out)
{
	const struct taskdef *td = in->td;

	if (check_on_fargate(td) && !taskdef_is_windows(td) && td->cpu_units >= 8192 &&
	    platform_before_1_4(&in->platform))
		check_emit(out, r, r->path, NULL, "cpu %s on platform version %d.%d.%d: %s",
			   td->cpu_text, in->platform.major, in->platform.minor,
			   in->platform.patch, r->message);
}

void
check_price(const struct check_rule *r, const struct check_input *in,
	    struct check_findings *out)
{
	const struct taskdef *td = in->td;
	struct check_forecast fc;
	char what[64];
	double usd;

	if (td->cpu_units == TASKDEF_UNSET || td->memory_mib == TASKDEF_UNSET ||
	    !check_grid_valid(td->cpu_units, td->memory_mib))
		return;
	size_text(td->cpu_units, td->memory_mib, what, sizeof what);
	usd = check_size_usd_hour(in, td->cpu_units, td->memory_mib);
	if (!isfinite(usd)) {
		check_emit(out, r, r->path, taskdef_is_windows(td) ? "" :
			   "give the region's price with --prices FILE",
			   "%s %s in %s: no price known%s", what, taskdef_is_windows(td) ?
			   td->os_family : taskdef_arch(td), in->region,
			   taskdef_is_windows(td) ? " (Windows adds a licence fee the built-in "
			   "prices do not have)" : "");
		return;
	}
	/* Fargate bills a start from the image pull: a minute of start is 1/60 hour; with a
	 * forecast, the expected start is the pull and the container start that follows it */
	if (check_pull_forecast(in, &fc)) {
		double start = isfinite(fc.start_s) ? fc.start_s : 0.0, secs = fc.p50_s + start;
		char parts[96];

		if (isfinite(fc.start_s))
			snprintf(parts, sizeof parts, "pull %.0f s + container start %.0f s",
				 fc.p50_s, fc.start_s);
		else
			snprintf(parts, sizeof parts, "the pull; no container start recorded");
		check_emit(out, r, r->path, "", "%s %s in %s: $%.4f per hour; $%.2f per 1,000 "
			   "starts at the expected start of %.0f s (%s; billed from the image pull)",
			   what, taskdef_arch(td), in->region, usd, usd * secs / 3600.0 * 1000.0,
			   secs, parts);
		out->v[out->n - 1].fig.usd_per_1000_starts = usd * secs / 3600.0 * 1000.0;
		out->v[out->n - 1].fig.start_s = secs;
	} else {
		check_emit(out, r, r->path, "", "%s %s in %s: $%.4f per hour; $%.2f per 1,000 "
			   "starts for each minute a start takes (billed from the image pull)",
			   what, taskdef_arch(td), in->region, usd, usd * 1000.0 / 60.0);
	}
	out->v[out->n - 1].fig.usd_per_hour = usd;
}
