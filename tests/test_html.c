/* html: the waterfall's time axis (when a gap is cut out, and where times land), the
 * number formats and the escaping. The whole page is rendered by tests/share/html_render.py
 * in a browser. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/out/html_int.h"

#define S 1000
#define MIN (60 * S)
#define H (60 * MIN)

Test(html, axis_cuts_hours_between_two_bursts)
{
	/* two scale-outs of ~2 minutes, 5 hours apart */
	int64_t start[] = { 0, 1 * S, 2 * S, 5 * H, 5 * H + 3 * S };
	int64_t end[] = { 90 * S, 100 * S, 110 * S, 5 * H + 95 * S, 5 * H + 120 * S };
	struct html_axis a;

	html_axis_build(&a, start, end, 5, 100, 1000);
	cr_assert_eq(a.nseg, 2);
	cr_expect_eq(a.nskipped, 1);
	cr_expect_eq(a.skipped_ms, 5 * H - 110 * S);
	cr_expect_eq(a.seg[0].t0, 0);
	cr_expect_eq(a.seg[0].t1, 110 * S);
	cr_expect_eq(a.seg[1].t0, 5 * H);
	cr_expect_float_eq(html_axis_x(&a, 0), 100, 1e-9);
	cr_expect_float_eq(html_axis_x(&a, 5 * H + 120 * S), 1000, 1e-9);
	/* both bursts get room; a time in the cut lands where the next burst starts */
	cr_expect_gt(a.seg[0].x1 - a.seg[0].x0, 300);
	cr_expect_gt(a.seg[1].x1 - a.seg[1].x0, 300);
	cr_expect_float_eq(html_axis_x(&a, 2 * H), a.seg[1].x0, 1e-9);
	cr_expect_lt(html_axis_x(&a, 50 * S), html_axis_x(&a, 60 * S));
}

Test(html, axis_keeps_a_pause_inside_a_scale_out)
{
	/* tasks over 20 minutes with a 5-minute pause: one linear axis */
	int64_t start[] = { 0, 2 * MIN, 10 * MIN, 17 * MIN };
	int64_t end[] = { 2 * MIN, 5 * MIN, 12 * MIN, 20 * MIN };
	struct html_axis a;

	html_axis_build(&a, start, end, 4, 0, 1000);
	cr_assert_eq(a.nseg, 1);
	cr_expect_eq(a.nskipped, 0);
	cr_expect_float_eq(html_axis_x(&a, 10 * MIN), 500, 1e-9);
}

Test(html, axis_of_one_instant)
{
	int64_t t[] = { 5 * H };
	struct html_axis a;

	html_axis_build(&a, t, t, 1, 0, 1000);
	cr_assert_eq(a.nseg, 1);
	cr_expect_gt(a.seg[0].t1, a.seg[0].t0, "a zero-length axis would divide by zero");
}

Test(html, tick_steps)
{
	cr_expect_eq(html_nice_step_ms(100 * S, 8), 15 * S);
	cr_expect_eq(html_nice_step_ms(3 * H, 6), 30 * MIN);
	cr_expect_eq(html_nice_step_ms(500, 5), 100);
}

Test(html, seconds_for_a_reader)
{
	char v[64];

	html_fmt_secs(690, v, sizeof v);
	cr_expect_str_eq(v, "0.690 s");
	html_fmt_secs(72345, v, sizeof v);
	cr_expect_str_eq(v, "72.3 s");
	html_fmt_secs(252000, v, sizeof v);
	cr_expect_str_eq(v, "252.0 s");
	html_fmt_secs(19 * MIN + 5 * S, v, sizeof v);
	cr_expect_str_eq(v, "19 min 5 s");
	html_fmt_secs(5 * H + 19 * MIN + 59 * S, v, sizeof v);
	cr_expect_str_eq(v, "5 h 19 min");
	html_fmt_secs(TS_NONE, v, sizeof v);
	cr_expect_str_eq(v, "-");
}

Test(html, escaping)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cr_assert_not_null(f);
	html_esc(f, "<a href=\"x\">'&'</a>\x01");
	fclose(f);
	cr_expect_str_eq(out, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\xef\xbf\xbd");
	free(out);
}
