/* strset: open addressing with linear probing, kept at most half full; the hash is
 * stored so that growing never rehashes and a probe compares strings only on a match. */
#include <stdlib.h>
#include <string.h>

#include "ecsprof/strset.h"
#include "ecsprof/xalloc.h"

void
strset_init(struct strset *s)
{
	memset(s, 0, sizeof *s);
}

void
strset_cleanup(struct strset *s)
{
	free(s->slots);
	memset(s, 0, sizeof *s);
}

/* FNV-1a */
uint64_t
strset_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct strset_slot *
probe(const struct strset *s, const char *key, uint64_t h)
{
	size_t mask = s->cap - 1;

	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct strset_slot *sl = &s->slots[i];

		if (sl->key == NULL || (sl->hash == h && strcmp(sl->key, key) == 0))
			return sl;
	}
}

static void
grow(struct strset *s)
{
	struct strset bigger;

	bigger.cap = s->cap ? s->cap * 2 : 64;
	bigger.n = s->n;
	bigger.slots = xcalloc(bigger.cap, sizeof *bigger.slots);
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].key != NULL)
			*probe(&bigger, s->slots[i].key, s->slots[i].hash) = s->slots[i];
	free(s->slots);
	*s = bigger;
}

bool
strset_add(struct strset *s, const char *key, size_t value)
{
	uint64_t h = strset_hash(key);
	struct strset_slot *sl;

	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	sl = probe(s, key, h);
	if (sl->key != NULL)
		return false;
	sl->key = key;
	sl->hash = h;
	sl->value = value;
	s->n++;
	return true;
}

bool
strset_get(const struct strset *s, const char *key, size_t *value)
{
	const struct strset_slot *sl;

	if (s->cap == 0)
		return false;
	sl = probe(s, key, strset_hash(key));
	if (sl->key == NULL)
		return false;
	if (value != NULL)
		*value = sl->value;
	return true;
}
