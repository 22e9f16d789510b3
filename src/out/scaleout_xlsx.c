/* scaleout_xlsx: the scale-out story as a workbook (scaleout_out.h). "Scale-outs" holds the
 * contract's columns, one row per scale-out, typed as the report's workbook types them
 * (instants as dates, seconds as numbers, flags as booleans; estimated values in italics),
 * and the notes naming the sources not read below; "Stages" holds each bar as a stacked bar
 * chart on the shared axis, drawn from a small table of its own (the gap before each stage
 * and the stage), since a stacked bar has no gaps of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/scaleout_out.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "xlsx_int.h"

#define SO_XLSX_SCRATCH 4096

/* The stages a bar draws, in its order (so_row_pieces: launch is the per-task stages' time,
 * attach and wait are parts of provision) */
static const enum so_stage so_drawn[] = { SO_DETECT, SO_REACT, SO_SCHEDULE, SO_PROVISION,
					  SO_PULL, SO_START, SO_HEALTH, SO_REGISTER };
#define SO_NDRAWN (sizeof so_drawn / sizeof so_drawn[0])

struct so_xlsx_fmt {
	lxw_format *secs_est, *when_est, *rate, *wrap;
};

static lxw_format *
cell_format(struct xlsx *x, const struct so_xlsx_fmt *f, const struct row_column *c,
	    const struct cell_value *v)
{
	switch (c->kind) {
	case CELL_SECS: return v->estimated ? f->secs_est : x->secs;
	case CELL_TIME: return v->estimated ? f->when_est : x->when;
	case CELL_COUNT: return x->num;
	case CELL_NUMBER: return f->rate;
	default: return NULL;
	}
}

static void
put_cell(struct xlsx *x, const struct so_xlsx_fmt *f, lxw_worksheet *ws, lxw_row_t y,
	 lxw_col_t c, const struct row_column *col, const struct cell_value *v)
{
	if (!v->present)
		return;
	switch (col->kind) {
	case CELL_TEXT: xlsx_put_text(x, ws, y, c, v->text); break;
	case CELL_SECS:
	case CELL_NUMBER: xlsx_put_num(x, ws, y, c, v->num, cell_format(x, f, col, v)); break;
	case CELL_COUNT:
		xlsx_put_num(x, ws, y, c, (double)v->count, cell_format(x, f, col, v));
		break;
	case CELL_TIME:
		if (v->ms != TS_NONE)
			xlsx_put_num(x, ws, y, c, xlsx_excel_date(v->ms), cell_format(x, f, col, v));
		break;
	case CELL_BOOL: xlsx_note(x, worksheet_write_boolean(ws, y, c, v->flag, NULL)); break;
	}
}

static double
col_width(const struct row_column *c)
{
	size_t w = strlen(c->name) + 3;

	if (c->kind == CELL_TIME)
		return w < 24 ? 24 : (double)w;
	if (strcmp(c->name, "advice") == 0)
		return 100;
	if (strcmp(c->name, "trigger") == 0)
		return 40;
	return w < 10 ? 10 : (double)w;
}

static void
rows_sheet(struct xlsx *x, const struct so_xlsx_fmt *f, const struct so_story *st)
{
	lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Scale-outs");
	struct row_table t;
	char *scratch;
	lxw_row_t y;

	if (ws == NULL) {
		xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	so_story_table(st, &t);
	scratch = xmalloc(SO_XLSX_SCRATCH);
	for (size_t c = 0; c < t.ncols; c++) {
		xlsx_note(x, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c,
						  col_width(&t.cols[c]),
						  strcmp(t.cols[c].name, "advice") == 0 ? f->wrap : NULL));
		xlsx_note(x, worksheet_write_string(ws, 0, (lxw_col_t)c, t.cols[c].name, x->head));
	}
	for (size_t r = 0; r < t.nrows; r++)
		for (size_t c = 0; c < t.ncols; c++) {
			struct cell_value v = { 0 };

			rowtab_cell(&t, r, c, &v, scratch, SO_XLSX_SCRATCH);
			put_cell(x, f, ws, (lxw_row_t)(r + 1), (lxw_col_t)c, &t.cols[c], &v);
		}
	free(scratch);
	worksheet_freeze_panes(ws, 1, 2);
	if (t.nrows > 0)
		xlsx_note(x, worksheet_autofilter(ws, 0, 0, (lxw_row_t)t.nrows,
						  (lxw_col_t)(t.ncols - 1)));
	/* the sources not read, under the rows: an empty stage says why it is empty */
	y = (lxw_row_t)(t.nrows + 2);
	for (size_t i = 0; i < st->nnotes; i++, y++) {
		char *line = xasprintf("note: %s", st->notes[i]);

		xlsx_put_text(x, ws, y, 0, line);
		free(line);
	}
}

/* row r's bar as (gap, stage) seconds per drawn stage: the pieces stacked in their order,
 * each from where the one before ended when they overlap (register may begin before the
 * typical task is healthy), so that the stack's length is the bar's */
static void
stack_of(const struct so_row *r, double gap[SO_NDRAWN], double len[SO_NDRAWN])
{
	struct so_piece p[SO_PIECES_MAX];
	size_t n = so_row_pieces(r, p);
	int64_t cursor = 0;

	for (size_t d = 0; d < SO_NDRAWN; d++)
		gap[d] = len[d] = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t from = p[k].from_ms > cursor ? p[k].from_ms : cursor;
		size_t d = 0;

		while (d < SO_NDRAWN && so_drawn[d] != p[k].s)
			d++;
		if (d == SO_NDRAWN || p[k].to_ms <= from)
			continue;
		gap[d] = (double)(from - cursor) / 1000.0;
		len[d] = (double)(p[k].to_ms - from) / 1000.0;
		cursor = p[k].to_ms;
	}
}

