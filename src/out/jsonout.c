/* jsonout: the document is streamed one task (and one group) at a time, so memory stays
 * at one task's line however many tasks there are; each piece is one compact JSON value a
 * line, which keeps the output greppable and valid JSON. A task's line is jsontask.c's,
 * byte for byte what a jansson object of it dumped (the per-task cost); the few group and
 * diagnosis objects are still jansson objects dumped. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ecsprof/buf.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/jsonout.h"
#include "ecsprof/phase.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/xalloc.h"
#include "jsonfmt.h"
#include "jsontask.h"
#include "rowchunks.h"

/* 15 significant digits print any ms-rounded seconds value below 1e12 s exactly */
#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)
/* one task line: its cells are capped at JSONTASK_CELL_MAX, so only broken input comes
 * near */
#define JSON_TASK_MAX ((size_t)1 << 30)
#define PUTS(b, lit) jsonfmt_put((b), (lit), sizeof(lit) - 1)

/* a JSON string, or null for NULL and "" (missing is null everywhere) */
static json_t *
jstr(const char *s)
{
	json_t *j;
	char *fixed;

	if (s == NULL || *s == '\0')
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	fixed = jsontask_utf8_fix(s);
	j = json_string(fixed);
	free(fixed);
	return j != NULL ? j : json_null();
}

static json_t *
jnum(double v, bool round_ms)
{
	if (!isfinite(v))
		return json_null();
	if (round_ms) {
		v = round(v * 1000.0) / 1000.0;
		if (v == 0.0)
			v = 0.0;   /* no -0.0 */
	}
	return json_real(v);
}

/* the task appended to b and written out, b emptied */
static int
dump_task(FILE *f, struct buf *b, const struct report *r, const struct report_row *row,
	  void *scratch)
{
	int rc = jsontask_write(b, r, row, scratch);

	if (rc == 0 && fwrite(b->data, 1, b->len, f) != b->len)
		rc = -1;
	buf_reset(b);
	return rc;
}

static json_t *
stats_object(const struct stats_summary *s)
{
	json_t *o = json_object();
	bool have = s->n > 0;

	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "min", have ? jnum(s->min, true) : json_null());
	json_object_set_new(o, "p50", have ? jnum(s->p50, true) : json_null());
	json_object_set_new(o, "p90", have ? jnum(s->p90, true) : json_null());
	json_object_set_new(o, "p99", have ? jnum(s->p99, true) : json_null());
	json_object_set_new(o, "max", have ? jnum(s->max, true) : json_null());
	json_object_set_new(o, "mean", have ? jnum(s->mean, true) : json_null());
	return o;
}

/* the prices the group's unpriced Fargate starts need, each with its tasks:
 * [{"price":"eu-west-1 x86_64 FARGATE_SPOT","n":1,"task_ids":["..."]}] */
static json_t *
unpriced_array(const struct report *r, size_t gi)
{
	const struct report_group *g = &r->groups[gi];
	json_t *a = json_array();
	json_t **ids = xreallocarray(NULL, g->nunpriced ? g->nunpriced : 1, sizeof *ids);
	char what[sizeof g->unpriced[0].what];

	for (size_t k = 0; k < g->nunpriced; k++) {
		json_t *o = json_object();

		json_object_set_new(o, "price", jstr(g->unpriced[k].what));
		json_object_set_new(o, "n", json_integer((json_int_t)g->unpriced[k].n));
		ids[k] = json_array();
		json_object_set_new(o, "task_ids", ids[k]);
		json_array_append_new(a, o);
	}
	for (size_t i = 0; g->nunpriced > 0 && i < r->nrows; i++) {
		const struct report_row *row = &r->rows[i];

		if (row->group != gi || !report_row_unpriced(r, row, what, sizeof what))
			continue;
		for (size_t k = 0; k < g->nunpriced; k++)
			if (strcmp(g->unpriced[k].what, what) == 0)
				json_array_append_new(ids[k], jstr(task_id(row->task)));
	}
	free(ids);
	return a;
}

/* the group's stopped tasks per known cause: [{"diagnosis":ID,"n":N}] */
static json_t *
group_diagnosis_array(const struct report *r, size_t gi)
{
	const char *ids[64];
	size_t counts[64], n = report_group_diagnosis_counts(r, gi, ids, counts, 64);
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "diagnosis", jstr(ids[i]));
		json_object_set_new(o, "n", json_integer((json_int_t)counts[i]));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
