/* experiment_cleanup: `ecsprof experiment --cleanup ID`, for a run that could not clean up
 * after itself (killed, crashed, the machine gone). Two sources, because either can miss
 * a task: the journal in the recording (-o FILE: every task RunTask returned, with its
 * cluster and region) and ListTasks startedBy ecsprof-ID (tasks whose RunTask answer never
 * reached the journal). The journal is a file anyone may have edited, so it only names
 * candidates: a task is stopped only when ECS's own answer says it is the experiment's (its
 * tag ecsprof:experiment=ID or its startedBy ecsprof-ID, or ListTasks found it by that
 * startedBy). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "experiment_int.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

struct found {
	char **arns;
	bool *final;
	bool *described;        /* ECS answered for the task */
	bool *confirmed;        /* ... and its answer names the experiment */
	size_t n;
	bool listing;           /* the answers now come from ListTasks startedBy ecsprof-ID */
	char **warned;          /* the tasks whose answer could not be read: said once each */
	const struct log *log;  /* where */
	/* what live_take_task says of an answer, once: the journal's tasks and then those
	 * startedBy are asked of ECS, so a task can be answered twice */
	struct log_once once;
	size_t nwarned;
	struct xrun *x;
	char **raw;
	int64_t *at;
	size_t nraw;
};

static bool
found_has(const struct found *f, const char *arn, size_t *at)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->arns[i], arn) == 0) {
			*at = i;
			return true;
		}
	return false;
}

/* Adds (or updates) arn; returns its index. */
static size_t
found_add(struct found *f, const char *arn, bool final)
{
	size_t i;

	if (found_has(f, arn, &i)) {
		f->final[i] = final;
		return i;
	}
	f->arns = xreallocarray(f->arns, f->n + 1, sizeof *f->arns);
	f->final = xreallocarray(f->final, f->n + 1, sizeof *f->final);
	f->described = xreallocarray(f->described, f->n + 1, sizeof *f->described);
	f->confirmed = xreallocarray(f->confirmed, f->n + 1, sizeof *f->confirmed);
	f->arns[f->n] = xstrdup(arn);
	f->described[f->n] = false;
	f->confirmed[f->n] = false;
	f->final[f->n] = final;
	return f->n++;
}

/* Whether ECS's own answer for t says it is the experiment's. */
static bool
task_is_experiments(const struct task *t, const struct xrun *x)
{
	const char *tag = task_tag(t, EXP_TAG_EXPERIMENT);

	return (t->prof->started_by != NULL && strcmp(t->prof->started_by, x->started_by) == 0) ||
	       (tag != NULL && strcmp(tag, x->id) == 0);
}

/* A task whose answer was skipped as unreadable (live_take_task said why): known by its
 * taskArn, it is stopped all the same, its state being unknown (a task only ListTasks found
 * would otherwise be left running); said once per task. */
static void
take_unreadable(struct found *f, const char *json, size_t len)
{
	struct input_key k;
	struct err e;
	size_t i;

	err_clear(&e);
	if (input_peek_task(json, len, &k, &e) != 0)
		return;   /* no taskArn: nothing to stop it by */
	if (!found_has(f, k.arn, &i))
		i = found_add(f, k.arn, false);
	/* its tags unreadable: only ListTasks startedBy vouches for it */
	f->described[i] = true;
	f->confirmed[i] |= f->listing;
	for (i = 0; i < f->nwarned && strcmp(f->warned[i], k.arn) != 0; i++)
		;
	if (i == f->nwarned) {
		log_warn(f->log, "task %s could not be read: it is stopped all the same",
			 strrchr(k.arn, '/') ? strrchr(k.arn, '/') + 1 : k.arn);
		f->warned = xreallocarray(f->warned, f->nwarned + 1, sizeof *f->warned);
		f->warned[f->nwarned++] = k.arn;   /* taken */
		k.arn = NULL;
	}
	input_key_cleanup(&k);
}

