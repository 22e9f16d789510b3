/* input_src: the bytes of one input, from a file, stdin or memory, gunzipped when they
 * start as gzip does (input_gzip.c): what input_read.c and input_docstream.c read.
 * Ownership: the FILE and the memory are the caller's; the gzip reader (gz) is freed by
 * the caller with input_gz_free(). */
#ifndef ECSPROF_INPUT_SRC_H
#define ECSPROF_INPUT_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecsprof/input.h"
#include "input_gzip.h"

struct src {
	FILE *f;
	const char *mem;
	size_t len, pos;
	bool eof;
	int error;      /* errno of a failed read; EILSEQ for bad gzip data, why says more */
	bool probed;    /* the first bytes looked at for gzip's magic */
	unsigned char back[2];   /* ... and handed back to the reader when not gzip */
	size_t nback;
	bool raw_eof;
	struct input_gz *gz;
	struct input_gz_alloc gz_alloc;   /* the call's options' (a test seam) */
	char why[160];
	const struct input_options *o;    /* its progress callback, NULL: none */
	uint64_t done, total;             /* bytes as stored read, the file's size (0: unknown) */
	bool copy;                        /* memory read as a file is (mem_as_file) */
};

/* Up to n bytes (decompressed when gzip): fewer only at the end of the input or on an
 * error (s->error set, src_error() says what). */
size_t src_read(struct src *s, char *dst, size_t n);
const char *src_error(const struct src *s);
/* Memory that is not compressed: parsed where it is, without a copy. */
bool src_in_place(const struct src *s);

#endif
