#include <criterion/criterion.h>
#include <time.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <string.h>

#include "ecsprof/timeutil.h"

struct iso_case {
	char text[48];
	long long ms;     /* expected; ignored when bad */
	int bad;
};

/* Expected values computed independently with: python3 -c 'import datetime; ...timestamp()' */
static struct iso_case iso_cases[] = {
	{ "1970-01-01T00:00:00Z", 0, 0 },
	{ "2024-05-01T10:00:03.123Z", 1714557603123LL, 0 },
	{ "2024-05-01T10:00:03.123456+00:00", 1714557603123LL, 0 },
	{ "2024-05-01T15:30:03.123+05:30", 1714557603123LL, 0 },
	{ "2024-05-01T03:00:03.1-07:00", 1714557603100LL, 0 },
	{ "2024-05-01 10:00:03Z", 1714557603000LL, 0 },
	{ "2024-05-01T10:00:03+0000", 1714557603000LL, 0 },
	{ "2024-02-29T00:00:00Z", 1709164800000LL, 0 },
	{ "2000-02-29T23:59:59.999Z", 951868799999LL, 0 },
	{ "1999-12-31T23:59:59Z", 946684799000LL, 0 },
	{ "2023-02-29T00:00:00Z", 0, 1 },     /* not a leap year */
	{ "2024-13-01T00:00:00Z", 0, 1 },
	{ "2024-05-01T10:00:03", 0, 1 },      /* no zone: ambiguous */
	{ "2024-05-01T10:00:03.Z", 0, 1 },
	{ "2024-05-01T10:00:03Zjunk", 0, 1 },
	{ "yesterday", 0, 1 },
	{ "", 0, 1 },
	{ "2024-05-01T25:00:00Z", 0, 1 },
	{ "2024-05-01T10:00:03+24:00", 0, 1 },
};

ParameterizedTestParameters(timeutil, parse_iso)
{
	return cr_make_param_array(struct iso_case, iso_cases, sizeof iso_cases / sizeof iso_cases[0]);
}

ParameterizedTest(struct iso_case *c, timeutil, parse_iso)
{
	int64_t ms = 42;
	int rc = timeutil_parse_iso8601(c->text, &ms);

	if (c->bad) {
		cr_expect_eq(rc, -1, "'%s' should be rejected", c->text);
	} else {
		cr_assert_eq(rc, 0, "'%s' should parse", c->text);
		cr_expect_eq(ms, c->ms, "'%s' -> %lld, want %lld", c->text, (long long)ms, c->ms);
	}
}

Test(timeutil, format_round_trip)
{
	char out[TIMEUTIL_ISO_LEN];
	int64_t back;
	/* every day over 400 years plus odd millisecond offsets */
	for (int64_t ms = -86400000LL * 365; ms < 86400000LL * 365 * 400; ms += 86400000LL * 7 + 12345) {
		timeutil_format_iso(ms < 0 ? 0 : ms, out);
		cr_assert_eq(timeutil_parse_iso8601(out, &back), 0, "%s", out);
		cr_assert_eq(back, ms < 0 ? 0 : ms, "%s", out);
	}
	timeutil_format_iso(1714557603123LL, out);
	cr_expect_str_eq(out, "2024-05-01T10:00:03.123Z");
	timeutil_format_iso(TS_NONE, out);
	cr_expect_str_eq(out, "");
}

Test(timeutil, epoch_seconds)
{
	int64_t ms;

	cr_assert_eq(timeutil_epoch_seconds_to_ms(1.557134011644E9, &ms), 0);
	cr_expect_eq(ms, 1557134011644LL);
	cr_assert_eq(timeutil_epoch_seconds_to_ms(1714557603.1229999, &ms), 0);
	cr_expect_eq(ms, 1714557603123LL);
	cr_expect_eq(timeutil_epoch_seconds_to_ms(HUGE_VAL, &ms), -1);
	cr_expect_eq(timeutil_epoch_seconds_to_ms(-1, &ms), -1);
	cr_expect_eq(timeutil_epoch_seconds_to_ms(1e12, &ms), -1);
}

