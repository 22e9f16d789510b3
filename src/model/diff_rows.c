/* diff_rows: a diff as row tables (rowtab.h) for every format the sink writes: "phases",
 * one row per phase and one per phase and part of a split (the contract's columns), and
 * "changes", one row per value of each attribute; and report --changes' "change_points". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff_int.h"
#include "ecsprof/diff.h"
#include "ecsprof/diff_changes.h"
#include "ecsprof/rowtab.h"

enum { PC_PHASE, PC_PART, PC_BASE_N, PC_BASE_P50, PC_BASE_P90, PC_NEW_N, PC_NEW_P50,
       PC_NEW_P90, PC_DELTA, PC_CI_LO, PC_CI_HI, PC_P90_DELTA, PC_P, PC_SIG, PC_COUNT };

static const struct row_column phase_cols[PC_COUNT] = {
	{ "phase", "PHASE", CELL_TEXT, 0, 0 },
	{ "part", "PART", CELL_TEXT, 0, 0 },
	{ "baseline_n", "BASE-N", CELL_COUNT, 0, 0 },
	{ "baseline_p50_s", "BASE-P50", CELL_SECS, 0, 0 },
	{ "baseline_p90_s", "BASE-P90", CELL_SECS, 0, 0 },
	{ "new_n", "NEW-N", CELL_COUNT, 0, 0 },
	{ "new_p50_s", "NEW-P50", CELL_SECS, 0, 0 },
	{ "new_p90_s", "NEW-P90", CELL_SECS, 0, 0 },
	{ "p50_delta_s", "P50-CHANGE", CELL_SECS, 0, 0 },
	{ "p50_ci_low_s", "CI-LOW", CELL_SECS, 0, 0 },
	{ "p50_ci_high_s", "CI-HIGH", CELL_SECS, 0, 0 },
	{ "p90_delta_s", "P90-CHANGE", CELL_SECS, 0, 0 },
	{ "p_value", "P", CELL_NUMBER, -3, 0 },
	{ "significant", "SIGNIFICANT", CELL_BOOL, 0, 0 },
};

/* The phases a table shows: those with data on some side. */
static bool
phase_shown(const struct diff *d, int p)
{
	return d->phase[p].base.n > 0 || d->phase[p].cur.n > 0;
}

static void
num(struct cell_value *out, double v)
{
	out->present = !isnan(v);
	out->num = v;
}

static void
phase_cell(const void *ctx, size_t row, size_t col, struct cell_value *out, char *scratch,
	   size_t scratch_size)
{
	const struct diff *d = ctx;
	const struct diff_cmp *c = NULL;
	const struct diff_part *pt = NULL;
	int phase = -1;

	for (int p = 0; p < DIFF_PHASE_COUNT && c == NULL; p++)
		if (phase_shown(d, p) && row-- == 0) {
			c = &d->phase[p];
			phase = p;
		}
	if (c == NULL) {
		pt = &d->parts[row];
		c = &pt->cmp;
		phase = (int)pt->phase;
	}
	switch (col) {
	case PC_PHASE:
		out->present = true;
		out->text = diff_phase_name((enum diff_phase)phase);
		break;
	case PC_PART:
		out->present = true;
		if (pt == NULL)
			out->text = "all";
		else {
			snprintf(scratch, scratch_size, "%s=%s", diff_attr_name(pt->attr),
				 d->mix[pt->attr].values[pt->value].value);
			out->text = scratch;
		}
		break;
	case PC_BASE_N: out->present = true; out->count = (int64_t)c->base.n; break;
	case PC_BASE_P50: num(out, c->base.p50); break;
	case PC_BASE_P90: num(out, c->base.p90); break;
	case PC_NEW_N: out->present = true; out->count = (int64_t)c->cur.n; break;
	case PC_NEW_P50: num(out, c->cur.p50); break;
	case PC_NEW_P90: num(out, c->cur.p90); break;
	case PC_DELTA: num(out, c->p50_delta_s); break;
	case PC_CI_LO: num(out, c->ci_lo_s); break;
	case PC_CI_HI: num(out, c->ci_hi_s); break;
	case PC_P90_DELTA: num(out, c->p90_delta_s); break;
	case PC_P: num(out, c->valid ? c->p_holm : NAN); break;
	case PC_SIG: out->present = c->valid; out->flag = c->significant; break;
	}
}

void
diff_phase_table(const struct diff *d, struct row_table *t)
{
	size_t n = 0;

	for (int p = 0; p < DIFF_PHASE_COUNT; p++)
		n += phase_shown(d, p);
	*t = (struct row_table){
		.name = "phases",
		.title = NULL,
		.cols = phase_cols,
		.ncols = PC_COUNT,
		.nrows = n + d->nparts,
		.cell = phase_cell,
		.ctx = d,
		.notes = (const char *const *)d->notes,
		.nnotes = d->nnotes,
	};
}

enum { CC_ATTR, CC_VALUE, CC_BASE_N, CC_NEW_N, CC_TEST, CC_P, CC_DIFFERS, CC_COUNT };

static const struct row_column change_cols[CC_COUNT] = {
	{ "attribute", "ATTRIBUTE", CELL_TEXT, 0, 0 },
	{ "value", "VALUE", CELL_TEXT, 0, 0 },
	{ "baseline_n", "BASE-N", CELL_COUNT, 0, 0 },
	{ "new_n", "NEW-N", CELL_COUNT, 0, 0 },
	{ "test", "TEST", CELL_TEXT, 0, 0 },
	{ "p_value", "P", CELL_NUMBER, -3, 0 },
	{ "differs", "DIFFERS", CELL_BOOL, 0, 0 },
};

