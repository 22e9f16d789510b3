/* phase: durations between lifecycle timestamps, defined once in phase_defs. */
#include <string.h>
#include <strings.h>

#include "ecsprof/phase.h"

const struct phase_def phase_defs[PHASE_COUNT] = {
	{ PHASE_PROVISION,    "provision",    "provision_s",    "capacity, ENI attachment, agent setup",
	  TS_CREATED, TS_PULL_STARTED },
	{ PHASE_PULL,         "pull",         "pull_s",         "image pull (first pull start to last pull stop)",
	  TS_PULL_STARTED, TS_PULL_STOPPED },
	{ PHASE_START,        "start",        "start_s",        "container create/start until RUNNING",
	  TS_PULL_STOPPED, TS_STARTED },
	{ PHASE_TOTAL,        "total",        "total_s",        "createdAt to RUNNING",
	  TS_CREATED, TS_STARTED },
	{ PHASE_CONNECTIVITY, "connectivity", "connectivity_s", "createdAt to connectivityAt",
	  TS_CREATED, TS_CONNECTIVITY },
	{ PHASE_READY,        "ready",        "ready_s",        "startedAt to healthy: the app's own start",
	  TS_STARTED, TS_HEALTHY },
	{ PHASE_SERVING,      "serving",      "serving_s",      "createdAt to healthy: time to serving",
	  TS_CREATED, TS_HEALTHY },
};

/* blue, the orange that reads on light and dark terminals alike (xterm 172 is #d78700;
 * yellow with 8 colours), green, cyan */
const struct phase_colour phase_colours[PHASE_COUNT] = {
	[PHASE_PROVISION] = { 0x3d7cc9, 4, -1 },
	[PHASE_PULL] = { 0xd78700, 3, 172 },
	[PHASE_START] = { 0x3f9e5a, 2, -1 },
	[PHASE_READY] = { 0x1fa2b5, 6, -1 },
	[PHASE_TOTAL] = { 0, -1, -1 },
	[PHASE_CONNECTIVITY] = { 0, -1, -1 },
	[PHASE_SERVING] = { 0, -1, -1 },
};

bool
phase_is_extra(enum phase_id p)
{
	return p == PHASE_READY || p == PHASE_SERVING;
}

int64_t
phase_ms(const struct task *t, enum phase_id p)
{
	int64_t a = task_ts(t, phase_defs[p].from), b = task_ts(t, phase_defs[p].to);

	if (a == TS_NONE || b == TS_NONE || b < a)
		return TS_NONE;
	return b - a;
}

bool
phase_is_negative(const struct task *t, enum phase_id p)
{
	int64_t a = task_ts(t, phase_defs[p].from), b = task_ts(t, phase_defs[p].to);

	return a != TS_NONE && b != TS_NONE && b < a;
}

int
phase_by_name(const char *name)
{
	for (int i = 0; i < PHASE_COUNT; i++)
		if (strcasecmp(name, phase_defs[i].name) == 0)
			return i;
	return -1;
}

int64_t
phase_so_far_ms(const struct task *t, enum phase_id p, int64_t now_ms)
{
	int64_t since, from;
	int cur = phase_current(t, &since);

	if (cur < 0 || now_ms == TS_NONE || phase_ms(t, p) != TS_NONE ||
	    (cur != (int)p && p != PHASE_TOTAL))
		return TS_NONE;
	from = p == PHASE_TOTAL ? task_ts(t, TS_CREATED) : since;
	return from != TS_NONE && now_ms >= from ? now_ms - from : TS_NONE;
}

int
phase_current(const struct task *t, int64_t *since_ms)
{
	int64_t since;

	/* the stage is the answer (task.h); a phase is only the name of a starting one */
	switch (task_stage(t, &since)) {
	case STAGE_PROVISION: *since_ms = since; return PHASE_PROVISION;
	case STAGE_PULL: *since_ms = since; return PHASE_PULL;
	case STAGE_START: *since_ms = since; return PHASE_START;
	default: return -1;
	}
}
