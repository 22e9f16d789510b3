/* err: the error value every fallible function fills, and the exit status it maps to.
 * A function that fails returns -1 and writes one line into the caller's struct err.
 * Ownership: struct err owns no heap memory; it is plain storage the caller provides. */
#ifndef ECSPROF_ERR_H
#define ECSPROF_ERR_H

#include <stdarg.h>
#include <stdio.h>

/* X(code, exit status, short label) */
#define ERR_CODES(X)                                   \
	X(ERR_OK,         0, "ok")                     \
	X(ERR_USAGE,      2, "usage error")            \
	X(ERR_IO,         1, "input/output error")     \
	X(ERR_PARSE,      1, "bad input")              \
	X(ERR_CONFIG,     1, "configuration error")    \
	X(ERR_CREDS,      1, "no credentials")         \
	X(ERR_NETWORK,    1, "network error")          \
	X(ERR_THROTTLED,  1, "throttled")              \
	X(ERR_AWS,        1, "AWS error")              \
	X(ERR_INTERNAL,   1, "internal error")

enum err_code {
#define X(c, s, l) c,
	ERR_CODES(X)
#undef X
};

struct err {
	enum err_code code;
	long http_status;   /* for ERR_AWS / ERR_THROTTLED; 0 otherwise */
	char aws_type[64];  /* AWS error code, e.g. "ThrottlingException" */
	char msg[512];      /* one line, no trailing newline */
};

void err_clear(struct err *err);
/* Sets code and formats msg; returns -1 so callers can `return err_set(...)`. */
int err_set(struct err *err, enum err_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int err_vset(struct err *err, enum err_code code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* Prepends "prefix: " to an existing message (adds context as the error travels up). */
int err_prefix(struct err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The end of every writer: flushes f and turns an earlier failure (rc != 0) or a stream
 * error into ERR_IO "WHAT: write failed: REASON". Returns 0 or -1. */
int err_check_write(FILE *f, int rc, const char *what, struct err *err);
/* strerror(e), except where the system's words do not say what to do: EMFILE and
 * ENFILE ("too many open files (... raise ulimit -n)") and ENOMEM ("out of memory"). */
const char *err_strerror(int e);
/* After a failure whose cause the library hides (libcurl says "Couldn't connect" when
 * socket() fails): EMFILE or ENFILE when this process cannot open one more file
 * descriptor now, else 0. */
int err_fd_exhausted(void);
int err_exit_status(enum err_code code);
const char *err_label(enum err_code code);

#endif
