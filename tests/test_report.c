/* Tests for report.c: rows and their order, groups and "(none)", per-phase statistics,
 * the baseline comparison and its errors, sorting, cells and the verdict sentence. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/report.h"
#include "ecsprof/xalloc.h"

/* 2024-05-01T10:00:00Z */
#define T0 1714557600000LL
#define NONE (-1.0)

static int64_t
at(double offset_s)
{
	return offset_s < 0 ? TS_NONE : T0 + (int64_t)llround(offset_s * 1000.0);
}

/* A task in group `team` (NULL: no tag), with times in seconds after T0 (NONE: absent). */
static void
add_task(struct task_set *s, const char *id, const char *team, double created,
	 double pull_started, double pull_stopped, double started)
{
	struct task t;

	task_init(&t);
	task_set_arnf(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/%s", id);
	task_set_ts(&t, TS_CREATED, at(created));
	task_set_ts(&t, TS_PULL_STARTED, at(pull_started));
	task_set_ts(&t, TS_PULL_STOPPED, at(pull_stopped));
	task_set_ts(&t, TS_STARTED, at(started));
	if (team != NULL) {
		struct tag *tg = task_tags(&t, 1);
		task_str(&t, &tg[0].key, "team");
		task_str(&t, &tg[0].value, team);
	}
	task_derive(&t);
	task_set_take(s, &t);
}

static struct report_options
by_team(const char *baseline)
{
	struct report_options o;

	memset(&o, 0, sizeof o);
	o.group_by.kind = GK_TAG;
	o.group_by.tag = (char *)"team";
	o.baseline = baseline;
	o.sort_col = -1;
	return o;
}

static const char *
row_id(const struct report *r, size_t i)
{
	return task_id(r->rows[i].task);
}

Test(report, rows_in_created_order_and_groups_sorted)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;

	task_set_init(&s);
	add_task(&s, "t3", "zeta", 30, 31, 32, 33);
	add_task(&s, "t1", NULL, 10, 11, 12, 13);
	add_task(&s, "tx", "alpha", NONE, NONE, NONE, NONE);
	add_task(&s, "t2", "alpha", 20, 21, 22, 23);
	add_task(&s, "t0", "Beta", 0, 1, 2, 3);

	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(r.nrows, 5);
	cr_expect_str_eq(row_id(&r, 0), "t0");
	cr_expect_str_eq(row_id(&r, 1), "t1");
	cr_expect_str_eq(row_id(&r, 2), "t2");
	cr_expect_str_eq(row_id(&r, 3), "t3");
	cr_expect_str_eq(row_id(&r, 4), "tx", "a task without createdAt comes last");

	/* byte order ("Beta" < "alpha"), "(none)" last */
	cr_assert_eq(r.ngroups, 4);
	cr_expect_str_eq(r.groups[0].name, "Beta");
	cr_expect_str_eq(r.groups[1].name, "alpha");
	cr_expect_str_eq(r.groups[2].name, "zeta");
	cr_expect_str_eq(r.groups[3].name, GROUP_NONE);
	cr_expect_eq(r.groups[1].ntasks, 2);
	cr_expect_eq(r.baseline, 0, "default baseline: the first group");
	for (size_t i = 0; i < r.nrows; i++) {
		char team[64];
		const char *want = task_tag(r.rows[i].task, "team");

		report_cell(&r, &r.rows[i], COL_GROUP, team, sizeof team);
		cr_expect_str_eq(team, want ? want : GROUP_NONE);
	}
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, no_grouping_is_one_group)
{
	struct task_set s;
	struct report r;
	struct report_options o;
	struct err err;

	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	task_set_init(&s);
	add_task(&s, "a", "x", 0, 1, 2, 3);
	add_task(&s, "b", NULL, 0, 1, 2, 3);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	cr_assert_eq(r.ngroups, 1);
	cr_expect_str_eq(r.groups[0].name, "all");
	cr_expect_eq(r.groups[0].ntasks, 2);
	cr_expect_eq(r.groups[0].cmp[PHASE_PULL].valid, false);
	report_cleanup(&r);
	task_set_cleanup(&s);

	/* and no tasks at all: no rows, no groups, no crash */
	task_set_init(&s);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	cr_expect_eq(r.nrows, 0);
	cr_expect_eq(r.ngroups, 0);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, phase_statistics_in_seconds)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	const struct report_group *g;

	task_set_init(&s);
	/* provision 1 s; pulls 10, 20, 30, 40 s; start 2 s; one task never pulled */
	add_task(&s, "a", "web", 0, 1, 11, 13);
	add_task(&s, "b", "web", 0, 1, 21, 23);
	add_task(&s, "c", "web", 0, 1, 31, 33);
	add_task(&s, "d", "web", 0, 1, 41, 43);
	add_task(&s, "e", "web", 0, NONE, NONE, NONE);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	g = &r.groups[0];
	cr_expect_eq(g->ntasks, 5);
	cr_expect_eq(g->phase[PHASE_PULL].n, 4);
	cr_expect_float_eq(g->phase[PHASE_PULL].min, 10.0, 1e-9);
	cr_expect_float_eq(g->phase[PHASE_PULL].p50, 25.0, 1e-9);
	/* h = 3 * 0.9 = 2.7 -> 30 + 0.7 * 10 */
	cr_expect_float_eq(g->phase[PHASE_PULL].p90, 37.0, 1e-9);
	cr_expect_float_eq(g->phase[PHASE_PULL].max, 40.0, 1e-9);
	cr_expect_float_eq(g->phase[PHASE_PULL].mean, 25.0, 1e-9);
	cr_expect_float_eq(g->phase[PHASE_TOTAL].p50, 28.0, 1e-9);
	cr_expect_float_eq(g->phase[PHASE_PROVISION].max, 1.0, 1e-9);
	cr_expect_eq(g->phase[PHASE_CONNECTIVITY].n, 0);
	cr_expect(isnan(g->phase[PHASE_CONNECTIVITY].p50));
	/* pull share: (10+20+30+40) / (13+23+33+43) */
	cr_expect_float_eq(g->pull_share, 100.0 / 112.0, 1e-12);
	cr_expect_eq(r.negative_phases, 0);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, negative_phases_are_dropped_and_counted)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	char cell[32];

	task_set_init(&s);
	/* pullStoppedAt before pullStartedAt, and startedAt before pullStoppedAt:
	 * pull and start are negative; provision and total are fine */
	add_task(&s, "skew", "web", 0, 5, 4, 4.5);
	add_task(&s, "ok", "web", 0, 1, 2, 3);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	cr_expect_eq(r.negative_phases, 1, "pull of 'skew' (start 4.5 - 4 is positive)");
	cr_expect_eq(r.groups[0].phase[PHASE_PULL].n, 1);
	cr_expect_eq(r.groups[0].phase[PHASE_TOTAL].n, 2);
	for (size_t i = 0; i < r.nrows; i++)
		if (strcmp(row_id(&r, i), "skew") == 0) {
			report_cell(&r, &r.rows[i], COL_PULL_S, cell, sizeof cell);
			cr_expect_str_eq(cell, "", "a negative phase prints empty");
			report_cell(&r, &r.rows[i], COL_TOTAL_S, cell, sizeof cell);
			cr_expect_str_eq(cell, "4.500");
		}
	report_cleanup(&r);
	task_set_cleanup(&s);

	task_set_init(&s);
	add_task(&s, "worse", "web", 10, 5, 4, 3);   /* provision, pull, start, total < 0 */
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	cr_expect_eq(r.negative_phases, 4);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* no-soci: 20 tasks pulling ~90 s; soci: 20 tasks pulling ~5 s */
static void
soci_experiment(struct task_set *s, size_t n_each)
{
	char id[32];

	for (size_t i = 0; i < n_each; i++) {
		double pull = 88.0 + (double)i * 0.25, provision = 20.0 + (double)(i % 3);

		snprintf(id, sizeof id, "before%02zu", i);
		add_task(s, id, "no-soci", (double)i, i + provision, i + provision + pull,
			 i + provision + pull + 4.0);
		pull = 4.0 + (double)i * 0.125;
		snprintf(id, sizeof id, "after%02zu", i);
		add_task(s, id, "soci", 100.0 + (double)i, 100.0 + i + provision,
			 100.0 + i + provision + pull, 100.0 + i + provision + pull + 4.0);
	}
}

