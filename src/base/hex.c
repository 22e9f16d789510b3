/* hex: see ecsprof/hex.h. */
#include "ecsprof/hex.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char hex_digits[] = "0123456789abcdef";

/* a lowercase hex digit's value + 1, 0 for any other byte: 64 digits of a digest read
 * without a branch each (a comparison chain took ~1,000 instructions a digest) */
static const unsigned char hex_lower1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16,
};

#ifdef __SSE2__
/* 16 bytes into 32 digits at out: a live run writes every task's image digest (~120
 * instructions a digest by the table, ~40 here) */
static void
encode16(const unsigned char *v, char *out)
{
	const __m128i low = _mm_set1_epi8(15), nine = _mm_set1_epi8(9);
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)v);
	__m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), low), lo = _mm_and_si128(x, low);
	__m128i a = _mm_unpacklo_epi8(hi, lo), b = _mm_unpackhi_epi8(hi, lo);

	/* '0' + d, and 'a' - '0' - 10 more past 9 */
	a = _mm_add_epi8(_mm_add_epi8(a, _mm_set1_epi8('0')),
			 _mm_and_si128(_mm_cmpgt_epi8(a, nine), _mm_set1_epi8('a' - '0' - 10)));
	b = _mm_add_epi8(_mm_add_epi8(b, _mm_set1_epi8('0')),
			 _mm_and_si128(_mm_cmpgt_epi8(b, nine), _mm_set1_epi8('a' - '0' - 10)));
	_mm_storeu_si128((__m128i *)(void *)out, a);
	_mm_storeu_si128((__m128i *)(void *)(out + 16), b);
}

/* The values of the 16 digits at p, one a byte, in *v; false if any is not one of 0-9a-f.
 * Signed compares: a byte from 0x80 up is negative, below both ranges. */
static bool
values16(const unsigned char *p, __m128i *v)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
				      _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
	__m128i alpha = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('a' - 1)),
				      _mm_cmplt_epi8(x, _mm_set1_epi8('f' + 1)));

	/* '0'-'9' are 0x30-0x39, 'a'-'f' 0x61-0x66: the low four bits, 9 more for a letter */
	*v = _mm_add_epi8(_mm_and_si128(x, _mm_set1_epi8(15)),
			  _mm_and_si128(alpha, _mm_set1_epi8(9)));
	return _mm_movemask_epi8(_mm_or_si128(digit, alpha)) == 0xffff;
}

/* Two digits' values (bytes 2i and 2i + 1 of v) into byte i of 8: the first the high
 * four bits. */
static __m128i
pairs8(__m128i v)
{
	return _mm_or_si128(_mm_and_si128(_mm_slli_epi16(v, 4), _mm_set1_epi16(0xf0)),
			    _mm_srli_epi16(v, 8));
}
#endif

void
hex_encode(const void *bytes, size_t n, char *out)
{
	const unsigned char *v = bytes;
	size_t i = 0;

#ifdef __SSE2__
	for (; i + 16 <= n; i += 16)
		encode16(v + i, out + 2 * i);
#endif
	for (; i < n; i++) {
		out[2 * i] = hex_digits[v[i] >> 4];
		out[2 * i + 1] = hex_digits[v[i] & 15];
	}
}

bool
hex_decode_lower(const char *digits, size_t n, void *out)
{
	const unsigned char *h = (const unsigned char *)digits;
	unsigned char *o = out;
	unsigned bad = 0;
	size_t i = 0;

#ifdef __SSE2__
	/* 32 digits a step: a digest in ~90 instructions, against ~550 by the table (every
	 * container of every task read has one) */
	for (; i + 16 <= n; i += 16) {
		__m128i a, b;

		if (!values16(h + 2 * i, &a) || !values16(h + 2 * i + 16, &b))
			return false;
		_mm_storeu_si128((__m128i *)(void *)(o + i), _mm_packus_epi16(pairs8(a), pairs8(b)));
	}
#endif
	for (; i < n; i++) {
		unsigned hi = hex_lower1[h[2 * i]] - 1u, lo = hex_lower1[h[2 * i + 1]] - 1u;

		bad |= hi | lo;   /* past 15: not a digit (0 - 1 wraps) */
		o[i] = (unsigned char)(hi << 4 | (lo & 15));
	}
	return bad <= 15;
}

int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
