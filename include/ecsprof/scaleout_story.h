/* scaleout_story: where the minutes of a scale-out go, from the trigger to the last new
 * task serving (product.md, "`ecsprof scaleout`"): one row per rise of a service's
 * desired count (a scaling activity, a deployment, a manual change), the tasks started
 * for it, each stage's instants (observed, or estimated from settings and flagged), the
 * per-task stages as p50 and max, the largest stage and the advice with its arithmetic.
 * Ownership: a so_story owns its rows, their task arrays, advice and the notes; it
 * borrows the sources (scaleout_src.h) and the tasks, which must outlive it. */
#ifndef ECSPROF_SCALEOUT_STORY_H
#define ECSPROF_SCALEOUT_STORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/phase.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/scaleout_src.h"
#include "ecsprof/task.h"

/* The stages in time-line order. The per-task ones (provision and its two parts, pull,
 * start, health) are p50 and max over the scale-out's tasks; the others have instants. */
enum so_stage {
	SO_DETECT,      /* first breaching datapoint -> alarm in ALARM */
	SO_REACT,       /* ALARM -> scaling activity start */
	SO_SCHEDULE,    /* activity / deployment / UpdateService -> first createdAt */
	SO_LAUNCH,      /* first -> last createdAt */
	SO_PROVISION,   /* per task: createdAt -> pullStartedAt */
	SO_ATTACH,      /* per task: createdAt -> connectivityAt (part of provision) */
	SO_WAIT,        /* per task: connectivityAt -> pullStartedAt (part of provision) */
	SO_PULL,        /* per task */
	SO_START,       /* per task: pullStoppedAt -> startedAt */
	SO_HEALTH,      /* per task: startedAt -> HEALTHY */
	SO_REGISTER,    /* first target registered -> last new target healthy */
	SO_TOTAL,       /* trigger -> last new task serving */
	SO_STAGE_COUNT
};

struct so_stage_def {
	enum so_stage id;
	const char *name;       /* "register": columns are <name>_s, <name>_p50_s, ... */
	bool per_task;          /* p50 and max over tasks, no instants */
	bool in_largest;        /* a candidate for largest_stage (not attach, wait, total) */
};
extern const struct so_stage_def so_stage_defs[SO_STAGE_COUNT];

enum so_trigger { SO_TRIGGER_ALARM, SO_TRIGGER_ACTIVITY, SO_TRIGGER_DEPLOYMENT,
		  SO_TRIGGER_MANUAL };

/* A stage with instants: TS_NONE where no source gives one; *_est when the instant is
 * derived from settings rather than observed. */
struct so_span {
	int64_t from_ms, to_ms;
	bool from_est, to_est;
};

/* A per-task stage over the row's tasks that have it */
struct so_dist {
	size_t n;
	double p50_s, max_s;    /* NAN when n == 0 */
};

struct so_row {
	const char *cluster;            /* "" unknown; borrowed */
	const char *service;
	enum so_trigger trigger;
	const char *trigger_name;       /* the alarm, activity or deployment id; "" */
	int64_t trigger_ms;             /* ALARM, else activity start, else deployment /
					   UpdateService, else first createdAt */
	long desired_from, desired_to;  /* -1: unknown */
	size_t tasks_started, tasks_failed, capacity_errors;
	struct so_span span[SO_STAGE_COUNT];   /* the stages with instants */
	struct so_dist dist[SO_STAGE_COUNT];   /* the per-task stages */
	double launch_rate;             /* tasks per second over launch; NAN */
	bool launch_throttled;          /* the rate matches Fargate's 20/s after a burst of 100 */
	int largest;                    /* enum so_stage, -1 when no stage is measured */
	char *advice;                   /* owned; "" when there is nothing to say */
	/* what the row was told from (borrowed; NULL when absent) */
	const char *deployment;         /* the deployment id whose tasks are matched */
	const struct so_activity *activity;
	const struct so_alarm *alarm;
	const struct so_transition *transition;
	const struct so_policy *policy;
	const struct so_service *svc;
	const struct so_target_group *tg;
	const struct task **tasks;      /* owned array of borrowed tasks, by createdAt */
	size_t ntasks;
};

struct so_story {
	struct so_row *rows;            /* by trigger time */
	size_t n;
	char **notes;                   /* the sources missing and what that leaves empty */
	size_t nnotes;
};

/* The seconds of a stage: the span's, else the p50 (per task); NAN when not measured. */
double so_row_seconds(const struct so_row *r, enum so_stage s);
bool so_row_estimated(const struct so_row *r, enum so_stage s);

/* Builds the story from the sources and the tasks (either may be empty); rows whose
 * trigger is before since_ms (TS_NONE: all) are left out. */
void so_story_build(const struct so_sources *src, const struct task_set *tasks,
		    int64_t since_ms, struct so_story *out);
void so_story_cleanup(struct so_story *st);

/* The advice of one row (scaleout_advice.c), from its stages and the settings it was
 * told from: fills r->largest and r->advice. */
void so_row_advise(struct so_row *r, const struct task_set *tasks);

/* The contract's columns as a row table over the story (borrowed: it must outlive *t). */
void so_story_table(const struct so_story *st, struct row_table *t);

/* A bar's pieces (scaleout_bar.c), shared by the writers and the TUI: stage s from from_ms
 * to to_ms after the bar's start (the first breaching datapoint, else the trigger: the
 * stages with instants where they are, the per-task ones as a typical task: their p50s end
 * to end from the first createdAt) */
struct so_piece {
	enum so_stage s;
	int64_t from_ms, to_ms;
	bool estimated;
};
#define SO_PIECES_MAX SO_STAGE_COUNT
/* r's pieces in drawing order into p (SO_PIECES_MAX of them); how many */
size_t so_row_pieces(const struct so_row *r, struct so_piece *p);
/* Where r's bar starts (epoch ms): the first breaching datapoint, else the trigger; TS_NONE */
int64_t so_row_bar_start(const struct so_row *r);
/* The shared axis: the longest bar's length (ms), 0 when no row has one */
int64_t so_story_scale(const struct so_story *st);
/* The words for r's desired counts (scaleout_bar.c), one rule for the table, the page and
 * the TUI: "desired 4 ARROW 30", "desired 30 (unchanged: a rolling replacement)", "desired
 * to 30", "desired from 4", or "" as far as the counts are known (an unknown count is left
 * out, never shown as '?' or 0); brief drops "desired " and says "30 rolling" for a list
 * column. Writes at most size bytes into out; out. */
char *so_row_desired_text(const struct so_row *r, const char *arrow, bool brief, char *out,
			  size_t size);
/* Each stage's colour (rgb for the page and the workbook, ansi/xterm256 for the TUI): the
 * per-task stages in their phase's colours (phase.h) */
extern const struct phase_colour so_stage_colours[SO_STAGE_COUNT];

#endif
