/* tui_summary: the summary view of the terminal UI. The same lines the printed summary
 * has (compare.c), verdict first so that it survives the smallest terminal: hyperfine's
 * one-line verdict, benchstat's comparison with the baseline, each group's statistics and
 * a pull histogram per group. j/k scroll, h/l choose the group compared. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/compare.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/phase.h"
#include "ecsprof/report.h"
#include "ecsprof/tui_layout.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "tui_int.h"

struct sum_line {
	enum compare_line_kind kind;
	char *text;
	bool blank;
};

struct sum_lines {
	struct sum_line *v;
	size_t n, cap;
};

static void
sum_add(void *ctx, enum compare_line_kind kind, const char *text)
{
	struct sum_lines *l = ctx;

	l->v = xgrow(l->v, l->n + 1, &l->cap, sizeof *l->v);
	l->v[l->n++] = (struct sum_line){ kind, xstrdup(text), text[0] == '\0' };
}

static void
sum_blank(struct sum_lines *l)
{
	sum_add(l, CMP_LINE_NOTE, "");
}

/* text as rows of at most cols columns, broken at spaces as the printed summary breaks
 * it: "  " before the first, "    " before the others; a word wider than a row is cut,
 * since put_fit_text would hide its end anyway */
static void
sum_add_wrapped(struct sum_lines *l, const char *text, int cols)
{
	char piece[512];
	bool first = true;

	while (*text != '\0') {
		int indent = first ? 2 : 4, w = cols - indent;
		size_t next, n;

		if (w < 20)
			w = 20;
		n = utf8_line_break(text, w, true, utf8_break_keeps_figures, &next);
		snprintf(piece, sizeof piece, "%*s%.*s", indent, "", (int)n, text);
		sum_add(l, CMP_LINE_ROW, piece);
		text += next;
		first = false;
	}
}

/* The group compared with the baseline: the sel-th group that is not the baseline. */
size_t
tui_summary_compared(const struct view *v)
{
	const struct report *r = tui_sum_rep(v);
	size_t k = 0;

	for (size_t g = 0; g < r->ngroups; g++) {
		if (g == r->baseline)
			continue;
		if (k++ == v->summary_left)
			return g;
	}
	return r->ngroups;
}

size_t
tui_summary_choices(const struct view *v)
{
	const struct report *r = tui_sum_rep(v);

	return r->ngroups > 1 ? r->ngroups - 1 : 0;
}

static void
histogram_lines(const struct view *v, struct sum_lines *l, const size_t *groups, size_t ng)
{
	const struct report *r = tui_sum_rep(v);
	int nbins = v->cols - 16 > 40 ? 40 : v->cols - 16;
	double hi = 0;
	char buf[1024], a[16];

	if (nbins < 4)
		return;
	for (size_t i = 0; i < ng; i++)
		if (r->groups[groups[i]].phase[PHASE_PULL].n > 0 &&
		    r->groups[groups[i]].phase[PHASE_PULL].max > hi)
			hi = r->groups[groups[i]].phase[PHASE_PULL].max;
	double *vals = xcalloc(r->nrows ? r->nrows : 1, sizeof *vals);
	unsigned counts[40];

	tui_format_duration((int64_t)(hi * 1000.0 + 0.5), 8, a, sizeof a);
	snprintf(buf, sizeof buf, "pull histogram, 0..%s, one scale for all groups", a);
	sum_add(l, CMP_LINE_TITLE, buf);
	for (size_t i = 0; i < ng; i++) {
		size_t g = groups[i], nv = 0;
		unsigned max = 0;

		for (size_t k = 0; k < r->nrows; k++) {
			if (r->rows[k].group != g)
				continue;
			int64_t ms = phase_ms(r->rows[k].task, PHASE_PULL);
			if (ms != TS_NONE)
				vals[nv++] = (double)ms / 1000.0;
		}
		tui_histogram(vals, nv, 0.0, hi, counts, nbins);
		for (int b = 0; b < nbins; b++)
			if (counts[b] > max)
				max = counts[b];
		char name[16];
		tui_fit(r->groups[g].name, 13, false, v->ellipsis, name, sizeof name);
		snprintf(buf, sizeof buf, "%-13s  ", name);
		for (int b = 0; b < nbins; b++)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s",
				 tui_spark_glyph(v->glyphs, counts[b], max));
		sum_add(l, CMP_LINE_ROW, buf);
	}
	free(vals);
}

