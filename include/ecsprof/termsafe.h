/* termsafe: what may reach a terminal. Text from servers and input files can carry ESC
 * sequences, BEL, C1 controls and bidi overrides that retitle, recolour or reorder what the
 * user reads; these functions find and neutralise them where text leaves ecsprof.
 * Ownership: functions work in place or write to a caller's stream; nothing is kept. */
#ifndef ECSPROF_TERMSAFE_H
#define ECSPROF_TERMSAFE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The one answer to "is this code point unsafe in text shared with others" (a terminal, a
 * CSV, an HTML page, a workbook): a C0 control other than tab, line feed and carriage
 * return, DEL, a C1 control, a bidi control that can reorder what is read (U+061C,
 * U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) or a noncharacter (U+FDD0-U+FDEF and
 * the last two of every plane, U+FFFE and U+FFFF among them, which XML 1.0 refuses). */
bool termsafe_cp_unsafe(uint32_t cp);
/* Bytes of the sequence at p that must not reach shared text: an unsafe code point
 * (termsafe_cp_unsafe) or a byte that is not valid UTF-8 (1); 0 when it is harmless.
 * p must be NUL-terminated. */
size_t termsafe_shared_bad_len(const char *p);

/* Bytes of the sequence at p that must not reach a terminal raw: a C0 control (unless
 * it is in keep, e.g. "\n\t"), or what termsafe_shared_bad_len refuses. 0 when the
 * sequence at p is harmless; never more than 4. p must be NUL-terminated. */
size_t termsafe_bad_len(const char *p, const char *keep);
/* Replaces each such sequence in s by '?', in place (s never grows). */
void termsafe_scrub(char *s, const char *keep);
/* Writes JSON text (as jansson dumps it: raw UTF-8 in strings) with the unsafe code points
 * (termsafe_cp_unsafe) written as \uXXXX escapes (a surrogate pair above U+FFFF), which
 * decode to the same string. Returns 0 or -1. */
int termsafe_put_json(FILE *f, const char *json);

/* 8 bytes of text at once (loaded with memcpy, in any byte order): true when each is
 * printable ASCII, 0x20-0x7e (no control, no DEL, no byte of a UTF-8 sequence: nothing
 * the functions above need look at), and neither a nor b, the two a writer escapes (CSV
 * ',' and '"', JSON '"' and '\\'). The writers copy such runs as they are, 8 bytes a step.
 * Each test is exact about whether some byte matches (a borrow or carry between bytes only
 * follows a byte that matched), which is all that is asked. Inline: it is the inner loop
 * of the CSV and JSON writers, called with constant a and b. */
static inline bool
termsafe_ascii8(uint64_t x, unsigned char a, unsigned char b)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t ctl = (x - ones * 0x20) & ~x;           /* some byte < 0x20 */
	uint64_t del = (x + ones) | x;                   /* some byte >= 0x7f */
	uint64_t xa = x ^ (ones * a), xb = x ^ (ones * b);

	xa = (xa - ones) & ~xa;                          /* some byte == a */
	xb = (xb - ones) & ~xb;                          /* some byte == b */
	return ((ctl | del | xa | xb) & highs) == 0;
}

/* termsafe_ascii8 of the 16 bytes at p, in one SSE2 step where there is one (x86-64
 * always): half the work a byte of the long texts of a task line (ARNs, digests,
 * images; issue 35). A byte 0x80-0xff is below 0x20 as a signed char. */
static inline bool
termsafe_ascii16(const unsigned char *p, unsigned char a, unsigned char b)
{
#ifdef __SSE2__
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i bad = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
				   _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));

	bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)a)),
					     _mm_cmpeq_epi8(x, _mm_set1_epi8((char)b))));
	return _mm_movemask_epi8(bad) == 0;
#else
	uint64_t x, y;

	memcpy(&x, p, 8);
	memcpy(&y, p + 8, 8);
	return termsafe_ascii8(x, a, b) && termsafe_ascii8(y, a, b);
#endif
}

/* Copies the plain run at *p (printable ASCII other than a and b: termsafe_ascii16 and
 * termsafe_ascii8) to *o, 16 and then 8 bytes a step; true when it reached end. With 1-7
 * bytes left, and a text (from start) of 8 bytes or more, it looks at the 8 that end the
 * text and, when those are all plain, writes them as they are, 8 - (end - *p) bytes back:
 * none of them was escaped, so the ones before *p were copied as they are, at the same
 * distance, and are written again unchanged (issue 35: the byte loop was a large part of
 * a cell's cost). Else *p stops where the writer's own loop takes over. The one plain-run
 * copy of the CSV and JSON writers; *o needs room for end - *p bytes. */
static inline bool
termsafe_copy_plain(char **o, const unsigned char **p, const unsigned char *start,
		    const unsigned char *end, unsigned char a, unsigned char b)
{
	char *w = *o;
	const unsigned char *r = *p;
	uint64_t x;

	while (end - r >= 16 && termsafe_ascii16(r, a, b)) {
		memcpy(w, r, 16);
		w += 16;
		r += 16;
	}
	while (end - r >= 8) {
		memcpy(&x, r, 8);
		if (!termsafe_ascii8(x, a, b))
			break;
		memcpy(w, &x, 8);
		w += 8;
		r += 8;
	}
	if (r < end && end - r < 8 && end - start >= 8) {
		memcpy(&x, end - 8, 8);
		if (termsafe_ascii8(x, a, b)) {
			memcpy(w - (8 - (end - r)), &x, 8);
			w += end - r;
			r = end;
		}
	}
	*o = w;
	*p = r;
	return r == end;
}

#endif
