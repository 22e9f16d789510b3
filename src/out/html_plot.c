/* html_plot: the page's pictures as inline SVG: the waterfall of the tasks on one shared
 * time axis, and per phase the empirical CDF of every group. Coordinates are in a fixed
 * viewBox; CSS scales it, so the same markup serves a desktop, a phone and paper. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "ecsprof/phase.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* waterfall geometry (viewBox units) */
#define WF_W 1000
#define WF_LABEL 118        /* task labels right-aligned before this x */
#define WF_RIGHT 16
#define WF_TOP 30
#define WF_ROW 16
#define WF_BAR 11

/* CDF geometry */
#define CDF_W 360
#define CDF_H 230
#define CDF_L 44
#define CDF_R 12
#define CDF_T 12
#define CDF_B 36

/* ---- axes ---- */

/* seconds on a CDF axis: "0", "30", "1.5", "0.25" */
static void
fmt_axis_secs(double s, char *out, size_t size)
{
	if (fabs(s - llround(s)) < 1e-9)
		snprintf(out, size, "%lld", (long long)llround(s));
	else if (fabs(s * 10 - llround(s * 10)) < 1e-6)
		snprintf(out, size, "%.1f", s);
	else
		snprintf(out, size, "%.2f", s);
}

/* ---- waterfall ---- */

/* One waterfall row: one task, or (large sets) the medians of `count` consecutive ones. */
struct wf_row {
	int64_t created;        /* ms, never TS_NONE */
	int64_t ph[4];          /* provision, pull, start, ready durations (ms); TS_NONE if
				 * missing */
	int64_t connectivity;   /* absolute ms or TS_NONE */
	int64_t end;            /* the row's last timestamp */
	int64_t first_created;  /* aggregated rows: the whisker's start */
	const struct report_row *row;   /* single-task rows */
	size_t first, count, nfailed;
};

/* the TUI's four segments: ready (RUNNING to HEALTHY) when the task served */
#define WF_SEGS 4
static const char *const wf_class[WF_SEGS] = { "p0", "p1", "p2", "p3" };
static const enum phase_id wf_phase[WF_SEGS] = { PHASE_PROVISION, PHASE_PULL, PHASE_START,
						  PHASE_READY };

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* median of the n values of v that are not TS_NONE (v is reordered); TS_NONE if none */
static int64_t
median_ms(int64_t *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] != TS_NONE)
			v[k++] = v[i];
	if (k == 0)
		return TS_NONE;
	qsort(v, k, sizeof *v, cmp_i64);
	return k % 2 ? v[k / 2] : v[k / 2 - 1] + (v[k / 2] - v[k / 2 - 1]) / 2;
}

static void
wf_single(struct wf_row *w, const struct report_row *row, size_t pos)
{
	const struct task *t = row->task;

	memset(w, 0, sizeof *w);
	w->row = row;
	w->first = pos;
	w->count = 1;
	w->created = w->first_created = task_ts(t, TS_CREATED);
	for (int p = 0; p < WF_SEGS; p++)
		w->ph[p] = phase_ms(t, wf_phase[p]);
	w->connectivity = task_ts(t, TS_CONNECTIVITY);
	w->end = html_task_end(t);
	w->nfailed = html_task_failed(t);
}

/* rows[first..first+count) of those with a createdAt, as one row of medians */
static void
wf_bucket(struct wf_row *w, const struct report_row **rows, size_t first, size_t count,
	  int64_t *scratch)
{
	memset(w, 0, sizeof *w);
	w->first = first;
	w->count = count;
	w->first_created = INT64_MAX;
	w->connectivity = TS_NONE;
	w->end = INT64_MIN;
	for (size_t i = 0; i < count; i++) {
		const struct task *t = rows[first + i]->task;
		int64_t e = html_task_end(t);

		scratch[i] = task_ts(t, TS_CREATED);
		if (task_ts(t, TS_CREATED) < w->first_created)
			w->first_created = task_ts(t, TS_CREATED);
		if (e > w->end)
			w->end = e;
		w->nfailed += html_task_failed(t);
	}
	w->created = median_ms(scratch, count);
	for (int p = 0; p < WF_SEGS; p++) {
		for (size_t i = 0; i < count; i++)
			scratch[i] = phase_ms(rows[first + i]->task, wf_phase[p]);
		w->ph[p] = median_ms(scratch, count);
	}
}

