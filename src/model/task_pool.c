/* task_pool: the string pools of task.h: where every string and array of a task lives
 * (task_pool.h). The task functions that write into them (task_str, task_containers,
 * task_share_*) are task.c's: a pool knows no task. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/memeq.h"
#include "ecsprof/xalloc.h"
#include "task_pool.h"

/* A block's size is what it takes of malloc, a power of two: its header and data ask for
 * that less the size_t glibc keeps before each chunk (which rounds to 16), so that a block
 * is one chunk of exactly that size. Blocks then tile the power-of-two arrays freed among
 * them (a read's per-chunk item arrays, 16-64 KB, grown by realloc on the workers): blocks
 * of 8 KB of data took 8240-byte chunks, and each freed array kept a rest of just under
 * 8 KB that no block fitted, 40 MB of them in the workers' arenas after a 1M-task read. */
#define MALLOC_HEAD sizeof(size_t)

static const size_t pool_first_block[] = { [POOL_SET] = (size_t)64 << 10,
	[POOL_BATCH] = (size_t)8 << 10, [POOL_PRIVATE] = 512 };
static const size_t pool_max_block[] = { [POOL_SET] = (size_t)64 << 10,
	[POOL_BATCH] = (size_t)8 << 10, [POOL_PRIVATE] = (size_t)16 << 10 };

