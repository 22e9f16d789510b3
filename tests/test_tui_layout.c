/* Unit tests for tui_layout: columns, durations, bars, histograms, text fitting. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ecsprof/timeutil.h"
#include "ecsprof/tui_layout.h"

static int
used_width(const struct tui_columns *c)
{
	int end = 0;
	for (int i = 0; i < TUI_COL_COUNT; i++)
		if (c->w[i] > 0 && c->x[i] + c->w[i] > end)
			end = c->x[i] + c->w[i];
	return end;
}

Test(tui_layout, columns_80_fill_the_line_and_keep_everything)
{
	struct tui_columns c;

	tui_layout_columns(80, &c);
	cr_expect_eq(used_width(&c), 80);
	for (int i = 0; i < TUI_COL_COUNT; i++)
		if (i != TUI_COL_GROUP && i != TUI_COL_LAUNCH && i != TUI_COL_SOCI)   /* wide only */
			cr_expect_geq(c.w[i], tui_cols[i].min_w, "column %s", tui_cols[i].title);
	cr_expect_eq(c.w[TUI_COL_GROUP], 0);
	cr_expect_eq(c.w[TUI_COL_ID], 8);
	cr_expect_geq(c.w[TUI_COL_TASKDEF], 12, "name:revision is readable at 80 columns");
	cr_expect_geq(c.w[TUI_COL_BAR], 14);
	/* columns do not overlap and keep their order */
	for (int i = 1; i < TUI_COL_COUNT; i++)
		if (c.w[i - 1] > 0)
			cr_expect_eq(c.x[i], c.x[i - 1] + c.w[i - 1] + 1);
}

Test(tui_layout, columns_60_drop_az_and_taskdef_first)
{
	struct tui_columns c;

	tui_layout_columns(60, &c);
	cr_expect_eq(c.w[TUI_COL_AZ], 0);
	cr_expect_eq(c.w[TUI_COL_TASKDEF], 0);
	cr_expect_gt(c.w[TUI_COL_STATUS], 0);
	cr_expect_gt(c.w[TUI_COL_TOTAL], 0);
	cr_expect_geq(c.w[TUI_COL_BAR], 10);
	cr_expect_leq(used_width(&c), 60);
}

Test(tui_layout, columns_wide_give_the_rest_to_the_bar)
{
	struct tui_columns c;

	tui_layout_columns(200, &c);
	cr_expect_eq(c.w[TUI_COL_TASKDEF], 24);
	cr_expect_eq(c.w[TUI_COL_STATUS], 12, "PROVISIONING fits on a wide terminal");
	cr_expect_eq(c.w[TUI_COL_AZ], 10);
	cr_expect_eq(used_width(&c), 200);
	cr_expect_gt(c.w[TUI_COL_BAR], 60);   /* after LAUNCH, SOCI and GROUP */
}

Test(tui_layout, columns_tiny_terminal_never_overflows)
{
	struct tui_columns c;

	for (int w = 1; w < 80; w++) {
		tui_layout_columns(w, &c);
		cr_expect_leq(used_width(&c), w > 8 ? w : 8, "width %d", w);
		cr_expect_eq(c.w[TUI_COL_ID], 8);
	}
}

Test(tui_layout, duration_most_precise_that_fits)
{
	char b[16];

	tui_format_duration(123, 6, b, sizeof b);
	cr_expect_str_eq(b, "0.123s");
	tui_format_duration(12345, 6, b, sizeof b);
	cr_expect_str_eq(b, "12.35s");
	tui_format_duration(123456, 6, b, sizeof b);
	cr_expect_str_eq(b, "123.5s");
	tui_format_duration(1234567, 6, b, sizeof b);
	cr_expect_str_eq(b, "1235s");
	tui_format_duration(12345, 8, b, sizeof b);
	cr_expect_str_eq(b, "12.345s");
	tui_format_duration(0, 6, b, sizeof b);
	cr_expect_str_eq(b, "0.000s");
	tui_format_duration(2 * 3600000 + 5 * 60000 + 1000, 6, b, sizeof b);
	cr_expect_str_eq(b, "2h05m");
	tui_format_duration(3 * 86400000LL + 4 * 3600000, 6, b, sizeof b);
	cr_expect_str_eq(b, "3d04h");
	tui_format_duration(754000, 5, b, sizeof b);
	cr_expect_str_eq(b, "754s");
	tui_format_duration(1234567, 4, b, sizeof b);
	cr_expect_str_eq(b, "20m");
}

