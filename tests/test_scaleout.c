/* scaleout: the burst of createdAt the TUI's shared axis and watch's status line count
 * from, not a task left from an earlier hour. */
#include <criterion/criterion.h>

#include "ecsprof/scaleout.h"

#define MIN (60 * 1000LL)

Test(scaleout, an_earlier_hour_is_not_the_scaleout)
{
	/* four tasks at 08:41, 26 from 14:02 in waves up to 73 s apart (examples/scaleout.json) */
	int64_t c[30];
	struct scaleout so;
	size_t n = 0;

	for (int i = 0; i < 4; i++)
		c[n++] = 1000 + i * 900;
	for (int i = 0; i < 26; i++)
		c[n++] = 5 * 60 * MIN + 20 * MIN + (int64_t)i * 7000 + (i > 15 ? 73000 : 0);
	cr_assert(scaleout_find(c, n, SCALEOUT_LARGEST, &so));
	cr_assert_eq(so.n, 26);
	cr_assert_eq(so.nbursts, 2);
	cr_assert_eq(so.first_ms, c[4]);
	cr_assert_eq(so.last_ms, c[29]);
	cr_assert(scaleout_find(c, n, SCALEOUT_LATEST, &so));
	cr_assert_eq(so.first_ms, c[4]);
}

Test(scaleout, latest_and_largest_differ_and_ties_take_the_later)
{
	/* 20 old tasks, then 3 new ones an hour later (unsorted) */
	int64_t c[24];
	struct scaleout so;

	for (int i = 0; i < 20; i++)
		c[i] = i * 1000;
	c[20] = 60 * MIN + 3000;
	c[21] = 60 * MIN;
	c[22] = TS_NONE;
	c[23] = 60 * MIN + 1000;
	cr_assert(scaleout_find(c, 24, SCALEOUT_LARGEST, &so));
	cr_assert_eq(so.n, 20);
	cr_assert_eq(so.first_ms, 0);
	cr_assert(scaleout_find(c, 24, SCALEOUT_LATEST, &so));
	cr_assert_eq(so.n, 3);
	cr_assert_eq(so.first_ms, 60 * MIN);
	cr_assert_eq(so.last_ms, 60 * MIN + 3000);
	int64_t t[4] = { 0, 1000, 60 * MIN, 60 * MIN + 1000 };
	cr_assert(scaleout_find(t, 4, SCALEOUT_LARGEST, &so));
	cr_assert_eq(so.first_ms, 60 * MIN, "a tie goes to the later burst");
}

Test(scaleout, a_gap_of_exactly_ten_minutes_keeps_one_burst)
{
	int64_t c[3] = { 0, SCALEOUT_GAP_MS, SCALEOUT_GAP_MS * 2 + 1 };
	struct scaleout so;

	cr_assert(scaleout_find(c, 3, SCALEOUT_LARGEST, &so));
	cr_assert_eq(so.n, 2);
	cr_assert_eq(so.first_ms, 0);
	int64_t none[2] = { TS_NONE, TS_NONE };
	cr_assert_not(scaleout_find(none, 2, SCALEOUT_LARGEST, &so));
	cr_assert_not(scaleout_find(NULL, 0, SCALEOUT_LATEST, &so));
}

Test(scaleout, span_of_the_burst_reaches_its_last_end_not_an_earlier_hour)
{
	/* examples/scaleout.json's shape: 4 tasks at 08:41 (one of them ran for hours), 26
	 * from 14:02, the last RUNNING 208.8 s after the first createdAt */
	int64_t c[30], e[30];
	struct scaleout_span sp;
	size_t n = 0;

	for (int i = 0; i < 4; i++, n++) {
		c[n] = 1000 + i * 900;
		e[n] = c[n] + (i == 0 ? 6 * 60 * MIN : 40000);
	}
	for (int i = 0; i < 26; i++, n++) {
		c[n] = 5 * 60 * MIN + 20 * MIN + (int64_t)i * 7000;
		e[n] = c[n] + 20000;
	}
	e[29] = c[4] + 208800;
	e[10] = TS_NONE;   /* created only: counts as its createdAt */
	cr_assert(scaleout_span_of(c, e, n, SCALEOUT_LARGEST, TS_NONE, &sp));
	cr_assert_eq(sp.from_ms, c[4]);
	cr_assert_eq(sp.to_ms, c[4] + 208800, "the span is %lld ms", (long long)(sp.to_ms - sp.from_ms));
	cr_assert_eq(sp.n, 26);
	cr_assert_eq(sp.outside, 4);
	cr_assert_eq(sp.nbursts, 2);
	/* the hours-long task from 08:41 does not stretch it, though it ends inside */
	cr_assert_lt(sp.to_ms - sp.from_ms, 4 * MIN);
}

Test(scaleout, span_from_a_deployment_start)
{
	int64_t c[4] = { 0, 60 * MIN, 60 * MIN + 5000, 61 * MIN };
	int64_t e[4] = { 90 * MIN, 60 * MIN + 30000, 60 * MIN + 9000, 61 * MIN + 2000 };
	struct scaleout_span sp;

	cr_assert(scaleout_span_of(c, e, 4, SCALEOUT_LARGEST, 60 * MIN + 1000, &sp));
	cr_assert_eq(sp.from_ms, 60 * MIN + 1000);
	cr_assert_eq(sp.to_ms, 61 * MIN + 2000);
	cr_assert_eq(sp.n, 2);
	cr_assert_eq(sp.outside, 2);
	cr_assert_not(scaleout_span_of(c, e, 4, SCALEOUT_LATEST, 2 * 60 * MIN, &sp),
		      "no task since then");
	/* one task created and nothing else: a window of 1 ms, never empty */
	int64_t one = 5000;
	cr_assert(scaleout_span_of(&one, NULL, 1, SCALEOUT_LATEST, TS_NONE, &sp));
	cr_assert_eq(sp.to_ms - sp.from_ms, 1);
	cr_assert_not(scaleout_span_of(NULL, NULL, 0, SCALEOUT_LATEST, TS_NONE, &sp));
}
