/* tui_draw: draws one screen of the terminal UI from the view model: title and footer, the
 * table (header, rows, waterfall bars), the details pane, the summary of groups and the
 * help. Reads the model; changes only what drawing decides (scroll position, clamping). */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/phase.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/tui_layout.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "tui_int.h"

/* ---- drawing ---- */

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
	/* not '+': in ASCII that is the start bar's character (tui_bar_glyph) */
	return v->utf8 ? "\u2026" : ">";
}

static void
draw_duration(int y, int x, int w, const struct task *t, enum phase_id p, const struct view *v)
{
	char buf[32], cell[40];
	int64_t ms = phase_ms(t, p), so_far = phase_so_far_ms(t, p, v->now_ms);

	if (w <= 0)
		return;
	if (so_far != TS_NONE) {
		/* still in this phase: how long so far, marked as growing (as the table) */
		size_t n = (size_t)tui_format_column_secs(so_far, w, buf, sizeof buf);

		/* tenths: the mark takes the place of the unit, so that the decimal point is
		 * under the others' ("33.0…" over "72.3s", not "33.0s…" a column left of it) */
		if (n >= 4 && buf[n - 1] == 's' && buf[n - 3] == '.')
			buf[n - 1] = '\0';
		else
			tui_format_column_secs(so_far, w - 1, buf, sizeof buf);
		snprintf(cell, sizeof cell, "%s%s", buf, live_suffix(v));
		attron(A_BOLD);
		put_fit(y, x, w, cell, true, false, v);
		attroff(A_BOLD);
		return;
	}
	tui_format_column_secs(ms, w, buf, sizeof buf);
	put_fit(y, x, w, buf, true, false, v);
}

static size_t
task_segments(const struct task *t, int64_t now, struct tui_seg *segs)
{
	static const enum tui_seg_kind kinds[3] = { TUI_SEG_PROVISION, TUI_SEG_PULL, TUI_SEG_START };
	static const enum ts_field marks[4] = { TS_CREATED, TS_PULL_STARTED, TS_PULL_STOPPED,
						TS_STARTED };
	int64_t since, end = tui_task_end_ms(t, now);
	int cur = phase_current(t, &since);
	size_t n = 0;
	int last = -1;       /* index in marks of the last timestamp present */

	if (task_ts(t, TS_CREATED) == TS_NONE)
		return 0;
	for (int i = 0; i < 4; i++) {
		if (task_ts(t, marks[i]) == TS_NONE)
			continue;
		if (last >= 0) {
			/* a gap (a missing timestamp in between) is drawn as "other" */
			enum tui_seg_kind k = i == last + 1 ? kinds[last] : TUI_SEG_OTHER;
			segs[n++] = (struct tui_seg){ k, task_ts(t, marks[last]), task_ts(t, marks[i]) };
		}
		last = i;
	}
	if (last < 3 && end != TS_NONE && end > task_ts(t, marks[last])) {
		/* still starting: the current phase grows to now; stopped early: "other" */
		enum tui_seg_kind k = cur >= 0 ? kinds[cur] : TUI_SEG_OTHER;
		segs[n++] = (struct tui_seg){ k, task_ts(t, marks[last]), end };
	}
	/* the fourth segment: the app's own start, RUNNING to HEALTHY (health.h) */
	if (last == 3 && task_ts(t, TS_HEALTHY) != TS_NONE && task_ts(t, TS_HEALTHY) > task_ts(t, TS_STARTED))
		segs[n++] = (struct tui_seg){ TUI_SEG_READY, task_ts(t, TS_STARTED), task_ts(t, TS_HEALTHY) };
	return n;
}

