/* app_view: `ecsprof tasks` in the terminal UI, the fetch running behind the screen. The
 * UI (src/tui) polls this file's source from its key loop: fetch_start begins a live job
 * (live.h), fetch_poll takes what it loaded and, during the first fetch, shows the tasks
 * loaded so far (a copy, since the job's set keeps growing), fetch_progress words the
 * bottom line and fetch_cancel gives it up (q). The UI never sees JSON or HTTP; this file
 * never draws. Warnings that arrive while the screen is up are kept and printed on
 * standard error once it is closed, instead of scribbling over it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_view.h"
#include "held_log.h"
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof/report.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/xalloc.h"

/* The tasks loaded so far are shown again at most every SNAPSHOT_MS, and never more
 * often than SNAPSHOT_SHARE times what the last showing cost (a copy and a report of
 * every task so far: 50,000 tasks must not take the keys' time). */
#define SNAPSHOT_MS 300
#define SNAPSHOT_SHARE 10

/* ---- the source the UI polls ---- */

struct app_view {
	const struct cli_opts *o;
	struct live_session *session;
	struct live_job *job;          /* NULL when no fetch runs */
	struct task_set fetching;      /* the job's tasks, growing */
	struct task_set shown;         /* what the report borrows */
	struct report report;
	bool first;                    /* no fetch succeeded yet: show the tasks loaded so far */
	size_t snap_len;               /* fetching.len at the last partial report */
	int64_t snap_ms;               /* when it was made */
	int64_t snap_cost_ms;          /* what it cost */
	struct err failed;             /* the last fetch's error (code ERR_OK: none) */
	bool ok_once;
	struct held_log *log;
	char title[300];
	struct tui_source *src;
};

static const char *
cluster_name(const struct cli_opts *o)
{
	return o->cluster ? o->cluster : "default";
}

const char *
app_grouped(size_t n, char out[32])
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%zu", n), o = 0;

	for (int i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return out;
}

static size_t
view_warnings(struct tui_source *src, size_t i, char *out, size_t size)
{
	struct app_view *v = src->ctx;

	return held_log_warning(v->log, i, out, size);
}

static void
set_title(struct app_view *v, bool fetching)
{
	size_t warned = held_log_warning(v->log, SIZE_MAX, NULL, 0);
	int at;

	if (fetching && v->first)
		at = snprintf(v->title, sizeof v->title, "ecsprof tasks: cluster %s, fetching ...",
			      cluster_name(v->o));
	else
		at = snprintf(v->title, sizeof v->title, "ecsprof tasks: cluster %s, %zu tasks",
			      cluster_name(v->o), v->shown.len);
	/* the warnings wait for the screen to close: say that there are some */
	if (warned > 0 && at > 0 && (size_t)at < sizeof v->title)
		snprintf(v->title + at, sizeof v->title - (size_t)at,
			 " (%zu warning%s, printed on quitting)", warned, warned == 1 ? "" : "s");
	v->src->title = v->title;
}

/* set (owned, moved in) and its report become what the UI shows. */
static void
show(struct app_view *v, struct task_set *set, struct report *r)
{
	report_cleanup(&v->report);
	task_set_cleanup(&v->shown);
	v->shown = *set;
	v->report = *r;
	task_set_init(set);
	v->src->report = &v->report;
}

/* The first fetch: the tasks loaded so far, on screen while the rest comes. The job's
 * set grows under the job, so the report is built from a copy of it. */
static void
show_so_far(struct app_view *v)
{
	struct task_set copy;
	struct report r;
	struct err err;
	int64_t t0 = timeutil_now_ms();

	task_set_init(&copy);
	for (size_t i = 0; i < v->fetching.len; i++) {
		struct task t;

		task_copy(&t, &v->fetching.tasks[i]);
		task_set_take(&copy, &t);
	}
	err_clear(&err);
	__atomic_store_n(&v->log->mute, 1, __ATOMIC_RELAXED);
	if (app_select(v->o, &copy, &err) == 0 && app_build_report(v->o, &copy, &r, &err) == 0)
		show(v, &copy, &r);
	__atomic_store_n(&v->log->mute, 0, __ATOMIC_RELAXED);
	task_set_cleanup(&copy);
	v->snap_len = v->fetching.len;
	v->snap_ms = timeutil_now_ms();
	v->snap_cost_ms = v->snap_ms - t0;
	set_title(v, true);
}

static int
view_fetch_start(struct tui_source *src, struct err *err)
{
	struct app_view *v = src->ctx;

	task_set_init(&v->fetching);
	if (live_session_fetch_start(v->session, &v->fetching, NULL, &v->job, err) != 0) {
		task_set_cleanup(&v->fetching);
		return -1;
	}
	v->snap_len = 0;
	v->snap_ms = 0;
	v->snap_cost_ms = 0;
	set_title(v, true);
	return 0;
}

static void
job_end(struct app_view *v)
{
	live_job_free(v->job);
	v->job = NULL;
	task_set_cleanup(&v->fetching);
}

