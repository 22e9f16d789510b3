/* diffhtml: the page `ecsprof diff --format html` writes: the diff's tables and notes, and
 * both windows' distributions on one plot per phase.
 * Ownership: struct diff_html borrows everything; nothing is kept after the call. */
#ifndef ECSPROF_DIFFHTML_H
#define ECSPROF_DIFFHTML_H

#include <stdio.h>

#include "ecsprof/diff.h"
#include "ecsprof/err.h"
#include "ecsprof/sink.h"

struct diff_html {
	const struct diff *d;
	const struct diff_window *base, *cur;
	const char *title;
	const struct sink *sink;        /* the open sink: its cells' style */
};

/* A sink_custom_fn: ctx is a struct diff_html. */
int diffhtml_write(FILE *f, void *ctx, struct err *err);

#endif
