/* strset: a hash set of strings, each with a size_t value (a position, a count): the one
 * answer to "seen this ARN before?" and "where is this ARN?".
 * Ownership: the set borrows its keys (they must outlive it, or until removed with the
 * set); strset_cleanup() frees the table only. */
#ifndef ECSPROF_STRSET_H
#define ECSPROF_STRSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strset_slot {
	const char *key;          /* NULL: empty */
	uint64_t hash;
	size_t value;
};

struct strset {
	struct strset_slot *slots;
	size_t cap, n;            /* cap a power of two, or 0 */
};

void strset_init(struct strset *s);
void strset_cleanup(struct strset *s);
/* Adds key with value; false (and nothing changed) when key is in the set already. */
bool strset_add(struct strset *s, const char *key, size_t value);
/* true and *value (may be NULL) when key is in the set. */
bool strset_get(const struct strset *s, const char *key, size_t *value);
uint64_t strset_hash(const char *s);

#endif