static int
view_fetch_poll(struct tui_source *src, int64_t wait_ms, bool *replaced, struct err *err)
{
	struct app_view *v = src->ctx;
	struct report r;
	int rc;

	*replaced = false;
	if (v->job == NULL)
		return 0;
	rc = live_job_poll(v->job, wait_ms, err);
	if (rc == 1) {
		int64_t since = timeutil_now_ms() - v->snap_ms;

		if (v->first && v->fetching.len != v->snap_len && since >= SNAPSHOT_MS &&
		    since >= SNAPSHOT_SHARE * v->snap_cost_ms) {
			show_so_far(v);
			*replaced = true;
		}
		return 1;
	}
	if (rc == 0 && (app_select(v->o, &v->fetching, err) != 0 ||
			app_build_report(v->o, &v->fetching, &r, err) != 0))
		rc = -1;
	if (rc < 0) {
		v->failed = *err;
		job_end(v);
		set_title(v, false);
		return -1;
	}
	show(v, &v->fetching, &r);
	job_end(v);
	v->first = false;
	v->ok_once = true;
	err_clear(&v->failed);
	set_title(v, false);
	*replaced = true;
	return 0;
}

static void
view_fetch_progress(struct tui_source *src, char *out, size_t size)
{
	struct app_view *v = src->ctx;
	struct live_progress p;
	char a[32], b[32], c[32];
	const char *what = v->first ? "fetching" : "refreshing";
	const char *keys = v->first ? "keys work on what is in; q quits"
				    : "the old tasks meanwhile; q quits";

	if (v->job == NULL) {
		snprintf(out, size, "%s ...", what);
		return;
	}
	live_job_progress(v->job, &p);
	if (p.images)
		snprintf(out, size, "%s: %s tasks in; image facts from ECR: %s of %s ...  (%s)",
			 what, app_grouped(p.tasks.kept, a), app_grouped(p.images_done, b),
			 app_grouped(p.images_wanted, c), keys);
	else if (p.tasks.listed_all)
		snprintf(out, size, "%s: %s of %s tasks ...  (%s)", what,
			 app_grouped(p.tasks.described, a), app_grouped(p.tasks.listed, b), keys);
	else if (p.tasks.pages > 0)
		snprintf(out, size, "%s: %s of %s tasks listed so far (%s pages) ...  (%s)", what,
			 app_grouped(p.tasks.described, a), app_grouped(p.tasks.listed, b),
			 app_grouped(p.tasks.pages, c), keys);
	else
		snprintf(out, size, "%s: asking ECS for the tasks of cluster %s ...  (%s)", what,
			 cluster_name(v->o), keys);
}

static void
view_fetch_cancel(struct tui_source *src)
{
	struct app_view *v = src->ctx;

	if (v->job == NULL)
		return;
	live_job_cancel(v->job);
	job_end(v);
}

int
app_view_tasks(const struct cli_opts *o, struct err *err)
{
	struct app_view v;
	struct tui_source src = { 0 };
	struct tui_options to;
	struct held_log log;
	struct cli_opts vo;            /* o, with the held log passed down */
	struct live_options lo;
	int64_t since;
	int rc = -1;

	memset(&v, 0, sizeof v);
	v.o = o;
	v.first = true;
	v.log = &log;
	v.src = &src;
	task_set_init(&v.shown);
	task_set_init(&v.fetching);
	err_clear(&v.failed);
	if (app_tui_options(o, &to, err) != 0)
		return -1;
	/* what cannot work is said before the screen opens, as the other formats do */
	if (o->since != NULL && timeutil_parse_since(o->since, timeutil_now_ms(), &since) != 0)
		return err_set(err, ERR_USAGE,
			       "--since: '%s' is neither a duration (30m, 2h, 1d) nor a time (2026-11-30, 2026-11-30T14:03, ISO 8601)",
			       o->since);
	/* before any thread of the session starts: the sink is then set without a race */
	held_log_init(&log, o->log);
	held_log_begin(&log, isatty(STDERR_FILENO));
	vo = *o;
	vo.log = &log.log;
	v.o = o = &vo;
	lo = app_live_options(o);
	if (live_session_new(&lo, &v.session, err) != 0 ||
	    app_build_report(o, &v.shown, &v.report, err) != 0)
		goto out;
	src.report = &v.report;
	src.ctx = &v;
	src.fetch_start = view_fetch_start;
	src.fetch_poll = view_fetch_poll;
	src.fetch_progress = view_fetch_progress;
	src.fetch_cancel = view_fetch_cancel;
	src.fetch_first = true;
	src.warnings = view_warnings;
	set_title(&v, true);
	rc = tui_run(&src, &to, err);
	view_fetch_cancel(&src);
	if (rc == 0 && !v.ok_once && v.failed.code != ERR_OK &&
	    strcmp(v.failed.aws_type, HTTP_CANCELLED) != 0) {
		*err = v.failed;
		rc = -1;
	}
out:
	/* the image lookups in flight are given up here (image_fetch_free); then no thread
	 * is left to log */
	live_session_free(v.session);
	held_log_end(&log);
	held_log_cleanup(&log);
	report_cleanup(&v.report);
	task_set_cleanup(&v.shown);
	return rc;
}
