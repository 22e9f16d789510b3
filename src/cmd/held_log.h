/* held_log: warnings and errors that arrive while a full-screen view is up (tasks, watch,
 * experiment). They are kept instead of written over the screen, each warning once per run;
 * the view shows the latest and their count on its status line (held_log_warning) and
 * they are printed on standard error once the screen is closed (held_log_end).
 * Ownership: a held_log owns copies of the lines it keeps; begin/end bracket the view. */
#ifndef ECSPROF_HELD_LOG_H
#define ECSPROF_HELD_LOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/log.h"

struct held_log {
	pthread_mutex_t lock;
	bool hold;               /* stderr is the terminal: keep the lines until it is free */
	int mute;                /* (atomic) warnings dropped meanwhile (a partial report is
				  * built: its warnings would only repeat the final one's) */
	char **lines;
	enum log_level *levels;
	size_t n, cap, dropped, warnings;
};

/* Becomes the log's sink (log_set_sink) before any thread that logs starts; hold: keep
 * the lines (stderr is the terminal the view is on), else write them through at once. */
void held_log_begin(struct held_log *h, bool hold);
/* Once the screen is closed and no thread logs any more: the sink is stderr again and
 * what was kept is printed there, then freed. */
void held_log_end(struct held_log *h);
/* The number of warnings kept; when i < that, the i-th (0: the oldest) copied to out. */
size_t held_log_warning(struct held_log *h, size_t i, char *out, size_t size);

#endif
