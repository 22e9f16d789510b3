/* cmd_output: the steps every profiling command ends with: the SELECT filter, the report
 * built from the options (--soci-if, --group-by, --baseline, --sort, --prices), the
 * format resolved, and the report written atomically or shown in the TUI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "app_share.h"
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/cost.h"
#include "ecsprof/csv.h"
#include "ecsprof/group.h"
#include "ecsprof/jsonout.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof/report.h"
#include "ecsprof/report_rowtab.h"
#include "ecsprof/select.h"
#include "ecsprof/sink.h"
#include "ecsprof/table.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/xalloc.h"
#include "select_why.h"

/* The SELECT options on the command line as select.c's filter (since_ms: --since resolved). */
static struct select_options
select_from_cli(const struct cli_opts *o, int64_t since_ms)
{
	struct select_options so = {
		.cluster = o->cluster,
		.services = (const char *const *)o->services.v,
		.nservices = o->services.n,
		.family = o->family,
		.started_by = o->started_by,
		.status = o->status == STATUS_STOPPED ? SELECT_STOPPED
			: o->status == STATUS_RUNNING ? SELECT_RUNNING : SELECT_ALL,
		.tasks = (const char *const *)o->tasks.v,
		.ntasks = o->tasks.n,
		.since_ms = since_ms,
	};

	return so;
}

/* select_why.c tries each option alone on a copy of the options */
static bool
select_keep_opts(const struct task *t, const struct cli_opts *o, int64_t since_ms)
{
	struct select_options so = select_from_cli(o, since_ms);

	return select_keep(&so, t);
}

struct live_options
app_live_options(const struct cli_opts *o)
{
	struct live_options lo = { 0 };

	lo.profile = o->profile;
	lo.region = o->region;
	lo.endpoint_url = o->endpoint_url;
	lo.concurrency = o->concurrency;
	lo.connect_timeout_ms = o->connect_timeout_ms;
	lo.timeout_ms = o->timeout_ms;
	lo.debug = o->debug;
	lo.log = o->log;
	lo.no_images = o->no_images;
	lo.cluster = o->cluster;
	lo.services = o->services.v;
	lo.nservices = o->services.n;
	lo.family = o->family;
	lo.started_by = o->started_by;
	lo.running = o->status == STATUS_ALL || o->status == STATUS_RUNNING;
	lo.stopped = o->status == STATUS_ALL || o->status == STATUS_STOPPED;
	lo.tasks = o->tasks.v;
	lo.ntasks = o->tasks.n;
	lo.since = o->since;
	return lo;
}

int
app_select(const struct cli_opts *o, struct task_set *set, struct err *err)
{
	struct select_options so = select_from_cli(o, TS_NONE);
	/* saved data: --since 2h counts back from when the data was taken, as the TUI's
	 * "now" does, not from the wall clock (a file from last week would match nothing).
	 * Only --since needs it (select_why too): finding the newest time reads every task. */
	int64_t newest = o->since != NULL && (o->command == CMD_REPORT || o->command == CMD_DIFF) ?
			 select_data_now(set) : TS_NONE;
	bool data_time = newest != TS_NONE;
	int64_t now = data_time ? newest : o->since != NULL ? timeutil_now_ms() : TS_NONE;

	if (o->since != NULL && timeutil_parse_since(o->since, now, &so.since_ms) != 0)
		return err_set(err, ERR_USAGE,
			       "--since: '%s' is neither a duration (30m, 2h, 1d) nor a time (2026-11-30, 2026-11-30T14:03, ISO 8601)",
			       o->since);
	if (o->command == CMD_REPORT || o->command == CMD_TASKS)
		select_why(set, o, so.since_ms, now, data_time, select_keep_opts);   /* select_why.c */
	select_apply(&so, set);
	return 0;
}

static int
parse_sort(const char *spec, int *col, bool *desc, struct err *err)
{
	char name[64];
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);

	*desc = false;
	if (colon != NULL) {
		if (strcasecmp(colon + 1, "desc") == 0)
			*desc = true;
		else if (strcasecmp(colon + 1, "asc") != 0)
			return err_set(err, ERR_USAGE, "--sort: '%s': the order after ':' is asc or desc",
				       spec);
	}
	if (n >= sizeof name)
		n = sizeof name - 1;
	memcpy(name, spec, n);
	name[n] = '\0';
	*col = report_column_by_name(name);
	if (*col < 0)
		return err_set(err, ERR_USAGE,
			       "--sort: no column '%s' (use a CSV column name such as total_s, pull_s, created_at, task_id)",
			       name);
	return 0;
}

int
app_terminal_width(void)
{
	return sink_terminal_width(TABLE_WIDTH_DEFAULT);
}

enum cli_format
app_format(const struct cli_opts *o)
{
	if (o->format != FMT_AUTO)
		return o->format;
	/* --summary asks for the summary: print it, as benchstat does (--format tui opens
	 * the UI on its summary view instead) */
	if (o->summary)
		return FMT_TABLE;
	/* the UI reads keys from stdin: both ends must be a terminal */
	return o->output == NULL && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) ? FMT_TUI
										   : FMT_TABLE;
}

int
app_soci(const struct cli_opts *o, struct task_set *set, struct err *err)
{
	struct soci_rule *rules = xcalloc(o->soci_if.n ? o->soci_if.n : 1, sizeof *rules);
	size_t nrules = 0;
	int rc = -1;

	for (; nrules < o->soci_if.n; nrules++)
		if (soci_rule_parse(o->soci_if.v[nrules], &rules[nrules], err) != 0)
			goto out;   /* its message names --soci-if */
	group_apply_soci(o->log, set, rules, nrules);
	rc = 0;
out:
	for (size_t i = 0; i < nrules; i++)
		soci_rule_cleanup(&rules[i]);
	free(rules);
	return rc;
}

