/* xalloc: allocation wrappers that end the program when memory runs out. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"

static void
xalloc_fatal(size_t size)
{
	fprintf(stderr, "ecsprof: out of memory (allocating %zu bytes)\n", size);
	exit(1);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		xalloc_fatal(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		xalloc_fatal(n * size);
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (q == NULL)
		xalloc_fatal(size);
	return q;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		xalloc_fatal(SIZE_MAX);
	return xrealloc(p, n * size);
}

void *
xgrow(void *p, size_t need, size_t *cap, size_t size)
{
	size_t n = *cap;

	if (need <= n && p != NULL)
		return p;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			xalloc_fatal(SIZE_MAX);
		n *= 2;
	}
	p = xreallocarray(p, n, size);
	*cap = n;
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrdup_or_null(const char *s)
{
	return s == NULL ? NULL : xstrdup(s);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_fatal(0);
	return p;
}
