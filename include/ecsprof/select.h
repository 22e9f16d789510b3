/* select: the SELECT options (--cluster, --service, --family, --started-by, --status,
 * --task, --since) as one filter that saved data goes through and that live data is
 * checked against, so that a recording answers a question the way the API would.
 * Ownership: select_options borrows every string and array; nothing here allocates. */
#ifndef ECSPROF_SELECT_H
#define ECSPROF_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/task.h"

enum select_status { SELECT_ALL, SELECT_RUNNING, SELECT_STOPPED };

struct select_options {
	const char *cluster;              /* name or ARN; NULL = any */
	const char *const *services;      /* names or ARNs (ARN: its last segment counts) */
	size_t nservices;
	const char *family;
	const char *started_by;
	enum select_status status;        /* on desiredStatus (else lastStatus), as ListTasks */
	const char *const *tasks;         /* ARNs or ids */
	size_t ntasks;
	int64_t since_ms;                 /* createdAt at or after; TS_NONE = any */
};

/* Whether t passes every SELECT option that is set. */
bool select_keep(const struct select_options *o, const struct task *t);
/* Removes the tasks that do not pass from set (order kept). */
void select_apply(const struct select_options *o, struct task_set *set);

#endif
