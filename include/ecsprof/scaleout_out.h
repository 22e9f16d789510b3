/* scaleout_out: the scale-out story as a table (sink_write_custom's writer for the table
 * format): one bar of stages per scale-out on a shared time axis (seconds from each
 * trigger, one scale for all), each stage's seconds under it and the advice below; the
 * notes naming the sources that were not read at the end. CSV, JSON and Markdown are the
 * sink's own writers over so_story_table(); the bars' layout is the model's
 * (so_row_pieces, so_story_scale).
 * Ownership: borrows the story; writes to the caller's FILE. */
#ifndef ECSPROF_SCALEOUT_OUT_H
#define ECSPROF_SCALEOUT_OUT_H

#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/scaleout_story.h"

struct scaleout_out {
	const struct so_story *st;
	int width;                      /* columns; <= 0: 100 */
};

/* sink_custom_fn: ctx is a struct scaleout_out */
int scaleout_out_table(FILE *f, void *ctx, struct err *err);
/* The same as one self-contained HTML page (no script, nothing fetched): an SVG bar of
 * stages per scale-out on the shared axis, the seconds and the advice, the notes */
int scaleout_out_html(FILE *f, void *ctx, struct err *err);
/* The same as a workbook (scaleout_xlsx.c): a "Scale-outs" sheet of the contract's columns,
 * one row per scale-out, typed (dates, numbers, booleans) with the notes below, and a
 * "Stages" sheet with the bars as a stacked bar chart on the shared axis */
int scaleout_out_xlsx(FILE *f, void *ctx, struct err *err);
/* "desired 4 ARROW 30, " as far as the counts are known ("desired to 30, ", "desired
 * from 4, ", or nothing): an unknown count is left out, never shown as '?' or 0 */
void so_out_desired(FILE *f, const struct so_row *r, const char *arrow);

#endif
