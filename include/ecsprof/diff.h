/* diff: what changed between two windows of tasks (a baseline and a new one): per phase
 * the two sides' n, p50 and p90, the change with its 95% CI and a Holm-corrected
 * Mann-Whitney p-value; the task attributes whose mix differs between the windows; for
 * each significant change the attribute that explains it (the new window split by it,
 * each part against the whole baseline); and the --fail-on gates read off all that.
 * Ownership: a struct diff owns its parts, values and notes (freed by diff_cleanup); it
 * borrows nothing after diff_build returns but the task strings its values point at, so
 * keep the task sets alive until diff_cleanup. */
#ifndef ECSPROF_DIFF_H
#define ECSPROF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/task.h"

#define DIFF_ALPHA 0.05
/* Bootstrap resamples for the CI of a p50 change, and the fixed seed that makes every
 * run on the same data print the same interval. */
#define DIFF_BOOTSTRAP 1000
#define DIFF_SEED 0x5eedd1ffULL
/* From this many values on both sides the CI is diff_order_ci's closed form instead. */
#define DIFF_ORDER_CI_MIN 500
/* A part on a value the baseline had may still change significantly (large windows make
 * a drift of a tenth of a second significant): the new values' part explains the change
 * when the old values' parts change by at most this share of its change. */
#define DIFF_EXPLAIN_SHARE 0.25

/* The phases a diff compares, in its rows' order. provision is split into attach
 * (createdAt -> connectivityAt) and wait (connectivityAt -> pullStartedAt). */
enum diff_phase {
	DIFF_PROVISION, DIFF_ATTACH, DIFF_WAIT, DIFF_PULL, DIFF_START, DIFF_TOTAL,
	DIFF_READY, DIFF_SERVING, DIFF_PHASE_COUNT
};
const char *diff_phase_name(enum diff_phase p);     /* "pull" */
int diff_phase_by_name(const char *name);            /* -1 when unknown */
/* The task's seconds in phase p; NAN when an end is missing or it would be negative. */
double diff_phase_secs(const struct task *t, enum diff_phase p);

/* The attributes whose mix a diff tests, in the order an explanation prefers them. */
enum diff_attr {
	DIFF_DIGEST, DIFF_TASKDEF, DIFF_PLATFORM, DIFF_CAPACITY, DIFF_AZ, DIFF_ARCH,
	DIFF_SOCI, DIFF_REGISTRY, DIFF_ATTR_COUNT
};
const char *diff_attr_name(enum diff_attr a);        /* "image_digest" */
const char *diff_attr_words(enum diff_attr a);       /* "image digest" */
/* The task's value (borrowed from the task, or "(none)"); buf for a built one. */
const char *diff_attr_value(const struct task *t, enum diff_attr a, char *buf, size_t size);

/* A window: the tasks (borrowed) of one side, and their set's image facts (image.h;
 * borrowed, NULL when none), which give a digest its size. */
struct image_set;
struct diff_window {
	const struct task *const *v;
	size_t n;
	const struct image_set *images;
};

/* diff_window.c: a window of every task of s (the tasks borrowed from s) */
void diff_window_all(const struct task_set *s, struct diff_window *w);
/* One history in two at cut_ms: createdAt before it is the baseline, at or after it the
 * new window. Returns how many tasks have no createdAt (in neither window). */
size_t diff_window_split(const struct task_set *s, int64_t cut_ms, struct diff_window *base,
			 struct diff_window *cur);
void diff_window_free(struct diff_window *w);
/* The first and last createdAt of s; -1 when no task has one. */
int diff_history_span(const struct task_set *s, int64_t *first_ms, int64_t *last_ms);
/* The first createdAt of the deployment (startedBy "ecs-svc/...") whose first task is the
 * newest, its id in *id (borrowed from s), and how many deployments s has; TS_NONE when it
 * has none. */
int64_t diff_newest_deployment(const struct task_set *s, const char **id, size_t *ndeployments);

/* The window's seconds in phase p over the tasks that have them, in the window's order
 * (the caller frees the array). */
double *diff_window_values(const struct diff_window *w, enum diff_phase p, size_t *n);

