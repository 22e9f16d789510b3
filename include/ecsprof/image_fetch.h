/* image_fetch: looks the images of a run up in ECR, on worker threads of its own, while
 * the caller goes on (the task fetch): one lookup per distinct (digest, platform), read
 * from the cache ($XDG_CACHE_HOME/ecsprof/images/) when an earlier run saved it, in the
 * registry's own account and region. Missing permissions and images outside private ECR
 * are warnings; the run goes on.
 * Ownership: a fetcher borrows its options (the AWS context) for its lifetime and owns
 * the facts it found until image_fetch_collect() copies them out. */
#ifndef ECSPROF_IMAGE_FETCH_H
#define ECSPROF_IMAGE_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"
#include "ecsprof/image.h"

typedef int image_transport_new_fn(void *arg, struct http_transport *out, struct err *err);
typedef void image_transport_free_fn(void *arg, struct http_transport *t);

struct log;
struct image_fetch_options {
	struct aws_context *ctx;       /* credentials, endpoints; required */
	long concurrency;              /* lookups in flight; <= 0: 4 */
	image_transport_new_fn *transport_new;   /* required */
	image_transport_free_fn *transport_free;
	void *transport_arg;
	const char *cache_dir;         /* NULL: $XDG_CACHE_HOME/ecsprof, ~/.cache/ecsprof */
	bool no_cache;
	bool debug;
	const struct log *log;   /* borrowed; NULL: log.h */
};

struct image_fetch_stats {
	size_t wanted;                 /* distinct (digest, platform) asked for */
	size_t cached;                 /* ... answered from the cache */
	size_t looked_up;              /* ... looked up in ECR */
	size_t failed;                 /* ... whose lookup failed (warned) */
	size_t not_ecr;                /* ... outside private ECR */
	size_t requests;               /* ECR HTTP attempts, retries included */
	size_t throttled;
	int64_t wait_ms;               /* how long collect waited for lookups still running */
};

struct image_fetch;

int image_fetch_new(const struct image_fetch_options *o, struct image_fetch **out,
    struct err *err);
/* Stops the workers (after the lookups in flight) and frees everything. */
void image_fetch_free(struct image_fetch *f);
/* Asks for image (the container's "image", a reference) at digest (may be NULL: then the
 * reference's @digest or :tag is resolved with DescribeImages) for platform
 * ("linux/amd64"). Returns at once; a key asked for before is not looked up again. */
void image_fetch_want(struct image_fetch *f, const char *image, const char *digest,
    const char *platform);
/* Asks for the images of every container of t. */
void image_fetch_want_task(struct image_fetch *f, const struct task *t);
/* Queues the references no digest came for (as collect does) and waits up to wait_ms
 * (0: not at all) for the lookups asked for so far: true when none is left, so that
 * image_fetch_collect() returns at once (the TUI polls this instead of blocking). */
bool image_fetch_wait(struct image_fetch *f, int64_t wait_ms);
/* Lookups asked for so far and those finished, for a progress line. */
void image_fetch_progress(struct image_fetch *f, size_t *wanted, size_t *done);
/* Waits for the lookups asked for so far, prints their warnings (each missing permission
 * once) and copies every fact found into *set (created when NULL). */
void image_fetch_collect(struct image_fetch *f, struct image_set **set,
    struct image_fetch_stats *st);

#endif
