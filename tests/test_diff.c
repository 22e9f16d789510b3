/* Tests for diff.c, diff_attr.c, diff_text.c, diff_rows.c and diff_gate.c: a new image
 * digest that slows the pulls of the tasks running it is found, named and separated from
 * the tasks still on the old one; windows from one distribution show nothing; a change
 * carried by every new task is said to be inseparable; the gate's syntax and its rule
 * (significant and past the threshold); and the mix tests against R's values. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/diff.h"
#include "ecsprof/image.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/stats.h"
#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"

#define DIGEST_OLD "sha256:9f3e000000000000000000000000000000000000000000000000000000000000"
#define DIGEST_NEW "sha256:ab12000000000000000000000000000000000000000000000000000000000000"

struct rng {
	uint64_t s;
};

static double
uniform(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return ((double)(r->s >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(struct rng *r, double mean, double sd)
{
	double u = uniform(r), v = uniform(r);

	return mean + sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A task created at t0 with provision, pull and start of these seconds. */
static void
make_task(struct task *t, int i, int64_t t0, double prov, double pull, double start,
	  const char *digest, const char *taskdef)
{
	struct container *c;
	char arn[96];

	task_init(t);
	snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:1:task/c/%032d", i);
	task_set_arn(t, arn, strlen(arn));
	task_strf(t, &task_edit_profile(t)->taskdef_arn, "arn:aws:ecs:us-east-1:1:task-definition/%s", taskdef);
	task_str(t, &task_edit_profile(t)->availability_zone, "us-east-1a");
	task_str(t, &task_edit_profile(t)->launch_type, "FARGATE");
	task_str(t, &task_edit_profile(t)->platform_version, "1.4.0");
	task_str(t, &task_edit_profile(t)->memory, strcmp(taskdef, "web:8") == 0 ? "1024" : "512");
	task_str(t, &task_edit_profile(t)->cpu, "256");
	c = task_containers(t, 1);
	task_str(t, &container_edit_profile(t, c)->name, "app");
	task_str(t, &container_edit_profile(t, c)->image, strcmp(digest, DIGEST_NEW) == 0 ? "repo/app:2" : "repo/app:1");
	container_set_digest(t, c, digest, digest != NULL ? strlen(digest) : 0);
	task_set_ts(t, TS_CREATED, t0);
	task_set_ts(t, TS_CONNECTIVITY, t0 + (int64_t)(prov * 400));
	task_set_ts(t, TS_PULL_STARTED, t0 + (int64_t)(prov * 1000));
	task_set_ts(t, TS_PULL_STOPPED, task_ts(t, TS_PULL_STARTED) + (int64_t)(pull * 1000));
	task_set_ts(t, TS_STARTED, task_ts(t, TS_PULL_STOPPED) + (int64_t)(start * 1000));
	task_derive(t);
}

struct windows {
	struct task *tasks;
	const struct task **pa, **pb;
	struct diff_window a, b;
	size_t n;
};

/* na baseline tasks (old digest, web:7); nb_new new tasks on the new digest (web:8)
 * pulling `slower` seconds more, nb_old new tasks still on the old one. */
static void
windows_make(struct windows *w, uint64_t seed, size_t na, size_t nb_new, size_t nb_old,
	     double slower)
{
	struct rng r = { seed | 1 };
	size_t n = na + nb_new + nb_old;

	w->n = n;
	w->tasks = calloc(n, sizeof *w->tasks);
	w->pa = calloc(na + 1, sizeof *w->pa);
	w->pb = calloc(nb_new + nb_old + 1, sizeof *w->pb);
	w->a = (struct diff_window){ w->pa, na, NULL };
	w->b = (struct diff_window){ w->pb, nb_new + nb_old, NULL };
	for (size_t i = 0; i < n; i++) {
		bool base = i < na, fresh = !base && i < na + nb_new;
		double pull = gauss(&r, 12, 2) + (fresh ? slower : 0);

		make_task(&w->tasks[i], (int)i, 1700000000000LL + (int64_t)i * 60000,
			  fmax(gauss(&r, 25, 3), 1), fmax(pull, 0.5), fmax(gauss(&r, 3, 0.5), 0.1),
			  fresh ? DIGEST_NEW : DIGEST_OLD, fresh ? "web:8" : "web:7");
		if (base)
			w->pa[i] = &w->tasks[i];
		else
			w->pb[i - na] = &w->tasks[i];
	}
}