int
app_report_of(const struct cli_opts *o, struct task_set *set, struct report *r,
	      struct err *err)
{
	struct report_options ro = { .group_by = { GK_ALL, NULL }, .sort_col = -1 };
	struct cost_prices prices;
	int rc = -1;

	memset(r, 0, sizeof *r);
	cost_prices_init(&prices);
	if (o->sort != NULL && parse_sort(o->sort, &ro.sort_col, &ro.sort_desc, err) != 0)
		return -1;
	if (o->group_by != NULL && group_key_parse(o->group_by, &ro.group_by, err) != 0)
		return err_prefix(err, "--group-by");
	if (app_soci(o, set, err) != 0)
		goto out;
	ro.baseline = o->baseline;
	if (o->prices != NULL && cost_prices_load(&prices, o->prices, err) != 0)
		goto out;
	ro.prices = &prices;
	if (report_build(r, set, &ro, err) != 0)
		goto out;
	if (ro.sort_col >= 0)
		report_sort(r, ro.sort_col, ro.sort_desc);
	rc = 0;
out:
	cost_prices_cleanup(&prices);
	group_key_cleanup(&ro.group_by);
	return rc;
}

void
app_warn_skew(const struct log *lg, const struct report *r)
{
	size_t n = r->negative_phases;

	if (n > 0)
		log_warn(lg, "%zu phase%s before %s (clock skew in the data): shown empty, left out of the statistics",
			 n, n == 1 ? " ends" : "s end", n == 1 ? "it begins" : "they begin");
}

int
app_build_report(const struct cli_opts *o, struct task_set *set, struct report *r,
		 struct err *err)
{
	if (app_report_of(o, set, r, err) != 0)
		return -1;
	app_warn_skew(o->log, r);
	return 0;
}

/* The report in one of its rich formats (their own writers), into the sink's FILE. */
struct report_out {
	const struct cli_opts *o;
	enum cli_format fmt;
	const struct report *r;
	int width;
};

static int
report_custom(FILE *f, void *ctx, struct err *err)
{
	const struct report_out *w = ctx;
	const struct cli_opts *o = w->o;

	switch (w->fmt) {
	case FMT_CSV:
		return o->summary ? csv_write_summary(f, w->r, err)
				  : csv_write_tasks_as(f, w->r, o->time_format, err);
	case FMT_JSON:
		return o->summary ? jsonout_write_summary(f, w->r, err)
				  : jsonout_write_tasks(f, w->r, err);
	case FMT_HTML:
	case FMT_XLSX:
		return app_share_write(o, w->fmt, f, w->r, err);   /* app_share.c */
	default:
		return o->summary ? table_write_summary(f, w->r, w->width, err)
				  : table_write_tasks(f, w->r, w->width, o->verbose > 0, err);
	}
}

/* Markdown: the report's row tables (report_rowtab.h) through the sink's writer. */
static int
report_markdown(struct sink *s, const struct cli_opts *o, const struct report *r,
		struct err *err)
{
	struct report_rowtab rt;
	const struct row_table *t[] = { &rt.t };
	int rc;

	if (o->summary)
		report_rowtab_summary(&rt, r);
	else
		report_rowtab_tasks(&rt, r, true);
	rc = sink_write(s, t, 1, err);
	report_rowtab_cleanup(&rt);
	return rc;
}

int
app_sink_open(const struct cli_opts *o, enum cli_format fmt, struct sink *s,
	      const struct sink_options *so, struct err *err)
{
	struct sink_options with = so != NULL ? *so : (struct sink_options){ 0 };

	with.log = o->log;
	/* no --format: the sink infers it from -o's extension (and says when it cannot) */
	return sink_open(s, o->output, o->format == FMT_AUTO ? NULL : cli_format_name(fmt), &with,
			 err);
}

int
app_write(const struct cli_opts *o, enum cli_format fmt, const struct report *r, struct err *err)
{
	struct sink_options so = { .time_format = o->time_format, .verbose = o->verbose > 0 };
	struct report_out w = { o, fmt, r, 0 };
	struct sink s;
	int rc;

	if (app_sink_open(o, fmt, &s, &so, err) != 0)
		return -1;
	w.width = s.to_stdout ? app_terminal_width() : TABLE_WIDTH_DEFAULT;
	if (fmt == FMT_MARKDOWN)
		rc = report_markdown(&s, o, r, err);
	else
		rc = sink_write_custom(&s, report_custom, &w, err);
	return sink_finish(&s, rc, err);
}

int
app_tui_options(const struct cli_opts *o, struct tui_options *to, struct err *err)
{
	memset(to, 0, sizeof *to);
	to->no_color = o->no_color;
	to->sort_col = -1;
	to->start_summary = o->summary;
	if (o->sort != NULL && parse_sort(o->sort, &to->sort_col, &to->sort_desc, err) != 0)
		return -1;
	return 0;
}

/* Saved data in the TUI (`tasks` has its own, which fetches behind the screen:
 * app_view.c). */
static int
app_tui(const struct cli_opts *o, struct report *r, const char *title, struct err *err)
{
	struct tui_source src = { .report = r, .title = title };
	struct tui_options to;

	if (app_tui_options(o, &to, err) != 0)
		return -1;
	return tui_run(&src, &to, err);
}

int
app_output(const struct cli_opts *o, struct task_set *set, const char *title, struct err *err)
{
	enum cli_format fmt = app_format(o);
	struct report r;
	int rc;

	if (app_build_report(o, set, &r, err) != 0)
		return -1;
	if (fmt == FMT_TUI)
		rc = app_tui(o, &r, title, err);
	else
		rc = app_write(o, fmt, &r, err);
	report_cleanup(&r);
	return rc;
}
