/* jarena: jansson's memory while parsing JSON Lines, from a per-thread bump arena emptied
 * after each line (jarena.h says the rules). */
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "jarena.h"

/* jansson makes a malloc'd node for every value, key and string of a line and frees them
 * all again a moment later, a fifth of the parsing time. While parse_lines() runs, a thread
 * gives jansson memory from its own bump arena instead, emptied after each line. The
 * functions are jansson's only inside a read call's scope (jarena.h, rule 3), and fall
 * back to the previous allocator on every thread and at every moment no arena is open;
 * nothing allocated in an arena outlives the line it parsed. */
struct jarena {
	struct jarena *older;   /* blocks filled before this one, freed at the reset */
	size_t size, used;
	max_align_t data[];
};

#define JARENA_BLOCK ((size_t)256 << 10)
#define JARENA_ALIGN sizeof(max_align_t)

static _Thread_local struct jarena *jarena;
static _Thread_local bool jarena_open;

/* the scope: how many read calls are in one, and jansson's allocator before the first */
static pthread_mutex_t scope_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned scope_depth;
static json_malloc_t prev_malloc = malloc;
static json_free_t prev_free = free;

#if defined(__SANITIZE_ADDRESS__)
#define JARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JARENA_ASAN 1
#endif
#endif
#ifdef JARENA_ASAN
#include <sanitizer/asan_interface.h>
/* poisoned gaps between blocks of memory, so ASan still sees overruns inside jansson */
#define JARENA_GAP JARENA_ALIGN
#define JARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define JARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define JARENA_GAP 0
#define JARENA_POISON(p, n) ((void)(p), (void)(n))
#define JARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static void *
jarena_malloc(size_t n)
{
	struct jarena *a = jarena;
	size_t need;
	char *p;

	if (!jarena_open)
		return prev_malloc(n);
	if (n > SIZE_MAX / 2)
		return NULL;
	need = (n + JARENA_ALIGN - 1) / JARENA_ALIGN * JARENA_ALIGN + JARENA_GAP;
	if (a == NULL || a->size - a->used < need) {
		size_t size = a != NULL && a->size > JARENA_BLOCK / 2 ? a->size * 2 : JARENA_BLOCK;
		struct jarena *b;

		while (size < need)
			size *= 2;
		b = malloc(sizeof *b + size);
		if (b == NULL)
			return NULL; /* jansson reports it as a parse error */
		b->older = a;
		b->size = size;
		b->used = 0;
		JARENA_POISON(b->data, size);
		jarena = a = b;
	}
	p = (char *)a->data + a->used;
	a->used += need;
	JARENA_UNPOISON(p, n);
	return p;
}

static void
jarena_free(void *p)
{
	if (!jarena_open)
		prev_free(p);
	/* else from the arena: freed with the whole line */
}

void
jarena_scope_enter(void)
{
	pthread_mutex_lock(&scope_mu);
	if (scope_depth++ == 0) {
		json_get_alloc_funcs(&prev_malloc, &prev_free);
		json_set_alloc_funcs(jarena_malloc, jarena_free);
	}
	pthread_mutex_unlock(&scope_mu);
}

void
jarena_scope_leave(void)
{
	pthread_mutex_lock(&scope_mu);
	if (scope_depth > 0 && --scope_depth == 0)
		json_set_alloc_funcs(prev_malloc, prev_free);
	pthread_mutex_unlock(&scope_mu);
}

/* After each line: keeps the newest (largest) block for the next line, unless a huge
 * line made it huge. */
static void
jarena_reset(bool keep)
{
	struct jarena *a = jarena, *o, *next;

	if (a == NULL)
		return;
	for (o = a->older; o != NULL; o = next) {
		next = o->older;
		free(o);
	}
	a->older = NULL;
	JARENA_POISON(a->data, a->used);
	a->used = 0;
	if (!keep || a->size > 4 * JARENA_BLOCK) {
		free(a);
		jarena = NULL;
	}
}

void
jarena_begin(void)
{
	jarena_open = true;
}

void
jarena_line_done(void)
{
	jarena_reset(true);
}

void
jarena_end(void)
{
	jarena_open = false;
	jarena_reset(false);
}
