/* tui: the curses side of the terminal UI. A view model (mode, filter, sort, selection,
 * scroll) is changed only by key handlers, which return what must happen next as a
 * reaction bitmask (htop's Htop_Reaction); the draw functions read the model and draw
 * only the rows on screen, so 50,000 tasks cost no more per key than 50. The only file
 * that includes curses. */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "ecsprof/phase.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/tui_layout.h"
#include "ecsprof/xalloc.h"

enum ui_reaction {
	UI_NONE = 0,
	UI_REDRAW = 1 << 0,
	UI_RESORT = 1 << 1,
	UI_REFILTER = 1 << 2,
	UI_REFRESH = 1 << 3,
	UI_QUIT = 1 << 4,
};

enum ui_mode { MODE_TABLE, MODE_DETAILS, MODE_SUMMARY, MODE_HELP };
enum bar_mode { BAR_ALIGNED, BAR_SHARED };

enum ui_color {
	CP_PROVISION = 1,
	CP_PULL,
	CP_START,
	CP_OTHER,
	CP_FAILED,
	CP_TITLE,
};

const struct tui_key_help tui_keys[] = {
	{ "Up Down j k", "move the selection" },
	{ "PgUp PgDn ^B ^F Space", "move a page" },
	{ "g Home / G End", "first / last task" },
	{ "> s F6 / <", "sort by the next / previous column" },
	{ "I", "invert the sort order" },
	{ "/", "filter: id, taskdef, status, AZ, group (Enter keeps, Esc clears)" },
	{ "Enter", "details of the task: timestamps, containers, stop reason, SOCI" },
	{ "Tab", "summary: groups side by side, percentiles, baseline, pull histogram" },
	{ "Left Right h l", "summary: scroll through the groups" },
	{ "a", "waterfall aligned at createdAt / on one shared time axis" },
	{ "r", "refresh now (tasks, watch)" },
	{ "^L", "redraw the screen" },
	{ "? F1", "this help" },
	{ "q Esc", "back; quit from the table" },
};
const size_t tui_nkeys = sizeof tui_keys / sizeof tui_keys[0];

struct view {
	struct tui_source *src;
	enum ui_mode mode, back_mode;
	enum bar_mode bar;
	bool color, utf8;
	enum tui_glyphs glyphs;
	const char *ellipsis;

	char filter[128];
	size_t filter_len;
	bool editing;

	int sort_tcol;                /* index into tui_cols, -1 = report order */
	int sort_report_col;          /* from --sort when it is not a table column */
	bool sort_desc;

	size_t *vis;                  /* indices into report->rows passing the filter */
	size_t nvis, vis_cap;
	size_t sel, top;
	size_t counts_running, counts_pending, counts_stopped, counts_other;

	struct tui_axis axis;
	bool any_live;                /* a visible task is still starting: bars grow */
	int64_t now_ms;
	int64_t data_now_ms;          /* saved data: when it was taken; TS_NONE = live */

	size_t detail_top;
	size_t summary_left;

	char message[600];            /* bottom line: an error from refresh, etc. */
	int lines, cols;
};

static volatile sig_atomic_t got_sigint;

static void
on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

static double
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static struct report *
rep(const struct view *v)
{
	return v->src->report;
}

static const struct task *
vis_task(const struct view *v, size_t i)
{
	return rep(v)->rows[v->vis[i]].task;
}

/* ---- the model side: filter, sort, axis ---- */

static bool
row_matches(const struct view *v, const struct report_row *row)
{
	const struct task *t = row->task;
	const char *f = v->filter;

	if (v->filter_len == 0)
		return true;
	return tui_contains_ci(t->id, f) || tui_contains_ci(t->taskdef, f) ||
	       tui_contains_ci(t->last_status, f) || tui_contains_ci(t->availability_zone, f) ||
	       (row->group < rep(v)->ngroups && tui_contains_ci(rep(v)->groups[row->group].name, f));
}

/* Where a bar ends: RUNNING, stopped, or now for a task still starting. */
static int64_t
task_end_ms(const struct task *t, int64_t now)
{
	int64_t since;

	if (t->ts[TS_STARTED] != TS_NONE)
		return t->ts[TS_STARTED];
	if (phase_current(t, &since) >= 0)
		return now;
	for (int f = TS_STOPPING; f <= TS_STOPPED; f++)
		if (t->ts[f] != TS_NONE)
			return t->ts[f];
	for (int f = TS_PULL_STOPPED; f >= TS_CREATED; f--)
		if (t->ts[f] != TS_NONE && f != TS_CONNECTIVITY)
			return t->ts[f];
	return TS_NONE;
}

static void
compute_axis(struct view *v)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, longest = 0;
	int64_t since;

	v->any_live = false;
	for (size_t i = 0; i < v->nvis; i++) {
		const struct task *t = vis_task(v, i);
		int64_t c = t->ts[TS_CREATED], e;
		if (c == TS_NONE)
			continue;
		if (phase_current(t, &since) >= 0)
			v->any_live = true;
		e = task_end_ms(t, v->now_ms);
		if (c < lo)
			lo = c;
		if (e != TS_NONE && e > hi)
			hi = e;
		if (e != TS_NONE && e - c > longest)
			longest = e - c;
	}
	if (lo == INT64_MAX) {
		v->axis.origin_ms = 0;
		v->axis.span_ms = 0;
	} else if (v->bar == BAR_SHARED) {
		v->axis.origin_ms = lo;
		v->axis.span_ms = hi > lo ? hi - lo : 1;
	} else {
		v->axis.origin_ms = 0;
		v->axis.span_ms = longest > 0 ? longest : 1;
	}
}

