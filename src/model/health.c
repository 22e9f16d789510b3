/* health: healthy_at from task metadata, or from what successive polls saw. */
#include <string.h>

#include "ecsprof/health.h"

void
health_from_containers(struct task *t)
{
	int64_t last = TS_NONE;

	for (size_t i = 0; i < t->ncontainers; i++) {
		const struct container *c = &t->containers[i];

		if (c->essential == TRI_NO || c->prof->health_status == NULL)
			continue;
		if (strcmp(c->prof->health_status, "HEALTHY") != 0 || !c->has_health_since)
			return;
		if (last == TS_NONE || c->health_since_ms > last)
			last = c->health_since_ms;
	}
	if (last == TS_NONE)
		return;
	task_set_ts(t, TS_HEALTHY, last);
	t->healthy_observed = false;
	t->healthy_resolution_ms = 0;
}

bool
health_is_healthy(const struct task *t)
{
	return t->prof->health_status != NULL && strcmp(t->prof->health_status, "HEALTHY") == 0;
}

void
health_observe(struct task_set *cur, struct task_set *prev, int64_t prev_poll_ms,
	       int64_t now_ms)
{
	for (size_t i = 0; i < cur->len; i++) {
		struct task *t = &cur->tasks[i];
		const struct task *p;
		int64_t at, res;

		if (task_ts(t, TS_HEALTHY) != TS_NONE || prev == NULL)
			continue;
		p = task_set_find_task(prev, t);
		if (p != NULL && task_ts(p, TS_HEALTHY) != TS_NONE) {
			task_set_ts(t, TS_HEALTHY, task_ts(p, TS_HEALTHY));
			t->healthy_observed = p->healthy_observed;
			t->healthy_resolution_ms = p->healthy_resolution_ms;
			continue;
		}
		if (!health_is_healthy(t))
			continue;
		if (p != NULL ? health_is_healthy(p)
			      : task_ts(t, TS_CREATED) == TS_NONE || task_ts(t, TS_CREATED) < prev_poll_ms)
			continue;
		at = task_ts(t, TS_FETCHED) != TS_NONE ? task_ts(t, TS_FETCHED) : now_ms;
		res = at - prev_poll_ms;
		if (task_ts(t, TS_STARTED) != TS_NONE && at - task_ts(t, TS_STARTED) < res)
			res = at - task_ts(t, TS_STARTED);
		task_set_ts(t, TS_HEALTHY, at);
		t->healthy_observed = true;
		t->healthy_resolution_ms = task_resolution_ms(res);
	}
}
