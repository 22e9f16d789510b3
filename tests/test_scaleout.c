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
