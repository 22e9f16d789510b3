/* app_scaleout: `report --scaleout FILE...` (app_scaleout.h): every file read once for
 * both readers (input.h's tasks, input_scaleout.h's source documents), the SELECT options
 * applied to the tasks, --since and --service to the rows, and the story written out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_scaleout.h"
#include "cmd_int.h"
#include "select_why.h"
#include "ecsprof/app.h"
#include "ecsprof/input.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/input_scaleout.h"
#include "ecsprof/log.h"
#include "ecsprof/scaleout_out.h"
#include "ecsprof/scaleout_story.h"
#include "ecsprof/sink.h"
#include "ecsprof/tui.h"

/* path's tasks and scale-out documents; what is left out is said through lg */
static int
read_one(const struct log *lg, const char *path, struct task_set *set, struct input_stats *st,
	 struct so_sources *src, size_t *docs, struct err *err)
{
	struct input_options io = { .log = lg };
	bool std = strcmp(path, "-") == 0;
	FILE *f = std ? stdin : fopen(path, "rb");
	struct buf b;
	size_t n = 0;
	int r;

	if (f == NULL)
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, err_strerror(errno));
	r = input_deploy_slurp(path, f, &b, err);
	if (!std)
		fclose(f);
	if (r == 0)
		r = input_read_mem_with(path, b.data ? b.data : "", b.len, &io, set, st, err);
	if (r == 0)
		r = input_scaleout_read_mem(lg, path, b.data ? b.data : "", b.len, src, &n, err);
	*docs += n;
	buf_cleanup(&b);
	return r;
}

/* --since as report resolves it: back from the newest time in the data */
static int
since_of(const struct cli_opts *o, const struct task_set *set, int64_t *since_ms,
	 struct err *err)
{
	int64_t now = set->len > 0 ? select_data_now(set) : TS_NONE;

	*since_ms = TS_NONE;
	if (o->since == NULL)
		return 0;
	if (now == TS_NONE)
		now = timeutil_now_ms();
	if (timeutil_parse_since(o->since, now, since_ms) != 0)
		return err_set(err, ERR_USAGE, "--since: '%s' is neither a duration (30m, 2h, 1d) "
			       "nor a time (2026-11-30, 2026-11-30T14:03, ISO 8601)", o->since);
	return 0;
}

/* --service narrows the rows too */
static void
keep_services(const struct cli_opts *o, struct so_story *st)
{
	size_t j = 0;

	for (size_t i = 0; i < st->n; i++) {
		bool keep = o->services.n == 0;

		for (size_t k = 0; k < o->services.n && !keep; k++)
			keep = strcmp(st->rows[i].service, o->services.v[k]) == 0;
		if (keep) {
			st->rows[j++] = st->rows[i];
		} else {
			free(st->rows[i].tasks);
			free(st->rows[i].advice);
		}
	}
	st->n = j;
}

/* --format as the sink names it; NULL (auto): from -o's extension, else the table */
static const char *
format_name(enum cli_format f)
{
	static const char *const names[] = {
		[FMT_AUTO] = NULL, [FMT_TUI] = "table", [FMT_TABLE] = "table", [FMT_CSV] = "csv",
		[FMT_JSON] = "json", [FMT_HTML] = "html", [FMT_XLSX] = "xlsx",
	};

	return (size_t)f < sizeof names / sizeof names[0] ? names[f] : NULL;
}

/* Through the sink: the table is the stage bars (scaleout_out.c), every other format the
 * sink's own writer over the contract's columns */
