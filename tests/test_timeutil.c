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
