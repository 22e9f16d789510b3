/* numfmt: printf-identical digits without printf. Each fast path is checked against
 * snprintf over millions of values in tests/test_numfmt.c; whatever a fast path cannot
 * prove exact (huge values, years past 9999) goes to snprintf itself. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/numfmt.h"

/* two digits at a time: half the divisions of a digit loop */
static const char numfmt_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* decimal digits of v: compares, a division only every four digits */
static size_t
numfmt_ndigits(uint64_t v)
{
	size_t n = 1;

	for (;;) {
		if (v < 10)
			return n;
		if (v < 100)
			return n + 1;
		if (v < 1000)
			return n + 2;
		if (v < 10000)
			return n + 3;
		v /= 10000;
		n += 4;
	}
}

/* the digits written from the end straight into out, its length counted first: no copy
 * from a scratch buffer (a memcpy call of a varying length, issue 35: ~6 durations a task
 * row come here) */
size_t
numfmt_u64(char *out, uint64_t v)
{
	size_t n = numfmt_ndigits(v);
	char *p = out + n;

	*p = '\0';
	while (v >= 100) {
		unsigned k = (unsigned)(v % 100) * 2;

		v /= 100;
		*--p = numfmt_pairs[k + 1];
		*--p = numfmt_pairs[k];
	}
	if (v >= 10) {
		*--p = numfmt_pairs[v * 2 + 1];
		*--p = numfmt_pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
	return n;
}

/* |v| without the overflow of -INT64_MIN */
static uint64_t
numfmt_abs(int64_t v)
{
	return v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
}

size_t
numfmt_i64(char *out, int64_t v)
{
	if (v >= 0)
		return numfmt_u64(out, (uint64_t)v);
	out[0] = '-';
	return 1 + numfmt_u64(out + 1, numfmt_abs(v));
}

/* exactly `width` digits of v (v < 10^width), zero-padded */
static void
numfmt_pad(char *out, uint64_t v, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		out[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

/* the three digits of v < 1000 */
static void
numfmt_three(char *out, unsigned v)
{
	out[0] = (char)('0' + v / 100);
	out[1] = numfmt_pairs[v % 100 * 2];
	out[2] = numfmt_pairs[v % 100 * 2 + 1];
}

size_t
numfmt_ms_secs(char *out, int64_t ms)
{
	uint64_t a = numfmt_abs(ms);
	size_t n = 0;

	if (ms < 0)
		out[n++] = '-';
	n += numfmt_u64(out + n, a / 1000);
	out[n++] = '.';
	numfmt_three(out + n, (unsigned)(a % 1000));
	n += 3;
	out[n] = '\0';
	return n;
}

static const double numfmt_scale[10] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
static const uint64_t numfmt_iscale[10] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

static size_t
numfmt_fixed_slow(char *out, double v, int prec)
{
	int n = snprintf(out, NUMFMT_FIXED_LEN, "%.*f", prec, v);

	return n < 0 ? 0 : (size_t)n;
}

size_t
numfmt_fixed(char *out, double v, int prec)
{
	double a, p, e, f, h;
	uint64_t q, ip, fp;
	size_t n = 0;

	if (prec < 0 || prec > 9 || !isfinite(v))
		return numfmt_fixed_slow(out, v, prec);
	a = fabs(v);
	p = a * numfmt_scale[prec];
	/* below 2^52 every integer and half is a double, so floor and the halfway test are
	 * exact; above it, printf */
	if (!(p < 4503599627370496.0))
		return numfmt_fixed_slow(out, v, prec);
	/* the exact product a * 10^prec is p + e: fma gives the rounding error exactly */
	e = fma(a, numfmt_scale[prec], -p);
	f = floor(p);
	/* p - f is exact (f and p share a binade or f is 0); so is h when it is near 0,
	 * in [0.25, 1) by Sterbenz, which is the only place the comparison below is close */
	h = (p - f) - 0.5;
	q = (uint64_t)f;
	if (h > -e || (h == -e && (q & 1)))
		q++;   /* above the half, or exactly the half and odd: to even, as glibc */
	if (signbit(v))
		out[n++] = '-';
	ip = q / numfmt_iscale[prec];
	fp = q % numfmt_iscale[prec];
	n += numfmt_u64(out + n, ip);
	if (prec > 0) {
		out[n++] = '.';
		numfmt_pad(out + n, fp, prec);
		n += (size_t)prec;
	}
	out[n] = '\0';
	return n;
}

static void
numfmt_two(char *out, unsigned v)
{
	out[0] = numfmt_pairs[v * 2];
	out[1] = numfmt_pairs[v * 2 + 1];
}

size_t
numfmt_iso(char *out, int64_t y, unsigned m, unsigned d, unsigned secs, unsigned msr)
{
	if (y < 0 || y > 9999) {
		int n = snprintf(out, NUMFMT_ISO_LEN, "%04lld-%02u-%02uT%02u:%02u:%02u.%03uZ",
				 (long long)y, m, d, secs / 3600, secs / 60 % 60, secs % 60, msr);

		return n < 0 ? 0 : (size_t)n;
	}
	numfmt_two(out, (unsigned)(y / 100));
	numfmt_two(out + 2, (unsigned)(y % 100));
	out[4] = '-';
	numfmt_two(out + 5, m);
	out[7] = '-';
	numfmt_two(out + 8, d);
	out[10] = 'T';
	numfmt_two(out + 11, secs / 3600);
	out[13] = ':';
	numfmt_two(out + 14, secs / 60 % 60);
	out[16] = ':';
	numfmt_two(out + 17, secs % 60);
	out[19] = '.';
	numfmt_three(out + 20, msr);
	out[23] = 'Z';
	out[24] = '\0';
	return 24;
}
