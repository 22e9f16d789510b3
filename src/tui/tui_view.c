/* tui_view: the view model of the terminal UI: filter, sort and the bar axis, and the key
 * handlers, which change the view and return what else must happen as a reaction bitmask
 * (enum ui_reaction); they never draw. */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/phase.h"
#include "ecsprof/scaleout.h"
#include "ecsprof/task.h"
#include "ecsprof/tui_layout.h"
#include "ecsprof/xalloc.h"
#include "tui_int.h"

/* ---- the model side: filter, sort, axis ---- */

static bool
row_matches(const struct view *v, const struct report_row *row)
{
	const struct task *t = row->task;
	const char *f = v->filter;

	if (!tui_scaleout_has(v, t))
		return false;   /* the table shows one scale-out's tasks (tui_scaleout.c) */
	if (v->filter_len == 0)
		return true;
	return tui_contains_ci(task_id(t), f) || tui_contains_ci(t->prof->taskdef, f) ||
	       tui_contains_ci(t->prof->last_status, f) || tui_contains_ci(t->prof->availability_zone, f) ||
	       (row->group < tui_rep(v)->ngroups && tui_contains_ci(tui_rep(v)->groups[row->group].name, f));
}

/* Where a bar ends: RUNNING, stopped, or now for a task still starting. */
int64_t
tui_task_end_ms(const struct task *t, int64_t now)
{
	/* a bar ends where its last segment does: healthy_at, else RUNNING */
	if (task_ts(t, TS_STARTED) != TS_NONE && task_ts(t, TS_HEALTHY) != TS_NONE &&
	    task_ts(t, TS_HEALTHY) > task_ts(t, TS_STARTED))
		return task_ts(t, TS_HEALTHY);
	if (task_ts(t, TS_STARTED) != TS_NONE)
		return task_ts(t, TS_STARTED);
	if (task_stage_is_starting(task_stage(t, NULL)))
		return now;
	for (int f = TS_STOPPING; f <= TS_STOPPED; f++)
		if (task_ts(t, f) != TS_NONE)
			return task_ts(t, f);
	for (int f = TS_PULL_STOPPED; f >= TS_CREATED; f--)
		if (task_ts(t, f) != TS_NONE && f != TS_CONNECTIVITY)
			return task_ts(t, f);
	return TS_NONE;
}

/* The shared axis of the scale-out being looked at (scaleout.h): false when every visible
 * task is in it anyway, so the axis of all tasks is the same. */
static bool
scaleout_axis(struct view *v)
{
	int64_t *c = xcalloc(v->nvis ? v->nvis : 1, 2 * sizeof *c), *e = c + v->nvis;
	int64_t since = v->src->axis_since != NULL ? v->src->axis_since(v->src) : TS_NONE;
	struct scaleout_span sp;
	bool ok;

	for (size_t i = 0; i < v->nvis; i++) {
		const struct task *t = tui_vis_task(v, i);
		c[i] = task_ts(t, TS_CREATED);
		e[i] = c[i] != TS_NONE ? tui_task_end_ms(t, v->now_ms) : TS_NONE;
	}
	ok = scaleout_span_of(c, e, v->nvis, v->src->axis_latest ? SCALEOUT_LATEST :
			      SCALEOUT_LARGEST, since, &sp) && sp.outside > 0;
	if (ok) {
		v->axis.origin_ms = sp.from_ms;
		v->axis.span_ms = sp.to_ms - sp.from_ms;
	}
	free(c);
	return ok;
}

void
tui_compute_axis(struct view *v)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, longest = 0;

	v->any_live = false;
	for (size_t i = 0; i < v->nvis; i++) {
		const struct task *t = tui_vis_task(v, i);
		int64_t c = task_ts(t, TS_CREATED), e;
		if (c == TS_NONE)
			continue;
		if (task_stage_is_starting(task_stage(t, NULL)))
			v->any_live = true;
		e = tui_task_end_ms(t, v->now_ms);
		if (c < lo)
			lo = c;
		if (e != TS_NONE && e > hi)
			hi = e;
		if (e != TS_NONE && e - c > longest)
			longest = e - c;
	}
	v->axis_scaleout = false;
	if (lo == INT64_MAX) {
		v->axis.origin_ms = 0;
		v->axis.span_ms = 0;
	} else if (v->bar == BAR_SHARED && !v->axis_all && scaleout_axis(v)) {
		v->axis_scaleout = true;
	} else if (v->bar == BAR_SHARED) {
		v->axis.origin_ms = lo;
		v->axis.span_ms = hi > lo ? hi - lo : 1;
	} else {
		v->axis.origin_ms = 0;
		v->axis.span_ms = longest > 0 ? longest : 1;
	}
}