Test(timeutil, secs_format)
{
	char out[32];

	timeutil_format_secs(84213, out, sizeof out);
	cr_expect_str_eq(out, "84.213");
	timeutil_format_secs(5, out, sizeof out);
	cr_expect_str_eq(out, "0.005");
	timeutil_format_secs(-1500, out, sizeof out);
	cr_expect_str_eq(out, "-1.500");
	timeutil_format_secs(TS_NONE, out, sizeof out);
	cr_expect_str_eq(out, "");
}

Test(timeutil, durations_and_since)
{
	int64_t ms;

	cr_assert_eq(timeutil_parse_duration("30m", &ms), 0);
	cr_expect_eq(ms, 1800000);
	cr_assert_eq(timeutil_parse_duration("1h30m", &ms), 0);
	cr_expect_eq(ms, 5400000);
	cr_assert_eq(timeutil_parse_duration("2d", &ms), 0);
	cr_expect_eq(ms, 172800000);
	cr_expect_eq(timeutil_parse_duration("30", &ms), -1);
	cr_expect_eq(timeutil_parse_duration("m", &ms), -1);
	cr_expect_eq(timeutil_parse_duration("99999999999999999999h", &ms), -1);
	cr_assert_eq(timeutil_parse_since("2h", 10000000, &ms), 0);
	cr_expect_eq(ms, 10000000 - 7200000);
	cr_assert_eq(timeutil_parse_since("2024-05-01T10:00:03Z", 0, &ms), 0);
	cr_expect_eq(ms, 1714557603000LL);
	cr_expect_eq(timeutil_parse_since("soon", 0, &ms), -1);
	/* a date is its midnight UTC; a time without a zone is UTC, as the table prints */
	cr_assert_eq(timeutil_parse_since("2026-11-30", 0, &ms), 0);
	cr_expect_eq(ms, 1795996800000LL);
	cr_assert_eq(timeutil_parse_since("2026-11-30T14:03:00", 0, &ms), 0);
	cr_expect_eq(ms, 1795996800000LL + (14 * 3600 + 3 * 60) * 1000LL);
	cr_assert_eq(timeutil_parse_since("2026-11-30 14:03", 0, &ms), 0);
	cr_expect_eq(ms, 1795996800000LL + (14 * 3600 + 3 * 60) * 1000LL);
	cr_expect_eq(timeutil_parse_since("2026-13-30", 0, &ms), -1);
	cr_expect_eq(timeutil_parse_since("2026-11-30T25:00", 0, &ms), -1);
}

Test(timeutil, abstime_in_is_normalised_and_ahead)
{
	for (int64_t ms = 0; ms <= 2999; ms += 37) {
		struct timespec before, at;

		clock_gettime(CLOCK_REALTIME, &before);
		timeutil_abstime_in(ms, &at);
		cr_assert(at.tv_nsec >= 0 && at.tv_nsec < 1000000000L, "%ld ns", at.tv_nsec);
		int64_t ahead = ((int64_t)at.tv_sec - before.tv_sec) * 1000 +
				(at.tv_nsec - before.tv_nsec) / 1000000;
		cr_assert(ahead >= ms && ahead <= ms + 50, "%lld ms for %lld",
			  (long long)ahead, (long long)ms);
	}
	struct timespec past;
	timeutil_abstime_in(-5, &past);   /* a deadline gone by waits not at all */
	cr_assert(past.tv_nsec < 1000000000L);
}

