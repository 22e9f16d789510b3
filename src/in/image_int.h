/* image_int: the image readers' jansson-level entry points for the input dispatch
 * (input.c): a facts object, and saved `aws ecr describe-images` / `batch-get-image`
 * output. Ownership: facts are added to the caller's set; the json_t are borrowed. */
#ifndef ECSPROF_IMAGE_INT_H
#define ECSPROF_IMAGE_INT_H

#include <jansson.h>

#include "ecsprof/image.h"

/* A facts object (the "image" of a recording line) into f; -1 with a reason in why. */
int image_facts_from_jobj(const json_t *o, struct image_facts *f, char *why, size_t size);
/* {"imageDetails":[...]} (aws ecr describe-images): one facts entry per detail. Returns
 * how many, -1 when it is not that shape. */
long image_read_describe_images(const json_t *root, struct image_set *out);
/* {"images":[{"imageManifest":...}],"failures":[...]} (aws ecr batch-get-image): facts
 * for each manifest, and for each index for every platform whose manifest is also in
 * the answer. Returns how many, -1 when it is not that shape. */
long image_read_batch_get_image(const json_t *root, struct image_set *out);

#endif
