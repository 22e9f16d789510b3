/* experiment_run: launching and waiting for `ecsprof experiment`. Every task RunTask
 * starts is written to the recording before anything else happens, so that a run killed at
 * any point leaves a journal `--cleanup ID` can read; and every way out (the end, Ctrl-C,
 * SIGTERM, SIGHUP: the terminal closed; experiment_signal.c) goes through xrun_stop_all()
 * (experiment_stop.c). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "experiment_int.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/buf.h"
#include "ecsprof/health.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* ---- the journal --------------------------------------------------------------------- */

int
xrun_journal(const struct xrun *x, char *const *raw, const int64_t *fetched_ms,
	     const int64_t *healthy_ms, const int64_t *healthy_res_ms, size_t n,
	     struct err *err)
{
	char **lines;
	size_t nlines = 0;
	int rc = -1;

	if (n == 0 || x->recording == NULL)
		return 0;
	lines = xcalloc(n, sizeof *lines);
	for (size_t i = 0; i < n; i++) {
		char *line = record_line_new(raw[i], strlen(raw[i]), x->region,
					     x->cluster ? x->cluster : "default", fetched_ms[i],
					     err);

		if (line == NULL) {
			/* a task without a readable identity cannot be merged; the run and the
			 * other tasks' lines go on (the poll has warned about it, once) */
			if (err->code != ERR_PARSE)
				goto out;
			err_clear(err);
			continue;
		}
		if (healthy_ms != NULL && healthy_ms[i] != TS_NONE)
			line = record_line_add_healthy(line, healthy_ms[i], healthy_res_ms[i]);
		lines[nlines++] = line;
	}
	rc = record_merge_file(x->o->log, x->recording, lines, nlines, NULL, NULL, err);
out:
	for (size_t i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	return rc;
}

/* ---- launching ----------------------------------------------------------------------- */

void
xrun_fill_request(const struct xrun *x, size_t arm, long count, const char *token,
		  struct ecs_tag_kv tags[2], struct ecs_run_request *req)
{
	const struct cli_experiment *e = &x->o->experiment;

