/* tui_scaleout: the scale-out view's arithmetic (no curses): a row's bar on the shared
 * axis from the model's pieces, later stages over earlier ones, none invisible, and the
 * axis' round steps. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ecsprof/timeutil.h"
#include "ecsprof/tui_scaleout.h"

/* An alarm-triggered row: detect 0..60 s, react 60..70 s, schedule 70..80 s, a typical
 * task provision 20 s, pull 30 s, start 10 s from 80 s, register 150..200 s */
static void
row(struct so_row *r)
{
	memset(r, 0, sizeof *r);
	for (int k = 0; k < SO_STAGE_COUNT; k++) {
		r->span[k].from_ms = r->span[k].to_ms = TS_NONE;
		r->dist[k].p50_s = r->dist[k].max_s = NAN;
	}
	r->trigger_ms = 1000000 + 60000;
	r->span[SO_DETECT] = (struct so_span){ 1000000, 1060000, false, false };
	r->span[SO_REACT] = (struct so_span){ 1060000, 1070000, false, false };
	r->span[SO_SCHEDULE] = (struct so_span){ 1070000, 1080000, false, false };
	r->span[SO_LAUNCH] = (struct so_span){ 1080000, 1080000, false, false };
	r->dist[SO_PROVISION] = (struct so_dist){ 1, 20, 20 };
	r->dist[SO_PULL] = (struct so_dist){ 1, 30, 30 };
	r->dist[SO_START] = (struct so_dist){ 1, 10, 10 };
	r->span[SO_REGISTER] = (struct so_span){ 1150000, 1200000, false, true };
}

Test(tui_scaleout, the_bar_places_each_stage_on_the_axis)
{
	struct so_row r;
	signed char c[100];
	bool est[100];

	row(&r);
	/* 200 s on 100 cells: 2 s a cell */
	tui_so_cells(&r, 200000, 100, c, est);
	cr_assert_eq(c[0], SO_DETECT);
	cr_assert_eq(c[29], SO_DETECT);
	cr_assert_eq(c[30], SO_REACT);
	cr_assert_eq(c[35], SO_SCHEDULE);
	cr_assert_eq(c[40], SO_PROVISION);
	cr_assert_eq(c[50], SO_PULL);
	cr_assert_eq(c[65], SO_START);
	cr_assert_eq(c[70], TUI_SO_NONE, "nothing between the task's start and registration");
	cr_assert_eq(c[75], SO_REGISTER);
	cr_assert_eq(c[99], SO_REGISTER);
	cr_assert(est[80] && !est[10], "register is estimated (to_est), detect is not");
}

Test(tui_scaleout, a_short_stage_keeps_a_cell_and_the_scale_is_shared)
{
	struct so_row r;
	signed char c[20];

	row(&r);
	r.span[SO_REACT].to_ms = r.span[SO_REACT].from_ms + 100;   /* 0.1 s */
	r.span[SO_SCHEDULE].from_ms = r.span[SO_SCHEDULE].to_ms = TS_NONE;
	/* on a shared axis twice as long the bar takes half the cells */
	tui_so_cells(&r, 400000, 20, c, NULL);
	cr_assert_eq(c[3], SO_REACT, "a 0.1 s stage still shows (60 s: cell 3)");
	cr_assert_eq(c[2], SO_DETECT);
	cr_assert_eq(c[4], SO_PROVISION);
	cr_assert_eq(c[9], SO_REGISTER);
	cr_assert_eq(c[10], TUI_SO_NONE);
	cr_assert_eq(c[19], TUI_SO_NONE);
	/* no axis: nothing drawn, nothing out of range */
	tui_so_cells(&r, 0, 20, c, NULL);
	for (int i = 0; i < 20; i++)
		cr_assert_eq(c[i], TUI_SO_NONE);
}

Test(tui_scaleout, ticks_are_round_and_apart)
{
	cr_assert_eq(tui_so_tick_s(560000, 80, 8), 60, "560 s on 80 cells: a minute is 8.6 cells");
	cr_assert_eq(tui_so_tick_s(560000, 40, 8), 120);
	cr_assert_eq(tui_so_tick_s(60000, 80, 8), 10);
	cr_assert_eq(tui_so_tick_s(0, 80, 8), 0);
	cr_assert_eq(tui_so_cell_of(60000, 560000, 80), 8);
	cr_assert_eq(tui_so_cell_of(0, 560000, 80), 0);
}
