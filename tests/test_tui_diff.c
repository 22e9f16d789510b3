/* diff's terminal view laid out without a terminal (tui_diff_layout), and the change points
 * of a small history (diff_changes.h): tasks built here, a shift of the pull planted. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/diff.h"
#include "ecsprof/diff_changes.h"
#include "ecsprof/task.h"
#include "ecsprof/tui_diff.h"
#include "ecsprof/utf8.h"

#define OLD "sha256:9f3e000000000000000000000000000000000000000000000000000000000000"
#define NEW "sha256:ab12000000000000000000000000000000000000000000000000000000000000"
#define DAY 86400000LL
#define T0 1764460800000LL   /* 2025-11-30T00:00:00Z */

/* task i created at `at`, pulling `pull` seconds, on digest */
static void
make(struct task *t, int i, int64_t at, double pull, const char *digest)
{
	struct container *c;
	char arn[96];

	task_init(t);
	snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:1:task/c/%032d", i);
	task_set_arn(t, arn, strlen(arn));
	task_str(t, &task_edit_profile(t)->taskdef_arn, "arn:aws:ecs:us-east-1:1:task-definition/web:7");
	task_str(t, &task_edit_profile(t)->launch_type, "FARGATE");
	c = task_containers(t, 1);
	task_str(t, &container_edit_profile(t, c)->name, "app");
	container_set_digest(t, c, digest, digest != NULL ? strlen(digest) : 0);
	task_set_ts(t, TS_CREATED, at);
	task_set_ts(t, TS_CONNECTIVITY, at + 8000 + (i % 7) * 100);
	task_set_ts(t, TS_PULL_STARTED, at + 14000 + (i % 5) * 100);
	task_set_ts(t, TS_PULL_STOPPED, task_ts(t, TS_PULL_STARTED) + (int64_t)(pull * 1000));
	task_set_ts(t, TS_STARTED, task_ts(t, TS_PULL_STOPPED) + 4000 + (i % 3) * 100);
	task_derive(t);
}

/* days of n tasks each; from day `shift` on (counting from 0) the new digest pulls 30 s
 * slower (shift < 0: never) */
static void
history(struct task_set *s, int days, int n, int shift)
{
	task_set_init(s);
	for (int d = 0; d < days; d++)
		for (int i = 0; i < n; i++) {
			struct task t;
			bool slow = shift >= 0 && d >= shift;

			make(&t, d * n + i, T0 + d * DAY + i * 600000LL, 12.0 + (i * 7 % 11) * 0.3 +
			     (slow ? 30 : 0), slow ? NEW : OLD);
			task_set_take(s, &t);
		}
}

Test(tui_diff, layout_side_by_side_then_the_explanation_within_the_width)
{
	struct task_set s;
	struct diff_window a, b;
	struct diff d;
	struct tui_dlines l;
	struct err err;
	bool pull = false, why = false;

	history(&s, 2, 40, 1);
	cr_assert_eq(diff_window_split(&s, T0 + DAY, &a, &b), 0);
	cr_assert_eq(diff_build(&d, &a, &b, &err), 0, "%s", err.msg);
	for (int cols = 50; cols <= 130; cols += 40) {
		tui_diff_layout(&d, cols, &l);
		cr_assert_gt(l.phases_end, 2);
		for (size_t i = 0; i < l.n; i++) {
			cr_expect_leq(utf8_cols(l.v[i].text, strlen(l.v[i].text)), cols, "%d columns: '%s'", cols, l.v[i].text);
			if (strncmp(l.v[i].text, "pull ", 5) == 0 && i < l.phases_end) {
				pull = true;
				cr_expect_eq(l.v[i].color, TUI_D_SLOWER, "a significant slowdown");
			}
			why |= strncmp(l.v[i].text, "why:", 4) == 0;
		}
		tui_dlines_cleanup(&l);
	}
	cr_expect(pull, "the pull row");
	cr_expect(why, "the explanation below");
	diff_cleanup(&d);
	diff_window_free(&a);
	diff_window_free(&b);
	task_set_cleanup(&s);
}

Test(tui_diff, change_points_the_shifted_day_only)
{
	struct task_set s;
	struct changes c;
	struct err err;

	history(&s, 4, 30, 2);
	cr_assert_eq(changes_build(&c, &s, CHANGES_DAY, &err), 0, "%s", err.msg);
	cr_expect_eq(c.nwindows, 4);
	cr_assert_gt(c.npoints, 0);
	for (size_t i = 0; i < c.npoints; i++)
		cr_expect_eq(c.points[i].window, 2, "point %zu in window %zu", i, c.points[i].window);
	cr_expect_eq(c.points[0].phase, DIFF_PULL);
	cr_expect_str_eq(c.points[0].value, NEW);
	changes_cleanup(&c);
	task_set_cleanup(&s);

	history(&s, 4, 30, -1);
	cr_assert_eq(changes_build(&c, &s, CHANGES_DAY, &err), 0, "%s", err.msg);
	cr_expect_eq(c.npoints, 0, "one distribution: no change point");
	changes_cleanup(&c);
	task_set_cleanup(&s);

	history(&s, 1, 30, -1);
	cr_expect_eq(changes_build(&c, &s, CHANGES_DAY, &err), -1, "one day: nothing to compare");
	changes_cleanup(&c);
	task_set_cleanup(&s);
}