static void
refilter(struct view *v)
{
	struct report *r = rep(v);
	const struct task *keep = v->nvis > 0 && v->sel < v->nvis ? vis_task(v, v->sel) : NULL;

	if (v->vis_cap < r->nrows) {
		free(v->vis);
		v->vis_cap = r->nrows;
		v->vis = xcalloc(v->vis_cap ? v->vis_cap : 1, sizeof *v->vis);
	}
	v->nvis = 0;
	v->counts_running = v->counts_pending = v->counts_stopped = v->counts_other = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		if (!row_matches(v, &r->rows[i]))
			continue;
		v->vis[v->nvis++] = i;
		const char *s = r->rows[i].task->last_status;
		if (s == NULL)
			v->counts_other++;
		else if (strcmp(s, "RUNNING") == 0)
			v->counts_running++;
		else if (strcmp(s, "STOPPED") == 0 || strcmp(s, "DEPROVISIONING") == 0 ||
			 strcmp(s, "STOPPING") == 0 || strcmp(s, "DEACTIVATING") == 0)
			v->counts_stopped++;
		else
			v->counts_pending++;
	}
	v->sel = 0;
	if (keep != NULL)
		for (size_t i = 0; i < v->nvis; i++)
			if (vis_task(v, i) == keep) {
				v->sel = i;
				break;
			}
	compute_axis(v);
}

static void
resort(struct view *v)
{
	int col = v->sort_tcol >= 0 ? tui_cols[v->sort_tcol].report_col : v->sort_report_col;

	if (col >= 0)
		report_sort(rep(v), col, v->sort_desc);
}

/* ---- key handlers: change the view, say what else must happen ---- */

static int
page_rows(const struct view *v)
{
	int n = v->lines - 4;
	return n > 1 ? n : 1;
}

static int
move_sel(struct view *v, long delta)
{
	if (v->nvis == 0)
		return UI_NONE;
	long s = (long)v->sel + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)v->nvis)
		s = (long)v->nvis - 1;
	v->sel = (size_t)s;
	return UI_REDRAW;
}

static int
cycle_sort(struct view *v, int dir)
{
	int c = v->sort_tcol < 0 ? (dir > 0 ? 0 : TUI_COL_COUNT - 1) : v->sort_tcol + dir;

	/* past either end: back to no column, then around again */
	if (c >= TUI_COL_COUNT || c < 0)
		c = -1;
	v->sort_tcol = c;
	if (c < 0) {
		/* back to created order, as the report first showed it */
		v->sort_report_col = COL_CREATED_AT;
		v->sort_desc = false;
	}
	return UI_RESORT;
}

static int
key_filter(struct view *v, int key)
{
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		v->editing = false;
		return UI_REDRAW;
	}
	if (key == 27) {
		v->editing = false;
		v->filter_len = 0;
		v->filter[0] = '\0';
		return UI_REFILTER;
	}
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (v->filter_len > 0)
			v->filter[--v->filter_len] = '\0';
		return UI_REFILTER;
	}
	if (key >= 32 && key < 127 && v->filter_len + 1 < sizeof v->filter) {
		v->filter[v->filter_len++] = (char)key;
		v->filter[v->filter_len] = '\0';
		return UI_REFILTER;
	}
	return UI_NONE;
}

static int
key_table(struct view *v, int key)
{
	switch (key) {
	case KEY_DOWN: case 'j':
		return move_sel(v, 1);
	case KEY_UP: case 'k':
		return move_sel(v, -1);
	case KEY_NPAGE: case ' ': case 6:
		return move_sel(v, page_rows(v));
	case KEY_PPAGE: case 2:
		return move_sel(v, -page_rows(v));
	case KEY_HOME: case 'g':
		return move_sel(v, -(long)v->nvis);
	case KEY_END: case 'G':
		return move_sel(v, (long)v->nvis);
	case '>': case 's': case KEY_F(6):
		return cycle_sort(v, 1);
	case '<':
		return cycle_sort(v, -1);
	case 'I':
		v->sort_desc = !v->sort_desc;
		return UI_RESORT;
	case '/':
		v->editing = true;
		return UI_REDRAW;
	case '\n': case '\r': case KEY_ENTER:
		if (v->nvis == 0)
			return UI_NONE;
		v->mode = MODE_DETAILS;
		v->detail_top = 0;
		return UI_REDRAW;
	case '\t':
		v->mode = MODE_SUMMARY;
		return UI_REDRAW;
	case 'a':
		v->bar = v->bar == BAR_ALIGNED ? BAR_SHARED : BAR_ALIGNED;
		compute_axis(v);
		return UI_REDRAW;
	case 'r': case KEY_F(5):
		return UI_REFRESH;
	case 27:
		if (v->filter_len > 0) {
			v->filter_len = 0;
			v->filter[0] = '\0';
			return UI_REFILTER;
		}
		return UI_QUIT;
	case 'q':
		return UI_QUIT;
	default:
		return UI_NONE;
	}
}

static int
key_other(struct view *v, int key)
{
	switch (key) {
	case 'q': case 27: case KEY_LEFT:
		if (key == KEY_LEFT && v->mode != MODE_DETAILS)
			break;
		v->mode = MODE_TABLE;
		return UI_REDRAW;
	case '\n': case '\r': case KEY_ENTER:
		if (v->mode == MODE_DETAILS) {
			v->mode = MODE_TABLE;
			return UI_REDRAW;
		}
		return UI_NONE;
	case '\t':
		v->mode = v->mode == MODE_SUMMARY ? MODE_TABLE : MODE_SUMMARY;
		return UI_REDRAW;
	case 'r': case KEY_F(5):
		return UI_REFRESH;
	default:
		break;
	}
	if (v->mode == MODE_DETAILS) {
		switch (key) {
		case KEY_DOWN: case 'j':
			v->detail_top++;
			return UI_REDRAW;
		case KEY_UP: case 'k':
			if (v->detail_top > 0)
				v->detail_top--;
			return UI_REDRAW;
		case KEY_NPAGE: case ' ':
			v->detail_top += (size_t)page_rows(v);
			return UI_REDRAW;
		case KEY_PPAGE:
			v->detail_top = v->detail_top > (size_t)page_rows(v) ?
					v->detail_top - (size_t)page_rows(v) : 0;
			return UI_REDRAW;
		case 'g': case KEY_HOME:
			v->detail_top = 0;
			return UI_REDRAW;
		default:
			return UI_NONE;
		}
	}
	if (v->mode == MODE_SUMMARY) {
		switch (key) {
		case KEY_RIGHT: case 'l': case 'j': case KEY_DOWN:
			if (v->summary_left + 1 < rep(v)->ngroups)
				v->summary_left++;
			return UI_REDRAW;
		case KEY_LEFT: case 'h': case 'k': case KEY_UP:
			if (v->summary_left > 0)
				v->summary_left--;
			return UI_REDRAW;
		default:
			return UI_NONE;
		}
	}
	return UI_NONE;
}