static void
windows_free(struct windows *w)
{
	for (size_t i = 0; i < w->n; i++)
		task_cleanup(&w->tasks[i]);
	free(w->tasks);
	free(w->pa);
	free(w->pb);
}

Test(diff, new_digest_slows_pull_and_explains_it)
{
	struct windows w;
	struct diff d;
	struct err err;
	char line[1024];

	windows_make(&w, 7, 60, 40, 12, 35);
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0, "%s", err.msg);
	const struct diff_cmp *pull = &d.phase[DIFF_PULL];

	cr_expect(pull->significant);
	cr_expect(pull->p50_delta_s > 20 && pull->p50_delta_s < 40, "%f", pull->p50_delta_s);
	cr_expect(pull->ci_lo_s < pull->p50_delta_s && pull->p50_delta_s < pull->ci_hi_s);
	cr_expect(!d.phase[DIFF_START].significant, "start did not change");
	cr_expect(!d.phase[DIFF_PROVISION].significant, "provision did not change");
	cr_expect(d.mix[DIFF_DIGEST].differs);
	cr_expect(d.mix[DIFF_DIGEST].fisher, "two digests: Fisher's exact test");
	cr_expect(d.mix[DIFF_TASKDEF].differs);
	cr_expect(!d.mix[DIFF_AZ].differs, "one AZ on both sides");
	cr_expect_eq(d.explain[DIFF_PULL].why, DIFF_WHY_EXPLAINED);
	cr_expect_eq(d.explain[DIFF_PULL].attr, DIFF_DIGEST, "the digest, first in order");
	cr_expect(d.explain[DIFF_PULL].also & (1u << DIFF_TASKDEF), "web:8 splits the same way");
	/* the parts: new digest +35 s significant, old digest unchanged */
	size_t seen = 0;
	for (size_t i = 0; i < d.nparts; i++) {
		const struct diff_part *pt = &d.parts[i];

		if (pt->phase != DIFF_PULL || pt->attr != DIFF_DIGEST)
			continue;
		seen++;
		if (pt->in_baseline) {
			cr_expect_eq(pt->cmp.cur.n, 12);
			cr_expect(!pt->cmp.significant);
			cr_expect(fabs(pt->cmp.p50_delta_s) < 3, "%f", pt->cmp.p50_delta_s);
		} else {
			cr_expect_eq(pt->cmp.cur.n, 40);
			cr_expect(pt->cmp.significant);
			cr_expect(pt->cmp.p50_delta_s > 30, "%f", pt->cmp.p50_delta_s);
		}
	}
	cr_expect_eq(seen, 2);
	diff_explain_text(&d, DIFF_PULL, line, sizeof line);
	cr_expect(strstr(line, "pull p50 +") == line, "%s", line);
	cr_expect(strstr(line, "tasks with image digest sha256:ab1200000000..") != NULL, "%s", line);
	cr_expect(strstr(line, "tasks still on image digest sha256:9f3e00000000..") != NULL, "%s", line);
	cr_expect(strstr(line, "~ (n=12)") != NULL, "%s", line);
	cr_expect(d.taskdef_note != NULL && strstr(d.taskdef_note, "web:7 -> web:8") != NULL &&
		  strstr(d.taskdef_note, "memory 512 -> 1024") != NULL &&
		  strstr(d.taskdef_note, "repo/app:1 -> repo/app:2") != NULL, "%s", d.taskdef_note);

	/* the gate: significant and past the threshold */
	struct diff_gate g;
	cr_assert_eq(diff_gate_parse("pull.p50>+10s", &g, &err), 0, "%s", err.msg);
	cr_expect_eq(diff_gate_check(&d, &g, line, sizeof line, &err), 1);
	cr_expect(strstr(line, "likely cause: image digest sha256:ab1200000000..") != NULL, "%s", line);
	cr_assert_eq(diff_gate_parse("pull.p50>+500%", &g, &err), 0);
	cr_expect_eq(diff_gate_check(&d, &g, line, sizeof line, &err), 0);
	cr_assert_eq(diff_gate_parse("total.mean>+20%", &g, &err), 0);
	cr_expect_eq(diff_gate_check(&d, &g, line, sizeof line, &err), 1);
	cr_assert_eq(diff_gate_parse("start.p90>+0s", &g, &err), 0);
	cr_expect_eq(diff_gate_check(&d, &g, line, sizeof line, &err), 0, "start: noise");
	cr_assert_eq(diff_gate_parse("pull.p50<-5s", &g, &err), 0);
	cr_expect_eq(diff_gate_check(&d, &g, line, sizeof line, &err), 0, "not an improvement");

	/* the rows: whole phases first, then the parts */
	struct row_table t;
	struct cell_value v = { 0 };
	char scratch[256];
	diff_phase_table(&d, &t);
	cr_expect_eq(t.nrows, 6 + d.nparts, "provision, attach, wait, pull, start, total + parts");
	cr_expect_str_eq(t.cols[0].name, "phase");
	cr_expect_str_eq(t.cols[13].name, "significant");
	t.cell(t.ctx, 3, 0, &v, scratch, sizeof scratch);
	cr_expect_str_eq(v.text, "pull");
	memset(&v, 0, sizeof v);
	t.cell(t.ctx, 6, 1, &v, scratch, sizeof scratch);
	cr_expect(strncmp(v.text, "image_digest=sha256:", 20) == 0, "%s", v.text);
	diff_cleanup(&d);
	windows_free(&w);
}

