/* cmd_experiment: `ecsprof experiment` (and `--cleanup ID`), called by app_main().
 * Ownership: borrows the options; everything it allocates is freed before it returns. */
#ifndef ECSPROF_CMD_EXPERIMENT_H
#define ECSPROF_CMD_EXPERIMENT_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"

int cmd_experiment(const struct cli_opts *o, struct err *err);

#endif
