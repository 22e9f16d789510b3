/* tui_scaleout: the scale-out view (`scaleout`, `report --scaleout` on a terminal). One
 * line per scale-out: when, what triggered it, the desired count and the total, then its
 * bar of stages on the axis every row shares (the model's pieces, so_row_pieces, in the
 * stages' colours); under them the selected scale-out's stages and its advice, wrapped.
 * Enter shows its tasks in the task table (tui_scaleout_has filters them), q/Esc there
 * come back. The rows come from the model; this file only places and draws them. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/tui_scaleout.h"
#include "tui_int.h"

#define SO_LABEL_W 44        /* "11-30 14:01:53 deployment 30 rolling   ~327s" */
#define SO_BAR_MAX 400

const struct tui_key_help tui_scaleout_keys[] = {
	{ "Up Down j k", "move the selection among the scale-outs" },
	{ "g Home / G End", "first / last scale-out" },
	{ "Enter", "the tasks of the selected scale-out in the task table (Tab there: their summary; q or Esc: back)" },
	{ "? F1", "this help (any other key goes back)" },
	{ "q", "quit (from a scale-out's tasks: back to the scale-outs)" },
	{ "F10 ^C", "quit at once, from any view" },
};
const size_t tui_scaleout_nkeys = sizeof tui_scaleout_keys / sizeof tui_scaleout_keys[0];

/* The letters of the table's bar (scaleout_out.c), for a screen without colour */
static const char so_letters[SO_STAGE_COUNT] = {
	[SO_DETECT] = 'd', [SO_REACT] = 'r', [SO_SCHEDULE] = 's', [SO_LAUNCH] = 'l',
	[SO_PROVISION] = 'p', [SO_ATTACH] = 'a', [SO_WAIT] = 'w', [SO_PULL] = 'i',
	[SO_START] = 'c', [SO_HEALTH] = 'h', [SO_REGISTER] = 't', [SO_TOTAL] = ' ',
};

int
tui_so_cell_of(int64_t t_ms, int64_t scale_ms, int width)
{
	if (scale_ms <= 0 || width <= 0)
		return 0;
	return (int)(t_ms * width / scale_ms);
}

void
tui_so_cells(const struct so_row *r, int64_t scale_ms, int width, signed char *cells,
	     bool *est)
{
	struct so_piece p[SO_PIECES_MAX];
	size_t n = so_row_pieces(r, p);

	for (int i = 0; i < width; i++) {
		cells[i] = TUI_SO_NONE;
		if (est != NULL)
			est[i] = false;
	}
	for (size_t k = 0; k < n && scale_ms > 0; k++) {
		int a = tui_so_cell_of(p[k].from_ms, scale_ms, width);
		int b = tui_so_cell_of(p[k].to_ms, scale_ms, width);

		if (b <= a)
			b = a + 1;   /* a stage is never invisible */
		for (int i = a < 0 ? 0 : a; i < b && i < width; i++) {
			cells[i] = (signed char)p[k].s;
			if (est != NULL)
				est[i] = p[k].estimated;
		}
	}
}

int
tui_so_tick_s(int64_t scale_ms, int width, int min_cells)
{
	static const int steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
				     7200, 21600, 43200, 86400 };

	if (scale_ms <= 0 || width <= 0)
		return 0;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if ((int64_t)steps[i] * 1000 * width / scale_ms >= min_cells)
			return steps[i];
	return steps[sizeof steps / sizeof steps[0] - 1];
}

void
tui_scaleout_colours(void)
{
	for (int k = 0; k < SO_STAGE_COUNT; k++) {
		short c = so_stage_colours[k].ansi;

		if (COLORS >= 256 && so_stage_colours[k].xterm256 >= 0)
			c = so_stage_colours[k].xterm256;
		init_pair((short)(CP_STAGE0 + k), c, -1);
	}
}

bool
tui_scaleout_has(const struct view *v, const struct task *t)
{
	const struct so_row *r;

	if (v->so_shown < 0 || v->src->scaleouts == NULL ||
	    (size_t)v->so_shown >= v->src->scaleouts->n)
		return true;
	r = &v->src->scaleouts->rows[v->so_shown];
	for (size_t i = 0; i < r->ntasks; i++)
		if (r->tasks[i] == t)
			return true;
	return false;
}

static void
when_text(int64_t ms, char *out, size_t size)
{
	char iso[TIMEUTIL_ISO_LEN];

	timeutil_format_iso(ms, iso);
	/* "2026-11-30T14:01:53.612Z" -> "11-30 14:01:53" */
	if (strlen(iso) >= 19)
		snprintf(out, size, "%.5s %.8s", iso + 5, iso + 11);
	else
		snprintf(out, size, "?");
}

void
tui_scaleout_title(const struct view *v, char *out, size_t size)
{
	const struct so_story *st = v->src->scaleouts;
	char when[32];

	out[0] = '\0';
	if (st == NULL || v->so_shown < 0 || (size_t)v->so_shown >= st->n)
		return;
	when_text(st->rows[v->so_shown].trigger_ms, when, sizeof when);
	/* short: the task count goes at the right of the same line; the footer says q/Esc */
	snprintf(out, size, "  scale-out %ld of %zu, %s", v->so_shown + 1, st->n, when);
}