static void
change_cell(const void *ctx, size_t row, size_t col, struct cell_value *out, char *scratch,
	    size_t scratch_size)
{
	const struct diff *d = ctx;
	int a = 0;

	while (a < DIFF_ATTR_COUNT && row >= d->mix[a].nvalues)
		row -= d->mix[a++].nvalues;
	if (a == DIFF_ATTR_COUNT)
		return;
	const struct diff_mix *m = &d->mix[a];

	out->present = true;
	switch (col) {
	case CC_ATTR: out->text = diff_attr_name((enum diff_attr)a); break;
	case CC_VALUE: out->text = m->values[row].value; break;
	case CC_BASE_N: out->count = (int64_t)m->values[row].base_n; break;
	case CC_NEW_N: out->count = (int64_t)m->values[row].new_n; break;
	case CC_TEST:
		if (isnan(m->p_value))
			out->present = false;
		else if (m->fisher)
			out->text = "fisher";
		else {
			snprintf(scratch, scratch_size, "chi-square df=%d", m->df);
			out->text = scratch;
		}
		break;
	case CC_P: num(out, isnan(m->p_value) ? NAN : m->p_holm); break;
	case CC_DIFFERS: out->flag = m->differs; break;
	}
}

void
diff_change_table(const struct diff *d, struct row_table *t)
{
	size_t n = 0;

	for (int a = 0; a < DIFF_ATTR_COUNT; a++)
		n += d->mix[a].nvalues;
	*t = (struct row_table){
		.name = "changes",
		.title = NULL,
		.cols = change_cols,
		.ncols = CC_COUNT,
		.nrows = n,
		.cell = change_cell,
		.ctx = d,
		.notes = NULL,
		.nnotes = 0,
	};
}

/* report --changes: one row per change point (diff_changes.h) */
enum { XC_START, XC_WINDOW, XC_BEFORE, XC_PHASE, XC_BASE_N, XC_NEW_N, XC_BASE_P50, XC_NEW_P50,
       XC_DELTA, XC_CI_LO, XC_CI_HI, XC_P, XC_ATTR, XC_VALUE, XC_CAUSE, XC_EXPLAIN, XC_COUNT };

static const struct row_column point_cols[XC_COUNT] = {
	{ "window_start", "START", CELL_TIME, 0, ROWCOL_NOT_IN_TABLE },
	{ "window", "WINDOW", CELL_TEXT, 0, 0 },
	{ "baseline_window", "BEFORE", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	{ "phase", "PHASE", CELL_TEXT, 0, 0 },
	/* the counts are in the explanation's parts; the table keeps its room for it */
	{ "baseline_n", "BASE-N", CELL_COUNT, 0, ROWCOL_NOT_IN_TABLE },
	{ "new_n", "NEW-N", CELL_COUNT, 0, ROWCOL_NOT_IN_TABLE },
	{ "baseline_p50_s", "BEFORE-P50", CELL_SECS, 0, 0 },
	{ "new_p50_s", "AFTER-P50", CELL_SECS, 0, 0 },
	{ "p50_delta_s", "CHANGE", CELL_SECS, 0, 0 },
	{ "p50_ci_low_s", "CI-LOW", CELL_SECS, 0, 0 },
	{ "p50_ci_high_s", "CI-HIGH", CELL_SECS, 0, 0 },
	{ "p_value", "P", CELL_NUMBER, -3, 0 },
	{ "attribute", "ATTRIBUTE", CELL_TEXT, 0, 0 },
	{ "value", "VALUE", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	{ "cause", "CAUSE", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	{ "explanation", "EXPLANATION", CELL_TEXT, 0, ROWCOL_WRAP },
};

static void
point_cell(const void *ctx, size_t row, size_t col, struct cell_value *out, char *scratch,
	   size_t scratch_size)
{
	const struct changes *ch = ctx;
	const struct change_point *pt = &ch->points[row];
	const struct diff_cmp *c = &pt->cmp;

	(void)scratch;
	(void)scratch_size;
	out->present = true;
	switch (col) {
	case XC_START: out->ms = ch->windows[pt->window].start_ms; break;
	case XC_WINDOW: out->text = ch->windows[pt->window].label; break;
	case XC_BEFORE: out->text = ch->windows[pt->window - 1].label; break;
	case XC_PHASE: out->text = diff_phase_name(pt->phase); break;
	case XC_BASE_N: out->count = (int64_t)c->base.n; break;
	case XC_NEW_N: out->count = (int64_t)c->cur.n; break;
	case XC_BASE_P50: num(out, c->base.p50); break;
	case XC_NEW_P50: num(out, c->cur.p50); break;
	case XC_DELTA: num(out, c->p50_delta_s); break;
	case XC_CI_LO: num(out, c->ci_lo_s); break;
	case XC_CI_HI: num(out, c->ci_hi_s); break;
	case XC_P: num(out, c->p_holm); break;
	case XC_ATTR:
		out->present = pt->attr >= 0;
		out->text = pt->attr >= 0 ? diff_attr_name((enum diff_attr)pt->attr) : NULL;
		break;
	case XC_VALUE: out->present = pt->value != NULL; out->text = pt->value; break;
	case XC_CAUSE: out->text = pt->cause; break;
	case XC_EXPLAIN: out->text = pt->explanation; break;
	}
}

void
changes_table(const struct changes *c, struct row_table *t)
{
	*t = (struct row_table){
		.name = "change_points",
		.title = NULL,
		.cols = point_cols,
		.ncols = XC_COUNT,
		.nrows = c->npoints,
		.cell = point_cell,
		.ctx = c,
		.notes = (const char *const *)c->notes,
		.nnotes = c->nnotes,
	};
}