static int
view_key(struct view *v, int key)
{
	if (key == KEY_RESIZE || key == 12) {
		if (key == 12)
			clearok(curscr, TRUE);
		return UI_REDRAW;
	}
	if (v->mode == MODE_TABLE && v->editing)
		return key_filter(v, key);
	if (v->mode == MODE_HELP) {
		v->mode = v->back_mode;
		return UI_REDRAW;
	}
	if (key == '?' || key == KEY_F(1)) {
		v->back_mode = v->mode;
		v->mode = MODE_HELP;
		return UI_REDRAW;
	}
	if (v->mode == MODE_TABLE)
		return key_table(v, key);
	return key_other(v, key);
}

/* ---- drawing ---- */

static void
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

static void
line_fill(int y, attr_t a, const struct view *v)
{
	move(y, 0);
	attrset(a);
	for (int x = 0; x < v->cols; x++)
		addch(' ');
}

static const char *
live_suffix(const struct view *v)
{
	return v->utf8 ? "\u2026" : "+";
}

static void
draw_duration(int y, int x, int w, const struct task *t, enum phase_id p, int cur, int64_t since,
	      const struct view *v)
{
	char buf[32], cell[40];
	int64_t ms = phase_ms(t, p);

	if (w <= 0)
		return;
	if (ms == TS_NONE && cur >= 0 && (cur == (int)p || p == PHASE_TOTAL)) {
		/* still in this phase: how long so far, marked as growing */
		int64_t from = p == PHASE_TOTAL ? t->ts[TS_CREATED] : since;
		tui_format_duration(v->now_ms - from, w - 1, buf, sizeof buf);
		snprintf(cell, sizeof cell, "%s%s", buf, live_suffix(v));
		attron(A_BOLD);
		put_fit(y, x, w, cell, true, false, v);
		attroff(A_BOLD);
		return;
	}
	tui_format_duration(ms, w, buf, sizeof buf);
	put_fit(y, x, w, buf, true, false, v);
}

static size_t
task_segments(const struct task *t, int64_t now, struct tui_seg *segs)
{
	static const enum tui_seg_kind kinds[3] = { TUI_SEG_PROVISION, TUI_SEG_PULL, TUI_SEG_START };
	static const enum ts_field marks[4] = { TS_CREATED, TS_PULL_STARTED, TS_PULL_STOPPED,
						TS_STARTED };
	int64_t since, end = task_end_ms(t, now);
	int cur = phase_current(t, &since);
	size_t n = 0;
	int last = -1;       /* index in marks of the last timestamp present */

	if (t->ts[TS_CREATED] == TS_NONE)
		return 0;
	for (int i = 0; i < 4; i++) {
		if (t->ts[marks[i]] == TS_NONE)
			continue;
		if (last >= 0) {
			/* a gap (a missing timestamp in between) is drawn as "other" */
			enum tui_seg_kind k = i == last + 1 ? kinds[last] : TUI_SEG_OTHER;
			segs[n++] = (struct tui_seg){ k, t->ts[marks[last]], t->ts[marks[i]] };
		}
		last = i;
	}
	if (last < 3 && end != TS_NONE && end > t->ts[marks[last]]) {
		/* still starting: the current phase grows to now; stopped early: "other" */
		enum tui_seg_kind k = cur >= 0 ? kinds[cur] : TUI_SEG_OTHER;
		segs[n++] = (struct tui_seg){ k, t->ts[marks[last]], end };
	}
	return n;
}

static short
seg_pair(uint8_t kind)
{
	switch (kind) {
	case TUI_SEG_PROVISION: return CP_PROVISION;
	case TUI_SEG_PULL: return CP_PULL;
	case TUI_SEG_START: return CP_START;
	default: return CP_OTHER;
	}
}

static void
draw_bar(int y, int x, int w, const struct task *t, const struct view *v, bool selected)
{
	struct tui_seg segs[5];
	struct tui_bar_cell cells[TUI_BAR_MAX_W];
	size_t n = task_segments(t, v->now_ms, segs);
	int64_t shift = 0;

	if (w <= 0)
		return;
	if (w > TUI_BAR_MAX_W)
		w = TUI_BAR_MAX_W;
	if (v->bar == BAR_ALIGNED)
		shift = t->ts[TS_CREATED];
	for (size_t i = 0; i < n; i++) {
		segs[i].from_ms -= shift;
		segs[i].to_ms -= shift;
	}
	tui_bar_cells(segs, n, v->axis.origin_ms, v->axis.span_ms, w,
		      v->utf8 && v->color, cells);
	move(y, x);
	for (int c = 0; c < w; c++) {
		attr_t a = selected ? A_REVERSE : A_NORMAL;
		if (v->color && cells[c].eighths > 0) {
			/* a coloured bar keeps its colours on the selected row too */
			a = COLOR_PAIR(seg_pair(cells[c].kind));
		}
		attrset(a);
		addstr(tui_bar_glyph(v->glyphs, v->color, &cells[c]));
	}
	attrset(A_NORMAL);
}

static bool
stopped_early(const struct task *t)
{
	return t->ts[TS_STARTED] == TS_NONE && t->last_status != NULL &&
	       strcmp(t->last_status, "STOPPED") == 0;
}

