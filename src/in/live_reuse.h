/* live_reuse: what a watch poll need not describe again. A task of the last poll that ECS
 * will not change any more (STOPPED), or that has settled (RUNNING with its startedAt, and
 * HEALTHY or without a health check in its task definition), and that ListTasks still
 * lists under the same desiredStatus, is copied from the last poll's set instead of being
 * described: a steady service costs its ListTasks pages and nothing more.
 * Ownership: a live_reuse belongs to its live session (live.c) and caches, per task
 * definition, whether it has a health check (DescribeTaskDefinition, once each); the last
 * poll's set is borrowed from live_reuse_prepare() until the fetch ends. */
#ifndef ECSPROF_LIVE_REUSE_H
#define ECSPROF_LIVE_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/ecs.h"
#include "ecsprof/err.h"
#include "ecsprof/image_fetch.h"
#include "ecsprof/task.h"

struct live_reuse;

struct log;
struct live_reuse *live_reuse_new(const struct log *lg);   /* lg borrowed (log.h) */
void live_reuse_free(struct live_reuse *r);

/* Before a fetch into out: decides which tasks of prev need no DescribeTasks, looking up
 * the task definitions of the running ones not seen yet (their requests are added to
 * *requests). images (may be NULL) gets the images of every task copied. Returns -1 only
 * when interrupted (err filled); a lookup that fails costs only the reuse of its tasks. */
int live_reuse_prepare(struct live_reuse *r, struct ecs_client *c, const struct task_set *prev,
		       struct task_set *out, struct image_fetch *images, size_t *requests,
		       struct err *err);
/* For ecs_query.known and ecs_query.reuse (arg: the live_reuse). */
bool live_reuse_known(void *arg, const char *arn, const char *desired);
int live_reuse_take(void *arg, const char *arn, int64_t listed_at_ms, struct err *err);

#endif
