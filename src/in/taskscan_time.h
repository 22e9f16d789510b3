/* taskscan_time: a task's time value as taskscan reads it, in one pass: epoch seconds as a
 * number (D or D.F straight to milliseconds on the usual shape) or an ISO 8601 string.
 * Private to src/in. */
#ifndef ECSPROF_TASKSCAN_TIME_H
#define ECSPROF_TASKSCAN_TIME_H

#include <stdint.h>

#include "ecsprof/jsonscan.h"

/* the longest time string read here (the jansson path reads longer ones) */
#define TASKSCAN_ISO_MAX 64

/* input_get_time's rules: *out = the time in ms since the epoch, 0; null: 0, *out as it
 * was; -1 for anything input_get_time would warn about (the numeric-string fallback and
 * every error are the jansson path's), so that the jansson path words it. */
int taskscan_time(struct jsonscan *sc, int64_t *out);

#endif
