/* taskscan_time: a task's time as ECS or a recording writes it, read by taskscan
 * (taskscan_time.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ecsprof/jsonscan.h"
#include "ecsprof/timeutil.h"
#include "taskscan_time.h"

/* The value of the 8 digits at p, or -1 when they are not 8 digits: in a few
 * multiplications rather than a loop (an epoch time has 10 digits before its point, 5
 * times a task). */
static inline int64_t
eight_digits(const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t highs = 0xF0F0F0F0F0F0F0F0ULL, zeros = 0x3030303030303030ULL;
	uint64_t x;

	memcpy(&x, p, 8);
	/* each byte 0x30..0x3f, and then (no carry between bytes) at most 0x39 */
	if ((x & highs) != zeros || ((x + 0x0606060606060606ULL) & highs) != zeros)
		return -1;
	x -= zeros;
	x = x * 10 + (x >> 8);   /* pairs of digits in bytes 0, 2, 4 and 6 */
	x = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
	     (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
	return (int64_t)x;
#else
	(void)p;
	return -1;
#endif
}

static inline bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Epoch seconds as ECS writes them, D or D.F (F of 1 to 3 digits, D of at most 12 without a
 * leading zero, before 9999-12-31T23:59:59), straight to milliseconds: D * 1000 + F. It is
 * what jsonscan_number and timeutil_epoch_seconds_to_ms give (D.F is read as the double
 * nearest to it, whose product by 1000 is within 0.05 of the integer, which llround
 * finds) without reading the digits twice; 5 times a task, it was 4% of a live run's
 * instructions. false, sc not moved: any other number, for jsonscan_number. */
static bool
fast_epoch(struct jsonscan *sc, int64_t *out)
{
	const char *p = sc->p, *end = sc->end;
	int64_t d = 0, f = 0;
	int nd = 0, nf = 0;

	if (p >= end || *p < '1' || *p > '9')
		return false;
	/* ECS's own shape first, 10 digits, '.' and 1 to 3 digits (with 16 bytes to read, the
	 * end of the text is not near), without the loops' tests of each byte: 166 -> 123
	 * instructions a time. Any other shape, or one with more after it, goes on to the
	 * loops below, which decide. */
	if (end - p >= 16 && (d = eight_digits(p)) >= 0 && is_digit(p[8]) && is_digit(p[9]) &&
	    p[10] == '.' && is_digit(p[11])) {
		const char *q = p + 12;

		d = d * 100 + (p[8] - '0') * 10 + (p[9] - '0');
		f = p[11] - '0';
		for (nf = 1; nf < 3 && is_digit(*q); nf++, q++)
			f = f * 10 + (*q - '0');
		if (!is_digit(*q) && *q != '.' && *q != 'e' && *q != 'E') {
			for (; nf < 3; nf++)
				f *= 10;
			*out = d * 1000 + f;
			sc->p = q;
			return true;
		}
		f = 0;
		nf = 0;
	}
	/* what the loop below reads of 8 digits, at once */
	if (end - p >= 8 && (d = eight_digits(p)) >= 0) {
		p += 8;
		nd = 8;
	} else {
		d = 0;
	}
	for (; p < end && *p >= '0' && *p <= '9' && nd <= 12; p++, nd++)
		d = d * 10 + (*p - '0');
	if (nd > 12 || d >= 253402300799)
		return false;
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9' && nf <= 3; p++, nf++)
			f = f * 10 + (*p - '0');
		if (nf == 0 || nf > 3)
			return false;
	}
	/* where jsonscan_number would read on (an exponent) or refuse: its answer */
	if (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E'))
		return false;
	for (; nf < 3; nf++)
		f *= 10;
	*out = d * 1000 + f;
	sc->p = p;
	return true;
}

int
taskscan_time(struct jsonscan *sc, int64_t *out)
{
	struct jsonscan_str v;
	bool is_int;
	int64_t iv;
	double secs;

	if (jsonscan_at(sc, 'n'))
		return jsonscan_word(sc, "null", 4);
	if (jsonscan_at(sc, '"')) {
		/* parsed in place (a NUL among the bytes fails it); a string of 64 bytes or
		 * more is left to the jansson path, as when it was copied into a buffer */
		if (jsonscan_string(sc, true, &v) != 0 || v.n >= TASKSCAN_ISO_MAX)
			return -1;
		/* before 1970 is no ECS time: the jansson path words the warning */
		if (timeutil_parse_iso8601n(v.s, v.n, &iv) != 0 || iv < 0)
			return -1;
		*out = iv;
		return 0;
	}
	if (fast_epoch(sc, out))
		return 0;
	if (jsonscan_number(sc, &is_int, &iv, &secs) != 0)
		return -1;
	if (is_int)
		secs = (double)iv;
	return timeutil_epoch_seconds_to_ms(secs, out) == 0 ? 0 : -1;
}

