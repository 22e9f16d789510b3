/* app_share: the shareable outputs (--format html and xlsx) wired from the options: what
 * the page's header says about the run, and the checks a binary workbook needs.
 * Ownership: borrows everything; the FILE stays the caller's (app_write's atomic -o). */
#ifndef ECSPROF_APP_SHARE_H
#define ECSPROF_APP_SHARE_H

#include <stdio.h>

#include "ecsprof/cli.h"
#include "ecsprof/err.h"
#include "ecsprof/report.h"

/* fmt is FMT_HTML or FMT_XLSX; f is --output (a temporary file renamed into place) or
 * stdout. An xlsx refuses a terminal. */
int app_share_write(const struct cli_opts *o, enum cli_format fmt, FILE *f,
		    const struct report *r, struct err *err);

#endif