static void
stages_sheet(struct xlsx *x, const struct so_story *st)
{
	lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Stages");
	lxw_chart *ch;
	int16_t hidden[SO_NDRAWN + 1];
	lxw_row_t last = (lxw_row_t)st->n;
	lxw_chart_options co = { .x_scale = 2.2, .y_scale = 1 };
	double h = 90.0 + 28.0 * (double)st->n;

	if (ws == NULL) {
		xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	xlsx_note(x, worksheet_set_column(ws, 0, 0, 30, NULL));
	xlsx_note(x, worksheet_set_column(ws, 1, 2 * SO_NDRAWN, 11, NULL));
	xlsx_note(x, worksheet_write_string(ws, 0, 0, "scale-out", x->head));
	for (size_t d = 0; d < SO_NDRAWN; d++) {
		char head[64];

		snprintf(head, sizeof head, "before %s (s)", so_stage_defs[so_drawn[d]].name);
		xlsx_note(x, worksheet_write_string(ws, 0, (lxw_col_t)(1 + 2 * d), head, x->head));
		snprintf(head, sizeof head, "%s (s)", so_stage_defs[so_drawn[d]].name);
		xlsx_note(x, worksheet_write_string(ws, 0, (lxw_col_t)(2 + 2 * d), head, x->head));
	}
	for (size_t i = 0; i < st->n; i++) {
		const struct so_row *r = &st->rows[i];
		double gap[SO_NDRAWN], len[SO_NDRAWN];
		char at[TIMEUTIL_ISO_LEN], *label;

		timeutil_format_iso(r->trigger_ms, at);
		label = xasprintf("%s %s", r->service, at[0] ? at : "?");
		xlsx_put_text(x, ws, (lxw_row_t)(i + 1), 0, label);
		free(label);
		stack_of(r, gap, len);
		for (size_t d = 0; d < SO_NDRAWN; d++) {
			xlsx_put_num(x, ws, (lxw_row_t)(i + 1), (lxw_col_t)(1 + 2 * d), gap[d], x->secs);
			xlsx_put_num(x, ws, (lxw_row_t)(i + 1), (lxw_col_t)(2 + 2 * d), len[d], x->secs);
		}
	}
	if (st->n == 0)
		return;
	ch = workbook_add_chart(x->wb, LXW_CHART_BAR_STACKED);
	if (ch == NULL) {
		xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	for (size_t k = 0; k < 2 * SO_NDRAWN; k++) {
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		enum so_stage stage = so_drawn[k / 2];
		lxw_chart_fill fill = { .color = so_stage_colours[stage].rgb };
		lxw_chart_fill none = { .none = LXW_TRUE };
		lxw_chart_line noline = { .none = LXW_TRUE };
		lxw_col_t vc = (lxw_col_t)(1 + k);

		if (s == NULL) {
			xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
			return;
		}
		chart_series_set_categories(s, "Stages", 1, 0, last, 0);
		chart_series_set_values(s, "Stages", 1, vc, last, vc);
		chart_series_set_name_range(s, "Stages", 0, vc);
		if (k % 2 == 0) {   /* the gap: drawn as nothing, named in no legend */
			chart_series_set_fill(s, &none);
			chart_series_set_line(s, &noline);
			hidden[k / 2] = (int16_t)k;
		} else {
			chart_series_set_fill(s, &fill);
		}
	}
	hidden[SO_NDRAWN] = -1;
	xlsx_note(x, chart_legend_delete_series(ch, hidden));
	chart_title_set_name(ch, "Stages of each scale-out, from its start (s)");
	chart_axis_set_name(ch->y_axis, "seconds from the first breaching datapoint, else the trigger");
	chart_axis_set_reverse(ch->x_axis);   /* the first scale-out at the top, as in the sheet */
	chart_legend_set_position(ch, LXW_CHART_LEGEND_TOP);
	chart_set_series_gap(ch, 40);
	co.y_scale = h < 288 ? 1 : h / 288.0;
	xlsx_note(x, worksheet_insert_chart_opt(ws, last + 2, 0, ch, &co));
}

static void
scaleout_fill(struct xlsx *x, const void *ctx)
{
	const struct scaleout_out *o = ctx;
	struct so_xlsx_fmt f;

	f.secs_est = workbook_add_format(x->wb);
	format_set_num_format(f.secs_est, "0.000");
	format_set_italic(f.secs_est);
	f.when_est = workbook_add_format(x->wb);
	format_set_num_format(f.when_est, "yyyy-mm-dd hh:mm:ss.000");
	format_set_italic(f.when_est);
	f.rate = workbook_add_format(x->wb);
	format_set_num_format(f.rate, "0.00");
	f.wrap = workbook_add_format(x->wb);
	format_set_text_wrap(f.wrap);
	rows_sheet(x, &f, o->st);
	stages_sheet(x, o->st);
}

int
scaleout_out_xlsx(FILE *f, void *ctx, struct err *err)
{
	return xlsx_book(f, false, scaleout_fill, ctx, err);
}
