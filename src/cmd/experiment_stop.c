/* experiment_stop: the end of every experiment, whatever ended it: each task it started
 * that is not down yet is stopped, all at once and each retried while ECS throttles or
 * fails (ecs_stop_tasks), within one deadline the user is told of (ECSPROF_STOP_TIMEOUT,
 * 120 s); what could not be stopped is named with the command that stops it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment_int.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* seconds the stops of a run may take together, unless ECSPROF_STOP_TIMEOUT says */
#define STOP_TIMEOUT_S 120.0

double
xrun_stop_timeout_s(const struct log *lg)
{
	const char *v = getenv("ECSPROF_STOP_TIMEOUT");
	char *end;
	double sec;

	if (v == NULL)
		return STOP_TIMEOUT_S;
	sec = strtod(v, &end);
	if (end == v || *end != '\0' || !(sec > 0) || sec > 86400) {
		log_warn(lg, "ECSPROF_STOP_TIMEOUT '%.40s' is not a number of seconds (0 to 86400): "
			 "%g s", v, STOP_TIMEOUT_S);
		return STOP_TIMEOUT_S;
	}
	return sec;
}

/* ecs_stop_tasks' done: the task is stopped; the message a second Ctrl-C prints no
 * longer names it */
struct stop_ctx {
	struct xrun *x;
	size_t *which;          /* items[k] is x->tasks[which[k]] */
	const char *until;      /* the deadline, for the user */
};

static void
stop_done(void *arg, size_t i)
{
	struct stop_ctx *sc = arg;

	sc->x->tasks[sc->which[i]].stop_sent = true;
	xrun_update_leftover(sc->x);
}

/* ecs_stop_tasks' retrying: the end of the run takes longer than usual; say until when */
static void
stop_retrying(void *arg, const struct err *why)
{
	struct stop_ctx *sc = arg;

	log_warn(sc->x->o->log, "experiment %s: %s; asking again until %s (Ctrl-C again to give up and print "
		 "the cleanup command)", sc->x->id, why->msg, sc->until);
}

int
xrun_stop_all(struct xrun *x, const char *why, struct err *err)
{
	struct stop_ctx sc = { x, NULL, NULL };
	struct ecs_stop_options so = { 0 };
	struct ecs_stop_item *items;
	char reason[200], until[TIMEUTIL_ISO_LEN];
	size_t n = 0, failed = 0, stopped, nraw = 0;
	double secs = xrun_stop_timeout_s(x->o->log);
	char **raw;
	int64_t *at, *hms, *hres;

	for (size_t i = 0; i < x->ntasks; i++)
		n += !x->tasks[i].final && !x->tasks[i].stop_sent;
	if (n == 0)
		return 0;
	snprintf(reason, sizeof reason, "ecsprof experiment %s: %s", x->id, why);
	items = xcalloc(n, sizeof *items);
	sc.which = xcalloc(n, sizeof *sc.which);
	for (size_t i = 0, k = 0; i < x->ntasks; i++)
		if (!x->tasks[i].final && !x->tasks[i].stop_sent) {
			items[k].arn = x->tasks[i].arn;
			sc.which[k++] = i;
		}
	so.cluster = x->cluster;
	so.reason = reason;
	so.deadline_ms = timeutil_now_ms() + (int64_t)(secs * 1000);
	so.done = stop_done;
	so.retrying = stop_retrying;
	so.done_arg = &sc;
	timeutil_format_iso(so.deadline_ms, until);
	sc.until = until;
	/* all at once, each retried while ECS throttles or fails, until one deadline */
	/* the user waits for this after a Ctrl-C: say how long it may take, and the way out */
	(x->interrupted ? log_warn : log_info)(x->o->log, "experiment %s: stopping %zu task%s, within %g s "
		"(until %s; Ctrl-C again to give up and print the cleanup command)", x->id, n,
		n == 1 ? "" : "s", secs, until);
	stopped = ecs_stop_tasks(x->ecs, &so, items, n);
	raw = xcalloc(n, sizeof *raw);
	at = xcalloc(n, sizeof *at);
	hms = xcalloc(n, sizeof *hms);
	hres = xcalloc(n, sizeof *hres);
	for (size_t k = 0; k < n; k++) {
		const struct xtask *t = &x->tasks[sc.which[k]];

		if (!items[k].stopped) {
			log_warn(x->o->log, "StopTask %s: %s", items[k].arn, items[k].err.msg[0] ?
				 items[k].err.msg : "not answered before the deadline");
			failed++;
		} else if (items[k].raw != NULL && items[k].answered_ms != TS_NONE) {
			raw[nraw] = items[k].raw;
			items[k].raw = NULL;
			at[nraw] = items[k].answered_ms;
			hms[nraw] = t->healthy_ms;
			hres[nraw++] = t->healthy_res_ms;
		}
		free(items[k].raw);
	}
	{
		struct err e;

		err_clear(&e);
		if (xrun_journal(x, raw, at, hms, hres, nraw, &e) != 0)
			log_warn(x->o->log, "%s", e.msg);
	}
	for (size_t k = 0; k < nraw; k++)
		free(raw[k]);
	free(raw);
	free(at);
	free(hms);
	free(hres);
	free(items);
	free(sc.which);
	if (stopped > 0)
		log_info(x->o->log, "experiment %s: StopTask sent to %zu task%s", x->id, stopped,
			 stopped == 1 ? "" : "s");
	if (failed > 0) {
		char *cmd = xrun_cleanup_command(x);
		err_set(err, ERR_AWS, "experiment %s: %zu task%s could not be stopped within %g s; "
			"stop %s with: %s", x->id, failed, failed == 1 ? "" : "s", secs,
			failed == 1 ? "it" : "them", cmd);
		free(cmd);
		return -1;
	}
	return 0;
}
