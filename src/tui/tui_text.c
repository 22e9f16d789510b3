/* tui_text: the text primitives every view draws with (the table, details, summary, images,
 * scale-outs) and the pull bar's colour (the table, help and experiment views). A file of
 * its own, below the views and the screen that dispatches to them, so that none of them
 * calls back into another to draw a string or pick a colour. */
#include <curses.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/phase.h"
#include "ecsprof/tui_layout.h"
#include "tui_int.h"

void
put_fit(int y, int x, int w, const char *s, bool right, bool keep_end, const struct view *v)
{
	char buf[512];
	int n;

	if (w <= 0)
		return;
	n = tui_fit(s != NULL ? s : "", w, keep_end, v->ellipsis, buf, sizeof buf);
	if (right && n < w)
		x += w - n;
	mvaddstr(y, x, buf);
}

void
put_fit_text(const struct view *v, int y, int x, int w, const char *s)
{
	put_fit(y, x, w, s, false, false, v);
}

/* Yellow all but vanishes on a light background. A dark orange (256 colours) reads on
 * both; with 8 or 16 colours there is no orange, so where the terminal says its
 * background is light (COLORFGBG, "fg;bg" as rxvt, Konsole and others set it: bg 7 or
 * 15, white) the pull bar is black, the one colour no other bar uses. */
short
tui_pull_colour(void)
{
	const char *fgbg = getenv("COLORFGBG");
	const char *bg = fgbg != NULL ? strrchr(fgbg, ';') : NULL;

	if (COLORS >= 256)
		return phase_colours[PHASE_PULL].xterm256;
	if (bg != NULL && (strcmp(bg + 1, "7") == 0 || strcmp(bg + 1, "15") == 0))
		return COLOR_BLACK;
	return phase_colours[PHASE_PULL].ansi;
}
