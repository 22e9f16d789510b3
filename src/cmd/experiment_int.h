/* experiment_int: what the files of `ecsprof experiment` share: cmd_experiment.c (options,
 * checks, plan, confirmation), experiment_run.c (launch, wait, stop, the journal and the
 * signals), experiment_report.c (the summary by arm and the power line) and
 * experiment_cleanup.c (--cleanup ID).
 * Ownership: a struct xrun owns its arms, tasks, plan, network and prices, freed by
 * xrun_cleanup(); it borrows the options and the live session. */
#ifndef ECSPROF_EXPERIMENT_INT_H
#define ECSPROF_EXPERIMENT_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/cli.h"
#include "ecsprof/cost.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/err.h"
#include "ecsprof/experiment.h"
#include "ecsprof/log.h"
#include "ecsprof/app.h"
#include "ecsprof/live.h"
#include "ecsprof/task.h"
#include "ecsprof/tui_experiment.h"
#include "held_log.h"

#define XRUN_RETRIES 3          /* RunTask calls asked again after retryable failures */
#define XRUN_BACKOFF_MS 1000    /* first wait before a retry; doubled each time */

struct xarm {
	struct exp_arm arm;
	struct ecs_taskdef td;
	double vcpu, gb;        /* from the task definition; 0 when unknown */
	bool arm64;
	long planned;
	long launched;
	long gave_up;           /* planned tasks never started (failures beyond the retries) */
	long retried;           /* tasks asked again after a retryable failure */
	char failures[256];     /* the RunTask failure reasons seen, "REASON x N, ..." */
};

struct xtask {
	char *arn;
	size_t arm;
	int64_t launched_ms;
	enum task_stage stage;
	char *health;           /* healthStatus of the last poll; NULL if none */
	int64_t not_healthy_ms; /* the last poll that saw it not HEALTHY; TS_NONE: none */
	int64_t healthy_ms;     /* the first poll that saw it HEALTHY after one that did not */
	int64_t healthy_res_ms; /* ... and the time since that one (no more than since RUNNING) */
	bool done;              /* reached what --until asks, stopped, or timed out */
	bool timed_out;
	bool final;             /* ECS says STOPPED: nothing left to stop */
	bool stop_sent;
	bool malformed_warned;  /* a poll's answer for it could not be read: said once */
	int64_t created_ms, pull_started_ms, pull_stopped_ms, started_ms;   /* the last poll's */
};

struct xrun {
	const struct cli_opts *o;
	char id[72];
	char started_by[96];
	const char *cluster;           /* as given; NULL = ECS's default */
	const char *recording;         /* -o FILE */
	struct live_session *session;
	struct ecs_client *ecs;
	const char *region;
	const char *launch_type;       /* NULL with a capacity provider */
	struct xarm *arms;
	size_t narms;
	struct exp_plan plan;
	struct exp_network net;
	struct cost_prices prices;     /* --prices FILE (cost.h); empty: the built-in table */
	struct xtask *tasks;
	size_t ntasks;
	bool until_healthy;
	int64_t wait_timeout_ms;
	int64_t interval_ms;
	bool malformed_warned;         /* a task without a readable taskArn: said once */
	size_t malformed_polls;        /* answers skipped as malformed, all told */
	struct log_once warned;        /* a polled task's field warnings: said once (zeroed
					* is initialised) */
	struct tui_x *view;            /* on a terminal: the arms side by side (tui_experiment.h) */
	struct held_log held;          /* the log while the view is up */
	struct cli_opts vo;            /* the options, with held's log passed down (o) */
	char progress_prev[1024];      /* the last progress line printed when piped */
	bool interrupted;              /* Ctrl-C or SIGTERM: stop launching, clean up */
	int signal_number;
};

void xrun_cleanup(struct xrun *x);

/* experiment_signal.c */
/* Traps SIGINT, SIGTERM and SIGHUP: the first asks for a clean stop (xrun_signalled), a
 * second prints what is left and how to clean it up, and exits 130. */
void xrun_signals_install(struct xrun *x);
void xrun_signals_restore(void);
bool xrun_signalled(struct xrun *x);
/* Non-zero once a signal came: the fetch's interrupt flag. */
const volatile sig_atomic_t *xrun_interrupt_flag(void);
/* Sleeps ms, or less when a signal comes. */
void xrun_nap(int64_t ms);
/* Keeps the text the second signal prints in step with the tasks not yet stopped. */
void xrun_update_leftover(struct xrun *x);
/* The exact command that cleans up this run. Caller frees. */
char *xrun_cleanup_command(const struct xrun *x);

/* experiment_run.c */
void xrun_fill_request(const struct xrun *x, size_t arm, long count, const char *token,
		       struct ecs_tag_kv tags[2], struct ecs_run_request *req);
/* Runs the plan: RunTask call by call (each answer journaled into the recording at once),
 * waiting as the plan says; then waits for every task. Stops early (0) on a signal. */
int xrun_launch_and_wait(struct xrun *x, struct err *err);
/* StopTask of every started task not yet stopped; -1 if any could not be stopped (each
 * one logged, and the cleanup command printed). */
int xrun_stop_all(struct xrun *x, const char *why, struct err *err);
/* Seconds all the stops of a run may take together: ECSPROF_STOP_TIMEOUT, else 120. */
double xrun_stop_timeout_s(const struct log *lg);
/* Merges raw task states into the recording (record.h guarantees); healthy_ms and
 * healthy_res_ms (NULL, or TS_NONE per line: none) are the observed healthy_at of each. */
int xrun_journal(const struct xrun *x, char *const *raw, const int64_t *fetched_ms,
		 const int64_t *healthy_ms, const int64_t *healthy_res_ms, size_t n,
		 struct err *err);

/* experiment_report.c */
/* The launch outcome per arm, the summary grouped by arm (from the recording) and what
 * difference the sample could detect. */
int xrun_report(struct xrun *x, struct err *err);

/* experiment_cleanup.c */
int xrun_cleanup_command_run(const struct cli_opts *o, struct err *err);

#endif