static void
wf_title(FILE *f, const struct report *r, const struct wf_row *w, size_t ntotal)
{
	static const char *const names[WF_SEGS] = { "provision", "pull", "start", "ready" };
	char v[64], when[TIMEUTIL_ISO_LEN];
	int64_t total = TS_NONE;

	fputs("<title>", f);
	if (w->row != NULL) {
		const struct task *t = w->row->task;

		html_esc(f, task_id(t));
		fputs(" (", f);
		html_esc(f, t->prof->taskdef[0] ? t->prof->taskdef : "?");
		if (r->ngroups > 1) {
			fputs(", ", f);
			html_esc(f, r->groups[w->row->group].name);
		}
		timeutil_format_iso(task_ts(t, TS_CREATED), when);
		fprintf(f, "): created %s", when);
		total = phase_ms(t, PHASE_TOTAL);
	} else {
		fprintf(f, "tasks %zu to %zu of %zu: created from ", w->first + 1,
			w->first + w->count, ntotal);
		timeutil_format_iso(w->first_created, when);
		fprintf(f, "%s, medians", when);
	}
	for (int p = 0; p < WF_SEGS; p++) {
		if (p == 3 && w->ph[p] == TS_NONE)
			break;   /* no ready without a healthy_at: say nothing */
		html_fmt_secs(w->ph[p], v, sizeof v);
		fprintf(f, ", %s %s", names[p], v);
	}
	if (w->row != NULL && total != TS_NONE) {
		html_fmt_secs(total, v, sizeof v);
		fprintf(f, ", total %s", v);
	}
	if (w->row != NULL && w->nfailed) {
		const struct task *t = w->row->task;

		fputs("; stopped before RUNNING (", f);
		html_esc(f, t->prof->stop_code ? t->prof->stop_code : "no stop code");
		fputs(")", f);
		if (t->prof->stopped_reason != NULL) {
			fputs(": ", f);
			html_esc(f, t->prof->stopped_reason);
		}
	} else if (w->nfailed) {
		fprintf(f, "; %zu failed to start", w->nfailed);
	}
	fputs("</title>", f);
}

static void
wf_draw_row(FILE *f, const struct report *r, const struct html_axis *a, const struct wf_row *w,
	    double y, size_t ntotal)
{
	double yb = y + (WF_ROW - WF_BAR) / 2.0;
	int64_t at = w->created;
	char label[48];

	fprintf(f, "<g class=\"row%s\">", w->nfailed ? " failed" : "");
	wf_title(f, r, w, ntotal);
	/* the row's band, so that the whole line (not just the thin bars) shows the title */
	fprintf(f, "<rect class=\"band\" x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>", y, WF_W,
		WF_ROW);
	if (r->ngroups > 1 && w->row != NULL)
		fprintf(f, "<rect x=\"2\" y=\"%.1f\" width=\"6\" height=\"%d\" fill=\"%s\"/>", yb,
			WF_BAR, html_group_colour(w->row->group));
	if (w->row != NULL)
		snprintf(label, sizeof label, "%.8s", task_id(w->row->task));
	else
		snprintf(label, sizeof label, "%zu\xe2\x80\x93%zu", w->first + 1, w->first + w->count);
	fprintf(f, "<text class=\"lbl\" x=\"%d\" y=\"%.1f\">", WF_LABEL - 6, y + WF_ROW - 4);
	html_esc(f, label);
	fputs("</text>", f);
	if (w->count > 1 && w->end != INT64_MIN && w->end > w->first_created)
		fprintf(f, "<line class=\"span\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			html_axis_x(a, w->first_created), html_axis_x(a, w->end), y + WF_ROW / 2.0,
			y + WF_ROW / 2.0);
	for (int p = 0; p < WF_SEGS; p++) {
		if (w->ph[p] == TS_NONE)
			break;   /* a later phase without this one has no place to start */
		double x0 = html_axis_x(a, at), x1 = html_axis_x(a, at + w->ph[p]);

		fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"/>",
			wf_class[p], x0, yb, x1 - x0 < 0.6 ? 0.6 : x1 - x0, WF_BAR);
		at += w->ph[p];
	}
	if (w->row != NULL && w->connectivity != TS_NONE)
		fprintf(f, "<rect class=\"conn\" x=\"%.1f\" y=\"%.1f\" width=\"1.4\" height=\"%d\"/>",
			html_axis_x(a, w->connectivity) - 0.7, yb - 2, WF_BAR + 4);
	if (w->nfailed && w->row != NULL) {
		/* from the last phase it reached to where it stopped, then a cross */
		double xe = html_axis_x(a, w->end > at ? w->end : at), ym = y + WF_ROW / 2.0;

		if (w->end > at)
			fprintf(f, "<line class=\"fail\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
				html_axis_x(a, at), xe, ym, ym);
		fprintf(f, "<path class=\"x\" d=\"M%.1f %.1fl8 8m0 -8l-8 8\"/>", xe - 4, ym - 4);
	} else if (w->nfailed) {
		fprintf(f, "<text class=\"nfail\" x=\"%.1f\" y=\"%.1f\">\xe2\x9c\x95 %zu</text>",
			html_axis_x(a, at) + 4, y + WF_ROW - 4, w->nfailed);
	}
	fputs("</g>\n", f);
}

