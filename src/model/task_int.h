/* task_int: what task.c and task_set.c share and nothing else needs. */
#ifndef ECSPROF_TASK_INT_H
#define ECSPROF_TASK_INT_H

#include "ecsprof/task.h"

/* Every owned string member, so that cleanup, copy and merge cannot forget one. */
#define TASK_STRINGS(X)                                                           \
	X(arn) X(cluster_arn) X(taskdef_arn) X(group) X(started_by) X(launch_type) \
	X(platform_version) X(platform_family) X(capacity_provider)               \
	X(availability_zone) X(cpu) X(memory) X(last_status) X(desired_status)   \
	X(stop_code) X(stopped_reason) X(health_status) X(cpu_arch) X(source)

#define DERIVED_STRINGS(X) X(id) X(cluster) X(service) X(family) X(taskdef)

#define CONTAINER_STRINGS(X) X(name) X(image) X(image_digest) X(last_status) X(reason) X(snapshotter) \
	X(health_status)

/* Up to this many containers or tags are copied on the stack before they go to the pool
 * as one array (task_share_*); more is rare and goes through the heap. */
#define COPY_STACK 8

/* t's pool, a private one made now if it has none. */
struct task_strpool *task_pool_of(struct task *t);

#endif
