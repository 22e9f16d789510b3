/* check_out: the table of `ecsprof check` for a reader: the findings grouped by severity
 * (errors first), each with its field path, what is wrong and the fix, then the price of
 * the size and the verdict; the sink calls it for the table format (sink_write_custom),
 * CSV, JSON and Markdown are the sink's own writers of the same row table.
 * Ownership: borrows the view; writes to the caller's stream. */
#ifndef ECSPROF_CHECK_OUT_H
#define ECSPROF_CHECK_OUT_H

#include <stdio.h>

#include "ecsprof/check.h"
#include "ecsprof/err.h"

struct check_out {
	const struct check_view *view;
	const char *title;      /* "rerank-api (rerank.json): Fargate platform 1.4.0, us-east-1" */
	int width;              /* wrap at this many columns */
};

/* sink_custom_fn's shape: ctx is a struct check_out. */
int check_out_table(FILE *f, void *ctx, struct err *err);

#endif
