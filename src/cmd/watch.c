/* watch: the poll loop of `ecsprof watch`. Each poll fetches a fresh task set and builds a
 * fresh report; the previous set is kept one poll longer so that a task's move to another
 * phase (or to RUNNING / STOPPED, for the line output) is seen by comparing the two. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "held_log.h"
#include "ecsprof/app.h"
#include "ecsprof/health.h"
#include "ecsprof/jsonout.h"
#include "ecsprof/log.h"
#include "ecsprof/report_rowtab.h"
#include "ecsprof/sink.h"
#include "ecsprof/table.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/watch.h"
#include "ecsprof/xalloc.h"

/* What a line in line mode reports: a task reaches RUNNING (it ran, even if it is already
 * on its way down), or it is done (ECS will not change it again). Read from the model's
 * task_stage(), so the lines and the screen agree on every task. */
enum wline { WL_NONE, WL_RUNNING, WL_DONE };

static enum wline
line_state(const struct task *t)
{
	enum task_stage st = task_stage(t, NULL);

	if (task_stage_is_down(st) && task_is_final(t))
		return WL_DONE;
	return st == STAGE_RUNNING || st == STAGE_STOPPED ? WL_RUNNING : WL_NONE;
}

struct watch {
	const struct watch_source *s;
	const struct watch_options *o;
	struct task_set sets[2];      /* cur and prev, swapped each poll */
	int cur;
	bool have_report;
	struct report report;
	bool *changed;                /* per task of the current set */
	int64_t scale_start_ms;
	int64_t base_ms, interval_ms;
	int64_t last_poll_ms;
	size_t polls;
	bool polling;                 /* a poll runs behind the screen (fetch_start) */
	struct tui_source tsrc;
};

static volatile sig_atomic_t watch_sigint;

static void
watch_on_sigint(int sig)
{
	(void)sig;
	watch_sigint = 1;
}

static bool
status_is(const struct task *t, const char *s)
{
	return t->prof->last_status != NULL && strcmp(t->prof->last_status, s) == 0;
}

int64_t
watch_next_interval(int64_t base_ms, int64_t current_ms, bool throttled)
{
	if (base_ms <= 0)
		base_ms = 5000;
	if (!throttled)
		return base_ms;
	if (current_ms < base_ms)
		current_ms = base_ms;
	/* doubling: ECS throttles per account and region, other tools share the bucket */
	return current_ms >= WATCH_BACKOFF_MAX_MS / 2 ? WATCH_BACKOFF_MAX_MS : current_ms * 2;
}

/* ---- line output: one line per task as it reaches RUNNING or STOPPED ---- */

struct json_line {
	const struct report *r;
	const struct report_row *row;
};

/* jsonout's task object (containers, tags and phases nested), as report -o writes it: a
 * richer line than the generic JSON Lines writer's */
static int
write_json_line(FILE *f, void *ctx, struct err *err)
{
	const struct json_line *l = ctx;

	if (jsonout_write_task_line(f, l->r, l->row) != 0 || fflush(f) != 0)
		return err_set(err, ERR_IO, "watch: cannot write the output: %s",
			       err_strerror(errno));
	return 0;
}

/* t has a healthy_at that the previous poll's state of it lacked */
static bool
p_healthy_new(const struct task_set *prev, const struct task *t)
{
	const struct task *p;

	if (prev == NULL || task_ts(t, TS_HEALTHY) == TS_NONE)
		return false;
	p = task_set_find_task((struct task_set *)prev, t);
	return p != NULL && task_ts(p, TS_HEALTHY) == TS_NONE;
}

static int
emit_lines(struct watch *w, struct sink *out, struct err *err)
{
	const struct task_set *prev = w->polls > 1 ? &w->sets[!w->cur] : NULL;
	struct report_rowtab rt;
	bool wrote = false;
	int rc = 0;

	/* the CSV line is the report's row through the sink: the bytes report -o writes */
	report_rowtab_tasks(&rt, &w->report, false);
	for (size_t i = 0; i < w->report.nrows && rc == 0; i++) {
		const struct report_row *row = &w->report.rows[i];
		const struct task *t = row->task;
		enum wline now = line_state(t), before = WL_NONE;
		if (now == WL_NONE)
			continue;
		if (prev != NULL) {
			const struct task *p = task_set_find_task((struct task_set *)prev, t);
			if (p != NULL)
				before = line_state(p);
		}
		/* a line again when it became HEALTHY (ready_s, serving_s filled) */
		if (before == now && !(p_healthy_new(prev, t)))
			continue;
		if (w->o->format == FMT_JSON)
			rc = sink_write_custom(out, write_json_line,
					       &(struct json_line){ &w->report, row }, err);
		else
			rc = sink_row(out, &rt.t, i, err);
		wrote = rc == 0;
	}
	report_rowtab_cleanup(&rt);
	/* -o FILE: FILE is replaced once there is a first line, and grows from there */
	if (rc == 0 && wrote)
		rc = sink_publish(out, err);
	return rc;
}