static int
write_story(const struct cli_opts *o, const struct so_story *st, struct err *err)
{
	struct sink_options so = { .width = 0, .time_format = o->time_format, .log = o->log };
	struct sink s;
	int rc;

	if (sink_open(&s, o->output, format_name(o->format), &so, err) != 0)
		return -1;
	if (s.format->id == SINK_XLSX && s.to_stdout && isatty(fileno(s.f))) {
		rc = err_set(err, ERR_USAGE, "--format xlsx writes a binary workbook: give -o "
			     "FILE.xlsx or redirect stdout to a file");
	} else if (s.format->id == SINK_TABLE || s.format->id == SINK_HTML ||
		   s.format->id == SINK_XLSX) {
		struct scaleout_out ctx = { st, s.o.width };

		rc = sink_write_custom(&s, s.format->id == SINK_TABLE ? scaleout_out_table :
				       s.format->id == SINK_HTML ? scaleout_out_html :
				       scaleout_out_xlsx, &ctx, err);
	} else {
		struct row_table t;
		const struct row_table *tables[1] = { &t };

		so_story_table(st, &t);
		rc = sink_write(&s, tables, 1, err);
	}
	if (rc != 0) {
		sink_abort(&s);
		return -1;
	}
	return sink_commit(&s, err);
}

/* The scale-out view's per-scale-out summary (tui_source.scaleout_report): one row's tasks
 * copied into a set of their own and reported with the command's options; the last one is
 * kept until the next call */
struct story_view {
	const struct cli_opts *o;
	const struct so_story *st;
	struct task_set set;
	struct report r;
	bool built;
};

static void
story_view_drop(struct story_view *sv)
{
	if (sv->built) {
		report_cleanup(&sv->r);
		task_set_cleanup(&sv->set);
		sv->built = false;
	}
}

static const struct report *
story_view_report(struct tui_source *src, long row, struct err *err)
{
	struct story_view *sv = src->ctx;
	const struct so_row *r;

	story_view_drop(sv);
	if (row < 0 || (size_t)row >= sv->st->n)
		return NULL;
	r = &sv->st->rows[row];
	task_set_init(&sv->set);
	for (size_t i = 0; i < r->ntasks; i++) {
		struct task t;

		task_copy(&t, r->tasks[i]);
		task_set_take(&sv->set, &t);
	}
	if (app_report_of(sv->o, &sv->set, &sv->r, err) != 0) {
		task_set_cleanup(&sv->set);
		return NULL;
	}
	sv->built = true;
	return &sv->r;
}

/* On a terminal: the scale-out view (tui_scaleout.c), its tasks a report of the set the
 * story borrows, so that Enter shows a scale-out's tasks in the task table */
static int
show_story(const struct cli_opts *o, const struct so_story *st, struct task_set *set,
	   struct err *err)
{
	struct story_view sv = { .o = o, .st = st };
	struct tui_source src = { .title = "scale-outs", .scaleouts = st,
				  .scaleout_report = story_view_report, .ctx = &sv };
	struct tui_options to;
	struct report r;
	int rc;

	if (app_tui_options(o, &to, err) != 0 || app_build_report(o, set, &r, err) != 0)
		return -1;
	src.report = &r;
	rc = tui_run(&src, &to, err);
	story_view_drop(&sv);
	report_cleanup(&r);
	return rc;
}

int
app_scaleout_tell(const struct cli_opts *o, const struct so_sources *src, struct task_set *set,
		  struct err *err)
{
	struct so_story story;
	int64_t since_ms;
	int rc;

	if (since_of(o, set, &since_ms, err) != 0 || app_select(o, set, err) != 0)
		return -1;
	so_story_build(src, set, since_ms, &story);
	keep_services(o, &story);
	if (app_format(o) == FMT_TUI)
		rc = show_story(o, &story, set, err);
	else
		rc = write_story(o, &story, err);
	so_story_cleanup(&story);
	return rc;
}

int
app_scaleout_report(const struct cli_opts *o, struct err *err)
{
	struct so_sources src;
	struct task_set set;
	struct input_stats st = { 0 };
	size_t docs = 0;
	int rc = -1;

	so_sources_init(&src);
	task_set_init(&set);
	for (size_t i = 0; i < o->files.n; i++)
		if (read_one(o->log, o->files.v[i], &set, &st, &src, &docs, err) != 0)
			goto out;
	log_info(o->log, "read %zu task states and %zu scale-out source documents: %zu tasks",
		 st.tasks, docs, set.len);
	rc = app_scaleout_tell(o, &src, &set, err);
out:
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
	return rc;
}