Test(report, comparison_against_baseline)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	const struct phase_compare *c;
	const struct report_group *base, *soci;
	double p, u, a[20], b[20];

	task_set_init(&s);
	soci_experiment(&s, 20);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	cr_assert_eq(r.ngroups, 2);
	cr_expect_str_eq(r.groups[r.baseline].name, "no-soci");
	base = &r.groups[0];
	soci = &r.groups[1];
	cr_expect_eq(base->cmp[PHASE_PULL].valid, false, "no comparison on the baseline itself");
	c = &soci->cmp[PHASE_PULL];
	cr_assert(c->valid);
	/* pulls 88 + 0.25 i and 4 + 0.125 i, i = 0..19: p50 at i = 9.5 */
	cr_expect_float_eq(base->phase[PHASE_PULL].p50, 90.375, 1e-9);
	cr_expect_float_eq(soci->phase[PHASE_PULL].p50, 5.1875, 1e-9);
	cr_expect_float_eq(c->p50_delta_s, 5.1875 - 90.375, 1e-9);
	cr_expect_float_eq(c->p50_ratio, 5.1875 / 90.375, 1e-12);
	cr_expect_float_eq(c->p90_delta_s, soci->phase[PHASE_PULL].p90 - base->phase[PHASE_PULL].p90,
			   1e-9);
	/* no overlap, 20 vs 20: the exact two-sided p is 2 / C(40, 20) */
	cr_expect_float_eq(c->p_value, 2.0 / 137846528820.0, 1e-20);
	cr_expect_eq(c->u, 0.0, "U of the soci group: it never pulls slower");
	/* the same p as the test on the raw durations */
	for (int i = 0; i < 20; i++) {
		a[i] = 4.0 + i * 0.125;
		b[i] = 88.0 + i * 0.25;
	}
	cr_assert_eq(stats_mann_whitney(a, 20, b, 20, &p, &u), 0);
	cr_expect_float_eq(c->p_value, p, 1e-20);

	/* provision is the same distribution in both groups: identical samples, p = 1 */
	cr_expect(soci->cmp[PHASE_PROVISION].valid);
	cr_expect_float_eq(soci->cmp[PHASE_PROVISION].p50_delta_s, 0.0, 1e-9);
	cr_expect_float_eq(soci->cmp[PHASE_PROVISION].p50_ratio, 1.0, 1e-12);
	cr_expect_float_eq(soci->cmp[PHASE_PROVISION].p_value, 1.0, 1e-12);
	cr_expect_eq(soci->cmp[PHASE_CONNECTIVITY].valid, false, "no data on either side");
	report_cleanup(&r);

	/* the other way round */
	o.baseline = "soci";
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	cr_expect_eq(r.baseline, 1);
	cr_expect(r.groups[0].cmp[PHASE_PULL].valid);
	cr_expect_float_eq(r.groups[0].cmp[PHASE_PULL].p50_delta_s, 90.375 - 5.1875, 1e-9);
	cr_expect_eq(r.groups[1].cmp[PHASE_PULL].valid, false);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, unknown_baseline_lists_the_groups)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team("nosoci");
	struct err err;

	task_set_init(&s);
	soci_experiment(&s, 2);
	add_task(&s, "untagged", NULL, 1, 2, 3, 4);
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect_not_null(strstr(err.msg, "'nosoci'"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "'no-soci'"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "'soci'"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "'(none)'"), "%s", err.msg);
	cr_expect_eq(r.rows, NULL, "a failed build leaves nothing to free");
	report_cleanup(&r);
	task_set_cleanup(&s);

	task_set_init(&s);
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect_not_null(strstr(err.msg, "no tasks"), "%s", err.msg);
	task_set_cleanup(&s);
}

