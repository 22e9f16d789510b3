/* task_int: what task.c and task_set.c share and nothing else needs. */
#ifndef ECSPROF_TASK_INT_H
#define ECSPROF_TASK_INT_H

#include "ecsprof/task.h"

/* Every string of a profile that is not derived, so that copy and merge cannot forget
 * one. Not arn_prefix: it goes with the task's arn_tail, copied and merged with it. */
#define PROFILE_STRINGS(X)                                                     \
	X(cluster_arn) X(taskdef_arn) X(group) X(started_by) X(launch_type)     \
	X(platform_version) X(platform_family) X(capacity_provider)            \
	X(availability_zone) X(cpu) X(memory) X(last_status) X(desired_status) \
	X(stop_code) X(stopped_reason) X(health_status) X(cpu_arch) X(source)

/* Every string of a container's profile, for the same reason */
#define CONTAINER_PROFILE_STRINGS(X) X(name) X(image) X(last_status) X(reason) X(snapshotter) \
	X(health_status)

/* Up to this many containers or tags are copied on the stack before they go to the pool
 * as one array (task_share_*); more is rare and goes through the heap. */
#define COPY_STACK 8

/* t's pool, a private one made now if it has none. */
struct task_strpool *task_pool_of(struct task *t);
/* A draft profile for t in t's pool, a copy of *from (NULL: all NULL), made t's. */
struct task_profile *task_new_draft(struct task *t, const struct task_profile *from);
/* t's wide times (task.h), if it has them, as an array of pool p's: for a copy of t
 * into p. */
void task_copy_wide(struct task *t, struct task_strpool *p);
/* Gives t's draft (if it has one) back to its pool, t's profile becoming none. */
void task_drop_draft(struct task *t);
/* A draft container profile for c (one of t's or being built for t) in t's pool, a copy of
 * *from (NULL: all NULL), made c's. */
struct container_profile *task_new_container_draft(struct task *t, struct container *c,
						   const struct container_profile *from);
/* The drafts of n containers at v shared (in t's pool), before the array is. */
void task_share_container_profiles(struct task *t, struct container *v, size_t n);

#endif