	memset(req, 0, sizeof *req);
	tags[0] = (struct ecs_tag_kv){ EXP_TAG_EXPERIMENT, x->id };
	tags[1] = (struct ecs_tag_kv){ EXP_TAG_ARM, x->arms[arm].arm.name };
	req->cluster = x->cluster;
	req->taskdef = x->arms[arm].arm.taskdef;
	req->count = count;
	req->launch_type = x->launch_type;
	req->capacity_provider = e->capacity_provider;
	req->platform_version = e->platform_version;
	req->subnets = (const char *const *)x->net.subnets;
	req->nsubnets = x->net.nsubnets;
	req->security_groups = (const char *const *)x->net.security_groups;
	req->nsecurity_groups = x->net.nsecurity_groups;
	req->assign_public_ip = x->net.assign_public_ip;
	req->started_by = x->started_by;
	req->tags = tags;
	req->ntags = 2;
	req->client_token = token;
}

static void
note_failure(struct xarm *a, const char *reason)
{
	char item[96];
	size_t len = strlen(a->failures);

	snprintf(item, sizeof item, "%s%s", len ? ", " : "", reason ? reason : "unknown");
	if (strstr(a->failures, reason ? reason : "unknown") == NULL &&
	    len + strlen(item) + 1 < sizeof a->failures)
		memcpy(a->failures + len, item, strlen(item) + 1);
}

static void
add_task(struct xrun *x, const char *raw, size_t arm, int64_t at)
{
	struct input_key k;
	struct err e;

	err_clear(&e);
	if (input_peek_task(raw, strlen(raw), &k, &e) != 0)
		return;
	x->tasks = xreallocarray(x->tasks, x->ntasks + 1, sizeof *x->tasks);
	memset(&x->tasks[x->ntasks], 0, sizeof x->tasks[0]);
	x->tasks[x->ntasks].arn = k.arn;   /* taken */
	x->tasks[x->ntasks].arm = arm;
	x->tasks[x->ntasks].launched_ms = at;
	x->tasks[x->ntasks].stage = STAGE_PROVISION;
	/* it was not serving when RunTask answered */
	x->tasks[x->ntasks].not_healthy_ms = at;
	x->tasks[x->ntasks].healthy_ms = x->tasks[x->ntasks].healthy_res_ms = TS_NONE;
	x->tasks[x->ntasks].created_ms = x->tasks[x->ntasks].pull_started_ms = TS_NONE;
	x->tasks[x->ntasks].pull_stopped_ms = x->tasks[x->ntasks].started_ms = TS_NONE;
	x->ntasks++;
}

/* One planned call, with retries of the tasks that failed for capacity. */
static int
launch_call(struct xrun *x, size_t callno, struct err *err)
{
	const struct exp_call *c = &x->plan.calls[callno];
	struct xarm *a = &x->arms[c->arm];
	long left = c->count;
	int64_t backoff = XRUN_BACKOFF_MS;

	for (int attempt = 0; left > 0 && !xrun_signalled(x); attempt++) {
		struct ecs_run_request req;
		struct ecs_tag_kv tags[2];
		struct ecs_run_result res;
		char token[96];
		bool retry = true;

		/* the promise of --max-tasks, checked against what really started */
		if ((long)x->ntasks + left > x->o->experiment.max_tasks)
			return err_set(err, ERR_INTERNAL, "experiment: %zu started + %ld would pass "
				       "--max-tasks %ld", x->ntasks, left, x->o->experiment.max_tasks);
		/* clientToken: at most 64 characters */
		snprintf(token, sizeof token, "%.40s-%zu-%d", x->id, callno, attempt);
		xrun_fill_request(x, c->arm, left, token, tags, &req);
		if (ecs_run_task(x->ecs, &req, &res, err) != 0) {
			/* throttling that outlasted the client's own retries: wait, then again */
			if (err->code == ERR_THROTTLED && attempt < XRUN_RETRIES) {
				log_warn(x->o->log, "RunTask %s: %s; asking again in %lld ms", a->arm.name,
					 err->msg, (long long)backoff);
				xrun_nap(backoff);
				backoff *= 2;
				continue;
			}
			return err_prefix(err, "RunTask for arm %s (%s)", a->arm.name, a->arm.taskdef);
		}
		if (res.ntasks > 0) {
			int64_t *at = xcalloc(res.ntasks, sizeof *at);
			for (size_t i = 0; i < res.ntasks; i++) {
				at[i] = res.answered_ms;
				add_task(x, res.tasks[i], c->arm, res.answered_ms);
			}
			a->launched += (long)res.ntasks;
			left -= (long)res.ntasks;
			xrun_update_leftover(x);
			int jrc = xrun_journal(x, res.tasks, at, NULL, NULL, res.ntasks, err);
			free(at);
			if (jrc != 0) {
				ecs_run_result_cleanup(&res);
				return err_prefix(err, "the journal");
			}
		}
		for (size_t i = 0; i < res.nfailures; i++) {
			const char *r = res.failures[i].reason;
			note_failure(a, r);
			log_warn(x->o->log, "RunTask %s (%s): %s%s%s%s", a->arm.name, a->arm.taskdef,
				 r ? r : "failed", res.failures[i].detail ? " (" : "",
				 res.failures[i].detail ? res.failures[i].detail : "",
				 res.failures[i].detail ? ")" : "");
			retry = retry && ecs_failure_retryable(r);
		}
		if (left > 0 && res.nfailures == 0)
			retry = true;   /* fewer tasks and no reason: ask again */
		ecs_run_result_cleanup(&res);
		if (left == 0)
			break;
		if (!retry || attempt >= XRUN_RETRIES) {
			a->gave_up += left;
			log_warn(x->o->log, "arm %s: %ld task%s not started%s", a->arm.name, left,
				 left == 1 ? "" : "s", retry ? " after the retries" : "");
			break;
		}
		a->retried += left;
		xrun_nap(backoff);
		backoff *= 2;
	}
	return 0;
}

/* ---- waiting ------------------------------------------------------------------------- */

struct poll_ctx {
	struct xrun *x;
	char **raw;
	int64_t *at, *healthy, *healthy_res;   /* per line */
	size_t n, cap;
};

static struct xtask *
find_task(struct xrun *x, const char *arn)
{
	for (size_t i = 0; i < x->ntasks; i++)
		if (strcmp(x->tasks[i].arn, arn) == 0)
			return &x->tasks[i];
	return NULL;
}

/* healthy_at as watch observes it (health.h): the first poll that sees HEALTHY after one
 * that did not (or after RunTask answered), to within the time since that one */
static void
observe_health(struct xtask *xt, const struct task *t, int64_t at)
{
	int64_t res;

	if (xt->healthy_ms != TS_NONE || at == TS_NONE)
		return;
	if (!health_is_healthy(t)) {
		xt->not_healthy_ms = at;
		return;
	}
	res = at - xt->not_healthy_ms;
	if (task_ts(t, TS_STARTED) != TS_NONE && at - task_ts(t, TS_STARTED) < res)
		res = at - task_ts(t, TS_STARTED);
	xt->healthy_ms = at;
	xt->healthy_res_ms = res > 0 ? res : 0;
}

/* A task DescribeTasks answered that cannot be read (ERR_PARSE): skipped, its raw JSON
 * still journaled (unless its taskArn or version cannot be read), and the task polled, since the next answer may be good. Polls come
 * every --interval, so the warning is given once per task (once in all for an answer
 * without a taskArn), not once per poll. */
static void
skip_malformed(struct xrun *x, const char *json, size_t len, const struct err *why)
{
	struct input_key k;
	struct err e;
	struct xtask *xt = NULL;
	const char *msg = strncmp(why->msg, "live: ", 6) == 0 ? why->msg + 6 : why->msg;
	bool *warned = &x->malformed_warned, kept;

	x->malformed_polls++;
	err_clear(&e);
	memset(&k, 0, sizeof k);
	kept = input_peek_task(json, len, &k, &e) == 0;
	if (kept && (xt = find_task(x, k.arn)) != NULL)
		warned = &xt->malformed_warned;
	if (!*warned) {
		if (xt != NULL)
			log_warn(x->o->log, "DescribeTasks: skipped %s (%s); task %s "
				 "(arm %s) is still polled until --timeout, without another warning",
				 msg, kept ? "its raw JSON is recorded" : "not recorded: its identity "
				 "cannot be read", strrchr(xt->arn, '/') ? strrchr(xt->arn, '/') + 1 : xt->arn,
				 x->arms[xt->arm].arm.name);
		else
			log_warn(x->o->log, "DescribeTasks: skipped %s (%s; said once)", msg,
				 kept ? "its raw JSON is recorded" : "not recorded: its identity "
				 "cannot be read");
		*warned = true;
	}
	input_key_cleanup(&k);
}

static int
poll_take(void *arg, const char *json, size_t len, int64_t fetched_at_ms, struct err *err)
{
	struct poll_ctx *p = arg;
	struct task_set one;
	struct task_arn_buf ab;
	struct xtask *xt = NULL;
	struct input_options io = { .warn = log_once_warn, .warn_ctx = &p->x->warned };
	int rc = 0;

	task_set_init(&one);
	if (input_parse_task_json_with(json, len, "live", fetched_at_ms, &io, &one, err) != 0) {
		if (err->code != ERR_PARSE) {
			task_set_cleanup(&one);
			return err_prefix(err, "DescribeTasks answer");
		}
		skip_malformed(p->x, json, len, err);
		err_clear(err);
		rc = 1;
	}
	if (one.len == 1 && task_has_arn(&one.tasks[0]) &&
	    (xt = find_task(p->x, task_arn(&one.tasks[0], &ab))) != NULL) {
		const struct task *t = &one.tasks[0];

		xt->stage = task_stage(t, NULL);
		xt->created_ms = task_ts(t, TS_CREATED);
		xt->pull_started_ms = task_ts(t, TS_PULL_STARTED);
		xt->pull_stopped_ms = task_ts(t, TS_PULL_STOPPED);
		xt->started_ms = task_ts(t, TS_STARTED);
		free(xt->health);
		xt->health = xstrdup_or_null(t->prof->health_status);
		observe_health(xt, t, fetched_at_ms);
		xt->final = task_is_final(t);
		if (xt->final || task_stage_is_down(xt->stage))
			xt->done = true;
		else if (!p->x->until_healthy && xt->stage == STAGE_RUNNING)
			xt->done = true;
		else if (p->x->until_healthy && xt->health != NULL &&
			 strcmp(xt->health, "HEALTHY") == 0)
			xt->done = true;
	}
	task_set_cleanup(&one);
	if (p->n == p->cap) {   /* four arrays, one capacity: grow all to the same */
		size_t cap = p->cap;

		p->raw = xgrow(p->raw, p->n + 1, &cap, sizeof *p->raw);
		cap = p->cap;
		p->healthy = xgrow(p->healthy, p->n + 1, &cap, sizeof *p->healthy);
		cap = p->cap;
		p->healthy_res = xgrow(p->healthy_res, p->n + 1, &cap, sizeof *p->healthy_res);
		p->at = xgrow(p->at, p->n + 1, &p->cap, sizeof *p->at);
	}
	p->raw[p->n] = xstrndup(json, len);
	p->healthy[p->n] = xt != NULL ? xt->healthy_ms : TS_NONE;
	p->healthy_res[p->n] = xt != NULL ? xt->healthy_res_ms : TS_NONE;
	p->at[p->n++] = fetched_at_ms;
	return rc;
}

/* ---- the view: warnings kept while it is open, drawn under the arms and replayed on
 * standard error when it closes (nothing said during the wait is lost) ---- */

static void
view_open(struct xrun *x)
{
	struct err e;

	/* a terminal for the view; --debug streams its traces instead, and --pause reads
	 * the terminal between the arms */
	if (!isatty(STDERR_FILENO) || log_verbosity(x->o->log) >= 2 || x->o->experiment.pause ||
	    getenv("ECSPROF_EXPERIMENT_LINES") != NULL)
		return;
	err_clear(&e);
	x->view = tui_xopen(x->o->no_color, &e);
	if (x->view != NULL)
		held_log_begin(&x->held, true);
}

static void
view_close(struct xrun *x)
{
	if (x->view == NULL)
		return;
	tui_xclose(x->view);
	x->view = NULL;
	held_log_end(&x->held);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void
view_draw(struct xrun *x, int64_t t0)
{
	struct tui_xarm *arms = xcalloc(x->narms, sizeof *arms);
	struct tui_xtask *tasks = xcalloc(x->ntasks ? x->ntasks : 1, sizeof *tasks);
	int64_t *totals = xcalloc(x->ntasks ? x->ntasks : 1, sizeof *totals);
	const char *msgs[3];
	char text[3][600];
	size_t warned = held_log_warning(&x->held, SIZE_MAX, NULL, 0);
	struct tui_xstate st = { 0 };
	int64_t now = timeutil_now_ms();
	size_t k = 0;

	for (size_t a = 0; a < x->narms; a++) {
		size_t nt = 0;

		arms[a].name = x->arms[a].arm.name;
		arms[a].taskdef = x->arms[a].arm.taskdef;
		arms[a].planned = x->arms[a].planned;
		arms[a].launched = x->arms[a].launched;
		arms[a].gave_up = x->arms[a].gave_up;
		arms[a].tasks = tasks + k;
		for (size_t i = 0; i < x->ntasks; i++) {
			const struct xtask *t = &x->tasks[i];

			if (t->arm != a)
				continue;
			tasks[k++] = (struct tui_xtask){
				t->stage, t->created_ms, t->pull_started_ms, t->pull_stopped_ms,
				t->started_ms, now - t->launched_ms,
				t->health != NULL && strcmp(t->health, "HEALTHY") == 0, t->timed_out };
			arms[a].ntasks++;
			if (t->started_ms != TS_NONE && t->created_ms != TS_NONE)
				totals[nt++] = t->started_ms - t->created_ms;
		}
		/* the median as the summary takes it: the middle one, or the mean of two */
		qsort(totals, nt, sizeof *totals, cmp_i64);
		arms[a].n_total = nt;
		arms[a].p50_total_ms = nt == 0 ? TS_NONE : nt % 2 ? totals[nt / 2]
					       : (totals[nt / 2 - 1] + totals[nt / 2]) / 2;
	}
	st.id = x->id;
	st.cluster = x->cluster;
	st.until = x->until_healthy ? "HEALTHY" : "RUNNING";
	st.wait_timeout_ms = x->wait_timeout_ms;
	st.elapsed_ms = now - t0;
	st.arms = arms;
	st.narms = x->narms;
	st.stopping = x->interrupted;
	/* the last warnings (each once); more than fit: how many are held for the end */
	for (size_t i = warned > 3 ? warned - 2 : 0; i < warned; i++) {
		char w[560];

		held_log_warning(&x->held, i, w, sizeof w);
		snprintf(text[st.nmessages], sizeof text[0], "warning: %s", w);
		msgs[st.nmessages] = text[st.nmessages];
		st.nmessages++;
	}
	if (warned > 3) {
		snprintf(text[2], sizeof text[2], "... and %zu more warnings, printed when the view closes",
			 warned - 2);
		msgs[2] = msgs[1];
		msgs[1] = msgs[0];
		msgs[0] = text[2];
		st.nmessages = 3;
	}
	st.messages = msgs;
	tui_xdraw(x->view, &st);
	free(totals);
	free(tasks);
	free(arms);
}

static void
progress(struct xrun *x, int64_t t0, bool last)
{
	static const char *const words[STAGE_COUNT] = {
		"unknown", "provisioning", "pulling", "starting", "running", "stopped", "failed",
	};
	bool tty = isatty(STDERR_FILENO);
	char *prev = x->progress_prev;
	size_t prevsz = sizeof x->progress_prev;
	struct buf b;

	if (x->view != NULL) {
		view_draw(x, t0);
		return;
	}

	buf_init(&b, prevsz - 1);
	for (size_t a = 0; a < x->narms; a++) {
		size_t n[STAGE_COUNT] = { 0 }, healthy = 0, timed_out = 0;

		for (size_t i = 0; i < x->ntasks; i++)
			if (x->tasks[i].arm == a) {
				n[x->tasks[i].stage]++;
				healthy += x->tasks[i].health && strcmp(x->tasks[i].health, "HEALTHY") == 0;
				timed_out += x->tasks[i].timed_out;
			}
		buf_addf(&b, "%s%s %ld/%ld", a ? " | " : "", x->arms[a].arm.name,
			 x->arms[a].launched, x->arms[a].planned);
		for (int s = STAGE_PROVISION, first = 1; s < STAGE_COUNT; s++)
			if (n[s] > 0) {
				buf_addf(&b, "%s %zu %s", first ? ":" : "", n[s], words[s]);
				first = 0;
			}
		if (x->until_healthy && healthy > 0)
			buf_addf(&b, " (%zu healthy)", healthy);
		if (timed_out > 0)
			buf_addf(&b, " (%zu timed out)", timed_out);
	}
	if (tty) {
		fprintf(stderr, "\r\033[K[%4llds] %s%s", (long long)((timeutil_now_ms() - t0) / 1000),
			buf_str(&b), last ? "\n" : "");
	} else if (strcmp(prev, buf_str(&b)) != 0 || last) {
		/* piped: a line when something changed, without the clock that always does */
		if (strcmp(prev, buf_str(&b)) != 0)
			fprintf(stderr, "ecsprof: %s\n", buf_str(&b));
		snprintf(prev, prevsz, "%s", buf_str(&b));
	}
	fflush(stderr);
	buf_cleanup(&b);
}

/* One DescribeTasks poll of the started tasks not done yet. */
static int
poll_once(struct xrun *x, struct err *err)
{
	struct poll_ctx p = { x, NULL, NULL, NULL, NULL, 0, 0 };
	struct ecs_query q = { 0 };
	struct ecs_fetch_stats st;
	const char **arns = xcalloc(x->ntasks ? x->ntasks : 1, sizeof *arns);
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < x->ntasks; i++)
		if (!x->tasks[i].done)
			arns[n++] = x->tasks[i].arn;
	if (n == 0) {
		free(arns);
		return 0;
	}
	q.cluster = x->cluster;
	q.tasks = arns;
	q.ntasks = n;
	q.since_ms = TS_NONE;
	/* Ctrl-C cuts a poll short (a slow DescribeTasks would otherwise hold the stop of
	 * every task for the per-request timeout and its retries); what came is kept */
	q.interrupt = xrun_interrupt_flag();
	rc = ecs_fetch_tasks(x->ecs, &q, poll_take, &p, &st, err);
	if (rc != 0 && *xrun_interrupt_flag() > 0) {
		xrun_signalled(x);
		rc = 0;
	}
	if (rc == 0)
		rc = xrun_journal(x, p.raw, p.at, p.healthy, p.healthy_res, p.n, err);
	for (size_t i = 0; i < p.n; i++)
		free(p.raw[i]);
	free(p.raw);
	free(p.at);
	free(p.healthy);
	free(p.healthy_res);
	free(arns);
	return rc;
}

/* The pause between polls; with the view, redrawn every second of it so that the clock
 * and the times of the tasks still starting move on (and a resize shows at once). */
static void
wait_interval(struct xrun *x, int64_t t0)
{
	int64_t end = timeutil_now_ms() + x->interval_ms;

	if (x->view == NULL) {
		xrun_nap(x->interval_ms);
		return;
	}
	for (int64_t left = x->interval_ms; left > 0 && *xrun_interrupt_flag() == 0;
	     left = end - timeutil_now_ms()) {
		xrun_nap(left < 1000 ? left : 1000);
		if (end - timeutil_now_ms() > 0)
			view_draw(x, t0);
	}
}

static bool
all_done(const struct xrun *x, size_t upto)
{
	for (size_t i = 0; i < upto; i++)
		if (!x->tasks[i].done)
			return false;
	return true;
}

/* Polls until every started task is done, times out, or a signal comes. */
static int
wait_tasks(struct xrun *x, int64_t t0, struct err *err)
{
	while (!all_done(x, x->ntasks) && !xrun_signalled(x)) {
		int64_t now;

		if (poll_once(x, err) != 0)
			return -1;
		now = timeutil_now_ms();
		for (size_t i = 0; i < x->ntasks; i++)
			if (!x->tasks[i].done && now - x->tasks[i].launched_ms >= x->wait_timeout_ms) {
				x->tasks[i].done = x->tasks[i].timed_out = true;
				log_warn(x->o->log, "task %s (arm %s) is not %s after --timeout: left out of the "
					 "wait", strrchr(x->tasks[i].arn, '/') + 1,
					 x->arms[x->tasks[i].arm].arm.name,
					 x->until_healthy ? "HEALTHY" : "RUNNING");
			}
		progress(x, t0, false);
		if (!all_done(x, x->ntasks))
			wait_interval(x, t0);
	}
	progress(x, t0, true);
	if (x->malformed_polls > 1)
		log_info(x->o->log, "DescribeTasks: %zu task answers skipped as malformed during the wait",
			 x->malformed_polls);
	return 0;
}

static void
pause_for_enter(const struct xrun *x, size_t next_arm)
{
	char line[64];

	if (!isatty(STDIN_FILENO)) {
		log_warn(x->o->log, "--pause: standard input is not a terminal; going on with arm %s",
			 x->arms[next_arm].arm.name);
		return;
	}
	fprintf(stderr, "ecsprof: next is arm %s (%s): push what it needs (e.g. its SOCI index), "
		"then press Enter to launch it (Ctrl-C stops the experiment) ",
		x->arms[next_arm].arm.name, x->arms[next_arm].arm.taskdef);
	fflush(stderr);
	if (fgets(line, sizeof line, stdin) == NULL)
		clearerr(stdin);
}

static int
launch_and_wait(struct xrun *x, int64_t t0, struct err *err)
{
	for (size_t i = 0; i < x->plan.ncalls && !xrun_signalled(x); i++) {
		const struct exp_call *c = &x->plan.calls[i];

		if (c->wait_before) {
			if (wait_tasks(x, t0, err) != 0)
				return -1;
			if (xrun_signalled(x))
				break;
			if (x->o->experiment.pause)
				pause_for_enter(x, c->arm);
		}
		if (launch_call(x, i, err) != 0)
			return -1;
		if (x->ntasks > 0)
			progress(x, t0, false);
	}
	if (!xrun_signalled(x) && wait_tasks(x, t0, err) != 0)
		return -1;
	return 0;
}

int
xrun_launch_and_wait(struct xrun *x, struct err *err)
{
	int64_t t0 = timeutil_now_ms();
	bool viewed;
	int rc;

	view_open(x);
	viewed = x->view != NULL;
	rc = launch_and_wait(x, t0, err);
	view_close(x);
	if (viewed)   /* the view is gone with the alternate screen: its last state, in a line */
		progress(x, t0, true);
	return rc;
}

/* ---- stopping ------------------------------------------------------------------------ */

void
xrun_cleanup(struct xrun *x)
{
	log_once_cleanup(&x->warned);
	held_log_cleanup(&x->held);
	for (size_t i = 0; i < x->narms; i++) {
		exp_arm_cleanup(&x->arms[i].arm);
		ecs_taskdef_cleanup(&x->arms[i].td);
	}
	free(x->arms);
	for (size_t i = 0; i < x->ntasks; i++) {
		free(x->tasks[i].arn);
		free(x->tasks[i].health);
	}
	free(x->tasks);
	exp_plan_cleanup(&x->plan);
	exp_network_cleanup(&x->net);
	cost_prices_cleanup(&x->prices);
	live_session_free(x->session);
	memset(x, 0, sizeof *x);
}
