/* tui_text: the text primitives every view draws with (the table, details, summary, images,
 * scale-outs). A file of its own, below the views and the screen that dispatches to them,
 * so that none of them calls back into another to draw a string. */
#include <curses.h>
#include <stdbool.h>

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
