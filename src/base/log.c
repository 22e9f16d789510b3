/* log: one-line diagnostics on stderr (or a test's sink). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/log.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/xalloc.h"

static int log_level_max;
static log_sink_fn *log_sink;
static void *log_sink_ctx;
/* a block goes to the sink line by line: one block at a time, so that the fetch threads'
 * --debug traces do not interleave in the lines the tasks TUI holds */
static pthread_mutex_t log_block_lock = PTHREAD_MUTEX_INITIALIZER;

void
log_set_verbosity(int v)
{
	log_level_max = v;
}

int
log_verbosity(void)
{
	return log_level_max;
}

void
log_set_sink(log_sink_fn *fn, void *ctx)
{
	log_sink = fn;
	log_sink_ctx = ctx;
}

static void log_v(enum log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void
log_v(enum log_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = { "", "warning: ", "", "debug: " };
	char line[2048];

	if ((level == LOG_INFO && log_level_max < 1) || (level == LOG_DEBUG && log_level_max < 2))
		return;
	vsnprintf(line, sizeof line, fmt, ap);
	/* warnings quote servers and files: the one place they are made terminal-safe */
	termsafe_scrub(line, "\t");
	if (log_sink != NULL) {
		log_sink(level, line, log_sink_ctx);
		return;
	}
	fprintf(stderr, "ecsprof: %s%s\n", prefix[level], line);
}

#define LOG_FN(name, level)                  \
	void name(const char *fmt, ...)      \
	{                                    \
		va_list ap;                  \
		va_start(ap, fmt);           \
		log_v(level, fmt, ap);       \
		va_end(ap);                  \
	}

LOG_FN(log_warn, LOG_WARN)
LOG_FN(log_info, LOG_INFO)
LOG_FN(log_debug, LOG_DEBUG)

void
log_block(enum log_level level, const char *raw)
{
	/* a --debug trace holds response bodies verbatim: scrubbed once, here */
	char *copy = xstrdup(raw);
	const char *text = copy;

	termsafe_scrub(copy, "\t\n");
	if (log_sink != NULL) {
		pthread_mutex_lock(&log_block_lock);
		while (*text != '\0') {
			size_t n = strcspn(text, "\n");
			char line[2048];

			snprintf(line, sizeof line, "%.*s", (int)n, text);
			log_sink(level, line, log_sink_ctx);
			text += n + (text[n] == '\n');
		}
		pthread_mutex_unlock(&log_block_lock);
		free(copy);
		return;
	}
	flockfile(stderr);
	fputs(text, stderr);
	funlockfile(stderr);
	free(copy);
}

void
log_once_init(struct log_once *o)
{
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
	log_warn("%s", line);
}
