/* watch: the poll loop against a scripted source (no network): which lines line mode
 * prints, the changed marker and the failed-start mark on the watch screen, and the
 * backoff while ECS throttles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "ecsprof/csv.h"
#include "ecsprof/report.h"
#include "ecsprof/sink.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/watch.h"
#include "fixtures/failed_start.h"

#define PULLING_ARN "arn:aws:ecs:us-east-1:123456789012:task/prod/b0b0b0b0c1c1c1c1"

/* Poll n shows the failed task in state[n] (0 pulling, 1 DEPROVISIONING + TaskFailedToStart,
 * 2 STOPPED) next to a task that keeps pulling; throttle: every poll fails with
 * ERR_THROTTLED. */
struct fake {
	const int *states;
	size_t nstates;
	size_t polls;
	bool throttle;
	int64_t at_ms[16];
	const char *reason;   /* the failed task's stoppedReason instead of the fixture's */
};

static int
fake_fetch(void *ctx, struct task_set *out, int64_t *start, struct err *err)
{
	struct fake *f = ctx;
	size_t i = f->polls < f->nstates ? f->polls : f->nstates - 1;
	struct task t;

	if (f->polls < 16)
		f->at_ms[f->polls] = timeutil_now_ms();
	f->polls++;
	*start = TS_NONE;
	if (f->throttle)
		return err_set(err, ERR_THROTTLED, "ThrottlingException: Rate exceeded");
	if (f->states[i] == 0)
		fs_pulling_task(&t, FS_ARN);
	else
		fs_failed_task(&t, f->states[i] == 2);
	if (f->reason != NULL && f->states[i] != 0)
		task_str(&t, &task_edit_profile(&t)->stopped_reason, f->reason);
	task_set_take(out, &t);
	fs_pulling_task(&t, PULLING_ARN);
	task_set_take(out, &t);
	return 0;
}

static int
fake_build(void *ctx, struct task_set *set, struct report *out, struct err *err)
{
	struct report_options ro = { .group_by = { GK_ALL, NULL }, .sort_col = -1 };

	return report_build(out, set, &ro, err);
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t cap = 0;

	cr_assert_not_null(f, "nothing at %s", path);
	cr_assert_geq(getdelim(&s, &cap, '\0', f), 0);
	fclose(f);
	return s;
}