/* The column header is its own block (head_n lines, kept in place by the screen), and a
 * phase too small to tell carries the table's "(1)" with its footnote below the rows. */
Test(tui_diff, header_block_and_the_too_few_footnote)
{
	struct task_set s;
	struct diff_window a, b;
	struct diff d;
	struct tui_dlines l;
	struct err err;
	bool marked = false, note = false;

	history(&s, 2, 3, 1);   /* 3 against 3: no p can go below 0.05 */
	cr_assert_eq(diff_window_split(&s, T0 + DAY, &a, &b), 0);
	cr_assert_eq(diff_build(&d, &a, &b, &err), 0, "%s", err.msg);
	tui_diff_layout(&d, 130, &l);
	cr_expect_eq(l.head_n, 2, "the two header lines");
	cr_expect(strstr(l.v[0].text, "BASELINE") != NULL, "'%s'", l.v[0].text);
	cr_expect_eq(strncmp(l.v[1].text, "PHASE", 5), 0, "'%s'", l.v[1].text);
	for (size_t i = l.head_n; i < l.n; i++) {
		if (strncmp(l.v[i].text, "pull ", 5) == 0 && i < l.phases_end)
			marked = strstr(l.v[i].text, " (1)") != NULL;
		note |= strncmp(l.v[i].text, "(1) too few tasks to tell", 25) == 0;
	}
	cr_expect(marked, "the pull row carries (1)");
	cr_expect(note, "the footnote says what (1) means");
	tui_dlines_cleanup(&l);
	diff_cleanup(&d);
	diff_window_free(&a);
	diff_window_free(&b);
	task_set_cleanup(&s);

	history(&s, 2, 40, 1);
	cr_assert_eq(diff_window_split(&s, T0 + DAY, &a, &b), 0);
	cr_assert_eq(diff_build(&d, &a, &b, &err), 0, "%s", err.msg);
	tui_diff_layout(&d, 130, &l);
	for (size_t i = 0; i < l.n; i++)
		cr_expect(strstr(l.v[i].text, "(1)") == NULL, "40 against 40: no footnote: '%s'", l.v[i].text);
	tui_dlines_cleanup(&l);
	diff_cleanup(&d);
	diff_window_free(&a);
	diff_window_free(&b);
	task_set_cleanup(&s);
}

struct grab {
	char pull[512];
};

static void
grab_pull(void *ctx, const char *line)
{
	struct grab *g = ctx;

	if (strncmp(line, "pull ", 5) == 0)
		snprintf(g->pull, sizeof g->pull, "%s", line);
}

/* A p of 1, a CI end of -0.01 and the figures of a row read as the table prints them
 * (diff_p_text, diff_ci_text, diff_secs): "p=1.000", not "p=1"; "+0.0", not "-0.0"; the
 * same bytes on the screen and in the table. */
Test(tui_diff, the_p_and_the_seconds_in_the_table_words)
{
	struct diff d;
	struct tui_dlines l;
	struct grab g = { "" };
	const char *row = NULL;

	memset(&d, 0, sizeof d);
	d.base_n = d.new_n = 4;
	for (int p = 0; p < DIFF_PHASE_COUNT; p++)
		for (int a = 0; a < DIFF_ATTR_COUNT; a++)
			d.split_p[p][a] = NAN;
	d.phase[DIFF_PULL] = (struct diff_cmp){
		.base = { 4, 14.44, 16.4, 14.5 }, .cur = { 4, 14.46, 16.5, 14.6 }, .valid = true,
		.p50_delta_s = 0.02, .p90_delta_s = 0.1, .mean_delta_s = 0.1,
		.ci_lo_s = -0.01, .ci_hi_s = 0.3, .p_value = 1.0, .p_holm = 1.0, .sd_s = 1.0 };
	tui_diff_layout(&d, 130, &l);
	for (size_t i = l.head_n; i < l.phases_end; i++)
		if (strncmp(l.v[i].text, "pull ", 5) == 0)
			row = l.v[i].text;
	cr_assert_not_null(row);
	cr_expect(strstr(row, "+0.0 s [+0.0, +0.3] ~ p=1.000") != NULL, "'%s'", row);
	cr_expect(strstr(row, " 14.4 ") != NULL && strstr(row, " 14.5 ") != NULL, "'%s'", row);
	diff_lines(&d, 0, grab_pull, &g);
	cr_expect(strstr(g.pull, "+0.0 s [+0.0, +0.3] ~  1.000") != NULL, "the table: '%s'", g.pull);
	tui_dlines_cleanup(&l);
}
