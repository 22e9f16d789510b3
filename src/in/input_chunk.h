/* input_chunk: JSON Lines cut into chunks of whole lines, numbered (input_chunk.c), and
 * the chunks parsed into results and merged in input order, by a pool of workers or on
 * the calling thread (input_pool.c); input_read.c, which tells the input's shape, reads
 * the first chunk and hands it and the reader over. Ownership: a chunk owns its data
 * (and keeps it for the chunk read into it next); the reader owns its carry. */
#ifndef ECSPROF_INPUT_CHUNK_H
#define ECSPROF_INPUT_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/task.h"
#include "input_int.h"
#include "input_src.h"

struct chunk {
	char *data;
	size_t cap;         /* data's size: the slot keeps data for its next chunk */
	size_t off, len;    /* the lines: len bytes at data + off */
	long first_line;
	struct pctx c;
	int state;          /* input_pool.c's: the slot's state */
	size_t seq;
	long nl;            /* input_chunk_at(): the lines' line ends */
	bool too_long;      /* ... the line after them is longer than max_line */
	bool counted;       /* input_pool.c's: nl is known */
};

/* The reader's state: bytes of an unfinished line carried into the next chunk. */
struct reader {
	struct src *src;
	const char *name;
	size_t chunk_bytes;
	char *carry;
	size_t carry_len;
	long next_line;
	size_t max_line;    /* INPUT_MAX_LINE; INPUT_MAX_DOC for the first chunk (a document
	                     * on one line, as `jq -c` writes, may be as large as any other) */
	size_t probe;       /* the first chunk stops here when its first line goes on (0:
	                     * never), partial set: maybe a document input_docstream.c reads */
	bool partial;
};

/* input_chunk.c: fills k with whole lines (at least one, unless the input ended). 0 at
 * end of input (k's buffer freed), 1 with a chunk, -1 on a line longer than r->max_line
 * or a read error. */
int input_chunk_read(struct reader *r, struct chunk *k, struct err *err);

/* The error for a line (its number) longer than INPUT_MAX_LINE. */
int input_chunk_too_long(const struct reader *r, long line, struct err *err);

/* Reading at offsets, by many threads at once, without a reader's turn: true (with the
 * offset in *at of the line r would read next) when r's bytes as stored are its input's
 * (not gzip) and a file that can be read at an offset (a regular file; memory read as a
 * file), and no progress callback counts them. */
bool input_chunk_can_read_at(const struct reader *r, uint64_t *at);
/* The lines that start in the bytes [rs, rs + r->chunk_bytes) into k: from the first line
 * start in the range (rs itself when lead is false: rs starts a line) to the end of the
 * line holding the range's last byte, read on past the range as far as it goes; their
 * line ends counted in k->nl; k->too_long when the line after them is longer than
 * r->max_line (and read no further). Only reads r. 1 with a chunk (maybe of no lines),
 * 0 when nothing is at rs (k's buffer freed), -1 on a read error. */
int input_chunk_at(const struct reader *r, struct chunk *k, uint64_t rs, bool lead,
    struct err *err);

/* input_pool.c: first (read by input_chunk_read(), handed over; none when its data is
 * NULL) and every chunk r reads after it, parsed and merged into set in input order: by
 * nthreads workers, on the calling thread when nthreads <= 1 (same results). 0, or -1
 * with err filled at the first document or reading error. */
int input_lines_parse(struct fstate *f, struct reader *r, struct chunk *first,
    unsigned nthreads, struct task_set *set, struct err *err);

#endif
