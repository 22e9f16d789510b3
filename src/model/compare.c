/* compare: benchstat-style comparison lines and hyperfine's verdict, from a built report.
 * Plain text only; the table writes the lines and the terminal UI draws them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/compare.h"
#include "ecsprof/phase.h"

#define ALPHA 0.05

/* Seconds as the summary prints them: one decimal from a second up, ms below. */
static void
cmp_secs(double s, char *out, size_t size)
{
	if (!isfinite(s) || s < 0) {
		snprintf(out, size, "-");
		return;
	}
	int64_t ms = (int64_t)llround(s * 1000.0);
	if (ms < 1000) {
		snprintf(out, size, "%lld.%03llds", (long long)(ms / 1000), (long long)(ms % 1000));
		return;
	}
	int64_t t = (ms + 50) / 100;
	snprintf(out, size, "%lld.%llds", (long long)(t / 10), (long long)(t % 10));
}

static void
cmp_p(double p, char *out, size_t size)
{
	if (p < 0.001)
		snprintf(out, size, "p<0.001");
	else if (p < 0.1)
		snprintf(out, size, "p=%.3f", p);
	else
		snprintf(out, size, "p=%.2f", p);
}

static const char *
mark(int which, bool utf8)
{
	if (which == 1)
		return utf8 ? "\u00b9" : "(1)";
	return utf8 ? "\u00b2" : "(2)";
}

