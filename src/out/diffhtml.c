/* diffhtml: `ecsprof diff --format html`: one self-contained page with the diff's tables
 * (rowtab.h, the cells as the sink writes them), its explanations and power lines, and one
 * plot per phase with both windows' distributions (empirical CDFs on one seconds axis). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ecsprof/diff.h"
#include "ecsprof/diffhtml.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"
#include "html_int.h"
#include "sink_int.h"

#define PLOT_W 640.0
#define PLOT_H 180.0
#define PAD_L 48.0
#define PAD_B 28.0

static void
write_table(FILE *f, const struct sink *s, const struct row_table *t)
{
	char *scratch = xmalloc(SINK_SCRATCH), num[64];

	fprintf(f, "<section><h2>");
	html_esc(f, t->name);
	fprintf(f, "</h2><table><thead><tr>");
	for (size_t c = 0; c < t->ncols; c++) {
		fprintf(f, "<th>");
		html_esc(f, t->cols[c].title);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr></thead><tbody>\n");
	for (size_t r = 0; r < t->nrows; r++) {
		fprintf(f, "<tr>");
		for (size_t c = 0; c < t->ncols; c++) {
			struct cell_value v;
			const char *text;

			rowtab_cell(t, r, c, &v, scratch, SINK_SCRATCH);
			text = sink_cell_text(s, &t->cols[c], &v, SINK_STYLE_TABLE, num, sizeof num);
			fprintf(f, "<td%s>", sink_col_numeric(&t->cols[c]) ? " class=\"n\"" : "");
			html_esc(f, text != NULL ? text : "");
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
	if (t->nnotes > 0) {
		fprintf(f, "<ul>");
		for (size_t i = 0; i < t->nnotes; i++) {
			fprintf(f, "<li>");
			html_esc(f, t->notes[i]);
			fprintf(f, "</li>");
		}
		fprintf(f, "</ul>\n");
	}
	fprintf(f, "</section>\n");
	free(scratch);
}

/* The window's values of phase p, sorted (caller frees). */
static double *
sorted_values(const struct diff_window *w, enum diff_phase p, size_t *n)
{
	double *v = diff_window_values(w, p, n);

	stats_sort(v, *n);
	return v;
}

/* One empirical CDF as a step polyline. */
static void
cdf_line(FILE *f, const double *v, size_t n, double max, const char *colour, const char *dash)
{
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", colour,
		dash);
	for (size_t i = 0; i < n; i++) {
		double x = PAD_L + v[i] / max * (PLOT_W - PAD_L - 8);
		double y0 = PLOT_H - PAD_B - (double)i / (double)n * (PLOT_H - PAD_B - 8);
		double y1 = PLOT_H - PAD_B - (double)(i + 1) / (double)n * (PLOT_H - PAD_B - 8);

		fprintf(f, "%.1f,%.1f %.1f,%.1f ", x, y0, x, y1);
	}
	fprintf(f, "\"/>\n");
}

static void
phase_plot(FILE *f, const struct diff_html *h, enum diff_phase p)
{
	size_t na, nb;
	double *a = sorted_values(h->base, p, &na), *b = sorted_values(h->cur, p, &nb);
	double max = 0;

	if (na > 0)
		max = a[na - 1];
	if (nb > 0 && b[nb - 1] > max)
		max = b[nb - 1];
	if (na > 0 && nb > 0 && max > 0) {
		fprintf(f, "<figure><figcaption>%s: baseline (n=%zu, dashed) and new (n=%zu)</figcaption>\n",
			diff_phase_name(p), na, nb);
		fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" role=\"img\">\n", PLOT_W, PLOT_H,
			PLOT_W);
		for (int k = 0; k <= 4; k++) {
			double x = PAD_L + k / 4.0 * (PLOT_W - PAD_L - 8);

			fprintf(f, "<line x1=\"%.1f\" y1=\"8\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%.1f s</text>\n",
				x, x, PLOT_H - PAD_B, x, PLOT_H - 10, max * k / 4.0);
		}
		fprintf(f, "<text x=\"4\" y=\"16\" font-size=\"11\">100%%</text>"
			"<text x=\"4\" y=\"%.1f\" font-size=\"11\">0%%</text>\n", PLOT_H - PAD_B);
		cdf_line(f, a, na, max, "#777", " stroke-dasharray=\"5 3\"");
		cdf_line(f, b, nb, max, html_group_colour(1), "");
		fprintf(f, "</svg></figure>\n");
	}
	free(a);
	free(b);
}

int
diffhtml_write(FILE *f, void *ctx, struct err *err)
{
	const struct diff_html *h = ctx;
	struct row_table phases, changes;

	(void)err;
	diff_phase_table(h->d, &phases);
	diff_change_table(h->d, &changes);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
	html_esc(f, h->title);
	fprintf(f, "</title><style>body{font:14px system-ui,sans-serif;margin:2em}"
		   "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
		   "td.n{text-align:right}figure{margin:1em 0}</style></head><body><h1>");
	html_esc(f, h->title);
	fprintf(f, "</h1>\n");
	write_table(f, h->sink, &phases);
	fprintf(f, "<section><h2>distributions</h2>\n");
	for (int p = 0; p < DIFF_PHASE_COUNT; p++)
		phase_plot(f, h, (enum diff_phase)p);
	fprintf(f, "</section>\n");
	write_table(f, h->sink, &changes);
	fprintf(f, "</body></html>\n");
	return 0;
}
