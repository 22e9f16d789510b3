/* tui_experiment: the arms of `ecsprof experiment` side by side on the terminal while its
 * tasks start: one column per arm, one row per task filling in as RunTask starts it, a
 * waterfall bar (provision, pull, start) on an axis every arm shares, the stage and the
 * time; under them the last warnings. The experiment (src/cmd) fills a struct tui_xstate
 * from its model at every poll; this module only draws it: it reads no JSON and asks
 * nothing of ECS. tui_xrender() is the layout as plain spans (unit-tested, no curses); the
 * rest puts the spans on the terminal (standard error, the alternate screen).
 * Ownership: a struct tui_xstate and what it points to are borrowed for the call; a
 * struct tui_xscreen owns its spans (tui_xscreen_cleanup); tui_xopen's handle is freed by
 * tui_xclose, which always restores the terminal. */
#ifndef ECSPROF_TUI_EXPERIMENT_H
#define ECSPROF_TUI_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/task.h"
#include "ecsprof/tui_layout.h"

/* One started task, as the last poll saw it. Times are ECS's (TS_NONE when not yet). */
struct tui_xtask {
	enum task_stage stage;
	int64_t created_ms, pull_started_ms, pull_stopped_ms, started_ms;
	int64_t waited_ms;          /* since RunTask answered, by the local clock */
	bool healthy;               /* healthStatus HEALTHY */
	bool timed_out;             /* left out of the wait at --timeout */
};

struct tui_xarm {
	const char *name;           /* "no-soci" */
	const char *taskdef;        /* as given: "web:7" */
	long planned, launched, gave_up;
	const struct tui_xtask *tasks;   /* in launch order */
	size_t ntasks;
	int64_t p50_total_ms;       /* median createdAt..startedAt of its tasks that ran; TS_NONE */
	size_t n_total;             /* how many that median is of */
};

struct tui_xstate {
	const char *id;             /* the experiment's id */
	const char *cluster;
	const char *until;          /* "RUNNING" or "HEALTHY" */
	int64_t wait_timeout_ms;    /* --timeout */
	int64_t elapsed_ms;         /* since the first RunTask */
	const struct tui_xarm *arms;
	size_t narms;
	const char *const *messages;   /* the last warnings, oldest first */
	size_t nmessages;
	bool stopping;              /* Ctrl-C or SIGTERM came: the tasks are being stopped */
};

/* Colours of the spans, as the task table uses them (CP_* in tui_int.h follow
 * enum tui_seg_kind for the bar). */
enum tui_xcolor { TUI_X_PLAIN, TUI_X_BAR_PROVISION, TUI_X_BAR_PULL, TUI_X_BAR_START,
		  TUI_X_TITLE, TUI_X_DONE, TUI_X_BAD, TUI_X_DIM, TUI_X_HEAD };

struct tui_xspan {
	int row, col;               /* where it starts on the screen */
	int cells;                  /* the cells it takes */
	enum tui_xcolor color;
	char *text;                 /* UTF-8, owned */
};

struct tui_xscreen {
	struct tui_xspan *spans;
	size_t n, cap;
	bool side_by_side;          /* the arms in columns (else one under another) */
	int tasks_shown;            /* task rows per arm that fit */
};

/* The screen for state s on cols x rows cells. Every span fits in it (col + cells <=
 * cols, row < rows). With color, bars are full blocks told apart by colour; without,
 * each phase has its glyph (tui_bar_glyph). */
void tui_xrender(const struct tui_xstate *s, int cols, int rows, enum tui_glyphs g,
		 bool color, struct tui_xscreen *out);
void tui_xscreen_cleanup(struct tui_xscreen *sc);

struct tui_x;
/* Opens the view on standard error's terminal (the alternate screen; keys are not read,
 * Ctrl-C stays a signal). NULL with err when it cannot (not a terminal, TERM unknown or
 * dumb): the caller then prints progress lines instead. no_color: --no-color or NO_COLOR. */
struct tui_x *tui_xopen(bool no_color, struct err *err);
void tui_xdraw(struct tui_x *x, const struct tui_xstate *s);
/* Leaves the alternate screen and restores the terminal; NULL is a no-op. */
void tui_xclose(struct tui_x *x);
/* From a signal handler that is about to _exit: puts the terminal back (its saved modes,
 * the normal screen, the cursor) using only async-signal-safe calls. */
void tui_xemergency_restore(void);

#endif
