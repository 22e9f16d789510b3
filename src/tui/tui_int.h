/* tui_int: what the files of src/tui/ share: the view model (struct view), the reaction
 * bitmask the key handlers return, and the functions one file calls in another (downwards
 * only: tui.c -> tui_draw.c -> the views -> tui_text.c; no view calls its dispatcher).
 * Private to src/tui/; no curses types here (only src/tui*.c include curses).
 * Ownership: tui_run owns the struct view and frees vis; the view borrows src and its
 * report, which a refresh may replace, so nothing keeps a row or task pointer across one. */
#ifndef ECSPROF_TUI_INT_H
#define ECSPROF_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/report.h"
#include "ecsprof/task.h"
#include "ecsprof/tui.h"
#include "ecsprof/tui_layout.h"

enum ui_reaction {
	UI_NONE = 0,
	UI_REDRAW = 1 << 0,
	UI_RESORT = 1 << 1,
	UI_REFILTER = 1 << 2,
	UI_REFRESH = 1 << 3,
	UI_QUIT = 1 << 4,
};

enum ui_mode { MODE_TABLE, MODE_DETAILS, MODE_SUMMARY, MODE_HELP, MODE_IMAGES, MODE_SCALEOUTS };
enum bar_mode { BAR_ALIGNED, BAR_SHARED };

enum ui_color {
	CP_PROVISION = 1,
	CP_PULL,
	CP_START,
	CP_OTHER,
	CP_FAILED,
	CP_READY,      /* the waterfall's fourth segment: RUNNING to HEALTHY */
	CP_TITLE,
	CP_STAGE0,     /* the scale-out view: CP_STAGE0 + enum so_stage */
};

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
	bool axis_all;                /* A: the shared axis spans every task, not the scale-out */
	bool axis_scaleout;           /* the shared axis is a scale-out's: some tasks clipped */
	bool any_live;                /* a visible task is still starting: bars grow */
	int64_t now_ms;
	int64_t data_now_ms;          /* saved data: when it was taken; TS_NONE = live */

	size_t detail_top;
	size_t summary_left;          /* which non-baseline group is compared (h/l) */
	size_t summary_top;           /* scroll of the summary under its verdict (j/k) */
	bool summary_more;            /* the summary goes on below the screen */
	size_t help_top;              /* scroll of the help (tui_help.c) */
	bool help_more;               /* the help goes on below the screen */
	bool help_warnings;           /* the help screen lists the warnings instead (w) */

	char message[600];            /* bottom line: an error from refresh, etc. */
	bool fetching;                /* a fetch runs behind the screen (tui_source.fetch_*) */
	char progress[300];           /* ... and where it is: the bottom line meanwhile */
	int64_t last_refresh_ms;      /* the last refresh's end (watch: the next after interval_ms) */
	bool refresh_auto;            /* the refresh asked for is watch's interval, not a key */
	int64_t progress_from_ms;     /* the progress line shows from then (an automatic poll
				       * that ends soon does not flash it) */
	size_t so_sel, so_top;        /* the scale-out view's selection and scroll */
	long so_shown;                /* the scale-out whose tasks the table shows; -1: all */
	const struct report *so_rep;  /* so_shown's tasks alone (tui_source.scaleout_report),
				       * owned by the source; NULL: all the tasks */
	int lines, cols;
};

static inline struct report *
tui_rep(const struct view *v)
{
	return v->src->report;
}

/* The report the summary is of: a scale-out's tasks when one is shown, else all of them */
static inline const struct report *
tui_sum_rep(const struct view *v)
{
	return v->so_shown >= 0 && v->so_rep != NULL ? v->so_rep : v->src->report;
}

static inline const struct task *
tui_vis_task(const struct view *v, size_t i)
{
	return tui_rep(v)->rows[v->vis[i]].task;
}

/* tui_view.c: the model side and the key handlers */
int64_t tui_task_end_ms(const struct task *t, int64_t now);
void tui_compute_axis(struct view *v);
void tui_refilter(struct view *v);
void tui_resort(struct view *v);
/* Changes the view for one key; returns what must happen next (enum ui_reaction bits). */
int tui_view_key(struct view *v, int key);

/* tui_draw.c: one whole screen from the model */
void tui_draw(struct view *v);

/* tui_text.c: what every view draws text with (calls no other tui file) */
/* Text at y, x cut to w cells with the view's ellipsis; right: flush right in the w cells,
 * keep_end: cut the start rather than the end. */
void put_fit(int y, int x, int w, const char *s, bool right, bool keep_end, const struct view *v);
/* put_fit, left and cut at the end */
void put_fit_text(const struct view *v, int y, int x, int w, const char *s);

/* tui_help.c: the help screen and its keys (scroll; any other key goes back) */
void tui_draw_help(struct view *v);
/* warnings held by the source (tui_source.warnings), 0 when it holds none */
size_t tui_warning_count(const struct view *v);
int tui_help_key(struct view *v, int key);

/* tui_summary.c: the summary view */
void tui_draw_summary(struct view *v);
size_t tui_summary_compared(const struct view *v);   /* group index, ngroups if none */
size_t tui_summary_choices(const struct view *v);    /* groups that can be compared */

/* tui_serving.c: the details pane's diagnosis, time to serving and startup cost lines,
 * added through add (tui_draw.c's line list). */
struct lines;
void tui_serving_details(const struct report *r, const struct report_row *row, struct lines *l,
			 void (*add)(struct lines *, const char *, ...));
/* tui_image.c: the images view (i: one entry per image of the visible tasks, scrolled
 * with detail_top) and the details pane's image facts (ECR) and SOCI advice */
void tui_draw_images(struct view *v);
void tui_image_details(const struct report *r, const struct report_row *row, struct lines *l,
		       void (*add)(struct lines *, const char *, ...));

/* tui_scaleout.c: the scale-out view (src->scaleouts), its keys, and whether a task is one
 * of the scale-out the table shows (true when it shows all) */
void tui_draw_scaleouts(struct view *v);
int tui_scaleout_key(struct view *v, int key);
bool tui_scaleout_has(const struct view *v, const struct task *t);
/* the title's words for the scale-out the table shows ("" when none) */
void tui_scaleout_title(const struct view *v, char *out, size_t size);
void tui_scaleout_colours(void);

/* The pull bar's colour for this terminal: orange, else black on a light background,
 * else yellow (tui_text.c). */
short tui_pull_colour(void);

#endif