Test(report, baseline_can_be_none_group)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(GROUP_NONE);
	struct err err;

	task_set_init(&s);
	add_task(&s, "a", "web", 0, 1, 2, 3);
	add_task(&s, "b", NULL, 0, 1, 5, 6);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	cr_expect_str_eq(r.groups[r.baseline].name, GROUP_NONE);
	cr_expect_float_eq(r.groups[0].cmp[PHASE_PULL].p50_delta_s, -3.0, 1e-9);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, column_by_name)
{
	cr_expect_eq(report_column_by_name("pull_s"), COL_PULL_S);
	cr_expect_eq(report_column_by_name("pull"), COL_PULL_S);
	cr_expect_eq(report_column_by_name("PULL"), COL_PULL_S);
	cr_expect_eq(report_column_by_name("Total"), COL_TOTAL_S);
	cr_expect_eq(report_column_by_name("connectivity"), COL_CONNECTIVITY_S);
	cr_expect_eq(report_column_by_name("created_at"), COL_CREATED_AT);
	cr_expect_eq(report_column_by_name("created"), COL_CREATED_AT);
	cr_expect_eq(report_column_by_name("TASK"), COL_TASK_ID);
	cr_expect_eq(report_column_by_name("availability_zone"), COL_AZ);
	cr_expect_eq(report_column_by_name("soci_evidence"), COL_SOCI_EVIDENCE);
	cr_expect_eq(report_column_by_name("nope"), -1);
	cr_expect_eq(report_column_by_name(""), -1);
	/* the table is in CSV order and names match the enum */
	for (int i = 0; i < COL_COUNT; i++)
		cr_expect_eq(report_columns[i].id, (enum col_id)i);
	cr_expect_str_eq(report_columns[0].name, "task_arn");
	cr_expect_str_eq(report_columns[COL_SOURCE].name, "source");
	/* the image columns come after the contract's first ones */
	cr_expect_str_eq(report_columns[COL_COUNT - 1].name, "soci_advice");
}