int
html_write_waterfall(FILE *f, const struct report *r, size_t max_rows)
{
	size_t cap = r->nrows ? r->nrows : 1;
	const struct report_row **rows = xcalloc(cap, sizeof *rows);
	int64_t *starts = xcalloc(cap, sizeof *starts), *ends = xcalloc(cap, sizeof *ends);
	size_t n = 0, nw, k, nfailed = 0;
	struct html_axis a;
	char when[TIMEUTIL_ISO_LEN], v[64];

	for (size_t i = 0; i < r->nrows; i++) {
		const struct task *t = r->rows[i].task;

		if (task_ts(t, TS_CREATED) == TS_NONE)
			continue;
		starts[n] = task_ts(t, TS_CREATED);
		ends[n] = html_task_end(t);
		rows[n++] = &r->rows[i];
		nfailed += html_task_failed(t);
	}
	fputs("<section id=\"waterfall\"><h2>Waterfall</h2>\n", f);
	if (n == 0) {
		fputs("<p class=\"note\">No task has a createdAt: nothing to draw.</p></section>\n", f);
		goto out;
	}
	html_axis_build(&a, starts, ends, n, WF_LABEL, WF_W - WF_RIGHT);
	k = max_rows > 0 && n > max_rows ? (n + max_rows - 1) / max_rows : 1;
	nw = (n + k - 1) / k;
	timeutil_format_iso(a.seg[0].t0, when);
	fprintf(f, "<p class=\"note\">Every task on one time axis from the first createdAt "
		   "(%s)", when);
	if (a.nskipped > 0) {
		html_fmt_secs(a.skipped_ms, v, sizeof v);
		fprintf(f, "; the axis skips %s in which no task was starting (the pale zigzag "
			   "band%s)", v, a.nskipped == 1 ? "" : "s");
	}
	if (k > 1)
		fprintf(f, ". <strong>%zu tasks: each row stands for %zu consecutive tasks</strong> "
			   "in the order of the table below, drawn as their median phases from their "
			   "median createdAt; the grey line spans the first created to the last that "
			   "ended, \xe2\x9c\x95 counts those that failed to start", n, k);
	if (n < r->nrows)
		fprintf(f, ". %zu task%s without a createdAt %s not drawn", r->nrows - n,
			r->nrows - n == 1 ? "" : "s", r->nrows - n == 1 ? "is" : "are");
	fputs(". Hover a row (or tap it) for its values.</p>\n", f);
	fputs("<div class=\"legend\"><span><i class=\"p0\"></i>provision</span>"
	      "<span><i class=\"p1\"></i>image pull</span><span><i class=\"p2\"></i>start</span>",
	      f);
	if (r->any_healthy)
		fputs("<span><i class=\"p3\"></i>ready (to HEALTHY)</span>", f);
	fputs("<span><i class=\"conn\"></i>connectivity</span>", f);
	if (nfailed > 0)
		fprintf(f, "<span><b class=\"xmark\">\xe2\x9c\x95</b>failed to start (%zu)</span>",
			nfailed);
	if (r->ngroups > 1)
		for (size_t g = 0; g < r->ngroups; g++) {
			fprintf(f, "<span><i style=\"background:%s\"></i>", html_group_colour(g));
			html_esc(f, r->groups[g].name);
			fputs("</span>", f);
		}
	fputs("</div><p class=\"note hint\">Scroll the waterfall sideways for the whole time "
	      "axis.</p>\n", f);

	double height = WF_TOP + (double)nw * WF_ROW + 6;
	fprintf(f, "<div class=\"scroll\"><svg class=\"wf\" viewBox=\"0 0 %d %.0f\" "
		   "role=\"img\" aria-label=\"waterfall of %zu tasks\">\n", WF_W, height, n);
	html_axis_draw(f, &a, WF_TOP, height - 4);
	int64_t *scratch = xcalloc(k, sizeof *scratch);
	for (size_t i = 0; i < nw; i++) {
		struct wf_row w;
		size_t first = i * k, count = first + k <= n ? k : n - first;

		if (k == 1)
			wf_single(&w, rows[i], i);
		else
			wf_bucket(&w, rows, first, count, scratch);
		wf_draw_row(f, r, &a, &w, WF_TOP + (double)i * WF_ROW, n);
	}
	free(scratch);
	fputs("</svg></div></section>\n", f);
out:
	free(rows);
	free(starts);
	free(ends);
	return 0;
}