/* issue 30 item 10: the watch status line's "every 2s", not "every 2.000s" */
Test(timeutil, duration_as_a_person_says_it)
{
	static const struct { int64_t ms; const char *want; } cases[] = {
		{ 2000, "2s" }, { 500, "0.5s" }, { 1500, "1.5s" }, { 250, "0.25s" }, { 0, "0s" },
		{ 59999, "59.999s" }, { 60000, "1m" }, { 185000, "3m05s" }, { 600000, "10m" },
		{ 5400000, "1h30m" }, { 7200000, "2h" },
	};
	char out[32];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		timeutil_format_duration(cases[i].ms, out, sizeof out);
		cr_expect_str_eq(out, cases[i].want, "%lld ms", (long long)cases[i].ms);
	}
	timeutil_format_duration(-1, out, sizeof out);
	cr_expect_str_eq(out, "");
}

/* a small xorshift, so that a failure names a seed that repeats it */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* the fast path for "2024-05-01T10:00:47.746Z" (parse_usual) against the general reader:
 * times of 0..9999 written as ecsprof writes it (its calendar, timeutil_civil_from_days,
 * being the other way round), then texts of that shape with any
 * byte anywhere (digits, separators, NUL, non-ASCII), fields out of range included */
Test(timeutil, usual_shape_as_the_general_reader_reads_it)
{
	static const char bytes[] = "0123456789-:T t.,Zz+/a\x80\xff";
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	char text[TIMEUTIL_ISO_LEN];
	int64_t a, b;

	for (int i = 0; i < 2000000; i++) {
		/* half of them 1970..2100, where the days are counted without the divisions */
		int64_t ms = (int64_t)(next_rand(&seed) % (i % 2 ? 253402300800000ULL :
							   4102444800000ULL + 86400000));

		cr_assert_eq(timeutil_iso_ms(text, ms), 24, "%lld", (long long)ms);
		cr_assert_eq(timeutil_parse_iso8601n(text, 24, &a), 0, "%s", text);
		cr_assert_eq(timeutil_parse_iso8601_general(text, 24, &b), 0, "%s", text);
		cr_assert_eq(a, ms, "%s", text);
		cr_assert_eq(b, ms, "%s", text);
	}
	for (int i = 0; i < 3000000; i++) {
		static const char tmpl[] = "0000-00-00T00:00:00.000Z";
		uint64_t r = next_rand(&seed);
		int ra, rb;

		for (int k = 0; k < 24; k++) {
			uint64_t q = next_rand(&seed);

			if (tmpl[k] == '0')
				text[k] = (char)('0' + q % 10);
			else
				text[k] = tmpl[k];
			/* now and then a field near its bounds, or any byte */
			if (q % 64 == 0)
				text[k] = bytes[(q >> 8) % (sizeof bytes - 1)];
		}
		if (r % 4 == 0) {   /* a month, day, hour, minute or second near its bounds */
			static const int pos[] = { 5, 8, 11, 14, 17 };
			int at = pos[(r >> 2) % 5], v = (int)((r >> 8) % 100);

			text[at] = (char)('0' + v / 10);
			text[at + 1] = (char)('0' + v % 10);
		}
		text[24] = '\0';
		a = b = -7;
		ra = timeutil_parse_iso8601n(text, 24, &a);
		rb = timeutil_parse_iso8601_general(text, 24, &b);
		cr_assert_eq(ra, rb, "%d: %.24s", i, text);
		cr_assert_eq(a, b, "%d: %.24s", i, text);
		if (memchr(text, '\0', 24) == NULL) {
			a = -7;
			cr_assert_eq(timeutil_parse_iso8601(text, &a), rb, "%.24s", text);
			cr_assert_eq(a, b, "%.24s", text);
		}
	}
}

