/* tui_help: the help screen (? F1). Every key from tui_keys[] and the bar legend, the
 * descriptions wrapped under their own column rather than cut at the edge, scrolled with
 * the same keys as the details (j k PgUp PgDn g G); any other key goes back. The list of
 * warnings held while the screen is up (w) is drawn and scrolled the same way. */
#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/phase.h"
#include "ecsprof/tui.h"
#include "tui_int.h"

/* The table's keys (tui_view.c handles them); the man page's test reads them too. */
const struct tui_key_help tui_keys[] = {
	{ "Up Down j k", "move the selection" },
	{ "PgUp PgDn ^B ^F Space", "move a page" },
	{ "g Home / G End", "first / last task" },
	{ "> s F6 / <", "sort by the next / previous column" },
	{ "I", "invert the sort order" },
	{ "/", "filter: id, taskdef, status, AZ, group (Enter keeps, Esc clears)" },
	{ "Enter", "details of the task: timestamps, containers, stop reason, SOCI" },
	{ "Tab", "summary: groups side by side, percentiles, baseline, pull histogram" },
	{ "i", "images of the tasks shown (ECR): size, layers, SOCI index, advice, largest layers" },
	{ "Left Right h l", "summary: scroll through the groups" },
	{ "a", "waterfall aligned at createdAt / on one shared time axis (the scale-out's)" },
	{ "A", "shared axis: the scale-out being looked at / all tasks (outside it: < >)" },
	{ "r F5", "refresh now (tasks: the old tasks shown meanwhile; watch)" },
	{ "^L", "redraw the screen" },
	{ "w", "the warnings held while the screen is up (the bottom line shows the latest and their count; they are printed on standard error when the screen closes)" },
	{ "? F1", "this help (scroll with j k PgUp PgDn; any other key goes back)" },
	{ "q", "back; quit from the table (a fetch running is cancelled)" },
	{ "Esc", "back; clear the filter (at the table it does not quit)" },
	{ "F10 ^C", "quit at once, from any view" },
};
const size_t tui_nkeys = sizeof tui_keys / sizeof tui_keys[0];

#define KEYCOL 22

