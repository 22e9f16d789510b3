/* err: filling struct err and mapping codes to exit statuses. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ecsprof/err.h"
#include "ecsprof/termsafe.h"

static const struct {
	int status;
	const char *label;
} err_table[] = {
#define X(c, s, l) [c] = { s, l },
	ERR_CODES(X)
#undef X
};

void
err_clear(struct err *err)
{
	memset(err, 0, sizeof *err);
}

/* One line of printable text, always: a newline would break "one clear line", and the
 * message often quotes a server or a file (ESC sequences, BEL, bidi overrides), so this
 * is the one place where every error line is made safe for the terminal. */
static void
scrub(char *msg)
{
	for (char *p = msg; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	termsafe_scrub(msg, NULL);
}

int
err_vset(struct err *err, enum err_code code, const char *fmt, va_list ap)
{
	if (err == NULL)
		return -1;
	err->code = code;
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	scrub(err->msg);
	return -1;
}

int
err_set(struct err *err, enum err_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, code, fmt, ap);
	va_end(ap);
	return -1;
}

int
err_prefix(struct err *err, const char *fmt, ...)
{
	char old[sizeof err->msg];
	va_list ap;
	int n;

	if (err == NULL)
		return -1;
	memcpy(old, err->msg, sizeof old);
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n + 2 < sizeof err->msg)
		snprintf(err->msg + n, sizeof err->msg - (size_t)n, ": %s", old);
	scrub(err->msg);
	return -1;
}

int
err_check_write(FILE *f, int rc, const char *what, struct err *err)
{
	if (rc != 0 || fflush(f) != 0 || ferror(f))
		return err_set(err, ERR_IO, "%s: write failed: %s", what,
			       errno ? strerror(errno) : "output error");
	return 0;
}

int
err_exit_status(enum err_code code)
{
	if ((size_t)code >= sizeof err_table / sizeof err_table[0])
		return 1;
	return err_table[code].status;
}

const char *
err_label(enum err_code code)
{
	if ((size_t)code >= sizeof err_table / sizeof err_table[0])
		return "error";
	return err_table[code].label;
}

const char *
err_strerror(int e)
{
	switch (e) {
	case EMFILE:
		return "too many open files: this process reached its limit of open file "
		       "descriptors (raise ulimit -n, or lower --concurrency)";
	case ENFILE:
		return "too many open files in the system: the system-wide limit of open "
		       "files was reached (close other programs or raise fs.file-max; ulimit -n "
		       "alone does not help)";
	case ENOMEM:
		return "out of memory";
	default:
		return strerror(e);
	}
}

int
err_fd_exhausted(void)
{
	int saved = errno, fd = open("/dev/null", O_RDONLY | O_CLOEXEC), e = errno;

	if (fd >= 0) {
		close(fd);
		e = 0;
	} else if (e != EMFILE && e != ENFILE) {
		e = 0;
	}
	errno = saved;
	return e;
}
