/* csv: the --format csv writers, one row per task or (--summary) one row per group and
 * phase, in RFC 4180 with LF line ends and formula-looking text cells neutralised.
 * Ownership: the writers borrow the report and the FILE and keep nothing after the call;
 * csv_add_cell() appends to the caller's buf.
 *
 * Task CSV: one header row, then the columns of REPORT_COLUMNS in order (product.md's
 * list plus soci_evidence and source). Times ISO 8601 UTC with ms (or as --time-format
 * says: see timeutil_format_as), durations "12.345"
 * seconds, a missing value is an empty cell.
 *
 * Summary CSV: group, phase, n, min_s, p50_s, p90_s, p99_s, max_s, mean_s, baseline,
 * p50_delta_s, p50_ratio, p90_delta_s, p90_ratio, p_value, pull_share. One row per group
 * (report order) and phase (provision, pull, start, total, connectivity). Statistics are
 * seconds with three decimals and empty when n = 0. `baseline` names the group the
 * comparison is against; it and the comparison columns are empty on the baseline's own
 * rows and wherever a side has no data. Deltas are group minus baseline and may be
 * negative; ratios are group / baseline ("%.3f"); p_value is the two-sided Mann-Whitney p
 * ("%.4g"). pull_share (sum of pull / sum of total over the group's tasks having both,
 * 0..1, "%.3f") belongs to the group and is repeated on each of its rows. */
#ifndef ECSPROF_CSV_H
#define ECSPROF_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "ecsprof/buf.h"
#include "ecsprof/err.h"
#include "ecsprof/report.h"
#include "ecsprof/timeutil.h"

int csv_write_tasks(FILE *f, const struct report *r, struct err *err);
/* The same with the times written as tf says (--time-format; csv_write_tasks is ISO). */
int csv_write_tasks_as(FILE *f, const struct report *r, enum time_format tf, struct err *err);
/* The same on `threads` threads (0: two when there are two CPUs, else one): chunks of rows
 * formatted side by side and written in order, so the bytes are the same for any count. */
int csv_write_tasks_threads(FILE *f, const struct report *r, enum time_format tf,
			    unsigned threads, struct err *err);
int csv_write_summary(FILE *f, const struct report *r, struct err *err);

/* The task CSV's header line, and one task's line (newline included), appended to b: the
 * same bytes csv_write_tasks_as writes, for writers that emit rows one at a time (watch
 * -o). -1 (b unchanged by the row) when b's cap is reached. */
int csv_add_header(struct buf *b);
int csv_add_row(struct buf *b, const struct report *r, const struct report_row *row,
		enum time_format tf);

/* Appends one cell (without separator) to b. A text cell (is_text) starting with '=',
 * '+', '-', '@', TAB or CR gets a leading apostrophe so that a spreadsheet shows it
 * instead of running it (OWASP "CSV injection"). The cell is quoted when it holds a
 * comma, quote, CR, LF or another line break a reader may split on (VT, FF, FS/GS/RS,
 * U+0085, U+2028, U+2029); quotes are doubled. -1 when b's cap is reached. */
int csv_add_cell(struct buf *b, const char *cell, bool is_text);

#endif
