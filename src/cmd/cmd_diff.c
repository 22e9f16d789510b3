/* cmd_diff: `ecsprof diff`: two windows of saved tasks (two files, --baseline-file and
 * the new window's files, or one history cut by --split) compared by the model (diff.h),
 * shown by the UI on a terminal (tui_diff.h) or written through the sink, then the
 * --fail-on gates: exit 3 with one line per gate crossed, naming the phase, the figures
 * and the likely cause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/diff.h"
#include "ecsprof/diffhtml.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/sink.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui_diff.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "select_why.h"

#define DIFF_EXIT_GATE 3

static int
read_files(const struct log *lg, const char *const *paths, size_t n, struct task_set *set,
	   struct err *err)
{
	struct input_stats st = { 0 };
	struct input_options io = { .log = lg };

	for (size_t i = 0; i < n; i++)
		if (input_read_file_with(paths[i], &io, set, &st, err) != 0)
			return -1;
	log_info(lg, "read %zu task states from %zu file%s: %zu tasks", st.tasks, n, n == 1 ? "" : "s",
		 set->len);
	return 0;
}

/* The SELECT options and --soci-if on one set (app_select, app_soci: as report). */
static int
prepare(const struct cli_opts *o, struct task_set *set, struct err *err)
{
	if (app_select(o, set, err) != 0)
		return -1;
	return app_soci(o, set, err);
}

/* --split WHEN|deployment: the instant the history is cut at, checked against it. */
static int
split_at(const struct cli_opts *o, const struct task_set *set, int64_t *cut, struct err *err)
{
	int64_t first, last;
	char a[TIMEUTIL_ISO_LEN], b[TIMEUTIL_ISO_LEN], c[TIMEUTIL_ISO_LEN];

	if (diff_history_span(set, &first, &last) != 0)
		return err_set(err, ERR_PARSE, "--split: no task in the history has a createdAt");
	if (strcasecmp(o->split, "deployment") == 0) {
		const char *id;
		size_t n;

		*cut = diff_newest_deployment(set, &id, &n);
		if (*cut == TS_NONE || n < 2)
			return err_set(err, ERR_PARSE,
				       "--split deployment: the history has %zu deployment%s (startedBy ecs-svc/...): nothing to compare the newest with; use --split WHEN",
				       n, n == 1 ? "" : "s");
		timeutil_format_iso(*cut, c);
		log_info(o->log, "--split deployment: %s, first task created %s", id, c);
	} else if (timeutil_parse_since(o->split, last, cut) != 0) {
		return err_set(err, ERR_USAGE,
			       "--split: '%s' is neither 'deployment', a duration (30m, 2h, 1d: back from the newest task) nor a time (2026-11-30, 2026-11-30T14:03, ISO 8601)",
			       o->split);
	}
	timeutil_format_iso(first, a);
	timeutil_format_iso(last, b);
	timeutil_format_iso(*cut, c);
	if (*cut <= first || *cut > last)
		return err_set(err, ERR_PARSE,
			       "--split %s: %s is outside the history (tasks created %s to %s): one window would be empty",
			       o->split, c, a, b);
	return 0;
}

struct table_out {
	FILE *f;
	int width;
	const struct diff *d;
};

/* A line of the table, wrapped at the width at spaces, the continuations indented under
 * the text (a digest or an image reference stays whole). */
static void
table_line(void *ctx, const char *line)
{
	const struct table_out *t = ctx;
	int indent = (int)strspn(line, " ") + 2;
	const char *p = line;
	bool first = true;

	do {
		size_t next, n = utf8_line_break(p, t->width - (first ? 0 : indent), false, NULL,
						 &next);

		fprintf(t->f, "%*s%.*s\n", first ? 0 : indent, "", (int)n, p);
		p += next;
		first = false;
	} while (*p != '\0');
}

static int
write_table(FILE *f, void *ctx, struct err *err)
{
	struct table_out *t = ctx;

	(void)err;
	t->f = f;
	diff_lines(t->d, t->width, table_line, t);
	return 0;
}

static int
write_out(const struct cli_opts *o, const struct diff *d, const struct diff_window *w,
	  struct err *err)
{
	struct sink_options so = { .width = app_terminal_width(), .time_format = o->time_format,
				    .log = o->log };
	const char *fmt = cli_format_name(o->format);   /* NULL: -o's extension, else table */
	struct row_table phases, changes;
	const struct row_table *tables[2] = { &phases, &changes };
	struct sink s;