Test(report, cells)
{
	struct task_set s;
	struct task t;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	char cell[128];
	const struct report_row *row;

	task_set_init(&s);
	task_init(&t);
	task_set_arn(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/0123abcd", strlen("arn:aws:ecs:us-east-1:123456789012:task/prod/0123abcd"));
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:123456789012:task-definition/web:12");
	task_str(&t, &task_edit_profile(&t)->cpu, "256");
	task_str(&t, &task_edit_profile(&t)->stopped_reason, "=cmd|' /C calc'!A0");
	task_set_ts(&t, TS_CREATED, T0 + 3123);
	task_set_ts(&t, TS_PULL_STARTED, T0 + 5000);
	task_set_ts(&t, TS_PULL_STOPPED, T0 + 17345);
	task_set_ts(&t, TS_STARTED, T0 + 17345);
	t.soci = SOCI_NO;
	t.soci_evidence = SOCI_EVIDENCE_RULE;
	task_derive(&t);
	task_set_take(&s, &t);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	row = &r.rows[0];
	cr_expect_str_eq(report_cell(&r, row, COL_TASK_ID, cell, sizeof cell), "0123abcd");
	cr_expect_str_eq(report_cell(&r, row, COL_CLUSTER, cell, sizeof cell), "prod");
	cr_expect_str_eq(report_cell(&r, row, COL_TASKDEF, cell, sizeof cell), "web:12");
	cr_expect_str_eq(report_cell(&r, row, COL_CPU, cell, sizeof cell), "256");
	cr_expect_str_eq(report_cell(&r, row, COL_MEMORY, cell, sizeof cell), "");
	cr_expect_str_eq(report_cell(&r, row, COL_IMAGE, cell, sizeof cell), "");
	cr_expect_str_eq(report_cell(&r, row, COL_SOCI, cell, sizeof cell), "no-soci");
	cr_expect_str_eq(report_cell(&r, row, COL_SOCI_EVIDENCE, cell, sizeof cell), "rule");
	cr_expect_str_eq(report_cell(&r, row, COL_GROUP, cell, sizeof cell), GROUP_NONE);
	cr_expect_str_eq(report_cell(&r, row, COL_CREATED_AT, cell, sizeof cell),
			 "2024-05-01T10:00:03.123Z");
	cr_expect_str_eq(report_cell(&r, row, COL_STOPPED_AT, cell, sizeof cell), "");
	cr_expect_str_eq(report_cell(&r, row, COL_PROVISION_S, cell, sizeof cell), "1.877");
	cr_expect_str_eq(report_cell(&r, row, COL_PULL_S, cell, sizeof cell), "12.345");
	cr_expect_str_eq(report_cell(&r, row, COL_START_S, cell, sizeof cell), "0.000");
	cr_expect_str_eq(report_cell(&r, row, COL_TOTAL_S, cell, sizeof cell), "14.222");
	cr_expect_str_eq(report_cell(&r, row, COL_CONNECTIVITY_S, cell, sizeof cell), "");
	/* neutralising formulas is the CSV writer's job: the cell is the raw text */
	cr_expect_str_eq(report_cell(&r, row, COL_STOPPED_REASON, cell, sizeof cell),
			 "=cmd|' /C calc'!A0");
	cr_expect_eq(report_cell_ms(row, COL_PULL_S), 12345);
	cr_expect_eq(report_cell_ms(row, COL_CREATED_AT), T0 + 3123);
	cr_expect_eq(report_cell_ms(row, COL_TASK_ID), TS_NONE);
	/* a short buffer truncates, never overflows */
	cr_expect_str_eq(report_cell(&r, row, COL_CREATED_AT, cell, 5), "2024");
	report_cleanup(&r);
	task_set_cleanup(&s);
}

static void
ids(const struct report *r, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < r->nrows && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", row_id(r, i));
}

Test(report, sort_by_any_column_missing_last_stable)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	char got[256];
	struct task *t;

	task_set_init(&s);
	add_task(&s, "a", "x", 0, 1, 31, 32);     /* pull 30 */
	add_task(&s, "b", "y", 1, 2, 12, 13);     /* pull 10 */
	add_task(&s, "c", NULL, 2, NONE, NONE, NONE);
	add_task(&s, "d", "x", 3, 4, 14, 15);     /* pull 10 */
	add_task(&s, "e", "y", 4, 5, 25, 26);     /* pull 20 */
	/* cpu as ECS gives it: strings that sort as numbers (a task in a set keeps its
	 * strings in the set's pool) */
	t = task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/a");
	task_str(t, &task_edit_profile(t)->cpu, "1024");
	t = task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/b");
	task_str(t, &task_edit_profile(t)->cpu, "256");
	t = task_set_find(&s, "arn:aws:ecs:us-east-1:123456789012:task/prod/e");
	task_str(t, &task_edit_profile(t)->cpu, "4096");

	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "a b c d e");

	report_sort(&r, COL_PULL_S, false);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "b d e a c", "ties keep the previous order, missing last");
	report_sort(&r, COL_PULL_S, true);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "a e b d c", "descending: missing still last");

	report_sort(&r, COL_CPU, false);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "b a e d c", "256 < 1024 < 4096, then the tasks without cpu");

	report_sort(&r, COL_GROUP, true);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "b e a d c", "group descending, '(none)' last");
	report_sort(&r, COL_GROUP, false);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "a d b e c", "group ascending, '(none)' last");

	report_sort(&r, COL_TASK_ID, true);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "e d c b a");

	report_sort(&r, -1, false);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "a b c d e", "-1 is createdAt order");
	report_cleanup(&r);

	/* report_build applies the requested sort */
	o.sort_col = COL_TOTAL_S;
	o.sort_desc = true;
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	ids(&r, got, sizeof got);
	cr_expect_str_eq(got, "a e b d c");
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* Each row's place, by its task id "tNNNN", so that a test checks the order kept on ties. */
static void
places(const struct report *r, size_t *at)
{
	for (size_t i = 0; i < r->nrows; i++)
		at[atoi(row_id(r, i) + 1)] = i;
}

/* r sorted by c: keys in order, missing last, ties in the order of before[] */
static void
expect_sorted_stable(const struct report *r, enum col_id c, bool desc, const size_t *before)
{
	for (size_t i = 1; i < r->nrows; i++) {
		int64_t a = report_cell_ms(&r->rows[i - 1], c), b = report_cell_ms(&r->rows[i], c);
		size_t pa = before[atoi(row_id(r, i - 1) + 1)], pb = before[atoi(row_id(r, i) + 1)];

		if (a == TS_NONE || b == TS_NONE) {
			cr_assert(b == TS_NONE, "row %zu: a missing key before a present one", i);
			cr_assert(a != TS_NONE || pa < pb, "row %zu: missing keys out of order", i);
			continue;
		}
		cr_assert(desc ? a >= b : a <= b, "row %zu: %lld then %lld", i, (long long)a,
			  (long long)b);
		cr_assert(a != b || pa < pb, "row %zu: a tie out of its previous order", i);
	}
}

/* Many rows (the merge sort of time keys, past its runs of 16), many ties and missing keys:
 * the order qsort_r with the comparison gave. */