void
tui_refilter(struct view *v)
{
	struct report *r = tui_rep(v);
	const struct task *keep = v->nvis > 0 && v->sel < v->nvis ? tui_vis_task(v, v->sel) : NULL;

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
		enum task_stage st = task_stage(r->rows[i].task, NULL);
		if (st == STAGE_RUNNING)
			v->counts_running++;
		else if (task_stage_is_down(st))
			v->counts_stopped++;
		else if (task_stage_is_starting(st))
			v->counts_pending++;
		else
			v->counts_other++;
	}
	v->sel = 0;
	if (keep != NULL)
		for (size_t i = 0; i < v->nvis; i++)
			if (tui_vis_task(v, i) == keep) {
				v->sel = i;
				break;
			}
	tui_compute_axis(v);
}

void
tui_resort(struct view *v)
{
	int col = v->sort_tcol >= 0 ? tui_cols[v->sort_tcol].report_col : v->sort_report_col;

	if (col >= 0)
		report_sort(tui_rep(v), col, v->sort_desc);
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
	struct tui_columns lay;

	/* only the columns on screen: a sort by one the user cannot see looks like no sort */
	tui_layout_columns_for(v->cols, tui_rep(v)->ngroups > 1, &lay);
	while (c >= 0 && c < TUI_COL_COUNT && lay.w[c] == 0)
		c += dir;
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
	case 'i':
		v->mode = MODE_IMAGES;
		v->detail_top = 0;
		return UI_REDRAW;
	case 'a':
		v->bar = v->bar == BAR_ALIGNED ? BAR_SHARED : BAR_ALIGNED;
		tui_compute_axis(v);
		return UI_REDRAW;
	case 'A':
		/* the shared axis: the scale-out being looked at or every task (from the
		 * aligned bars, straight to the shared axis of every task) */
		v->axis_all = v->bar == BAR_ALIGNED ? true : !v->axis_all;
		v->bar = BAR_SHARED;
		tui_compute_axis(v);
		return UI_REDRAW;
	case 'r': case KEY_F(5):
		return UI_REFRESH;
	case 27:
		/* clears a filter; at the top level it does nothing, as in k9s and htop, so that
		 * an Esc too many (leaving the details, say) does not quit */
		if (v->filter_len > 0) {
			v->filter_len = 0;
			v->filter[0] = '\0';
			return UI_REFILTER;
		}
		if (v->so_shown >= 0)
			goto back_to_scaleouts;
		return UI_NONE;
	case 'q':
		if (v->so_shown >= 0)
			goto back_to_scaleouts;
		return UI_QUIT;
	default:
		return UI_NONE;
	}
back_to_scaleouts:
	/* a scale-out's tasks were opened from the scale-out view: back to it */
	v->so_shown = -1;
	if (v->so_rep != NULL) {
		struct err err = { 0 };

		v->so_rep = NULL;
		v->src->scaleout_report(v->src, -1, &err);   /* frees it */
	}
	v->mode = MODE_SCALEOUTS;
	return UI_REFILTER | UI_REDRAW;
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
	if (v->mode == MODE_DETAILS || v->mode == MODE_IMAGES) {
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
		case KEY_RIGHT: case 'l':
			if (v->summary_left + 1 < tui_summary_choices(v))
				v->summary_left++;
			return UI_REDRAW;
		case KEY_LEFT: case 'h':
			if (v->summary_left > 0)
				v->summary_left--;
			return UI_REDRAW;
		case KEY_DOWN: case 'j':
			v->summary_top++;
			return UI_REDRAW;
		case KEY_UP: case 'k':
			if (v->summary_top > 0)
				v->summary_top--;
			return UI_REDRAW;
		case KEY_NPAGE: case ' ':
			v->summary_top += (size_t)page_rows(v);
			return UI_REDRAW;
		case KEY_PPAGE:
			v->summary_top = v->summary_top > (size_t)page_rows(v) ?
					 v->summary_top - (size_t)page_rows(v) : 0;
			return UI_REDRAW;
		case 'g': case KEY_HOME:
			v->summary_top = 0;
			return UI_REDRAW;
		default:
			return UI_NONE;
		}
	}
	return UI_NONE;
}

int
tui_view_key(struct view *v, int key)
{
	if (key == KEY_RESIZE || key == 12) {
		if (key == 12)
			clearok(curscr, TRUE);
		return UI_REDRAW;
	}
	/* htop's quit key, from every view: typing a filter too (the help says so) */
	if (key == KEY_F(10))
		return UI_QUIT;
	if (v->mode == MODE_TABLE && v->editing)
		return key_filter(v, key);
	if (v->mode == MODE_HELP)
		return tui_help_key(v, key);
	if (key == '?' || key == KEY_F(1) || (key == 'w' && tui_warning_count(v) > 0)) {
		v->back_mode = v->mode;
		v->mode = MODE_HELP;
		v->help_top = 0;
		v->help_warnings = key == 'w';
		return UI_REDRAW;
	}
	if (v->mode == MODE_TABLE)
		return key_table(v, key);
	if (v->mode == MODE_SCALEOUTS)
		return tui_scaleout_key(v, key);
	return key_other(v, key);
}
