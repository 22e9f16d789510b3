/* deploy_rowtab: the deployments as a row table (deploy_rowtab.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/deploy_rowtab.h"
#include "ecsprof/xalloc.h"

enum { D_SERVICE, D_ID, D_STARTED, D_DESIRED, D_TASKS, D_FIRST, D_P50, D_ALL, D_HEALTHY,
       D_STEADY, D_FAILED, D_STATUS, D_ROLLOUT, D_TASKDEF, D_NCOLS };

/* the CSV's columns, titled as the table titles them */
static const struct row_column cols[D_NCOLS] = {
	[D_SERVICE] = { "service", "SERVICE", CELL_TEXT, 0, 0 },
	[D_ID] = { "deployment_id", "DEPLOYMENT", CELL_TEXT, 0, 0 },
	[D_STARTED] = { "started_at", "STARTED", CELL_TIME, 0, 0 },
	[D_DESIRED] = { "desired", "DESIRED", CELL_COUNT, 0, 0 },
	[D_TASKS] = { "tasks_started", "TASKS", CELL_COUNT, 0, 0 },
	[D_FIRST] = { "first_running_s", "FIRST", CELL_SECS, 0, 0 },
	[D_P50] = { "p50_running_s", "P50", CELL_SECS, 0, 0 },
	[D_ALL] = { "all_running_s", "ALL-RUNNING", CELL_SECS, 0, 0 },
	[D_HEALTHY] = { "all_healthy_s", "ALL-HEALTHY", CELL_SECS, 0, 0 },
	[D_STEADY] = { "steady_state_s", "STEADY", CELL_SECS, 0, 0 },
	[D_FAILED] = { "failed_tasks", "FAILED", CELL_COUNT, 0, 0 },
	[D_STATUS] = { "status", "STATUS", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	[D_ROLLOUT] = { "rollout_state", "ROLLOUT", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	[D_TASKDEF] = { "task_definition", "TASKDEF", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
};

static void
secs(struct cell_value *v, int64_t ms)
{
	v->present = ms != TS_NONE;
	v->num = (double)ms / 1000.0;
}

static void
deploy_cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
	    size_t size)
{
	const struct deploy_rowtab *dt = ctx;
	const struct deploy_row *r = &dt->rows[row];
	const struct deployment *d = r->d;
	const char *s = NULL;

	(void)scratch;
	(void)size;
	switch (col) {
	case D_SERVICE: s = d->service; break;
	case D_ID: s = d->id; break;
	case D_STARTED: v->ms = d->created_ms; v->present = d->created_ms != TS_NONE; return;
	case D_DESIRED: v->count = d->desired; v->present = d->desired >= 0; return;
	case D_TASKS: v->count = (int64_t)r->tasks_started; v->present = true; return;
	case D_FIRST: secs(v, r->first_running_ms); return;
	case D_P50: secs(v, r->p50_running_ms); return;
	case D_ALL: secs(v, r->all_running_ms); return;
	case D_HEALTHY: secs(v, r->all_healthy_ms); return;
	case D_STEADY: secs(v, r->steady_ms); return;
	case D_FAILED:
		v->count = r->failed_tasks < 0 ? 0 : r->failed_tasks;
		v->present = true;
		return;
	case D_STATUS: s = d->status; break;
	case D_ROLLOUT: s = d->rollout_state; break;
	case D_TASKDEF: s = d->taskdef; break;
	}
	v->text = s;
	v->present = s != NULL && *s != '\0';
}

void
deploy_rowtab_build(struct deploy_rowtab *dt, const struct deploy_row *rows, size_t n)
{
	memset(dt, 0, sizeof *dt);
	dt->rows = rows;
	dt->notes = xcalloc(n ? n : 1, sizeof *dt->notes);
	for (size_t i = 0; i < n; i++) {
		char sentence[512];

		deploy_row_sentence(&rows[i], sentence, sizeof sentence);
		dt->notes[dt->nnotes++] = xasprintf("%s %s: %s",
						    rows[i].d->service ? rows[i].d->service : "-",
						    rows[i].d->id ? rows[i].d->id : "-", sentence);
	}
	dt->t = (struct row_table){ .name = "deployments", .cols = cols, .ncols = D_NCOLS,
				    .nrows = n, .cell = deploy_cell, .ctx = dt,
				    .notes = (const char *const *)dt->notes,
				    .nnotes = dt->nnotes };
}

void
deploy_rowtab_cleanup(struct deploy_rowtab *dt)
{
	for (size_t i = 0; i < dt->nnotes; i++)
		free(dt->notes[i]);
	free(dt->notes);
	memset(dt, 0, sizeof *dt);
}