static void
draw_header(const struct view *v, const struct tui_columns *c, int y)
{
	char buf[128], a[32], b[32];

	attrset(A_BOLD | A_UNDERLINE);
	line_fill(y, A_BOLD | A_UNDERLINE, v);
	for (int i = 0; i < TUI_COL_COUNT; i++) {
		if (c->w[i] <= 0)
			continue;
		const char *title = tui_cols[i].title;
		if (i == TUI_COL_BAR) {
			/* the axis: where the bar starts and what its full width means */
			tui_format_duration(v->axis.span_ms, 6, b, sizeof b);
			if (v->bar == BAR_SHARED) {
				char iso[TIMEUTIL_ISO_LEN];
				timeutil_format_iso(v->axis.origin_ms, iso);
				snprintf(a, sizeof a, "%.8s", iso[0] ? iso + 11 : "");
				snprintf(buf, sizeof buf, "%s", a);
			} else {
				snprintf(buf, sizeof buf, "created+");
			}
			int w = c->w[i] - tui_text_width(b) - 1;
			put_fit(y, c->x[i], w, buf, false, false, v);
			put_fit(y, c->x[i], c->w[i], b, true, false, v);
			continue;
		}
		if (v->sort_tcol == i) {
			snprintf(buf, sizeof buf, "%s%s", title,
				 v->sort_desc ? (v->utf8 ? "\u25bc" : "v") : (v->utf8 ? "\u25b2" : "^"));
			title = buf;
		}
		put_fit(y, c->x[i], c->w[i], title, tui_cols[i].right, false, v);
	}
	attrset(A_NORMAL);
}

static void
draw_row(const struct view *v, const struct tui_columns *c, int y, size_t i)
{
	const struct report_row *row = &rep(v)->rows[v->vis[i]];
	const struct task *t = row->task;
	bool selected = i == v->sel;
	bool changed = v->src->changed != NULL && v->src->changed(v->src, t);
	int64_t since = 0;
	int cur = phase_current(t, &since);
	attr_t base = (selected ? A_REVERSE : A_NORMAL) | (changed ? A_BOLD : A_NORMAL);
	char status[40];

	line_fill(y, base, v);
	attrset(base);
	/* ids are hex: the first characters identify a task, an ellipsis would waste one */
	mvaddnstr(y, c->x[TUI_COL_ID], t->id != NULL ? t->id : "", c->w[TUI_COL_ID]);
	if (changed)
		mvaddstr(y, c->x[TUI_COL_ID] + c->w[TUI_COL_ID], "*");
	put_fit(y, c->x[TUI_COL_TASKDEF], c->w[TUI_COL_TASKDEF], t->taskdef, false, true, v);
	snprintf(status, sizeof status, "%s%s", t->last_status ? t->last_status : "",
		 stopped_early(t) ? "!" : "");
	if (stopped_early(t) && v->color)
		attron(COLOR_PAIR(CP_FAILED));
	put_fit(y, c->x[TUI_COL_STATUS], c->w[TUI_COL_STATUS], status, false, false, v);
	attrset(base);
	put_fit(y, c->x[TUI_COL_AZ], c->w[TUI_COL_AZ], t->availability_zone, false, true, v);
	draw_duration(y, c->x[TUI_COL_PROVISION], c->w[TUI_COL_PROVISION], t, PHASE_PROVISION, cur,
		      since, v);
	draw_duration(y, c->x[TUI_COL_PULL], c->w[TUI_COL_PULL], t, PHASE_PULL, cur, since, v);
	draw_duration(y, c->x[TUI_COL_START], c->w[TUI_COL_START], t, PHASE_START, cur, since, v);
	draw_duration(y, c->x[TUI_COL_TOTAL], c->w[TUI_COL_TOTAL], t, PHASE_TOTAL, cur, since, v);
	attrset(A_NORMAL);
	draw_bar(y, c->x[TUI_COL_BAR], c->w[TUI_COL_BAR], t, v, selected);
}

static void
draw_title(const struct view *v)
{
	char buf[512], st[256];

	line_fill(0, A_REVERSE, v);
	snprintf(buf, sizeof buf, " ecsprof  %s", v->src->title ? v->src->title : "");
	put_fit(0, 0, v->cols, buf, false, false, v);
	snprintf(buf, sizeof buf, "%zu/%zu tasks ", v->nvis, rep(v)->nrows);
	if (tui_text_width(buf) < v->cols)
		put_fit(0, v->cols - tui_text_width(buf), tui_text_width(buf), buf, false, false, v);
	attrset(A_NORMAL);
	st[0] = '\0';
	if (v->src->status != NULL)
		v->src->status(v->src, st, sizeof st);
	else
		snprintf(st, sizeof st, "running %zu  starting %zu  stopped %zu%s  axis: %s",
			 v->counts_running, v->counts_pending, v->counts_stopped,
			 v->counts_other ? "  other" : "",
			 v->bar == BAR_ALIGNED ? "aligned at createdAt" : "shared time");
	move(1, 0);
	clrtoeol();
	put_fit(1, 0, v->cols, st, false, false, v);
}

static void
draw_footer(const struct view *v)
{
	char buf[512];
	int y = v->lines - 1;

	move(y, 0);
	clrtoeol();
	if (v->editing) {
		snprintf(buf, sizeof buf, "/%s", v->filter);
		put_fit(y, 0, v->cols - 1, buf, false, true, v);
		move(y, tui_text_width(buf) < v->cols ? tui_text_width(buf) : v->cols - 1);
		return;
	}
	if (v->message[0] != '\0') {
		if (v->color)
			attron(COLOR_PAIR(CP_FAILED));
		put_fit(y, 0, v->cols, v->message, false, false, v);
		attrset(A_NORMAL);
		return;
	}
	const char *legend = v->mode == MODE_TABLE ?
		"?:help /:filter Enter:details Tab:summary s/I:sort a:axis q:quit" :
		v->mode == MODE_DETAILS ? "j/k:scroll  q/Esc/Enter:back  Tab:summary" :
		v->mode == MODE_SUMMARY ? "h/l:groups  Tab/q/Esc:back" : "any key: back";
	if (v->filter_len > 0 && v->mode == MODE_TABLE)
		snprintf(buf, sizeof buf, "filter: %s  (Esc clears)  %s", v->filter, legend);
	else
		snprintf(buf, sizeof buf, "%s", legend);
	attrset(A_DIM);
	put_fit(y, 0, v->cols, buf, false, false, v);
	attrset(A_NORMAL);
	/* the colour legend: which colour or glyph is which phase */
	if (v->mode == MODE_TABLE && v->cols >= 100) {
		int x = v->cols - 28;
		static const uint8_t k[3] = { TUI_SEG_PROVISION, TUI_SEG_PULL, TUI_SEG_START };
		static const char *const names[3] = { "provision", "pull", "start" };
		for (int i = 0; i < 3; i++) {
			struct tui_bar_cell cell = { k[i], 8 };
			if (v->color)
				attrset(COLOR_PAIR(seg_pair(k[i])));
			mvaddstr(y, x, tui_bar_glyph(v->glyphs, v->color, &cell));
			attrset(A_NORMAL);
			mvaddstr(y, x + 1, names[i]);
			x += (int)strlen(names[i]) + 2;
		}
	}
}