Test(diff, one_distribution_shows_no_change)
{
	struct windows w;
	struct diff d;
	struct err err;

	windows_make(&w, 11, 50, 0, 50, 0);
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0, "%s", err.msg);
	for (int p = 0; p < DIFF_PHASE_COUNT; p++)
		cr_expect(!d.phase[p].significant, "%s", diff_phase_name((enum diff_phase)p));
	for (int a = 0; a < DIFF_ATTR_COUNT; a++)
		cr_expect(!d.mix[a].differs, "%s", diff_attr_name((enum diff_attr)a));
	cr_expect_eq(d.nparts, 0);
	cr_expect(isnan(d.phase[DIFF_READY].p_value), "no healthy_at: no ready phase");
	diff_cleanup(&d);
	windows_free(&w);
}

Test(diff, bootstrap_ci_is_fixed_and_covers)
{
	struct windows w;
	struct diff d1, d2;
	struct err err;

	windows_make(&w, 3, 40, 40, 0, 10);
	cr_assert_eq(diff_build(&d1, &w.a, &w.b, &err), 0);
	cr_assert_eq(diff_build(&d2, &w.a, &w.b, &err), 0);
	cr_expect_eq(d1.phase[DIFF_PULL].ci_lo_s, d2.phase[DIFF_PULL].ci_lo_s, "fixed seed");
	cr_expect_eq(d1.phase[DIFF_PULL].ci_hi_s, d2.phase[DIFF_PULL].ci_hi_s);
	cr_expect(d1.phase[DIFF_PULL].ci_lo_s < 10 && d1.phase[DIFF_PULL].ci_hi_s > 10,
		  "[%f, %f]", d1.phase[DIFF_PULL].ci_lo_s, d1.phase[DIFF_PULL].ci_hi_s);
	/* every new task is on the new digest: nothing to separate it from */
	cr_expect_eq(d1.explain[DIFF_PULL].why, DIFF_WHY_CONFOUNDED);
	diff_cleanup(&d1);
	diff_cleanup(&d2);
	windows_free(&w);
}