struct watch_table {
	const struct report *r;
	int width;
};

static int
write_table(FILE *f, void *ctx, struct err *err)
{
	const struct watch_table *t = ctx;

	return table_write_tasks(f, t->r, t->width, false, err);
}

/* --format table or markdown: the tasks of the last poll, once, when watch ends (a table
 * cannot grow line by line); the file, if any, is replaced then */
static int
emit_table(struct watch *w, struct sink *out, struct err *err)
{
	struct report_rowtab rt;
	const struct row_table *t[] = { &rt.t };
	int rc;

	if (!w->have_report)
		return 0;
	if (w->o->format == FMT_MARKDOWN) {
		report_rowtab_tasks(&rt, &w->report, true);
		rc = sink_write(out, t, 1, err);
		report_rowtab_cleanup(&rt);
	} else {
		rc = sink_write_custom(out, write_table, &(struct watch_table){
			&w->report, out->to_stdout ? app_terminal_width() : TABLE_WIDTH_DEFAULT }, err);
	}
	return rc != 0 ? -1 : sink_publish(out, err);
}

/* ---- one poll ---- */

/* The set the next poll fills (the one before last), emptied; the source told which set
 * is the last poll's. Returns it. */
static struct task_set *
poll_prepare(struct watch *w)
{
	struct task_set *set = &w->sets[!w->cur];

	task_set_cleanup(set);
	task_set_init(set);
	if (w->s->previous != NULL)
		w->s->previous(w->s->ctx, w->polls > 0 ? &w->sets[w->cur] : NULL);
	return set;
}

/* A poll's fetch is over (fetched: 0, or -1 with err): its set becomes the current one. */
static int
poll_finish(struct watch *w, int fetched, int64_t start, struct err *err)
{
	int next = !w->cur;
	struct task_set *set = &w->sets[next];
	struct report r;

	if (fetched != 0) {
		task_set_cleanup(set);
		task_set_init(set);
		w->interval_ms = watch_next_interval(w->base_ms, w->interval_ms,
						     err->code == ERR_THROTTLED);
		return -1;
	}
	w->interval_ms = watch_next_interval(w->base_ms, w->interval_ms, false);
	/* healthy_at from what this poll saw against the last one (health.h) */
	health_observe(set, w->polls > 0 ? &w->sets[w->cur] : NULL, w->last_poll_ms,
		       timeutil_now_ms());
	if (w->s->record != NULL && w->s->record(w->s->ctx, set, err) != 0)
		return -1;
	memset(&r, 0, sizeof r);
	if (w->s->build(w->s->ctx, set, &r, err) != 0)
		return -1;
	/* the new report replaces the old one only now: on failure the screen keeps the last */
	if (w->have_report)
		report_cleanup(&w->report);
	w->report = r;
	w->have_report = true;
	w->cur = next;
	w->scale_start_ms = start;
	w->polls++;
	w->last_poll_ms = timeutil_now_ms();
	free(w->changed);
	w->changed = xcalloc(set->len ? set->len : 1, sizeof *w->changed);
	if (w->polls > 1) {
		struct task_set *prev = &w->sets[!w->cur];
		for (size_t i = 0; i < set->len; i++) {
			const struct task *t = &set->tasks[i], *p;
			p = task_set_find_task(prev, t);
			w->changed[i] = p == NULL || task_stage(p, NULL) != task_stage(t, NULL);
		}
	}
	return 0;
}

static int
poll_once(struct watch *w, struct err *err)
{
	struct task_set *set = poll_prepare(w);
	int64_t start = TS_NONE;
	int fetched = w->s->fetch(w->s->ctx, set, &start, err);   /* before start is read */

	return poll_finish(w, fetched, start, err);
}

/* ---- the terminal UI source ---- */

/* --count N: after N polls the UI stops refreshing by itself and keeps the last screen
 * ('r' still polls), as line mode stops printing. */
static bool
polls_left(const struct watch *w)
{
	return w->o->polls <= 0 || w->polls < (size_t)w->o->polls;
}

