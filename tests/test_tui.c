/* tui: the terminal UI run from a key script into an in-memory screen (tui_options.script
 * and .dump), so that what a person would see is checked without a terminal: a failed
 * start is marked, and the keys change what they say they change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "ecsprof/report.h"
#include "ecsprof/tui.h"
#include "fixtures/failed_start.h"

#define PULLING_ARN "arn:aws:ecs:us-east-1:123456789012:task/prod/b0b0b0b0c1c1c1c1"

static void
screen_env(void)
{
	setenv("TERM", "xterm-256color", 1);
	setenv("COLUMNS", "140", 1);
	setenv("LINES", "12", 1);
	setenv("NO_COLOR", "1", 1);
	unsetenv("ECSPROF_TUI_SCRIPT");
	unsetenv("ECSPROF_TUI_DUMP");
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t cap = 0;

	cr_assert_not_null(f, "no screen dump at %s", path);
	cr_assert_geq(getdelim(&s, &cap, '\0', f), 0);
	fclose(f);
	return s;
}

/* The final screen after the keys, as text (one line per screen line). */
static char *
run_tui(struct task_set *s, const char *keys)
{
	struct report r;
	struct report_options ro = { .group_by = { GK_ALL, NULL }, .sort_col = -1 };
	struct tui_source src = { .title = "test" };
	char dump[] = "/tmp/ecsprof-test-tui-XXXXXX";
	struct tui_options o = { .sort_col = -1, .script = keys, .dump = dump };
	struct err err;
	int fd = mkstemp(dump);
	char *out;

	cr_assert_geq(fd, 0);
	screen_env();
	err_clear(&err);
	cr_assert_eq(report_build(&r, s, &ro, &err), 0, "%s", err.msg);
	src.report = &r;
	cr_assert_eq(tui_run(&src, &o, &err), 0, "%s", err.msg);
	out = slurp(dump);
	unlink(dump);
	report_cleanup(&r);
	return out;
}

static void
two_tasks(struct task_set *s)
{
	struct task t;

	task_set_init(s);
	fs_failed_task(&t, false);
	task_set_take(s, &t);
	fs_pulling_task(&t, PULLING_ARN);
	task_set_take(s, &t);
}

static const char *
line_with(const char *screen, const char *what, char *out, size_t size)
{
	const char *p = strstr(screen, what), *b, *e;

	if (p == NULL)
		return "";
	for (b = p; b > screen && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(out, size, "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
	return out;
}

/* The TUI marks the DEPROVISIONING + TaskFailedToStart task as a failed start ('!' after
 * its status, even when the status is cut to the column), as the table does ('*'), and
 * counts it as stopped, not as starting. */
Test(tui, deprovisioning_failed_start_is_marked)
{
	struct task_set s;
	char line[256];
	char *scr;

	two_tasks(&s);
	scr = run_tui(&s, "");
	line_with(scr, "d0d0d0d0", line, sizeof line);
	cr_expect_neq(strstr(line, "!"), NULL, "failed start not marked: '%s'\n%s", line, scr);
	cr_expect_neq(strstr(line, "DEPROVI"), NULL, "'%s'", line);
	line_with(scr, "b0b0b0b0", line, sizeof line);
	cr_expect_eq(strstr(line, "!"), NULL, "a task still pulling marked failed: '%s'", line);
	cr_expect_neq(strstr(scr, "running 0  starting 1  stopped 1"), NULL, "%s", scr);
	free(scr);
	task_set_cleanup(&s);
}

/* 'a' switches the bars between aligned at createdAt and one shared time axis: the
 * status line says which, and the bar column's heading changes from "created+" to the
 * clock time where the axis starts (10:00:00). */
Test(tui, a_key_switches_the_axis)
{
	struct task_set s;
	char *before, *after, *twice;

	two_tasks(&s);
	before = run_tui(&s, "");
	after = run_tui(&s, "a");
	twice = run_tui(&s, "a a");
	cr_expect_neq(strstr(before, "axis: aligned at createdAt"), NULL, "%s", before);
	cr_expect_neq(strstr(before, "created+"), NULL, "%s", before);
	/* one burst: the scale-out is every task (tui_axis.sh checks the scale-out span) */
	cr_expect_neq(strstr(after, "axis: all tasks 41.00s"), NULL, "'a' did nothing:\n%s", after);
	cr_expect_eq(strstr(after, "created+"), NULL, "%s", after);
	cr_expect_neq(strstr(after, "10:00:00"), NULL, "%s", after);
	cr_expect_str_eq(twice, before, "'a a' is back where it started");
	free(before);
	free(after);
	free(twice);
	task_set_cleanup(&s);
}
