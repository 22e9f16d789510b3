/* app_scaleout: `report --scaleout FILE...`: the scale-outs in the files (their source
 * documents, scaleout_src.h) told against their tasks, one row each.
 * Ownership: borrows the options. */
#ifndef ECSPROF_APP_SCALEOUT_H
#define ECSPROF_APP_SCALEOUT_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"

/* Each file is read once, for the tasks and the source documents ("-" too). */
int app_scaleout_report(const struct cli_opts *o, struct err *err);

#endif
