/* table: the task and summary tables against hand-checked golden files at 80 columns,
 * wider and verbose layouts, and the properties a reader relies on (fits the width, no
 * control bytes, a failed start is explained). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include <math.h>
#include "ecsprof/compare.h"
#include "ecsprof/report.h"
#include "ecsprof/table.h"
#include "ecsprof/xalloc.h"
#include "fixtures/output/fixture_tasks.h"
#include "fixtures/output/golden.h"

enum what { TASKS, SUMMARY };

static char *
capture(enum what w, const char *group_by, int width, bool verbose, size_t *len)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	FILE *f;
	int rc;

	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, group_by, &err), 0, "report_build: %s", err.msg);
	f = open_memstream(&out, len);
	cr_assert_not_null(f);
	rc = w == TASKS ? table_write_tasks(f, &r, width, verbose, &err)
			: table_write_summary(f, &r, width, &err);
	cr_assert_eq(rc, 0, "writer failed: %s", err.msg);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
	return out;
}

/* display columns of one line (UTF-8 code points) */
static size_t
line_width(const char *p, const char *end)
{
	size_t n = 0;

	for (; p < end; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	return n;
}

static void
expect_plain_and_narrow(const char *out, size_t width, bool until_blank)
{
	for (const char *p = out, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		if (until_blank && nl == p)
			break;   /* footnotes may be as long as the reason they quote */
		cr_expect_leq(line_width(p, nl), width, "line wider than %zu: %.*s", width,
			      (int)(nl - p), p);
		for (const char *q = p; q < nl; q++)
			cr_expect(!((unsigned char)*q < 0x20 || *q == 0x7f), "control byte 0x%02x",
				  (unsigned char)*q);
		cr_expect(nl == p || nl[-1] != ' ', "trailing space: %.*s", (int)(nl - p), p);
	}
}

Test(table, tasks_golden_80)
{
	size_t len;
	char *out = capture(TASKS, "taskdef", 80, false, &len);

	fx_expect_golden(out, len, "tasks.table");
	expect_plain_and_narrow(out, 80, true);
	free(out);
}

Test(table, tasks_golden_wide)
{
	size_t len;
	char *out = capture(TASKS, "taskdef", 160, false, &len);

	fx_expect_golden(out, len, "tasks-160.table");
	expect_plain_and_narrow(out, 160, true);
	free(out);
}

Test(table, summary_golden)
{
	size_t len;
	char *out = capture(SUMMARY, "taskdef", 80, false, &len);

	fx_expect_golden(out, len, "summary.table");
	expect_plain_and_narrow(out, 80, false);
	free(out);
}

/* the key columns stay and still fit when the terminal is narrow; verbose shows full ids */
Test(table, layouts)
{
	size_t len;
	char *out = capture(TASKS, "taskdef", 60, false, &len);

	cr_expect_neq(strstr(out, "TOTAL"), NULL);
	cr_expect_neq(strstr(out, "TASKDEF"), NULL);
	cr_expect_eq(strstr(out, "IMAGE"), NULL);
	free(out);
	out = capture(TASKS, "taskdef", 0, true, &len);
	cr_expect_neq(strstr(out, "0a1b2c3d99887766554433221100aabb"), NULL);
	cr_expect_neq(strstr(out, "IMAGE"), NULL);
	cr_expect_neq(strstr(out, "CONNECT"), NULL);
	/* the newline inside t7's image is shown as '?', keeping one task per line */
	cr_expect_neq(strstr(out, "evil?image:latest"), NULL);
	expect_plain_and_narrow(out, 1000, true);
	free(out);
	/* one group: no GROUP column even when there is room */
	out = capture(TASKS, "cluster", 200, false, &len);
	cr_expect_eq(strstr(out, "GROUP"), NULL);
	free(out);
}

Test(table, write_error_is_reported)
{
	struct task_set s;
	struct report r;
	struct err err;
	FILE *f = fopen("/dev/full", "w");

	cr_assert_not_null(f, "/dev/full is needed for this test");
	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	cr_expect_eq(table_write_tasks(f, &r, 80, false, &err), -1);
	cr_expect_eq(err.code, ERR_IO);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(table, no_tasks_says_so)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;

	err_clear(&err);
	task_set_init(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(table_write_tasks(f, &r, 80, false, &err), 0);
	cr_assert_eq(table_write_summary(f, &r, 80, &err), 0);
	fclose(f);
	cr_expect_str_eq(out, "(no tasks)\n(no tasks)\n");
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

#include "fixtures/failed_start.h"

/* The DEPROVISIONING + TaskFailedToStart task is a failed start in the table too: '*' on
 * its status and a footnote with the stop code and reason. */
Test(table, deprovisioning_failed_start_is_marked)
{
	struct task_set s;
	struct task t;
	struct report r;
	struct report_options o = { .group_by = { GK_ALL, NULL }, .sort_col = -1 };
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;

	err_clear(&err);
	task_set_init(&s);
	fs_failed_task(&t, false);
	task_set_take(&s, &t);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/b0b0b0b0");
	task_set_take(&s, &t);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(table_write_tasks(f, &r, 120, false, &err), 0, "%s", err.msg);
	fclose(f);
	cr_expect_neq(strstr(out, "DEPROVISIONING!"), NULL, "%s", out);
	cr_expect_neq(strstr(out, "! d0d0d0d0 stopped before RUNNING (TaskFailedToStart): "
			      "CannotPullContainerError"), NULL, "%s", out);
	cr_expect_eq(strstr(out, "PENDING*"), NULL, "%s", out);
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* item 5 of issue 10: a stop reason carrying a title-setting OSC, a colour, a bidi
 * override and isolate reaches the table as '?'s, the text around them intact */
Test(table, terminal_controls_in_server_text_become_question_marks)
{
	struct task_set s;
	struct task t;
	struct report r;
	struct report_options o = { .group_by = { GK_ALL, NULL }, .sort_col = -1 };
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;

	err_clear(&err);
	task_set_init(&s);
	fs_failed_task(&t, false);
	task_str(&t, &task_edit_profile(&t)->stopped_reason, "\x1b]0;pwned\x07\x1b[31mred\xe2\x80\xae" "evil\xe2\x81\xa6"
				   "x\xc2\x9b" "1m");
	task_set_take(&s, &t);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(table_write_tasks(f, &r, 200, false, &err), 0, "%s", err.msg);
	fclose(f);
	cr_expect_neq(strstr(out, "?]0;pwned??[31mred?evil?x?1m"), NULL, "%s", out);
	cr_expect_eq(strchr(out, 0x1b), NULL);
	cr_expect_eq(strchr(out, 0x07), NULL);
	cr_expect_eq(strstr(out, "\xe2\x80\xae"), NULL);
	cr_expect_eq(strstr(out, "\xe2\x81\xa6"), NULL);
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* issue 10 item 10: a count of 143,640 keeps every digit and the columns stay aligned
 * (the N column was 4 wide, so the row shifted or was cut to "143~") */
struct n_lines { char header[512]; char row[8][512]; size_t nrows; };

static void
n_sink(void *ctx, enum compare_line_kind kind, const char *text)
{
	struct n_lines *l = ctx;

	if (kind == CMP_LINE_HEADER)
		snprintf(l->header, sizeof l->header, "%s", text);
	else if (kind == CMP_LINE_ROW && l->nrows < 8)
		snprintf(l->row[l->nrows++], sizeof l->row[0], "%s", text);
}

Test(table, summary_n_column_holds_six_digit_counts)
{
	struct report_group g = { .name = (char *)"all", .ntasks = 143640, .pull_share = NAN };
	struct report r = { .groups = &g, .ngroups = 1 };
	struct compare_style st = { 80, false };
	struct n_lines l = { .nrows = 0 };

	for (int p = 0; p < PHASE_COUNT; p++)
		g.phase[p] = (struct stats_summary){ 143640 - (size_t)p, 1.0, 2.0, 3.0, 4.0, 5.0,
						     2.5, NAN, NAN };
	compare_group_lines(&r, 0, &st, n_sink, &l);
	cr_assert_gt(l.nrows, 0);
	const char *h = strstr(l.header, "MIN");
	cr_assert_not_null(h);
	size_t min_end = (size_t)(h - l.header) + 3;
	for (size_t i = 0; i < l.nrows; i++) {
		cr_expect_null(strchr(l.row[i], '~'), "cut: %s", l.row[i]);
		cr_expect(strstr(l.row[i], " 1436") != NULL, "digits lost: %s", l.row[i]);
		/* MIN's value "1.0" ends under the title */
		cr_expect(strlen(l.row[i]) > min_end && strncmp(l.row[i] + min_end - 3, "1.0", 3) == 0,
			  "MIN misaligned:\n%s\n%s", l.header, l.row[i]);
	}
}

/* issue 30 item 10: a phase still going shows how long so far with "…", as the TUI shows
 * it, not "-" (the TUI read "33.0…" where the table read "-") */
Test(table, running_phase_as_the_tui_shows_it)
{
	struct task_set s;
	struct task t;
	struct report r;
	struct report_options o = { .group_by = { GK_ALL, NULL }, .sort_col = -1 };
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;

	err_clear(&err);
	task_set_init(&s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/b0b0b0b0");
	int64_t pull_from = task_ts(&t, TS_PULL_STARTED);
	task_set_ts(&t, TS_FETCHED, pull_from + 33000);
	task_set_take(&s, &t);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(table_write_tasks(f, &r, 120, false, &err), 0, "%s", err.msg);
	fclose(f);
	cr_expect_neq(strstr(out, " 33.0\u2026"), NULL, "%s", out);
	cr_expect_eq(phase_so_far_ms(r.rows[0].task, PHASE_PULL, pull_from + 33000), 33000);
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}
