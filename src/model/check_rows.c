/* check_rows: the findings of `ecsprof check` as a row table for the sink (one row per
 * finding: severity, rule, path, message, fix), and the lines that close it: the price
 * and the verdict. After the contract's five columns, the figures the pull-forecast and
 * price findings state in words, for scripts (CSV and JSON; empty / null on every other
 * finding); not in the table or Markdown, whose reader has the message. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/check.h"

enum {
	COL_SEVERITY, COL_RULE, COL_PATH, COL_MESSAGE, COL_FIX,
	COL_P50, COL_P10, COL_P90, COL_USED, COL_RECORDED, COL_BASIS,
	COL_USD_HOUR, COL_USD_1000, COL_START,
};

static const struct row_column columns[] = {
	{ "severity", "SEVERITY", CELL_TEXT, 0, 0 },
	{ "rule", "RULE", CELL_TEXT, 0, 0 },
	{ "path", "PATH", CELL_TEXT, 0, 0 },
	{ "message", "MESSAGE", CELL_TEXT, 0, 0 },
	{ "fix", "FIX", CELL_TEXT, 0, ROWCOL_WRAP },
	{ "pull_p50_s", "PULL P50", CELL_SECS, 0, ROWCOL_NOT_IN_TABLE },
	{ "pull_p10_s", "PULL P10", CELL_SECS, 0, ROWCOL_NOT_IN_TABLE },
	{ "pull_p90_s", "PULL P90", CELL_SECS, 0, ROWCOL_NOT_IN_TABLE },
	{ "pulls_used", "PULLS USED", CELL_COUNT, 0, ROWCOL_NOT_IN_TABLE },
	{ "pulls_recorded", "PULLS", CELL_COUNT, 0, ROWCOL_NOT_IN_TABLE },
	{ "forecast_basis", "BASIS", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	{ "usd_per_hour", "$/H", CELL_NUMBER, 4, ROWCOL_NOT_IN_TABLE },
	{ "usd_per_1000_starts", "$/1000 STARTS", CELL_NUMBER, 2, ROWCOL_NOT_IN_TABLE },
	{ "start_s", "START", CELL_SECS, 0, ROWCOL_NOT_IN_TABLE },
};

static void
finding_cell(const void *ctx, size_t row, size_t col, struct cell_value *out, char *scratch,
	     size_t scratch_size)
{
	const struct check_findings *f = ctx;
	const struct check_finding *x = &f->v[row];

	(void)scratch;
	(void)scratch_size;
	switch (col) {
	case COL_SEVERITY: out->text = check_severity_name(x->severity); break;
	case COL_RULE: out->text = x->rule; break;
	case COL_PATH: out->text = x->path; break;
	case COL_MESSAGE: out->text = x->message; break;
	case COL_FIX: out->text = x->fix; break;
	case COL_BASIS: out->text = x->fig.basis; break;
	case COL_USED: case COL_RECORDED:
		out->count = col == COL_USED ? x->fig.pulls_used : x->fig.pulls_recorded;
		out->present = out->count >= 0;
		return;
	default:
		out->num = col == COL_P50 ? x->fig.pull_p50_s : col == COL_P10 ? x->fig.pull_p10_s :
			   col == COL_P90 ? x->fig.pull_p90_s : col == COL_USD_HOUR ?
			   x->fig.usd_per_hour : col == COL_USD_1000 ? x->fig.usd_per_1000_starts :
			   x->fig.start_s;
		out->present = isfinite(out->num);
		return;
	}
	out->present = out->text != NULL && out->text[0] != '\0';
}

void
check_verdict(const struct check_findings *f, char *out, size_t size)
{
	size_t e = check_count(f, CHECK_ERROR), w = check_count(f, CHECK_WARN);

	if (e > 0)
		snprintf(out, size, "will not start on Fargate: %zu error%s", e, e == 1 ? "" : "s");
	else
		snprintf(out, size, "will start: 0 errors, %zu warning%s", w, w == 1 ? "" : "s");
}

void
check_view_init(struct check_view *v, const struct check_findings *f)
{
	size_t n = 0;

	memset(v, 0, sizeof *v);
	v->f = f;
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].rule, "price") == 0)
			snprintf(v->price, sizeof v->price, "price: %s", f->v[i].message);
	check_verdict(f, v->verdict, sizeof v->verdict);
	if (v->price[0] != '\0')
		v->notes[n++] = v->price;
	v->notes[n++] = v->verdict;
	v->table = (struct row_table){
		.name = "findings",
		.title = NULL,
		.cols = columns,
		.ncols = sizeof columns / sizeof columns[0],
		.nrows = f->n,
		.cell = finding_cell,
		.ctx = f,
		.notes = v->notes,
		.nnotes = n,
	};
}
