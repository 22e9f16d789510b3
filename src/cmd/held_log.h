/* held_log: warnings and errors that arrive while a full-screen view is up (tasks, watch,
 * experiment). They are kept instead of written over the screen, each warning once per run;
 * the view shows the latest and their count on its status line (held_log_warning) and
 * they are printed on standard error once the screen is closed (held_log_end).
 * It holds its own struct log, the one passed to whatever runs while the view can be up:
 * straight to stderr until begin, into the held log from begin to end.
 * Ownership: a held_log owns copies of the lines it keeps and its struct log (init and
 * cleanup); begin/end bracket the view. */
#ifndef ECSPROF_HELD_LOG_H
#define ECSPROF_HELD_LOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/log.h"

struct held_log {
	struct log log;          /* to pass down: parent's verbosity; held between begin
				  * and end */
	pthread_mutex_t lock;
	bool hold;               /* stderr is the terminal: keep the lines until it is free */
	int mute;                /* (atomic) warnings dropped meanwhile (a partial report is
				  * built: its warnings would only repeat the final one's) */
	char **lines;
	enum log_level *levels;
	size_t n, cap, dropped, warnings;
};

/* h->log writes straight to stderr, at parent's verbosity (parent NULL: log.h's). */
void held_log_init(struct held_log *h, const struct log *parent);
void held_log_cleanup(struct held_log *h);
/* h->log's lines come to h from now on: called before any thread that logs through h->log
 * starts, or while none logs; hold: keep the lines (stderr is the terminal the view is on),
 * else write them through at once. */
void held_log_begin(struct held_log *h, bool hold);
/* Once the screen is closed and no thread logs any more: h->log writes to stderr again and
 * what was kept is printed there, then freed. */
void held_log_end(struct held_log *h);
/* The number of warnings kept; when i < that, the i-th (0: the oldest) copied to out. */
size_t held_log_warning(struct held_log *h, size_t i, char *out, size_t size);

#endif
