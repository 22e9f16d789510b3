/* sink_int: what sink.c and the generic writers (sink_table.c, sink_csv.c, sink_json.c,
 * sink_md.c) share: a cell as text in each writer's style, and the buffered write to the
 * sink's FILE.
 * Ownership: nothing here keeps anything; texts are borrowed until the next call. */
#ifndef ECSPROF_SINK_INT_H
#define ECSPROF_SINK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/buf.h"
#include "ecsprof/sink.h"

/* room a cell function gets for a text it builds */
#define SINK_SCRATCH 8192

enum sink_style { SINK_STYLE_TABLE, SINK_STYLE_CSV, SINK_STYLE_MD };

/* The text of a cell as style writes it (rowtab.h's kinds), without the `~` of an
 * estimated value; NULL when the cell is empty (absent, a time that is TS_NONE, a number
 * that is not finite). out (of size bytes) holds a number's text; a text cell's own text
 * is returned as it is. */
const char *sink_cell_text(const struct sink *s, const struct row_column *c,
			   const struct cell_value *v, enum sink_style st, char *out,
			   size_t size);
/* a column whose values are numbers (right-aligned in the table and Markdown) */
bool sink_col_numeric(const struct row_column *c);
/* Writes b to the sink's FILE once it holds more than a chunk (or always when all is
 * set), and empties it; -1 and err (ERR_IO naming what) when the write or b's growth
 * (rc) failed. */
int sink_flush(struct sink *s, struct buf *b, bool all, int rc, const char *what,
	       struct err *err);

sink_doc_fn sink_table_doc;
sink_doc_fn sink_csv_doc;
sink_row_fn sink_csv_row;
sink_doc_fn sink_json_doc;
sink_row_fn sink_json_row;
sink_doc_fn sink_md_doc;

#endif
