/* input_stream: a large whole document read element by element (input_stream_scan.c
 * the first pass, input_stream.c the elements), for input_read.c. Ownership: the text
 * is the caller's and must outlive the stream; the stream's scratch is freed by
 * input_stream_close(). */
#ifndef ECSPROF_INPUT_STREAM_H
#define ECSPROF_INPUT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input_int.h"
#include "ecsprof/jsonscan.h"

struct input_stream {
	const char *end;
	bool array;             /* a top-level array; else a DescribeTasks answer */
	const char *tasks;      /* the '[' of the tasks (of the array's elements); NULL: none */
	const char *failures;   /* the '[' of failures[]; NULL: none */
	int phase;              /* 0: the tasks, 1: failures[], 2: done */
	struct jsonscan sc;     /* at the next element */
	bool first;
	size_t index;
	char *buf;              /* taskscan's scratch */
	size_t bufcap;
	bool chunked;           /* read as it comes (input_docstream.c), not checked first */
	uint64_t at;            /* ... the current element's byte in the text */
};

/* the members of an element of a top-level array that decide its shape (shape_of), as
 * input_stream_shape_members() notes them */
enum { HAS_ECSPROF = 1, HAS_DETAIL_TYPE = 2, HAS_DETAIL = 4, HAS_TASKARN_META = 8,
	HAS_TASKARN = 16 };

/* input_stream_scan.c: an object's members (sc at its '{'), skipped, noting the shape keys
 * among them in *flags: 0, or -1 for a key named twice or bad JSON (the DOM reader words
 * it). */
int input_stream_shape_members(struct jsonscan *sc, unsigned *flags);

/* input_stream_scan.c (with _read_upto and _close): 0: the text is one such document,
 * checked as jansson would check it, and s is at its first element; -1: read it with input_parse_doc() (any other shape, anything the check
 * is not sure of, every error). */
int input_stream_open(struct input_stream *s, const char *data, size_t len);
/* The next elements, about `bytes` of text, into c as input_parse_doc() would make them
 * (the tasks in order, then the failures); 1 while more are to come, 0 at the end or on
 * a document error (c->failed). */
int input_stream_next(struct input_stream *s, struct pctx *c, size_t bytes);
/* One element p (n bytes, complete but not checked) of the array s is in (s->array,
 * s->phase set by the caller; s->index counts), at byte `at` of the text, into c as
 * input_stream_next() would read it; a malformed one fails c naming its byte. For
 * input_docstream.c, which finds the elements in the text as it is read. */
void input_stream_element(struct input_stream *s, struct pctx *c, const char *p, size_t n,
    uint64_t at);
/* The text before this is read and no longer needed (none of it is kept in tasks). */
const char *input_stream_read_upto(const struct input_stream *s);
void input_stream_close(struct input_stream *s);

#endif