Test(diff, unexplained_when_nothing_changed)
{
	struct windows w;
	struct diff d;
	struct err err;
	char line[512];

	/* a slower pull on the old digest itself: no attribute differs */
	windows_make(&w, 5, 40, 0, 40, 0);
	for (size_t i = 40; i < 80; i++)
		task_set_ts(&w.tasks[i], TS_PULL_STOPPED, task_ts(&w.tasks[i], TS_PULL_STOPPED) + 30000),
		task_set_ts(&w.tasks[i], TS_STARTED, task_ts(&w.tasks[i], TS_STARTED) + 30000);
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
	cr_expect(d.phase[DIFF_PULL].significant);
	cr_expect_eq(d.explain[DIFF_PULL].why, DIFF_WHY_NOTHING_CHANGED);
	diff_cause_text(&d, DIFF_PULL, line, sizeof line);
	cr_expect(strstr(line, "unexplained") != NULL, "%s", line);
	diff_cleanup(&d);
	windows_free(&w);
}

Test(diff, empty_window_and_bad_gates_are_errors)
{
	struct windows w;
	struct diff d;
	struct diff_gate g;
	struct err err;

	windows_make(&w, 1, 5, 0, 0, 0);
	cr_expect_eq(diff_build(&d, &w.a, &w.b, &err), -1);
	cr_expect_str_eq(err.msg, "the new window has no task");
	cr_expect_eq(err.code, ERR_PARSE);
	windows_free(&w);
	cr_expect_eq(diff_gate_parse("pul.p50>+5s", &g, &err), -1);
	cr_expect(strstr(err.msg, "no phase 'pul'") != NULL, "%s", err.msg);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect_eq(diff_gate_parse("pull.p95>+5s", &g, &err), -1);
	cr_expect(strstr(err.msg, "no statistic 'p95'") != NULL, "%s", err.msg);
	cr_expect_eq(diff_gate_parse("pull.p50>+5", &g, &err), -1);
	cr_expect_eq(diff_gate_parse("pull.p50=5s", &g, &err), -1);
	cr_expect_eq(diff_gate_parse("total.p90>+20%", &g, &err), 0);
	cr_expect(g.percent && !g.less && g.value == 20 && g.phase == DIFF_TOTAL &&
		  g.stat == DIFF_STAT_P90);
	cr_expect_eq(diff_gate_parse("wait.mean<-2.5s", &g, &err), 0);
	cr_expect(!g.percent && g.less && g.value == -2.5 && g.phase == DIFF_WAIT);
}

Test(diff, gate_on_a_phase_without_data_is_an_error)
{
	struct windows w;
	struct diff d;
	struct diff_gate g;
	struct err err;
	char line[256];

	windows_make(&w, 9, 10, 0, 10, 0);
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
	cr_assert_eq(diff_gate_parse("ready.p50>+1s", &g, &err), 0);
	cr_expect_eq(diff_gate_check(&d, &g, line, sizeof line, &err), -1);
	cr_expect(strstr(err.msg, "ready has no data in the baseline or the new window (n = 0 vs 0)") != NULL,
		  "%s", err.msg);
	diff_cleanup(&d);
	windows_free(&w);
}

/* The gate's false failures over many pairs of windows from one distribution stay under
 * the alpha: Holm keeps the family's error at 5 % over the phases. */
Test(diff, gate_false_failure_rate_under_alpha)
{
	int fails = 0, pairs = 200;

	for (int s = 0; s < pairs; s++) {
		struct windows w;
		struct diff d;
		struct diff_gate g[3];
		struct err err;
		char line[512];
		bool failed = false;

		windows_make(&w, 1000 + (uint64_t)s * 7919, 20, 0, 20, 0);
		cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
		diff_gate_parse("pull.p50>+0s", &g[0], &err);
		diff_gate_parse("total.p90>+0%", &g[1], &err);
		diff_gate_parse("provision.mean<+0s", &g[2], &err);
		for (int i = 0; i < 3; i++)
			failed |= diff_gate_check(&d, &g[i], line, sizeof line, &err) == 1;
		fails += failed;
		diff_cleanup(&d);
		windows_free(&w);
	}
	printf("diff gate false-failure rate: %d of %d pairs (%.1f%%)\n", fails, pairs,
	       100.0 * fails / pairs);
	cr_expect_lt(fails, pairs / 20, "%d of %d", fails, pairs);
}

