/* report: turns a task set into what every output shows: rows (one per task) described
 * by one column table, and groups with per-phase summaries and the baseline comparison.
 * Ownership: a struct report owns its rows, groups, group names and kept costs, but only
 * borrows the tasks, which stay owned by the task_set: keep the set alive (and unchanged)
 * until report_cleanup(). */
#ifndef ECSPROF_REPORT_H
#define ECSPROF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/cost.h"
#include "ecsprof/report_cols.h"
#include "ecsprof/err.h"
#include "ecsprof/group.h"
#include "ecsprof/numfmt.h"
#include "ecsprof/phase.h"
#include "ecsprof/stats.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"

extern const struct column_def report_columns[COL_COUNT];

/* Accepts the CSV name ("pull_s"), a phase name ("pull"), or the title, any case. */
int report_column_by_name(const char *name);

struct report_row {
	const struct task *task;   /* borrowed from the task_set */
	size_t group;              /* index into report.groups */
};

struct phase_compare {
	bool valid;                /* false on the baseline itself or when a side is empty */
	double p50_delta_s, p50_ratio;
	double p90_delta_s, p90_ratio;
	double p_value;            /* two-sided Mann-Whitney; NAN if not computable */
	double p_holm;             /* p_value Holm-corrected over the phases compared */
	bool too_few;              /* even fully separated samples this small give p >= 0.05 */
	double u;
};

/* One price a --prices FILE would need: "eu-west-1 x86_64 FARGATE_SPOT" and how many of
 * the group's tasks need it. */
struct report_unpriced {
	char what[96];
	size_t n;
};

struct report_group {
	char *name;
	size_t ntasks;
	struct stats_summary phase[PHASE_COUNT];   /* seconds */
	struct phase_compare cmp[PHASE_COUNT];     /* against the baseline group */
	double pull_share;         /* sum(pull)/sum(total) over tasks having both; NAN if none */
	/* startup cost (cost.h) over the group's tasks that have one */
	size_t cost_n;
	double cost_sum_usd;
	double cost_mean_usd;      /* NAN when cost_n is 0 */
	double cost_delta_per_1000_usd;   /* (mean - baseline mean) x 1000; NAN on the baseline */
	/* Fargate tasks with a billed start but no price for their region, architecture and
	 * capacity (Spot is never built in), and each distinct "REGION ARCH CAPACITY" they
	 * need, in the order first seen (owned by the group) */
	size_t cost_unpriced;
	struct report_unpriced *unpriced;
	size_t nunpriced;
};

struct report_options {
	struct group_key group_by;      /* kind GK_ALL when not grouping */
	const char *baseline;           /* group name, NULL = first group in name order */
	int sort_col;                   /* enum col_id, -1 = created_at order */
	bool sort_desc;
	const struct cost_prices *prices;   /* --prices; NULL: the built-in table (copied) */
};

struct report {
	struct report_row *rows;
	size_t nrows;
	struct report_group *groups;    /* sorted by name (byte order); "(none)" last */
	size_t ngroups;
	size_t baseline;                /* index into groups */
	size_t negative_phases;         /* phases dropped for clock skew (a warning) */
	const struct image_set *images; /* the set's image facts (image.h), borrowed; NULL */
	struct cost_prices prices;      /* a copy of the options' */
	bool any_healthy;               /* some task has healthy_at: show ready and serving */
	/* each task's startup cost (cost_startup_usd, NAN when none), computed once by
	 * report_build: cost_usd[t - cost_tasks] for the set's tasks t (owned; NULL: none) */
	const struct task *cost_tasks;
	size_t cost_n;
	double *cost_usd;
};

/* Builds rows, groups, summaries and comparisons. Fails (ERR_USAGE) when --baseline
 * names a group that does not exist, listing the groups there are. */
int report_build(struct report *r, const struct task_set *set, const struct report_options *o,
		 struct err *err);
void report_cleanup(struct report *r);
/* Stable sort; missing values (and the "(none)" group) sort last in either direction.
 * col -1 is createdAt order. Text sorts in version order (cpu "256" < "1024"). */
void report_sort(struct report *r, int col, bool desc);
/* How many characters of a task id every output that cuts ids shows (table, HTML): the
 * shortest prefix, at least REPORT_ID_MIN long, that tells the report's tasks apart. */
#define REPORT_ID_MIN 8
int report_id_prefix_len(const struct report *r);

/* The cell as every output prints it: text as is, times ISO 8601 UTC with ms, durations
 * "12.345" (seconds). Missing -> "". Returns out. */
const char *report_cell(const struct report *r, const struct report_row *row, enum col_id c,
			char *out, size_t size);