static int
tui_reload(struct tui_source *src, struct err *err)
{
	struct watch *w = src->ctx;
	int rc = poll_once(w, err);

	src->report = &w->report;
	src->interval_ms = polls_left(w) ? w->interval_ms : 0;
	return rc;
}

/* A poll behind the screen (watch_source.fetch_start): the last poll's report stays on
 * screen, and the keys work, until the new one is in. */
static int
tui_fetch_start(struct tui_source *src, struct err *err)
{
	struct watch *w = src->ctx;
	struct task_set *set = poll_prepare(w);

	if (w->s->fetch_start(w->s->ctx, set, err) != 0)
		return poll_finish(w, -1, TS_NONE, err);
	w->polling = true;
	return 0;
}

static int
tui_fetch_poll(struct tui_source *src, int64_t wait_ms, bool *replaced, struct err *err)
{
	struct watch *w = src->ctx;
	int64_t start = TS_NONE;
	int rc;

	*replaced = false;
	if (!w->polling)
		return 0;
	rc = w->s->fetch_poll(w->s->ctx, wait_ms, &start, err);
	if (rc == 1)
		return 1;
	w->polling = false;
	rc = poll_finish(w, rc, start, err);
	if (rc == 0) {
		src->report = &w->report;
		*replaced = true;
	}
	src->interval_ms = polls_left(w) ? w->interval_ms : 0;
	return rc;
}

static void
tui_fetch_progress(struct tui_source *src, char *out, size_t size)
{
	struct watch *w = src->ctx;

	w->s->fetch_progress(w->s->ctx, out, size);
}

static void
tui_fetch_cancel(struct tui_source *src)
{
	struct watch *w = src->ctx;
	struct task_set *set = &w->sets[!w->cur];

	if (!w->polling)
		return;
	w->s->fetch_cancel(w->s->ctx);
	w->polling = false;
	task_set_cleanup(set);
	task_set_init(set);
}

static size_t
tui_warnings(struct tui_source *src, size_t i, char *out, size_t size)
{
	struct watch *w = src->ctx;

	return w->s->warnings(w->s->ctx, i, out, size);
}

static bool
tui_changed(struct tui_source *src, const struct task *t)
{
	struct watch *w = src->ctx;
	const struct task_set *set = &w->sets[w->cur];

	if (t < set->tasks || t >= set->tasks + set->len)
		return false;
	return w->changed[t - set->tasks];
}

/* the shared axis starts where the status line counts from: the deployment, if any */
static int64_t
tui_axis_since(struct tui_source *src)
{
	struct watch *w = src->ctx;
	long desired = w->s->desired != NULL ? w->s->desired(w->s->ctx) : -1;

	return desired >= 0 ? w->scale_start_ms : TS_NONE;
}

static void
progress_line(const struct watch *w, const struct task_set *set, char *out, size_t size)
{
	struct watch_progress p;
	long desired = w->s->desired != NULL ? w->s->desired(w->s->ctx) : -1;

	/* a deployment start without a desired count is no deployment to count against */
	watch_progress_of(set, desired >= 0 ? w->scale_start_ms : TS_NONE, desired,
			  timeutil_now_ms(), &p);
	watch_progress_text(&p, out, size);
}

static void
tui_status(struct tui_source *src, char *out, size_t size)
{
	struct watch *w = src->ctx;
	const struct task_set *set = &w->sets[w->cur];
	static const char *const names[] = {
		"PROVISIONING", "PENDING", "ACTIVATING", "RUNNING", "DEACTIVATING", "STOPPING",
		"DEPROVISIONING", "STOPPED",
	};
	size_t counts[sizeof names / sizeof names[0] + 1] = { 0 };
	size_t at = 0, healthy = 0;
	char d[160], iv[16];

	for (size_t i = 0; i < set->len; i++) {
		size_t k = sizeof names / sizeof names[0];
		for (size_t j = 0; j < sizeof names / sizeof names[0]; j++)
			if (status_is(&set->tasks[i], names[j]))
				k = j;
		counts[k]++;
	}
	/* how far the scale-out has got comes first: on 80 columns the rest may be cut */
	progress_line(w, set, d, sizeof d);
	at = (size_t)snprintf(out, size, "%s  |", d);
	for (size_t j = 0; j <= sizeof names / sizeof names[0] && at < size; j++) {
		if (counts[j] == 0)
			continue;
		int k = snprintf(out + at, size - at, " %s %zu ",
				 j < sizeof names / sizeof names[0] ? names[j] : "other", counts[j]);
		if (k < 0)
			break;
		at += (size_t)k;
	}
	/* HEALTHY now (health-checked tasks only: the others are never HEALTHY) */
	for (size_t i = 0; i < set->len; i++)
		healthy += health_is_healthy(&set->tasks[i]);
	if (healthy > 0 && at < size) {
		int k = snprintf(out + at, size - at, " HEALTHY %zu ", healthy);

		if (k > 0)
			at += (size_t)k;
	}
	timeutil_format_duration(w->interval_ms, iv, sizeof iv);
	if (at < size)
		snprintf(out + at, size - at, "| every %s%s", iv,
			 w->interval_ms > w->base_ms ? " (throttled)" : "");
}