/* ---- empirical CDFs ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the group's values of phase p in seconds, sorted; *n of them */
static double *
group_values(const struct report *r, size_t g, enum phase_id p, size_t *n)
{
	double *v = xcalloc(r->groups[g].ntasks ? r->groups[g].ntasks : 1, sizeof *v);

	*n = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		int64_t ms;

		if (r->rows[i].group != g || (ms = phase_ms(r->rows[i].task, p)) == TS_NONE)
			continue;
		if (*n < r->groups[g].ntasks)
			v[(*n)++] = (double)ms / 1000.0;
	}
	qsort(v, *n, sizeof *v, cmp_double);
	return v;
}

struct cdf_axis {
	double xmax;
};

static double
cdf_x(const struct cdf_axis *a, double s)
{
	return CDF_L + s * (CDF_W - CDF_L - CDF_R) / a->xmax;
}

static double
cdf_y(double q)
{
	return CDF_T + (1.0 - q) * (CDF_H - CDF_T - CDF_B);
}

/* One group's step function; at most HTML_CDF_POINTS steps (evenly spaced ranks). */
static void
cdf_line(FILE *f, const struct cdf_axis *a, const double *v, size_t n, const char *cls,
	 const char *colour)
{
	size_t m = n > HTML_CDF_POINTS ? HTML_CDF_POINTS : n;
	double prev_q = 0;

	fprintf(f, "<polyline class=\"%s\" stroke=\"%s\" points=\"", cls, colour);
	for (size_t j = 0; j < m; j++) {
		/* the rank that ends the j-th of m equal slices: every rank when m == n */
		size_t i = (size_t)((double)(j + 1) * (double)n / (double)m) - 1;
		double x = cdf_x(a, v[i]), q = (double)(i + 1) / (double)n;

		fprintf(f, "%s%.1f,%.1f %.1f,%.1f", j ? " " : "", x, cdf_y(prev_q), x, cdf_y(q));
		prev_q = q;
	}
	fputs("\"/>", f);
}

static void
cdf_frame(FILE *f, const struct cdf_axis *a)
{
	int64_t step = html_nice_step_ms((int64_t)llround(a->xmax * 1000), 5);
	static const double qs[] = { 0, 0.5, 0.9, 1 };
	static const char *const ql[] = { "0", "p50", "p90", "" };
	char v[32];

	fputs("<g class=\"axis\">", f);
	for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text class=\"yl\" "
			   "x=\"%d\" y=\"%.1f\">%s</text>", CDF_L, CDF_W - CDF_R, cdf_y(qs[i]),
			cdf_y(qs[i]), CDF_L - 4, cdf_y(qs[i]) + 3.5, ql[i]);
	for (int64_t t = 0; (double)t <= a->xmax * 1000 + 0.5; t += step) {
		double x = cdf_x(a, (double)t / 1000.0);

		fmt_axis_secs((double)t / 1000.0, v, sizeof v);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/><text x=\"%.1f\" "
			   "y=\"%d\">%s</text>", x, x, CDF_T, CDF_H - CDF_B + 4, x,
			CDF_H - CDF_B + 16, v);
	}
	fprintf(f, "<text class=\"unit\" x=\"%d\" y=\"%d\">seconds</text></g>",
		(CDF_W + CDF_L) / 2, CDF_H - 4);
}

