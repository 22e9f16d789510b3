/* watch_status: the right-hand half of watch's status line: how far the scale-out being
 * watched has got. With --service it counts the tasks of the newest deployment against
 * the service's desired count, from when DescribeServices says the deployment started;
 * without, the newest burst of createdAt (scaleout.h), so that a task left over from an
 * hour ago neither moves the start nor hides the tasks that are running. */
#include <stdio.h>
#include <string.h>

#include "ecsprof/health.h"
#include "ecsprof/scaleout.h"
#include "ecsprof/watch.h"

void
watch_progress_of(const struct task_set *set, int64_t deploy_start_ms, long desired,
		  int64_t now_ms, struct watch_progress *p)
{
	struct scaleout so;
	int64_t from = deploy_start_ms, to = INT64_MAX;

	memset(p, 0, sizeof *p);
	p->deployment = deploy_start_ms != TS_NONE;
	p->desired = p->deployment ? desired : -1;
	p->last_started_ms = TS_NONE;
	if (!p->deployment) {
		if (!scaleout_of_set(set, SCALEOUT_LATEST, &so)) {
			p->start_ms = TS_NONE;
			return;
		}
		from = so.first_ms;
		to = so.last_ms;
	}
	p->start_ms = from;
	/* "now" is never before the newest time the server has shown (a clock behind ECS's
	 * would otherwise count backwards) */
	p->now_ms = now_ms;
	for (size_t i = 0; i < set->len; i++) {
		const struct task *t = &set->tasks[i];
		int64_t c = task_ts(t, TS_CREATED);
		enum task_stage st;

		for (int f = 0; f < TS_COUNT; f++)
			if (task_ts(t, f) != TS_NONE && task_ts(t, f) > p->now_ms)
				p->now_ms = task_ts(t, f);
		if (c == TS_NONE || c < from || c > to)
			continue;
		st = task_stage(t, NULL);
		p->tasks++;
		if (st == STAGE_RUNNING) {
			p->running++;
			p->healthy += health_is_healthy(t);
			if (task_ts(t, TS_STARTED) != TS_NONE &&
			    (p->last_started_ms == TS_NONE || task_ts(t, TS_STARTED) > p->last_started_ms))
				p->last_started_ms = task_ts(t, TS_STARTED);
		} else if (task_stage_is_starting(st)) {
			p->starting++;
		} else if (st == STAGE_FAILED) {
			p->failed++;
		}
	}
}

/* "45.0s", "1m05s", "2h05m": a status line wants the minutes, not milliseconds */
static void
span_text(int64_t ms, char *out, size_t size)
{
	int64_t s;

	if (ms < 0)
		ms = 0;
	s = (ms + 500) / 1000;
	if (ms < 60000)
		snprintf(out, size, "%.1fs", (double)ms / 1000.0);
	else if (s < 3600)
		snprintf(out, size, "%dm%02ds", (int)(s / 60), (int)(s % 60));
	else
		snprintf(out, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60 % 60));
}

void
watch_progress_text(const struct watch_progress *p, char *out, size_t size)
{
	char d[32];   /* "%dm%02ds" of an int is up to 17 bytes (gcc -O2 -Wformat-truncation) */
	size_t of, at;
	bool done;

	if (p->start_ms == TS_NONE) {
		snprintf(out, size, "no task created yet");
		return;
	}
	/* done: as many running as wanted, or (no desired count) none still starting */
	of = p->desired >= 0 ? (size_t)p->desired : p->tasks;
	done = p->desired >= 0 ? p->running >= of && of > 0 :
	       p->starting == 0 && p->running > 0;
	if (done && p->last_started_ms != TS_NONE) {
		span_text(p->last_started_ms - p->start_ms, d, sizeof d);
		if (p->deployment)
			snprintf(out, size, "deployment: %zu of %zu running / %zu healthy, all "
				 "after %s", p->running, of, p->healthy, d);
		else
			snprintf(out, size, "scale-out: %zu of %zu running, the last after %s",
				 p->running, of, d);
	} else {
		span_text(p->now_ms - p->start_ms, d, sizeof d);
		if (p->deployment)
			snprintf(out, size, "deployment +%s: %zu of %zu running / %zu healthy", d,
				 p->running, of, p->healthy);
		else
			snprintf(out, size, "scale-out +%s: %zu of %zu running", d, p->running, of);
	}
	at = strlen(out);
	if (p->failed > 0 && at < size)
		snprintf(out + at, size - at, ", %zu failed", p->failed);
}
