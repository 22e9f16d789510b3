/* jsonfmt: JSON values appended to a struct buf byte for byte as jansson's
 * json_dumpf(JSON_COMPACT | JSON_REAL_PRECISION(15)) writes the value jsonout used to build
 * (json_string, json_real, json_integer), so the --format json task lines no longer pay
 * for a jansson object per value and json_dumpf's callbacks (71% of a JSON run).
 * tests/test_jsonfmt.c checks every function against jansson itself.
 * Ownership: nothing here allocates what it returns; the caller owns the buf. Each
 * function returns 0, or -1 when the buf refuses to grow (its cap). */
#ifndef ECSPROF_JSONFMT_H
#define ECSPROF_JSONFMT_H

#include <stdbool.h>
#include <stdint.h>

#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/termsafe.h"

/* buf_add(b, s, n) without the call when the bytes fit in what b already holds (the task
 * line's buffer is reused, so nearly always): ~45 short pieces a task line come here */
static inline int
jsonfmt_put(struct buf *b, const void *s, size_t n)
{
	if (n < b->cap - b->len && n <= b->max - b->len) {
		memcpy(b->data + b->len, s, n);
		b->len += n;
		b->data[b->len] = '\0';
		return 0;
	}
	return buf_add(b, s, n);
}

static inline int
jsonfmt_putc(struct buf *b, char c)
{
	return jsonfmt_put(b, &c, 1);
}

/* a JSON string of s, each byte that is not part of valid UTF-8 as U+FFFD (utf8_fix);
 * NULL and "" are null (missing is null everywhere) */
int jsonfmt_string(struct buf *b, const char *s);
/* the n bytes at s quoted and escaped as jsonfmt_string does ("" when n is 0) */
int jsonfmt_quoted(struct buf *b, const char *s, size_t n);

/* jsonfmt_string of the n bytes at s (s[n] is its NUL): a row's cell, its length known.
 * Inline for the texts of a task line that are empty or short and plain ("FARGATE",
 * "256"): their call and its 8-byte set-up were most of their cost (issue 35). */
static inline int
jsonfmt_string_len(struct buf *b, const char *s, size_t n)
{
	char *o;
	size_t i;

	if (n == 0)
		return jsonfmt_put(b, "null", 4);
	if (n >= 8 || n + 2 >= b->cap - b->len || n + 2 > b->max - b->len)
		return jsonfmt_quoted(b, s, n);
	o = b->data + b->len;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return jsonfmt_quoted(b, s, n);
		o[i + 1] = (char)c;
	}
	o[0] = '"';
	o[n + 1] = '"';
	b->len += n + 2;
	b->data[b->len] = '\0';
	return 0;
}

/* ---- writing at a pointer: the caller reserved the room (buf_reserve) and sets the
 * buf's len after; no check a piece (issue 35: a task line's ~100 pieces each checked
 * the cap, moved the length and wrote a NUL, about half of the line's cost) ---- */

/* The bytes [p, end) of a text that began at start, as jsonfmt_quoted writes them, then
 * the closing quote, at o: room for 6 bytes a byte and 1. Returns the end. */
char *jsonfmt_quoted_rest(char *o, const unsigned char *start, const unsigned char *p,
			  const unsigned char *end);

/* jsonfmt_string_len of the n > 0 bytes at s, at o (room for 6n + 2). The n bytes are
 * all that is read. Returns the end. */
char *jsonfmt_at_text(char *o, const char *s, size_t n);

/* jsonfmt_string_len at o (room for 6n + 2 and the 4 of null): "" is null, and a plain
 * text of 4-7 bytes ("FARGATE", "1024") its two 4-byte words, inline (about half and a
 * fifth of a task line's cells); the rest is jsonfmt_at_text's. Returns the end. */
static inline char *
jsonfmt_at_string(char *o, const char *s, size_t n)
{
	uint32_t x, y;

	if (n == 0) {
		memcpy(o, "null", 4);
		return o + 4;
	}
	if (n - 4 < 4) {
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		if (termsafe_ascii8((uint64_t)x | (uint64_t)y << 32, '"', '\\')) {
			*o = '"';
			memcpy(o + 1, &x, 4);
			memcpy(o + n - 3, &y, 4);
			o[n + 1] = '"';
			return o + n + 2;
		}
	}
	return jsonfmt_at_text(o, s, n);
}

/* "s": for an object key: like jsonfmt_string but "" stays "" */
int jsonfmt_key(struct buf *b, const char *s);
/* json_integer(v) */
int jsonfmt_int(struct buf *b, int64_t v);
/* json_real(v): "%.15g", ".0" added when it looks like an integer, the exponent without
 * '+' or leading zeros. v must be finite (json_real refuses the others). */
int jsonfmt_real(struct buf *b, double v);
/* json_real(ms / 1000.0), or null for TS_NONE and negative ms (jsonout's jsecs) */
int jsonfmt_secs(struct buf *b, int64_t ms);
/* json_real(strtod(text, NULL)) of a cell: false, nothing written, when that is not a
 * finite number (json_real would refuse it and the key would be left out) */
bool jsonfmt_decimal(struct buf *b, const char *text, int *rc);

#endif
