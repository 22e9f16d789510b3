/* watch: `ecsprof watch`, a poll loop over the live API that follows a scale-out: the
 * terminal UI refreshed in place, or (stdout not a terminal) one CSV / JSON Lines line per
 * task as it reaches RUNNING or STOPPED. Backs off while throttled; Ctrl-C ends it cleanly.
 * Ownership: watch_run owns every task set and report it builds and frees them before
 * returning; the source's callbacks and strings are borrowed. */
#ifndef ECSPROF_WATCH_H
#define ECSPROF_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecsprof/cli.h"
#include "ecsprof/err.h"
#include "ecsprof/report.h"
#include "ecsprof/sink.h"
#include "ecsprof/task.h"

/* What watch needs from the rest of the program, as callbacks so that it can run against
 * the live client, a fake, or a test. */
struct watch_source {
	/* One poll: fill the (initialised, empty) set with the selected tasks, and set
	 * *scale_start_ms to the newest deployment's createdAt of the watched services, or
	 * TS_NONE (watch then counts from the newest burst of createdAt, scaleout.h).
	 * ERR_THROTTLED makes watch back off. */
	int (*fetch)(void *ctx, struct task_set *out, int64_t *scale_start_ms, struct err *err);
	/* Profiles a set (--group-by, --soci-if, --baseline, --sort) into out. */
	int (*build)(void *ctx, struct task_set *set, struct report *out, struct err *err);
	/* --record FILE: append what this poll saw; NULL when not recording. */
	int (*record)(void *ctx, const struct task_set *set, struct err *err);
	void *ctx;
	/* The watched services' desiredCount at the last poll, -1 when not known; NULL: not
	 * known. */
	long (*desired)(void *ctx);
	/* May be NULL. Before each fetch: the last poll's tasks (NULL before the first), kept
	 * unchanged until the fetch returns, so that a source can copy what cannot have
	 * changed instead of asking again. */
	void (*previous)(void *ctx, const struct task_set *prev);
	/* May be NULL (the UI then waits for fetch). The same poll as a job the terminal UI
	 * drives from its key loop, so that keys work while ECS answers: fetch_start begins
	 * it into out (initialised, empty; kept until it ends); fetch_poll waits up to wait_ms
	 * for it: 1 still running, 0 done (out filled, *scale_start_ms as fetch sets it), -1
	 * failed (err); fetch_progress words where it is ("polling: 1,200 of 6,000 tasks");
	 * fetch_cancel gives it up. */
	int (*fetch_start)(void *ctx, struct task_set *out, struct err *err);
	int (*fetch_poll)(void *ctx, int64_t wait_ms, int64_t *scale_start_ms, struct err *err);
	void (*fetch_progress)(void *ctx, char *out, size_t size);
	void (*fetch_cancel)(void *ctx);
	/* May be NULL. The warnings held while the screen is up (tui_source.warnings). */
	size_t (*warnings)(void *ctx, size_t i, char *out, size_t size);
};

struct watch_options {
	int64_t interval_ms;          /* between polls; <= 0: 5 s */
	long polls;                   /* stop after this many polls (tests); 0 = until Ctrl-C */
	enum cli_format format;       /* FMT_TUI; FMT_CSV / FMT_JSON lines; FMT_TABLE /
					 FMT_MARKDOWN the table of the last poll, at the end */
	struct sink *sink;            /* where lines and the table go (a file is published at
					 the first line); NULL = stdout */
	bool no_color;
	const char *title;            /* e.g. "watch cluster prod service web" */
	const struct log *log;        /* a poll's failure kept going on (NULL: log.h) */
	enum time_format time_format; /* CSV lines' times (--time-format) */
};

#define WATCH_BACKOFF_MAX_MS 60000

int watch_run(const struct watch_source *s, const struct watch_options *o, struct err *err);
/* The flag watch_run's Ctrl-C handler sets, for a source's requests to give up on
 * (live_session_set_interrupt). */
const volatile sig_atomic_t *watch_interrupted(void);

/* The whole `ecsprof watch` command: a live session (live.h) polled with the options'
 * selection, --interval, --once, --record FILE (record.h), --format and --output; the
 * terminal UI when stdout is a terminal and no other format was asked for, else lines
 * (CSV unless --format json), or with --format table or markdown the table of the tasks
 * of the last poll when it ends. */
int watch_main(const struct cli_opts *o, struct err *err);

/* The next interval after a poll: doubled (up to WATCH_BACKOFF_MAX_MS) while throttled,
 * back to base after a poll that was not. */
int64_t watch_next_interval(int64_t base_ms, int64_t current_ms, bool throttled);

/* How far the watched scale-out has got (watch_status.c), for the status line. With a
 * deployment start (--service: DescribeServices) the tasks created since then count,
 * against desired; without (deploy_start_ms TS_NONE) those of the newest burst of
 * createdAt (scaleout.h), against how many it has. */
struct watch_progress {
	bool deployment;              /* start_ms is the deployment's createdAt */
	int64_t start_ms;             /* TS_NONE: no task has a createdAt */
	int64_t now_ms;               /* now, or the newest time ECS has shown if later */
	long desired;                 /* the services' desiredCount; -1 without --service */
	size_t tasks, running, healthy, starting, failed;   /* of the tasks counted */
	int64_t last_started_ms;      /* the latest startedAt of those running */
};
void watch_progress_of(const struct task_set *set, int64_t deploy_start_ms, long desired,
		       int64_t now_ms, struct watch_progress *p);
/* The time since the start while tasks are still starting, the time the last one took
 * once all are running: "deployment +1m05s: 2 of 3 running / 1 healthy", "deployment: 3 of
 * 3 running / 3 healthy, all after 45.0s", "scale-out +12.0s: 1 of 3 running",
 * "scale-out: 3 of 3 running, the last after 45.0s"; ", N failed" when some failed to start. */
void watch_progress_text(const struct watch_progress *p, char *out, size_t size);

#endif