static void
draw_table(struct view *v)
{
	struct tui_columns c;
	int rows = v->lines - 4;

	tui_layout_columns(v->cols, &c);
	draw_header(v, &c, 2);
	if (rows < 1)
		return;
	v->top = tui_scroll_for(v->sel, v->top, (size_t)rows, v->nvis);
	for (int y = 0; y < rows; y++) {
		size_t i = v->top + (size_t)y;
		if (i >= v->nvis) {
			move(3 + y, 0);
			clrtoeol();
			continue;
		}
		draw_row(v, &c, 3 + y, i);
	}
	if (v->nvis == 0)
		put_fit(4, 2, v->cols - 2, v->filter_len > 0 ? "no task matches the filter" :
			"no tasks", false, false, v);
}

/* Details are built as lines once per draw of the selected task (one task: cheap). */
struct lines {
	char **v;
	size_t n, cap;
};

static void
lines_add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
lines_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char buf[2048];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = xstrdup(buf);
}

static void
lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static const char *
nz(const char *s)
{
	return s != NULL && s[0] != '\0' ? s : "-";
}

static void
build_details(const struct view *v, const struct report_row *row, struct lines *l)
{
	const struct task *t = row->task;
	const struct report *r = rep(v);
	char iso[TIMEUTIL_ISO_LEN], d[32];

	lines_add(l, "Task %s", nz(t->arn));
	lines_add(l, "  id %s  cluster %s  service %s", nz(t->id), nz(t->cluster), nz(t->service));
	lines_add(l, "  taskdef %s  group %s", nz(t->taskdef),
		  row->group < r->ngroups ? r->groups[row->group].name : "-");
	lines_add(l, "  status %s (desired %s)%s%s", nz(t->last_status), nz(t->desired_status),
		  t->health_status ? ", health " : "", t->health_status ? t->health_status : "");
	/* why it stopped comes first: it is what a failed start is opened for */
	if (t->stop_code != NULL || t->stopped_reason != NULL) {
		lines_add(l, "  stop code %s", nz(t->stop_code));
		lines_add(l, "  reason %s", nz(t->stopped_reason));
	}
	lines_add(l, "  %s %s %s, capacity %s, %s, cpu %s, memory %s", nz(t->launch_type),
		  nz(t->platform_family), nz(t->platform_version), nz(t->capacity_provider),
		  nz(t->availability_zone), nz(t->cpu), nz(t->memory));
	lines_add(l, "  started by %s", nz(t->started_by));
	lines_add(l, "  source %s", nz(t->source));
	lines_add(l, "  SOCI %s (evidence: %s)", soci_label_name(t->soci),
		  soci_evidence_name(t->soci_evidence));
	lines_add(l, "%s", "");
	lines_add(l, "Timestamps (UTC)                       since createdAt");
	for (int f = 0; f < TS_COUNT; f++) {
		int64_t ts = t->ts[f];
		timeutil_format_iso(ts, iso);
		d[0] = '\0';
		if (ts != TS_NONE && t->ts[TS_CREATED] != TS_NONE) {
			int64_t delta = ts - t->ts[TS_CREATED];
			if (delta >= 0)
				timeutil_format_secs(delta, d, sizeof d);
			else
				snprintf(d, sizeof d, "(before createdAt)");
		}
		lines_add(l, "  %-20s %-24s %s%s", ts_defs[f].json_name, ts == TS_NONE ? "-" : iso,
			  d[0] && d[0] != '(' ? "+" : "", d);
	}
	lines_add(l, "%s", "");
	lines_add(l, "Phases (seconds)");
	for (int p = 0; p < PHASE_COUNT; p++) {
		int64_t ms = phase_ms(t, (enum phase_id)p);
		timeutil_format_secs(ms, d, sizeof d);
		lines_add(l, "  %-13s %10s  %s%s", phase_defs[p].name, ms == TS_NONE ? "-" : d,
			  phase_defs[p].desc,
			  phase_is_negative(t, (enum phase_id)p) ? "  [negative: clock skew, dropped]" : "");
	}
	int64_t since;
	int cur = phase_current(t, &since);
	if (cur >= 0) {
		tui_format_duration(v->now_ms - since, 12, d, sizeof d);
		lines_add(l, "  now in %s for %s", phase_defs[cur].name, d);
	}
	lines_add(l, "%s", "");
	lines_add(l, "Containers (%zu)", t->ncontainers);
	for (size_t i = 0; i < t->ncontainers; i++) {
		const struct container *c = &t->containers[i];
		char ex[24] = "";
		if (c->has_exit_code)
			snprintf(ex, sizeof ex, ", exit %d", c->exit_code);
		lines_add(l, "  %s: %s%s", nz(c->name), nz(c->last_status), ex);
		lines_add(l, "    image        %s", nz(c->image));
		lines_add(l, "    digest       %s", nz(c->image_digest));
		if (c->snapshotter != NULL)
			lines_add(l, "    snapshotter  %s", c->snapshotter);
		if (c->reason != NULL)
			lines_add(l, "    reason       %s", c->reason);
	}
	if (t->ntags > 0) {
		lines_add(l, "%s", "");
		lines_add(l, "Tags");
		for (size_t i = 0; i < t->ntags; i++)
			lines_add(l, "  %s = %s", nz(t->tags[i].key), nz(t->tags[i].value));
	}
}

