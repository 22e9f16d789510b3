/* report_image: the image columns of a report row (image_size_bytes, image_layers,
 * image_compression, soci_index, pull_mbps, soci_advice), from the set's image facts.
 * Ownership: text returned is static or written into the caller's buffer. */
#ifndef ECSPROF_REPORT_IMAGE_H
#define ECSPROF_REPORT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/image.h"
#include "ecsprof/report_cols.h"

/* image_compression, soci_index, soci_advice: static text, NULL when empty. */
const char *report_image_text(const struct image_set *s, const struct task *t, enum col_id c);
/* image_size_bytes, image_layers, pull_mbps: true (out filled, "" when unknown) for those
 * columns, false for any other. */
bool report_image_number(const struct image_set *s, const struct task *t, enum col_id c,
    char *out, size_t size);
bool report_image_is_number(enum col_id c);
/* The same from image_task_info()'s answers, computed once for all of a row's columns:
 * the text (static, NULL when empty), and the number written into out (its length; ""
 * and 0 when unknown or not a number column). */
#define REPORT_IMAGE_NUM_LEN 32
const char *report_image_text_of(const struct image_task_info *in, enum col_id c);
size_t report_image_number_of(const struct image_task_info *in, const struct task *t,
    enum col_id c, char out[REPORT_IMAGE_NUM_LEN]);
/* The number to sort by (bytes, layers, kB/s), TS_NONE when unknown. */
int64_t report_image_sort_value(const struct image_set *s, const struct task *t, enum col_id c);

#endif