struct diff_side {
	size_t n;
	double p50, p90, mean;          /* NAN when n == 0 */
};

/* One comparison of a phase: the whole new window (or one part of it) against the whole
 * baseline. */
struct diff_cmp {
	struct diff_side base, cur;
	bool valid;                     /* both sides have data */
	double p50_delta_s, p90_delta_s, mean_delta_s;
	/* the 95% percentile-bootstrap CI of the p50 change (DIFF_BOOTSTRAP resamples of
	 * each side, fixed seed; diff_order_ci from DIFF_ORDER_CI_MIN values per side); NAN
	 * when a side has fewer than 2 values */
	double ci_lo_s, ci_hi_s;
	double p_value;                 /* two-sided Mann-Whitney; NAN when not valid */
	double p_holm;                  /* Holm-corrected over its family */
	bool significant;               /* p_holm < DIFF_ALPHA */
	bool too_few;                   /* even fully separated samples could not be */
	double sd_s;                    /* pooled SD (power.h); NAN with < 2 per side */
};

/* One value of an attribute: how many tasks of each window have it. */
struct diff_value {
	char *value;                    /* owned */
	size_t base_n, new_n;
	int64_t size_bytes;             /* DIFF_DIGEST: compressed, from image facts; -1 unknown */
};

struct diff_mix {
	struct diff_value *values;      /* owned; new window's count first, then baseline's */
	size_t nvalues;
	double p_value, p_holm;         /* stats_mix_test, Holm over the attributes */
	bool fisher;
	int df;
	bool differs;                   /* p_holm < DIFF_ALPHA */
};

/* One part of a split: the new window's tasks with one value of an attribute, in one
 * phase, against the whole baseline. */
struct diff_part {
	enum diff_phase phase;
	enum diff_attr attr;
	size_t value;                   /* index into mix[attr].values */
	bool in_baseline;               /* the value also has baseline tasks */
	struct diff_cmp cmp;            /* Holm over the parts of this phase and attribute */
};

/* Why a significant phase change happened, as far as the splits can tell. */
enum diff_why {
	DIFF_WHY_NONE,                  /* not a significant change */
	DIFF_WHY_EXPLAINED,             /* attr: the new value's part carries it, the rest not */
	DIFF_WHY_CONFOUNDED,            /* attr changed for every new task: cannot be separated */
	DIFF_WHY_EVERYWHERE,            /* changed attributes split it, but no one explains it */
	DIFF_WHY_NOTHING_CHANGED,       /* no attribute's mix differs */
};

struct diff_explain {
	enum diff_why why;
	enum diff_attr attr;            /* EXPLAINED, CONFOUNDED */
	unsigned also;                  /* other attributes that qualify as well (bit per attr) */
};

struct diff {
	size_t base_n, new_n;           /* tasks in each window */
	struct diff_cmp phase[DIFF_PHASE_COUNT];   /* Holm over the valid phases */
	struct diff_mix mix[DIFF_ATTR_COUNT];
	struct diff_part *parts;        /* owned */
	size_t nparts;
	struct diff_explain explain[DIFF_PHASE_COUNT];
	/* within the new window, the tasks on values the baseline never had against those on
	 * values it had (Mann-Whitney): an explaining split must separate them, not only leave
	 * a part too small to be significant; NAN when a side is empty or not split */
	double split_p[DIFF_PHASE_COUNT][DIFF_ATTR_COUNT];
	char *taskdef_note;             /* "web:7 -> web:8: memory 512 -> 1024", or NULL */
	char **notes;                   /* owned: the explanations and power lines, as the
					   phases table's notes */
	size_t nnotes;
};

/* Compares the windows. Fails (ERR_PARSE) when a window has no task. */
int diff_build(struct diff *d, const struct diff_window *base, const struct diff_window *cur,
	       struct err *err);
void diff_cleanup(struct diff *d);

/* The 95% CI of median(b) - median(a), a and b sorted: the percentile bootstrap
 * (DIFF_BOOTSTRAP resamples, DIFF_SEED), and the order-statistic closed form
 * diff_compare uses from DIFF_ORDER_CI_MIN values per side (-1 when a side is too small). */