	if (o->format == FMT_XLSX)
		return err_set(err, ERR_USAGE, "diff writes tui, table, csv, json, markdown or html");
	/* on a terminal (both ends: the UI reads keys) the UI, as report opens it */
	if (app_format(o) == FMT_TUI) {
		char title[128];

		snprintf(title, sizeof title, " ecsprof diff: baseline %zu tasks, new %zu tasks",
			 d->base_n, d->new_n);
		return tui_diff_run(d, title, o->no_color, err);
	}
	if (sink_open(&s, o->output, fmt, &so, err) != 0)
		return -1;
	diff_phase_table(d, &phases);
	diff_change_table(d, &changes);
	if (s.format->id == SINK_TABLE) {
		struct table_out t = { NULL, s.o.width > 20 ? s.o.width : 100, d };

		if (sink_write_custom(&s, write_table, &t, err) != 0)
			goto fail;
	} else if (s.format->id == SINK_HTML) {
		struct diff_html h = { d, &w[0], &w[1], "ecsprof diff", &s };

		if (sink_write_custom(&s, diffhtml_write, &h, err) != 0)
			goto fail;
	} else if (sink_write(&s, tables, s.format->id == SINK_CSV ? 1 : 2, err) != 0) {
		goto fail;   /* CSV: one table, the contract's phase rows */
	}
	return sink_commit(&s, err);
fail:
	sink_abort(&s);
	return -1;
}

/* The windows from the command line: sets[0] the baseline's (or the one history),
 * sets[1] the new window's. */
static int
windows(const struct cli_opts *o, struct task_set *sets, struct diff_window *w, struct err *err)
{
	if (o->split != NULL) {
		int64_t cut;
		size_t undated;

		if (read_files(o->log, o->files.v, o->files.n, &sets[0], err) != 0 ||
		    prepare(o, &sets[0], err) != 0 || split_at(o, &sets[0], &cut, err) != 0)
			return -1;
		undated = diff_window_split(&sets[0], cut, &w[0], &w[1]);
		if (undated > 0)
			log_warn(o->log, "%zu task%s without a createdAt left out: --split cuts on createdAt",
				 undated, undated == 1 ? "" : "s");
		return 0;
	}
	const char *const *base = o->baseline_files.n > 0 ? o->baseline_files.v : o->files.v;
	size_t nbase = o->baseline_files.n > 0 ? o->baseline_files.n : 1;
	const char *const *cur = o->baseline_files.n > 0 ? o->files.v : o->files.v + 1;
	size_t ncur = o->baseline_files.n > 0 ? o->files.n : 1;

	if (read_files(o->log, base, nbase, &sets[0], err) != 0 || prepare(o, &sets[0], err) != 0 ||
	    read_files(o->log, cur, ncur, &sets[1], err) != 0 || prepare(o, &sets[1], err) != 0)
		return -1;
	diff_window_all(&sets[0], &w[0]);
	diff_window_all(&sets[1], &w[1]);
	return 0;
}

int
cmd_diff(const struct cli_opts *o, struct err *err)
{
	struct diff_gate *gates = xcalloc(o->fail_on.n ? o->fail_on.n : 1, sizeof *gates);
	struct task_set sets[2];
	struct diff_window w[2] = { { NULL, 0, NULL }, { NULL, 0, NULL } };
	struct diff d;
	char **lines = NULL;
	size_t crossed = 0;
	bool built = false;
	int rc = -1;

	task_set_init(&sets[0]);
	task_set_init(&sets[1]);
	/* a wrong gate is a usage error before any file is read */
	for (size_t i = 0; i < o->fail_on.n; i++)
		if (diff_gate_parse(o->fail_on.v[i], &gates[i], err) != 0)
			goto out;
	if (windows(o, sets, w, err) != 0)
		goto out;
	for (int i = 0; i < 2; i++)
		if (w[i].n == 0) {
			err_set(err, ERR_PARSE, "the %s window has no task%s", i == 0 ? "baseline" : "new",
				o->split != NULL ? "" : " (after the SELECT options, if any)");
			goto out;
		}
	if (diff_build(&d, &w[0], &w[1], err) != 0)
		goto out;
	built = true;
	/* the gates first: one that cannot be judged (no data) fails before any output */
	lines = xcalloc(o->fail_on.n ? o->fail_on.n : 1, sizeof *lines);
	for (size_t i = 0; i < o->fail_on.n; i++) {
		char line[1024];
		int r = diff_gate_check(&d, &gates[i], line, sizeof line, err);

		if (r < 0)
			goto out;
		if (r > 0)
			lines[crossed++] = xstrdup(line);
	}
	if (write_out(o, &d, w, err) != 0)
		goto out;
	for (size_t i = 0; i < crossed; i++)
		fprintf(stderr, "%s\n", lines[i]);
	rc = crossed > 0 ? DIFF_EXIT_GATE : 0;
out:
	if (built)
		diff_cleanup(&d);
	diff_window_free(&w[0]);
	diff_window_free(&w[1]);
	task_set_cleanup(&sets[0]);
	task_set_cleanup(&sets[1]);
	for (size_t i = 0; i < crossed; i++)
		free(lines[i]);
	free(lines);
	free(gates);
	return rc;
}
