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

/* A recording line's observed health (record_serving.c writes it): "healthy_at" (ISO
 * 8601) and "healthy_resolution_ms", beside "task". */
void input_serving_record(const json_t *rec, struct task *t);

/* A recording's deployment or event line (record.h): its key into *arn (allocated),
 * "deployment:SERVICE/ID" or "event:SERVICE/ID"; -1 when the line is a task's. */
int input_deploy_record_key(const json_t *rec, char **arn);
/* Such a line, which the task reader passes over. */
bool input_deploy_record_line(const json_t *rec);

/* "ECS Deployment State Change" or "ECS Service Action": read by input_deploy.c. */
bool input_deploy_event_type(const char *detail_type);

#endif
