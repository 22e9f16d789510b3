/* buf: capped growable buffer. */
#include <openssl/crypto.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/xalloc.h"

void
buf_init(struct buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max ? max : BUF_MAX_DEFAULT;
	b->secret = false;
}

void
buf_init_secret(struct buf *b, size_t max)
{
	buf_init(b, max);
	b->secret = true;
}

int
buf_reserve(struct buf *b, size_t extra)
{
	size_t need, cap;

	if (extra > b->max || b->len > b->max - extra)
		return -1;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	if (b->secret && b->data != NULL) {
		/* realloc may move the bytes and leave the old block as it was */
		char *moved = xmalloc(cap);

		memcpy(moved, b->data, b->len + 1);
		OPENSSL_cleanse(b->data, b->cap);
		free(b->data);
		b->data = moved;
	} else {
		b->data = xrealloc(b->data, cap);
	}
	b->cap = cap;
	return 0;
}

int
buf_add(struct buf *b, const void *data, size_t len)
{
	if (buf_reserve(b, len) != 0)
		return -1;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int
buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int
buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap, ap2;
	int n;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_reserve(b, (size_t)n) != 0) {
		va_end(ap2);
		return -1;
	}
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	b->len += (size_t)n;
	return 0;
}

const char *
buf_str(const struct buf *b)
{
	return b->data ? b->data : "";
}

void
buf_reset(struct buf *b)
{
	if (b->secret && b->data)
		OPENSSL_cleanse(b->data, b->cap);
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

char *
buf_take(struct buf *b)
{
	char *p = b->data ? b->data : xstrdup("");

	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void
buf_cleanup(struct buf *b)
{
	if (b->secret && b->data)
		OPENSSL_cleanse(b->data, b->cap);
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_cleanup_secure(struct buf *b)
{
	if (b->data)
		OPENSSL_cleanse(b->data, b->cap);
	buf_cleanup(b);
}
