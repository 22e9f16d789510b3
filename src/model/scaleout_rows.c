/* scaleout_rows: the contract's columns of a scale-out (product.md): one row table that
 * CSV, JSON, Markdown and the table read through the sink. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/scaleout_story.h"
#include "ecsprof/timeutil.h"

enum so_field { F_CLUSTER, F_SERVICE, F_TRIGGER, F_TRIGGER_AT, F_DFROM, F_DTO, F_STARTED,
		F_FAILED, F_CAPACITY, F_SECS, F_FROM, F_TO, F_EST, F_P50, F_MAX, F_RATE,
		F_THROTTLED, F_LARGEST, F_ADVICE };

struct so_col {
	enum so_field f;
	enum so_stage s;
};

#define NT ROWCOL_NOT_IN_TABLE
#define SPAN(st, n)                                                                    \
	{ n "_s", n, CELL_SECS, 0, 0 }, { n "_from", n " from", CELL_TIME, 0, NT },     \
	{ n "_to", n " to", CELL_TIME, 0, NT }, { n "_estimated", n " est", CELL_BOOL, 0, NT }
#define SPANF(st) { F_SECS, st }, { F_FROM, st }, { F_TO, st }, { F_EST, st }
#define DIST(n) { n "_p50_s", n " p50", CELL_SECS, 0, 0 }, { n "_max_s", n " max", CELL_SECS, 0, NT }
#define DISTF(st) { F_P50, st }, { F_MAX, st }

static const struct row_column so_cols[] = {
	{ "cluster", "cluster", CELL_TEXT, 0, NT },
	{ "service", "service", CELL_TEXT, 0, 0 },
	{ "trigger", "trigger", CELL_TEXT, 0, 0 },
	{ "trigger_at", "trigger at", CELL_TIME, 0, 0 },
	{ "desired_from", "from", CELL_COUNT, 0, 0 },
	{ "desired_to", "to", CELL_COUNT, 0, 0 },
	{ "tasks_started", "started", CELL_COUNT, 0, 0 },
	{ "tasks_failed", "failed", CELL_COUNT, 0, 0 },
	{ "capacity_errors", "capacity errors", CELL_COUNT, 0, NT },
	SPAN(SO_DETECT, "detect"),
	SPAN(SO_REACT, "react"),
	SPAN(SO_SCHEDULE, "schedule"),
	SPAN(SO_LAUNCH, "launch"),
	{ "launch_rate", "launch rate", CELL_NUMBER, 2, NT },
	{ "launch_throttled", "throttled", CELL_BOOL, 0, NT },
	DIST("provision"), DIST("attach"), DIST("wait"), DIST("pull"), DIST("start"),
	DIST("health"),
	SPAN(SO_REGISTER, "register"),
	SPAN(SO_TOTAL, "total"),
	{ "largest_stage", "largest", CELL_TEXT, 0, 0 },
	{ "advice", "advice", CELL_TEXT, 0, ROWCOL_WRAP },
};

static const struct so_col so_fields[] = {
	{ F_CLUSTER, 0 }, { F_SERVICE, 0 }, { F_TRIGGER, 0 }, { F_TRIGGER_AT, 0 },
	{ F_DFROM, 0 }, { F_DTO, 0 }, { F_STARTED, 0 }, { F_FAILED, 0 }, { F_CAPACITY, 0 },
	SPANF(SO_DETECT), SPANF(SO_REACT), SPANF(SO_SCHEDULE), SPANF(SO_LAUNCH),
	{ F_RATE, SO_LAUNCH }, { F_THROTTLED, SO_LAUNCH },
	DISTF(SO_PROVISION), DISTF(SO_ATTACH), DISTF(SO_WAIT), DISTF(SO_PULL), DISTF(SO_START),
	DISTF(SO_HEALTH),
	SPANF(SO_REGISTER), SPANF(SO_TOTAL),
	{ F_LARGEST, 0 }, { F_ADVICE, 0 },
};

_Static_assert(sizeof so_cols / sizeof so_cols[0] == sizeof so_fields / sizeof so_fields[0],
	       "one field per column");

static const char *const so_trigger_words[] = { "alarm", "activity", "deployment", "manual" };

static void
set_time(struct cell_value *out, int64_t ms, bool est)
{
	out->present = ms != TS_NONE;
	out->ms = ms;
	out->estimated = est;
}

static void
set_secs(struct cell_value *out, double v, bool est)
{
	out->present = !isnan(v);
	out->num = v;
	out->estimated = est;
}

static void
set_count(struct cell_value *out, long long v)
{
	out->present = v >= 0;
	out->count = v;
}

static void
so_cell(const void *ctx, size_t row, size_t col, struct cell_value *out, char *scratch,
	size_t size)
{
	const struct so_story *st = ctx;
	const struct so_row *r = &st->rows[row];
	const struct so_col *c = &so_fields[col];
	const struct so_span *sp = &r->span[c->s];

	switch (c->f) {
	case F_CLUSTER: out->present = r->cluster[0] != '\0'; out->text = r->cluster; break;
	case F_SERVICE: out->present = true; out->text = r->service; break;
	case F_TRIGGER:
		snprintf(scratch, size, "%s%s%s", so_trigger_words[r->trigger],
			 r->trigger_name[0] ? " " : "", r->trigger_name);
		out->present = true;
		out->text = scratch;
		break;
	case F_TRIGGER_AT: set_time(out, r->trigger_ms, false); break;
	case F_DFROM: set_count(out, r->desired_from); break;
	case F_DTO: set_count(out, r->desired_to); break;
	case F_STARTED: set_count(out, (long long)r->tasks_started); break;
	case F_FAILED: set_count(out, (long long)r->tasks_failed); break;
	case F_CAPACITY: set_count(out, (long long)r->capacity_errors); break;
	case F_SECS: set_secs(out, so_row_seconds(r, c->s), so_row_estimated(r, c->s)); break;
	case F_FROM: set_time(out, sp->from_ms, sp->from_est); break;
	case F_TO: set_time(out, sp->to_ms, sp->to_est); break;
	case F_EST:
		out->present = !isnan(so_row_seconds(r, c->s));
		out->flag = so_row_estimated(r, c->s);
		break;
	case F_P50: set_secs(out, r->dist[c->s].p50_s, false); break;
	case F_MAX: set_secs(out, r->dist[c->s].max_s, false); break;
	case F_RATE:
		out->present = !isnan(r->launch_rate);
		out->num = r->launch_rate;
		break;
	case F_THROTTLED:
		out->present = !isnan(r->launch_rate);
		out->flag = r->launch_throttled;
		break;
	case F_LARGEST:
		out->present = r->largest >= 0;
		out->text = r->largest >= 0 ? so_stage_defs[r->largest].name : "";
		break;
	case F_ADVICE: out->present = r->advice && r->advice[0]; out->text = r->advice; break;
	}
}

void
so_story_table(const struct so_story *st, struct row_table *t)
{
	memset(t, 0, sizeof *t);
	t->name = "scaleouts";
	t->title = "scale-outs";
	t->cols = so_cols;
	t->ncols = sizeof so_cols / sizeof so_cols[0];
	t->nrows = st->n;
	t->cell = so_cell;
	t->ctx = st;
	t->notes = (const char *const *)st->notes;
	t->nnotes = st->nnotes;
}
