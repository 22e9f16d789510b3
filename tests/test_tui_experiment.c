/* tui_experiment's layout (tui_xrender) without a terminal: the arms side by side or
 * stacked, rows filling in, bars on one axis for every arm, every span inside the screen. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/tui_experiment.h"

#define COLS 120
#define ROWS 30

/* The screen as text, one line per row (a span's glyphs at its column). */
static char screen[60][200 * 4 + 1];   /* up to 200x60 */

static void
paint(const struct tui_xscreen *sc, int rows, int cols)
{
	/* ASCII-only spans (TUI_GLYPHS_ASCII), so one byte per cell */
	for (int r = 0; r < rows; r++) {
		memset(screen[r], ' ', (size_t)cols);
		screen[r][cols] = '\0';
	}
	for (size_t i = 0; i < sc->n; i++) {
		const struct tui_xspan *p = &sc->spans[i];

		cr_assert_lt(p->row, rows, "span '%s' below the screen", p->text);
		cr_assert_leq(p->col + p->cells, cols, "span '%s' at %d+%d past %d columns",
			      p->text, p->col, p->cells, cols);
		memcpy(screen[p->row] + p->col, p->text, strlen(p->text));
	}
	for (int r = 0; r < rows; r++) {   /* trailing blanks off, as a terminal capture */
		size_t n = strlen(screen[r]);
		while (n > 0 && screen[r][n - 1] == ' ')
			screen[r][--n] = '\0';
	}
}

static int
find_row(int rows, const char *needle)
{
	for (int r = 0; r < rows; r++)
		if (strstr(screen[r], needle) != NULL)
			return r;
	return -1;
}

static struct tui_xtask
running(int64_t created, int64_t prov, int64_t pull, int64_t start)
{
	return (struct tui_xtask){ STAGE_RUNNING, created, created + prov, created + prov + pull,
				   created + prov + pull + start, 120000, false, false };
}

Test(tui_experiment, arms_side_by_side_fill_in)
{
	const int64_t t = 1700000000000;
	struct tui_xtask a[3] = {
		running(t, 20000, 70000, 4000),
		{ STAGE_PULL, t + 1000, t + 21000, TS_NONE, TS_NONE, 40000, false, false },
		{ STAGE_PROVISION, t + 2000, TS_NONE, TS_NONE, TS_NONE, 5000, false, false },
	};
	struct tui_xtask b[2] = { running(t, 20000, 3000, 7000), running(t, 22000, 4000, 6000) };
	struct tui_xarm arms[2] = {
		{ "no-soci", "web:7", 4, 3, 0, a, 3, 94000, 1 },
		{ "soci", "web:8", 4, 2, 0, b, 2, 31000, 2 },
	};
	const char *msgs[1] = { "warning: RunTask soci (web:8): RESOURCE:MEMORY" };
	struct tui_xstate s = { "x1", "prod", "RUNNING", 600000, 75000, arms, 2, msgs, 1, false };
	struct tui_xscreen sc;
	int r;

	tui_xrender(&s, COLS, ROWS, TUI_GLYPHS_ASCII, false, &sc);
	paint(&sc, ROWS, COLS);
	cr_expect(sc.side_by_side);
	cr_expect_str_eq(screen[0], "ecsprof experiment x1 - cluster prod - waiting for each "
			 "task to be RUNNING (at most 10m) - 1m15s");
	r = find_row(ROWS, "no-soci  web:7");
	cr_assert_geq(r, 0);
	cr_expect(strstr(screen[r], "| soci  web:8") != NULL, "one line: '%s'", screen[r]);
	cr_expect(strstr(screen[r + 1], "3/4 launched, 1 running, 1 pulling, 1 provision") != NULL,
		  "'%s'", screen[r + 1]);
	cr_expect(strstr(screen[r + 1], "2/4 launched, 2 running") != NULL, "'%s'", screen[r + 1]);
	cr_expect(strstr(screen[r + 2], "total p50 94.0s (n=1)") != NULL, "'%s'", screen[r + 2]);
	cr_expect(strstr(screen[r + 2], "total p50 31.0s (n=2)") != NULL, "'%s'", screen[r + 2]);
	/* task rows: stage and time; the soci column's third and fourth not launched yet */
	cr_expect(strstr(screen[r + 4], " RUNNING    94.0s |") != NULL, "'%s'", screen[r + 4]);
	cr_expect(strstr(screen[r + 4], " RUNNING    30.0s") != NULL, "'%s'", screen[r + 4]);
	cr_expect(strstr(screen[r + 5], " pulling      40s |") != NULL, "'%s'", screen[r + 5]);
	cr_expect(strstr(screen[r + 6], " provision     5s |") != NULL, "'%s'", screen[r + 6]);
	cr_expect(strstr(screen[r + 6], "|   3    not launched yet") != NULL, "'%s'", screen[r + 6]);
	cr_expect(strncmp(screen[r + 7], "  4    not launched yet", 23) == 0, "'%s'", screen[r + 7]);
	cr_expect(strstr(screen[r + 7], "|   4    not launched yet") != NULL, "'%s'", screen[r + 7]);
	cr_expect(find_row(ROWS, "5    not launched yet") < 0, "no more rows than planned");
	/* the warning above the footer */
	cr_expect(strstr(screen[ROWS - 2], "warning: RunTask soci (web:8): RESOURCE:MEMORY") != NULL,
		  "'%s'", screen[ROWS - 2]);
	cr_expect(strncmp(screen[ROWS - 1], "Ctrl-C: stop every task and end. = provision "
			  "# pull + start", 59) == 0, "'%s'", screen[ROWS - 1]);
	tui_xscreen_cleanup(&sc);
}