Test(diff, mix_tests_match_r)
{
	struct stats_mix m;

	/* fisher.test(matrix(c(3, 1, 1, 3), 2))$p.value = 0.4857143 */
	cr_expect(fabs(stats_fisher_2x2(3, 1, 1, 3) - 0.4857142857) < 1e-9);
	/* fisher.test(matrix(c(10, 0, 2, 12), 2))$p.value = 6.730381e-05 */
	cr_expect(fabs(stats_fisher_2x2(10, 2, 0, 12) - 6.730380939561179e-05) < 1e-12,
		  "%g", stats_fisher_2x2(10, 2, 0, 12));
	/* qchisq(0.95, df) */
	cr_expect(fabs(stats_chi2_sf(3.841458820694124, 1) - 0.05) < 1e-9);
	cr_expect(fabs(stats_chi2_sf(5.991464547107979, 2) - 0.05) < 1e-9);
	cr_expect(fabs(stats_chi2_sf(30, 10) - 0.0008566412) < 1e-9, "%g", stats_chi2_sf(30, 10));
	/* chisq.test(rbind(c(20, 20, 20), c(10, 20, 30)), correct = FALSE): X2 = 5.3333,
	 * df 2, p = exp(-X2 / 2) = 0.06948 */
	size_t a[] = { 20, 20, 20, 0 }, b[] = { 10, 20, 30, 0 };
	cr_assert_eq(stats_mix_test(a, b, 4, &m), 0);
	cr_expect(!m.fisher && m.df == 2);
	cr_expect(fabs(m.chi2 - 5.333333333) < 1e-6, "%f", m.chi2);
	cr_expect(fabs(m.p - 0.06948345122280151) < 1e-9, "%f", m.p);
	size_t c[] = { 5 }, e[] = { 9 };
	cr_assert_eq(stats_mix_test(c, e, 1, &m), 0);
	cr_expect_eq(m.p, 1.0, "one value: no difference");
}

Test(diff, digest_size_from_image_facts)
{
	struct windows w;
	struct diff d;
	struct err err;
	struct image_facts x;
	struct image_set *images = image_set_new();
	char line[1024];

	image_facts_init(&x);
	x.digest = xstrdup(DIGEST_NEW);
	x.platform = xstrdup("linux/amd64");
	x.size_bytes = 412000000;
	image_set_put(images, &x);
	windows_make(&w, 13, 30, 20, 10, 35);
	w.b.images = images;
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
	cr_expect_eq(d.explain[DIFF_PULL].why, DIFF_WHY_EXPLAINED);
	diff_explain_text(&d, DIFF_PULL, line, sizeof line);
	cr_expect(strstr(line, "tasks with image digest sha256:ab1200000000.. (412 MB) +") != NULL,
		  "%s", line);
	diff_cause_text(&d, DIFF_PULL, line, sizeof line);
	cr_expect_str_eq(line, "image digest sha256:ab1200000000.. (412 MB)");
	diff_cleanup(&d);
	windows_free(&w);
	image_set_free(images);
}

/* Thousands of tasks make a drift of a few tenths significant on the old digest too: the
 * new digest still explains a change a hundred times larger. */