/* issue 11 item 8: a column of durations has its decimal points one under another, and the
 * TUI shows the number the table shows (7.15 s is 7.2 in both, not 7.1 from binary). */
Test(tui_layout, column_secs_line_up_and_round_as_the_table)
{
	static const int64_t v[] = { 4385, 14660, 112700, 7150, 999949 };
	static const char *const want[] = { "4.4s", "14.7s", "112.7s", "7.2s", "999.9s" };
	char b[16];

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		int n = tui_format_column_secs(v[i], 6, b, sizeof b);

		cr_expect_str_eq(b, want[i]);
		cr_expect_eq(b[n - 3], '.', "%s: the point is 2 from the right", b);
	}
	tui_format_column_secs(1234567, 6, b, sizeof b);
	cr_expect_str_eq(b, "1235s");
	cr_expect_eq(tui_format_column_secs(TS_NONE, 6, b, sizeof b), 0);
}

/* issue 11 item 8: a wide terminal shows more than a longer bar: the group */
Test(tui_layout, wide_terminal_adds_the_group_column)
{
	struct tui_columns c;

	tui_layout_columns(200, &c);
	cr_expect_geq(c.w[TUI_COL_GROUP], 12);
	cr_expect_eq(c.w[TUI_COL_TASKDEF], 24);
	cr_expect_gt(c.x[TUI_COL_GROUP], c.x[TUI_COL_AZ]);
	cr_expect_lt(c.x[TUI_COL_GROUP], c.x[TUI_COL_PROVISION]);
	tui_layout_columns(120, &c);
	cr_expect_eq(c.w[TUI_COL_GROUP], 0, "below %d columns the bar is worth more", TUI_WIDE_COLS);
}

/* ... and the table's LAUNCH and SOCI (--format table shows them from 100 columns); the
 * GROUP only when there are groups: "all" on every row is worth less than the bar */
Test(tui_layout, wide_terminal_adds_launch_and_soci_and_the_group_only_when_grouped)
{
	struct tui_columns c, u;

	tui_layout_columns_for(200, true, &c);
	cr_expect_eq(c.w[TUI_COL_LAUNCH], 8);
	cr_expect_eq(c.w[TUI_COL_SOCI], 7);
	cr_expect_eq(c.x[TUI_COL_LAUNCH], c.x[TUI_COL_AZ] + c.w[TUI_COL_AZ] + 1);
	cr_expect_eq(c.x[TUI_COL_SOCI], c.x[TUI_COL_LAUNCH] + 9);
	cr_expect_eq(c.x[TUI_COL_GROUP], c.x[TUI_COL_SOCI] + 8);
	tui_layout_columns_for(200, false, &u);
	cr_expect_eq(u.w[TUI_COL_GROUP], 0);
	cr_expect_eq(u.w[TUI_COL_LAUNCH], 8);
	cr_expect_eq(u.w[TUI_COL_BAR], c.w[TUI_COL_BAR] + c.w[TUI_COL_GROUP] + 1,
		     "the group's room goes to the bar");
	cr_expect_eq(used_width(&u), 200);
	tui_layout_columns_for(139, true, &c);
	cr_expect_eq(c.w[TUI_COL_LAUNCH] + c.w[TUI_COL_SOCI] + c.w[TUI_COL_GROUP], 0);
}

Test(tui_layout, duration_missing_or_negative_is_empty)
{
	char b[16] = "x";

	cr_expect_eq(tui_format_duration(TS_NONE, 6, b, sizeof b), 0);
	cr_expect_str_eq(b, "");
	b[0] = 'x';
	b[1] = '\0';
	cr_expect_eq(tui_format_duration(-5, 6, b, sizeof b), 0);
	cr_expect_str_eq(b, "");
}

Test(tui_layout, duration_never_wider_than_asked)
{
	char b[16];
	static const int64_t v[] = { 1, 999, 59999, 60000, 599999, 3599999, 3600000, 86399999,
				     86400000, 999LL * 86400000 };

	for (int w = 1; w <= 8; w++)
		for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
			int n = tui_format_duration(v[i], w, b, sizeof b);
			cr_expect_leq(n, w, "%lld at width %d gave %s", (long long)v[i], w, b);
			cr_expect_eq((int)strlen(b), n);
		}
}