static void
label(const struct so_row *r, char *out, size_t size)
{
	static const char *const words[] = { "alarm", "activity", "deployment", "manual" };
	char when[32], desired[64], total[24];
	double t = so_row_seconds(r, SO_TOTAL);

	when_text(r->trigger_ms, when, sizeof when);
	/* the model's words, as the table's: an unknown count is left out, never '?' */
	so_row_desired_text(r, "->", true, desired, sizeof desired);
	if (isnan(t))
		snprintf(total, sizeof total, "-");
	else
		snprintf(total, sizeof total, "%s%.0fs", so_row_estimated(r, SO_TOTAL) ? "~" : "", t);
	snprintf(out, size, "%s %-10s %-10s %6s", when, words[r->trigger], desired, total);
}

static void
draw_bar(const struct view *v, int y, int x, int w, const struct so_row *r, int64_t scale)
{
	signed char cells[SO_BAR_MAX];
	bool est[SO_BAR_MAX];

	tui_so_cells(r, scale, w, cells, est);
	for (int i = 0; i < w; i++) {
		int s = cells[i];

		if (s == TUI_SO_NONE) {
			mvaddstr(y, x + i, v->utf8 ? "\u00b7" : ".");
			continue;
		}
		if (v->color) {
			attron(COLOR_PAIR(CP_STAGE0 + s) | (est[i] ? A_DIM : 0));
			mvaddstr(y, x + i, v->utf8 ? (est[i] ? "\u2592" : "\u2588") : "#");
			attroff(COLOR_PAIR(CP_STAGE0 + s) | A_DIM);
		} else {
			mvaddch(y, x + i, (chtype)so_letters[s]);
		}
	}
}

static void
draw_axis(const struct view *v, int y, int x, int w, int64_t scale)
{
	int step = tui_so_tick_s(scale, w, 6), last = -1;

	move(y, 0);
	clrtoeol();
	char head[64];

	snprintf(head, sizeof head, "%-14s %-10s %-10s %6s", "when", "trigger", "desired", "total");
	put_fit_text(v, y, 1, x - 2, head);
	for (int64_t t = 0; step > 0 && t * 1000 <= scale; t += step) {
		int c = tui_so_cell_of(t * 1000, scale, w);
		char lab[24];

		if (t >= 3600)
			snprintf(lab, sizeof lab, "|%lldh%02lld", (long long)(t / 3600),
				 (long long)(t % 3600 / 60));
		else if (t >= 60 && t % 60 == 0)
			snprintf(lab, sizeof lab, "|%lldm", (long long)(t / 60));
		else
			snprintf(lab, sizeof lab, "|%llds", (long long)t);
		if (c <= last || c + (int)strlen(lab) > w)
			continue;
		mvaddstr(y, x + c, lab);
		last = c + (int)strlen(lab);
	}
}

/* "LEAD text" wrapped at width from row y; returns the next row (stops at bottom) */
static int
wrapped(const struct view *v, int y, int bottom, const char *lead, const char *text)
{
	int indent = (int)strlen(lead) + 2, room = v->cols - indent - 1;
	const char *p = text;

	if (room < 20)
		room = 20;
	mvaddstr(y, 1, lead);
	while (*p != '\0' && y < bottom) {
		int len = (int)strlen(p), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = room;
		}
		mvaddnstr(y, indent, p, cut);
		y++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return y;
}