Test(diff, large_windows_keep_the_explanation)
{
	struct windows w;
	struct diff d;
	struct err err;
	bool old_sig = false;

	windows_make(&w, 17, 2000, 1500, 1000, 35);
	for (size_t i = 2000 + 1500; i < w.n; i++) {
		task_set_ts(&w.tasks[i], TS_PULL_STOPPED, task_ts(&w.tasks[i], TS_PULL_STOPPED) + 400);
		task_set_ts(&w.tasks[i], TS_STARTED, task_ts(&w.tasks[i], TS_STARTED) + 400);
	}
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
	for (size_t i = 0; i < d.nparts; i++)
		if (d.parts[i].phase == DIFF_PULL && d.parts[i].attr == DIFF_DIGEST &&
		    d.parts[i].in_baseline)
			old_sig = d.parts[i].cmp.significant;
	cr_expect(old_sig, "the drift on the old digest is significant at this size");
	cr_expect_eq(d.explain[DIFF_PULL].why, DIFF_WHY_EXPLAINED);
	cr_expect_eq(d.explain[DIFF_PULL].attr, DIFF_DIGEST);
	diff_cleanup(&d);
	windows_free(&w);
}

static void
collect(void *ctx, const char *line)
{
	struct buf *b = ctx;

	buf_addf(b, "%s\n", line);
}

Test(diff, too_few_tasks_get_a_footnote)
{
	struct windows w;
	struct diff d;
	struct err err;
	struct buf b;

	windows_make(&w, 21, 3, 3, 0, 35);
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
	cr_expect(d.phase[DIFF_PULL].too_few, "3 vs 3 cannot reach p < 0.05");
	cr_expect(!d.phase[DIFF_PULL].significant);
	buf_init(&b, 0);
	diff_lines(&d, 0, collect, &b);
	cr_expect(strstr(buf_str(&b), " ~ ") != NULL && strstr(buf_str(&b), "1.000 (1)") != NULL,
		  "%s", buf_str(&b));
	cr_expect(strstr(buf_str(&b), "(1) too few tasks to tell") != NULL, "%s", buf_str(&b));
	cr_expect(strstr(buf_str(&b), "no significant change in any phase") != NULL);
	cr_expect(strstr(buf_str(&b), "power (pull): not significant, and with n = 3 vs 3 no change is detected 80% of the time: too few tasks") != NULL,
		  "%s", buf_str(&b));
	buf_cleanup(&b);
	diff_cleanup(&d);
	windows_free(&w);
}

/* The phases table at 80 columns (a pipe, COLUMNS=80): one line a phase, the p-value in a
 * column of its own and the P90 change left out; with room (or no limit) it is there. */
Test(diff, the_phases_table_fits_80_columns)
{
	struct windows w;
	struct diff d;
	struct err err;
	struct buf b;
	const char *s, *e;
	int rows = 0;

	windows_make(&w, 7, 60, 40, 12, 35);
	cr_assert_eq(diff_build(&d, &w.a, &w.b, &err), 0);
	buf_init(&b, 0);
	diff_lines(&d, 80, collect, &b);
	s = strstr(buf_str(&b), "PHASE ");
	cr_assert_not_null(s, "%s", buf_str(&b));
	cr_expect(strstr(buf_str(&b), "  P90 CHANGE\n") == NULL, "no column: %s", buf_str(&b));
	for (; strncmp(s, "seconds;", 8) != 0; s = e + 1, rows++) {
		e = strchr(s, '\n');
		cr_assert_not_null(e);
		cr_expect(e - s <= 80, "%d columns: '%.*s'", (int)(e - s), (int)(e - s), s);
	}
	cr_expect_eq(rows, 7, "the header and 6 phases, a line each: %s", buf_str(&b));
	cr_expect(strstr(buf_str(&b), "  <0.001\n") != NULL, "the p-value's own column: %s",
		  buf_str(&b));
	cr_expect(strstr(buf_str(&b), "; P90 CHANGE at ") != NULL &&
		  strstr(buf_str(&b), " columns or more (COLUMNS)\n") != NULL,
		  "the footnote says where the column went: %s", buf_str(&b));
	buf_reset(&b);
	diff_lines(&d, 0, collect, &b);
	cr_expect(strstr(buf_str(&b), "  P90 CHANGE\n") != NULL, "%s", buf_str(&b));
	cr_expect(strstr(buf_str(&b), "P90 CHANGE at") == NULL, "%s", buf_str(&b));
	buf_reset(&b);
	diff_lines(&d, 100, collect, &b);
	cr_expect(strstr(buf_str(&b), "  P90 CHANGE\n") != NULL, "%s", buf_str(&b));
	buf_cleanup(&b);
	diff_cleanup(&d);
	windows_free(&w);
}