/* One axis for both arms: a 94 s task fills its bar, a 30 s one about a third of it. */
Test(tui_experiment, bars_share_one_axis)
{
	const int64_t t = 1700000000000;
	struct tui_xtask a[1] = { running(t, 20000, 70000, 4000) };
	struct tui_xtask b[1] = { running(t, 20000, 3000, 7000) };
	struct tui_xarm arms[2] = {
		{ "no-soci", "web:7", 1, 1, 0, a, 1, 94000, 1 },
		{ "soci", "web:8", 1, 1, 0, b, 1, 30000, 1 },
	};
	struct tui_xstate s = { "x1", "prod", "RUNNING", 600000, 1000, arms, 2, NULL, 0, false };
	struct tui_xscreen sc;
	int r, la = 0, lb = 0;
	char *bar_a, *bar_b;

	tui_xrender(&s, COLS, ROWS, TUI_GLYPHS_ASCII, false, &sc);
	paint(&sc, ROWS, COLS);
	r = find_row(ROWS, " RUNNING   ");
	cr_assert_geq(r, 1);
	cr_assert_not_null(strchr(screen[r], '|'), "'%s'", screen[r]);
	bar_a = screen[r] + 4;
	bar_b = strchr(screen[r], '|') + 2 + 4;
	while (bar_a[la] != '\0' && strchr("=#+", bar_a[la]) != NULL)
		la++;
	while (bar_b[lb] != '\0' && strchr("=#+", bar_b[lb]) != NULL)
		lb++;
	cr_assert_gt(la, 20, "'%s'", screen[r]);
	/* 30/94 of the no-soci bar, to a cell */
	cr_expect(lb >= la * 30 / 94 - 1 && lb <= la * 30 / 94 + 1, "bars %d and %d: '%s'", la, lb,
		  screen[r]);
	/* each phase its glyph: provision '=', pull '#', start '+' */
	cr_expect(bar_a[0] == '=' && strchr(bar_a, '#') != NULL && bar_a[la - 1] == '+',
		  "'%s'", screen[r]);
	tui_xscreen_cleanup(&sc);
}

