/* ecs_fetch_int: what the fetch's two files share: ecs_fetch.c (the pool of threads and
 * the ListTasks page chains) and ecs_batch.c (the DescribeTasks batches, described on the
 * pool's threads and handed over in ListTasks order). ecs_fetch.c calls ecs_batch.c,
 * never the other way.
 * Ownership: the fetch owns its ARNs, batches and their answers; entries and batches
 * borrow the ARNs. */
#ifndef ECSPROF_ECS_FETCH_INT_H
#define ECSPROF_ECS_FETCH_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs_int.h"
#include "ecsprof/strset.h"

struct result {
	const char *json;       /* the task as ECS sent it, in the batch's body, or own */
	size_t len;
	char *own;              /* json_dumps' text of a task read by jansson; NULL: in body */
	int64_t fetched_at_ms;
	size_t entry;           /* its place in the batch's entries; SIZE_MAX: not matched */
	bool read;              /* read by ecs_query.reader, at slot of the batch's read */
	size_t slot;
};

/* A listed ARN in ListTasks order; a known one (ecs_query.known) is not described. */
struct entry {
	char *arn;              /* borrowed from the fetch's arns */
	bool known;
	int64_t listed_at_ms;
};

struct warning {
	char *line;
	bool missing;           /* reason MISSING: say why, after it */
};

struct batch {
	char **arns;            /* the ARNs to describe, borrowed from the fetch's arns */
	size_t n;
	struct entry *entries;  /* every listed ARN of the batch, in order (known ones too) */
	size_t nentries, nknown;
	size_t asked_hint;      /* where the next described task is asked, as a rule */
	bool done;              /* described; results ready to hand over */
	char *body;             /* the answer the results point into (owned); NULL: none */
	const struct ecs_task_reader *reader;   /* the query's, when read is set */
	void *read;             /* the reader's batch of the answer's tasks (owned); NULL */
	struct result *results;
	size_t nresults, results_cap;
	struct warning *warnings;   /* failures[], logged by the calling thread */
	size_t nwarnings, warnings_cap;
};

struct ecs_fetch {
	struct ecs_client *c;
	struct ecs_query q;     /* its strings borrowed until ecs_fetch_free() */
	pthread_mutex_t lock;
	pthread_cond_t work;    /* workers: a page or a batch is waiting, or stop */
	pthread_cond_t news;    /* the calling thread: a batch is done, or a worker left */
	struct chain *chains;   /* ecs_fetch.c's */
	size_t nchains;
	struct batch **batches;
	size_t nbatches, batches_cap;
	size_t next_batch;      /* first batch no worker took yet */
	struct entry *pending;  /* listed ARNs not yet in a batch (borrowed from arns) */
	size_t npending, pending_cap;
	char **arns;            /* every ARN, owned, for the seen set and the batches */
	size_t narns, arns_cap;
	struct strset seen;
	size_t inflight;
	size_t next_emit;       /* first batch not yet handed over */
	int cancel;             /* read by the HTTP layer without the lock (atomically) */
	bool failed;
	struct err err;
	bool explained;         /* the ClusterNotFound message names the clusters */
	struct ecs_fetch_stats st;
	int services;           /* q.services_out: 1 to ask, 2 asked; 0 done (or none) */
	struct worker *workers; /* ecs_fetch.c's */
	long nworkers, running;
};

/* Cuts full batches from the pending ARNs (DESCRIBE_BATCH to describe, or BATCH_ENTRIES
 * listed); with flush, the remainder too. Called with the lock held. */
void ecs_batch_cut(struct ecs_fetch *f, bool flush);
/* Describes b's tasks into b on transport t (a worker's own batch: no lock needed but for
 * the counters, which it takes). 0, or -1 and err. */
int ecs_batch_describe(struct ecs_fetch *f, struct http_transport *t, struct batch *b,
		       struct err *err);
/* Hands a described batch over on the calling thread, without the lock (the batch is
 * done: no worker touches it again), then drops its answer; counts into *kept, *skipped
 * and *reused. 0, or -1 and err (fn's or reuse's failure). */
int ecs_batch_deliver(struct ecs_fetch *f, struct batch *b, ecs_task_fn *fn, void *arg,
		      size_t *kept, size_t *skipped, size_t *reused, struct err *err);
void ecs_batch_free(struct batch *b);

#endif
