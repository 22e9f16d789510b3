/* scaleout: which part of a task set is "the scale-out being looked at", so that the
 * terminal UI's shared time axis and watch's status line count from it and not from a task
 * left over from an earlier hour: a burst is a run of createdAt with no gap longer than
 * SCALEOUT_GAP_MS between neighbours. With a deployment start (DescribeServices) the
 * callers use that instead.
 * Ownership: nothing here keeps memory; scaleout_find allocates a scratch copy and frees it. */
#ifndef ECSPROF_SCALEOUT_H
#define ECSPROF_SCALEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/task.h"

/* Ten minutes: ECS launches a scale-out's tasks in waves seconds to a minute or two apart;
 * a previous deployment or an earlier alarm is usually hours away. */
#define SCALEOUT_GAP_MS (10 * 60 * 1000)

enum scaleout_pick {
	SCALEOUT_LARGEST,      /* the burst with the most tasks (a tie: the later) */
	SCALEOUT_LATEST,       /* the newest burst (watch: what is happening now) */
};

struct scaleout {
	int64_t first_ms;      /* first createdAt in the burst */
	int64_t last_ms;       /* last createdAt in the burst */
	size_t n;              /* tasks created in [first_ms, last_ms] */
	size_t nbursts;        /* how many bursts the data has */
};

/* Over created[0..n) (TS_NONE entries ignored). False when no entry has a time. */
bool scaleout_find(const int64_t *created, size_t n, enum scaleout_pick pick,
		   struct scaleout *out);
/* The same over a task set's createdAt. */
bool scaleout_of_set(const struct task_set *set, enum scaleout_pick pick, struct scaleout *out);

/* The time window a shared axis spans for a scale-out: from the burst's first createdAt
 * (or since_ms, a deployment's start, when it is not TS_NONE: then the tasks created at or
 * after it) to the latest end[i] of the tasks in it (end[i] is where task i's bar ends;
 * TS_NONE counts as its createdAt). from_ms < to_ms always (a window of one instant is
 * widened to 1 ms). n counts the tasks inside, outside those before or after it, nbursts
 * the bursts of createdAt in the data. False when no task has a createdAt (or none is
 * at or after since_ms). */
struct scaleout_span {
	int64_t from_ms;
	int64_t to_ms;
	size_t n;              /* tasks created inside the window */
	size_t outside;        /* tasks with a createdAt outside it */
	size_t nbursts;
};
bool scaleout_span_of(const int64_t *created, const int64_t *end, size_t n,
		      enum scaleout_pick pick, int64_t since_ms, struct scaleout_span *out);

#endif
