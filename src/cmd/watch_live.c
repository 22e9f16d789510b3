/* watch_live: `ecsprof watch` over a live session: the watch_source (watch.h) that polls
 * ECS (live.h), holds the log while the screen is up, records each poll (--record) and
 * builds each poll's report; the poll loop itself is watch.c's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_int.h"
#include "held_log.h"
#include "ecsprof/app.h"
#include "ecsprof/input.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/scaleout_live.h"
#include "ecsprof/sink.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/watch.h"
#include "ecsprof/xalloc.h"

/* ---- the command: watch over a live session ---- */

struct wlive {
	const struct cli_opts *o;
	struct live_session *session;
	struct live_result last;       /* the last poll that succeeded */
	bool have_last;
	struct live_result next;       /* the poll in progress */
	const struct task_set *prev;   /* the last poll's tasks (watch_source.previous) */
	struct live_job *job;          /* a poll behind the terminal UI, NULL when none */
	size_t fetches;
	bool skew_said;                /* the phases that end before they begin: said once */
	struct held_log held;          /* the log while the screen is up */
	struct cli_opts vo;            /* the options, with held's log passed down (o) */
	/* --record --service: the scale-out's documents (scaleout_live.h) */
	struct scaleout_health_watch *health;   /* target health at each poll; NULL before */
	char **so_names;               /* each service's desired count when its documents */
	long *so_desired;              /* were last fetched */
	size_t so_n;
	int64_t started_ms;            /* when the watch began */
};

static size_t
wlive_warnings(void *ctx, size_t i, char *out, size_t size)
{
	struct wlive *w = ctx;

	return held_log_warning(&w->held, i, out, size);
}

static void
wlive_previous(void *ctx, const struct task_set *prev)
{
	struct wlive *w = ctx;

	w->prev = prev;
}

/* The next poll's live_result, fresh: services, the raw tasks for --record, what to
 * reuse. The last poll's stays what the screen (desired) reads until this one is in. */
static void
wlive_reset(struct wlive *w)
{
	live_result_cleanup(&w->next);
	live_result_init(&w->next);
	w->next.keep_raw = w->o->record != NULL;
	w->next.want_services = true;
	w->next.reuse_from = w->prev;
}

/* A poll is in: it becomes the last one; what it cost, and where the scale-out began. */
static void
wlive_fetched(struct wlive *w, int64_t *start)
{
	const struct ecs_service_list *sl;

	if (w->have_last)
		live_result_cleanup(&w->last);
	w->last = w->next;
	w->have_last = true;
	live_result_init(&w->next);

	/* what a poll costs (a steady service: its ListTasks pages, nothing described) */
	log_info(w->o->log, "watch: poll %zu: %zu requests (%zu ListTasks pages, %zu DescribeTasks); %zu "
		 "tasks described, %zu unchanged since the last poll", ++w->fetches,
		 w->last.requests, w->last.stats.pages, w->last.stats.describe_calls,
		 w->last.stats.described, w->last.stats.reused);
	/* the scale-out began with the newest deployment of the watched services */
	*start = TS_NONE;
	sl = &w->last.services;
	for (size_t i = 0; i < sl->n; i++)
		for (size_t j = 0; j < sl->v[i].ndeployments; j++) {
			int64_t c = sl->v[i].deployments[j].created_ms;
			if (c != TS_NONE && (*start == TS_NONE || c > *start))
				*start = c;
		}
}

static int
wlive_fetch(void *ctx, struct task_set *out, int64_t *start, struct err *err)
{
	struct wlive *w = ctx;

	wlive_reset(w);
	if (live_session_fetch(w->session, out, &w->next, err) != 0)
		return -1;
	wlive_fetched(w, start);
	return 0;
}

/* The polls the terminal UI makes behind the screen (live.h's job). */
static int
wlive_fetch_start(void *ctx, struct task_set *out, struct err *err)
{
	struct wlive *w = ctx;

	wlive_reset(w);
	return live_session_fetch_start(w->session, out, &w->next, &w->job, err);
}

static int
wlive_fetch_poll(void *ctx, int64_t wait_ms, int64_t *start, struct err *err)
{
	struct wlive *w = ctx;
	int rc = live_job_poll(w->job, wait_ms, err);

	if (rc == 1)
		return 1;
	live_job_free(w->job);
	w->job = NULL;
	if (rc == 0)
		wlive_fetched(w, start);
	return rc;
}

static void
wlive_fetch_progress(void *ctx, char *out, size_t size)
{
	struct wlive *w = ctx;
	struct live_progress p;
	char a[32], b[32], c[32], d[32];

	if (w->job == NULL) {
		snprintf(out, size, "polling ...");
		return;
	}
	live_job_progress(w->job, &p);
	if (p.images)
		snprintf(out, size, "polling: %s tasks in; image facts from ECR: %s of %s ...  "
			 "(the last poll's tasks meanwhile)",
			 app_grouped(p.tasks.kept + p.tasks.reused, a),
			 app_grouped(p.images_done, b), app_grouped(p.images_wanted, c));
	else
		snprintf(out, size, "polling: %s tasks listed%s (%s pages), %s described, %s "
			 "unchanged ...  (the last poll's tasks meanwhile)",
			 app_grouped(p.tasks.listed, a), p.tasks.listed_all ? "" : " so far",
			 app_grouped(p.tasks.pages, b), app_grouped(p.tasks.described, c),
			 app_grouped(p.tasks.reused, d));
}

