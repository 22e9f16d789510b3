/* app_changes: `report --changes FILE...` (app_changes.h): the files read as one history,
 * the SELECT options and --soci-if applied as report applies them, the windows diffed one
 * after another by the model (diff_changes.h), one row per change point through the sink
 * (table, CSV, JSON, Markdown). */
#include <stdlib.h>

#include "app_changes.h"
#include "ecsprof/app.h"
#include "ecsprof/diff_changes.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/sink.h"

static int
check_options(const struct cli_opts *o, enum changes_by *by, struct err *err)
{
	int b = o->changes_by != NULL ? changes_by_parse(o->changes_by) : CHANGES_DAY;

	if (b < 0)
		return err_set(err, ERR_USAGE, "--changes-by: '%s' is neither 'day' nor 'deployment'",
			       o->changes_by);
	if (o->summary || o->deployments || o->scaleout || o->group_by != NULL)
		return err_set(err, ERR_USAGE,
			       "--changes is a report of its own: not with --summary, --group-by, --deployments or --scaleout");
	if (o->format == FMT_HTML || o->format == FMT_XLSX)
		return err_set(err, ERR_USAGE, "report --changes writes table, csv, json or markdown");
	*by = (enum changes_by)b;
	return 0;
}

/* --format as the sink names it: the table for tui too (the rows are the whole story) */
static const char *
format_name(enum cli_format f)
{
	return f == FMT_TUI ? "table" : cli_format_name(f);
}

static int
write_points(const struct cli_opts *o, const struct changes *c, struct err *err)
{
	struct sink_options so = { .width = app_terminal_width(), .time_format = o->time_format,
				    .log = o->log };
	struct row_table t;
	const struct row_table *tables[1] = { &t };
	struct sink s;

	if (sink_open(&s, o->output, format_name(o->format), &so, err) != 0)
		return -1;
	if (s.format->id == SINK_HTML || s.format->id == SINK_XLSX) {
		sink_abort(&s);
		return err_set(err, ERR_USAGE, "report --changes writes table, csv, json or markdown");
	}
	changes_table(c, &t);
	if (sink_write(&s, tables, 1, err) != 0) {
		sink_abort(&s);
		return -1;
	}
	return sink_commit(&s, err);
}

int
app_changes_report(const struct cli_opts *o, struct err *err)
{
	struct task_set set;
	struct input_stats st = { 0 };
	struct changes c;
	enum changes_by by = CHANGES_DAY;
	int rc = -1;

	if (check_options(o, &by, err) != 0)
		return -1;
	struct input_options io = { .log = o->log };

	task_set_init(&set);
	for (size_t i = 0; i < o->files.n; i++)
		if (input_read_file_with(o->files.v[i], &io, &set, &st, err) != 0)
			goto out;
	log_info(o->log, "read %zu task states from %zu file%s: %zu tasks", st.tasks, o->files.n,
		 o->files.n == 1 ? "" : "s", set.len);
	if (app_select(o, &set, err) != 0 || app_soci(o, &set, err) != 0)
		goto out;
	if (changes_build(&c, &set, by, err) != 0) {
		changes_cleanup(&c);
		goto out;
	}
	rc = write_points(o, &c, err);
	changes_cleanup(&c);
out:
	task_set_cleanup(&set);
	return rc;
}
