/* input_deploy: the reader of deployments and service events (deploy.h) out of the files
 * `report` reads, and out of live DescribeServices answers; see input_deploy.c.
 * Ownership: what is read is added to the caller's deploy_set. */
#ifndef ECSPROF_INPUT_DEPLOY_H
#define ECSPROF_INPUT_DEPLOY_H

#include <stddef.h>
#include <stdio.h>

#include "ecsprof/buf.h"
#include "ecsprof/deploy.h"
#include "ecsprof/err.h"

struct log;   /* log.h: where an unusable object is said (NULL: stderr) */

/* Reads one file ("-" is standard input). Unreadable files fail; see read_mem. A caller
 * that reads the tasks from the same file reads it once with input_deploy_slurp() and
 * hands the bytes to both readers (standard input cannot be read twice). */
int input_deploy_read_file(const struct log *lg, const char *path, struct deploy_set *s,
			   struct err *err);
/* The same on bytes named name (in messages): a document, an array, or JSON Lines. Lines
 * that are not JSON, or not about deployments, are passed over (the task reader reports
 * bad lines), but bytes with no JSON in them at all fail with "NAME:LINE:COL: ...".
 * Deployments and events without an id, a time or a message are left out with one warning
 * (through log.c) naming name and the line of the first. */
int input_deploy_read_mem(const struct log *lg, const char *name, const char *data, size_t len,
			  struct deploy_set *s, struct err *err);
/* All of f into b (initialised here; the caller frees it with buf_cleanup(), also on
 * error), at most INPUT_MAX_DOC bytes; errors name name. */
int input_deploy_slurp(const char *name, FILE *f, struct buf *b, struct err *err);

#endif
