/* html: the --format html writer: one self-contained page (inline CSS and SVG, no script,
 * no external fetch) that answers "where did the time go" for a ticket or a postmortem.
 * Ownership: html_write() borrows the report, the meta and the FILE and keeps nothing.
 *
 * The page, top to bottom: a header (what was profiled, when, how many tasks, the
 * filters), the waterfall of every task on one shared time axis (provision, pull and start
 * coloured, failed starts marked, a <title> with the values on every row), per phase an
 * empirical CDF of each group with the baseline drawn under the others, the summary per
 * group with the verdict sentences (report_verdict), the image facts and the diagnosis
 * counts (each only when present), the tasks that failed to start, and
 * the task table. Large sets stay small: above HTML_WATERFALL_ROWS tasks a waterfall row
 * stands for several consecutive tasks (their medians), CDFs keep at most
 * HTML_CDF_POINTS steps per group, and the task table lists HTML_TABLE_ROWS tasks; each
 * says so on the page. */
#ifndef ECSPROF_HTML_H
#define ECSPROF_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/report.h"

#define HTML_WATERFALL_ROWS 400
#define HTML_CDF_POINTS 400
#define HTML_TABLE_ROWS 2000
#define HTML_FAILED_ROWS 500

/* What the page says about the run; every string may be NULL. */
struct html_meta {
	const char *command;      /* "ecsprof report --group-by soci scaleout.json" */
	const char *filters;      /* "--cluster prod --since 2h"; NULL or "" = none */
	const char *group_by;     /* the --group-by key; NULL = not grouped */
	const char *version;      /* "0.1.0" */
	int64_t generated_ms;     /* when the page was written; TS_NONE = not shown */
	/* limits; 0 = the HTML_* defaults (tests set them small) */
	size_t waterfall_rows;
	size_t table_rows;
};

int html_write(FILE *f, const struct report *r, const struct html_meta *m, struct err *err);

#endif
