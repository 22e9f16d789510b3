/* tui_scaleout: the scale-out view's arithmetic as plain functions, free of curses, so
 * that the bars on the shared axis and the axis' ticks can be unit-tested. The rows and
 * their pieces are the model's (so_row_pieces): nothing here is computed again.
 * Ownership: nothing here allocates; every output goes into caller-provided storage. */
#ifndef ECSPROF_TUI_SCALEOUT_H
#define ECSPROF_TUI_SCALEOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ecsprof/scaleout_story.h"

#define TUI_SO_NONE (-1)

/* cells[0..width): the stage (enum so_stage) in each cell of r's bar on the shared axis
 * of scale_ms (so_story_scale), TUI_SO_NONE where there is none; est[i] (est may be NULL)
 * whether that stage is estimated. Later pieces are drawn over earlier ones, as the
 * table's bar; a piece is never narrower than one cell. */
void tui_so_cells(const struct so_row *r, int64_t scale_ms, int width, signed char *cells,
		  bool *est);
/* The axis' step in seconds: the smallest round step (10 s, 15 s, 30 s, 1, 2, 5, 10, 15,
 * 30 min, 1 h, ...) whose ticks are at least min_cells apart on a bar of width cells for
 * scale_ms; 0 when there is no axis (scale_ms or width not positive). */
int tui_so_tick_s(int64_t scale_ms, int width, int min_cells);
/* The cell of t_ms (from the bar's start) on that axis: floor(t * width / scale) */
int tui_so_cell_of(int64_t t_ms, int64_t scale_ms, int width);

#endif
