/* numfmt against the C library over millions of values: snprintf for the digits, gmtime_r
 * and timeutil's parser for the dates. Deterministic (a fixed-seed xorshift), not timed. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ecsprof/numfmt.h"
#include "ecsprof/timeutil.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* a value with a random number of significant bits, so every digit count is hit */
static uint64_t
rng_bits(void)
{
	unsigned bits = (unsigned)(rng() % 65);

	return bits == 0 ? 0 : rng() >> (64 - bits);
}

#define N_INT 2000000
#define N_FIXED 3000000
#define N_ISO 2000000

static void
check_i64(int64_t v)
{
	char got[NUMFMT_INT_LEN], want[64];
	size_t n = numfmt_i64(got, v);

	snprintf(want, sizeof want, "%" PRId64, v);
	cr_assert_str_eq(got, want, "numfmt_i64(%" PRId64 ")", v);
	cr_assert_eq(n, strlen(want));
}

static void
check_u64(uint64_t v)
{
	char got[NUMFMT_INT_LEN], want[64];
	size_t n = numfmt_u64(got, v);

	snprintf(want, sizeof want, "%" PRIu64, v);
	cr_assert_str_eq(got, want, "numfmt_u64(%" PRIu64 ")", v);
	cr_assert_eq(n, strlen(want));
}

Test(numfmt, integers_as_printf)
{
	static const int64_t edges[] = { 0, 1, -1, 9, 10, 99, 100, 999, 1000, INT64_MAX,
					 INT64_MIN, INT64_MIN + 1, 4294967295LL, 4294967296LL };
	uint64_t p10 = 1;

	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		check_i64(edges[i]);
	check_u64(UINT64_MAX);
	for (int k = 0; k < 20; k++, p10 *= 10) {
		check_u64(p10);
		check_u64(p10 - 1);
		check_u64(p10 + 1);
	}
	for (int i = 0; i < N_INT; i++) {
		uint64_t u = rng_bits();

		check_u64(u);
		check_i64((int64_t)(rng() & 1 ? u : (uint64_t)0 - u));
	}
}

/* the conversion timeutil_format_secs made with snprintf before numfmt */
static void
check_secs(int64_t ms)
{
	char got[NUMFMT_INT_LEN], want[64], via[NUMFMT_INT_LEN];
	uint64_t a = ms < 0 ? (uint64_t)(-(ms + 1)) + 1 : (uint64_t)ms;

	snprintf(want, sizeof want, "%s%llu.%03llu", ms < 0 ? "-" : "",
		 (unsigned long long)(a / 1000), (unsigned long long)(a % 1000));
	numfmt_ms_secs(got, ms);
	cr_assert_str_eq(got, want, "numfmt_ms_secs(%" PRId64 ")", ms);
	timeutil_format_secs(ms, via, sizeof via);
	cr_assert_str_eq(via, want);
}

Test(numfmt, ms_secs_as_printf)
{
	static const int64_t edges[] = { 0, 1, -1, 999, -999, 1000, -1000, 1001, 9999500,
					 INT64_MAX, INT64_MIN + 1 };

	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		check_secs(edges[i]);
	for (int i = 0; i < N_INT; i++) {
		int64_t small = (int64_t)(rng() % 20000000) - 10000000;

		check_secs(small);
		check_secs((int64_t)rng_bits() * (rng() & 1 ? 1 : -1));
	}
}

Test(numfmt, ms_secs_cut_like_snprintf)
{
	char out[5];

	timeutil_format_secs(123456, out, sizeof out);
	cr_assert_str_eq(out, "123.");
	timeutil_format_secs(TS_NONE, out, sizeof out);
	cr_assert_str_eq(out, "");
}

static void
check_fixed(double v, int prec)
{
	char got[NUMFMT_FIXED_LEN], want[NUMFMT_FIXED_LEN];
	size_t n = numfmt_fixed(got, v, prec);

	snprintf(want, sizeof want, "%.*f", prec, v);
	cr_assert_str_eq(got, want, "numfmt_fixed(%.17g, %d)", v, prec);
	cr_assert_eq(n, strlen(want));
}

Test(numfmt, fixed_edges)
{
	/* the named edges: a decimal half that is below the half in binary, exact binary
	 * halves (to even), negative zero and negatives rounding to zero, non-numbers */
	static const double edges[] = { 9.9995, 0.0005, 1.0005, 2.675, 0.125, 0.375, 2.5, 3.5,
					0.5, 1.5, -0.0, 0.0, -0.0004, -0.0005, -9.9995, 1e-300,
					5e-324, 1e15, 4503599627370495.5, 9007199254740993.0,
					1.7976931348623157e308, -1e20, 0.1, 0.7, 123.456 };
	char out[NUMFMT_FIXED_LEN];

	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		for (int prec = 0; prec <= 9; prec++)
			check_fixed(edges[i], prec);
	check_fixed(NAN, 3);
	check_fixed(-NAN, 3);
	check_fixed(INFINITY, 3);
	check_fixed(-INFINITY, 6);
	numfmt_fixed(out, 9.9995, 3);
	cr_assert_str_eq(out, "9.999");   /* 9.99949999999999938893... in binary */
	numfmt_fixed(out, -0.0, 3);
	cr_assert_str_eq(out, "-0.000");
	numfmt_fixed(out, 0.125, 2);
	cr_assert_str_eq(out, "0.12");    /* an exact half: to even */
}

