/* tui_diff: what `ecsprof diff` shows on a terminal (--format tui, the default when both
 * ends are one): per phase the two windows side by side (tasks, p50, p90 of each) and the
 * change with its CI and p-value, then the explanation below (what changed, why, the power
 * lines: the lines the table prints, diff_lines). It reads the built diff's rows and texts
 * only: it computes no statistic and reads no JSON. tui_diff_layout() is the screen's
 * lines for a width (unit-tested, no curses); tui_diff_run() shows them, scrollable.
 * Ownership: the diff is borrowed for the call; a struct tui_dlines owns its lines
 * (tui_dlines_cleanup). */
#ifndef ECSPROF_TUI_DIFF_H
#define ECSPROF_TUI_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/diff.h"
#include "ecsprof/err.h"

enum tui_dcolor { TUI_D_PLAIN, TUI_D_HEAD, TUI_D_SLOWER, TUI_D_FASTER, TUI_D_DIM };

struct tui_dline {
	enum tui_dcolor color;
	char *text;                 /* UTF-8, at most the width's columns; owned */
};

struct tui_dlines {
	struct tui_dline *v;
	size_t n;
	size_t head_n;              /* the first lines are the phases' column header: the
				     * screen keeps them in place while the rest scrolls */
	size_t phases_end;          /* the lines up to here are the side-by-side phases */
};

/* The lines of d at cols columns (a line longer than cols is wrapped, its continuations
 * indented). */
void tui_diff_layout(const struct diff *d, int cols, struct tui_dlines *out);
void tui_dlines_cleanup(struct tui_dlines *l);

/* Shows d until q, Esc or Ctrl-C: a title line, the column header (fixed), the lines, a key
 * line; j/k, arrows, PgUp/PgDn, Space, Home/End scroll the lines below the header. -1 with err when stdin/stdout is not a terminal or
 * TERM is unusable. */
int tui_diff_run(const struct diff *d, const char *title, bool no_color, struct err *err);

#endif
