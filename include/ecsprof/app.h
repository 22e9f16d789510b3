/* app: the commands (tasks, watch, record, report) wired from options to inputs, model
 * and outputs. main() only calls app_main(); watch and the TUI reuse the steps below.
 * Ownership: functions borrow the options and task set; a report filled by
 * app_build_report() is the caller's to report_cleanup(). */
#ifndef ECSPROF_APP_H
#define ECSPROF_APP_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"
#include "ecsprof/live.h"
#include "ecsprof/report.h"
#include "ecsprof/sink.h"
#include "ecsprof/task.h"

int app_main(int argc, char **argv);

/* The options a live session needs (live.h), borrowed from o: the AWS side never sees
 * the command line. */
struct live_options app_live_options(const struct cli_opts *o);

/* The width a table is written at: $COLUMNS (20..1000), else the terminal's, else
 * TABLE_WIDTH_DEFAULT. */
int app_terminal_width(void);

/* Applies the SELECT options (--cluster, --service, --family, --started-by, --status,
 * --task, --since) to a task set, for offline data and as a safety net for live data. */
int app_select(const struct cli_opts *o, struct task_set *set, struct err *err);
/* --soci-if: every task labelled SOCI, no-soci or unknown (group_apply_soci). */
int app_soci(const struct cli_opts *o, struct task_set *set, struct err *err);
/* --soci-if labels, --group-by, --baseline, --sort: the task set becomes a report;
 * app_build_report then warns of the phases that end before they begin (app_warn_skew),
 * app_report_of leaves that to its caller (watch: once per run, not every poll). */
int app_build_report(const struct cli_opts *o, struct task_set *set, struct report *r,
		     struct err *err);
int app_report_of(const struct cli_opts *o, struct task_set *set, struct report *r,
		  struct err *err);
void app_warn_skew(const struct log *lg, const struct report *r);
/* FMT_AUTO resolved: tui on a terminal (and no --output), else table. */
enum cli_format app_format(const struct cli_opts *o);
/* Opens the output of a command through the sink (sink.h): --output or stdout, fmt's
 * format, or with no --format the one -o's extension names (a table, with a warning,
 * when it names none). */
int app_sink_open(const struct cli_opts *o, enum cli_format fmt, struct sink *s,
		  const struct sink_options *so, struct err *err);
/* Writes a report as table, csv, json, markdown, html or xlsx to --output (atomically)
 * or stdout. */
int app_write(const struct cli_opts *o, enum cli_format fmt, const struct report *r,
	      struct err *err);

#endif
