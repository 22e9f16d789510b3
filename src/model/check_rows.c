/* check_rows: the findings of `ecsprof check` as a row table for the sink (one row per
 * finding: severity, rule, path, message, fix), and the lines that close it: the price
 * and the verdict. */
#include <stdio.h>
#include <string.h>

#include "ecsprof/check.h"

enum { COL_SEVERITY, COL_RULE, COL_PATH, COL_MESSAGE, COL_FIX };

static const struct row_column columns[] = {
	{ "severity", "SEVERITY", CELL_TEXT, 0, 0 },
	{ "rule", "RULE", CELL_TEXT, 0, 0 },
	{ "path", "PATH", CELL_TEXT, 0, 0 },
	{ "message", "MESSAGE", CELL_TEXT, 0, 0 },
	{ "fix", "FIX", CELL_TEXT, 0, ROWCOL_WRAP },
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
	default: out->text = x->fix; break;
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
