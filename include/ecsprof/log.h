/* log: warnings, verbose and debug lines on stderr, one line each, prefixed "ecsprof: ".
 * Tests can redirect them with log_set_sink().
 * Ownership: nothing is kept; the sink receives a borrowed, formatted line. */
#ifndef ECSPROF_LOG_H
#define ECSPROF_LOG_H

#include <stddef.h>

#include "ecsprof/strset.h"

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef void log_sink_fn(enum log_level level, const char *line, void *ctx);

/* 0 = errors and warnings (default), 1 = --verbose, 2 = --debug */
void log_set_verbosity(int v);
int log_verbosity(void);
/* NULL restores stderr. */
void log_set_sink(log_sink_fn *fn, void *ctx);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A block of lines, each ending in '\n' (a --debug trace of one request), written in one
 * piece so that threads' blocks do not interleave; to the sink line by line, at level,
 * one block at a time (a sink's lines of two blocks do not interleave either).
 * Written whatever the verbosity: the caller asked for the trace (--debug). */
void log_block(enum log_level level, const char *text);

/* Warnings said once: the same line again is dropped, so a poll that meets the same bad
 * task every few seconds (watch, experiment) warns about it once. One per thread that
 * delivers warnings (it has no lock). Ownership: it owns copies of the lines it said. */
struct log_once {
	struct strset seen;
	char **lines;
	size_t n, cap;
};

void log_once_init(struct log_once *o);
void log_once_cleanup(struct log_once *o);
/* log_warn("%s", line) the first time o sees line; shaped as an input_warn_fn (ctx = o). */
void log_once_warn(void *o, const char *line);

#endif