static inline uint64_t
rotl64(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

/* Sixteen bytes a step in two lanes, each word rotated and multiplied (~12 instructions
 * where one lane of eight bytes and a shift took ~20): a live run interns ten strings and
 * profiles a task, profiles of 200 bytes. The last 1-16 bytes are read as two words that
 * may overlap (the length is hashed too); under eight, as two halves or three bytes. */
static inline uint64_t
hash_bytes(const char *s, size_t n)
{
	const uint64_t k1 = 0xff51afd7ed558ccdULL, k2 = 0xc4ceb9fe1a85ec53ULL;
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ n, b = k2 ^ n, w = 0, v = 0, h;
	const char *e = s + n;

	if (n >= 8) {
		for (; e - s > 16; s += 16) {
			memcpy(&w, s, 8);
			memcpy(&v, s + 8, 8);
			a = rotl64(a ^ w, 29) * k1;
			b = rotl64(b ^ v, 31) * k2;
		}
		memcpy(&w, n >= 16 ? e - 16 : s, 8);
		memcpy(&v, e - 8, 8);
	} else if (n >= 4) {
		uint32_t x, y;

		memcpy(&x, s, 4);
		memcpy(&y, e - 4, 4);
		w = x;
		v = y;
	} else if (n > 0) {
		w = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
		    (uint64_t)(unsigned char)s[n - 1] << 16;
	}
	a = rotl64(a ^ w, 29) * k1;
	b = rotl64(b ^ v, 31) * k2;
	h = a ^ rotl64(b, 32);
	h ^= h >> 29;
	h *= k1;
	return h ^ (h >> 32);
}

uint64_t
tpool_hash(const char *s, size_t n)
{
	return hash_bytes(s, n);
}

struct task_strpool *
tpool_new(enum pool_kind kind)
{
	struct task_strpool *p = xcalloc(1, sizeof *p);

	p->kind = kind;
	p->block = pool_first_block[kind];
	return p;
}

/* n bytes at an address aligned to align (a power of two, at most 16) in p. */
void *
tpool_alloc(struct task_strpool *p, size_t n, size_t align)
{
	struct pool_block *b = p->blocks;
	size_t at;

	if (n >= POOL_BIG) {
		/* behind the current block, which keeps filling */
		struct pool_block *big = xmalloc(sizeof *big + n);

		big->size = big->used = n;
		if (b != NULL) {
			big->next = b->next;
			b->next = big;
		} else {
			big->next = NULL;
			p->blocks = big;
		}
		return big->data;
	}
	at = b != NULL ? (b->used + align - 1) & ~(align - 1) : 0;
	if (b == NULL || at + n > b->size) {
		size_t size = p->block;

		while (size - sizeof *b - MALLOC_HEAD < n)
			size *= 2;
		b = xmalloc(size - MALLOC_HEAD);
		b->size = size - sizeof *b - MALLOC_HEAD;
		b->next = p->blocks;
		p->blocks = b;
		if (p->block < pool_max_block[p->kind])
			p->block *= 2;
		at = 0;
	}
	b->used = at + n;
	return b->data + at;
}

/* A copy of the n bytes at s, NUL-terminated, at an address aligned to align. */
static const char *
tpool_store(struct task_strpool *p, const char *s, size_t n, size_t align)
{
	char *dst = tpool_alloc(p, n + 1, align);

	memcpy(dst, s, n);
	dst[n] = '\0';
	return dst;
}

static void
tpool_grow(struct task_strpool *p)
{
	size_t cap = p->nslots ? p->nslots * 2 : 1024, mask = cap - 1;
	struct pool_slot *slots = xcalloc(cap, sizeof *slots);

	for (size_t i = 0; i < p->nslots; i++) {
		size_t j;

		if (p->slots[i].s == NULL)
			continue;
		for (j = p->slots[i].hash & mask; slots[j].s != NULL; j = (j + 1) & mask)
			;
		slots[j] = p->slots[i];
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = cap;
}

/* Are the n bytes at a and b the same? Most lookups find their text (nine in ten of an
 * event file's), most texts are short (a status, a zone, "256"): up to 32 bytes compared
 * inline (mem_eq), longer ones (ARNs, profiles) by memcmp(). */
static inline bool
same_bytes(const char *a, const char *b, size_t n)
{
	return n > 32 ? memcmp(a, b, n) == 0 : mem_eq(a, b, n);
}

/* The pool's copy of the n bytes at s (which need not be NUL-terminated), aligned to
 * align: one copy of each text in a set's or batch pool. An array of containers or tags
 * is looked up as its bytes (its strings being the pool's, equal arrays are equal bytes),
 * NUL-terminated as a string is, so that a string and an array of the same bytes could
 * even share a copy. */
const char *
tpool_intern_aligned(struct task_strpool *p, const char *s, size_t n, size_t align)
{
	uint32_t h;
	size_t mask, i;

	if (n >= POOL_BIG || p->kind == POOL_PRIVATE)
		return tpool_store(p, s, n, align);
	if ((p->len + 1) * 2 > p->nslots)
		tpool_grow(p);
	h = (uint32_t)hash_bytes(s, n);   /* inline: no call, no spills around it */
	mask = p->nslots - 1;
	for (i = h & mask; p->slots[i].s != NULL; i = (i + 1) & mask)
		if (p->slots[i].hash == h && p->slots[i].len == n &&
		    ((uintptr_t)p->slots[i].s & (align - 1)) == 0 &&
		    same_bytes(p->slots[i].s, s, n))
			return p->slots[i].s;
	p->slots[i].s = tpool_store(p, s, n, align);
	p->slots[i].hash = h;
	p->slots[i].len = (uint32_t)n;
	p->len++;
	return p->slots[i].s;
}

const char *
tpool_intern(struct task_strpool *p, const char *s, size_t n)
{
	return tpool_intern_aligned(p, s, n, 1);
}

void *
tpool_take_chunk(struct task_strpool *p, int k, size_t n)
{
	void *c = p->spare[k];

	if (c == NULL)
		return tpool_alloc(p, n, 16);
	memcpy(&p->spare[k], c, sizeof p->spare[k]);
	return c;
}

void
tpool_give_back(struct task_strpool *p, int k, void *c)
{
	memcpy(c, &p->spare[k], sizeof p->spare[k]);
	p->spare[k] = c;
}

/* Moves from's blocks into into, as they are (every pointer into them stays valid); from
 * is left empty, its index dropped (its texts are not looked up again). */
void
tpool_adopt(struct task_strpool *into, struct task_strpool *from)
{
	struct pool_block *tail = from->blocks;

	if (tail != NULL) {
		while (tail->next != NULL)
			tail = tail->next;
		if (into->blocks == NULL) {
			into->blocks = from->blocks;
		} else {
			/* behind into's current block, which keeps filling */
			tail->next = into->blocks->next;
			into->blocks->next = from->blocks;
		}
	}
	from->blocks = NULL;
	/* its spare chunks went with the blocks; what still points into them is a task's
	 * draft, which gives its chunk back to its pool then (task_derive()) */
	memset(from->spare, 0, sizeof from->spare);
	free(from->slots);
	from->slots = NULL;
	from->nslots = from->len = 0;
}

void
tpool_free(struct task_strpool *p)
{
	struct pool_block *b, *next;

	if (p == NULL)
		return;
	for (b = p->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(p->slots);
	free(p);
}
