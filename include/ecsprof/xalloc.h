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
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* NULL in, NULL out */
char *xstrdup_or_null(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
