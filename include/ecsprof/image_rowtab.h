/* image_rowtab: `ecsprof images` rows (image_rows.h) as a row table (rowtab.h) for the
 * sink's generic writers (--format markdown): the columns of the images table, the size
 * as people read it ("312.0 MiB"), and each image's largest layers as a note.
 * Ownership: a struct image_rowtab borrows the rows (keep them alive) and owns its notes
 * until image_rowtab_cleanup(). */
#ifndef ECSPROF_IMAGE_ROWTAB_H
#define ECSPROF_IMAGE_ROWTAB_H

#include <stddef.h>

#include "ecsprof/image_rows.h"
#include "ecsprof/rowtab.h"

struct image_rowtab {
	struct row_table t;
	const struct image_rows *rows;
	char **notes;
	size_t nnotes;
};

void image_rowtab_build(struct image_rowtab *it, const struct image_rows *rows);
void image_rowtab_cleanup(struct image_rowtab *it);
/* "312.0 MiB" (a GiB and over: "1.2 GiB"), "-" when the size is not known (< 0) */
void image_size_text(int64_t bytes, char *out, size_t size);

#endif