Test(report, sort_many_rows_by_time_keys)
{
	enum { N = 2000 };
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	size_t *before = xcalloc(N, sizeof *before);
	unsigned seed = 7;

	task_set_init(&s);
	for (int i = 0; i < N; i++) {
		char id[16];
		double created, pull;

		seed = seed * 1103515245u + 12345u;
		created = (double)(seed >> 16 & 255);
		seed = seed * 1103515245u + 12345u;
		pull = (seed >> 16) % 11 == 0 ? NONE : (double)((seed >> 16) % 7);
		snprintf(id, sizeof id, "t%04d", i);
		add_task(&s, id, NULL, created, pull < 0 ? NONE : created + 1,
			 pull < 0 ? NONE : created + 1 + pull, NONE);
	}
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	/* report_build sorted by createdAt from the set's order */
	for (size_t i = 0; i < N; i++)
		before[i] = i;
	expect_sorted_stable(&r, COL_CREATED_AT, false, before);
	static const struct { enum col_id c; bool desc; } sorts[] = {
		{ COL_PULL_S, false }, { COL_PULL_S, true }, { COL_CREATED_AT, true },
		{ COL_PULL_STARTED_AT, false }, { COL_CREATED_AT, false },
	};
	for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++) {
		places(&r, before);
		report_sort(&r, (int)sorts[k].c, sorts[k].desc);
		cr_assert_eq(r.nrows, (size_t)N);
		expect_sorted_stable(&r, sorts[k].c, sorts[k].desc, before);
	}
	free(before);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, verdict_sentences)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	char v[256];

	task_set_init(&s);
	soci_experiment(&s, 20);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	report_verdict(&r, 1, PHASE_PULL, v, sizeof v);
	cr_expect_str_eq(v, "pull p50 -85.2 s (x0.06) vs no-soci: significantly faster, "
			 "p < 0.001, n = 20 vs 20");
	report_verdict(&r, 1, PHASE_PROVISION, v, sizeof v);
	cr_expect_str_eq(v, "provision p50 +0.000 s (x1.00) vs no-soci: not significant "
			 "(p = 1.00) with n = 20 vs 20");
	report_verdict(&r, 0, PHASE_PULL, v, sizeof v);
	cr_expect_str_eq(v, "pull: baseline (the others are compared with it), n = 20");
	report_verdict(&r, 1, PHASE_CONNECTIVITY, v, sizeof v);
	cr_expect_str_eq(v, "connectivity: no data to compare, n = 0 vs 0");
	report_cleanup(&r);
	task_set_cleanup(&s);

	/* 3 against 3, perfectly separated: still cannot be called significant */
	task_set_init(&s);
	soci_experiment(&s, 3);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	report_verdict(&r, 1, PHASE_PULL, v, sizeof v);
	/* exact p = 0.10, Holm-corrected over the 4 phases compared: 0.40 */
	cr_expect_str_eq(v, "pull p50 -84.1 s (x0.05) vs no-soci: not significant (p = 0.40) "
			 "with n = 3 vs 3, too few tasks to tell");
	/* a short buffer is cut, never overrun */
	report_verdict(&r, 1, PHASE_PULL, v, 10);
	cr_expect_str_eq(v, "pull p50 ");
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(report, verdict_slower_and_small_p)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team("fast");
	struct err err;
	char v[256];
	char id[16];

	task_set_init(&s);
	/* 6 vs 6, separated: exact p = 2 / C(12, 6) = 0.0022; four phases are compared
	 * (provision, pull, start, total) and all have that p, so Holm makes it 4 x 0.0022 */
	for (int i = 0; i < 6; i++) {
		snprintf(id, sizeof id, "f%d", i);
		add_task(&s, id, "fast", 0, 1, 1.5 + i * 0.01, 2 + i * 0.01);
		snprintf(id, sizeof id, "s%d", i);
		add_task(&s, id, "slow", 0, 1, 1.7 + i * 0.01, 2.2 + i * 0.01);
	}
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	report_verdict(&r, 1, PHASE_PULL, v, sizeof v);
	cr_expect_str_eq(v, "pull p50 +0.200 s (x1.38) vs fast: significantly slower, "
			 "p = 0.009, n = 6 vs 6");
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* Fargate Spot starts without a --prices line, in five regions (one twice): counted per
 * kind in their order, listed whole for a cell and JSON, three named in the sentence. */
