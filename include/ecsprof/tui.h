/* tui: the interactive terminal UI (ncursesw): the task table with waterfall bars, the
 * details pane, the summary view of groups, a filter and sorting, and live refresh.
 * Ownership: tui_run borrows the source and its report for the whole call and frees
 * everything it allocates before returning; the terminal is always restored. */
#ifndef ECSPROF_TUI_H
#define ECSPROF_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/report.h"
#include "ecsprof/scaleout_story.h"

/* Where the UI gets its data. Only report is required. */
struct tui_source {
	struct report *report;        /* what to show; owned by whoever fills the source */
	const char *title;            /* top line, e.g. "report: tasks.json" */
	/* watch: re-fetch and rebuild *report (the old report and its tasks may be freed:
	 * the UI finds the selected task again by ARN). On failure the UI shows err->msg on
	 * the bottom line and keeps going; ERR_THROTTLED is expected to raise interval_ms. */
	int (*reload)(struct tui_source *src, struct err *err);
	/* watch: one line under the title, e.g. counts per lastStatus and time to N running */
	void (*status)(struct tui_source *src, char *out, size_t size);
	/* watch: true when the task changed phase at the last refresh (drawn in bold, '*') */
	bool (*changed)(struct tui_source *src, const struct task *t);
	/* watch: where the scale-out began (a deployment's start), TS_NONE when unknown; the
	 * shared axis then spans the tasks created since (scaleout_span_of) */
	int64_t (*axis_since)(struct tui_source *src);
	bool axis_latest;             /* the shared axis spans the newest burst (watch), not the largest */
	/* tasks: a fetch that the UI drives from its key loop instead of blocking in reload,
	 * so that keys keep working while ECS answers ('r' starts one; fetch_first: one at
	 * once, the report being empty until it is in). fetch_start begins it (-1: err, shown
	 * on the bottom line). fetch_poll waits up to wait_ms for it and may replace *report
	 * (the tasks loaded so far, or the result; then *replaced is true, the old report
	 * and its tasks may be gone: the UI finds the selected task again by ARN); 1: still
	 * running, 0: done, -1: failed (err). fetch_progress writes the line shown meanwhile
	 * ("fetching: 1,200 of 6,000 tasks ..."). fetch_cancel stops it and returns once its
	 * threads are gone (q, F10, Ctrl-C quit at once). All four, or none. */
	int (*fetch_start)(struct tui_source *src, struct err *err);
	int (*fetch_poll)(struct tui_source *src, int64_t wait_ms, bool *replaced,
			  struct err *err);
	void (*fetch_progress)(struct tui_source *src, char *out, size_t size);
	void (*fetch_cancel)(struct tui_source *src);
	bool fetch_first;
	/* tasks, watch: the warnings held while the screen is up (they are printed on
	 * standard error once it is closed): returns how many; when i is below that, the
	 * i-th (0: the oldest) is copied to out. The bottom line shows the latest and the
	 * count, w lists them. NULL: none are held. */
	size_t (*warnings)(struct tui_source *src, size_t i, char *out, size_t size);
	int64_t interval_ms;          /* refresh every interval_ms (watch); 0 = only on 'r' */
	/* scaleout, report --scaleout: the UI opens on the scale-out view (tui_scaleout.c),
	 * one bar of stages per row; Enter shows that scale-out's tasks (of report, which
	 * holds the tasks the story borrows) in the task table, q/Esc come back. NULL: none */
	const struct so_story *scaleouts;
	/* scaleout: the report of scale-out `row`'s tasks alone, for the summary (Tab) after
	 * Enter on it; owned by the source and valid until the next call (row -1 frees it),
	 * NULL on failure (err). NULL: the summary is of all the tasks */
	const struct report *(*scaleout_report)(struct tui_source *src, long row,
						struct err *err);
	void *ctx;                    /* for the callbacks */
};

/* What a benchmark or a test wants to know about a run. */
struct tui_stats {
	double first_paint_ms;        /* tui_run entry to the first complete screen */
	double key_max_ms;            /* slowest key: handling, re-sort/filter and redraw */
	double key_mean_ms;
	size_t keys;
	double quit_ms;               /* q (or F10, Ctrl-C) to the terminal restored, a fetch
				       * in progress cancelled included */
};

struct tui_options {
	bool no_color;                /* --no-color; NO_COLOR in the environment also counts */
	bool ascii;                   /* ASCII glyphs even in a UTF-8 locale */
	bool start_summary;           /* --summary: open on the summary view (Tab: the tasks) */
	bool start_images;            /* `images`: open on the images view (q: the tasks) */
	int sort_col;                 /* enum col_id from --sort, -1 = keep the report's order */
	bool sort_desc;
	/* Keys to feed instead of the keyboard, so sanitizer runs, tests and benchmarks need
	 * no terminal: "j j Enter q", names Enter Esc Tab BTab Up Down Left Right PgUp PgDn
	 * Home End Space Bksp F1..F10 C-c Resize:COLSxLINES; any other word is typed letter
	 * by letter. NULL = $ECSPROF_TUI_SCRIPT. With a script the screen is drawn into
	 * memory (size from $COLUMNS/$LINES, default 80x24), each key waits for a fetch in
	 * progress (tui_source.fetch_*) to end, and, when dump (NULL =
	 * $ECSPROF_TUI_DUMP) names a file, the final screen is written there as text. The
	 * two variables are test hooks for runs of the whole program (man page,
	 * ENVIRONMENT); code sets the fields. */
	const char *script;
	const char *dump;
	struct tui_stats *stats;      /* filled when not NULL */
};

/* The keys, for the man page and the help screen: { keys, what they do }. */
struct tui_key_help {
	const char *keys;
	const char *what;
};
extern const struct tui_key_help tui_keys[];
extern const size_t tui_nkeys;
/* The scale-out view's keys (its help screen lists these) */
extern const struct tui_key_help tui_scaleout_keys[];
extern const size_t tui_scaleout_nkeys;

/* Runs until q/Esc or Ctrl-C. Returns 0, or -1 with err when the terminal cannot be used
 * (not a terminal and no script, unknown TERM). */
int tui_run(struct tui_source *src, const struct tui_options *o, struct err *err);

#endif
