/* ecs_int: what the ECS client's files share (ecs.c: the client and the small operations;
 * ecs_fetch.c and ecs_batch.c: the pool that lists and describes tasks, ecs_fetch_int.h;
 * ecs_scan.c: the answers read without a DOM).
 * Ownership: struct ecs_client owns its awsjson client and its transports. */
#ifndef ECSPROF_ECS_INT_H
#define ECSPROF_ECS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "awsjson.h"
#include "ecsprof/ecs.h"

#define ECS_MAX_CONCURRENCY 64
/* pages of one ListTasks or ListClusters chain: 100,000 tasks, beyond any real cluster */
#define ECS_MAX_PAGES 1000

struct ecs_client {
	struct awsjson_client *api;
	long concurrency;
	ecs_transport_free_fn *transport_free;
	void *transport_arg;
	struct http_transport *transports;   /* one per request in flight */
	const struct timeutil_clock *clock;  /* borrowed from the options */
	const struct log *log;               /* borrowed from the options */
};

/* Replaces a ClusterNotFoundException in err by one naming the clusters that exist. */
void ecs_explain_cluster_not_found(struct ecs_client *c, const char *cluster, struct err *err);
/* An ECS time (epoch seconds, or ISO 8601 from some tools) to ms; TS_NONE if absent. */
int64_t ecs_json_time(json_t *o, const char *key);

/* ecs_describe_services() on transport t, cancelled by *cancel (may be NULL), without
 * resetting the client's counters nor explaining a ClusterNotFoundException: the fetch's
 * threads call it (ecs_query.services_out). */
int ecs_describe_services_on(struct ecs_client *c, const struct http_transport *t,
			     const int *cancel, const char *cluster, const char *const *names,
			     size_t n, struct ecs_service_list *out, struct err *err);

/* StopTask of one task on transport t, cancelled by *cancel (may be NULL), with a reason
 * (at most 255 characters, cut); *raw (may be NULL) gets the stopped Task object as
 * compact JSON (caller frees) and *answered_ms when it came. ecs_stop_tasks()'s threads
 * call it. */
int ecs_stop_task_on(struct ecs_client *c, const struct http_transport *t, const int *cancel,
		     const char *cluster, const char *task, const char *reason, char **raw,
		     int64_t *answered_ms, struct err *err);

/* ecs_scan.c: a task of a DescribeTasks answer read without a DOM. */
struct ecs_scanned_task {
	const char *json;       /* the task's bytes in the answer, as ECS sent them */
	size_t len;             /* ... json[len] is '\0' once the scan is over */
	const char *arn;        /* taskArn; NULL when it is not a string */
	char *own;              /* arn when it is the scan's (not read: freed with it) */
	int64_t created_ms;     /* createdAt as ecs_json_time() reads it */
	bool read;              /* read by the scan's ecs_task_reader, at slot of its batch */
	size_t slot;
};
/* The tasks[] of a DescribeTasks answer (body[0..len)) in one pass: 0 and *out (n tasks
 * pointing into body, each ended by a '\0' written over the byte after it; the caller
 * frees with ecs_scanned_free and keeps body while it reads them); 2: the same, but
 * failures[] is not empty: read them with jansson (the answer is one it reads); or 1: not
 * sure (malformed, a \u escape, a key twice, ...; body unchanged), read it with jansson. */
int ecs_scan_describe(char *body, size_t len, struct ecs_scanned_task **out, size_t *n);
/* The same in two steps, for a caller that chooses where the tasks live: the scan, which
 * leaves body as it was (each json[len] not yet '\0'), then the '\0's written over the
 * bytes after the tasks in body (the scanned one, or a copy with v pointed into it). */
int ecs_scan_describe_open(const char *body, size_t len, struct ecs_scanned_task **out,
			   size_t *n);
/* ecs_scan_describe_open() with each task read by rd (may be NULL) into its batch, in the
 * same pass; a task rd is not sure of is scanned as text (read false). */
int ecs_scan_describe_read(const char *body, size_t len, const struct ecs_task_reader *rd,
			   void *batch, struct ecs_scanned_task **out, size_t *n);
void ecs_scanned_end(char *body, const struct ecs_scanned_task *v, size_t n);
void ecs_scanned_free(struct ecs_scanned_task *v, size_t n);
/* A ListTasks page: its taskArns[] strings and nextToken (NULL when absent or not a
 * string), as the DOM path reads them. */
struct ecs_page {
	char **arns;
	size_t n;
	char *token;
};
/* 0 and *pg (ecs_page_cleanup), or 1: not sure, read it with jansson. */
int ecs_scan_list(const char *body, size_t len, struct ecs_page *pg);
void ecs_page_cleanup(struct ecs_page *pg);

/* ecs_limits.c. Whether to ask for the page after pages pages: false (with a warning) at
 * the end, on a nextToken equal to the previous one, and at ECS_MAX_PAGES. */
bool ecs_page_continue(const struct log *lg, const char *op, const char *prev, const char *next,
		       size_t pages);
/* Whether a task ARN that DescribeTasks returned is one of the n asked (ARNs, or ids of
 * cluster). */
bool ecs_task_was_asked(char *const *asked, size_t n, const char *cluster, const char *arn);
/* the same, the ARN at *hint compared first (and *hint moved past it when it matches) */
bool ecs_task_was_asked_at(char *const *asked, size_t n, const char *cluster, const char *arn,
			   size_t *hint);

#endif
