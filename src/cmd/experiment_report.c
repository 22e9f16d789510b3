/* experiment_report: the end of `ecsprof experiment`: how each arm's launch went, the
 * summary grouped by arm (read back from the recording, so it is exactly what `ecsprof
 * report --summary --group-by tag:ecsprof:arm FILE` shows later, but for the DIAGNOSIS of
 * the experiment's own stops), and what difference this many tasks could detect. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/app.h"
#include "ecsprof/input.h"
#include "ecsprof/phase.h"
#include "ecsprof/power.h"
#include "ecsprof/report.h"
#include "ecsprof/table.h"
#include "ecsprof/xalloc.h"

static bool
keep_ours(const struct task *t, void *ctx)
{
	const char *started_by = ctx;
	return t->prof->started_by != NULL && strcmp(t->prof->started_by, started_by) == 0;
}

static const char *
arm_of(const struct task *t)
{
	const char *a = task_tag(t, EXP_TAG_ARM);
	return a != NULL ? a : "";
}

/* "CannotPullContainerError: ..." -> "CannotPullContainerError" (into out) */
static void
reason_word(const char *reason, char *out, size_t size)
{
	size_t n = reason ? strcspn(reason, ":(") : 0;

	while (n > 0 && reason[n - 1] == ' ')
		n--;
	snprintf(out, size, "%.*s", (int)(n ? n : 7), n ? reason : "unknown");
}

static void
print_launch(const struct xrun *x, const struct task_set *set, FILE *f)
{
	char own[128];

	snprintf(own, sizeof own, "ecsprof experiment %s:", x->id);
	for (size_t a = 0; a < x->narms; a++) {
		const struct xarm *arm = &x->arms[a];
		size_t running = 0, failed = 0, timed_out = 0, shown = 0;
		char reasons[256] = "";

		for (size_t i = 0; i < set->len; i++) {
			const struct task *t = &set->tasks[i];

			if (strcmp(arm_of(t), arm->arm.name) != 0)
				continue;
			if (task_ts(t, TS_STARTED) != TS_NONE) {
				running++;
			} else if (t->prof->stopped_reason != NULL &&
				   strncmp(t->prof->stopped_reason, own, strlen(own)) == 0) {
				timed_out++;   /* we stopped it before it ran */
			} else if (task_stage(t, NULL) == STAGE_FAILED) {
				char w[80];
				failed++;
				reason_word(t->prof->stopped_reason, w, sizeof w);
				if (strstr(reasons, w) == NULL && shown++ < 3)
					snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons),
						 "%s%s", *reasons ? ", " : "", w);
			}
		}
		fprintf(f, "arm %s (%s): %ld of %ld launched, %zu reached RUNNING", arm->arm.name,
			arm->arm.taskdef, arm->launched, arm->planned, running);
		if (failed > 0)
			fprintf(f, ", %zu failed to start (%s)", failed, reasons);
		if (timed_out > 0)
			fprintf(f, ", %zu stopped before RUNNING (--timeout or interrupted)", timed_out);
		if (arm->retried > 0 || arm->gave_up > 0 || arm->failures[0] != '\0')
			fprintf(f, "; RunTask failures: %s (%ld asked again, %ld never started)",
				arm->failures[0] ? arm->failures : "fewer tasks than asked",
				arm->retried, arm->gave_up);
		fprintf(f, "\n");
	}
}

static void
own_stops_quiet(const struct xrun *x, struct task_set *set)
{
	char own[128];

	snprintf(own, sizeof own, "ecsprof experiment %s:", x->id);
	for (size_t i = 0; i < set->len; i++) {
		struct task *t = &set->tasks[i];

		/* the strings are the set's pool's: dropping a pointer frees nothing */
		if (t->prof->stopped_reason != NULL &&
		    strncmp(t->prof->stopped_reason, own, strlen(own)) == 0 && t->prof->stop_code != NULL &&
		    strcmp(t->prof->stop_code, "UserInitiated") == 0) {
			task_edit_profile(t)->stopped_reason = NULL;
			task_edit_profile(t)->stop_code = NULL;
		}
	}
}

/* The seconds of phase p of each arm's tasks. */
static void
phase_values(const struct xrun *x, const struct task_set *set, enum phase_id p, double **v,
	     size_t *n)
{
	for (size_t a = 0; a < x->narms; a++) {
		v[a] = xcalloc(set->len ? set->len : 1, sizeof **v);
		n[a] = 0;
		for (size_t i = 0; i < set->len; i++) {
			int64_t ms;

			if (strcmp(arm_of(&set->tasks[i]), x->arms[a].arm.name) != 0)
				continue;
			ms = phase_ms(&set->tasks[i], p);
			if (ms != TS_NONE)
				v[a][n[a]++] = (double)ms / 1000.0;
		}
	}
}

static double
median(double *v, size_t n)
{
	struct stats_summary s;
	double *c = xcalloc(n ? n : 1, sizeof *c);

	memcpy(c, v, n * sizeof *c);
	stats_summarize(c, n, &s);
	free(c);
	return s.p50;
}

/* The width lines of the table are wrapped to, as the summary's own: $COLUMNS, else
 * the terminal's, else TABLE_WIDTH_DEFAULT; 0 = not wrapped (not a table). */
static int
words_width(enum cli_format fmt)
{
	return fmt == FMT_TABLE ? app_terminal_width() : 0;
}

/* One finished line (ending in '\n'), wrapped at width between words, the lines after
 * the first indented by 2 (width 0: as it is; a word longer than a line is not cut); the
 * buffer is emptied. ASCII text: a byte is a column. */