group_object(const struct report *r, size_t gi)
{
	const struct report_group *g = &r->groups[gi];
	json_t *o = json_object(), *phases = json_object(), *cmp;
	char verdict[512];

	json_object_set_new(o, "name", jstr(g->name));
	json_object_set_new(o, "n", json_integer((json_int_t)g->ntasks));
	json_object_set_new(o, "baseline", json_boolean(gi == r->baseline));
	json_object_set_new(o, "pull_share", jnum(g->pull_share, false));
	json_object_set_new(o, "startup_cost_n", json_integer((json_int_t)g->cost_n));
	json_object_set_new(o, "startup_cost_mean_usd", jnum(g->cost_mean_usd, false));
	json_object_set_new(o, "startup_cost_delta_per_1000_usd",
			    jnum(g->cost_delta_per_1000_usd, false));
	json_object_set_new(o, "startup_cost_unpriced_n", json_integer((json_int_t)g->cost_unpriced));
	json_object_set_new(o, "startup_cost_unpriced", unpriced_array(r, gi));
	json_object_set_new(o, "diagnosis_counts", group_diagnosis_array(r, gi));
	for (int p = 0; p < PHASE_COUNT; p++)
		if (report_phase_shown(r, (enum phase_id)p))
			json_object_set_new(phases, phase_defs[p].name, stats_object(&g->phase[p]));
	json_object_set_new(o, "phases", phases);
	if (gi == r->baseline) {
		json_object_set_new(o, "compare", json_null());
		return o;
	}
	cmp = json_object();
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct phase_compare *c = &g->cmp[p];
		json_t *jc;

		if (!report_phase_shown(r, (enum phase_id)p))
			continue;
		if (!c->valid) {
			json_object_set_new(cmp, phase_defs[p].name, json_null());
			continue;
		}
		jc = json_object();
		json_object_set_new(jc, "p50_delta_s", jnum(c->p50_delta_s, true));
		json_object_set_new(jc, "p50_ratio", jnum(c->p50_ratio, false));
		json_object_set_new(jc, "p90_delta_s", jnum(c->p90_delta_s, true));
		json_object_set_new(jc, "p90_ratio", jnum(c->p90_ratio, false));
		json_object_set_new(jc, "p_value", jnum(c->p_value, false));
		json_object_set_new(jc, "p_holm", jnum(c->p_holm, false));
		json_object_set_new(jc, "u", jnum(c->u, false));
		report_verdict(r, gi, (enum phase_id)p, verdict, sizeof verdict);
		json_object_set_new(jc, "verdict", jstr(verdict));
		json_object_set_new(cmp, phase_defs[p].name, jc);
	}
	json_object_set_new(o, "compare", cmp);
	return o;
}

/* dumps and releases j; bidi and C1 controls written escaped (jansson escapes only C0),
 * so the same strings reach a program and none reorders a terminal */
static int
dump(FILE *f, json_t *j)
{
	char *text = json_dumps(j, DUMP_FLAGS);
	int rc = text != NULL ? termsafe_put_json(f, text) : -1;

	free(text);   /* jansson's allocator is malloc: nothing in ecsprof replaces it */
	json_decref(j);
	return rc;
}

/* stopped tasks per diagnosis: [{"diagnosis":ID,"cause":...,"next_step":...,"n":N}] */
static json_t *
diagnosis_array(const struct report *r)
{
	const char *ids[64];
	size_t counts[64], n = report_diagnosis_counts(r, ids, counts, 64);
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		const struct diag_rule *d = diagnose_rule(ids[i]);
		json_t *o = json_object();

		json_object_set_new(o, "diagnosis", jstr(ids[i]));
		json_object_set_new(o, "cause", jstr(d->cause));
		json_object_set_new(o, "next_step", jstr(d->next_step));
		json_object_set_new(o, "n", json_integer((json_int_t)counts[i]));
		json_array_append_new(a, o);
	}
	return a;
}

/* The groups' objects and the diagnosis array, made before they are written: on their
 * own thread while the task lines are (jsonout_write_tasks), since each group and the
 * diagnosis array diagnose every row of theirs, one diagnose_task() a row (issue 35:
 * 0.1 s at 200k tasks in one group, which the main thread did alone after the lines). */
struct groups_json {
	const struct report *r;
	json_t **group;     /* one a group */
	json_t *diagnosis;
};

static void *
groups_make(void *arg)
{
	struct groups_json *gj = arg;

	for (size_t g = 0; g < gj->r->ngroups; g++)
		gj->group[g] = group_object(gj->r, g);
	gj->diagnosis = diagnosis_array(gj->r);
	return NULL;
}

static void
groups_init(struct groups_json *gj, const struct report *r)
{
	gj->r = r;
	gj->group = xcalloc(r->ngroups > 0 ? r->ngroups : 1, sizeof *gj->group);
	gj->diagnosis = NULL;
}