static short
seg_pair(uint8_t kind)
{
	switch (kind) {
	case TUI_SEG_PROVISION: return CP_PROVISION;
	case TUI_SEG_PULL: return CP_PULL;
	case TUI_SEG_START: return CP_START;
	case TUI_SEG_READY: return CP_READY;
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
		shift = task_ts(t, TS_CREATED);
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
	/* the scale-out's axis: a task outside it is clipped to the edge, with a marker */
	if (v->bar == BAR_SHARED && v->axis_scaleout && task_ts(t, TS_CREATED) != TS_NONE) {
		int64_t end = tui_task_end_ms(t, v->now_ms);
		attrset(selected ? A_REVERSE | A_BOLD : A_BOLD);
		if (task_ts(t, TS_CREATED) < v->axis.origin_ms)
			mvaddstr(y, x, v->utf8 ? "\u25c2" : "<");
		if ((end != TS_NONE ? end : task_ts(t, TS_CREATED)) > v->axis.origin_ms + v->axis.span_ms)
			mvaddstr(y, x + w - 1, v->utf8 ? "\u25b8" : ">");
		attrset(A_NORMAL);
	}
}

/* "axis: scale-out 208.8s (A: all)": which span the bars are drawn on */
static void
axis_text(const struct view *v, char *out, size_t size)
{
	char d[16];

	tui_format_duration(v->axis.span_ms, 6, d, sizeof d);
	if (v->bar == BAR_ALIGNED)
		snprintf(out, size, "axis: aligned at createdAt");
	else if (v->axis_scaleout)
		snprintf(out, size, "axis: scale-out %s (A: all)", d);
	else if (v->axis_all)
		snprintf(out, size, "axis: all tasks %s (A: scale-out)", d);
	else
		snprintf(out, size, "axis: all tasks %s", d);
}

/* a failed start, as the model decides it (task_stage): '!' and red */
static bool
stopped_early(const struct task *t)
{
	return task_stage(t, NULL) == STAGE_FAILED;
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
	const struct report_row *row = &tui_rep(v)->rows[v->vis[i]];
	const struct task *t = row->task;
	bool selected = i == v->sel;
	bool changed = v->src->changed != NULL && v->src->changed(v->src, t);
	attr_t base = (selected ? A_REVERSE : A_NORMAL) | (changed ? A_BOLD : A_NORMAL);
	char status[40];

	line_fill(y, base, v);
	attrset(base);
	/* ids are hex: the first characters identify a task, an ellipsis would waste one */
	snprintf(status, sizeof status, "%s", task_id(t));
	termsafe_scrub(status, NULL);   /* from the server's ARN */
	mvaddnstr(y, c->x[TUI_COL_ID], status, c->w[TUI_COL_ID]);
	if (changed)
		mvaddstr(y, c->x[TUI_COL_ID] + c->w[TUI_COL_ID], "*");
	put_fit(y, c->x[TUI_COL_TASKDEF], c->w[TUI_COL_TASKDEF], t->prof->taskdef, false, true, v);
	/* the '!' of a failed start survives a status cut to the column ("DEPROVISI…!") */
	if (stopped_early(t)) {
		int n = tui_fit(t->prof->last_status ? t->prof->last_status : "", c->w[TUI_COL_STATUS] - 1,
				false, v->ellipsis, status, sizeof status - 1);
		if (n >= 0 && c->w[TUI_COL_STATUS] > 0)
			memcpy(status + strlen(status), "!", 2);
		if (v->color)
			attron(COLOR_PAIR(CP_FAILED));
	} else {
		snprintf(status, sizeof status, "%s", t->prof->last_status ? t->prof->last_status : "");
	}
	put_fit(y, c->x[TUI_COL_STATUS], c->w[TUI_COL_STATUS], status, false, false, v);
	attrset(base);
	put_fit(y, c->x[TUI_COL_AZ], c->w[TUI_COL_AZ], t->prof->availability_zone, false, true, v);
	if (c->w[TUI_COL_LAUNCH] > 0) {
		char cell[64];
		put_fit(y, c->x[TUI_COL_LAUNCH], c->w[TUI_COL_LAUNCH],
			report_cell(tui_rep(v), row, COL_LAUNCH_TYPE, cell, sizeof cell), false,
			false, v);
		put_fit(y, c->x[TUI_COL_SOCI], c->w[TUI_COL_SOCI],
			report_cell(tui_rep(v), row, COL_SOCI, cell, sizeof cell), false, false, v);
	}
	if (c->w[TUI_COL_GROUP] > 0 && row->group < tui_rep(v)->ngroups)
		put_fit(y, c->x[TUI_COL_GROUP], c->w[TUI_COL_GROUP],
			tui_rep(v)->groups[row->group].name, false, false, v);
	draw_duration(y, c->x[TUI_COL_PROVISION], c->w[TUI_COL_PROVISION], t, PHASE_PROVISION, v);
	draw_duration(y, c->x[TUI_COL_PULL], c->w[TUI_COL_PULL], t, PHASE_PULL, v);
	draw_duration(y, c->x[TUI_COL_START], c->w[TUI_COL_START], t, PHASE_START, v);
	draw_duration(y, c->x[TUI_COL_TOTAL], c->w[TUI_COL_TOTAL], t, PHASE_TOTAL, v);
	attrset(A_NORMAL);
	draw_bar(y, c->x[TUI_COL_BAR], c->w[TUI_COL_BAR], t, v, selected);
}

static void
draw_title(const struct view *v)
{
	char buf[512], st[256], ax[64];

	line_fill(0, A_REVERSE, v);
	tui_scaleout_title(v, st, sizeof st);
	snprintf(buf, sizeof buf, " ecsprof  %s%s", v->src->title ? v->src->title : "", st);
	put_fit(0, 0, v->cols, buf, false, false, v);
	snprintf(buf, sizeof buf, "%zu/%zu tasks ", v->nvis, tui_rep(v)->nrows);
	if (tui_text_width(buf) < v->cols)
		put_fit(0, v->cols - tui_text_width(buf), tui_text_width(buf), buf, false, false, v);
	attrset(A_NORMAL);
	st[0] = '\0';
	axis_text(v, ax, sizeof ax);
	if (v->src->status != NULL) {
		v->src->status(v->src, st, sizeof st - sizeof ax - 2);
		snprintf(st + strlen(st), sizeof st - strlen(st), "  %s", ax);
	} else {
		snprintf(st, sizeof st, "running %zu  starting %zu  stopped %zu%s  %s",
			 v->counts_running, v->counts_pending, v->counts_stopped,
			 v->counts_other ? "  other" : "", ax);
	}
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
	if (v->fetching && v->progress[0] != '\0' && timeutil_now_ms() >= v->progress_from_ms) {
		attrset(A_BOLD);
		put_fit(y, 0, v->cols, v->progress, false, false, v);
		attrset(A_NORMAL);
		return;
	}
	/* the warnings held while the screen is up: the latest, how many, the key to list
	 * them (not on the list itself) */
	size_t warned = v->mode == MODE_HELP ? 0 : tui_warning_count(v);
	if (warned > 0) {
		char latest[400];

		latest[0] = '\0';
		v->src->warnings(v->src, warned - 1, latest, sizeof latest);
		snprintf(buf, sizeof buf, "%zu warning%s (w: list): %s", warned,
			 warned == 1 ? "" : "s", latest);
		attrset(A_BOLD);
		put_fit(y, 0, v->cols, buf, false, false, v);
		attrset(A_NORMAL);
		return;
	}
	const char *legend = v->mode == MODE_SCALEOUTS ? "?:help j/k:move Enter:its tasks q:quit" :
		v->mode == MODE_TABLE && v->so_shown >= 0 ?
		"?:help /:filter Enter:details Tab:summary s/I:sort a:axis q/Esc:back" :
		v->mode == MODE_TABLE ?
		"?:help /:filter Enter:details Tab:summary s/I:sort a:axis q:quit" :
		v->mode == MODE_DETAILS ? "j/k:scroll  q/Esc/Enter:back  Tab:summary" :
		v->mode == MODE_IMAGES ? "j/k:scroll  q/Esc:back  Tab:summary" :
		v->mode == MODE_SUMMARY ? (tui_summary_choices(v) > 1 ?
			(v->summary_more ? "j/k:more below  h/l:group  Tab:tasks  q:back" :
					   "j/k:scroll  h/l:group  Tab:tasks  q:back") :
			(v->summary_more ? "j/k:more below  Tab:tasks  q:back" :
					   "j/k:scroll  Tab:tasks  q:back")) :
		v->help_more ? "j/k/PgDn:more below  any other key: back" : "j/k:scroll  any other key: back";
	if (v->filter_len > 0 && v->mode == MODE_TABLE)
		snprintf(buf, sizeof buf, "filter: %s  (Esc clears)  %s", v->filter, legend);
	else
		snprintf(buf, sizeof buf, "%s", legend);
	attrset(A_DIM);
	put_fit(y, 0, v->cols, buf, false, false, v);
	attrset(A_NORMAL);
	/* the colour legend: which colour or glyph is which phase, right-aligned, and only
	 * where it does not overprint the hint (a filter or a message makes that longer) */
	if (v->mode == MODE_TABLE) {
		static const uint8_t k[5] = { TUI_SEG_PROVISION, TUI_SEG_PULL, TUI_SEG_START,
					      TUI_SEG_READY, TUI_SEG_OTHER };
		static const char *const names[5] = { "provision", "pull", "start", "ready",
						      "stopped" };
		bool show[5] = { true, true, true, tui_rep(v)->any_healthy, false };
		int x, width = 0;

		for (size_t i = 0; i < tui_rep(v)->nrows && !show[4]; i++)
			show[4] = task_stage(tui_rep(v)->rows[i].task, NULL) == STAGE_FAILED;
		for (int i = 0; i < 5; i++)
			width += show[i] ? (int)strlen(names[i]) + 3 : 0;
		x = v->cols - width;
		if (x < tui_text_width(buf) + 2)
			return;
		for (int i = 0; i < 5; i++) {
			struct tui_bar_cell cell = { k[i], 8 };

			if (!show[i])
				continue;
			if (v->color)
				attrset(COLOR_PAIR(seg_pair(k[i])));
			mvaddstr(y, x, tui_bar_glyph(v->glyphs, v->color, &cell));
			attrset(A_NORMAL);
			mvaddstr(y, x + 1, names[i]);
			x += (int)strlen(names[i]) + 3;
		}
	}
}

static void
draw_table(struct view *v)
{
	struct tui_columns c;
	int rows = v->lines - 4;

	tui_layout_columns_for(v->cols, tui_rep(v)->ngroups > 1, &c);
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
			v->fetching ? "no tasks yet: they are being fetched (the bottom line says "
			"how far)" : "no tasks", false, false, v);
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
	l->v = xgrow(l->v, l->n + 1, &l->cap, sizeof *l->v);
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
	const struct report *r = tui_rep(v);
	char iso[TIMEUTIL_ISO_LEN], d[32];
	struct task_arn_buf ab;

	lines_add(l, "Task %s", nz(task_arn(t, &ab)));
	lines_add(l, "  id %s  cluster %s  service %s", nz(task_id(t)), nz(t->prof->cluster), nz(t->prof->service));
	lines_add(l, "  taskdef %s  group %s", nz(t->prof->taskdef),
		  row->group < r->ngroups ? r->groups[row->group].name : "-");
	lines_add(l, "  status %s (desired %s)%s%s", nz(t->prof->last_status), nz(t->prof->desired_status),
		  t->prof->health_status ? ", health " : "", t->prof->health_status ? t->prof->health_status : "");
	/* why it stopped comes first: it is what a failed start is opened for */
	if (t->prof->stop_code != NULL || t->prof->stopped_reason != NULL) {
		lines_add(l, "  stop code %s", nz(t->prof->stop_code));
		lines_add(l, "  reason %s", nz(t->prof->stopped_reason));
	}
	tui_serving_details(r, row, l, lines_add);
	lines_add(l, "  %s %s %s, capacity %s, %s, cpu %s, memory %s", nz(t->prof->launch_type),
		  nz(t->prof->platform_family), nz(t->prof->platform_version), nz(t->prof->capacity_provider),
		  nz(t->prof->availability_zone), nz(t->prof->cpu), nz(t->prof->memory));
	lines_add(l, "  started by %s", nz(t->prof->started_by));
	lines_add(l, "  source %s", nz(t->prof->source));
	lines_add(l, "  SOCI %s (evidence: %s)", soci_label_name(t->soci),
		  soci_evidence_name(t->soci_evidence));
	lines_add(l, "%s", "");
	lines_add(l, "Timestamps (UTC)                       since createdAt");
	for (int f = 0; f < TS_COUNT; f++) {
		int64_t ts = task_ts(t, f);
		timeutil_format_iso(ts, iso);
		d[0] = '\0';
		if (ts != TS_NONE && task_ts(t, TS_CREATED) != TS_NONE) {
			int64_t delta = ts - task_ts(t, TS_CREATED);
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
	lines_add(l, "Containers (%zu)", (size_t)t->ncontainers);
	for (size_t i = 0; i < t->ncontainers; i++) {
		const struct container *c = &t->containers[i];
		char ex[24] = "";
		struct digest_buf db;
		if (c->has_exit_code)
			snprintf(ex, sizeof ex, ", exit %d", c->exit_code);
		lines_add(l, "  %s: %s%s", nz(c->prof->name), nz(c->prof->last_status), ex);
		lines_add(l, "    image        %s", nz(c->prof->image));
		lines_add(l, "    digest       %s", nz(container_digest(c, &db)));
		if (c->prof->snapshotter != NULL)
			lines_add(l, "    snapshotter  %s", c->prof->snapshotter);
		if (c->prof->reason != NULL)
			lines_add(l, "    reason       %s", c->prof->reason);
	}
	tui_image_details(r, row, l, lines_add);
	if (t->prof->ntags > 0) {
		lines_add(l, "%s", "");
		lines_add(l, "Tags");
		for (size_t i = 0; i < t->prof->ntags; i++)
			lines_add(l, "  %s = %s", nz(t->prof->tags[i].key), nz(t->prof->tags[i].value));
	}
}

/* Where a long details line goes on: under its value, which follows the label's column
 * gap ("    SOCI index   v2 ...") or else its first word ("  reason CannotPull..."); 2
 * past the line's indent when the value starts too far right. */
static int
continuation_indent(const char *s, int cols)
{
	int i = 0, lead;
	const char *gap;

	while (s[i] == ' ')
		i++;
	lead = i;
	gap = strstr(s + lead, "  ");
	if (gap != NULL && gap - s <= cols / 2) {
		i = (int)(gap - s);
	} else {
		while (s[i] != ' ' && s[i] != '\0')
			i++;
	}
	while (s[i] == ' ')
		i++;
	return s[i] == '\0' || i > cols / 2 ? lead + 2 : i;
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
	build_details(v, &tui_rep(v)->rows[v->vis[v->sel]], &l);
	if (v->detail_top >= l.n)
		v->detail_top = l.n > 0 ? l.n - 1 : 0;
	for (size_t i = v->detail_top; i < l.n && y < bottom; i++) {
		/* long values (a stoppedReason) wrap at words rather than vanish, their
		 * continuations indented under the value */
		const char *s = l.v[i];
		int indent = 0, cont = continuation_indent(s, v->cols);
		bool heading = s[0] != ' ' && s[0] != '\0';
		if (heading)
			attrset(A_BOLD);
		do {
			char piece[1200];
			int room = v->cols - indent > 1 ? v->cols - indent : 1;
			size_t next, n = utf8_line_break(s, room, true, NULL, &next);

			/* a next word too long for any line (a digest, a URL) is cut anyway:
			 * then this line is filled instead of left short */
			if (s[next] != '\0' && utf8_cols(s + next, strcspn(s + next, " ")) >
			    v->cols - cont)
				for (n = next = 0; s[n] != '\0' && room-- > 0; n = next) {
					size_t k = utf8_len((const unsigned char *)s + n);

					next = n + (k > 0 ? k : 1);
				}

			snprintf(piece, sizeof piece, "%*s%.*s", indent, "", (int)n, s);
			termsafe_scrub(piece, NULL);   /* stop reasons, images: server text */
			move(y, 0);
			clrtoeol();
			mvaddstr(y, 0, piece);
			s += next > 0 ? next : strlen(s);
			indent = cont;
			y++;
		} while (*s != '\0' && y < bottom);
		attrset(A_NORMAL);
	}
	for (; y < bottom; y++) {
		move(y, 0);
		clrtoeol();
	}
	lines_free(&l);
}

void
tui_draw(struct view *v)
{
	getmaxyx(stdscr, v->lines, v->cols);
	v->now_ms = v->data_now_ms != TS_NONE ? v->data_now_ms : timeutil_now_ms();
	if (v->any_live)
		tui_compute_axis(v);
	erase();
	draw_title(v);
	switch (v->mode) {
	case MODE_TABLE: draw_table(v); break;
	case MODE_DETAILS: draw_details(v); break;
	case MODE_SUMMARY: tui_draw_summary(v); break;
	case MODE_IMAGES: tui_draw_images(v); break;   /* tui_image.c */
	case MODE_HELP: tui_draw_help(v); break;   /* tui_help.c */
	case MODE_SCALEOUTS: tui_draw_scaleouts(v); break;   /* tui_scaleout.c */
	}
	draw_footer(v);
	curs_set(v->editing ? 1 : 0);
	refresh();
}
