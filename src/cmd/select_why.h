/* select_why: when the SELECT options leave no task of a non-empty set, one line on stderr
 * saying why: each option alone and how many it keeps, with what the data does have (its
 * clusters, services, families, the time it spans, what ids look like). Also the "now" of
 * saved data, from which an offline --since 2h counts.
 * Ownership: borrows everything; keep() is cmd_output.c's filter for one set of options. */
#ifndef ECSPROF_SELECT_WHY_H
#define ECSPROF_SELECT_WHY_H

#include <stdbool.h>
#include <stdint.h>

#include "ecsprof/cli.h"
#include "ecsprof/task.h"

typedef bool select_keep_fn(const struct task *t, const struct cli_opts *o, int64_t since_ms);

/* When the data was taken: the newest fetch time or timestamp in it; TS_NONE if none. */
int64_t select_data_now(const struct task_set *set);
/* Prints the explanation when no task of set passes o (since_ms: --since resolved, with
 * now_ms its base and data_time whether that is the data's time). Returns true if none
 * passes. */
bool select_why(const struct task_set *set, const struct cli_opts *o, int64_t since_ms,
		int64_t now_ms, bool data_time, select_keep_fn *keep);

#endif
