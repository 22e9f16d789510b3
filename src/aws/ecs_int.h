/* ecs_int: what the ECS client's files share (ecs.c: the client and the small operations;
 * ecs_fetch.c: the pool that lists and describes tasks).
 * Ownership: struct ecs_client owns its awsjson client and its transports. */
#ifndef ECSPROF_ECS_INT_H
#define ECSPROF_ECS_INT_H

#include <jansson.h>

#include "awsjson.h"
#include "ecsprof/ecs.h"

#define ECS_MAX_CONCURRENCY 64

struct ecs_client {
	struct awsjson_client *api;
	long concurrency;
	ecs_transport_free_fn *transport_free;
	void *transport_arg;
	struct http_transport *transports;   /* one per request in flight */
};

/* Replaces a ClusterNotFoundException in err by one naming the clusters that exist. */
void ecs_explain_cluster_not_found(struct ecs_client *c, const char *cluster, struct err *err);
/* An ECS time (epoch seconds, or ISO 8601 from some tools) to ms; TS_NONE if absent. */
int64_t ecs_json_time(json_t *o, const char *key);

#endif