/* A cell's width in terminal cells (UTF-8 code points). */
static int
cells(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Appends s to line, padded to w cells (right-aligned when right). */
static void
cell(char *line, size_t size, const char *s, int w, bool right)
{
	size_t len = strlen(line);
	int pad = w - cells(s);

	if (right)
		for (; pad > 0 && len + 1 < size; pad--)
			line[len++] = ' ';
	line[len] = '\0';
	snprintf(line + len, size - len, "%s", s);
	len = strlen(line);
	if (!right)
		for (; pad > 0 && len + 1 < size; pad--)
			line[len++] = ' ';
	line[len] = '\0';
}

/* name in at most w cells, keeping its end behind an ellipsis when too long */
static void
cut_name(const char *name, int w, bool utf8, char *out, size_t size)
{
	int n = cells(name);
	const char *p = name;

	if (n <= w) {
		snprintf(out, size, "%s", name);
		return;
	}
	for (int skip = n - (w - 1); skip > 0 && *p != '\0'; skip--) {
		p++;
		while (((unsigned char)*p & 0xc0) == 0x80)
			p++;
	}
	snprintf(out, size, "%s%s", utf8 ? "\u2026" : "~", p);
}

/* "24.7s ± 11%", "24.7s ± inf¹" (n < 6), "-" (n = 0); *note1 set when the mark is used. */
static void
median_cell(const struct stats_summary *s, const struct compare_style *st, bool spread,
	    bool *note1, char *out, size_t size)
{
	char v[32];

	if (s->n == 0) {
		snprintf(out, size, "-");
		return;
	}
	cmp_secs(s->p50, v, sizeof v);
	if (!spread) {
		snprintf(out, size, "%s", v);
		return;
	}
	if (isnan(s->ci_lo) || !(s->p50 > 0)) {
		snprintf(out, size, "%s %s %s%s", v, st->utf8 ? "\u00b1" : "+-",
			 st->utf8 ? "\u221e" : "inf", mark(1, st->utf8));
		*note1 = true;
		return;
	}
	double d = fmax(s->ci_hi - s->p50, s->p50 - s->ci_lo) / s->p50 * 100.0;
	snprintf(out, size, "%s %s %2.0f%%", v, st->utf8 ? "\u00b1" : "+-", d);
}

void
compare_delta_cell(const struct report *r, size_t g, int phase, bool utf8, char *out,
		   size_t size)
{
	const struct report_group *grp, *base;
	const struct phase_compare *c;
	char pv[32];
	size_t nb, ng;

	out[0] = '\0';
	if (g >= r->ngroups || g == r->baseline || phase < 0 || phase >= PHASE_COUNT)
		return;
	grp = &r->groups[g];
	base = &r->groups[r->baseline];
	c = &grp->cmp[phase];
	/* n in the columns' order, baseline first (as benchstat prints it) */
	nb = base->phase[phase].n;
	ng = grp->phase[phase].n;
	if (!c->valid) {
		snprintf(out, size, "(n=%zu+%zu)", nb, ng);
		return;
	}
	double p = isnan(c->p_holm) ? c->p_value : c->p_holm;
	if (isnan(p)) {
		snprintf(out, size, "? (n=%zu+%zu)", nb, ng);
		return;
	}
	cmp_p(p, pv, sizeof pv);
	if (p < ALPHA && base->phase[phase].p50 > 0) {
		double pct = (grp->phase[phase].p50 - base->phase[phase].p50) / base->phase[phase].p50 * 100.0;
		snprintf(out, size, "%+.1f%% (%s n=%zu+%zu)", pct, pv, nb, ng);
	} else {
		snprintf(out, size, "~ (%s n=%zu+%zu)%s", pv, nb, ng,
			 c->too_few ? mark(2, utf8) : "");
	}
}

void
compare_group_lines(const struct report *r, size_t g, const struct compare_style *st,
		    compare_sink_fn *sink, void *ctx)
{
	static const char *const titles[] = { "N", "MIN", "P50", "P90", "P99", "MAX", "MEAN" };
	const struct report_group *grp = &r->groups[g];
	/* 80 columns hold 8-wide statistics and the unit; narrower terminals get 7 */
	int sw = st->width >= 79 ? 8 : 7;
	char line[512], v[32];

	snprintf(line, sizeof line, "GROUP %s%s: %zu task%s", grp->name,
		 g == r->baseline && r->ngroups > 1 ? " (baseline)" : "", grp->ntasks,
		 grp->ntasks == 1 ? "" : "s");
	if (isfinite(grp->pull_share))
		snprintf(line + strlen(line), sizeof line - strlen(line),
			 st->width >= 79 ? ", pull is %.1f%% of total startup" : ", pull %.1f%% of startup",
			 grp->pull_share * 100.0);
	sink(ctx, CMP_LINE_TITLE, line);
	line[0] = '\0';
	/* N is as wide as the largest count (143640 needs 7 with its space), at least 4 */
	int nw = 4;
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!report_phase_shown(r, (enum phase_id)p) || grp->phase[p].n < 1000)
			continue;
		int w = snprintf(v, sizeof v, " %zu", grp->phase[p].n);
		if (w > nw)
			nw = w;
	}
	cell(line, sizeof line, "PHASE", 12, false);
	for (size_t s = 0; s < sizeof titles / sizeof titles[0]; s++)
		cell(line, sizeof line, titles[s], s == 0 ? nw : sw, true);
	if (sw == 8)
		cell(line, sizeof line, "   (seconds)", 0, false);
	sink(ctx, CMP_LINE_HEADER, line);
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct stats_summary *s = &grp->phase[p];

		if (!report_phase_shown(r, (enum phase_id)p))
			continue;
		double vals[] = { s->min, s->p50, s->p90, s->p99, s->max, s->mean };

		line[0] = '\0';
		cell(line, sizeof line, phase_defs[p].name, 12, false);
		/* a space between "connectivity" and a four-digit n */
		snprintf(v, sizeof v, s->n >= 1000 ? " %zu" : "%zu", s->n);
		cell(line, sizeof line, v, nw, true);
		for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
			if (s->n > 0 && isfinite(vals[k]) && vals[k] >= 0) {
				int64_t t = ((int64_t)llround(vals[k] * 1000.0) + 50) / 100;
				snprintf(v, sizeof v, "%lld.%lld", (long long)(t / 10), (long long)(t % 10));
			} else {
				snprintf(v, sizeof v, "-");
			}
			cell(line, sizeof line, v, sw, true);
		}
		sink(ctx, CMP_LINE_ROW, line);
	}
}