static void
draw_details(struct view *v)
{
	struct lines l = { 0 };
	int y = 2, bottom = v->lines - 1;

	if (v->nvis == 0 || v->sel >= v->nvis) {
		v->mode = MODE_TABLE;
		draw_table(v);
		return;
	}
	build_details(v, &rep(v)->rows[v->vis[v->sel]], &l);
	if (v->detail_top >= l.n)
		v->detail_top = l.n > 0 ? l.n - 1 : 0;
	for (size_t i = v->detail_top; i < l.n && y < bottom; i++) {
		/* long values (a stoppedReason) wrap rather than vanish */
		const char *s = l.v[i];
		int w = tui_text_width(s);
		bool heading = s[0] != ' ' && s[0] != '\0';
		if (heading)
			attrset(A_BOLD);
		do {
			char piece[1024];
			size_t off = 0;
			int cells = 0;
			while (s[off] != '\0' && cells < v->cols) {
				off++;
				while ((s[off] & 0xC0) == 0x80)
					off++;
				cells++;
			}
			snprintf(piece, sizeof piece, "%.*s", (int)off, s);
			move(y, 0);
			clrtoeol();
			mvaddstr(y, 0, piece);
			s += off;
			w -= cells;
			y++;
		} while (w > 0 && y < bottom);
		attrset(A_NORMAL);
	}
	for (; y < bottom; y++) {
		move(y, 0);
		clrtoeol();
	}
	lines_free(&l);
}

static void
draw_summary(struct view *v)
{
	struct report *r = rep(v);
	int pw = 38, npanels, y0 = 2;
	char buf[512], a[16], b[16];

	for (int y = y0; y < v->lines - 1; y++) {
		move(y, 0);
		clrtoeol();
	}
	if (r->ngroups == 0) {
		put_fit(y0, 1, v->cols - 1, "no groups", false, false, v);
		return;
	}
	npanels = v->cols / pw;
	if (npanels < 1)
		npanels = 1;
	if ((size_t)npanels > r->ngroups)
		npanels = (int)r->ngroups;
	pw = v->cols / npanels;
	if (v->summary_left + (size_t)npanels > r->ngroups)
		v->summary_left = r->ngroups - (size_t)npanels;

	/* one pull histogram scale for all groups, so their shapes compare */
	double hi = 0;
	for (size_t g = 0; g < r->ngroups; g++)
		if (r->groups[g].phase[PHASE_PULL].n > 0 && r->groups[g].phase[PHASE_PULL].max > hi)
			hi = r->groups[g].phase[PHASE_PULL].max;
	int nbins = pw - 3 > 40 ? 40 : pw - 3;
	if (nbins < 1)
		nbins = 1;
	double *vals = xcalloc(r->nrows ? r->nrows : 1, sizeof *vals);
	unsigned *counts = xcalloc((size_t)nbins, sizeof *counts);

	for (int p = 0; p < npanels; p++) {
		size_t g = v->summary_left + (size_t)p;
		const struct report_group *grp = &r->groups[g];
		int x = p * pw, w = pw - 2, y = y0;
		attrset(A_BOLD);
		snprintf(buf, sizeof buf, "%s%s", grp->name, g == r->baseline ? " (baseline)" : "");
		put_fit(y++, x, w, buf, false, false, v);
		attrset(A_NORMAL);
		if (grp->pull_share == grp->pull_share)
			snprintf(buf, sizeof buf, "n=%zu  pull share %.0f%%", grp->ntasks,
				 grp->pull_share * 100.0);
		else
			snprintf(buf, sizeof buf, "n=%zu", grp->ntasks);
		put_fit(y++, x, w, buf, false, false, v);
		attrset(A_UNDERLINE);
		snprintf(buf, sizeof buf, "%-12s %8s %8s", "phase", "p50", "p90");
		put_fit(y++, x, w, buf, false, false, v);
		attrset(A_NORMAL);
		for (int ph = 0; ph < PHASE_COUNT; ph++) {
			const struct stats_summary *s = &grp->phase[ph];
			if (s->n > 0) {
				tui_format_duration((int64_t)(s->p50 * 1000.0 + 0.5), 8, a, sizeof a);
				tui_format_duration((int64_t)(s->p90 * 1000.0 + 0.5), 8, b, sizeof b);
			} else {
				snprintf(a, sizeof a, "-");
				snprintf(b, sizeof b, "-");
			}
			snprintf(buf, sizeof buf, "%-12s %8s %8s", phase_defs[ph].name, a, b);
			put_fit(y++, x, w, buf, false, false, v);
		}
		y++;
		if (g == r->baseline) {
			put_fit(y++, x, w, "the others are compared to this group", false, false, v);
		} else {
			static const enum phase_id show[2] = { PHASE_PULL, PHASE_TOTAL };
			for (int i = 0; i < 2 && y < v->lines - 4; i++) {
				report_verdict(r, g, show[i], buf, sizeof buf);
				/* wrap the sentence over the panel width */
				const char *s = buf;
				while (*s != '\0' && y < v->lines - 4) {
					char piece[256];
					int n = (int)strlen(s);
					if (n > w) {
						n = w;
						for (int k = w; k > w / 2; k--)
							if (s[k] == ' ') {
								n = k;
								break;
							}
					}
					snprintf(piece, sizeof piece, "%.*s", n, s);
					put_fit(y++, x, w, piece, false, false, v);
					s += n;
					while (*s == ' ')
						s++;
				}
			}
		}
		y++;
		if (y < v->lines - 2) {
			size_t nv = 0;
			for (size_t i = 0; i < r->nrows; i++) {
				if (r->rows[i].group != g)
					continue;
				int64_t ms = phase_ms(r->rows[i].task, PHASE_PULL);
				if (ms != TS_NONE)
					vals[nv++] = (double)ms / 1000.0;
			}
			tui_histogram(vals, nv, 0.0, hi, counts, nbins);
			unsigned max = 0;
			for (int i = 0; i < nbins; i++)
				if (counts[i] > max)
					max = counts[i];
			tui_format_duration((int64_t)(hi * 1000.0 + 0.5), 8, a, sizeof a);
			snprintf(buf, sizeof buf, "pull histogram, 0..%s", a);
			put_fit(y++, x, w, buf, false, false, v);
			if (y < v->lines - 1) {
				move(y, x);
				if (v->color)
					attrset(COLOR_PAIR(CP_PULL));
				for (int i = 0; i < nbins; i++)
					addstr(tui_spark_glyph(v->glyphs, counts[i], max));
				attrset(A_NORMAL);
				y++;
			}
		}
	}
	if ((size_t)npanels < r->ngroups) {
		snprintf(buf, sizeof buf, "groups %zu-%zu of %zu (h/l to scroll)",
			 v->summary_left + 1, v->summary_left + (size_t)npanels, r->ngroups);
		put_fit(v->lines - 2, 0, v->cols, buf, false, false, v);
	}
	free(vals);
	free(counts);
}

