/* log: one-line diagnostics on stderr (or a struct log's sink); no state of its own. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/log.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/xalloc.h"

void
log_init(struct log *lg, int verbosity, log_sink_fn *sink, void *sink_ctx)
{
	lg->verbosity = verbosity;
	lg->sink = sink;
	lg->sink_ctx = sink_ctx;
	pthread_mutex_init(&lg->block_lock, NULL);
}

void
log_cleanup(struct log *lg)
{
	pthread_mutex_destroy(&lg->block_lock);
	memset(lg, 0, sizeof *lg);
}

int
log_verbosity(const struct log *lg)
{
	return lg != NULL ? lg->verbosity : 0;
}

static void log_v(const struct log *lg, enum log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void
log_v(const struct log *lg, enum log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = { "", "warning: ", "", "debug: ", "" };
	char line[2048];
	int v = log_verbosity(lg);

	if ((level == LOG_INFO && v < 1) || (level == LOG_DEBUG && v < 2))
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	/* warnings quote servers and files: the one place they are made terminal-safe */
	termsafe_scrub(line, "\t");
	if (lg != NULL && lg->sink != NULL) {
		lg->sink(level, line, lg->sink_ctx);
		return;
	}
	fprintf(stderr, "ecsprof: %s%s\n", prefix[level], line);
}

#define LOG_FN(name, level)                               \
	void name(const struct log *lg, const char *fmt, ...) \
	{                                                 \
		va_list ap;                               \
		va_start(ap, fmt);                        \
		log_v(lg, level, fmt, ap);                \
		va_end(ap);                               \
	}

LOG_FN(log_warn, LOG_WARN)
LOG_FN(log_info, LOG_INFO)
LOG_FN(log_debug, LOG_DEBUG)

void
log_block(const struct log *lg, const char *raw)
{
	/* a --debug trace holds response bodies verbatim: scrubbed once, here */
	char *copy = xstrdup(raw);
	const char *text = copy;

	termsafe_scrub(copy, "\t\n");
	if (lg != NULL && lg->sink != NULL) {
		/* the lock is the one mutable part of a struct log, which is never a const
		 * object (log.h) */
		pthread_mutex_t *lock = (pthread_mutex_t *)&lg->block_lock;

		pthread_mutex_lock(lock);
		while (*text != '\0') {
			size_t n = strcspn(text, "\n");
			char line[2048];

			snprintf(line, sizeof line, "%.*s", (int)n, text);
			lg->sink(LOG_TRACE, line, lg->sink_ctx);
			text += n + (text[n] == '\n');
		}
		pthread_mutex_unlock(lock);
		free(copy);
		return;
	}
	flockfile(stderr);
	fputs(text, stderr);
	funlockfile(stderr);
	free(copy);
}

void
log_once_init(struct log_once *o, const struct log *lg)
{
	o->log = lg;
	strset_init(&o->seen);
	o->lines = NULL;
	o->n = o->cap = 0;
}

void
log_once_cleanup(struct log_once *o)
{
	strset_cleanup(&o->seen);
	for (size_t i = 0; i < o->n; i++)
		free(o->lines[i]);
	free(o->lines);
	o->lines = NULL;
	o->n = o->cap = 0;
}

void
log_once_warn(void *arg, const char *line)
{
	struct log_once *o = arg;
	char *copy;

	if (strset_get(&o->seen, line, NULL))
		return;
	copy = xstrdup(line);
	o->lines = xgrow(o->lines, o->n + 1, &o->cap, sizeof *o->lines);
	o->lines[o->n++] = copy;
	strset_add(&o->seen, copy, 0);
	log_warn(o->log, "%s", line);
}
