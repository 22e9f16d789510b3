/* input_serving: the readers of the serving/cost/diagnosis fields, called by input.c on
 * the objects it parses (private to src/in/).
 * Ownership: strings go into the task as input.c's do (its pool when it has one). */
#ifndef ECSPROF_INPUT_SERVING_H
#define ECSPROF_INPUT_SERVING_H

#include <jansson.h>

#include "ecsprof/task.h"

/* A DescribeTasks / EventBridge Task object: attachments (awsvpc, public IP), attribute
 * ecs.cpu-architecture, containers[].healthStatus (after input.c made the containers). */
void input_serving_task(const json_t *o, struct task *t);
/* A task metadata v4 document: Containers[].Health, Essential, Networks[].NetworkMode;
 * then healthy_at from the containers' health (health_from_containers). */
void input_serving_metadata(const json_t *o, struct task *t);

#endif