static char *
line_with(const char *screen, const char *what)
{
	const char *p = strstr(screen, what), *b, *e;

	if (p == NULL)
		return strdup("");
	for (b = p; b > screen && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	return strndup(b, e ? (size_t)(e - b) : strlen(b));
}

/* Runs watch on the terminal UI (in memory) for the keys; returns the last screen. */
static char *
watch_screen(struct fake *f, const char *keys)
{
	struct watch_source src = { .fetch = fake_fetch, .build = fake_build, .ctx = f };
	struct watch_options o = { .interval_ms = 60000, .format = FMT_TUI, .title = "test" };
	char dump[] = "/tmp/ecsprof-test-watch-XXXXXX";
	struct err err;
	int fd = mkstemp(dump);
	char *scr;

	cr_assert_geq(fd, 0);
	close(fd);
	setenv("TERM", "xterm-256color", 1);
	setenv("COLUMNS", "140", 1);
	setenv("LINES", "12", 1);
	setenv("ECSPROF_TUI_SCRIPT", keys, 1);
	setenv("ECSPROF_TUI_DUMP", dump, 1);
	err_clear(&err);
	cr_assert_eq(watch_run(&src, &o, &err), 0, "%s", err.msg);
	scr = slurp(dump);
	unlink(dump);
	return scr;
}

/* a sink over f (a memory stream), as watch_main opens one over stdout */
static struct sink
mem_sink(FILE *f, const char *format)
{
	return (struct sink){ .f = f, .format = sink_format_by_name(format), .to_stdout = true,
			      .af = { .slot = -1 } };
}

/* On the watch screen, the DEPROVISIONING + TaskFailedToStart task is a failed start
 * ('!'), and the refresh that moved it there marks it changed ('*' after the id) while
 * the task still pulling is not. */
Test(watch, screen_marks_failed_start_and_changes)
{
	static const int states[] = { 0, 1 };
	struct fake f = { states, 2, 0, false, { 0 }, NULL };
	char *scr = watch_screen(&f, "r"), *failed, *pulling;

	cr_expect_eq(f.polls, 2, "'r' polls again");
	failed = line_with(scr, "d0d0d0d0");
	pulling = line_with(scr, "b0b0b0b0");
	cr_expect_neq(strstr(failed, "!"), NULL, "failed start not marked: '%s'\n%s", failed, scr);
	cr_expect_neq(strstr(failed, "d0d0d0d0*"), NULL, "changed task not marked: '%s'\n%s",
		      failed, scr);
	cr_expect_eq(strstr(pulling, "*"), NULL, "unchanged task marked: '%s'", pulling);
	free(failed);
	free(pulling);
	free(scr);
}

/* the first screen has nothing to compare with: nothing is marked changed */
Test(watch, first_screen_marks_nothing_changed)
{
	static const int states[] = { 0 };
	struct fake f = { states, 1, 0, false, { 0 }, NULL };
	char *scr = watch_screen(&f, "");

	cr_expect_eq(strstr(scr, "d0d0d0d0*"), NULL, "%s", scr);
	cr_expect_eq(strstr(scr, "b0b0b0b0*"), NULL, "%s", scr);
	free(scr);
}

/* Line mode: one line per task as it reaches RUNNING or is done. The failed start gets
 * one line, when ECS is done with it (STOPPED, with its stop code), not one while it is
 * still being torn down, and never one while it is pulling. */
Test(watch, lines_failed_start_once_when_done)
{
	static const int states[] = { 0, 1, 1, 2, 2 };
	struct fake f = { states, 5, 0, false, { 0 }, NULL };
	struct watch_source src = { .fetch = fake_fetch, .build = fake_build, .ctx = &f };
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);
	struct sink sk = mem_sink(mem, "csv");
	struct watch_options o = { .interval_ms = 1, .polls = 5, .format = FMT_CSV, .sink = &sk };
	struct err err;
	size_t lines = 0;

	err_clear(&err);
	cr_assert_eq(watch_run(&src, &o, &err), 0, "%s", err.msg);
	fclose(mem);
	for (const char *p = out; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	cr_expect_eq(lines, 2, "a header and one line:\n%s", out);
	cr_expect_neq(strstr(out, "d0d0d0d0e1e1e1e1f2f2f2f2a3a3a3a3,"), NULL, "%s", out);
	cr_expect_neq(strstr(out, ",STOPPED,"), NULL, "%s", out);
	cr_expect_neq(strstr(out, ",TaskFailedToStart,"), NULL, "%s", out);
	cr_expect_eq(strstr(out, "DEPROVISIONING"), NULL, "%s", out);
	free(out);
}

/* --format table or markdown: nothing while it polls, then the tasks of the last poll,
 * once, as a table (not CSV lines) */
Test(watch, table_of_the_last_poll_when_it_ends)
{
	static const int states[] = { 0, 1, 2 };
	static const char *const formats[] = { "table", "markdown" };

	for (size_t k = 0; k < 2; k++) {
		struct fake f = { states, 3, 0, false, { 0 }, NULL };
		struct watch_source src = { .fetch = fake_fetch, .build = fake_build, .ctx = &f };
		char *out = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&out, &len);
		struct sink sk = mem_sink(mem, formats[k]);
		struct watch_options o = { .interval_ms = 1, .polls = 3,
					   .format = k ? FMT_MARKDOWN : FMT_TABLE, .sink = &sk };
		struct err err;
		const char *head = k ? "| TASK | TASKDEF |" : "TASK ";

		err_clear(&err);
		cr_assert_eq(watch_run(&src, &o, &err), 0, "%s", err.msg);
		fclose(mem);
		cr_assert_eq(f.polls, 3);
		cr_expect(strncmp(out, head, strlen(head)) == 0, "%s:\n%s", formats[k], out);
		cr_expect_eq(strstr(out + 1, head), NULL, "one table: %s", out);
		cr_expect_eq(strstr(out, "task_arn,"), NULL, "no CSV: %s", out);
		cr_expect_neq(strstr(out, "STOPPED"), NULL, "the last poll's states: %s", out);
		free(out);
	}
}

