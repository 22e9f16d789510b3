/* scaleout_out: the scale-out story as a table (scaleout_out.h). Each scale-out is one
 * line of facts, one bar on the shared axis (seconds from its start: the first breaching
 * datapoint, else the trigger), the stages' seconds (`~` estimated) and the advice,
 * wrapped at the width. The bar draws the stages with instants where they are, and the
 * per-task stages as a typical task (their p50s end to end from the first createdAt). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/scaleout_out.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define SO_OUT_INDENT 2
#define SO_OUT_BAR_MAX 200

/* One letter per stage in the bar, and the legend that names them */
static const char so_letters[SO_STAGE_COUNT] = {
	[SO_DETECT] = 'd', [SO_REACT] = 'r', [SO_SCHEDULE] = 's', [SO_LAUNCH] = 'l',
	[SO_PROVISION] = 'p', [SO_ATTACH] = 'a', [SO_WAIT] = 'w', [SO_PULL] = 'i',
	[SO_START] = 'c', [SO_HEALTH] = 'h', [SO_REGISTER] = 't', [SO_TOTAL] = ' ',
};
static const char so_legend[] = "d detect, r react, s schedule, p provision, i image pull, "
				"c container start, h health, t target registration";

void
so_out_desired(FILE *f, const struct so_row *r, const char *arrow)
{
	char text[128];

	if (so_row_desired_text(r, arrow, false, text, sizeof text)[0] != '\0')
		fprintf(f, "%s, ", text);
}

static void
paint(char *bar, int len, int64_t scale_ms, int64_t start, int64_t from, int64_t to, char c)
{
	int a, b;

	if (from == TS_NONE || to == TS_NONE || to < from || scale_ms <= 0)
		return;
	a = (int)((from - start) * len / scale_ms);
	b = (int)((to - start) * len / scale_ms);
	if (b == a)
		b = a + 1;   /* a stage is never invisible */
	for (int i = a < 0 ? 0 : a; i < b && i < len; i++)
		bar[i] = c;
}

static void
draw_bar(FILE *f, const struct so_row *r, int len, int64_t scale_ms)
{
	struct so_piece p[SO_PIECES_MAX];
	char bar[SO_OUT_BAR_MAX + 1];
	size_t n = so_row_pieces(r, p);

	memset(bar, '.', (size_t)len);
	bar[len] = '\0';
	for (size_t k = 0; k < n; k++)
		paint(bar, len, scale_ms, 0, p[k].from_ms, p[k].to_ms, so_letters[p[k].s]);
	fprintf(f, "%*s|%s|\n", SO_OUT_INDENT, "", bar);
}

/* "detect 180 s, react 4 s, ..., provision p50 25 s (max 31), ..." */
static void
draw_secs(FILE *f, const struct so_row *r, int width)
{
	int col = SO_OUT_INDENT;

	fprintf(f, "%*s", SO_OUT_INDENT, "");
	for (int k = 0; k < SO_STAGE_COUNT; k++) {
		char item[96];
		double v = so_row_seconds(r, (enum so_stage)k);
		int n;

		if (k == SO_ATTACH || k == SO_WAIT)
			continue;
		if (isnan(v))
			n = snprintf(item, sizeof item, "%s -", so_stage_defs[k].name);
		else if (so_stage_defs[k].per_task)
			n = snprintf(item, sizeof item, "%s p50 %.1f s (max %.1f)", so_stage_defs[k].name,
				     v, r->dist[k].max_s);
		else
			n = snprintf(item, sizeof item, "%s %s%.1f s", so_stage_defs[k].name,
				     so_row_estimated(r, (enum so_stage)k) ? "~" : "", v);
		if (col > SO_OUT_INDENT && col + 2 + n > width) {
			fprintf(f, "\n%*s", SO_OUT_INDENT, "");
			col = SO_OUT_INDENT;
		} else if (col > SO_OUT_INDENT) {
			fputs(", ", f);
			col += 2;
		}
		fputs(item, f);
		col += n;
	}
	fputc('\n', f);
}

