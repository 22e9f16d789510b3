/* deploy_rowtab: `report --deployments` rows (deploy.h) as a row table (rowtab.h) for the
 * sink's generic writers (--format markdown): the table's columns (the CSV's others
 * CSV/JSON only), each deployment's sentence as a note.
 * Ownership: a struct deploy_rowtab borrows the rows (keep them alive) and owns its notes
 * until deploy_rowtab_cleanup(). */
#ifndef ECSPROF_DEPLOY_ROWTAB_H
#define ECSPROF_DEPLOY_ROWTAB_H

#include <stddef.h>

#include "ecsprof/deploy.h"
#include "ecsprof/rowtab.h"

struct deploy_rowtab {
	struct row_table t;
	const struct deploy_row *rows;
	char **notes;
	size_t nnotes;
};

void deploy_rowtab_build(struct deploy_rowtab *dt, const struct deploy_row *rows, size_t n);
void deploy_rowtab_cleanup(struct deploy_rowtab *dt);

#endif