/* A line is the report's own CSV row for the task, byte for byte, whatever its length: a
 * 10 KiB stoppedReason (ECS allows 1024 characters, an input file anything) is neither cut
 * nor dropped, and the quoting and neutralising are the report's. */
Test(watch, lines_are_the_report_csv_bytes_for_long_cells)
{
	static const int states[] = { 2 };
	struct fake f = { states, 1, 0, false, { 0 }, NULL };
	struct watch_source src = { .fetch = fake_fetch, .build = fake_build, .ctx = &f };
	struct watch_options o = { .interval_ms = 1, .polls = 1, .format = FMT_CSV };
	char *reason = malloc(10241), *out = NULL, *want = NULL;
	size_t len = 0, wlen = 0;
	struct task_set set;
	struct report r;
	struct err err;
	int64_t start;
	FILE *mem;
	struct sink sk;

	memset(reason, 'x', 10240);
	memcpy(reason, "=\"quoted\", and\nbroken ", 22);   /* without its NUL */
	reason[10240] = '\0';
	f.reason = reason;
	mem = open_memstream(&out, &len);
	sk = mem_sink(mem, "csv");
	o.sink = &sk;
	err_clear(&err);
	cr_assert_eq(watch_run(&src, &o, &err), 0, "%s", err.msg);
	fclose(mem);

	/* the same task through report -o's writer */
	f.polls = 0;
	task_set_init(&set);
	cr_assert_eq(fake_fetch(&f, &set, &start, &err), 0);
	cr_assert_eq(fake_build(&f, &set, &r, &err), 0, "%s", err.msg);
	mem = open_memstream(&want, &wlen);
	cr_assert_eq(csv_write_tasks(mem, &r, &err), 0, "%s", err.msg);
	fclose(mem);
	/* the report has both tasks; watch printed the failed one only (the other still pulls) */
	char *pulling = strstr(want, "\n" PULLING_ARN);
	char *failed = strstr(want, "\n" FS_ARN);

	cr_assert(pulling != NULL && failed != NULL, "%s", want);
	if (pulling > failed)
		pulling[1] = '\0';   /* the failed row keeps its newline */
	else
		memmove(pulling, failed, strlen(failed) + 1);
	cr_expect_eq(strlen(out), strlen(want), "watch wrote %zu bytes, report %zu", strlen(out),
		     strlen(want));
	cr_expect_str_eq(out, want);
	cr_expect_gt(len, 10240, "the reason is whole");
	report_cleanup(&r);
	task_set_cleanup(&set);
	free(want);
	free(out);
	free(reason);
}

/* While ECS throttles, each wait is twice the one before (from --interval up to
 * WATCH_BACKOFF_MAX_MS), measured between the polls the source saw. */
Test(watch, throttling_doubles_the_interval)
{
	static const int states[] = { 0 };
	struct fake f = { states, 1, 0, true, { 0 }, NULL };
	struct watch_source src = { .fetch = fake_fetch, .build = fake_build, .ctx = &f };
	struct watch_options o = { .interval_ms = 60, .polls = 4, .format = FMT_CSV };
	struct err err;
	int64_t g1, g2, g3;

	err_clear(&err);
	cr_assert_eq(watch_run(&src, &o, &err), 0, "throttling does not end a watch: %s", err.msg);
	cr_assert_eq(f.polls, 4);
	g1 = f.at_ms[1] - f.at_ms[0];
	g2 = f.at_ms[2] - f.at_ms[1];
	g3 = f.at_ms[3] - f.at_ms[2];
	cr_expect_geq(g1, 115, "first wait %lld ms, want 2 x 60", (long long)g1);
	cr_expect_geq(g2, 235, "second wait %lld ms, want 4 x 60", (long long)g2);
	cr_expect_geq(g3, 475, "third wait %lld ms, want 8 x 60", (long long)g3);
	cr_expect_lt(g1, 235, "first wait %lld ms", (long long)g1);
}

Test(watch, next_interval)
{
	cr_expect_eq(watch_next_interval(5000, 5000, true), 10000);
	cr_expect_eq(watch_next_interval(5000, 10000, true), 20000);
	cr_expect_eq(watch_next_interval(5000, 40000, true), WATCH_BACKOFF_MAX_MS);
	cr_expect_eq(watch_next_interval(5000, WATCH_BACKOFF_MAX_MS, true), WATCH_BACKOFF_MAX_MS);
	cr_expect_eq(watch_next_interval(5000, 40000, false), 5000);
	cr_expect_eq(watch_next_interval(0, 0, false), 5000);
}

