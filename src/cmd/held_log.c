/* held_log: what a full-screen view keeps of the log until its screen is closed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "held_log.h"

#define KEPT_LINES 20000     /* lines kept while the screen is up (a --debug trace too) */

/* a line as the log writes it on stderr: a trace's lines (LOG_TRACE) as they are, with
 * the prefix the trace gave them, the others after "ecsprof: " and their level's */
static void
held_write(enum log_level level, const char *line)
{
	static const char *const prefix[] = { "", "warning: ", "", "debug: " };

	if (level == LOG_TRACE)
		fprintf(stderr, "%s\n", line);
	else
		fprintf(stderr, "ecsprof: %s%s\n", prefix[level], line);
}

static void
held_sink(enum log_level level, const char *line, void *ctx)
{
	struct held_log *h = ctx;
	bool seen = false;

	if (level == LOG_WARN && __atomic_load_n(&h->mute, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&h->lock);
	if (!h->hold) {
		held_write(level, line);
		pthread_mutex_unlock(&h->lock);
		return;
	}
	/* a warning once per run (a poll meets the same task again), traces as they come */
	for (size_t i = 0; level == LOG_WARN && i < h->n && !seen; i++)
		seen = h->levels[i] == LOG_WARN && strcmp(h->lines[i], line) == 0;
	if (!seen && h->n < KEPT_LINES) {
		h->lines = xgrow(h->lines, h->n + 1, &h->cap, sizeof *h->lines);
		h->levels = xreallocarray(h->levels, h->cap, sizeof *h->levels);
		h->lines[h->n] = xstrdup(line);
		h->levels[h->n++] = level;
		h->warnings += level == LOG_WARN;
	} else if (!seen) {
		h->dropped++;
	}
	pthread_mutex_unlock(&h->lock);
}

void
held_log_init(struct held_log *h, const struct log *parent)
{
	memset(h, 0, sizeof *h);
	pthread_mutex_init(&h->lock, NULL);
	log_init(&h->log, log_verbosity(parent), NULL, NULL);
}

void
held_log_cleanup(struct held_log *h)
{
	log_cleanup(&h->log);
	pthread_mutex_destroy(&h->lock);
	memset(h, 0, sizeof *h);
}

void
held_log_begin(struct held_log *h, bool hold)
{
	h->hold = hold;
	h->log.sink = held_sink;
	h->log.sink_ctx = h;
}

void
held_log_end(struct held_log *h)
{
	h->log.sink = NULL;
	h->log.sink_ctx = NULL;
	for (size_t i = 0; i < h->n; i++) {
		held_write(h->levels[i], h->lines[i]);
		free(h->lines[i]);
	}
	if (h->dropped > 0)
		fprintf(stderr, "ecsprof: ... and %zu more lines\n", h->dropped);
	fflush(stderr);
	free(h->lines);
	free(h->levels);
	h->lines = NULL;
	h->levels = NULL;
	h->n = h->cap = h->dropped = h->warnings = 0;
}

size_t
held_log_warning(struct held_log *h, size_t want, char *out, size_t size)
{
	size_t n;

	pthread_mutex_lock(&h->lock);
	n = h->warnings;
	for (size_t i = 0, k = 0; want < n && i < h->n; i++) {
		if (h->levels[i] != LOG_WARN)
			continue;
		if (k++ == want) {
			snprintf(out, size, "%s", h->lines[i]);
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return n;
}
