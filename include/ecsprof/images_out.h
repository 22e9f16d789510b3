/* images_out: the writers of `ecsprof images`: table, csv (one row per image, with the
 * largest layers in one cell) and json (an array of objects, the layers as an array).
 * Ownership: borrows the rows; allocates nothing that outlives a call. */
#ifndef ECSPROF_IMAGES_OUT_H
#define ECSPROF_IMAGES_OUT_H

#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/image_rows.h"

/* CSV columns, in this order. */
#define IMAGES_CSV_COLUMNS "repository,tag,digest,platform,image_size_bytes,image_layers," \
	"image_compression,soci_index,tasks,pull_p50_s,pull_p90_s,pull_mbps,soci_advice," \
	"largest_layers"

int images_write_table(FILE *f, const struct image_rows *r, struct err *err);
int images_write_csv(FILE *f, const struct image_rows *r, struct err *err);
int images_write_json(FILE *f, const struct image_rows *r, struct err *err);

#endif
