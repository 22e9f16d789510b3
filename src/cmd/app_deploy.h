/* app_deploy: `--deployments` (report, and tasks with --service): one row per service
 * deployment, measured against the tasks it started.
 * Ownership: borrows the options and the task set. */
#ifndef ECSPROF_APP_DEPLOY_H
#define ECSPROF_APP_DEPLOY_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"
#include "ecsprof/task.h"

/* report --deployments FILE...: the deployments in the files, against their tasks (as
 * selected). Each file is read once, for both ("-", standard input, too). */
int app_deploy_report(const struct cli_opts *o, struct err *err);
/* tasks --deployments --service NAME: DescribeServices and the tasks, live. */
int app_deploy_tasks(const struct cli_opts *o, struct err *err);

#endif
