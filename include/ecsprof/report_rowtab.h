/* report_rowtab: the report as row tables (rowtab.h) for the sink's generic writers
 * (--format markdown, watch's CSV lines): the tasks, one row a task, every column of
 * REPORT_COLUMNS in order (its CSV is csv_add_row's bytes), the table's own (task, task
 * definition, zone, status, group when grouped, created, the phases) shown and the others
 * CSV/JSON only, with the failed and troubled stops as notes;
 * the summary, one row a group and phase, with the startup cost, the diagnosis counts and
 * the verdicts as notes.
 * Ownership: a struct report_rowtab borrows the report (keep it alive and unchanged) and
 * owns its columns and notes until report_rowtab_cleanup(). */
#ifndef ECSPROF_REPORT_ROWTAB_H
#define ECSPROF_REPORT_ROWTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/report.h"
#include "ecsprof/rowtab.h"

#define REPORT_SUMMARY_COLS 10

struct report_rowtab {
	struct row_table t;
	const struct report *r;
	struct row_column cols[COL_COUNT];   /* the tasks: REPORT_COLUMNS, in order */
	struct report_cells *cells;          /* the tasks: the texts of row *cached_row */
	size_t *cached_row;
	size_t *phase_of;                    /* the summary: row -> group * PHASE_COUNT + phase */
	char **notes;
	size_t nnotes, cap;
};

/* notes: with the stops as notes (a document); without, for rows streamed a poll at a
 * time (watch), which never print them */
void report_rowtab_tasks(struct report_rowtab *rt, const struct report *r, bool notes);
void report_rowtab_summary(struct report_rowtab *rt, const struct report *r);
void report_rowtab_cleanup(struct report_rowtab *rt);

#endif