int
watch_run(const struct watch_source *s, const struct watch_options *o, struct err *err)
{
	struct watch w;
	struct sigaction sa, old_sa;
	struct sink stdout_sink, *out = o->sink;
	bool table = o->format == FMT_TABLE || o->format == FMT_MARKDOWN;
	int rc = 0;

	memset(&w, 0, sizeof w);
	w.s = s;
	w.o = o;
	task_set_init(&w.sets[0]);
	task_set_init(&w.sets[1]);
	w.base_ms = o->interval_ms > 0 ? o->interval_ms : 5000;
	w.interval_ms = w.base_ms;

	if (o->format == FMT_TUI) {
		struct tui_options to = { .no_color = o->no_color, .sort_col = -1 };
		/* the first poll happens before the screen opens: a wrong cluster or missing
		 * credentials is one line on a normal terminal, not a flash of curses */
		if (poll_once(&w, err) != 0)
			goto out_fail;
		w.tsrc.report = &w.report;
		w.tsrc.title = o->title;
		w.tsrc.reload = tui_reload;
		if (s->fetch_start != NULL) {
			w.tsrc.fetch_start = tui_fetch_start;
			w.tsrc.fetch_poll = tui_fetch_poll;
			w.tsrc.fetch_progress = tui_fetch_progress;
			w.tsrc.fetch_cancel = tui_fetch_cancel;
		}
		w.tsrc.status = tui_status;
		if (s->warnings != NULL)
			w.tsrc.warnings = tui_warnings;
		w.tsrc.changed = tui_changed;
		w.tsrc.axis_since = tui_axis_since;
		w.tsrc.axis_latest = true;
		w.tsrc.interval_ms = polls_left(&w) ? w.interval_ms : 0;
		w.tsrc.ctx = &w;
		rc = tui_run(&w.tsrc, &to, err);
		goto out;
	}

	/* no sink given (tests): the lines go to stdout */
	if (out == NULL) {
		struct sink_options so = { .time_format = o->time_format, .log = o->log };

		if (sink_open(&stdout_sink, NULL, cli_format_name(o->format), &so, err) != 0)
			goto out_fail;
		out = &stdout_sink;
	}
	watch_sigint = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = watch_on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_sa);
	for (long attempts = 1; !watch_sigint; attempts++) {
		if (poll_once(&w, err) != 0) {
			if (watch_sigint) {
				err_clear(err);   /* Ctrl-C during a poll: stop as during a sleep */
				break;
			}
			/* throttling and network blips are expected in a long watch: keep going */
			if (err->code != ERR_THROTTLED && err->code != ERR_NETWORK) {
				rc = -1;
				break;
			}
			log_warn(o->log, "watch: %s; next poll in %.0f s", err->msg,
				 (double)w.interval_ms / 1000.0);
			err_clear(err);
		} else if (!table && emit_lines(&w, out, err) != 0) {
			rc = -1;
			break;
		}
		if (o->polls > 0 && attempts >= o->polls)
			break;
		/* sleep in slices so that Ctrl-C ends the wait at once */
		for (int64_t slept = 0; slept < w.interval_ms && !watch_sigint; slept += 100)
			timeutil_sleep_ms(w.interval_ms - slept < 100 ? w.interval_ms - slept : 100);
	}
	sigaction(SIGINT, &old_sa, NULL);
	if (table && emit_table(&w, out, rc == 0 ? err : &(struct err){ 0 }) != 0 && rc == 0)
		rc = -1;
	goto out;
out_fail:
	rc = -1;
out:
	if (w.have_report)
		report_cleanup(&w.report);
	task_set_cleanup(&w.sets[0]);
	task_set_cleanup(&w.sets[1]);
	free(w.changed);
	return rc;
}

const volatile sig_atomic_t *
watch_interrupted(void)
{
	return &watch_sigint;
}
