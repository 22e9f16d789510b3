/* xlsx_int: the workbook's plumbing shared by the writers of src/out (xlsx.c's report
 * workbook, scaleout_xlsx.c's scale-outs): the formats, the typed cell writers that make a
 * text safe for a cell, and the temporary file the zip is built in. */
#ifndef ECSPROF_XLSX_INT_H
#define ECSPROF_XLSX_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <xlsxwriter.h>

#include "ecsprof/err.h"

struct xlsx {
	lxw_workbook *wb;
	lxw_format *head, *when, *secs, *num, *usd, *ratio, *pct, *pval, *text;
	lxw_error error;     /* the first failure */
};

/* Keeps the first failure: the workbook reports it when closed */
void xlsx_note(struct xlsx *x, lxw_error e);
/* s as a cell may hold it (unsafe code points '?', cut below Excel's limit); "" is no cell */
void xlsx_put_text(struct xlsx *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *s);
/* a finite v only: NAN and infinities leave the cell empty */
void xlsx_put_num(struct xlsx *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v,
		  lxw_format *fmt);
/* epoch ms -> Excel's serial date (days since 1899-12-30, UTC) */
double xlsx_excel_date(int64_t ms);

/* Fills the workbook x->wb (its formats made) with the writer's sheets */
typedef void xlsx_fill_fn(struct xlsx *x, const void *ctx);
/* A workbook built by fill in a temporary file ($TMPDIR, else /tmp), then copied to f;
 * the temporary file is gone when it returns, and on Ctrl-C. */
int xlsx_book(FILE *f, bool constant_memory, xlsx_fill_fn *fill, const void *ctx,
	      struct err *err);

#endif
