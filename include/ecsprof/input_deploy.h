/* input_deploy: the reader of deployments and service events (deploy.h) out of the files
 * `report` reads, and out of live DescribeServices answers; see input_deploy.c.
 * Ownership: what is read is added to the caller's deploy_set. */
#ifndef ECSPROF_INPUT_DEPLOY_H
#define ECSPROF_INPUT_DEPLOY_H

#include <stddef.h>

#include "ecsprof/deploy.h"
#include "ecsprof/err.h"

/* Reads one file ("-", standard input, holds no deployments here: it was read for the
 * tasks). Unreadable files fail; lines that are not JSON, or not about deployments, are
 * passed over (the task reader reports bad JSON). */
int input_deploy_read_file(const char *path, struct deploy_set *s, struct err *err);
/* The same on bytes: a document, an array, or JSON Lines. */
int input_deploy_read_mem(const char *name, const char *data, size_t len, struct deploy_set *s,
			  struct err *err);

#endif
