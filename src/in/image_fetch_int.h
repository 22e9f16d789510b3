/* image_fetch_int: what image_fetch.c and image_batch.c share: the fetch's state (one
 * struct, one lock) and the batch memo's entry points. Private to src/in. */
#ifndef ECSPROF_IMAGE_FETCH_INT_H
#define ECSPROF_IMAGE_FETCH_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "ecsprof/ecr.h"
#include "ecsprof/image_fetch.h"
#include "ecsprof/image_io.h"

#define IMAGE_MAX_THREADS 16

struct job {
	char *image, *digest, *platform;
	bool done;
	struct image_facts facts;
};

/* A call ECR refused (AccessDenied), or an optional call that failed otherwise (why: the
 * first error; e.g. an endpoint that lacks the operation): one warning line per call
 * naming the repositories, so a policy that denies one repository is told apart from a
 * missing IAM permission, without one line per image. */
struct denial {
	char *op, *lost, *repos, *why;
	bool printed;
};

/* A BatchGetImage or DescribeImages answer shared by the lookups it covers: one call asks
 * for every digest of the same repository waiting in the queue (up to ECR_BATCH_MAX), and
 * a digest asked for again (an index used on several platforms) is not asked twice. */
struct answer {
	char *key;                     /* op|region|account|repository|digest */
	char *json;                    /* NULL: pending, or failed (done) */
	bool done;
};

struct region_client {
	char *region;
	struct ecr_client *c;
};

struct image_fetch {
	struct image_fetch_options o;
	char *cache_dir;
	pthread_mutex_t lock;
	pthread_cond_t more, idle;
	struct job *jobs;              /* under lock */
	size_t njobs, jcap, next, busy;
	struct job *later;             /* under lock; references with no digest yet, queued at
					* collect unless a job with a digest covers them */
	size_t nlater, lcap;
	bool stop;
	int cancel;                    /* set (atomically) by image_fetch_free: the ECR calls
					* in flight give up at once */
	struct region_client *clients; /* under lock */
	size_t nclients;
	char **warnings;               /* under lock; deduplicated */
	size_t nwarnings;
	size_t warned;                 /* printed so far */
	struct denial *denials;        /* under lock; one line per call, printed at collect */
	size_t ndenials;
	struct image_fetch_stats st;   /* under lock */
	struct answer *answers;        /* under lock; image_batch.c's */
	size_t nanswers, acap;
	pthread_cond_t answered;
	pthread_t threads[IMAGE_MAX_THREADS];
	struct http_transport transports[IMAGE_MAX_THREADS];
	size_t nthreads;
};

static inline bool
str_same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The answer of op ('B' BatchGetImage, 'D' DescribeImages) that holds digest, shared with
 * the other lookups of the same repository (image_batch.c). Called without f->lock held;
 * *json is the caller's. */
int image_batch_get(struct image_fetch *f, char op, struct ecr_client *c,
    const struct http_transport *t, const struct image_ref *ref, const char *digest,
    char **json, struct err *e);
/* Frees the memo's answers; at image_fetch_free, after the workers have joined. */
void image_batch_free(struct image_fetch *f);

#endif
