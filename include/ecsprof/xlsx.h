/* xlsx: the --format xlsx writer (libxlsxwriter): a workbook that opens with typed cells
 * in any locale, for the people who chart the numbers themselves.
 * Ownership: xlsx_write() borrows the report and the FILE and keeps nothing; its
 * temporary file is removed before it returns.
 *
 * Sheets: "Tasks" (the task CSV's columns in order; times as Excel date-times shown
 * "yyyy-mm-dd hh:mm:ss.000" UTC, durations as numbers of seconds, cpu and memory as
 * numbers when they are; a frozen header row, an autofilter, fitted column widths),
 * "Summary" (the summary CSV's columns and the verdict sentence, typed the same way) and
 * "Chart" (a stacked bar chart of provision, pull and start: one bar per task up to
 * XLSX_CHART_TASKS tasks, else one bar per group of its p50s, with their table). */
#ifndef ECSPROF_XLSX_H
#define ECSPROF_XLSX_H

#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/report.h"

#define XLSX_CHART_TASKS 300

/* The workbook is built in a temporary file ($TMPDIR, else /tmp), since the zip format
 * needs one, then copied to f (which may be a pipe). */
int xlsx_write(FILE *f, const struct report *r, struct err *err);

#endif
