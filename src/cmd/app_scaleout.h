/* app_scaleout: `report --scaleout FILE...`: the scale-outs in the files (their source
 * documents, scaleout_src.h) told against their tasks, one row each.
 * Ownership: borrows the options. */
#ifndef ECSPROF_APP_SCALEOUT_H
#define ECSPROF_APP_SCALEOUT_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"
#include "ecsprof/scaleout_src.h"
#include "ecsprof/task.h"

/* Each file is read once, for the tasks and the source documents ("-" too). */
int app_scaleout_report(const struct cli_opts *o, struct err *err);
/* The story told from sources and tasks however they were read (files, or the live
 * answers handed to input_scaleout_read_mem and the task reader): the SELECT options
 * applied to the tasks, --since and --service to the rows, written through the sink to
 * --format / -o. */
int app_scaleout_tell(const struct cli_opts *o, const struct so_sources *src,
		      struct task_set *set, struct err *err);

#endif
