/* scaleout_out: the scale-out story as a table (sink_write_custom's writer for the table
 * format): one bar of stages per scale-out on a shared time axis (seconds from each
 * trigger, one scale for all), each stage's seconds under it and the advice below; the
 * notes naming the sources that were not read at the end. CSV, JSON and Markdown are the
 * sink's own writers over so_story_table().
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

/* A bar's pieces, shared by the writers: stage s from from_ms to to_ms after the bar's
 * start (the stages with instants where they are, the per-task ones as a typical task:
 * their p50s end to end from the first createdAt) */
struct scaleout_piece {
	enum so_stage s;
	int64_t from_ms, to_ms;
	bool estimated;
};
#define SCALEOUT_PIECES_MAX SO_STAGE_COUNT
/* r's pieces in drawing order into p (SCALEOUT_PIECES_MAX of them); how many */
size_t scaleout_out_pieces(const struct so_row *r, struct scaleout_piece *p);
/* The shared axis: the longest bar's length (ms), 0 when no row has one */
int64_t scaleout_out_scale(const struct so_story *st);
/* "desired 4 ARROW 30, " as far as the counts are known ("desired to 30, ", "desired
 * from 4, ", or nothing): an unknown count is left out, never shown as '?' or 0 */
void so_out_desired(FILE *f, const struct so_row *r, const char *arrow);

#endif