Test(tui_layout, fit_truncates_with_ellipsis)
{
	char b[64];

	cr_expect_eq(tui_fit("web-frontend:42", 8, false, "~", b, sizeof b), 8);
	cr_expect_str_eq(b, "web-fro~");
	tui_fit("us-east-1a", 6, true, "\u2026", b, sizeof b);
	cr_expect_str_eq(b, "\u2026st-1a");
	cr_expect_eq(tui_text_width(b), 6);
	tui_fit("short", 8, false, "~", b, sizeof b);
	cr_expect_str_eq(b, "short");
	tui_fit("abcdef", 0, false, "~", b, sizeof b);
	cr_expect_str_eq(b, "");
	/* multibyte text is cut on a code point boundary */
	tui_fit("\u00e9\u00e9\u00e9\u00e9", 3, false, "~", b, sizeof b);
	cr_expect_str_eq(b, "\u00e9\u00e9~");
}

/* item 5 of issue 10: every string the TUI draws goes through tui_fit, which turns ESC,
 * BEL, C1 and bidi controls into one '?' each and measures what is left */
Test(tui_layout, fit_neutralises_terminal_controls)
{
	char b[64];

	cr_expect_eq(tui_fit("\x1b]0;x\x07\x1b[31mr\u202e" "e\u2066" "d\xc2\x9b", 40, false, "~", b,
			     sizeof b), 17);
	cr_expect_str_eq(b, "?]0;x??[31mr?e?d?");
	cr_expect_eq(tui_fit("ab\u202ecdef", 4, false, "~", b, sizeof b), 4);
	cr_expect_str_eq(b, "ab?~");
}

static int
count_kind(const struct tui_bar_cell *c, int w, int kind)
{
	int n = 0;
	for (int i = 0; i < w; i++)
		if (c[i].kind == kind && c[i].eighths > 0)
			n++;
	return n;
}

Test(tui_layout, bar_aligned_three_phases_in_proportion)
{
	/* 10 s provision, 20 s pull, 10 s start over 40 s in 40 cells: 10/20/10 cells */
	struct tui_seg s[3] = {
		{ TUI_SEG_PROVISION, 0, 10000 },
		{ TUI_SEG_PULL, 10000, 30000 },
		{ TUI_SEG_START, 30000, 40000 },
	};
	struct tui_bar_cell c[40];

	tui_bar_cells(s, 3, 0, 40000, 40, true, c);
	cr_expect_eq(count_kind(c, 40, TUI_SEG_PROVISION), 10);
	cr_expect_eq(count_kind(c, 40, TUI_SEG_PULL), 20);
	cr_expect_eq(count_kind(c, 40, TUI_SEG_START), 10);
	cr_expect_eq(c[0].kind, TUI_SEG_PROVISION);
	cr_expect_eq(c[39].kind, TUI_SEG_START);
	cr_expect_eq(c[39].eighths, 8);
}

Test(tui_layout, bar_trailing_fraction_in_eighths)
{
	/* 10.5 cells long: ten full cells and half a cell */
	struct tui_seg s[1] = { { TUI_SEG_PULL, 0, 10500 } };
	struct tui_bar_cell c[20];

	tui_bar_cells(s, 1, 0, 20000, 20, true, c);
	cr_expect_eq(c[9].eighths, 8);
	cr_expect_eq(c[10].eighths, 4);
	cr_expect_eq(c[10].kind, TUI_SEG_PULL);
	cr_expect_eq(c[11].eighths, 0);
	/* without eighths, a half cell rounds up to a whole one and a quarter to none */
	tui_bar_cells(s, 1, 0, 20000, 20, false, c);
	cr_expect_eq(c[10].eighths, 8);
	s[0].to_ms = 10250;
	tui_bar_cells(s, 1, 0, 20000, 20, false, c);
	cr_expect_eq(c[10].eighths, 0);
	cr_expect_eq(c[10].kind, TUI_SEG_NONE);
}

Test(tui_layout, bar_shared_axis_staircase)
{
	/* on a shared axis from t = 100 s, a task created at 120 s starts 20 cells in */
	struct tui_seg s[2] = {
		{ TUI_SEG_PROVISION, 120000, 130000 },
		{ TUI_SEG_PULL, 130000, 140000 },
	};
	struct tui_bar_cell c[50];

	tui_bar_cells(s, 2, 100000, 50000, 50, true, c);
	for (int i = 0; i < 20; i++)
		cr_expect_eq(c[i].eighths, 0, "cell %d is before the task", i);
	cr_expect_eq(c[20].kind, TUI_SEG_PROVISION);
	cr_expect_eq(c[30].kind, TUI_SEG_PULL);
	cr_expect_eq(c[40].eighths, 0);
}