static void
draw_help(const struct view *v)
{
	int y = 2;

	for (int i = y; i < v->lines - 1; i++) {
		move(i, 0);
		clrtoeol();
	}
	attrset(A_BOLD);
	put_fit(y++, 1, v->cols - 1, "Keys", false, false, v);
	attrset(A_NORMAL);
	for (size_t i = 0; i < tui_nkeys && y < v->lines - 4; i++) {
		char buf[256];
		snprintf(buf, sizeof buf, "%-22s %s", tui_keys[i].keys, tui_keys[i].what);
		put_fit(y++, 1, v->cols - 1, buf, false, false, v);
	}
	y++;
	if (y < v->lines - 1) {
		char buf[256];
		snprintf(buf, sizeof buf, "Bars: provision %s, pull %s, start %s; %s marks a task still starting",
			 v->color ? "blue" : (v->utf8 ? "\u2591" : "="),
			 v->color ? "yellow" : (v->utf8 ? "\u2593" : "#"),
			 v->color ? "green" : (v->utf8 ? "\u2588" : "+"), live_suffix(v));
		put_fit(y++, 1, v->cols - 1, buf, false, false, v);
	}
}

/* For saved data "now" is when the data was taken (the newest fetch or timestamp in it),
 * so that a task still pulling in a file from last week does not grow for a week. */
static int64_t
data_time(const struct report *r)
{
	int64_t m = TS_NONE;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct task *t = r->rows[i].task;
		if (t->fetched_at_ms != TS_NONE && t->fetched_at_ms > m)
			m = t->fetched_at_ms;
		for (int f = 0; f < TS_COUNT; f++)
			if (t->ts[f] != TS_NONE && t->ts[f] > m)
				m = t->ts[f];
	}
	return m;
}

static void
draw(struct view *v)
{
	getmaxyx(stdscr, v->lines, v->cols);
	v->now_ms = v->data_now_ms != TS_NONE ? v->data_now_ms : timeutil_now_ms();
	if (v->any_live)
		compute_axis(v);
	erase();
	draw_title(v);
	switch (v->mode) {
	case MODE_TABLE: draw_table(v); break;
	case MODE_DETAILS: draw_details(v); break;
	case MODE_SUMMARY: draw_summary(v); break;
	case MODE_HELP: draw_help(v); break;
	}
	draw_footer(v);
	curs_set(v->editing ? 1 : 0);
	refresh();
}

/* ---- keys from a script (tests, sanitizer runs, the benchmark) ---- */

struct script {
	const char *p;
	const char *typing;     /* inside a word typed letter by letter */
};

static int
script_next(struct script *s)
{
	static const struct { const char *name; int key; } names[] = {
		{ "Enter", '\n' }, { "Esc", 27 }, { "Tab", '\t' }, { "BTab", KEY_BTAB },
		{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT }, { "Right", KEY_RIGHT },
		{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
		{ "Space", ' ' }, { "Bksp", KEY_BACKSPACE }, { "C-l", 12 },
	};
	size_t n;

	if (s->typing != NULL) {
		if (*s->typing != '\0' && *s->typing != ' ')
			return (unsigned char)*s->typing++;
		s->p = s->typing;
		s->typing = NULL;
	}
	while (*s->p == ' ')
		s->p++;
	if (*s->p == '\0')
		return -1;
	n = strcspn(s->p, " ");
	const char *w = s->p;
	s->p += n;
	if (n == 1)
		return (unsigned char)w[0];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i].name) == n && strncmp(w, names[i].name, n) == 0)
			return names[i].key;
	if (n >= 2 && n <= 3 && w[0] == 'F' && w[1] >= '1' && w[1] <= '9') {
		char *end;
		long f = strtol(w + 1, &end, 10);
		if (end == w + n)
			return KEY_F((int)f);
	}
	if (n == 3 && strncmp(w, "C-c", 3) == 0) {
		got_sigint = 1;
		return ERR;
	}
	if (n > 7 && strncmp(w, "Resize:", 7) == 0) {
		char *end;
		long c = strtol(w + 7, &end, 10);
		if (*end == 'x') {
			long l = strtol(end + 1, &end, 10);
			if (c > 0 && l > 0 && c < 1000 && l < 1000) {
				resizeterm((int)l, (int)c);
				return KEY_RESIZE;
			}
		}
		return ERR;
	}
	s->typing = w;
	return (unsigned char)*s->typing++;
}

static void
dump_screen(const char *path)
{
	FILE *f = fopen(path, "w");
	wchar_t wbuf[1024];
	char mb[4096];

	if (f == NULL)
		return;
	for (int y = 0; y < LINES; y++) {
		int n = mvinnwstr(y, 0, wbuf, COLS < 1023 ? COLS : 1023);
		if (n < 0)
			n = 0;
		wbuf[n] = L'\0';
		size_t len = wcstombs(mb, wbuf, sizeof mb - 1);
		if (len == (size_t)-1)
			len = 0;
		mb[len] = '\0';
		while (len > 0 && mb[len - 1] == ' ')
			mb[--len] = '\0';
		fprintf(f, "%s\n", mb);
	}
	fclose(f);
}

/* ---- the loop ---- */

