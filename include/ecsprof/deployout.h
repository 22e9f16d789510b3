/* deployout: `report --deployments` written out: one row per deployment (deploy.h) as a
 * table (with each deployment's sentence and its service events on a timeline), as CSV
 * (the contract's columns first) or as JSON.
 * Ownership: borrows the rows; writes to the caller's FILE. */
#ifndef ECSPROF_DEPLOYOUT_H
#define ECSPROF_DEPLOYOUT_H

#include <stdio.h>

#include "ecsprof/deploy.h"
#include "ecsprof/err.h"

int deployout_table(FILE *f, const struct deploy_row *rows, size_t n, struct err *err);
int deployout_csv(FILE *f, const struct deploy_row *rows, size_t n, struct err *err);
int deployout_json(FILE *f, const struct deploy_row *rows, size_t n, struct err *err);

#endif
