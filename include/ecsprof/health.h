/* health: when a task started serving. healthy_at (ts[TS_HEALTHY]) is stated by task
 * metadata v4 (Containers[].Health.statusSince of the containers that have a health check)
 * or observed by polls: the first poll that saw healthStatus HEALTHY after one that did
 * not, marked observed, with the time since that earlier poll as its resolution.
 * Ownership: nothing here allocates; the functions write into the tasks they are given. */
#ifndef ECSPROF_HEALTH_H
#define ECSPROF_HEALTH_H

#include <stdint.h>

#include "ecsprof/task.h"

/* Sets t->ts[TS_HEALTHY] (not observed) to the latest Health.statusSince when every
 * container with a health status (and not marked non-essential) is HEALTHY and says
 * since when; leaves it alone otherwise. */
void health_from_containers(struct task *t);

/* After a poll: every task of cur without healthy_at takes the one prev knew; a task that
 * is HEALTHY now and was seen not HEALTHY by prev (or was created after prev's poll) gets
 * healthy_at = this poll (its fetched_at, else now_ms), observed, resolution = the time
 * since prev's poll (no more than since startedAt). prev NULL (the first poll): a task
 * already HEALTHY gets none: when it became so is not known. */
void health_observe(struct task_set *cur, struct task_set *prev, int64_t prev_poll_ms,
		    int64_t now_ms);

/* Essential containers (health-checked) HEALTHY now, per the last poll's healthStatus. */
bool health_is_healthy(const struct task *t);

#endif
