/* input_gzip: a streaming gzip reader for input_read.c (multi-member, magic-detected).
 * Ownership: the reader is the caller's, freed by input_gz_free(); the raw callback's
 * context stays the caller's. */
#ifndef ECSPROF_INPUT_GZIP_H
#define ECSPROF_INPUT_GZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

/* Reads up to n compressed bytes into dst; fewer than n only at the end of the input. */
typedef size_t input_raw_fn(void *ctx, char *dst, size_t n);

struct input_gz;

/* The two bytes every gzip member starts with. */
bool input_gz_magic(const unsigned char *p, size_t n);
/* The allocator zlib uses for one reader: a test seam (a failing one shows what running
 * out of memory says), per reader, never process-wide. NULL functions: zlib's own. */
struct input_gz_alloc {
	alloc_func zalloc;
	free_func zfree;
	void *opaque;
};
/* a: NULL, or the allocator for this reader (copied; see above). */
struct input_gz *input_gz_new(input_raw_fn *raw, void *ctx, const struct input_gz_alloc *a);
/* Up to n inflated bytes: fewer only at the end or on an error; 0 at the end; -1 with
 * the problem in why (one line) when nothing could be read. After a short read,
 * input_gz_failed() says whether it was an error (why then filled). */
long input_gz_read(struct input_gz *g, char *dst, size_t n, char *why, size_t whysize);
bool input_gz_failed(const struct input_gz *g);
/* ... and whether that error was zlib running out of memory (why says so). */
bool input_gz_oom(const struct input_gz *g);
void input_gz_free(struct input_gz *g);

#endif