/* DescribeTasks / ListTasks answers: what ECS says now. */
static int
take_live(void *arg, const char *json, size_t len, int64_t fetched_at_ms, struct err *err)
{
	struct found *f = arg;
	struct task_set one;
	int rc;

	task_set_init(&one);
	/* a bad task is skipped with a warning, its raw JSON still journaled */
	if ((rc = live_take_task(json, len, fetched_at_ms, &one, true, &f->once, err)) < 0) {
		task_set_cleanup(&one);
		return -1;
	}
	if (rc > 0)   /* skipped: its state unknown, but it is stopped all the same */
		take_unreadable(f, json, len);
	if (one.len == 1) {
		const struct task *t = &one.tasks[0];
		bool final = task_is_final(t) ||
			     (t->prof->desired_status && strcmp(t->prof->desired_status, "STOPPED") == 0);
		struct task_arn_buf ab;
		size_t i = found_add(f, task_arn(t, &ab), final);

		f->described[i] = true;
		f->confirmed[i] |= f->listing || task_is_experiments(t, f->x);
	}
	task_set_cleanup(&one);
	f->raw = xreallocarray(f->raw, f->nraw + 1, sizeof *f->raw);
	f->at = xreallocarray(f->at, f->nraw + 1, sizeof *f->at);
	f->raw[f->nraw] = xstrndup(json, len);
	f->at[f->nraw++] = fetched_at_ms;
	return rc;
}

/* The region of "arn:aws:ecs:REGION:ACCOUNT:task/..." into out. */
static void
arn_region(const char *arn, char *out, size_t size)
{
	const char *p = arn;

	out[0] = '\0';
	for (int colons = 0; *p != '\0' && colons < 3; p++)
		colons += *p == ':';
	if (*p != '\0')
		snprintf(out, size, "%.*s", (int)strcspn(p, ":"), p);
}