Test(numfmt, fixed_as_printf)
{
	for (int i = 0; i < N_FIXED; i++) {
		int prec = (int)(rng() % 10);
		double v;

		switch (i % 4) {
		case 0:   /* halves and near-halves at the printed precision */
			v = ((double)(rng() % 100000000) + 0.5) / pow(10, prec);
			if (rng() & 1)
				v = nextafter(v, rng() & 1 ? INFINITY : -INFINITY);
			break;
		case 1:   /* ms-rounded seconds and dollars, the values the writers print */
			v = (double)(int64_t)(rng() % 2000000000) / 1000.0;
			break;
		case 2: { /* any double of a moderate exponent */
			uint64_t bits = (rng() & 0x800fffffffffffffULL) |
					((uint64_t)(1023 - 40 + rng() % 100) << 52);

			memcpy(&v, &bits, sizeof v);
			break;
		}
		default:  /* any double at all, subnormals and huge ones included */
			{
				uint64_t bits = rng();

				memcpy(&v, &bits, sizeof v);
				if (!isfinite(v))
					v = 0.0;
				if (fabs(v) > 1e30)
					prec = 0;   /* printf's own path; keep the run short */
			}
			break;
		}
		if (rng() & 1)
			v = -v;
		check_fixed(v, prec);
	}
}

/* the date gmtime_r gives, the old snprintf layout, and the parse back */
static void
check_iso(int64_t ms)
{
	char got[TIMEUTIL_ISO_LEN], want[64];
	int64_t back;
	time_t secs = (time_t)(ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000));
	int msr = (int)(ms - (int64_t)secs * 1000);
	struct tm tm;

	cr_assert_not_null(gmtime_r(&secs, &tm));
	snprintf(want, sizeof want, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, msr);
	cr_assert_eq(timeutil_iso_ms(got, ms), strlen(want));
	cr_assert_str_eq(got, want, "timeutil_iso_ms(%" PRId64 ")", ms);
	cr_assert_eq(timeutil_parse_iso8601(got, &back), 0, "%s does not parse", got);
	cr_assert_eq(back, ms, "%s parses to %" PRId64 ", not %" PRId64, got, back, ms);
}

/* ms of a UTC civil time, independently of numfmt */
static int64_t
civil_ms(int y, unsigned m, unsigned d, int h, int mi, int s, int ms)
{
	return ((timeutil_days_from_civil(y, m, d) * 24 + h) * 60 + mi) * 60000LL + s * 1000LL + ms;
}

Test(numfmt, iso_edges)
{
	static const struct { int y; unsigned m, d; const char *next; } days[] = {
		{ 2100, 2, 28, "2100-03-01T00:00:00.000Z" },   /* 2100 is not a leap year */
		{ 2000, 2, 28, "2000-02-29T00:00:00.000Z" },   /* 2000 is */
		{ 2024, 2, 28, "2024-02-29T00:00:00.000Z" },
		{ 1900, 2, 28, "1900-03-01T00:00:00.000Z" },
		{ 2023, 12, 31, "2024-01-01T00:00:00.000Z" },
		{ 9999, 12, 30, "9999-12-31T00:00:00.000Z" },
		{ 1969, 12, 31, "1970-01-01T00:00:00.000Z" },
	};
	char out[TIMEUTIL_ISO_LEN];

	for (size_t i = 0; i < sizeof days / sizeof days[0]; i++) {
		int64_t last = civil_ms(days[i].y, days[i].m, days[i].d, 23, 59, 59, 999);

		check_iso(last);
		timeutil_iso_ms(out, last + 1);
		cr_assert_str_eq(out, days[i].next);
		check_iso(last + 1);
	}
	check_iso(0);
	check_iso(-1);
	check_iso(civil_ms(0, 1, 1, 0, 0, 0, 0));
	check_iso(civil_ms(9999, 12, 31, 23, 59, 59, 999));
	cr_assert_eq(timeutil_iso_ms(out, TS_NONE), 0);
	cr_assert_str_eq(out, "");
	timeutil_format_iso(civil_ms(2100, 2, 28, 12, 0, 0, 5), out);
	cr_assert_str_eq(out, "2100-02-28T12:00:00.005Z");
	/* outside 0..9999 the printf layout is kept, whatever it looks like */
	timeutil_iso_ms(out, civil_ms(10000, 1, 1, 0, 0, 0, 0));
	cr_assert_str_eq(out, "10000-01-01T00:00:00.000Z");
}

Test(numfmt, iso_as_gmtime_and_parser)
{
	int64_t lo = civil_ms(0, 1, 1, 0, 0, 0, 0), hi = civil_ms(9999, 12, 31, 23, 59, 59, 999);
	int64_t feb29 = civil_ms(2024, 2, 29, 0, 0, 0, 0);

	for (int i = 0; i < N_ISO; i++) {
		int64_t ms;

		switch (i % 3) {
		case 0:   /* anywhere in years 0..9999 */
			ms = lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
			break;
		case 1:   /* the years ECS tasks live in */
			ms = civil_ms(2015, 1, 1, 0, 0, 0, 0) +
			     (int64_t)(rng() % (uint64_t)(86400000LL * 366 * 100));
			break;
		default:  /* within a day of a leap day or a year end */
			ms = (rng() & 1 ? feb29 : civil_ms(2100, 1, 1, 0, 0, 0, 0)) +
			     (int64_t)(rng() % (2 * 86400000ULL)) - 86400000LL;
			break;
		}
		check_iso(ms);
	}
}
