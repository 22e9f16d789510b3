/* task_pool: the string pools of task.h (a set's, a batch pool, a task's private one):
 * blocks of strings and arrays, the index that keeps one copy of each text in a set's or
 * batch pool, and one pool's storage moving into another. Private to src/model (task.c,
 * which writes a task's strings into them); knows no task. */
#ifndef ECSPROF_TASK_POOL_H
#define ECSPROF_TASK_POOL_H

#include <stddef.h>
#include <stdint.h>


/* Strings and arrays are packed into blocks; a string longer than POOL_BIG gets a block
 * of its own and is not looked up (a long stoppedReason rarely repeats, and the index
 * stores lengths in 32 bits). A set's blocks are big; a batch pool's (one per worker
 * chunk of about 1 MiB of input) smaller, since its last block is handed to the set
 * partly filled; a private pool (one task) starts small and doubles. */
#define POOL_BIG ((size_t)4 << 10)

enum pool_kind { POOL_SET, POOL_BATCH, POOL_PRIVATE };

/* the sizes of chunk a pool keeps spares of (tpool_take_chunk()) */
#define POOL_CHUNK_SIZES 2

struct pool_block {
	struct pool_block *next;
	size_t used, size;
	_Alignas(16) char data[];
};

struct pool_slot {
	const char *s;  /* NULL: free */
	uint32_t hash;
	uint32_t len;
};

struct task_strpool {
	struct pool_block *blocks;     /* the one being filled first */
	struct pool_slot *slots;       /* open addressing, at most half full; none in a
					* private pool (nothing to share with) */
	size_t nslots, len;
	enum pool_kind kind;
	size_t block;                  /* the size of the next block */
	/* a batch pool: the set pool its storage went to (task_set_take()) */
	const struct task_strpool *taken_by;
	/* chunks given back (tpool_give_back()), linked through their first bytes, one
	 * list a size: the drafts of task and container profiles, reused by the next draft */
	void *spare[POOL_CHUNK_SIZES];
};

uint64_t tpool_hash(const char *s, size_t n);
struct task_strpool *tpool_new(enum pool_kind kind);
/* n bytes at an address aligned to align (a power of two, at most 16) in p. */
void *tpool_alloc(struct task_strpool *p, size_t n, size_t align);
/* p's copy of the n bytes at s, NUL-terminated (one copy of each text but in a private
 * pool); aligned to align, for an array looked up as its bytes. */
const char *tpool_intern_aligned(struct task_strpool *p, const char *s, size_t n, size_t align);
const char *tpool_intern(struct task_strpool *p, const char *s, size_t n);
/* n bytes (at least a pointer's) aligned to 16, of size class k (< POOL_CHUNK_SIZES;
 * always the same n for one k): a chunk given back before, else a new one. */
void *tpool_take_chunk(struct task_strpool *p, int k, size_t n);
/* Gives the chunk at c (from tpool_take_chunk(p, k, ...)) back for the next one. */
void tpool_give_back(struct task_strpool *p, int k, void *c);
/* Moves from's blocks into into, as they are (every pointer into them stays valid); from
 * is left empty, its index dropped (its texts are not looked up again). */
void tpool_adopt(struct task_strpool *into, struct task_strpool *from);
/* Frees p and every block of it (takes NULL). */
void tpool_free(struct task_strpool *p);

#endif
