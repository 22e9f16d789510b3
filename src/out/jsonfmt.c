/* jsonfmt: jansson's dump rules (dump.c's dump_string, strconv.c's jsonp_dtostr) done
 * straight into a buffer. Numbers that are a short decimal (milliseconds as seconds, the
 * "%.6f" cost cell) are written from their digits: a decimal of at most 15 significant
 * digits comes back unchanged from "%.15g" of its nearest double (DBL_DIG), so only the
 * trailing zeros go; anything else takes snprintf, as jansson does. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/numfmt.h"
#include "ecsprof/task.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "jsonfmt.h"

#define JSONFMT_EXACT_MS 1000000000000000LL   /* |ms| below 1e15: at most 15 digits */

static const char jsonfmt_hex[] = "0123456789ABCDEF";

static bool
jsonfmt_plain1(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* The byte or sequence at *pp that is not plain, written at o as the string holds it
 * (at most 6 bytes); *pp moved past it, the end returned. Valid UTF-8 is kept; DEL, C1
 * and bidi controls are escaped too, so no terminal sees them raw and a program reads
 * the same string (termsafe); an invalid byte becomes U+FFFD. */
static char *
jsonfmt_escape_one(char *o, const unsigned char **pp)
{
	const unsigned char *p = *pp;
	unsigned char c = *p;
	size_t len = 0;

	if (c >= 0x80 && (len = utf8_len(p)) != 0 &&
	    termsafe_bad_len((const char *)p, NULL) == 0) {
		memcpy(o, p, len);
		*pp = p + len;
		return o + len;
	}
	if (c >= 0x80 && len != 0) {
		unsigned cp = len == 2 ? p[1] : 0x2000u | ((unsigned)(p[1] & 0x3f) << 6) |
						(p[2] & 0x3fu);

		memcpy(o, "\\u", 2);
		o[2] = jsonfmt_hex[cp >> 12];
		o[3] = jsonfmt_hex[(cp >> 8) & 15];
		o[4] = jsonfmt_hex[(cp >> 4) & 15];
		o[5] = jsonfmt_hex[cp & 15];
		*pp = p + len;
		return o + 6;
	}
	*pp = p + 1;
	if (c >= 0x80) {
		memcpy(o, "\xef\xbf\xbd", 3);
		return o + 3;
	}
	o[0] = '\\';
	switch (c) {
	case '"': o[1] = '"'; return o + 2;
	case '\\': o[1] = '\\'; return o + 2;
	case '\b': o[1] = 'b'; return o + 2;
	case '\f': o[1] = 'f'; return o + 2;
	case '\n': o[1] = 'n'; return o + 2;
	case '\r': o[1] = 'r'; return o + 2;
	case '\t': o[1] = 't'; return o + 2;
	default:
		memcpy(o + 1, "u00", 3);
		o[4] = jsonfmt_hex[c >> 4];
		o[5] = jsonfmt_hex[c & 15];
		return o + 6;
	}
}

/* jsonfmt_quoted a piece at a time, for a text whose worst case passes the buf's cap
 * while the text itself may not */
static int
jsonfmt_quoted_pieces(struct buf *b, const unsigned char *p, const unsigned char *end)
{
	const unsigned char *run = p;
	int rc = jsonfmt_putc(b, '"');

	while (p < end) {
		char esc[8];
		const unsigned char *at = p;

		if (jsonfmt_plain1(*p)) {
			p++;
			continue;
		}
		rc |= jsonfmt_put(b, run, (size_t)(at - run));
		rc |= jsonfmt_put(b, esc, (size_t)(jsonfmt_escape_one(esc, &p) - esc));
		run = p;
	}
	rc |= jsonfmt_put(b, run, (size_t)(p - run));
	return rc | jsonfmt_putc(b, '"');
}

char *
jsonfmt_quoted_rest(char *o, const unsigned char *start, const unsigned char *p,
		    const unsigned char *end)
{
	for (;;) {
		/* a JSON string holds its plain runs as they are */
		if (termsafe_copy_plain(&o, &p, start, end, '"', '\\'))
			break;
		while (p < end && jsonfmt_plain1(*p))
			*o++ = (char)*p++;
		if (p == end)
			break;
		o = jsonfmt_escape_one(o, &p);
	}
	*o++ = '"';
	return o;
}

/* A plain text (no byte to escape: the usual one) is copied as the words that cover it,
 * 4, 8 or 16 bytes, the last one ending where the text ends and overlapping the one
 * before, each tested before it is written; no loop a byte (issue 35: the byte loop and
 * the buffer's checks a piece were most of a short cell's cost). Any other text is
 * written again from its start by jsonfmt_quoted_rest. */
char *
jsonfmt_at_text(char *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	*o++ = '"';
	if (n < 4) {
		if (jsonfmt_plain1(p[0]) && jsonfmt_plain1(p[n / 2]) && jsonfmt_plain1(p[n - 1])) {
			o[0] = (char)p[0];
			o[n / 2] = (char)p[n / 2];
			o[n - 1] = (char)p[n - 1];
			o[n] = '"';
			return o + n + 1;
		}
	} else if (n < 8) {
		uint32_t x, y;

		memcpy(&x, p, 4);
		memcpy(&y, p + n - 4, 4);
		if (termsafe_ascii8((uint64_t)x | (uint64_t)y << 32, '"', '\\')) {
			memcpy(o, &x, 4);
			memcpy(o + n - 4, &y, 4);
			o[n] = '"';
			return o + n + 1;
		}
	} else if (n < 16) {
		uint64_t x, y;

		memcpy(&x, p, 8);
		memcpy(&y, p + n - 8, 8);
		if (termsafe_ascii8(x, '"', '\\') && termsafe_ascii8(y, '"', '\\')) {
			memcpy(o, &x, 8);
			memcpy(o + n - 8, &y, 8);
			o[n] = '"';
			return o + n + 1;
		}
	} else {
		size_t i = 0;

		while (i + 16 <= n && termsafe_ascii16(p + i, '"', '\\')) {
			memcpy(o + i, p + i, 16);
			i += 16;
		}
		if (i == n || (i + 16 > n && termsafe_ascii16(p + n - 16, '"', '\\'))) {
			memcpy(o + n - 16, p + n - 16, 16);
			o[n] = '"';
			return o + n + 1;
		}
	}
	return jsonfmt_quoted_rest(o, p, p, p + n);
}

/* the quoted, escaped text, written straight into b after one reservation of its worst
 * case (6 bytes a byte, "\u001F"); runs of plain bytes, the bulk of a task line, are
 * copied by termsafe_copy_plain, 16 and 8 at a time (issue 35: the byte loop was a third
 * of a string's cost; the reservation is checked here first, buf_reserve called only to
 * grow) */
int
jsonfmt_quoted(struct buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	char *o;

	if (n > (SIZE_MAX - 2) / 6)
		return jsonfmt_quoted_pieces(b, p, end);
	if ((6 * n + 2 >= b->cap - b->len || 6 * n + 2 > b->max - b->len) &&
	    buf_reserve(b, 6 * n + 2) != 0)
		return jsonfmt_quoted_pieces(b, p, end);
	o = b->data + b->len;
	*o++ = '"';
	o = jsonfmt_quoted_rest(o, p, p, end);
	b->len = (size_t)(o - b->data);
	b->data[b->len] = '\0';
	return 0;
}

int
jsonfmt_string(struct buf *b, const char *s)
{
	return s == NULL ? jsonfmt_put(b, "null", 4) : jsonfmt_string_len(b, s, strlen(s));
}


int
jsonfmt_key(struct buf *b, const char *s)
{
	return jsonfmt_quoted(b, s != NULL ? s : "", s != NULL ? strlen(s) : 0) |
	       jsonfmt_putc(b, ':');
}

int
jsonfmt_int(struct buf *b, int64_t v)
{
	char d[NUMFMT_INT_LEN];

	return jsonfmt_put(b, d, numfmt_i64(d, v));
}

int
jsonfmt_real(struct buf *b, double v)
{
	char d[64];
	int n = snprintf(d, sizeof d - 3, "%.15g", v);
	char *e;

	if (n < 0 || (size_t)n >= sizeof d - 3)
		return -1;
	/* jansson's from_locale(): a decimal comma (the TUI sets the locale) becomes '.' */
	for (char *c = d; *c != '\0'; c++)
		if ((*c < '0' || *c > '9') && *c != '-' && *c != '+' && *c != 'e')
			*c = '.';
	if (strchr(d, '.') == NULL && strchr(d, 'e') == NULL) {
		memcpy(d + n, ".0", 3);
		n += 2;
	}
	if ((e = strchr(d, 'e')) != NULL) {
		char *start = e + 1, *end = e + 2;

		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, (size_t)(d + n - end) + 1);
			n -= (int)(end - start);
		}
	}
	return jsonfmt_put(b, d, (size_t)n);
}

