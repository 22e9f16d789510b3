/* image_rows: the rows of `ecsprof images`: one per distinct image (digest and platform)
 * of a task set (or of its image facts alone, for --image), with the tasks that used it,
 * their pull p50/p90, the pull throughput, the SOCI advice and the largest layers.
 * Ownership: an image_rows owns its array; each row borrows its facts from the set's
 * image_set, so keep the set alive until image_rows_cleanup(). */
#ifndef ECSPROF_IMAGE_ROWS_H
#define ECSPROF_IMAGE_ROWS_H

#include <stddef.h>

#include "ecsprof/image.h"
#include "ecsprof/task.h"

#define IMAGE_ROWS_TOP_LAYERS 3

struct image_row {
	const struct image_facts *facts;   /* borrowed; never NULL */
	const char *tag;                   /* from the image reference, or the first tag */
	size_t ntasks;
	double pull_p50_s, pull_p90_s;     /* NAN without pulls */
	double pull_mbps;                  /* size / 10^6 / pull p50; NAN unknown */
	enum soci_advice advice;           /* of the first task using it (or a Linux Fargate
					    * 1.4.0 task for an image asked by --image) */
	size_t top[IMAGE_ROWS_TOP_LAYERS]; /* indexes of the largest layers, largest first */
	size_t ntop;
};

struct image_rows {
	struct image_row *v;
	size_t n;
};

/* Rows for every fact of set->images (sorted by size, largest first). */
void image_rows_build(const struct task_set *set, struct image_rows *out);
void image_rows_cleanup(struct image_rows *r);

#endif