Test(report, unpriced_starts_counted_and_named_per_kind)
{
	static const char *const regions[] = { "eu-west-1", "us-east-1", "eu-west-1",
					       "ap-south-1", "sa-east-1", "us-west-2" };
	struct task_set s;
	struct report r;
	struct report_options o;
	struct err err;
	char text[512];

	err_clear(&err);
	task_set_init(&s);
	for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++) {
		struct task t;

		task_init(&t);
		task_set_arnf(&t, "arn:aws:ecs:%s:123456789012:task/prod/s%zu", regions[i], i);
		task_set_ts(&t, TS_CREATED, at(0));
		task_set_ts(&t, TS_PULL_STARTED, at(10));
		task_set_ts(&t, TS_PULL_STOPPED, at(40));
		task_set_ts(&t, TS_STARTED, at(42));
		task_str(&t, &task_edit_profile(&t)->launch_type, "FARGATE");
		task_str(&t, &task_edit_profile(&t)->capacity_provider, "FARGATE_SPOT");
		task_str(&t, &task_edit_profile(&t)->cpu, "1024");
		task_str(&t, &task_edit_profile(&t)->memory, "2048");
		task_derive(&t);
		task_set_take(&s, &t);
	}
	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(r.ngroups, 1);
	cr_expect_eq(r.groups[0].cost_n, 0);
	cr_expect_eq(r.groups[0].cost_unpriced, 6);
	cr_assert_eq(r.groups[0].nunpriced, 5);
	cr_expect_str_eq(r.groups[0].unpriced[0].what, "eu-west-1 x86_64 FARGATE_SPOT");
	cr_expect_eq(r.groups[0].unpriced[0].n, 2);
	cr_expect(report_row_unpriced(&r, &r.rows[0], NULL, 0));
	cr_expect_str_eq(report_unpriced_list(&r.groups[0], text, sizeof text),
			 "eu-west-1 x86_64 FARGATE_SPOT (2); us-east-1 x86_64 FARGATE_SPOT (1); "
			 "ap-south-1 x86_64 FARGATE_SPOT (1); sa-east-1 x86_64 FARGATE_SPOT (1); "
			 "us-west-2 x86_64 FARGATE_SPOT (1)");
	cr_assert(report_cost_text(&r, 0, text, sizeof text));
	cr_expect_str_eq(text, "startup cost: unknown; 6 tasks without a price (eu-west-1 x86_64 "
			 "FARGATE_SPOT; us-east-1 x86_64 FARGATE_SPOT; ap-south-1 x86_64 "
			 "FARGATE_SPOT; 2 more): add them with --prices FILE");
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* ---- grouping and the default order on many tasks, against the definitions ---- */

static int
ref_cmp_names(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	bool na = strcmp(a, GROUP_NONE) == 0, nb = strcmp(b, GROUP_NONE) == 0;

	if (na != nb)
		return na ? 1 : -1;
	return strcmp(a, b);
}

Test(report, many_groups_sorted_with_every_task_in_its_own)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	unsigned seed = 16;
	enum { NT = 5000 };
	char **want = xcalloc(NT, sizeof *want);
	size_t nwant = 0;

	task_set_init(&s);
	for (int i = 0; i < NT; i++) {
		char id[32], team[32];
		int k = rand_r(&seed) % 1200;

		snprintf(id, sizeof id, "%08d", i);
		/* 1,100 names (some sort before "(none)" in byte order), and tasks without */
		snprintf(team, sizeof team, k % 3 ? "team-%d" : "%d (x)", k);
		add_task(&s, id, k >= 1100 ? NULL : team, 10.0 + (double)(rand_r(&seed) % 100),
			 NONE, NONE, NONE);
	}
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < s.len; i++) {
		const char *v = task_tag(&s.tasks[i], "team");
		bool dup = false;

		v = v != NULL ? v : GROUP_NONE;
		for (size_t k = 0; k < nwant && !dup; k++)
			dup = strcmp(want[k], v) == 0;
		if (!dup)
			want[nwant++] = (char *)v;
	}
	qsort(want, nwant, sizeof *want, ref_cmp_names);
	cr_assert_eq(r.ngroups, nwant);
	for (size_t g = 0; g < nwant; g++) {
		size_t n = 0;

		cr_assert_str_eq(r.groups[g].name, want[g], "group %zu", g);
		for (size_t i = 0; i < s.len; i++) {
			const char *v = task_tag(&s.tasks[i], "team");

			n += strcmp(v != NULL ? v : GROUP_NONE, want[g]) == 0;
		}
		cr_expect_eq(r.groups[g].ntasks, n, "group %s", want[g]);
	}
	cr_expect_str_eq(r.groups[nwant - 1].name, GROUP_NONE);
	/* rows in createdAt order, set order among equal times; each in its task's group */
	for (size_t i = 0; i < r.nrows; i++) {
		const char *v = task_tag(r.rows[i].task, "team");

		cr_assert_str_eq(r.groups[r.rows[i].group].name, v != NULL ? v : GROUP_NONE);
		if (i > 0) {
			const struct task *a = r.rows[i - 1].task, *b = r.rows[i].task;

			cr_assert(task_ts(a, TS_CREATED) < task_ts(b, TS_CREATED) ||
				  (task_ts(a, TS_CREATED) == task_ts(b, TS_CREATED) && a < b), "row %zu", i);
		}
	}
	free(want);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* tasks already in createdAt order keep it, and so do equal times (set order) */
Test(report, sorted_input_keeps_its_order)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;

	task_set_init(&s);
	for (int i = 0; i < 300; i++) {
		char id[32];

		snprintf(id, sizeof id, "%08d", i);
		add_task(&s, id, "a", 10.0 + (double)(i / 7), NONE, NONE, NONE);
	}
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < r.nrows; i++)
		cr_assert_eq(r.rows[i].task, &s.tasks[i]);
	report_sort(&r, COL_CREATED_AT, true);
	/* descending: later times first, set order among equal ones */
	cr_assert_eq(r.rows[0].task, &s.tasks[294]);
	cr_assert_eq(r.rows[5].task, &s.tasks[299]);
	cr_assert_eq(r.rows[6].task, &s.tasks[287]);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* ---- sorting number columns (radix) against the definition ---- */

struct ref_sort {
	const struct task *task;
	int64_t ms;
	size_t pos;
};

