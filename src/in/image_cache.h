/* image_cache: the image facts cache, DIR/images/DIGEST_PLATFORM.json (DIR is
 * $XDG_CACHE_HOME/ecsprof or ~/.cache/ecsprof, chosen by image_fetch).
 * Ownership: facts read are the caller's (image_facts_cleanup); nothing else outlives a
 * call. */
#ifndef ECSPROF_IMAGE_CACHE_H
#define ECSPROF_IMAGE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/image.h"

/* The cached facts of (digest, platform) into *out: true when found and sound. */
bool image_cache_read(const char *dir, const char *digest, const char *platform,
    struct image_facts *out);
/* Saves facts (IMAGE_OK only; others are not cached): -1 with the reason in why. */
int image_cache_write(const char *dir, const struct image_facts *facts, char *why,
    size_t size);

#endif