void diff_bootstrap_ci(const double *a, size_t na, const double *b, size_t nb, double *lo,
		       double *hi);
int diff_order_ci(const double *a, size_t na, const double *b, size_t nb, double *lo,
		  double *hi);

/* Compares two samples (sorted in place) into c, Holm left to the caller (p_holm =
 * p_value, significant from it). */
void diff_compare(double *a, size_t na, double *b, size_t nb, struct diff_cmp *c);

/* "sha256:ab12cd34ef56.." (a digest cut to 12 hex digits), else the value; returns out. */
const char *diff_short_value(const char *v, char *out, size_t size);
/* Seconds as the phases' columns show them, "14.4", and "-" for NAN (no data); the table
 * and the TUI share it so their figures are the same bytes. Returns out. */
const char *diff_secs(double s, char *out, size_t size);
/* Seconds with a sign, "+38.2 s" ("+0.0 s", not "-0.0 s"), "-" for NAN. Returns out. */
const char *diff_signed_secs(double s, char *out, size_t size);
/* A p-value as the table and the TUI print it: "p<0.001", "p=0.042", "p=1.000", "p=?"
 * (NAN). Returns out. */
const char *diff_p_text(double p, char *out, size_t size);
/* A CI as the table and the TUI print it, "[+32.3, +34.9]" (no "-0.0"). Returns out. */
const char *diff_ci_text(double lo, double hi, char *out, size_t size);

/* The text the table shows, a line at a time (no newline), for the caller's sink:
 * the phases side by side, footnotes, what changed, the explanations and power lines.
 * width: the phases table's room (0: no limit); the P90 CHANGE column is left out when
 * it would not fit, so that a phase stays one line (the other lines the caller wraps). */
typedef void diff_line_fn(void *ctx, const char *line);
void diff_lines(const struct diff *d, int width, diff_line_fn *fn, void *ctx);
/* One explanation: "pull p50 +38.2 s: tasks with image digest sha256:ab12.. +39.0 s
 * (n=40); tasks still on sha256:9f3e.. +0.4 s ~ (n=12)". */
void diff_explain_text(const struct diff *d, enum diff_phase p, char *out, size_t size);
/* The likely cause of a phase's change, in a few words ("image digest sha256:ab12..",
 * "unexplained"). */
void diff_cause_text(const struct diff *d, enum diff_phase p, char *out, size_t size);
/* The power line of a phase: what change these window sizes detect 80% of the time; for a
 * phase with no data on one side, "pull: no data on one side, nothing to compare". */
void diff_power_text(const struct diff *d, enum diff_phase p, char *out, size_t size);

/* Row tables (rowtab.h) over a built diff: "phases" (one row per phase, then one per
 * phase and part of a split, the contract's columns), "changes" (one row per attribute
 * value of each attribute whose mix differs). The tables borrow d. */
struct row_table;
void diff_phase_table(const struct diff *d, struct row_table *t);
void diff_change_table(const struct diff *d, struct row_table *t);

/* --fail-on: PHASE.STAT>+N%, PHASE.STAT>+Ns, and < for improvements; STAT p50|p90|mean. */
enum diff_stat { DIFF_STAT_P50, DIFF_STAT_P90, DIFF_STAT_MEAN };
struct diff_gate {
	const char *expr;               /* borrowed: as typed */
	enum diff_phase phase;
	enum diff_stat stat;
	bool less;                      /* '<' */
	bool percent;                   /* relative to the baseline's statistic */
	double value;                   /* seconds or percent, signed as typed */
};
/* ERR_USAGE naming what is wrong in s. */
int diff_gate_parse(const char *s, struct diff_gate *g, struct err *err);
/* 1 when a significant change crosses the gate (line: "ecsprof diff: --fail-on EXPR:
 * pull p50 +38.2 s (12.1 s -> 50.3 s, +316%, p<0.001, n=60+52); likely cause: ..."), 0
 * when not, -1 (ERR_PARSE) when the phase has no data on a side. */
int diff_gate_check(const struct diff *d, const struct diff_gate *g, char *line, size_t size,
		    struct err *err);

#endif