/* a text of n bytes reads as the C string of those bytes; a NUL among them is refused */
Test(timeutil, iso_text_of_n_bytes)
{
	static const char *texts[] = { "2024-05-01T10:00:03.123Z", "2024-05-01T10:00:03Z",
		"2024-05-01T10:00:03.123456+05:30", "2024-05-01 10:00:03.1-0700",
		"2024-02-30T10:00:03.123Z", "2024-05-01T10:00:03.123" };
	char text[64];
	int64_t a, b;

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		size_t n = strlen(texts[i]);
		int r = timeutil_parse_iso8601(texts[i], &a);

		memcpy(text, texts[i], n);
		text[n] = '9';   /* past the end: not read */
		cr_assert_eq(timeutil_parse_iso8601n(text, n, &b), r, "%s", texts[i]);
		if (r == 0)
			cr_assert_eq(a, b, "%s", texts[i]);
		/* shorter: what the C string of fewer bytes gives */
		for (size_t k = 0; k < n; k++) {
			char c[64];

			memcpy(c, texts[i], k);
			c[k] = '\0';
			cr_assert_eq(timeutil_parse_iso8601n(texts[i], k, &b), timeutil_parse_iso8601(c, &a),
				     "%s[:%zu]", texts[i], k);
		}
		text[n] = '\0';
		text[n / 2] = '\0';
		cr_assert_eq(timeutil_parse_iso8601n(text, n, &b), -1, "%s with a NUL", texts[i]);
	}
}

/* every day of 1970..2099 and around it (counted in fours of years there) back and forth
 * through Hinnant's days_from_civil, and each the day after the one before */
Test(timeutil, civil_days_both_ways)
{
	int64_t py = 0;
	unsigned pm = 0, pd = 0;

	for (int64_t z = -800; z < 48300; z++) {
		int64_t y;
		unsigned m, d;

		timeutil_civil_from_days(z, &y, &m, &d);
		cr_assert_eq(timeutil_days_from_civil(y, m, d), z, "%lld: %lld-%u-%u", (long long)z,
			     (long long)y, m, d);
		cr_assert(m >= 1 && m <= 12 && d >= 1 && d <= 31, "%lld", (long long)z);
		if (z > -800)
			cr_assert((y == py && m == pm && d == pd + 1) || (y == py && m == pm + 1 && d == 1) ||
				  (y == py + 1 && m == 1 && d == 1 && pm == 12 && pd == 31), "%lld",
				  (long long)z);
		py = y;
		pm = m;
		pd = d;
	}
}

/* timeutil_iso_ms_day (a row's times, the date worked out once a day) writes what
 * timeutil_iso_ms writes, across midnights, before 1970 and past 9999, in any order */
Test(timeutil, iso_of_a_day_as_iso_ms)
{
	static const int64_t ms[] = {
		1714557603123, 1714557603124, 1714521599999, 1714521600000, 1714607999999,
		1714608000000, TS_NONE, 1714557603123, 0, -1, -86400000, -86400001, 951782400000,
		951868799999, 253402300799999, 253402300800000, 1714557603123,
	};
	struct timeutil_day day = TIMEUTIL_DAY_INIT;

	for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
		char want[TIMEUTIL_ISO_LEN], got[TIMEUTIL_ISO_LEN];
		size_t nw = timeutil_iso_ms(want, ms[i]), ng = timeutil_iso_ms_day(got, ms[i], &day);

		cr_expect_str_eq(got, want, "%lld", (long long)ms[i]);
		cr_expect_eq(ng, nw, "%lld", (long long)ms[i]);
	}
	/* many times a day, before and after 1970 and 2000-02-29 */
	static const int64_t from[] = { -3 * 86400000LL, 951609600000, 1714521600000 };

	for (size_t k = 0; k < sizeof from / sizeof from[0]; k++)
		for (int64_t t = from[k]; t < from[k] + 6 * 86400000LL; t += 777777) {
			char want[TIMEUTIL_ISO_LEN], got[TIMEUTIL_ISO_LEN];

			timeutil_iso_ms(want, t);
			cr_assert_eq(timeutil_iso_ms_day(got, t, &day), strlen(want));
			cr_assert_str_eq(got, want, "%lld", (long long)t);
		}
}
