/* sink_csv: any row table as CSV (RFC 4180, LF line ends): a header of the columns'
 * names, then one line per row, each cell through csv_add_cell (the quoting and the
 * formula neutralising of every CSV ecsprof writes). Several tables are written one
 * after the other, a blank line between them. Rows stream (watch): the header before
 * the first. */
#include <stdlib.h>

#include "ecsprof/csv.h"
#include "ecsprof/xalloc.h"
#include "sink_int.h"

static int
add_header(const struct row_table *t, struct buf *b)
{
	int rc = 0;

	for (size_t c = 0; c < t->ncols; c++)
		rc |= (c ? buf_addc(b, ',') : 0) | csv_add_cell(b, t->cols[c].name, true);
	return rc | buf_addc(b, '\n');
}

static int
add_row(const struct sink *s, const struct row_table *t, size_t row, struct buf *b,
	char *scratch)
{
	int rc = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		struct cell_value v;
		char num[64];
		const char *text;

		rowtab_cell(t, row, c, &v, scratch, SINK_SCRATCH);
		text = sink_cell_text(s, &t->cols[c], &v, SINK_STYLE_CSV, num, sizeof num);
		rc |= (c ? buf_addc(b, ',') : 0) |
		      csv_add_cell(b, text != NULL ? text : "", t->cols[c].kind == CELL_TEXT);
	}
	return rc | buf_addc(b, '\n');
}

int
sink_csv_doc(struct sink *s, const struct row_table *const *tables, size_t n, struct err *err)
{
	struct buf b;
	char *scratch = xmalloc(SINK_SCRATCH);
	int rc = 0;

	buf_init(&b, BUF_MAX_DEFAULT);
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = sink_flush(s, &b, false, (i ? buf_addc(&b, '\n') : 0) |
				add_header(tables[i], &b), "csv", err);
		for (size_t r = 0; r < tables[i]->nrows && rc == 0; r++)
			rc = sink_flush(s, &b, false, add_row(s, tables[i], r, &b, scratch), "csv",
					err);
	}
	if (rc == 0)
		rc = sink_flush(s, &b, true, 0, "csv", err);
	buf_cleanup(&b);
	free(scratch);
	return rc;
}

int
sink_csv_row(struct sink *s, const struct row_table *t, size_t row, struct err *err)
{
	struct buf b;
	char *scratch = xmalloc(SINK_SCRATCH);
	int rc = 0;

	buf_init(&b, BUF_MAX_DEFAULT);
	if (!s->header_done)
		rc |= add_header(t, &b);
	rc |= add_row(s, t, row, &b, scratch);
	rc = sink_flush(s, &b, true, rc, "csv", err);
	if (rc == 0)
		s->header_done = true;
	buf_cleanup(&b);
	free(scratch);
	return rc;
}