/* ms / 1000 as a decimal without trailing zeros ("12.3", "5.0"): |ms| < 1e15 */
static int
jsonfmt_ms_decimal(struct buf *b, int64_t ms)
{
	char d[NUMFMT_INT_LEN];
	size_t n = numfmt_ms_secs(d, ms);

	while (d[n - 1] == '0' && d[n - 2] != '.')
		n--;
	return jsonfmt_put(b, d, n);
}

int
jsonfmt_secs(struct buf *b, int64_t ms)
{
	if (ms == TS_NONE || ms < 0)
		return jsonfmt_put(b, "null", 4);
	if (ms < JSONFMT_EXACT_MS)
		return jsonfmt_ms_decimal(b, ms);
	return jsonfmt_real(b, (double)ms / 1000.0);
}

/* text as "%.15g" prints strtod(text) when text is a plain decimal ("-0.012300") of at
 * most 15 significant digits whose first one is between 10^-301 and 10^14 (%f style from
 * 10^-4, e notation below); -1 when it is not one */
static int
jsonfmt_plain(struct buf *b, const char *text, int *rc)
{
	const char *p = text, *ip, *fp = NULL;
	size_t ni, nf = 0, zeros = 0;
	char out[40];
	size_t o = 0;

	if (*p == '-')
		out[o++] = *p++;
	ip = p;
	while (*p >= '0' && *p <= '9')
		p++;
	ni = (size_t)(p - ip);
	if (ni == 0 || ni > 15 || (ni > 1 && *ip == '0'))
		return -1;
	if (*p == '.') {
		fp = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		nf = (size_t)(p - fp);
		if (nf == 0)
			return -1;
	}
	if (*p != '\0')
		return -1;
	while (nf > 0 && fp[nf - 1] == '0')
		nf--;
	if (*ip == '0') {
		if (nf == 0) {
			memcpy(out + o, "0.0", 3);
			*rc |= jsonfmt_put(b, out, o + 3);
			return 0;
		}
		while (zeros < nf && fp[zeros] == '0')
			zeros++;
		if (nf - zeros > 15 || zeros > 300)
			return -1;
		if (zeros > 3) {
			/* below 10^-4 "%.15g" is e notation of the same digits, and jansson
			 * drops the exponent's leading zeros: "0.000012" is "1.2e-5" (a tenth
			 * of the startup-cost cells; they took snprintf and strtod, issue 35).
			 * Up to 10^-301 the value is a normal double: 15 digits come back. */
			const char *d = fp + zeros;

			out[o++] = d[0];
			if (nf - zeros > 1) {
				out[o++] = '.';
				memcpy(out + o, d + 1, nf - zeros - 1);
				o += nf - zeros - 1;
			}
			out[o++] = 'e';
			out[o++] = '-';
			o += numfmt_u64(out + o, zeros + 1);
			*rc |= jsonfmt_put(b, out, o);
			return 0;
		}
	} else if (ni + nf > 15) {
		return -1;
	}
	memcpy(out + o, ip, ni);
	o += ni;
	out[o++] = '.';
	if (nf == 0) {
		out[o++] = '0';
	} else {
		memcpy(out + o, fp, nf);
		o += nf;
	}
	*rc |= jsonfmt_put(b, out, o);
	return 0;
}

bool
jsonfmt_decimal(struct buf *b, const char *text, int *rc)
{
	double v;

	if (jsonfmt_plain(b, text, rc) == 0)
		return true;
	v = strtod(text, NULL);
	if (!isfinite(v))
		return false;
	*rc |= jsonfmt_real(b, v);
	return true;
}
