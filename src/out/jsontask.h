/* jsontask: one task of the report as the compact JSON object --format json writes a line
 * (jsonout.c's document, watch's JSON Lines), byte for byte what a jansson object of it
 * dumped: see jsonfmt.h for the values' rules and ecsprof/jsonout.h for the fields.
 * Ownership: a scratch (jsontask_scratch_new) belongs to one thread, which frees it with
 * jsontask_scratch_free; jsontask_write borrows the report, the row and the buf. */
#ifndef ECSPROF_JSONTASK_H
#define ECSPROF_JSONTASK_H

#include "ecsprof/buf.h"
#include "ecsprof/report.h"

/* one task's cells are capped here (report_cell's cut): only broken input comes near */
#define JSONTASK_CELL_MAX ((size_t)16 << 20)

/* A thread's formatting state: the row's cells and a cell buffer. */
void *jsontask_scratch_new(void);
void jsontask_scratch_free(void *scratch);

/* The task of row as one JSON object (no newline) appended to b: 0, or -1 when b refuses
 * to grow (its cap). */
int jsontask_write(struct buf *b, const struct report *r, const struct report_row *row,
		   void *scratch);

/* A copy of s that is valid UTF-8 (the caller frees it): each stray byte becomes U+FFFD. */
char *jsontask_utf8_fix(const char *s);

#endif