static bool ref_desc;

static int
ref_sort_cmp(const void *pa, const void *pb)
{
	const struct ref_sort *a = pa, *b = pb;
	bool ma = a->ms == TS_NONE, mb = b->ms == TS_NONE;
	int c = 0;

	if (ma != mb)
		return ma ? 1 : -1;   /* missing last either way */
	if (!ma)
		c = (a->ms > b->ms) - (a->ms < b->ms);
	if (ref_desc)
		c = -c;
	return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

Test(report, number_columns_sort_as_defined)
{
	static const enum col_id cols[] = {
		COL_CREATED_AT, COL_PULL_STARTED_AT, COL_STARTED_AT, COL_PROVISION_S, COL_PULL_S,
		COL_START_S, COL_TOTAL_S, COL_BILLED_STARTUP_S, COL_STARTUP_COST_USD,
	};
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	unsigned seed = 16;
	enum { NT = 3000 };
	struct ref_sort *ref = xcalloc(NT, sizeof *ref);

	task_set_init(&s);
	for (int i = 0; i < NT; i++) {
		char id[32];
		/* few distinct times (ties), missing ones, pulls that end before they start */
		double created = (double)(rand_r(&seed) % 50);
		double ps = rand_r(&seed) % 7 == 0 ? NONE : created + (double)(rand_r(&seed) % 20);
		double pe = ps == NONE || rand_r(&seed) % 9 == 0 ? NONE :
			    ps + (double)(rand_r(&seed) % 300) / 10.0 - 3.0;
		double st = pe == NONE || pe < 0 ? NONE : pe + (double)(rand_r(&seed) % 5);

		snprintf(id, sizeof id, "%08d", i);
		add_task(&s, id, rand_r(&seed) % 2 ? "a" : "b", created, ps, pe < 0 ? NONE : pe, st);
	}
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
		for (int desc = 0; desc <= 1; desc++) {
			/* the reference starts from the order the report is in, as report_sort does */
			for (size_t i = 0; i < r.nrows; i++) {
				ref[i].task = r.rows[i].task;
				ref[i].ms = report_columns[cols[k]].kind == COL_NUMBER ||
					    cols[k] == COL_BILLED_STARTUP_S ?
					    report_serving_ms(&r, &r.rows[i], cols[k]) :
					    report_cell_ms(&r.rows[i], cols[k]);
				ref[i].pos = i;
			}
			ref_desc = desc;
			qsort(ref, r.nrows, sizeof *ref, ref_sort_cmp);
			report_sort(&r, (int)cols[k], desc);
			for (size_t i = 0; i < r.nrows; i++)
				cr_assert_eq(r.rows[i].task, ref[i].task, "%s %s: row %zu",
					     report_columns[cols[k]].name, desc ? "desc" : "asc", i);
		}
	}
	free(ref);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* ---- every column, sorted in place, against a stable sort of copied keys ---- */

struct ref_any {
	const struct task *task;
	int64_t ms;
	char text[64];   /* "" missing */
	size_t pos;
};

static enum col_id ref_col;

static int
ref_any_cmp(const void *pa, const void *pb)
{
	const struct ref_any *a = pa, *b = pb;
	int c = 0;

	if (report_columns[ref_col].kind == COL_TEXT) {
		bool ma = a->text[0] == '\0', mb = b->text[0] == '\0';

		if (ma != mb)
			return ma ? 1 : -1;
		if (!ma)
			c = ref_col == COL_TASK_ID || ref_col == COL_TASK_ARN ||
			    ref_col == COL_IMAGE_DIGEST ? strcmp(a->text, b->text) :
			    strverscmp(a->text, b->text);
	} else {
		bool ma = a->ms == TS_NONE, mb = b->ms == TS_NONE;

		if (ma != mb)
			return ma ? 1 : -1;
		if (!ma)
			c = (a->ms > b->ms) - (a->ms < b->ms);
	}
	if (ref_desc)
		c = -c;
	return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* ref: the rows of r in the order a stable sort by col gives from the order they are in */
static void
ref_any_sort(const struct report *r, enum col_id col, bool desc, struct ref_any *ref)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct report_row *row = &r->rows[i];

		ref[i].task = row->task;
		ref[i].pos = i;
		ref[i].ms = TS_NONE;
		ref[i].text[0] = '\0';
		if (report_columns[col].kind == COL_NUMBER)
			ref[i].ms = report_serving_ms(r, row, col);
		else if (report_columns[col].kind != COL_TEXT)
			ref[i].ms = report_cell_ms(row, col);
		else if (report_cell(r, row, col, ref[i].text, sizeof ref[i].text)[0] != '\0' &&
			 col == COL_GROUP && strcmp(ref[i].text, GROUP_NONE) == 0)
			ref[i].text[0] = '\0';   /* "(none)" sorts as missing */
	}
	ref_col = col;
	ref_desc = desc;
	qsort(ref, r->nrows, sizeof *ref, ref_any_cmp);
}

/* report_build's sort (rows in set order: an introsort tie-broken by address) and a sort
 * after another (stable merges in place), every column both ways, ties and missing
 * values in plenty, on random tasks */