static void
wlive_fetch_cancel(void *ctx)
{
	struct wlive *w = ctx;

	if (w->job == NULL)
		return;
	live_job_cancel(w->job);
	live_job_free(w->job);
	w->job = NULL;
}

/* the services' desiredCount, as the last DescribeServices said */
static long
wlive_desired(void *ctx)
{
	const struct wlive *w = ctx;
	long sum = 0;

	if (!w->have_last || w->last.services.n == 0)
		return -1;
	for (size_t i = 0; i < w->last.services.n; i++)
		if (w->last.services.v[i].desired > 0)
			sum += w->last.services.v[i].desired;
	return sum;
}

static int
wlive_build(void *ctx, struct task_set *set, struct report *out, struct err *err)
{
	struct wlive *w = ctx;

	if (app_select(w->o, set, err) != 0 || app_report_of(w->o, set, out, err) != 0)
		return -1;
	/* every poll meets the same skewed tasks again: once per run */
	if (out->negative_phases > 0 && !w->skew_said) {
		app_warn_skew(w->o->log, out);
		w->skew_said = true;
	}
	return 0;
}

/* Whether service svc's scale-out documents are to be fetched at this poll: at its first,
 * and whenever its desired count moved since they were (a scale-out's activity and alarm
 * history exist from then on) */
static bool
so_due(struct wlive *w, const struct ecs_service *svc)
{
	for (size_t i = 0; i < w->so_n; i++) {
		if (strcmp(w->so_names[i], svc->name) != 0)
			continue;
		if (w->so_desired[i] == svc->desired)
			return false;
		w->so_desired[i] = svc->desired;
		return true;
	}
	w->so_names = xreallocarray(w->so_names, w->so_n + 1, sizeof *w->so_names);
	w->so_desired = xreallocarray(w->so_desired, w->so_n + 1, sizeof *w->so_desired);
	w->so_names[w->so_n] = xstrdup(svc->name);
	w->so_desired[w->so_n++] = svc->desired;
	return true;
}

/* --record --service: the lines of the scale-out documents of this poll (the whole set
 * when due, and the target health that changed, observed now); a source that fails is
 * named (scaleout_live.h) and the watch goes on */