Test(diff, windows_from_one_history)
{
	struct task_set set;
	struct diff_window a, b;
	const char *id = NULL;
	size_t ndeploy = 0;
	int64_t first, last, cut;
	static const struct { int64_t created; const char *by; } h[] = {
		{ 1000, "ecs-svc/1" }, { 2000, "ecs-svc/1" }, { 5000, "ecs-svc/2" },
		{ 4000, "ecs-svc/1" }, { TS_NONE, "ecs-svc/2" }, { 6000, "ecs-svc/2" },
	};

	task_set_init(&set);
	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
		struct task t;

		task_init(&t);
		task_set_arnf(&t, "arn:aws:ecs:us-east-1:1:task/c/%zu", i);
		task_str(&t, &task_edit_profile(&t)->started_by, h[i].by);
		task_set_ts(&t, TS_CREATED, h[i].created);
		task_set_take(&set, &t);
	}
	cr_assert_eq(diff_history_span(&set, &first, &last), 0);
	cr_expect(first == 1000 && last == 6000);
	cut = diff_newest_deployment(&set, &id, &ndeploy);
	cr_expect_eq(cut, 5000, "ecs-svc/2's first task");
	cr_expect_str_eq(id, "ecs-svc/2");
	cr_expect_eq(ndeploy, 2);
	cr_expect_eq(diff_window_split(&set, cut, &a, &b), 1, "one task without createdAt");
	cr_expect_eq(a.n, 3, "1000, 2000, 4000: before the cut");
	cr_expect_eq(b.n, 2, "a task created at the cut is new");
	diff_window_free(&a);
	diff_window_free(&b);
	task_set_cleanup(&set);
}

/* large windows: the order-statistic CI diff_compare uses from DIFF_ORDER_CI_MIN values per
 * side is the bootstrap's within a tenth of its width, and covers the shift */
Test(diff, order_statistic_ci_agrees_with_the_bootstrap)
{
	size_t na = 1500, nb = 1200;
	double *a = xmalloc(na * sizeof *a), *b = xmalloc(nb * sizeof *b);
	double blo, bhi, olo, ohi, w;
	uint64_t s = 42;
	struct diff_cmp c;

	/* a skewed spread (sums of uniforms, squared) shifted by 5 s in b */
	for (size_t i = 0; i < na + nb; i++) {
		double u = 0;

		for (int k = 0; k < 4; k++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			u += (double)(s >> 11) / 9007199254740992.0;
		}
		if (i < na)
			a[i] = 10 + u * u;
		else
			b[i - na] = 15 + u * u;
	}
	stats_sort(a, na);
	stats_sort(b, nb);
	diff_bootstrap_ci(a, na, b, nb, &blo, &bhi);
	cr_assert_eq(diff_order_ci(a, na, b, nb, &olo, &ohi), 0);
	w = bhi - blo;
	cr_expect(fabs(olo - blo) < 0.1 * w && fabs(ohi - bhi) < 0.1 * w,
		  "bootstrap [%f, %f], order statistics [%f, %f]", blo, bhi, olo, ohi);
	cr_expect(olo < 5 && ohi > 5, "[%f, %f]", olo, ohi);
	diff_compare(a, na, b, nb, &c);
	cr_expect(c.ci_lo_s == olo && c.ci_hi_s == ohi, "diff_compare uses it from %d per side",
		  DIFF_ORDER_CI_MIN);
	free(a);
	free(b);
}