void
compare_vs_lines(const struct report *r, size_t g, const struct compare_style *st,
		 compare_sink_fn *sink, void *ctx)
{
	const struct report_group *grp, *base;
	/* the spread needs 12 cells a median; below 66 columns medians go alone */
	bool spread = st->width >= 66;
	int mw = spread ? 13 : 7;
	bool note1 = false, note2 = false;
	char line[512], a[64], b[64], d[96];

	if (g >= r->ngroups || g == r->baseline)
		return;
	grp = &r->groups[g];
	base = &r->groups[r->baseline];
	snprintf(line, sizeof line, "%s vs %s (baseline)%s", grp->name, base->name,
		 spread ? (st->utf8 ? "   p50 \u00b1 95% CI" : "   p50 +- 95% CI") : "   p50");
	sink(ctx, CMP_LINE_TITLE, line);
	line[0] = '\0';
	cell(line, sizeof line, "PHASE", 12, false);
	/* long group names keep their end ("~ckout-api:7": the revision tells them apart);
	 * the title line names them in full */
	cut_name(base->name, mw, st->utf8, a, sizeof a);
	cut_name(grp->name, mw, st->utf8, b, sizeof b);
	cell(line, sizeof line, a, mw, true);
	cell(line, sizeof line, " ", 1, false);
	cell(line, sizeof line, b, mw, true);
	cell(line, sizeof line, "  DELTA", 0, false);
	sink(ctx, CMP_LINE_HEADER, line);
	for (int p = 0; p < PHASE_COUNT; p++) {
		if (!report_phase_shown(r, (enum phase_id)p))
			continue;
		line[0] = '\0';
		cell(line, sizeof line, phase_defs[p].name, 12, false);
		median_cell(&base->phase[p], st, spread, &note1, a, sizeof a);
		median_cell(&grp->phase[p], st, spread, &note1, b, sizeof b);
		compare_delta_cell(r, g, p, st->utf8, d, sizeof d);
		if (grp->cmp[p].valid && grp->cmp[p].too_few)
			note2 = true;
		cell(line, sizeof line, a, mw, true);
		cell(line, sizeof line, " ", 1, false);
		cell(line, sizeof line, b, mw, true);
		cell(line, sizeof line, "  ", 0, false);
		cell(line, sizeof line, d, 0, false);
		sink(ctx, CMP_LINE_ROW, line);
	}
	if (note1) {
		snprintf(line, sizeof line, "%s need >= 6 tasks for a 95%% interval of the median",
			 mark(1, st->utf8));
		sink(ctx, CMP_LINE_NOTE, line);
	}
	if (note2) {
		snprintf(line, sizeof line, "%s too few tasks to tell: cannot reach p < 0.05",
			 mark(2, st->utf8));
		sink(ctx, CMP_LINE_NOTE, line);
	}
	sink(ctx, CMP_LINE_NOTE, "p: Mann-Whitney U, Holm-corrected; ~: not significant");
}

void
compare_verdict(const struct report *r, size_t g, char *out, size_t size)
{
	const struct report_group *grp, *base;
	const struct phase_compare *c;
	char a[32], b[32], pv[32];
	size_t ng, nb;

	out[0] = '\0';
	if (g >= r->ngroups || g == r->baseline)
		return;
	grp = &r->groups[g];
	base = &r->groups[r->baseline];
	c = &grp->cmp[PHASE_TOTAL];
	ng = grp->phase[PHASE_TOTAL].n;
	nb = base->phase[PHASE_TOTAL].n;
	double p = isnan(c->p_holm) ? c->p_value : c->p_holm;
	if (!c->valid || isnan(p)) {
		snprintf(out, size, "%s vs %s: no total to compare (n=%zu+%zu)", grp->name,
			 base->name, ng, nb);
		return;
	}
	cmp_p(p, pv, sizeof pv);
	cmp_secs(grp->phase[PHASE_TOTAL].p50, a, sizeof a);
	cmp_secs(base->phase[PHASE_TOTAL].p50, b, sizeof b);
	if (p < ALPHA && grp->phase[PHASE_TOTAL].p50 > 0 && base->phase[PHASE_TOTAL].p50 > 0 &&
	    grp->phase[PHASE_TOTAL].p50 != base->phase[PHASE_TOTAL].p50) {
		double gp = grp->phase[PHASE_TOTAL].p50, bp = base->phase[PHASE_TOTAL].p50;
		bool faster = gp < bp;

		snprintf(out, size, "%s: x%.1f %s than %s (total p50 %s vs %s, %s n=%zu+%zu)",
			 grp->name, faster ? bp / gp : gp / bp, faster ? "faster" : "slower",
			 base->name, a, b, pv, ng, nb);
	} else {
		snprintf(out, size, "%s vs %s: no significant difference in total (%s n=%zu+%zu)%s",
			 grp->name, base->name, pv, ng, nb,
			 c->too_few ? ", too few tasks to tell" : "");
	}
}