/* Every cell of a row at once, for the writers that print them all (csv): the text
 * report_cell() gives, uncut and without its copy, with what several columns share (the
 * image facts, the diagnosis) computed once. text[c] is borrowed from the task, the
 * report or the struct itself ("" when missing), valid while all three are; len[c] is its
 * length; raw[c] is true for the cells ecsprof writes itself (times, durations, numbers),
 * which hold only digits and "-.:TZ " and never need quoting or cleaning. Times as tf
 * says (timeutil_format_as); report_cell() is TIME_FORMAT_ISO. */
struct report_cells {
	const char *text[COL_COUNT];
	size_t len[COL_COUNT];
	size_t total;              /* the sum of len[] (a writer's reservation at once) */
	bool raw[COL_COUNT];
	char num[COL_COUNT][TIMEUTIL_ISO_LEN];
	char usd[NUMFMT_FIXED_LEN];
	struct task_arn_buf arn;   /* the ARN cell's text, joined (task_arn()) */
	struct digest_buf digest;  /* the digest cell's text (task_image_digest()) */
};
void report_row_cells(const struct report *r, const struct report_row *row,
		      enum time_format tf, struct report_cells *out);
/* The value to sort by for time/duration columns (ms), TS_NONE when missing. */
int64_t report_cell_ms(const struct report_row *row, enum col_id c);
/* A duration column of a phase still going at now_ms: how long so far (phase_so_far_ms),
 * TS_NONE for any other cell. */
int64_t report_cell_so_far_ms(const struct report_row *row, enum col_id c, int64_t now_ms);
/* When the data was taken: the newest fetch time or timestamp of the report's tasks
 * (TS_NONE for none), the "now" of a phase still going in saved data. */
int64_t report_data_time(const struct report *r);

/* The row's startup cost in USD (cost_startup_usd with the report's prices), NAN when
 * it has none: from report_build's table when the row's task is one of the set's. */
double report_row_cost_usd(const struct report *r, const struct report_row *row);
/* report_serving.c: the healthy, cost and diagnosis columns (text NULL when absent; ms
 * TS_NONE; cost sorts in micro-dollars), the groups' cost figures, and the phases an output
 * shows (the contract's five, plus ready and serving when r->any_healthy). */
const char *report_serving_text(const struct report *r, const struct report_row *row,
				enum col_id c, char *buf, size_t size);
int64_t report_serving_ms(const struct report *r, const struct report_row *row, enum col_id c);
void report_serving_build(struct report *r);
bool report_phase_shown(const struct report *r, enum phase_id p);
/* The group's startup-cost sentence for a summary ("startup cost: $0.000207 per start (mean
 * of 2, $0.21 per 1,000 starts), $0.53 less per 1,000 starts than FARGATE; 1 task without a
 * price (eu-west-1 x86_64 FARGATE_SPOT): add it with --prices FILE"; three kinds at most
 * named, then "; N more"), shared by the printed summary, the TUI's and the HTML's. False
 * (out empty) when the group has no Fargate start to price. */
bool report_cost_text(const struct report *r, size_t group, char *out, size_t size);
/* True when the row is a Fargate start with a billed time but no price for it, with the
 * "REGION ARCH CAPACITY" a --prices line would need in what (may be NULL). */
bool report_row_unpriced(const struct report *r, const struct report_row *row, char *what,
			 size_t size);
/* "us-east-1 x86_64 FARGATE_SPOT (2); eu-west-1 x86_64 FARGATE_SPOT (1)": the group's
 * unpriced kinds in one cell ("" when none). Returns out. */
const char *report_unpriced_list(const struct report_group *g, char *out, size_t size);
/* Counts of stopped tasks per diagnosis, in the order of the rules table: ids[i] (borrowed)
 * and counts[i] for i < the return value (at most max). */
size_t report_diagnosis_counts(const struct report *r, const char **ids, size_t *counts,
			       size_t max);
/* The same over the tasks of one group. */
size_t report_group_diagnosis_counts(const struct report *r, size_t group, const char **ids,
				     size_t *counts, size_t max);
/* "no-route-to-ecr (3); out-of-memory (1)": the group's counts in one cell ("" when
 * none). Returns out. */
const char *report_group_diagnosis_list(const struct report *r, size_t group, char *out,
					size_t size);

/* One sentence a reader understands without the man page, starting with the phase:
 * "pull p50 -85.2 s (x0.06) vs no-soci: significantly faster, p < 0.001, n = 20 vs 20",
 * "pull p50 +1.3 s (x1.02) vs no-soci: not significant (p = 0.70) with n = 8 vs 8",
 * "... not significant (p = 0.10) with n = 3 vs 3, too few tasks to tell" (when even
 * perfectly separated groups of that size could not reach p < 0.05),
 * "pull: baseline (the others are compared with it), n = 20",
 * "pull: no data to compare, n = 0 vs 20". Significant means p < 0.05. */
void report_verdict(const struct report *r, size_t group, enum phase_id p, char *out, size_t size);

#endif
