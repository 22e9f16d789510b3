/* input_docstream: a large document read as it comes, a chunk of the input at a time
 * (input_docstream.c), for input_read.c. Ownership: the first bytes, handed over, become
 * the reader's buffer and are freed by it; the bytes after the document are given back
 * (*rest, the caller's to free). */
#ifndef ECSPROF_INPUT_DOCSTREAM_H
#define ECSPROF_INPUT_DOCSTREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "input_int.h"
#include "input_src.h"

/* 1: p (n bytes, blank lines first allowed) starts a document this reader takes: a
 * top-level array, or an object whose first member is "tasks" or "failures" (a
 * DescribeTasks answer); 0: any other text, or too few bytes to tell. */
int input_docstream_takes(const char *p, size_t n);

/* The document that data (len bytes of cap, malloc'd, handed over) starts, and then the
 * rest of it from s, element by element: each task goes through input_stream.c's reading
 * of one element, merged into set a batch at a time, so memory is the tasks and about
 * two batches of text, never the whole text. line: the line of data[0] (warnings name
 * each element's line, as JSON Lines' name theirs). 0 with the bytes
 * after the document in *rest (*rest_len, possibly 0) and the line they start on in
 * *rest_line; -1 with err set (a truncated or malformed document named by its byte, a
 * read error), the tasks before it kept in set. */
int input_docstream_read(struct fstate *f, struct src *s, char *data, size_t len,
    size_t cap, long line, struct task_set *set, char **rest, size_t *rest_len,
    long *rest_line, struct err *err);

#endif
