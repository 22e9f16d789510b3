/* hex: see ecsprof/hex.h. */
#include "ecsprof/hex.h"

static const char hex_digits[] = "0123456789abcdef";

/* a lowercase hex digit's value + 1, 0 for any other byte: 64 digits of a digest read
 * without a branch each (a comparison chain took ~1,000 instructions a digest) */
static const unsigned char hex_lower1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16,
};

void
hex_encode(const void *bytes, size_t n, char *out)
{
	const unsigned char *v = bytes;

	for (size_t i = 0; i < n; i++) {
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

	for (size_t i = 0; i < n; i++) {
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
