/* diff_changes: the change points of one long history (`report --changes`): the history
 * cut into windows (per UTC day of createdAt, or per deployment), each window compared
 * with the one before it by the diff model (diff.h: the same statistics and explanation),
 * Holm's correction over every comparison of the history (each window's phases), and a
 * change point wherever a phase shifted significantly, with the attribute that explains it.
 * Ownership: a struct changes owns its windows' arrays, its points and their texts (freed
 * by changes_cleanup); the tasks stay the task set's, which must outlive it. */
#ifndef ECSPROF_DIFF_CHANGES_H
#define ECSPROF_DIFF_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include "ecsprof/diff.h"
#include "ecsprof/err.h"
#include "ecsprof/task.h"

enum changes_by { CHANGES_DAY, CHANGES_DEPLOYMENT };
/* "day" / "deployment"; -1 when neither */
int changes_by_parse(const char *s);

struct change_window {
	struct diff_window w;           /* its tasks (the array owned, the tasks borrowed) */
	int64_t start_ms;               /* the day's midnight, or the deployment's first createdAt */
	char label[64];                 /* "2026-12-03" or the deployment id */
};

struct change_point {
	size_t window;                  /* index of the new window; window - 1 is its baseline */
	enum diff_phase phase;
	struct diff_cmp cmp;            /* p_holm, significant: over the whole history */
	enum diff_why why;
	int attr;                       /* enum diff_attr, -1 when nothing explains it */
	char *value;                    /* owned: the attribute's new value, NULL without one */
	char *cause;                    /* owned: diff_cause_text */
	char *explanation;              /* owned: diff_explain_text */
};

struct changes {
	enum changes_by by;
	struct change_window *windows;  /* owned, in time order */
	size_t nwindows;
	size_t left_out;                /* tasks in no window (no createdAt / no deployment) */
	size_t compared;                /* comparisons in the Holm family */
	struct change_point *points;    /* owned, by window then phase */
	size_t npoints;
	char **notes;                   /* owned: what was compared, or that nothing shifted */
	size_t nnotes;
};

/* Cuts s into windows and finds the change points. ERR_PARSE when fewer than two windows
 * have tasks (nothing to compare). */
int changes_build(struct changes *c, const struct task_set *s, enum changes_by by,
		  struct err *err);
void changes_cleanup(struct changes *c);

/* The row table "change_points" (rowtab.h), one row per change point; borrows c. */
struct row_table;
void changes_table(const struct changes *c, struct row_table *t);

#endif
