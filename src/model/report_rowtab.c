/* report_rowtab: the report's tasks and summary as row tables (report_rowtab.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/compare.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/report_rowtab.h"
#include "ecsprof/xalloc.h"

/* the task table's own columns (in REPORT_COLUMNS' order, the CSV's); the others are
 * CSV/JSON only */
static const enum col_id shown_cols[] = {
	COL_TASK_ID, COL_TASKDEF, COL_LAST_STATUS, COL_AZ, COL_GROUP, COL_CREATED_AT,
	COL_PROVISION_S, COL_PULL_S, COL_START_S, COL_TOTAL_S, COL_CONNECTIVITY_S,
};
#define NSHOWN (sizeof shown_cols / sizeof shown_cols[0])

/* takes s (xasprintf's) */
static void
add_note(struct report_rowtab *rt, char *s)
{
	if (rt->nnotes == rt->cap) {
		rt->cap = rt->cap ? rt->cap * 2 : 8;
		rt->notes = xrealloc(rt->notes, rt->cap * sizeof *rt->notes);
	}
	rt->notes[rt->nnotes++] = s;
}

static bool
failed_start(const struct task *t)
{
	return task_stage(t, NULL) == STAGE_FAILED;
}

/* Every cell typed (rowtab.h), the texts uncut: the generic CSV writer then writes the
 * bytes csv_add_row() writes (a test compares them), so that watch streams its lines
 * through the sink. A row's texts are computed once (report_row_cells), when the first of
 * its cells is asked for. */
static void
task_cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
	  size_t size)
{
	const struct report_rowtab *rt = ctx;
	const struct report_row *rr = &rt->r->rows[row];
	enum col_id c = (enum col_id)col;
	int64_t ms;

	(void)scratch;
	(void)size;
	switch (report_columns[c].kind) {
	case COL_DURATION:
		ms = report_cell_ms(rr, c);
		v->present = ms != TS_NONE;
		v->num = (double)ms / 1000.0;
		return;
	case COL_TIME:
		v->ms = report_cell_ms(rr, c);
		v->present = v->ms != TS_NONE;
		return;
	case COL_NUMBER:
		v->num = report_row_cost_usd(rt->r, rr);
		v->present = isfinite(v->num);
		return;
	case COL_TEXT:
		break;
	}
	if (*rt->cached_row != row) {
		report_row_cells(rt->r, rr, TIME_FORMAT_ISO, rt->cells);
		*rt->cached_row = row;
	}
	v->text = rt->cells->text[c];
	v->present = rt->cells->len[c] > 0;
}

/* as the table's footnotes: each failed start, then each task that ran and stopped for a
 * reason worth fixing, with its cause and next step when a rule knows them */
static void
stop_notes(struct report_rowtab *rt, bool failed)
{
	for (size_t i = 0; i < rt->r->nrows; i++) {
		const struct task *t = rt->r->rows[i].task;
		const struct diag_rule *d = diagnose_task(t);
		const char *why = t->prof->stopped_reason;

		if (failed != failed_start(t) ||
		    (!failed && (d == NULL || strcmp(d->next_step, "nothing to fix") == 0)))
			continue;
		/* ECS sometimes leaves the task's reason empty and puts it on the container */
		for (size_t k = 0; failed && why == NULL && k < t->ncontainers; k++)
			why = t->containers[k].prof->reason;
		add_note(rt, xasprintf("%s stopped %s RUNNING (%s): %s%s%s%s%s", task_id(t),
				       failed ? "before" : "after",
				       t->prof->stop_code ? t->prof->stop_code : "no stop code",
				       why ? why : "no reason given", d ? "; cause: " : "",
				       d ? d->cause : "", d ? "; next: " : "",
				       d ? d->next_step : ""));
	}
}

void
report_rowtab_tasks(struct report_rowtab *rt, const struct report *r, bool notes)
{
	memset(rt, 0, sizeof *rt);
	rt->r = r;
	rt->cells = xmalloc(sizeof *rt->cells);
	rt->cached_row = xmalloc(sizeof *rt->cached_row);
	*rt->cached_row = SIZE_MAX;
	for (size_t i = 0; i < COL_COUNT; i++) {
		const struct column_def *d = &report_columns[i];
		bool shown = false;

		for (size_t k = 0; k < NSHOWN && !shown; k++)
			shown = shown_cols[k] == d->id && (d->id != COL_GROUP || r->ngroups > 1);
		rt->cols[i] = (struct row_column){
			.name = d->name, .title = d->title,
			.kind = d->kind == COL_DURATION ? CELL_SECS : d->kind == COL_TIME ? CELL_TIME
			      : d->kind == COL_NUMBER ? CELL_NUMBER : CELL_TEXT,
			.decimals = 6, .flags = shown ? 0 : ROWCOL_NOT_IN_TABLE };
	}
	if (notes) {
		stop_notes(rt, true);
		stop_notes(rt, false);
	}
	rt->t = (struct row_table){ .name = "tasks", .cols = rt->cols, .ncols = COL_COUNT,
				    .nrows = r->nrows, .cell = task_cell, .ctx = rt,
				    .notes = (const char *const *)rt->notes, .nnotes = rt->nnotes };
}