Test(tui_experiment, narrow_stacks_the_arms_and_keeps_inside)
{
	const int64_t t = 1700000000000;
	struct tui_xtask a[2] = { running(t, 20000, 70000, 4000),
				  { STAGE_FAILED, t, t + 20000, TS_NONE, TS_NONE, 30000, false, false } };
	struct tui_xtask b[1] = { { STAGE_PULL, t, t + 20000, TS_NONE, TS_NONE, 60000, false, true } };
	struct tui_xarm arms[2] = {
		{ "no-soci", "web:7", 2, 2, 0, a, 2, 94000, 1 },
		{ "soci", "web:8", 3, 1, 2, b, 1, TS_NONE, 0 },
	};
	struct tui_xstate s = { "x1", NULL, "RUNNING", 90000, 61000, arms, 2, NULL, 0, true };
	struct tui_xscreen sc;
	int ra, rb;

	tui_xrender(&s, 60, 24, TUI_GLYPHS_ASCII, false, &sc);
	paint(&sc, 24, 60);
	cr_expect(!sc.side_by_side);
	/* cut before the clock, which stays in sight */
	cr_expect_str_eq(screen[0], "ecsprof experiment x1 - cluster default - stopping ~ - 1m01s");
	ra = find_row(24, "no-soci  web:7");
	rb = find_row(24, "soci  web:8");
	cr_assert(ra >= 0 && rb > ra, "%d %d", ra, rb);
	cr_expect(find_row(24, "|") < 0, "no column rule when stacked");
	cr_expect(find_row(24, "failed") > ra && find_row(24, "failed") < rb);
	cr_expect(find_row(24, "timed out") > rb);
	cr_expect(strstr(screen[rb + 1], "1/3 launched, 1 timed out, 2 not started") != NULL,
		  "'%s'", screen[rb + 1]);
	cr_expect(strstr(screen[rb + 2], "total p50 - (n=0)") != NULL, "'%s'", screen[rb + 2]);
	tui_xscreen_cleanup(&sc);
}

/* More tasks than rows: the first ones, then a line that counts the rest. */
Test(tui_experiment, more_tasks_than_rows)
{
	const int64_t t = 1700000000000;
	struct tui_xtask a[40];
	struct tui_xarm arms[1];
	struct tui_xstate s = { "x1", "prod", "RUNNING", 600000, 1000, arms, 1, NULL, 0, false };
	struct tui_xscreen sc;

	for (int i = 0; i < 40; i++)
		a[i] = running(t, 20000, 3000 + i * 100, 7000);
	arms[0] = (struct tui_xarm){ "soci", "web:8", 40, 40, 0, a, 40, 31000, 40 };
	tui_xrender(&s, 80, 20, TUI_GLYPHS_ASCII, false, &sc);
	paint(&sc, 20, 80);
	cr_expect_eq(sc.tasks_shown, 20 - 1 - 2 - 4 - 1, "%d", sc.tasks_shown);
	cr_expect(find_row(20, "28 more (28 of them running)") > 0);
	tui_xscreen_cleanup(&sc);
}

/* Any size, 1 to 8 arms: every span inside the screen (paint() asserts it). */
Test(tui_experiment, every_size_keeps_inside)
{
	const int64_t t = 1700000000000;
	struct tui_xtask a[12];
	struct tui_xarm arms[8];
	const char *msgs[4] = { "warning: one", "warning: two", "warning: three", "warning: four" };

	for (int i = 0; i < 12; i++)
		a[i] = running(t, 20000 + i * 1000, 3000 + i * 9000, 7000);
	for (int k = 0; k < 8; k++)
		arms[k] = (struct tui_xarm){ "an-arm-with-a-long-name", "family-x:12", 12, 12 - k, k,
					     a, (size_t)(12 - k), 31000, 3 };
	for (size_t narms = 1; narms <= 8; narms++)
		for (int cols = 10; cols <= 200; cols += 7)
			for (int rows = 3; rows <= 60; rows += 3) {
				struct tui_xstate s = { "an-experiment-id", "a-cluster", "HEALTHY",
							5400000, 4000000, arms, narms, msgs, 4, false };
				struct tui_xscreen sc;

				tui_xrender(&s, cols, rows, TUI_GLYPHS_ASCII, false, &sc);
				for (size_t i = 0; i < sc.n; i++)
					cr_assert(sc.spans[i].row >= 0 && sc.spans[i].col >= 0,
						  "%zu arms %dx%d: '%s' at %d,%d", narms, cols, rows,
						  sc.spans[i].text, sc.spans[i].row, sc.spans[i].col);
				paint(&sc, rows, cols);
				tui_xscreen_cleanup(&sc);
			}
}
