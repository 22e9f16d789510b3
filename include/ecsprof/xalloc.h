/* xalloc: allocation that never returns NULL; running out of memory ends the program
 * with a message, as in tmux and htop.
 * Ownership: every pointer returned is the caller's, freed with free(). */
#ifndef ECSPROF_XALLOC_H
#define ECSPROF_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* reallocarray with overflow check */
void *xreallocarray(void *p, size_t n, size_t size);
/* The one growth rule for arrays: returns p with room for at least need elements of size
 * bytes, growing *cap by doubling (from 16); p unchanged when it is big enough already.
 *   v = xgrow(v, n + 1, &cap, sizeof *v);  v[n++] = x; */
void *xgrow(void *p, size_t need, size_t *cap, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* NULL in, NULL out */
char *xstrdup_or_null(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
