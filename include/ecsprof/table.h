/* table: the --format table writers: aligned plain text (no colour, no escape codes) for
 * a pipe, a file or a log, one line per task or (--summary) one block per group.
 * Ownership: the writers borrow the report and the FILE and keep nothing.
 *
 * Task table: TASK (the shortest unique id prefix, at least 8 characters), TASKDEF,
 * STATUS, AZ and the phases PROVISION, PULL, START, TOTAL in seconds with one decimal fit
 * 80 columns; a wider `width` adds GROUP (when there are several groups), SERVICE,
 * LAUNCH, SOCI, CREATED, CONNECT and IMAGE as they fit; `verbose` adds them all and shows
 * full task ids. A missing value shows "-". A task that stopped before RUNNING shows
 * STATUS with a "*" and gets a footnote line with its stopCode and stoppedReason.
 *
 * Summary table: per group a header line (name, task count, share of startup spent in
 * pull, which group is the baseline), a PHASE/N/MIN/P50/P90/P99/MAX/MEAN block in
 * seconds, and for every other group one verdict sentence per phase (report_verdict),
 * wrapped to `width`. With no tasks at all either table is the line "(no tasks)". */
#ifndef ECSPROF_TABLE_H
#define ECSPROF_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/report.h"

#define TABLE_WIDTH_DEFAULT 80

/* width <= 0 means TABLE_WIDTH_DEFAULT */
int table_write_tasks(FILE *f, const struct report *r, int width, bool verbose,
		      struct err *err);
int table_write_summary(FILE *f, const struct report *r, int width, struct err *err);

#endif
