/* taskdef_read: a task definition from JSON into struct taskdef (taskdef.h): the input of
 * `aws ecs register-task-definition --cli-input-json` and DescribeTaskDefinition's answer
 * ({"taskDefinition": {...}}). Unknown members are skipped (the API grows); a member of
 * the wrong type, a number out of range or a size ECS could not convert is bad input: one
 * line naming the file, the JSON path and why.
 * Ownership: the caller's struct taskdef receives owned copies; nothing of the JSON is
 * kept. On failure it is left empty (taskdef_free()d). */
#ifndef ECSPROF_TASKDEF_READ_H
#define ECSPROF_TASKDEF_READ_H

#include <stddef.h>

#include "ecsprof/err.h"
#include "ecsprof/taskdef.h"

/* name is for messages ("rerank.json"). */
int taskdef_read_mem(const char *name, const char *data, size_t len, struct taskdef *td,
		     struct err *err);
/* path "-" reads stdin. */
int taskdef_read_file(const char *path, struct taskdef *td, struct err *err);
/* "2 vCPU", "0.25 vcpu", "1024" -> CPU units; "8 GB", "8GB", "512" -> MiB; -1 when the
 * text is neither (as RegisterTaskDefinition converts them). */
long taskdef_parse_cpu(const char *s);
long taskdef_parse_memory(const char *s);

#endif