static void
stage_text(const struct so_row *r, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int k = 0; k < SO_STAGE_COUNT && len < size; k++) {
		double s = so_row_seconds(r, (enum so_stage)k);
		int n;

		if (k == SO_ATTACH || k == SO_WAIT || k == SO_TOTAL || isnan(s))
			continue;
		if (so_stage_defs[k].per_task)
			n = snprintf(out + len, size - len, "%s%s p50 %.1fs", len ? ", " : "",
				     so_stage_defs[k].name, s);
		else
			n = snprintf(out + len, size - len, "%s%s %s%.1fs", len ? ", " : "",
				     so_stage_defs[k].name, so_row_estimated(r, (enum so_stage)k) ?
				     "~" : "", s);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

/* The stages' colours (letters without colour), wrapped at the width; the next row */
static int
legend(const struct view *v, int y, int bottom)
{
	static const enum so_stage shown[] = { SO_DETECT, SO_REACT, SO_SCHEDULE, SO_PROVISION,
					       SO_PULL, SO_START, SO_HEALTH, SO_REGISTER };
	int x = 1;

	for (size_t i = 0; i < sizeof shown / sizeof shown[0] && y < bottom; i++) {
		const char *name = so_stage_defs[shown[i]].name;

		if (x > 1 && x + (int)strlen(name) + 2 >= v->cols) {
			x = 1;
			if (++y >= bottom)
				break;
		}
		if (v->color) {
			attron(COLOR_PAIR(CP_STAGE0 + shown[i]));
			mvaddstr(y, x, v->utf8 ? "\u2588" : "#");
			attroff(COLOR_PAIR(CP_STAGE0 + shown[i]));
		} else {
			mvaddch(y, x, (chtype)so_letters[shown[i]]);
		}
		mvaddstr(y, x + 2, name);
		x += (int)strlen(name) + 4;
	}
	return y + 1;
}

void
tui_draw_scaleouts(struct view *v)
{
	const struct so_story *st = v->src->scaleouts;
	int64_t scale = so_story_scale(st);
	int bx = SO_LABEL_W + 2, bw = v->cols - bx - 1, bottom = v->lines - 1;
	int list_rows = (v->lines - 4) / 2, y;
	char buf[2048];

	if (bw > SO_BAR_MAX)
		bw = SO_BAR_MAX;
	move(1, 0);
	clrtoeol();
	snprintf(buf, sizeof buf, "%zu scale-out%s, from the trigger to the last new task serving; "
		 "the bar is %.0f s", st->n, st->n == 1 ? "" : "s", (double)scale / 1000.0);
	put_fit_text(v, 1, 0, v->cols, buf);
	if (st->n == 0) {
		mvaddstr(3, 1, "no scale-out in this data (a rise of the desired count)");
		return;
	}
	if (list_rows < 1)
		list_rows = 1;
	if ((size_t)list_rows > st->n)
		list_rows = (int)st->n;
	if (v->so_sel >= st->n)
		v->so_sel = st->n - 1;
	if (v->so_sel < v->so_top)
		v->so_top = v->so_sel;
	if (v->so_sel >= v->so_top + (size_t)list_rows)
		v->so_top = v->so_sel - (size_t)list_rows + 1;
	if (bw >= 10)
		draw_axis(v, 2, bx, bw, scale);
	y = 3;
	for (size_t i = v->so_top; i < st->n && y < 3 + list_rows; i++, y++) {
		bool sel = i == v->so_sel;

		label(&st->rows[i], buf, sizeof buf);
		if (sel)
			attron(A_REVERSE);
		mvaddstr(y, 0, sel ? ">" : " ");
		put_fit_text(v, y, 1, SO_LABEL_W, buf);
		if (sel)
			attroff(A_REVERSE);
		if (bw >= 10)
			draw_bar(v, y, bx, bw, &st->rows[i], scale);
	}
	y = legend(v, y, bottom) + 1;
	const struct so_row *r = &st->rows[v->so_sel];
	char head[700], desired[128];

	so_row_desired_text(r, "->", false, desired, sizeof desired);
	snprintf(head, sizeof head, "%s%s%s, %s%s%zu task%s started%s%s", r->cluster,
		 r->cluster[0] ? "/" : "", r->service, desired, desired[0] ? ", " : "",
		 r->tasks_started,
		 r->tasks_started == 1 ? "" : "s", r->trigger_name[0] ? ": " : "", r->trigger_name);
	attron(A_BOLD);
	put_fit_text(v, y++, 1, v->cols - 2, head);
	attroff(A_BOLD);
	stage_text(r, buf, sizeof buf);
	if (y < bottom)
		y = wrapped(v, y, bottom, "stages:", buf);
	if (y < bottom && r->advice != NULL && r->advice[0] != '\0')
		y = wrapped(v, y, bottom, "advice:", r->advice);
	for (size_t i = 0; i < st->nnotes && y < bottom; i++)
		y = wrapped(v, y, bottom, "note:", st->notes[i]);
}

int
tui_scaleout_key(struct view *v, int key)
{
	size_t n = v->src->scaleouts->n;

	switch (key) {
	case KEY_DOWN: case 'j':
		if (v->so_sel + 1 < n)
			v->so_sel++;
		return UI_REDRAW;
	case KEY_UP: case 'k':
		if (v->so_sel > 0)
			v->so_sel--;
		return UI_REDRAW;
	case 'g': case KEY_HOME:
		v->so_sel = 0;
		return UI_REDRAW;
	case 'G': case KEY_END:
		v->so_sel = n > 0 ? n - 1 : 0;
		return UI_REDRAW;
	case '\n': case '\r': case KEY_ENTER:
		if (n == 0)
			return UI_NONE;
		v->so_shown = (long)v->so_sel;
		v->so_rep = NULL;
		if (v->src->scaleout_report != NULL) {
			struct err err = { 0 };

			/* the summary (Tab) is then of this scale-out's tasks alone */
			v->so_rep = v->src->scaleout_report(v->src, v->so_shown, &err);
			if (v->so_rep == NULL)
				snprintf(v->message, sizeof v->message, "%s", err.msg);
		}
		v->mode = MODE_TABLE;
		v->filter_len = 0;
		v->filter[0] = '\0';
		return UI_REFILTER | UI_REDRAW;
	case 'q':
		return UI_QUIT;
	default:
		return UI_NONE;
	}
}
