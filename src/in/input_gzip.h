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
struct input_gz *input_gz_new(input_raw_fn *raw, void *ctx);
/* Up to n inflated bytes: fewer only at the end or on an error; 0 at the end; -1 with
 * the problem in why (one line) when nothing could be read. After a short read,
 * input_gz_failed() says whether it was an error (why then filled). */
long input_gz_read(struct input_gz *g, char *dst, size_t n, char *why, size_t whysize);
bool input_gz_failed(const struct input_gz *g);
/* ... and whether that error was zlib running out of memory (why says so). */
bool input_gz_oom(const struct input_gz *g);
/* Tests: the allocator zlib uses for readers made after it (NULL, NULL: zlib's own). */
void input_gz_set_alloc(alloc_func a, free_func f);
void input_gz_free(struct input_gz *g);

#endif