static void
cdf_plot(FILE *f, const struct report *r, enum phase_id p, double **vals, const size_t *ns)
{
	struct cdf_axis a = { 0 };
	char v[32];

	for (size_t g = 0; g < r->ngroups; g++)
		if (ns[g] > 0 && vals[g][ns[g] - 1] > a.xmax)
			a.xmax = vals[g][ns[g] - 1];
	a.xmax = a.xmax <= 0 ? 1 : a.xmax * 1.04;
	fprintf(f, "<figure class=\"cdf\"><figcaption><b>%s</b> %s</figcaption>"
		   "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"CDF of %s\">",
		phase_defs[p].name, phase_defs[p].desc, CDF_W, CDF_H, phase_defs[p].name);
	cdf_frame(f, &a);
	/* the baseline first and wide, so the others read against it */
	for (size_t i = 0; i < r->ngroups; i++) {
		size_t g = i == 0 ? r->baseline : i <= r->baseline ? i - 1 : i;
		const struct stats_summary *s = &r->groups[g].phase[p];

		if (ns[g] == 0)
			continue;
		fputs("<g><title>", f);
		html_esc(f, r->groups[g].name);
		fprintf(f, "%s: n = %zu", g == r->baseline && r->ngroups > 1 ? " (baseline)" : "",
			ns[g]);
		html_fmt_secs((int64_t)llround(s->p50 * 1000), v, sizeof v);
		fprintf(f, ", p50 %s", v);
		html_fmt_secs((int64_t)llround(s->p90 * 1000), v, sizeof v);
		fprintf(f, ", p90 %s</title>", v);
		if (g == r->baseline && r->ngroups > 1)
			cdf_line(f, &a, vals[g], ns[g], "base", html_group_colour(g));
		cdf_line(f, &a, vals[g], ns[g], "line", html_group_colour(g));
		fputs("</g>", f);
	}
	fputs("</svg></figure>\n", f);
}

int
html_write_cdfs(FILE *f, const struct report *r)
{
	double **vals;
	size_t *ns;

	if (r->ngroups == 0)
		return 0;
	vals = xcalloc(r->ngroups, sizeof *vals);
	ns = xcalloc(r->ngroups, sizeof *ns);
	fputs("<section id=\"distributions\"><h2>Distributions</h2>\n<p class=\"note\">"
	      "Empirical CDF of each phase: a point at (x, q) means a share q of the group's "
	      "tasks took x seconds or less; further left is faster.", f);
	if (r->ngroups > 1) {
		fputs(" The wide pale line is the baseline, ", f);
		html_esc(f, r->groups[r->baseline].name);
		fputs(".", f);
	}
	fputs("</p>\n<div class=\"legend\">", f);
	for (size_t g = 0; g < r->ngroups; g++) {
		fprintf(f, "<span><i style=\"background:%s\"></i>", html_group_colour(g));
		html_esc(f, r->groups[g].name);
		fprintf(f, "%s</span>", g == r->baseline && r->ngroups > 1 ? " (baseline)" : "");
	}
	fputs("</div>\n<div class=\"cdfs\">\n", f);
	for (int p = 0; p < PHASE_COUNT; p++) {
		size_t any = 0;

		for (size_t g = 0; g < r->ngroups; g++) {
			vals[g] = group_values(r, g, (enum phase_id)p, &ns[g]);
			any += ns[g];
		}
		if (any > 0)
			cdf_plot(f, r, (enum phase_id)p, vals, ns);
		for (size_t g = 0; g < r->ngroups; g++)
			free(vals[g]);
	}
	fputs("</div></section>\n", f);
	free(vals);
	free(ns);
	return 0;
}
