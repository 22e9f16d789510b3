/* scaleout_html: the scale-out story as one self-contained HTML page (scaleout_out.h):
 * per scale-out its head, an SVG bar of stages on the shared axis (the table's pieces,
 * so_row_pieces), the stages' seconds and the advice; the notes at the end. No
 * script, nothing fetched; every text from the input escaped (html_esc). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "ecsprof/scaleout_out.h"
#include "ecsprof/timeutil.h"
#include "html_int.h"

#define SO_SVG_W 900.0
#define SO_SVG_H 22.0

/* each stage's colour (so_stage_colours: the per-task stages as the report's phases, as the
 * TUI and the workbook draw them) */
static const char *
so_colour(enum so_stage s, char out[8])
{
	snprintf(out, 8, "#%06x", (unsigned)(so_stage_colours[s].rgb & 0xffffff));
	return out;
}

static void
html_bar(FILE *f, const struct so_row *r, int64_t scale)
{
	struct so_piece p[SO_PIECES_MAX];
	size_t n = so_row_pieces(r, p);
	char rgb[8];

	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" width=\"100%%\" role=\"img\" "
		"aria-label=\"stages\">\n", SO_SVG_W, SO_SVG_H);
	for (size_t k = 0; k < n && scale > 0; k++) {
		double x = SO_SVG_W * (double)p[k].from_ms / (double)scale;
		double w = SO_SVG_W * (double)(p[k].to_ms - p[k].from_ms) / (double)scale;

		fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"%.0f\" fill=\"%s\"%s>"
			"<title>%s %s%.1f s</title></rect>\n", x, w < 1 ? 1 : w, SO_SVG_H - 4,
			so_colour(p[k].s, rgb), p[k].estimated ? " fill-opacity=\"0.45\"" : "",
			so_stage_defs[p[k].s].name, p[k].estimated ? "~" : "",
			(double)(p[k].to_ms - p[k].from_ms) / 1000.0);
	}
	fputs("</svg>\n", f);
}

static void
html_row(FILE *f, const struct so_row *r, int64_t scale)
{
	static const char *const words[] = { "alarm", "scaling activity", "deployment", "manual" };
	char at[TIMEUTIL_ISO_LEN], rgb[8];

	timeutil_format_iso(r->trigger_ms, at);
	fputs("<section>\n<h2>", f);
	html_esc(f, r->cluster);
	fputs(r->cluster[0] ? "/" : "", f);
	html_esc(f, r->service);
	fprintf(f, ": %s ", words[r->trigger]);
	html_esc(f, r->trigger_name);
	fprintf(f, " at %s</h2>\n<p>", at[0] ? at : "?");
	so_out_desired(f, r, "&rarr;");
	fprintf(f, "%zu tasks started, %zu failed, %zu capacity errors</p>\n", r->tasks_started,
		r->tasks_failed, r->capacity_errors);
	html_bar(f, r, scale);
	fputs("<table><tr>", f);
	for (int k = 0; k < SO_STAGE_COUNT; k++)
		if (k != SO_ATTACH && k != SO_WAIT)
			fprintf(f, "<th><span class=\"sw\" style=\"background:%s\"></span>%s%s</th>",
				so_colour((enum so_stage)k, rgb), so_stage_defs[k].name,
				so_stage_defs[k].per_task ? " p50" : "");
	fputs("</tr>\n<tr>", f);
	for (int k = 0; k < SO_STAGE_COUNT; k++) {
		double v = so_row_seconds(r, (enum so_stage)k);

		if (k == SO_ATTACH || k == SO_WAIT)
			continue;
		if (isnan(v))
			fputs("<td>-</td>", f);
		else
			fprintf(f, "<td>%s%.1f s</td>", so_row_estimated(r, (enum so_stage)k) ? "~" : "",
				v);
	}
	fputs("</tr></table>\n", f);
	if (r->advice != NULL && r->advice[0] != '\0') {
		fputs("<p class=\"advice\">", f);
		html_esc(f, r->advice);
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
}

int
scaleout_out_html(FILE *f, void *ctx, struct err *err)
{
	const struct scaleout_out *o = ctx;
	const struct so_story *st = o->st;
	int64_t scale = so_story_scale(st);

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>ecsprof: scale-outs</title>\n<style>\n"
	      "body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}"
	      "table{border-collapse:collapse;font-size:.85rem}th,td{padding:.2rem .5rem;"
	      "text-align:right}.sw{display:inline-block;width:.7rem;height:.7rem;"
	      "margin-right:.25rem}.advice{background:#f5f5f5;padding:.5rem}\n"
	      "</style></head><body>\n<h1>Scale-outs</h1>\n", f);
	fprintf(f, "<p>%zu scale-out%s, from the trigger to the last new task serving; one "
		"scale: the bar is %.0f s. Pale: estimated (<code>~</code>).</p>\n", st->n,
		st->n == 1 ? "" : "s", (double)scale / 1000.0);
	for (size_t i = 0; i < st->n; i++)
		html_row(f, &st->rows[i], scale);
	if (st->nnotes > 0) {
		fputs("<h2>Sources not read</h2>\n<ul>\n", f);
		for (size_t i = 0; i < st->nnotes; i++) {
			fputs("<li>", f);
			html_esc(f, st->notes[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</body></html>\n", f);
	if (ferror(f))
		return err_set(err, ERR_IO, "cannot write the scale-outs: %s", err_strerror(errno));
	return 0;
}