static void
put_line(FILE *f, struct buf *line, int width)
{
	const char *p = buf_str(line);
	int room = width;

	if (width <= 0) {
		fputs(p, f);
		buf_cleanup(line);
		return;
	}
	while (*p != '\0' && *p != '\n') {
		const char *cut = p, *w = p;

		/* the longest run of whole words that fits in room */
		while (*w != '\0' && *w != '\n') {
			const char *e = w;

			while (*e == ' ')
				e++;
			while (*e != '\0' && *e != '\n' && *e != ' ')
				e++;
			if (cut != p && e - p > room)
				break;
			cut = w = e;
		}
		fprintf(f, "%s%.*s\n", room < width ? "  " : "", (int)(cut - p), p);
		p = cut;
		while (*p == ' ')
			p++;
		room = width - 2;
	}
	buf_cleanup(line);
}

/* "what difference could this n detect" for one phase, each arm against the first. */
static void
print_power(const struct xrun *x, const struct task_set *set, enum phase_id p, FILE *out,
	    int width)
{
	struct buf line;
	struct buf *f = &line;
	double **v = xcalloc(x->narms, sizeof *v);
	size_t *n = xcalloc(x->narms, sizeof *n);
	double sd;

	phase_values(x, set, p, v, n);
	sd = power_pooled_sd((const double *const *)v, n, x->narms);
	for (size_t b = 1; b < x->narms; b++) {
		const char *ph = phase_defs[p].name;
		double d, seen;

		buf_init(&line, 0);
		if (n[0] < 2 || n[b] < 2 || !(sd > 0)) {
			buf_addf(f, "power (%s, %s vs %s): not enough data (n = %zu vs %zu) to say what "
				"difference could be detected\n", ph, x->arms[b].arm.name,
				x->arms[0].arm.name, n[b], n[0]);
			put_line(out, &line, width);
			continue;
		}
		d = power_mw_detectable(n[0], n[b], sd, POWER_ALPHA, POWER_TARGET);
		seen = fabs(median(v[b], n[b]) - median(v[0], n[0]));
		buf_addf(f, "power (%s, %s vs %s): with n = %zu vs %zu and the observed spread "
			"(pooled SD %.2f s), ", ph, x->arms[b].arm.name, x->arms[0].arm.name, n[b],
			n[0], sd);
		if (isnan(d)) {
			buf_addf(f, "no difference is detectable 80%% of the time: too few tasks");
		} else {
			buf_addf(f, "a difference of %.2f s or more is detected 80%% of the time", d);
		}
		/* the next question: how many tasks would a smaller difference need */
		double want = !isnan(d) && seen >= d ? d / 2 : seen;
		if (want > 0) {
			size_t need = power_mw_needed(want, sd, POWER_ALPHA, POWER_TARGET);
			buf_addf(f, "; %s %.2f s would need %zu tasks per arm",
				!isnan(d) && seen >= d ? "half that," : "the observed", want, need);
		}
		buf_addf(f, " (two-sided Mann-Whitney, alpha 0.05, Noether's normal approximation "
			"under a normal shift, not a simulation)\n");
		put_line(out, &line, width);
	}
	for (size_t a = 0; a < x->narms; a++)
		free(v[a]);
	free(v);
	free(n);
}

int
xrun_report(struct xrun *x, struct err *err)
{
	struct cli_opts so = *x->o;
	struct task_set set;
	struct input_stats st = { 0 };
	struct report r;
	enum cli_format fmt = x->o->format;
	FILE *words;
	int rc = -1;

	struct input_options io = { .log = x->o->log };

	task_set_init(&set);
	if (input_read_file_with(x->recording, &io, &set, &st, err) != 0)
		goto out;
	task_set_filter(&set, keep_ours, x->started_by);
	if (fmt == FMT_AUTO || fmt == FMT_TUI)
		fmt = FMT_TABLE;
	/* on stdout with the table; beside CSV or JSON they would break it */
	words = fmt == FMT_TABLE ? stdout : stderr;
	print_launch(x, &set, words);
	if (set.len == 0) {
		fprintf(words, "experiment %s: no task was recorded\n", x->id);
		rc = 0;
		goto out;
	}
	/* the summary's DIAGNOSIS is about failed starts: the experiment's own StopTask (its end,
	 * Ctrl-C, --timeout) is none, and print_launch above has counted the tasks it stopped
	 * before RUNNING; the recording keeps the stop as ECS gave it */
	own_stops_quiet(x, &set);
	so.output = NULL;
	so.summary = true;
	so.group_by = "tag:" EXP_TAG_ARM;
	so.baseline = NULL;
	for (size_t i = 0; i < set.len && so.baseline == NULL; i++)
		if (strcmp(arm_of(&set.tasks[i]), x->arms[0].arm.name) == 0)
			so.baseline = x->arms[0].arm.name;
	so.sort = NULL;
	fprintf(words, "\n");
	fflush(words);
	if (app_build_report(&so, &set, &r, err) != 0)
		goto out;
	rc = app_write(&so, fmt, &r, err);
	report_cleanup(&r);
	if (rc != 0)
		goto out;
	fprintf(words, "\n");
	print_power(x, &set, PHASE_TOTAL, words, words_width(fmt));
	print_power(x, &set, PHASE_PULL, words, words_width(fmt));
	fprintf(words, "recording: %s (ecsprof report --summary --group-by tag:%s --baseline %s "
		"%s)\n", x->recording, EXP_TAG_ARM, x->arms[0].arm.name, x->recording);
	fflush(words);
out:
	task_set_cleanup(&set);
	return rc;
}