/* ---- the status line's progress (issue 11 item 6, issue 14) ---- */

static void
add_task(struct task_set *s, const char *arn, const char *status, int64_t created,
	 int64_t started, const char *health)
{
	struct task t;

	fs_pulling_task(&t, arn);
	task_str(&t, &task_edit_profile(&t)->last_status, status);
	task_set_ts(&t, TS_CREATED, created);
	task_set_ts(&t, TS_PULL_STARTED, created + 1000);
	if (started != TS_NONE) {
		task_set_ts(&t, TS_PULL_STOPPED, started - 1000);
		task_set_ts(&t, TS_STARTED, started);
	}
	if (health != NULL)
		task_str(&t, &task_edit_profile(&t)->health_status, health);
	task_set_take(s, &t);
}

#define ARN(c) "arn:aws:ecs:us-east-1:123456789012:task/prod/" c "0000000000000000000000000000000"

/* two tasks from an hour ago running, three of this scale-out: one running, two pulling */
static void
old_and_new(struct task_set *s)
{
	task_set_init(s);
	add_task(s, ARN("a"), "RUNNING", FS_T0 - 3600000, FS_T0 - 3500000, "HEALTHY");
	add_task(s, ARN("b"), "RUNNING", FS_T0 - 3599000, FS_T0 - 3500000, "HEALTHY");
	add_task(s, ARN("c"), "RUNNING", FS_T0, FS_T0 + 25000, "HEALTHY");
	add_task(s, ARN("d"), "PENDING", FS_T0 + 2000, TS_NONE, NULL);
	add_task(s, ARN("e"), "PENDING", FS_T0 + 3000, TS_NONE, NULL);
}

Test(watch_status, without_service_counts_the_newest_burst_not_an_hour_old_task)
{
	struct task_set s;
	struct watch_progress p;
	char line[200];

	old_and_new(&s);
	watch_progress_of(&s, TS_NONE, -1, FS_T0 + 65000, &p);
	watch_progress_text(&p, line, sizeof line);
	cr_assert_eq(p.start_ms, FS_T0, "counted from the scale-out, not the hour-old createdAt");
	cr_assert_str_eq(line, "scale-out +1m05s: 1 of 3 running");
	task_set_cleanup(&s);
}

Test(watch_status, with_service_n_of_desired_and_healthy_since_the_deployment)
{
	struct task_set s;
	struct watch_progress p;
	char line[200];

	old_and_new(&s);
	/* the deployment started 2 s before the first new task; the old ones are not its */
	watch_progress_of(&s, FS_T0 - 2000, 3, FS_T0 + 63000, &p);
	watch_progress_text(&p, line, sizeof line);
	cr_assert_str_eq(line, "deployment +1m05s: 1 of 3 running / 1 healthy");
	task_set_cleanup(&s);
}

Test(watch_status, done_freezes_the_time_and_names_failures)
{
	struct task_set s;
	struct watch_progress p;
	struct task t;
	char line[200];

	task_set_init(&s);
	add_task(&s, ARN("a"), "RUNNING", FS_T0, FS_T0 + 20000, NULL);
	add_task(&s, ARN("b"), "RUNNING", FS_T0 + 1000, FS_T0 + 45000, NULL);
	fs_failed_task(&t, true);
	task_set_take(&s, &t);
	/* a clock behind the server's: now is the newest time ECS showed */
	watch_progress_of(&s, TS_NONE, -1, FS_T0 - 999999, &p);
	watch_progress_text(&p, line, sizeof line);
	cr_assert_str_eq(line, "scale-out: 2 of 3 running, the last after 45.0s, 1 failed");
	watch_progress_of(&s, FS_T0 - 5000, 2, FS_T0 + 99000, &p);
	watch_progress_text(&p, line, sizeof line);
	cr_assert_str_eq(line, "deployment: 2 of 2 running / 0 healthy, all after 50.0s, "
			 "1 failed");
	task_set_cleanup(&s);
}
