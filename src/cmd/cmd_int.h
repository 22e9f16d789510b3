/* cmd_int: what the command files of src/cmd share: one function per command, and the
 * common ending app_output() (report built, then TUI or a written format).
 * Ownership: everything borrows the options and the task set. */
#ifndef ECSPROF_CMD_INT_H
#define ECSPROF_CMD_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/cli.h"
#include "ecsprof/err.h"
#include "ecsprof/task.h"

int cmd_report(const struct cli_opts *o, struct err *err);   /* cmd_report.c */
int cmd_tasks(const struct cli_opts *o, struct err *err);    /* cmd_tasks.c */
int cmd_watch(const struct cli_opts *o, struct err *err);    /* cmd_watch.c */
int cmd_record(const struct cli_opts *o, struct err *err);   /* cmd_record.c */
int cmd_scaleout(const struct cli_opts *o, struct err *err); /* cmd_scaleout.c */
/* cmd_check.c: 0 no error found, 1 errors found (the verdict is written), -1 failed */
int cmd_check(const struct cli_opts *o, struct err *err);
/* check's exit status when it could not judge (a file unreadable, an AWS call failed):
 * apart from 1, "errors found", so that a pipeline gating on the verdict does not take a
 * failure to look for one */
#define CHECK_EXIT_NOT_JUDGED 4
/* cmd_diff.c: 0, -1 (err), or 3 when a --fail-on gate was crossed (lines on stderr) */
int cmd_diff(const struct cli_opts *o, struct err *err);

/* Profiles a task set and shows it in the format asked for (cmd_output.c). */
int app_output(const struct cli_opts *o, struct task_set *set, const char *title,
	       struct err *err);
/* "6,000" (app_view.c): counts on a progress line are read at a glance. Returns out. */
const char *app_grouped(size_t n, char out[32]);
/* The TUI's options from the command line (--no-color, --summary, --sort). */
struct tui_options;
int app_tui_options(const struct cli_opts *o, struct tui_options *to, struct err *err);

#endif
