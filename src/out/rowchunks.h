/* rowchunks: a writer's rows formatted in chunks, on two threads when it pays, and written
 * in order, so the bytes are the same for any thread count (the task CSV and the task
 * JSON; the CSV's two threads were why a JSON took twice its wall time, issue 35). Into
 * a regular file (not O_APPEND) each thread writes the chunks it formats at their offsets,
 * and the FILE is left at the end of the rows.
 * Ownership: rowchunks_write borrows everything it is given and keeps nothing; each
 * thread formats with its own scratch (made by scratch_new, freed by scratch_free). */
#ifndef ECSPROF_ROWCHUNKS_H
#define ECSPROF_ROWCHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ecsprof/buf.h"
#include "ecsprof/err.h"

/* Rows [first, end), whole, in out; good is how much of out is rows before one too large
 * (overflow true), all of it otherwise. */
struct rowchunks_part {
	struct buf out;
	size_t good;
	bool overflow;
};

/* Formats rows [first, end) into part (emptied first), with this thread's scratch. */
typedef void rowchunks_format_fn(const void *ctx, void *scratch, size_t first, size_t end,
				 struct rowchunks_part *part);

struct rowchunks {
	size_t nrows;
	unsigned threads;                 /* 0: two when there are two CPUs, else one */
	rowchunks_format_fn *format;
	const void *ctx;
	void *(*scratch_new)(void);
	void (*scratch_free)(void *);
	const char *what;                 /* names the output in a write error ("csv") */
};

/* The rows formatted and written after what f holds: 0; 1 when a row was too large (the
 * rows before it written, nothing of it; err not set: the caller says how large); -1 and
 * err on a write error (the first, on whichever thread). */
int rowchunks_write(FILE *f, const struct rowchunks *rc, struct err *err);

#endif
