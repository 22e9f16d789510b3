/* rowtab: the one way a writer asks a row table for a cell (rowtab.h). */
#include <string.h>

#include "ecsprof/rowtab.h"

void
rowtab_cell(const struct row_table *t, size_t row, size_t col, struct cell_value *out,
	    char *scratch, size_t scratch_size)
{
	memset(out, 0, sizeof *out);
	if (scratch_size > 0)
		scratch[0] = '\0';
	/* outside the table, or a table with no cell function: an empty cell, not a crash */
	if (t->cell == NULL || row >= t->nrows || col >= t->ncols)
		return;
	t->cell(t->ctx, row, col, out, scratch, scratch_size);
	/* a text cell that says it is present but has no text is empty: never a NULL deref */
	if (t->cols[col].kind == CELL_TEXT && out->present && out->text == NULL)
		out->present = false;
}
