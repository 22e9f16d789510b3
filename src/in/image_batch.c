/* image_batch: the memo of BatchGetImage and DescribeImages answers, so that one call
 * covers every queued digest of a repository and no digest is asked twice. Runs on
 * image_fetch.c's workers under its lock (image_fetch_int.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/ecr.h"
#include "ecsprof/xalloc.h"
#include "image_fetch_int.h"

static char *
answer_key(char op, const struct image_ref *r, const char *digest)
{
	return xasprintf("%c|%s|%s|%s|%s", op, r->region ? r->region : "",
	    r->account ? r->account : "", r->repository, digest);
}

/* op 'B' BatchGetImage, 'D' DescribeImages, for n digests of ref's repository */
static int
batch_call(char op, struct ecr_client *c, const struct http_transport *t,
    const struct image_ref *ref, const char *const *digests, size_t n, char **json,
    struct err *e)
{
	if (op == 'B')
		return ecr_batch_get_images(c, t, ref->account, ref->repository, digests, n, json, e);
	return ecr_describe_images(c, t, ref->account, ref->repository, digests, n, json, e);
}

static struct answer *
answer_find(struct image_fetch *f, const char *key)
{
	for (size_t i = 0; i < f->nanswers; i++)
		if (strcmp(f->answers[i].key, key) == 0)
			return &f->answers[i];
	return NULL;
}

/* under lock */
static void
answer_add(struct image_fetch *f, char *key)
{
	f->answers = xgrow(f->answers, f->nanswers + 1, &f->acap, sizeof *f->answers);
	f->answers[f->nanswers].key = key;
	f->answers[f->nanswers].json = NULL;
	f->answers[f->nanswers++].done = false;
}

/* The answer of op ('B' BatchGetImage, 'D' DescribeImages) that holds digest: from an
 * earlier (or in-flight) batch, or from a new call that also asks for the digests of the
 * same repository still queued. A batch that fails (DescribeImages fails whole when one
 * image is missing) is asked again digest by digest, so each lookup gets its own answer.
 * *json is the caller's. */
int
image_batch_get(struct image_fetch *f, char op, struct ecr_client *c,
    const struct http_transport *t, const struct image_ref *ref, const char *digest,
    char **json, struct err *e)
{
	char *key = answer_key(op, ref, digest);
	const char *batch[ECR_BATCH_MAX];
	char *keys[ECR_BATCH_MAX];
	size_t n = 0;
	struct answer *a;
	int rc;

	pthread_mutex_lock(&f->lock);
	a = answer_find(f, key);
	if (a != NULL) {
		while (!(a = answer_find(f, key))->done)
			pthread_cond_wait(&f->answered, &f->lock);
		if (a->json != NULL) {
			*json = xstrdup(a->json);
			pthread_mutex_unlock(&f->lock);
			free(key);
			return 0;
		}
		/* the batch failed: ask alone, for this lookup's own answer */
		pthread_mutex_unlock(&f->lock);
		free(key);
		return batch_call(op, c, t, ref, &digest, 1, json, e);
	}
	batch[n] = digest;
	keys[n++] = key;
	answer_add(f, xstrdup(key));
	for (size_t i = f->next; i < f->njobs && n < ECR_BATCH_MAX; i++) {
		struct image_ref r;
		char *k;

		if (f->jobs[i].digest == NULL || image_ref_parse(f->jobs[i].image, &r) != 0)
			continue;
		k = r.private_ecr ? answer_key(op, &r, f->jobs[i].digest) : NULL;
		if (k != NULL && strcmp(r.repository, ref->repository) == 0 &&
		    str_same(r.region, ref->region) && str_same(r.account, ref->account) &&
		    answer_find(f, k) == NULL) {
			batch[n] = f->jobs[i].digest;   /* the string outlives the call */
			keys[n++] = k;
			answer_add(f, xstrdup(k));
		} else {
			free(k);
		}
		image_ref_cleanup(&r);
	}
	pthread_mutex_unlock(&f->lock);
	*json = NULL;
	rc = batch_call(op, c, t, ref, batch, n, json, e);
	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < n; i++) {
		a = answer_find(f, keys[i]);
		a->json = rc == 0 ? xstrdup(*json) : NULL;
		a->done = true;
		free(keys[i]);
	}
	pthread_cond_broadcast(&f->answered);
	pthread_mutex_unlock(&f->lock);
	if (rc != 0 && n > 1)
		return batch_call(op, c, t, ref, &digest, 1, json, e);
	return rc;
}

void
image_batch_free(struct image_fetch *f)
{
	for (size_t i = 0; i < f->nanswers; i++) {
		free(f->answers[i].key);
		free(f->answers[i].json);
	}
	free(f->answers);
	f->answers = NULL;
	f->nanswers = f->acap = 0;
}