Test(report, every_column_sorts_stably_in_place)
{
	static const char *const cpus[] = { "256", "1024", "512", "4096", "2048", "0.5 vCPU" };
	struct task_set s;
	struct report r;
	struct report_options o = by_team(NULL);
	struct err err;
	unsigned seed = 35;
	enum { NT = 2500 };
	struct ref_any *ref = xcalloc(NT, sizeof *ref);
	struct report_row *rows = xcalloc(NT, sizeof *rows);

	task_set_init(&s);
	for (int i = 0; i < NT; i++) {
		char id[32], team[16];
		double created = (double)(rand_r(&seed) % 40);
		double ps = rand_r(&seed) % 6 == 0 ? NONE : created + (double)(rand_r(&seed) % 9);
		double pe = ps == NONE || rand_r(&seed) % 8 == 0 ? NONE :
			    ps + (double)(rand_r(&seed) % 30);
		double st = pe == NONE ? NONE : pe + (double)(rand_r(&seed) % 4);
		int k = rand_r(&seed) % 13;
		struct task *t;

		/* ids in no order: the id sorts are not the set's order */
		snprintf(id, sizeof id, "%08x", (unsigned)rand_r(&seed));
		snprintf(team, sizeof team, "t%d", k);
		add_task(&s, id, k == 12 ? NULL : team, created, ps, pe, st);
		t = &s.tasks[s.len - 1];
		if (k % 4 != 0)
			task_str(t, &task_edit_profile(t)->cpu, cpus[(size_t)rand_r(&seed) % 6]);
	}
	for (int c = 0; c < COL_COUNT; c++) {
		for (int desc = 0; desc <= 1; desc++) {
			enum col_id then = (enum col_id)((c * 7 + 3) % COL_COUNT);
			struct report q;

			o.sort_col = c;
			o.sort_desc = desc;
			err_clear(&err);
			cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
			/* the reference from the set's order, where report_build starts */
			for (size_t j = 0; j < r.nrows; j++)
				rows[r.rows[j].task - s.tasks] = r.rows[j];
			q = r;
			q.rows = rows;
			ref_any_sort(&q, (enum col_id)c, desc, ref);
			for (size_t i = 0; i < r.nrows; i++)
				cr_assert_eq(r.rows[i].task, ref[i].task, "%s %s: row %zu",
					     report_columns[c].name, desc ? "desc" : "asc", i);
			/* then another column the other way, from this order */
			ref_any_sort(&r, then, !desc, ref);
			report_sort(&r, (int)then, !desc);
			for (size_t i = 0; i < r.nrows; i++)
				cr_assert_eq(r.rows[i].task, ref[i].task, "%s then %s: row %zu",
					     report_columns[c].name, report_columns[then].name, i);
			report_cleanup(&r);
		}
	}
	free(rows);
	free(ref);
	task_set_cleanup(&s);
}

/* From 4,096 tasks the summaries run on a second thread beside the costs and the row
 * order (issue 35): the same figures as the sizes below it give. Two teams of 5,000
 * tasks, each pull i seconds (team a) or 2i seconds (team b), created in reverse. */
Test(report, summaries_of_a_large_set_as_of_a_small_one)
{
	struct task_set s;
	struct report r;
	struct report_options o = by_team("a");
	struct err err;
	char id[32];
	const size_t n = 5000;

	task_set_init(&s);
	for (size_t i = 0; i < 2 * n; i++) {
		double k = (double)(i % n) + 1, pull = i < n ? k : 2 * k;

		snprintf(id, sizeof id, "t%zu", i);
		add_task(&s, id, i < n ? "a" : "b", (double)(2 * n - i), (double)(2 * n - i) + 1,
			 (double)(2 * n - i) + 1 + pull, (double)(2 * n - i) + 2 + pull);
	}
	add_task(&s, "skew", "a", 10, 5, 4, 3);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0);
	cr_expect_eq(r.negative_phases, 4);
	cr_assert_eq(r.ngroups, 2);
	cr_expect_str_eq(r.groups[0].name, "a");
	cr_expect_eq(r.groups[0].phase[PHASE_PULL].n, n);
	cr_expect_eq(r.groups[1].phase[PHASE_PULL].n, n);
	cr_expect_float_eq(r.groups[0].phase[PHASE_PULL].min, 1.0, 1e-9);
	cr_expect_float_eq(r.groups[0].phase[PHASE_PULL].max, (double)n, 1e-9);
	cr_expect_float_eq(r.groups[1].phase[PHASE_PULL].max, 2.0 * (double)n, 1e-9);
	cr_expect_float_eq(r.groups[0].phase[PHASE_PULL].mean, ((double)n + 1) / 2, 1e-9);
	cr_expect_float_eq(r.groups[1].phase[PHASE_PULL].mean, (double)n + 1, 1e-9);
	cr_expect(r.groups[1].cmp[PHASE_PULL].valid);
	cr_expect(r.groups[1].cmp[PHASE_PULL].p_value < 0.001, "b pulls twice as long");
	cr_expect_float_eq(r.groups[1].cmp[PHASE_PULL].p50_ratio, 2.0, 1e-3);
	/* the row order is createdAt's, done beside them: the last task created first */
	cr_expect_str_eq(row_id(&r, 0), "t9999");
	cr_expect_str_eq(row_id(&r, 10), "skew", "created at 10 s, after t9990 (set order)");
	cr_expect_str_eq(row_id(&r, 2 * n), "t0");
	report_cleanup(&r);
	task_set_cleanup(&s);
}
