/* app_changes: `report --changes [--changes-by day|deployment] FILE...`: the change points
 * of one history (diff_changes.h), written through the sink.
 * Ownership: borrows the options. */
#ifndef ECSPROF_APP_CHANGES_H
#define ECSPROF_APP_CHANGES_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"

int app_changes_report(const struct cli_opts *o, struct err *err);

#endif