Test(tui_layout, bar_tiny_task_stays_visible_and_missing_ends_are_skipped)
{
	struct tui_seg s[3] = {
		{ TUI_SEG_PROVISION, 0, 10 },
		{ TUI_SEG_PULL, 10, TS_NONE },
		{ TUI_SEG_START, TS_NONE, TS_NONE },
	};
	struct tui_bar_cell c[10];

	tui_bar_cells(s, 3, 0, 1000000, 10, false, c);
	cr_expect_eq(c[0].kind, TUI_SEG_PROVISION);
	cr_expect_eq(c[0].eighths, 8);
	cr_expect_eq(count_kind(c, 10, TUI_SEG_PULL), 0);
	/* nothing to draw on an empty axis */
	tui_bar_cells(s, 3, 0, 0, 10, false, c);
	cr_expect_eq(count_kind(c, 10, TUI_SEG_PROVISION), 0);
}

Test(tui_layout, bar_past_the_axis_is_clipped)
{
	struct tui_seg s[1] = { { TUI_SEG_START, 0, 500000 } };
	struct tui_bar_cell c[10];

	tui_bar_cells(s, 1, 0, 100000, 10, true, c);
	cr_expect_eq(count_kind(c, 10, TUI_SEG_START), 10);
}

Test(tui_layout, glyphs_ascii_distinct_without_colour)
{
	struct tui_bar_cell p = { TUI_SEG_PROVISION, 8 }, u = { TUI_SEG_PULL, 8 },
			    s = { TUI_SEG_START, 8 }, half = { TUI_SEG_PULL, 4 }, none = { 0, 0 };

	cr_expect_str_eq(tui_bar_glyph(TUI_GLYPHS_ASCII, false, &p), "=");
	cr_expect_str_eq(tui_bar_glyph(TUI_GLYPHS_ASCII, false, &u), "#");
	cr_expect_str_eq(tui_bar_glyph(TUI_GLYPHS_ASCII, false, &s), "+");
	cr_expect_str_eq(tui_bar_glyph(TUI_GLYPHS_ASCII, true, &none), " ");
	cr_expect_str_eq(tui_bar_glyph(TUI_GLYPHS_UTF8, true, &half), "\u258c");
	cr_expect_str_neq(tui_bar_glyph(TUI_GLYPHS_UTF8, false, &p),
			  tui_bar_glyph(TUI_GLYPHS_UTF8, false, &u));
}

Test(tui_layout, histogram_bins_and_sparks)
{
	double v[] = { 0.0, 1.0, 1.5, 9.9, 10.0, 11.0, NAN };
	unsigned counts[5];

	cr_expect_eq(tui_histogram(v, 7, 0.0, 10.0, counts, 5), 5);
	cr_expect_eq(counts[0], 3);
	cr_expect_eq(counts[1], 0);
	cr_expect_eq(counts[4], 2, "the last bin is closed: 10.0 counts");
	cr_expect_str_eq(tui_spark_glyph(TUI_GLYPHS_UTF8, 3, 3), "\u2588");
	cr_expect_str_eq(tui_spark_glyph(TUI_GLYPHS_UTF8, 1, 100), "\u2581");
	cr_expect_str_eq(tui_spark_glyph(TUI_GLYPHS_ASCII, 0, 3), " ");
	cr_expect_str_eq(tui_spark_glyph(TUI_GLYPHS_ASCII, 3, 3), "#");
}

Test(tui_layout, contains_ci)
{
	cr_expect(tui_contains_ci("web-Frontend:3", "FRONT"));
	cr_expect(tui_contains_ci("anything", ""));
	cr_expect_not(tui_contains_ci("us-east-1a", "1b"));
	cr_expect_not(tui_contains_ci(NULL, "x"));
	cr_expect_not(tui_contains_ci("ab", "abc"));
}

Test(tui_layout, scroll_keeps_selection_visible)
{
	cr_expect_eq(tui_scroll_for(0, 0, 20, 100), 0);
	cr_expect_eq(tui_scroll_for(25, 0, 20, 100), 6);
	cr_expect_eq(tui_scroll_for(5, 10, 20, 100), 5);
	cr_expect_eq(tui_scroll_for(99, 0, 20, 100), 80);
	/* after a resize to more rows than remain, scroll back up */
	cr_expect_eq(tui_scroll_for(99, 90, 20, 100), 80);
	cr_expect_eq(tui_scroll_for(3, 50, 20, 10), 0);
}