int
xrun_cleanup_command_run(const struct cli_opts *o, struct err *err)
{
	struct cli_opts so = *o;
	struct xrun x;
	struct found f = { .log = o->log };
	struct task_set journal;
	struct input_stats st = { 0 };
	struct ecs_query q = { 0 };
	struct ecs_fetch_stats fs;
	struct stat sb;
	char cluster[256] = "", region[64] = "";
	size_t from_journal = 0, stopped = 0, already = 0, failed = 0, unconfirmed = 0, nitems = 0;
	struct ecs_stop_item *items = NULL;
	struct ecs_stop_options stop = { 0 };
	char reason[160];
	int rc = -1;

	memset(&x, 0, sizeof x);
	task_set_init(&journal);
	log_once_init(&f.once, o->log);
	x.o = o;
	snprintf(x.id, sizeof x.id, "%s", o->experiment.cleanup);
	snprintf(x.started_by, sizeof x.started_by, "%s%s", EXP_STARTED_BY_PREFIX, x.id);
	x.recording = o->output;
	if (o->output != NULL && stat(o->output, &sb) == 0) {
		struct input_options io = { .log = o->log };

		if (input_read_file_with(o->output, &io, &journal, &st, err) != 0)
			goto out;
		for (size_t i = 0; i < journal.len; i++) {
			const struct task *t = &journal.tasks[i];
			struct task_arn_buf ab;

			if (t->prof->started_by == NULL || strcmp(t->prof->started_by, x.started_by) != 0)
				continue;
			found_add(&f, task_arn(t, &ab), task_is_final(t));
			from_journal++;
			if (cluster[0] == '\0' && t->prof->cluster[0] != '\0')
				snprintf(cluster, sizeof cluster, "%s", t->prof->cluster);
			if (region[0] == '\0')
				arn_region(task_arn(t, &ab), region, sizeof region);
		}
		if (from_journal == 0)
			log_warn(o->log, "%s: no task of experiment %s in this recording; asking ECS for "
				 "startedBy %s", o->output, x.id, x.started_by);
	} else if (o->output != NULL) {
		log_warn(o->log, "%s: %s; asking ECS for startedBy %s only", o->output, err_strerror(errno),
			 x.started_by);
	}
	/* the journal knows where the run was; the command line wins */
	if (so.cluster == NULL && cluster[0] != '\0')
		so.cluster = cluster;
	if (so.region == NULL && region[0] != '\0')
		so.region = region;
	x.o = &so;
	x.cluster = so.cluster;
	struct live_options lo = app_live_options(&so);
	if (live_session_new(&lo, &x.session, err) != 0)
		goto out;
	x.ecs = live_session_ecs(x.session);
	x.region = live_session_region(x.session);
	f.x = &x;
	/* what ECS says now of the journal's tasks (a stopped one needs nothing) */
	if (f.n > 0) {
		q.cluster = x.cluster;
		q.tasks = (const char *const *)f.arns;
		q.ntasks = f.n;
		q.since_ms = TS_NONE;
		if (ecs_fetch_tasks(x.ecs, &q, take_live, &f, &fs, err) != 0)
			goto out;
	}
	/* and what is still running under the experiment's startedBy */
	memset(&q, 0, sizeof q);
	q.cluster = x.cluster;
	q.started_by = x.started_by;
	q.running = true;
	q.since_ms = TS_NONE;
	f.listing = true;
	if (ecs_fetch_tasks(x.ecs, &q, take_live, &f, &fs, err) != 0)
		goto out;
	if (xrun_journal(&x, f.raw, f.at, NULL, NULL, f.nraw, err) != 0)
		goto out;
	/* what is left: stopped all at once, each retried while ECS throttles, one deadline */
	items = xcalloc(f.n ? f.n : 1, sizeof *items);
	for (size_t i = 0; i < f.n; i++) {
		/* a task ECS no longer knows that the journal saw stop needs nothing */
		if (f.final[i] && (f.confirmed[i] || !f.described[i]))
			already++;
		else if (!f.confirmed[i])
			unconfirmed++;
		else
			items[nitems++].arn = f.arns[i];
	}
	snprintf(reason, sizeof reason, "ecsprof experiment %s: cleanup", x.id);
	stop.cluster = x.cluster;
	stop.reason = reason;
	stop.deadline_ms = timeutil_now_ms() + (int64_t)(xrun_stop_timeout_s(o->log) * 1000);
	stopped = ecs_stop_tasks(x.ecs, &stop, items, nitems);
	for (size_t k = 0; k < nitems; k++) {
		struct err e;

		err_clear(&e);
		if (!items[k].stopped) {
			log_warn(o->log, "StopTask %s: %s", items[k].arn, items[k].err.msg[0] ?
				 items[k].err.msg : "not answered before the deadline");
			failed++;
		} else if (items[k].raw != NULL && items[k].answered_ms != TS_NONE &&
			   xrun_journal(&x, &items[k].raw, &items[k].answered_ms, NULL, NULL, 1,
					&e) != 0) {
			log_warn(o->log, "%s", e.msg);
		}
		free(items[k].raw);
	}
	if (unconfirmed > 0)
		log_warn(o->log, "%s: %zu task%s the journal names %s not the experiment's by ECS's own "
			 "answer (neither tag %s=%s nor startedBy %s): left alone", o->output,
			 unconfirmed, unconfirmed == 1 ? "" : "s", unconfirmed == 1 ? "is" : "are",
			 EXP_TAG_EXPERIMENT, x.id, x.started_by);
	printf("experiment %s on cluster %s: %zu task%s found (%zu in the journal), %zu stopped "
	       "now, %zu already stopped, %zu named by the journal but not confirmed by ECS%s\n",
	       x.id, x.cluster ? x.cluster : "default", f.n, f.n == 1 ? "" : "s", from_journal,
	       stopped, already, unconfirmed, failed ? "" : "; nothing of it is left running");
	if (failed > 0) {
		err_set(err, ERR_AWS, "experiment %s: %zu task%s could not be stopped (see the "
			"warnings); run this again", x.id, failed, failed == 1 ? "" : "s");
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < f.n; i++)
		free(f.arns[i]);
	free(f.arns);
	free(f.final);
	free(f.described);
	free(f.confirmed);
	free(items);
	for (size_t i = 0; i < f.nwarned; i++)
		free(f.warned[i]);
	free(f.warned);
	log_once_cleanup(&f.once);
	for (size_t i = 0; i < f.nraw; i++)
		free(f.raw[i]);
	free(f.raw);
	free(f.at);
	task_set_cleanup(&journal);
	live_session_free(x.session);
	return rc;
}
