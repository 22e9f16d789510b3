/* log: warnings, verbose and debug lines on stderr, one line each, prefixed "ecsprof: ".
 * The configuration (verbosity, where the lines go) is a struct log that the program makes
 * once from --verbose/--debug and passes down with each layer's options; a view or a test
 * that wants the lines holds a struct log of its own with a sink.
 * Ownership: nothing is kept; the sink receives a borrowed, formatted line. */
#ifndef ECSPROF_LOG_H
#define ECSPROF_LOG_H

#include <pthread.h>
#include <stddef.h>

#include "ecsprof/strset.h"

/* LOG_TRACE: a line of a log_block as it reads on stderr (a trace carries its own
 * "ecsprof: debug: " where it has one): a sink that writes lines writes it unchanged. */
enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG, LOG_TRACE };

typedef void log_sink_fn(enum log_level level, const char *line, void *ctx);

/* Never defined const: log_block takes its lock through a const pointer. */
struct log {
	int verbosity;               /* 0 = errors and warnings, 1 = --verbose, 2 = --debug */
	log_sink_fn *sink;           /* NULL: stderr */
	void *sink_ctx;
	/* a block goes to the sink line by line: one block at a time, so that the fetch
	 * threads' --debug traces do not interleave in the lines the tasks TUI holds */
	pthread_mutex_t block_lock;
};

/* sink NULL: stderr. */
void log_init(struct log *lg, int verbosity, log_sink_fn *sink, void *sink_ctx);
void log_cleanup(struct log *lg);
/* 0 for NULL */
int log_verbosity(const struct log *lg);

/* lg NULL: errors and warnings on stderr (library code called without a context still
 * says what is wrong), info and debug dropped. */
void log_warn(const struct log *lg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_info(const struct log *lg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_debug(const struct log *lg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A block of lines, each ending in '\n' (a --debug trace of one request), written as it is
 * in one piece so that threads' blocks do not interleave; to the sink line by line, as
 * LOG_TRACE lines, one block at a time (a sink's lines of two blocks do not interleave
 * either). Written whatever the verbosity: the caller asked for the trace (--debug). */
void log_block(const struct log *lg, const char *text);

/* Warnings said once: the same line again is dropped, so a poll that meets the same bad
 * task every few seconds (watch, experiment) warns about it once. One per thread that
 * delivers warnings (it has no lock). Ownership: it owns copies of the lines it said;
 * it borrows log. */
struct log_once {
	const struct log *log;
	struct strset seen;
	char **lines;
	size_t n, cap;
};

void log_once_init(struct log_once *o, const struct log *lg);
void log_once_cleanup(struct log_once *o);
/* log_warn(o->log, "%s", line) the first time o sees line; shaped as an input_warn_fn
 * (ctx = o). */
void log_once_warn(void *o, const char *line);

#endif