static const struct row_column summary_cols[REPORT_SUMMARY_COLS] = {
	{ "group", "GROUP", CELL_TEXT, 0, 0 },
	{ "phase", "PHASE", CELL_TEXT, 0, 0 },
	{ "n", "N", CELL_COUNT, 0, 0 },
	{ "min_s", "MIN", CELL_SECS, 0, 0 },
	{ "p50_s", "P50", CELL_SECS, 0, 0 },
	{ "p90_s", "P90", CELL_SECS, 0, 0 },
	{ "p99_s", "P99", CELL_SECS, 0, 0 },
	{ "max_s", "MAX", CELL_SECS, 0, 0 },
	{ "mean_s", "MEAN", CELL_SECS, 0, 0 },
	{ "vs_baseline", "VS BASELINE", CELL_TEXT, 0, 0 },
};

static void
summary_cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
	     size_t size)
{
	const struct report_rowtab *rt = ctx;
	size_t g = rt->phase_of[row] / PHASE_COUNT, p = rt->phase_of[row] % PHASE_COUNT;
	const struct stats_summary *s = &rt->r->groups[g].phase[p];
	const double stat[] = { s->min, s->p50, s->p90, s->p99, s->max, s->mean };

	v->present = true;
	switch (col) {
	case 0: v->text = rt->r->groups[g].name; break;
	case 1: v->text = phase_defs[p].name; break;
	case 2: v->count = (int64_t)s->n; break;
	case 9:
		compare_delta_cell(rt->r, g, (int)p, true, scratch, size);
		v->text = scratch;
		v->present = scratch[0] != '\0';
		break;
	default:
		v->num = stat[col - 3];
		v->present = s->n > 0 && !isnan(v->num);
		break;
	}
}

/* compare_vs_lines' footnotes and legend, each once: the VS BASELINE cells carry their
 * markers; the median's interval ("¹") has no column here */
static void
footnote(void *ctx, enum compare_line_kind kind, const char *text)
{
	struct report_rowtab *rt = ctx;

	if (kind != CMP_LINE_NOTE || strncmp(text, "\xc2\xb9", 2) == 0)
		return;
	for (size_t i = 0; i < rt->nnotes; i++)
		if (strcmp(rt->notes[i], text) == 0)
			return;
	add_note(rt, xasprintf("%s", text));
}

void
report_rowtab_summary(struct report_rowtab *rt, const struct report *r)
{
	const char *ids[64];
	size_t counts[64], nd, n = 0;
	char text[1024];

	memset(rt, 0, sizeof *rt);
	rt->r = r;
	rt->phase_of = xcalloc(r->ngroups * PHASE_COUNT + 1, sizeof *rt->phase_of);
	for (size_t g = 0; g < r->ngroups; g++)
		for (size_t p = 0; p < PHASE_COUNT; p++)
			if (report_phase_shown(r, (enum phase_id)p))
				rt->phase_of[n++] = g * PHASE_COUNT + p;
	for (size_t g = 0; g < r->ngroups; g++)
		if (g != r->baseline)
			compare_vs_lines(r, g, &(struct compare_style){ 1000, true }, footnote, rt);
	for (size_t g = 0; g < r->ngroups; g++)
		if (report_cost_text(r, g, text, sizeof text))
			add_note(rt, xasprintf("%s: %s", r->groups[g].name, text));
	nd = report_diagnosis_counts(r, ids, counts, 64);
	for (size_t i = 0; i < nd; i++) {
		const struct diag_rule *d = diagnose_rule(ids[i]);

		add_note(rt, xasprintf("%zu x %s: %s; next: %s", counts[i], d->id, d->cause,
				       d->next_step));
	}
	/* the verdicts last, where the eye leaves the summary (as the table) */
	for (size_t g = 0; g < r->ngroups; g++) {
		if (g == r->baseline)
			continue;
		compare_verdict(r, g, text, sizeof text);
		add_note(rt, xasprintf("%s", text));
	}
	rt->t = (struct row_table){ .name = "summary", .cols = summary_cols,
				    .ncols = REPORT_SUMMARY_COLS, .nrows = n,
				    .cell = summary_cell, .ctx = rt,
				    .notes = (const char *const *)rt->notes, .nnotes = rt->nnotes };
	if (r->ngroups == 0)
		rt->t.name = "tasks";   /* "(no tasks)", as the table says */
}

void
report_rowtab_cleanup(struct report_rowtab *rt)
{
	for (size_t i = 0; i < rt->nnotes; i++)
		free(rt->notes[i]);
	free(rt->notes);
	free(rt->phase_of);
	free(rt->cells);
	free(rt->cached_row);
	memset(rt, 0, sizeof *rt);
}