static int
so_lines(struct wlive *w, char ***lines, size_t *n, struct err *err)
{
	int64_t since = w->started_ms - (int64_t)3600 * 1000;

	if (w->o->since != NULL &&
	    timeutil_parse_since(w->o->since, w->started_ms, &since) != 0)
		since = TS_NONE;
	if (w->health == NULL)
		w->health = scaleout_health_watch_new(w->session);
	for (size_t i = 0; i < w->last.services.n; i++) {
		const struct ecs_service *svc = &w->last.services.v[i];
		struct scaleout_live_docs d = { 0 };
		struct err e;
		int rc = 0;

		err_clear(&e);
		if (so_due(w, svc) &&
		    scaleout_live_fetch(w->session, w->last.cluster, svc->name, since, &d, &e) != 0)
			log_warn(w->o->log, "watch --record: no scale-out documents of %s: %s", svc->name,
				 e.msg);
		d.fetched_at_ms = timeutil_now_ms();
		scaleout_health_watch_poll(w->health, svc->raw_json, &d);
		for (size_t k = 0; k < d.n && rc == 0; k++)
			rc = record_scaleout_lines(d.v[k], strlen(d.v[k]), w->last.region,
						   w->last.cluster, svc->name, d.fetched_at_ms,
						   lines, n, err);
		scaleout_live_docs_cleanup(&d);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int
wlive_record(void *ctx, const struct task_set *set, struct err *err)
{
	struct wlive *w = ctx;
	char **lines;
	struct input_key *keys;   /* lines[i]'s key, read back when it was made */
	size_t n = 0, nkeys;
	int rc = 0;

	nkeys = w->last.nraw ? w->last.nraw : 1;
	lines = xcalloc(nkeys, sizeof *lines);
	keys = xcalloc(nkeys, sizeof *keys);
	for (size_t i = 0; i < w->last.nraw; i++) {
		const struct live_raw_task *raw = &w->last.raw[i];
		const struct task *t;

		lines[n] = record_line_new_key(raw->json, raw->len, w->last.region,
					       w->last.cluster, raw->fetched_at_ms, &keys[n], err);
		if (lines[n] == NULL) {
			rc = -1;
			break;
		}
		/* what the polls saw of its health goes with it (record.h) */
		t = task_set_find((struct task_set *)set, keys[n].arn);
		if (t != NULL && t->healthy_observed && task_ts(t, TS_HEALTHY) != TS_NONE)
			lines[n] = record_line_add_healthy(lines[n], task_ts(t, TS_HEALTHY),
							   t->healthy_resolution_ms);
		n++;
	}
	/* --service: the deployments and events DescribeServices gave (record.h); their
	 * lines have no key yet, the merge reads them */
	for (size_t i = 0; rc == 0 && i < w->last.services.n; i++)
		record_service_lines(w->last.services.v[i].raw_json, w->last.region,
				     w->last.cluster, timeutil_now_ms(), &lines, &n);
	if (rc == 0 && w->o->services.n > 0 && so_lines(w, &lines, &n, err) != 0)
		rc = -1;
	if (n > nkeys) {
		keys = xreallocarray(keys, n, sizeof *keys);
		memset(keys + nkeys, 0, (n - nkeys) * sizeof *keys);
		nkeys = n;
	}
	if (rc == 0 && n > 0 &&
	    record_merge_keyed(w->o->log, w->o->record, lines, keys, n, NULL, NULL, err) != 0)
		rc = err_prefix(err, "--record %s", w->o->record);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	for (size_t i = 0; i < nkeys; i++)
		input_key_cleanup(&keys[i]);
	free(keys);
	return rc;
}

int
watch_main(const struct cli_opts *o, struct err *err)
{
	struct wlive w = { .o = o, .started_ms = timeutil_now_ms() };   /* w.next zeroed:
									 * live_result_init's state */
	struct watch_source src = { .fetch = wlive_fetch, .build = wlive_build, .ctx = &w,
				    .desired = wlive_desired, .previous = wlive_previous,
				    .fetch_start = wlive_fetch_start,
				    .fetch_poll = wlive_fetch_poll,
				    .fetch_progress = wlive_fetch_progress,
				    .fetch_cancel = wlive_fetch_cancel };
	struct watch_options wo = { 0 };
	char title[256];
	struct sink out;
	struct sink_options so = { .time_format = o->time_format, .log = o->log };
	bool lines;
	int rc;

	if (o->record != NULL)
		src.record = wlive_record;
	wo.interval_ms = o->interval_ms;
	wo.polls = o->once;
	wo.no_color = o->no_color;
	wo.time_format = o->time_format;
	switch (o->format) {
	case FMT_AUTO:
		wo.format = o->output == NULL && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) ?
			    FMT_TUI : FMT_CSV;
		break;
	default:
		wo.format = o->format;
		break;
	}
	snprintf(title, sizeof title, "watch %s%s%s", o->cluster ? o->cluster : "default",
		 o->services.n > 0 ? " / " : "", o->services.n > 0 ? o->services.v[0] : "");
	wo.title = title;
	lines = wo.format != FMT_TUI;
	/* FILE itself is not touched before the first line (sink_publish) */
	if (lines && sink_open(&out, o->output, cli_format_name(wo.format), &so, err) != 0)
		return -1;
	wo.sink = lines ? &out : NULL;
	/* what runs from here on logs through the held log (straight to stderr until the
	 * screen is up) */
	held_log_init(&w.held, o->log);
	w.vo = *o;
	w.vo.log = &w.held.log;
	o = w.o = &w.vo;
	wo.log = o->log;
	struct live_options lo = app_live_options(o);
	/* nothing writes over the screen: the log is held from before the session's threads
	 * start until they are gone, and shown on the status line meanwhile */
	if (wo.format == FMT_TUI) {
		held_log_begin(&w.held, isatty(STDERR_FILENO));
		src.warnings = wlive_warnings;
	}
	if (live_session_new(&lo, &w.session, err) != 0) {
		if (wo.format == FMT_TUI)
			held_log_end(&w.held);
		held_log_cleanup(&w.held);
		if (lines)
			sink_abort(&out);
		return -1;
	}
	live_session_set_interrupt(w.session, watch_interrupted());
	/* the first poll comes before the screen (watch_run): say what it waits for, rather
	 * than a silent terminal on a large cluster; the later ones run behind the screen */
	if (wo.format == FMT_TUI && isatty(STDERR_FILENO))
		fprintf(stderr, "ecsprof: watch: the first poll of cluster %s ...\n",
			o->cluster ? o->cluster : "default");
	rc = watch_run(&src, &wo, err);
	scaleout_health_watch_free(w.health);
	for (size_t i = 0; i < w.so_n; i++)
		free(w.so_names[i]);
	free(w.so_names);
	free(w.so_desired);
	live_session_free(w.session);
	if (wo.format == FMT_TUI)
		held_log_end(&w.held);
	held_log_cleanup(&w.held);
	if (w.have_last)
		live_result_cleanup(&w.last);
	live_result_cleanup(&w.next);
	if (lines) {
		/* lines already written are kept, even when a later poll failed; a watch that
		 * never had a line leaves FILE as it was */
		if (sink_published(&out)) {
			if (sink_commit(&out, rc == 0 ? err : &(struct err){ 0 }) != 0 && rc == 0)
				rc = -1;
		} else {
			sink_abort(&out);
		}
	}
	return rc;
}
