/* bench_tui: first paint and keypress redraw of the terminal UI with many tasks, drawn
 * into memory through the script hook (no terminal needed). Prints figures, asserts none.
 *
 *   bench_tui [-n TASKS] [-k "KEYS" | -k -] [FILE...]      (-k -: interactive)
 *
 * Without FILE, TASKS synthetic tasks (default 50,000) in two task definitions, a mix of
 * RUNNING, still starting and stopped, created over ten minutes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ecsprof/group.h"
#include "ecsprof/input.h"
#include "ecsprof/report.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/xalloc.h"

static double
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void
synth(struct task_set *set, long n, int64_t now)
{
	static const char *const azs[] = { "us-east-1a", "us-east-1b", "us-east-1c" };
	unsigned seed = 12345;

	for (long i = 0; i < n; i++) {
		struct task t;
		int64_t c, prov, pull, start;

		task_init(&t);
		t.arn_tail = xasprintf("arn:aws:ecs:us-east-1:123456789012:task/bench/%08lx%024lx",
				  (unsigned long)i * 2654435761UL % 0xffffffffUL, (unsigned long)i);
		task_edit_profile(&t)->cluster_arn = xstrdup("arn:aws:ecs:us-east-1:123456789012:cluster/bench");
		task_edit_profile(&t)->taskdef_arn = xasprintf("arn:aws:ecs:us-east-1:123456789012:task-definition/web:%d",
					  i % 2 ? 7 : 8);
		task_edit_profile(&t)->group = xstrdup("service:web");
		task_edit_profile(&t)->availability_zone = xstrdup(azs[i % 3]);
		task_edit_profile(&t)->launch_type = xstrdup("FARGATE");
		seed = seed * 1103515245u + 12345u;
		c = now - 600000 + (int64_t)(seed % 590000);
		prov = 15000 + (int64_t)(seed >> 8) % 15000;
		pull = (i % 2 ? 60000 : 2000) + (int64_t)(seed >> 12) % 20000;
		start = 3000 + (int64_t)(seed >> 16) % 5000;
		task_set_ts(&t, TS_CREATED, c);
		if (c + prov < now)
			task_set_ts(&t, TS_PULL_STARTED, c + prov);
		if (c + prov + pull < now)
			task_set_ts(&t, TS_PULL_STOPPED, c + prov + pull);
		if (c + prov + pull + start < now)
			task_set_ts(&t, TS_STARTED, c + prov + pull + start);
		task_edit_profile(&t)->last_status = xstrdup(task_ts(&t, TS_STARTED) != TS_NONE ? "RUNNING" :
					task_ts(&t, TS_PULL_STARTED) != TS_NONE ? "PENDING" : "PROVISIONING");
		task_derive(&t);
		task_set_take(set, &t);
	}
}

int
main(int argc, char **argv)
{
	long n = 50000;
	const char *keys = "j j j k PgDn PgDn G g s s s I > / web:7 Enter Esc a a Enter q Tab Tab ? q q";
	struct task_set set;
	struct report r;
	struct report_options ro = { .group_by = { GK_TASKDEF, NULL }, .sort_col = -1 };
	struct err err;
	struct tui_stats st;
	int argi = 1;
	double t0, t_build;

	err_clear(&err);
	task_set_init(&set);
	while (argi < argc && argv[argi][0] == '-' && argv[argi][1] != '\0') {
		if (strcmp(argv[argi], "-n") == 0 && argi + 1 < argc) {
			char *end;
			n = strtol(argv[argi + 1], &end, 10);
			if (*end != '\0' || n < 0) {
				fprintf(stderr, "bench_tui: -n wants a count\n");
				return 2;
			}
			argi += 2;
		} else if (strcmp(argv[argi], "-k") == 0 && argi + 1 < argc) {
			keys = argv[argi + 1];
			argi += 2;
		} else {
			fprintf(stderr, "usage: bench_tui [-n TASKS] [-k KEYS] [FILE...]\n");
			return 2;
		}
	}
	if (argi < argc) {
		struct input_stats is = { 0 };
		for (; argi < argc; argi++)
			if (input_read_file(argv[argi], &set, &is, &err) != 0) {
				fprintf(stderr, "bench_tui: %s\n", err.msg);
				task_set_cleanup(&set);
				return 1;
			}
	} else {
		synth(&set, n, timeutil_now_ms());
	}
	t0 = mono_ms();
	if (report_build(&r, &set, &ro, &err) != 0) {
		fprintf(stderr, "bench_tui: %s\n", err.msg);
		task_set_cleanup(&set);
		return 1;
	}
	t_build = mono_ms() - t0;

	struct tui_source src = { .report = &r, .title = "bench" };
	/* -k - : interactive, on this terminal */
	struct tui_options to = { .sort_col = -1, .script = strcmp(keys, "-") == 0 ? NULL : keys,
				  .stats = &st };
	if (to.script != NULL && getenv("COLUMNS") == NULL)
		setenv("COLUMNS", "80", 1);
	if (to.script != NULL && getenv("LINES") == NULL)
		setenv("LINES", "24", 1);
	if (tui_run(&src, &to, &err) != 0) {
		fprintf(stderr, "bench_tui: %s\n", err.msg);
		report_cleanup(&r);
		task_set_cleanup(&set);
		return 1;
	}
	printf("tasks %zu (report_build %.1f ms, not part of the UI)\n", set.len, t_build);
	printf("first paint      %.2f ms\n", st.first_paint_ms);
	printf("keys             %zu\n", st.keys);
	printf("key redraw mean  %.2f ms\n", st.key_mean_ms);
	printf("key redraw max   %.2f ms (includes the sorts and filters asked for)\n", st.key_max_ms);
	report_cleanup(&r);
	task_set_cleanup(&set);
	return 0;
}