/* text wrapped at width, each line indented by indent (the first after lead) */
static void
draw_wrapped(FILE *f, const char *lead, const char *text, int indent, int width)
{
	char *s = xstrdup(text);
	const char *p = s;
	int col = indent + (int)strlen(lead);

	termsafe_scrub(s, "");
	fprintf(f, "%*s%s", indent, "", lead);
	while (*p != '\0') {
		size_t w = strcspn(p, " ");

		if (col > indent + (int)strlen(lead) && col + 1 + (int)w > width) {
			fprintf(f, "\n%*s", indent + (int)strlen(lead), "");
			col = indent + (int)strlen(lead);
		} else if (col > indent + (int)strlen(lead)) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
	free(s);
}

/* A target tracking alarm's name is 90 characters: its head and tail tell it */
static void
shorten(char *s, size_t head, size_t tail)
{
	size_t n = strlen(s);

	if (n <= head + tail + 3)
		return;
	memmove(s + head + 3, s + n - tail, tail + 1);
	memcpy(s + head, "...", 3);
}

static void
draw_head(FILE *f, const struct so_row *r)
{
	static const char *const words[] = { "alarm", "scaling activity", "deployment", "manual" };
	char at[TIMEUTIL_ISO_LEN], *name = xstrdup(r->trigger_name), *svc = xstrdup(r->service);
	char *cl = xstrdup(r->cluster);

	shorten(name, 20, 25);
	termsafe_scrub(name, "");   /* after the cut: a sequence cut in two is scrubbed too */
	termsafe_scrub(svc, "");
	termsafe_scrub(cl, "");
	timeutil_format_iso(r->trigger_ms, at);
	fprintf(f, "%s%s%s  %s%s%s  at %s\n%*s", cl, cl[0] ? "/" : "", svc,
		words[r->trigger], name[0] ? " " : "", name, at[0] ? at : "?", SO_OUT_INDENT, "");
	so_out_desired(f, r, "->");
	fprintf(f, "%zu task%s started", r->tasks_started, r->tasks_started == 1 ? "" : "s");
	if (r->tasks_failed > 0)
		fprintf(f, ", %zu failed", r->tasks_failed);
	if (r->capacity_errors > 0)
		fprintf(f, ", %zu capacity error%s", r->capacity_errors,
			r->capacity_errors == 1 ? "" : "s");
	if (!isnan(so_row_seconds(r, SO_TOTAL)))
		fprintf(f, ", total %s%.1f s", so_row_estimated(r, SO_TOTAL) ? "~" : "",
			so_row_seconds(r, SO_TOTAL));
	fputc('\n', f);
	free(name);
	free(svc);
	free(cl);
}

int
scaleout_out_table(FILE *f, void *ctx, struct err *err)
{
	const struct scaleout_out *o = ctx;
	const struct so_story *st = o->st;
	int width = o->width > 0 ? o->width : 100, len;
	int64_t scale = 0;

	len = width - SO_OUT_INDENT - 2;
	if (len > SO_OUT_BAR_MAX)
		len = SO_OUT_BAR_MAX;
	if (len < 10)
		len = 10;
	scale = so_story_scale(st);
	fprintf(f, "%zu scale-out%s, from the trigger to the last new task serving; one scale: "
		"the bar is %.0f s\n", st->n, st->n == 1 ? "" : "s", (double)scale / 1000.0);
	draw_wrapped(f, "", so_legend, SO_OUT_INDENT, width);
	for (size_t i = 0; i < st->n; i++) {
		const struct so_row *r = &st->rows[i];

		fputc('\n', f);
		draw_head(f, r);
		draw_bar(f, r, len, scale);
		draw_secs(f, r, width);
		if (r->advice != NULL && r->advice[0] != '\0')
			draw_wrapped(f, "advice: ", r->advice, SO_OUT_INDENT, width);
	}
	if (st->nnotes > 0)
		fputc('\n', f);
	for (size_t i = 0; i < st->nnotes; i++)
		draw_wrapped(f, "note: ", st->notes[i], 0, width);
	if (ferror(f))
		return err_set(err, ERR_IO, "cannot write the scale-outs: %s", err_strerror(errno));
	return 0;
}
