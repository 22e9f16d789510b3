/* phase: the startup phases of a task, defined once as a table that CSV, JSON, the table
 * and the TUI all read.
 * Ownership: nothing here allocates. */
#ifndef ECSPROF_PHASE_H
#define ECSPROF_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "ecsprof/task.h"

enum phase_id {
	PHASE_PROVISION,      /* pullStartedAt - createdAt */
	PHASE_PULL,           /* pullStoppedAt - pullStartedAt */
	PHASE_START,          /* startedAt - pullStoppedAt */
	PHASE_TOTAL,          /* startedAt - createdAt */
	PHASE_CONNECTIVITY,   /* connectivityAt - createdAt (not part of the sum) */
	/* time to serving (health.h): not in the contract's summary CSV, and shown elsewhere
	 * only when some task has a healthy_at (phase_is_extra) */
	PHASE_READY,          /* healthyAt - startedAt: the app's own start */
	PHASE_SERVING,        /* healthyAt - createdAt */
	PHASE_COUNT
};

struct phase_def {
	enum phase_id id;
	const char *name;     /* "pull" */
	const char *csv_name; /* "pull_s" */
	const char *desc;     /* "image pull" */
	enum ts_field from;
	enum ts_field to;
};
extern const struct phase_def phase_defs[PHASE_COUNT];

/* The one colour of a drawn phase in every output that draws (TUI, HTML, xlsx), so a
 * phase looks the same wherever it is shown: rgb for the page and the workbook, and the
 * terminal's nearest: ansi (0-7, the numbering curses' COLOR_* share), and xterm256 where
 * the eight colours have no near one that reads on every background (pull: yellow all
 * but vanishes on white; -1 elsewhere). Group colours (html_group_colour) are chosen
 * apart from these. rgb is 0 for the phases not drawn as bars (total, connectivity,
 * serving). */
struct phase_colour {
	uint32_t rgb;
	short ansi;
	short xterm256;
};
extern const struct phase_colour phase_colours[PHASE_COUNT];

/* Duration in ms; TS_NONE when either end is missing or the result would be negative. */
int64_t phase_ms(const struct task *t, enum phase_id p);
/* True when both ends exist and to < from (clock skew in the data). */
bool phase_is_negative(const struct task *t, enum phase_id p);
int phase_by_name(const char *name);  /* -1 if unknown */
/* READY and SERVING: beyond the five phases of the contract's summary CSV. */
bool phase_is_extra(enum phase_id p);

/* task_stage() (task.h) in phase terms: the phase a task still starting is in
 * (PROVISION, PULL or START) and since when (ms); -1 in any other stage. */
int phase_current(const struct task *t, int64_t *since_ms);
/* A phase still going at now_ms: how long so far (the phase a task still starting is in,
 * or TOTAL of such a task), TS_NONE for any other phase. The TUI and the table show it
 * with a trailing "…" where an ended phase has its duration. */
int64_t phase_so_far_ms(const struct task *t, enum phase_id p, int64_t now_ms);

#endif