/* what write_groups did not dump released */
static void
groups_cleanup(struct groups_json *gj)
{
	for (size_t g = 0; g < gj->r->ngroups; g++)
		json_decref(gj->group[g]);
	json_decref(gj->diagnosis);
	free(gj->group);
}

/* dumps (and releases) the objects gj holds, then the baseline */
static int
write_groups(FILE *f, struct groups_json *gj)
{
	const struct report *r = gj->r;
	json_t *j, *base;

	if (fputs("\"groups\":[", f) == EOF)
		return -1;
	for (size_t g = 0; g < r->ngroups; g++) {
		j = gj->group[g];
		gj->group[g] = NULL;
		if (fputs(g ? ",\n" : "\n", f) == EOF) {
			json_decref(j);
			return -1;
		}
		if (dump(f, j) != 0)
			return -1;
	}
	if (fputs("\n],\n\"diagnosis\":", f) == EOF)
		return -1;
	j = gj->diagnosis;
	gj->diagnosis = NULL;
	if (dump(f, j) != 0 || fputs(",\n\"baseline\":", f) == EOF)
		return -1;
	base = r->ngroups > 0 ? jstr(r->groups[r->baseline].name) : json_null();
	if (dump(f, base) != 0 || fputs("}\n", f) == EOF)
		return -1;
	return 0;
}


/* tasks [first, end) each after its separator ("\n" before the first, ",\n" between),
 * straight into the chunk: no line of its own, no write of its own */
static void
format_tasks(const void *ctx, void *scratch, size_t first, size_t end,
	     struct rowchunks_part *part)
{
	const struct report *r = ctx;
	struct buf *b = &part->out;

	buf_reset(b);
	part->overflow = false;
	for (size_t i = first; i < end; i++) {
		size_t start = b->len;
		int rc = i ? PUTS(b, ",\n") : jsonfmt_putc(b, '\n');

		rc |= jsontask_write(b, r, &r->rows[i], scratch);
		if (rc != 0 || b->len - start > JSON_TASK_MAX) {
			b->len = part->good = start;
			b->data[start] = '\0';
			part->overflow = true;
			return;
		}
	}
	part->good = b->len;
}

/* from this many task lines on, the groups are made on their own thread meanwhile (as
 * many as rowchunks.c formats on two) */
#define GROUPS_THREAD_ROWS 4096

int
jsonout_write_tasks(FILE *f, const struct report *r, struct err *err)
{
	/* formatted in chunks on two threads as the CSV is, the same bytes in order */
	struct rowchunks chunks = { .nrows = r->nrows, .format = format_tasks, .ctx = r,
				    .scratch_new = jsontask_scratch_new,
				    .scratch_free = jsontask_scratch_free,
				    .what = "json" };
	struct groups_json gj;
	pthread_t tid;
	bool apart;
	int rc = 0;

	groups_init(&gj, r);
	apart = r->nrows >= GROUPS_THREAD_ROWS && pthread_create(&tid, NULL, groups_make, &gj) == 0;
	errno = 0;
	if (fputs("{\"tasks\":[", f) == EOF)
		rc = -1;
	if (rc == 0) {
		int lines = rowchunks_write(f, &chunks, err);

		if (lines != 0) {
			if (apart)
				pthread_join(tid, NULL);
			groups_cleanup(&gj);
			return lines == 1 ? err_set(err, ERR_IO, "json: a task is larger than %zu "
						    "bytes", JSON_TASK_MAX) : -1;
		}
	}
	if (apart)
		pthread_join(tid, NULL);
	else if (rc == 0)
		groups_make(&gj);
	if (rc == 0 && fputs(r->nrows ? "\n],\n" : "],\n", f) == EOF)
		rc = -1;
	if (rc == 0)
		rc = write_groups(f, &gj);
	groups_cleanup(&gj);
	return err_check_write(f, rc, "json", err);
}

int
jsonout_write_summary(FILE *f, const struct report *r, struct err *err)
{
	struct groups_json gj;
	int rc = 0;

	errno = 0;
	if (fputs("{", f) == EOF)
		rc = -1;
	if (rc == 0) {
		groups_init(&gj, r);
		groups_make(&gj);
		rc = write_groups(f, &gj);
		groups_cleanup(&gj);
	}
	return err_check_write(f, rc, "json", err);
}

int
jsonout_write_task_line(FILE *f, const struct report *r, const struct report_row *row)
{
	void *scratch = jsontask_scratch_new();
	struct buf line;
	int rc;

	buf_init(&line, JSON_TASK_MAX);
	rc = dump_task(f, &line, r, row, scratch);
	buf_cleanup(&line);
	jsontask_scratch_free(scratch);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}
