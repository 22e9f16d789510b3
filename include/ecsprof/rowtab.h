/* rowtab: a command's rows described once (columns with a name, a title and a kind, and a
 * function that gives one cell), so that every format the sink knows (sink.h) can write
 * them: the model says what a row holds, the writers decide how it looks.
 * Ownership: a row_table borrows its columns, its context and its notes; a cell's text is
 * borrowed until the next call of the cell function (it may point into the scratch buffer
 * the writer passes in). */
#ifndef ECSPROF_ROWTAB_H
#define ECSPROF_ROWTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a cell is written, in every format:
 *   CELL_TEXT   table/CSV/Markdown the text; JSON a string
 *   CELL_SECS   seconds, 1 decimal in the table and Markdown ("12.3"), 3 in CSV ("12.345",
 *               as report's phases), a JSON number rounded to the millisecond
 *   CELL_TIME   an instant (epoch ms): ISO 8601 UTC with ms everywhere but the table,
 *               which shows it as report's table does; JSON a string
 *   CELL_COUNT  an integer; JSON a number
 *   CELL_NUMBER a decimal with the column's `decimals`; JSON a number; a negative `decimals`
 *               -N is N significant digits instead ("%.3g": a p-value of 4.2e-13 stays
 *               one, not 0.000000), JSON a number rounded to them
 *   CELL_BOOL   "true"/"false"; JSON true/false
 * An empty cell (present false) is empty in the table and CSV, "" in Markdown, null in
 * JSON: never 0. */
enum cell_kind { CELL_TEXT, CELL_SECS, CELL_TIME, CELL_COUNT, CELL_NUMBER, CELL_BOOL };

enum row_column_flags {
	ROWCOL_NOT_IN_TABLE = 1 << 0,   /* CSV/JSON only (ARNs, instants): too wide for a screen */
	ROWCOL_WRAP = 1 << 1,           /* the table's last column, wrapped at the width */
};

struct row_column {
	const char *name;               /* CSV header and JSON key: stable, snake_case */
	const char *title;              /* the table's and Markdown's header */
	enum cell_kind kind;
	int decimals;                   /* CELL_NUMBER only; -N: N significant digits */
	unsigned flags;                 /* enum row_column_flags */
};

struct cell_value {
	bool present;                   /* false: no value (empty / null) */
	bool estimated;                 /* derived from settings, not observed: `~` in the table
					   and Markdown; CSV/JSON carry it in their own column */
	const char *text;               /* CELL_TEXT */
	double num;                     /* CELL_SECS, CELL_NUMBER */
	int64_t count;                  /* CELL_COUNT */
	int64_t ms;                     /* CELL_TIME */
	bool flag;                      /* CELL_BOOL */
};

/* Fills *out (zeroed by the caller) for row `row`, column `col` of the table. scratch (of
 * scratch_size bytes) is the caller's, for a text the function has to build. */
typedef void row_cell_fn(const void *ctx, size_t row, size_t col, struct cell_value *out,
			 char *scratch, size_t scratch_size);

struct row_table {
	const char *name;               /* JSON key when a document has several tables, and
					   Markdown's heading: "scaleouts", "phases", "findings" */
	const char *title;              /* a line above the table ("scale-outs of web"), or NULL */
	const struct row_column *cols;
	size_t ncols;
	size_t nrows;
	row_cell_fn *cell;
	const void *ctx;
	const char *const *notes;       /* lines after the table (advice, verdicts): the table
					   prints them wrapped, Markdown as a list, JSON as
					   "NAME_notes": [...], CSV not at all */
	size_t nnotes;
};

/* One row's cell (the writers' one way to ask), with `scratch` for a built text. */
void rowtab_cell(const struct row_table *t, size_t row, size_t col, struct cell_value *out,
		 char *scratch, size_t scratch_size);

#endif