/* Stopped tasks counted per cause, each with its next step, as the printed summary has
 * them (table.c's diagnosis block). */
static void
diagnosis_lines(const struct view *v, struct sum_lines *l)
{
	const struct report *r = tui_sum_rep(v);
	const char *ids[64];
	size_t counts[64], n = report_diagnosis_counts(r, ids, counts, 64), total = 0;
	char buf[1024];

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		total += counts[i];
	snprintf(buf, sizeof buf, "DIAGNOSIS: %zu stopped task%s with a known cause", total,
		 total == 1 ? "" : "s");
	sum_add(l, CMP_LINE_TITLE, buf);
	for (size_t i = 0; i < n; i++) {
		const struct diag_rule *d = diagnose_rule(ids[i]);

		snprintf(buf, sizeof buf, "%zu x %s: %s; next: %s", counts[i], d->id, d->cause,
			 d->next_step);
		sum_add_wrapped(l, buf, v->cols);
	}
	sum_blank(l);
}

static void
build(const struct view *v, struct sum_lines *l)
{
	const struct report *r = tui_sum_rep(v);
	struct compare_style st = { v->cols, v->utf8 };
	size_t g = tui_summary_compared(v);
	size_t shown[2];
	size_t nshown = 0;
	char buf[512];

	if (g < r->ngroups) {
		compare_verdict(r, g, buf, sizeof buf);
		sum_add(l, CMP_LINE_VERDICT, buf);
		sum_blank(l);
		compare_vs_lines(r, g, &st, sum_add, l);
		sum_blank(l);
	}
	shown[nshown++] = r->baseline;
	if (g < r->ngroups)
		shown[nshown++] = g;
	for (size_t i = 0; i < nshown; i++) {
		compare_group_lines(r, shown[i], &st, sum_add, l);
		/* the same cost sentence as the printed summary's */
		if (report_cost_text(r, shown[i], buf, sizeof buf))
			sum_add_wrapped(l, buf, v->cols);
		sum_blank(l);
	}
	diagnosis_lines(v, l);
	histogram_lines(v, l, shown, nshown);
}

void
tui_draw_summary(struct view *v)
{
	const struct report *r = tui_sum_rep(v);
	struct sum_lines l = { 0 };
	int y = 2, bottom = v->lines - 1;

	if (r->ngroups == 0) {
		put_fit_text(v, y, 1, v->cols - 1, "no groups: no tasks to summarise");
		return;
	}
	if (v->summary_left >= tui_summary_choices(v))
		v->summary_left = 0;
	build(v, &l);
	/* the verdict stays on top: scrolling moves what is under it */
	size_t first = 0;
	if (l.n > 0 && l.v[0].kind == CMP_LINE_VERDICT) {
		/* wrapped at spaces, never truncated: it is the answer (a word wider than
		 * the screen goes on in the next row) */
		const char *t = l.v[0].text;

		attrset(A_BOLD);
		while (*t != '\0' && y < bottom) {
			int indent = t == l.v[0].text ? 0 : 2;
			size_t next, n = utf8_line_break(t, v->cols - indent, true,
							 utf8_break_keeps_figures, &next);
			char piece[512];

			snprintf(piece, sizeof piece, "%.*s", (int)n, t);
			put_fit_text(v, y++, indent, v->cols - indent, piece);
			t += next;
		}
		attrset(A_NORMAL);
		first = 1;
	}
	size_t room = bottom > y ? (size_t)(bottom - y) : 0;
	size_t rest = l.n - first;
	if (v->summary_top + room > rest)
		v->summary_top = rest > room ? rest - room : 0;
	for (size_t i = first + v->summary_top; i < l.n && y < bottom; i++, y++) {
		const struct sum_line *s = &l.v[i];

		attrset(s->kind == CMP_LINE_TITLE ? A_BOLD :
			s->kind == CMP_LINE_HEADER ? A_UNDERLINE :
			s->kind == CMP_LINE_NOTE ? A_DIM : A_NORMAL);
		put_fit_text(v, y, 0, v->cols, s->text);
		attrset(A_NORMAL);
	}
	v->summary_more = first + v->summary_top + room < l.n;
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].text);
	free(l.v);
}