/* Cells in s[0..n): one per code point (the help text is ASCII but for the bar glyphs). */
static int
cells(const char *s, size_t n)
{
	int c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Draws "LEFT  TEXT" with TEXT wrapped at word boundaries into width - indent cells, as
 * help lines at..., of which those from top are on screen from row 2 to bottom; returns
 * the number of lines. at < 0 only counts. */
static int
wrap(const char *left, const char *text, int indent, int width, int at, int top, int bottom)
{
	int n = 0;
	int room = width - indent > 20 ? width - indent : 20;
	const char *p = text;

	do {
		size_t len = strlen(p), cut = len;

		if (cells(p, len) > room) {
			/* the last space that keeps the piece within room */
			size_t i = 0, lastsp = 0;

			for (int c = 0; p[i] != '\0' && c <= room; i++) {
				if (p[i] == ' ')
					lastsp = i;
				c += ((unsigned char)p[i] & 0xc0) != 0x80;
			}
			cut = lastsp > 0 ? lastsp : i - 1;
		}
		int row = 2 + at + n - top;

		if (at >= 0 && at + n >= top && row < bottom) {
			char buf[512];

			snprintf(buf, sizeof buf, "%-*s%.*s", indent, n == 0 ? left : "", (int)cut, p);
			mvaddstr(row, 1, buf);
		}
		n++;
		p += cut;
		while (*p == ' ')
			p++;
	} while (*p != '\0');
	return n;
}

static const char *
pull_colour_name(void)
{
	short c = tui_pull_colour();

	return c == phase_colours[PHASE_PULL].xterm256 ? "orange" : c == COLOR_BLACK ? "black" : "yellow";
}

static void
legend(const struct view *v, char *buf, size_t size)
{
	snprintf(buf, size,
		 "provision %s, pull %s, start %s, app to HEALTHY %s, stopped before RUNNING %s; %s after a time: the phase is still going; ! after a status: failed to start",
		 v->color ? "blue" : (v->utf8 ? "\u2591" : "="),
		 v->color ? pull_colour_name() : (v->utf8 ? "\u2593" : "#"),
		 v->color ? "green" : (v->utf8 ? "\u2588" : "+"),
		 v->color ? "cyan" : (v->utf8 ? "\u2592" : "-"),
		 v->color ? "magenta" : (v->utf8 ? "\u00b7" : "."),
		 v->utf8 ? "\u2026" : ">");
	/* watch marks what its last poll changed: say what the mark is, where it is shown */
	if (v->src->changed != NULL)
		snprintf(buf + strlen(buf), size - strlen(buf),
			 "; * after an id: new or changed phase since the last poll");
}

/* The scale-out view has keys and a bar of its own (tui_scaleout.c) */
static const struct tui_key_help *
keys_of(const struct view *v, size_t *n)
{
	bool so = v->back_mode == MODE_SCALEOUTS;

	*n = so ? tui_scaleout_nkeys : tui_nkeys;
	return so ? tui_scaleout_keys : tui_keys;
}

static void
bar_legend(const struct view *v, char *buf, size_t size)
{
	if (v->back_mode == MODE_SCALEOUTS)
		snprintf(buf, size, "one per scale-out on one axis for all, from its first "
			 "breaching datapoint (else its trigger): detect, react, schedule, then a "
			 "typical task's provision, pull, start and health (p50s), then target "
			 "registration; each stage in its colour (letters d r s p i c h t without "
			 "colour), an estimated one shaded; ~ before seconds: estimated");
	else
		legend(v, buf, size);
}

size_t
tui_warning_count(const struct view *v)
{
	return v->src->warnings != NULL ? v->src->warnings(v->src, SIZE_MAX, NULL, 0) : 0;
}

/* The held warnings, wrapped under a "- " from help line at (< 0: only counted); returns
 * the lines they take. */
static int
warning_lines(const struct view *v, int at, int top, int bottom)
{
	size_t n = tui_warning_count(v);
	int lines = 1;
	char buf[2048];

	if (at >= 0 && top == 0) {
		snprintf(buf, sizeof buf, "%zu warning%s, printed on standard error when the screen closes",
			 n, n == 1 ? "" : "s");
		attrset(A_BOLD);
		mvaddnstr(2, 1, buf, v->cols - 2);
		attrset(A_NORMAL);
	}
	for (size_t i = 0; i < n; i++) {
		v->src->warnings(v->src, i, buf, sizeof buf);
		lines += wrap("-", buf, 2, v->cols - 2, at < 0 ? -1 : lines, top, bottom);
	}
	return lines;
}

/* Lines the help takes at this width: the scroll keys stop at its end. */
static int
help_lines(const struct view *v)
{
	char buf[512];
	int n = 1;

	if (v->help_warnings)
		return warning_lines(v, -1, 0, 0);

	size_t nk;
	const struct tui_key_help *keys = keys_of(v, &nk);

	for (size_t i = 0; i < nk; i++)
		n += wrap(keys[i].keys, keys[i].what, KEYCOL + 1, v->cols - 2, -1, 0, 0);
	bar_legend(v, buf, sizeof buf);
	return n + 1 + wrap("Bars:", buf, KEYCOL + 1, v->cols - 2, -1, 0, 0);
}

static int
help_rows(const struct view *v)
{
	return v->lines - 4 > 1 ? v->lines - 4 : 1;   /* title, blank, footer, one spare */
}

void
tui_draw_help(struct view *v)
{
	int bottom = v->lines - 1, top = (int)v->help_top, n = 0;
	int total = help_lines(v), rows = help_rows(v);
	char buf[512];

	if (top > total - rows)
		top = total - rows > 0 ? total - rows : 0;
	v->help_top = (size_t)top;
	v->help_more = top + rows < total;
	for (int i = 2; i < bottom; i++) {
		move(i, 0);
		clrtoeol();
	}
	if (v->help_warnings) {
		warning_lines(v, 0, top, bottom);
		return;
	}
	attrset(A_BOLD);
	if (top == 0)
		mvaddstr(2, 1, "Keys");
	attrset(A_NORMAL);
	n++;
	size_t nk;
	const struct tui_key_help *keys = keys_of(v, &nk);

	for (size_t i = 0; i < nk; i++)
		n += wrap(keys[i].keys, keys[i].what, KEYCOL + 1, v->cols - 2, n, top, bottom);
	n++;
	bar_legend(v, buf, sizeof buf);
	wrap("Bars:", buf, KEYCOL + 1, v->cols - 2, n, top, bottom);
}

int
tui_help_key(struct view *v, int key)
{
	int rows = help_rows(v);

	switch (key) {
	case KEY_DOWN: case 'j':
		v->help_top++;
		return UI_REDRAW;
	case KEY_UP: case 'k':
		if (v->help_top > 0)
			v->help_top--;
		return UI_REDRAW;
	case KEY_NPAGE: case ' ': case 6:
		v->help_top += (size_t)rows;
		return UI_REDRAW;
	case KEY_PPAGE: case 2:
		v->help_top = v->help_top > (size_t)rows ? v->help_top - (size_t)rows : 0;
		return UI_REDRAW;
	case 'g': case KEY_HOME:
		v->help_top = 0;
		return UI_REDRAW;
	case 'G': case KEY_END:
		v->help_top = (size_t)help_lines(v);   /* clamped when drawn */
		return UI_REDRAW;
	case KEY_F(10):
		return UI_QUIT;
	default:
		v->mode = v->back_mode;
		return UI_REDRAW;
	}
}