static void
do_refresh(struct view *v)
{
	struct err err;
	char *arn = NULL;

	if (v->src->reload == NULL) {
		snprintf(v->message, sizeof v->message, "nothing to refresh: this data is saved, not live");
		return;
	}
	if (v->nvis > 0 && v->sel < v->nvis && vis_task(v, v->sel)->arn != NULL)
		arn = xstrdup(vis_task(v, v->sel)->arn);
	err_clear(&err);
	v->message[0] = '\0';
	/* the old rows may be freed by the refresh: forget them before it runs */
	v->nvis = 0;
	if (v->src->reload(v->src, &err) != 0)
		snprintf(v->message, sizeof v->message, "refresh failed: %s", err.msg);
	resort(v);
	refilter(v);
	if (arn != NULL) {
		for (size_t i = 0; i < v->nvis; i++) {
			const char *a = vis_task(v, i)->arn;
			if (a != NULL && strcmp(a, arn) == 0) {
				v->sel = i;
				break;
			}
		}
		free(arn);
	}
}

static void
init_colors(struct view *v, const struct tui_options *o)
{
	const char *nc = getenv("NO_COLOR");

	v->color = !o->no_color && !(nc != NULL && nc[0] != '\0') && has_colors();
	if (!v->color)
		return;
	start_color();
	use_default_colors();
	init_pair(CP_PROVISION, COLOR_BLUE, -1);
	init_pair(CP_PULL, COLOR_YELLOW, -1);
	init_pair(CP_START, COLOR_GREEN, -1);
	init_pair(CP_OTHER, COLOR_MAGENTA, -1);
	init_pair(CP_FAILED, COLOR_RED, -1);
	init_pair(CP_TITLE, COLOR_BLACK, COLOR_CYAN);
}

int
tui_run(struct tui_source *src, const struct tui_options *o, struct err *err)
{
	struct view v;
	struct script sc = { 0 };
	const char *script = o->script != NULL ? o->script : getenv("ECSPROF_TUI_SCRIPT");
	SCREEN *screen = NULL;
	FILE *null_out = NULL, *null_in = NULL;
	struct sigaction sa, old_sa;
	double t0 = mono_ms(), keys_total = 0;
	int64_t last_refresh;

	memset(&v, 0, sizeof v);
	v.src = src;
	v.sort_tcol = -1;
	v.sort_report_col = o->sort_col;
	v.sort_desc = o->sort_desc;
	for (int i = 0; i < TUI_COL_COUNT; i++)
		if (o->sort_col >= 0 && tui_cols[i].report_col == o->sort_col && i != TUI_COL_BAR)
			v.sort_tcol = i;
	if (o->stats != NULL)
		memset(o->stats, 0, sizeof *o->stats);

	setlocale(LC_ALL, "");
	v.utf8 = !o->ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	v.glyphs = v.utf8 ? TUI_GLYPHS_UTF8 : TUI_GLYPHS_ASCII;
	v.ellipsis = v.utf8 ? "\u2026" : "~";

	if (script != NULL) {
		/* no terminal needed: draw into memory, as if on an xterm of $COLUMNS x $LINES */
		null_out = fopen("/dev/null", "w");
		null_in = fopen("/dev/null", "r");
		const char *term = getenv("TERM");
		if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
			term = "xterm-256color";
		if (null_out != NULL && null_in != NULL)
			screen = newterm(term, null_out, null_in);
		if (screen == NULL) {
			if (null_out)
				fclose(null_out);
			if (null_in)
				fclose(null_in);
			return err_set(err, ERR_IO, "cannot start the terminal UI for TERM=%s", term);
		}
		sc.p = script;
	} else {
		if (!isatty(0) || !isatty(1))
			return err_set(err, ERR_USAGE,
				       "the terminal UI needs a terminal; use --format table, csv or json");
		screen = newterm(NULL, stdout, stdin);
		if (screen == NULL)
			return err_set(err, ERR_IO, "cannot start the terminal UI: unknown TERM=%s",
				       getenv("TERM") ? getenv("TERM") : "(unset)");
	}
	set_term(screen);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(250);
	init_colors(&v, o);

	got_sigint = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_sa);

	v.data_now_ms = src->reload == NULL ? data_time(src->report) : TS_NONE;
	v.now_ms = v.data_now_ms != TS_NONE ? v.data_now_ms : timeutil_now_ms();
	resort(&v);
	refilter(&v);
	draw(&v);
	if (o->stats != NULL)
		o->stats->first_paint_ms = mono_ms() - t0;
	last_refresh = timeutil_now_ms();

	for (;;) {
		int key = script != NULL ? script_next(&sc) : getch();
		double k0 = mono_ms();
		int react = UI_NONE;

		if (got_sigint)
			break;
		if (script != NULL && key == -1 && sc.p[0] == '\0' && sc.typing == NULL)
			break;
		if (key == ERR) {
			/* a tick: live bars grow, and watch polls when its interval is up */
			if (src->reload != NULL && src->interval_ms > 0 &&
			    timeutil_now_ms() - last_refresh >= src->interval_ms)
				react |= UI_REFRESH;
			if (v.any_live && v.data_now_ms == TS_NONE)
				react |= UI_REDRAW;
			if (react == UI_NONE)
				continue;
		} else {
			react = view_key(&v, key);
			if (v.message[0] != '\0' && !(react & UI_REFRESH))
				v.message[0] = '\0';
		}
		if (react & UI_QUIT)
			break;
		if (react & UI_REFRESH) {
			do_refresh(&v);
			last_refresh = timeutil_now_ms();
		}
		if (react & UI_RESORT) {
			resort(&v);
			react |= UI_REFILTER;
		}
		if (react & UI_REFILTER)
			refilter(&v);
		draw(&v);
		if (key != ERR && o->stats != NULL) {
			double dt = mono_ms() - k0;
			o->stats->keys++;
			keys_total += dt;
			if (dt > o->stats->key_max_ms)
				o->stats->key_max_ms = dt;
			o->stats->key_mean_ms = keys_total / (double)o->stats->keys;
		}
	}

	if (script != NULL && getenv("ECSPROF_TUI_DUMP") != NULL)
		dump_screen(getenv("ECSPROF_TUI_DUMP"));
	endwin();
	delscreen(screen);
	sigaction(SIGINT, &old_sa, NULL);
	if (null_out)
		fclose(null_out);
	if (null_in)
		fclose(null_in);
	free(v.vis);
	return 0;
}
