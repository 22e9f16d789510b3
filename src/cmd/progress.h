/* progress: one line on standard error saying how far long work has got (tasks fetched of
 * listed, bytes read of total, an ETA), for a person at a terminal: shown only when stderr
 * is a terminal, not for the terminal UI (which has its own bottom line), not with --quiet,
 * and only once the work has taken over a second; redrawn in place at most a few times a
 * second and erased when the work is done, so nothing is left of it.
 * Ownership: a struct progress owns nothing; it borrows stderr between begin and end. */
#ifndef ECSPROF_PROGRESS_H
#define ECSPROF_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/cli.h"
#include "ecsprof/live.h"

struct progress {
	bool on;                 /* a terminal, no TUI, no --quiet */
	bool shown;              /* a line is on the terminal (erased by progress_end) */
	int64_t start_ms, last_ms;
};

void progress_begin(struct progress *p, const struct cli_opts *o);
/* The line, "\r...\033[K", when the work has lasted PROGRESS_AFTER_MS and the last one
 * is PROGRESS_EVERY_MS old. */
void progress_show(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A live fetch's progress in words: "fetching: 1,200 of 6,000 tasks (ETA 12s)". */
void progress_fetch_words(const struct progress *p, const struct live_progress *lp,
			  const char *cluster, char *out, size_t size);
/* Reading a file: "reading FILE: 1,200.5 of 2,500.0 MB (ETA 12s)"; total 0: not known. */
void progress_read_words(const struct progress *p, const char *name, uint64_t read,
			 uint64_t total, char *out, size_t size);
void progress_end(struct progress *p);

#endif
