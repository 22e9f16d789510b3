/* jsonout: the document is streamed one task (and one group) at a time, so memory stays
 * at one task's line however many tasks there are; each piece is one compact JSON value a
 * line, which keeps the output greppable and valid JSON. A task is written by jsonfmt
 * straight into a buffer, byte for byte what a jansson object of it dumped (the per-task
 * cost); the few group and diagnosis objects are still jansson objects dumped. */
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
#include "ecsprof/timeutil.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "jsonfmt.h"
#include "rowchunks.h"

/* 15 significant digits print any ms-rounded seconds value below 1e12 s exactly */
#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)
#define CELL_MAX ((size_t)16 << 20)
/* one task line: its cells are capped at CELL_MAX, so only broken input comes near */
#define JSON_TASK_MAX ((size_t)1 << 30)

/* A copy of s that is valid UTF-8: each stray byte becomes U+FFFD. The parsers hand us
 * valid UTF-8, but jansson refuses anything else and a field must not silently vanish. */
static char *
utf8_fix(const char *s)
{
	size_t o = 0;
	char *fixed = xmalloc(strlen(s) * 3 + 1);

	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		size_t len = utf8_len(p);

		if (len == 0) {
			memcpy(fixed + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		} else {
			memcpy(fixed + o, p, len);
			o += len;
			p += len;
		}
	}
	fixed[o] = '\0';
	return fixed;
}

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
	fixed = utf8_fix(s);
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

struct cellbuf {
	char *data;
	size_t size;
	struct report_cells *cells;   /* the row's cells at once (report_row_cells) */
};

/* report_cell() cuts at the buffer size; grow so a long text is never truncated */
static const char *
cell(const struct report *r, const struct report_row *row, enum col_id c, struct cellbuf *cb)
{
	for (;;) {
		report_cell(r, row, c, cb->data, cb->size);
		if (strlen(cb->data) + 1 < cb->size || cb->size >= CELL_MAX)
			return cb->data;
		cb->size *= 2;
		cb->data = xrealloc(cb->data, cb->size);
	}
}

#define PUTS(b, lit) jsonfmt_put((b), (lit), sizeof(lit) - 1)

/* The key a tag has in the "tags" object: its key with invalid UTF-8 fixed (a copy in
 * *fixed, which the caller frees, only when it needed fixing). */
static const char *
tag_key(const struct tag *tag, char **fixed)
{
	*fixed = NULL;
	for (const unsigned char *p = (const unsigned char *)tag->key; *p != '\0';) {
		size_t len = utf8_len(p);

		if (len == 0)
			return *fixed = utf8_fix(tag->key);
		p += len;
	}
	return tag->key;
}

struct tag_item {
	const char *key;
	size_t pos;
};

/* tags a task may have sorted without an allocation (ECS allows 50) */
#define TAGS_HERE 64

static int
tag_item_cmp(const void *pa, const void *pb)
{
	const struct tag_item *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* "tags":{...} as a jansson object held it: a key set twice keeps its first place and
 * its last value */
static int
write_tags(struct buf *b, const struct task *t)
{
	/* a task's few tags sorted on the stack: no allocation a task (issue 35) */
	struct tag_item items_here[TAGS_HERE];
	size_t last_here[TAGS_HERE];
	char *fixed_here[TAGS_HERE];
	bool here = t->prof->ntags <= TAGS_HERE;
	struct tag_item *items = here ? items_here : xreallocarray(NULL, t->prof->ntags, sizeof *items);
	size_t *last = here ? last_here : xreallocarray(NULL, t->prof->ntags, sizeof *last);
	char **fixed = here ? fixed_here : xreallocarray(NULL, t->prof->ntags, sizeof *fixed);
	size_t n = 0, written = 0;
	int rc = PUTS(b, "\"tags\":{");

	for (size_t i = 0; i < t->prof->ntags; i++) {
		last[i] = SIZE_MAX;   /* SIZE_MAX: not the first of its key */
		fixed[i] = NULL;
		if (t->prof->tags[i].key == NULL)
			continue;
		items[n].key = tag_key(&t->prof->tags[i], &fixed[i]);
		items[n++].pos = i;
	}
	if (n > 1)
		qsort(items, n, sizeof *items, tag_item_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && strcmp(items[j + 1].key, items[i].key) == 0)
			j++;
		last[items[i].pos] = items[j].pos;
		i = j + 1;
	}
	for (size_t i = 0; i < t->prof->ntags; i++) {
		if (last[i] == SIZE_MAX)
			continue;
		if (written++ > 0)
			rc |= jsonfmt_putc(b, ',');
		rc |= jsonfmt_key(b, fixed[i] != NULL ? fixed[i] : t->prof->tags[i].key);
		rc |= jsonfmt_string(b, t->prof->tags[last[i]].value);
	}
	for (size_t i = 0; i < t->prof->ntags; i++)
		free(fixed[i]);
	if (!here) {
		free(fixed);
		free(last);
		free(items);
	}
	return rc | jsonfmt_putc(b, '}');
}

/* n bytes of s, where w bytes (a constant) may be read at s: one copy of a fixed size,
 * which the compiler makes a few moves, where n varies and memcpy was a call (issue 35:
 * the 47 keys and 16 durations of a task line) */
static inline int
put_upto(struct buf *b, const char *s, size_t n, size_t w)
{
	if (w < b->cap - b->len && w <= b->max - b->len) {
		memcpy(b->data + b->len, s, w);
		b->len += n;
		b->data[b->len] = '\0';
		return 0;
	}
	return jsonfmt_put(b, s, n);
}

/* ",\"name\":" of each column, its length without the NUL; the first key skips the comma.
 * KEY_READ bytes are read at text or text + 1 (put_upto): the slot holds them. */
#define KEY_READ 32
#define JSON_KEY(name) { ",\"" name "\":", sizeof(",\"" name "\":") - 1 }
static const struct {
	char text[KEY_READ + 8];
	size_t len;
} json_keys[COL_COUNT] = {
#define X(id, name, title, kind) [id] = JSON_KEY(name),
	REPORT_COLUMNS(X)
#undef X
};
#define X(id, name, title, kind) \
	_Static_assert(sizeof(",\"" name "\":") - 1 <= KEY_READ, "a key longer than a read");
REPORT_COLUMNS(X)
#undef X

static int
write_container(struct buf *b, const struct container *k)
{
	int rc = PUTS(b, "{\"name\":");

	rc |= jsonfmt_string(b, k->prof->name);
	rc |= PUTS(b, ",\"image\":");
	rc |= jsonfmt_string(b, k->prof->image);
	rc |= PUTS(b, ",\"image_digest\":");
	rc |= jsonfmt_string(b, k->image_digest);
	rc |= PUTS(b, ",\"last_status\":");
	rc |= jsonfmt_string(b, k->prof->last_status);
	rc |= PUTS(b, ",\"reason\":");
	rc |= jsonfmt_string(b, k->prof->reason);
	rc |= PUTS(b, ",\"exit_code\":");
	rc |= k->has_exit_code ? jsonfmt_int(b, k->exit_code) : PUTS(b, "null");
	rc |= PUTS(b, ",\"snapshotter\":");
	rc |= jsonfmt_string(b, k->prof->snapshotter);
	rc |= PUTS(b, ",\"health_status\":");
	rc |= jsonfmt_string(b, k->prof->health_status);
	return rc | jsonfmt_putc(b, '}');
}

/* jsonfmt_secs(report_cell_ms(row, c)) of a duration column: the row's "12.300" less its
 * trailing zeros is that text below 1e15 ms (16 bytes), so it is not formatted twice */
static int
put_duration(struct buf *b, const struct report_row *row, const struct report_cells *cells,
	     enum col_id c)
{
	const char *d = cells->text[c];
	size_t n = cells->len[c];

	if (n == 0 || d[0] == '-')
		return PUTS(b, "null");
	if (n > 16)
		return jsonfmt_secs(b, report_cell_ms(row, c));
	while (d[n - 1] == '0' && d[n - 2] != '.')
		n--;
	/* d is cells->num[c]: 16 bytes may be read (asserted below) */
	return put_upto(b, d, n, 16);
}

/* jsonfmt_string_len of a cell that holds only digits and "-.:TZ" (report_cells' raw):
 * quoted as it is, with no look at its bytes; "" is null */
static int
put_raw(struct buf *b, const char *s, size_t n)
{
	char *o;

	if (n == 0)
		return PUTS(b, "null");
	if (n + 2 >= b->cap - b->len || n + 2 > b->max - b->len)
		return jsonfmt_string_len(b, s, n);
	o = b->data + b->len;
	o[0] = '"';
	memcpy(o + 1, s, n);
	o[n + 1] = '"';
	b->len += n + 2;
	b->data[b->len] = '\0';
	return 0;
}

_Static_assert(sizeof((struct report_cells *)0)->num[0] >= 16, "put_duration reads 16");

/* each phase's duration column (report_cell_ms of it is phase_ms), and its "\"name\":" */
static const struct {
	enum col_id col;
	char key[16];   /* put_upto reads 16 */
	size_t len;
} phase_cols[] = {
	{ COL_PROVISION_S, "\"provision\":", sizeof("\"provision\":") - 1 },
	{ COL_PULL_S, "\"pull\":", sizeof("\"pull\":") - 1 },
	{ COL_START_S, "\"start\":", sizeof("\"start\":") - 1 },
	{ COL_TOTAL_S, "\"total\":", sizeof("\"total\":") - 1 },
	{ COL_CONNECTIVITY_S, "\"connectivity\":", sizeof("\"connectivity\":") - 1 },
	{ COL_READY_S, "\"ready\":", sizeof("\"ready\":") - 1 },
	{ COL_SERVING_S, "\"serving\":", sizeof("\"serving\":") - 1 },
};
_Static_assert(sizeof phase_cols / sizeof phase_cols[0] == PHASE_COUNT,
	       "a duration column for each phase");

/* One task as the compact object jansson dumped for it (key order, escapes, reals: see
 * jsonfmt.h), appended to b. A number cell that is no finite number has no key at all,
 * as when json_object_set_new() was handed json_real()'s NULL. */
static int
write_task(struct buf *b, const struct report *r, const struct report_row *row,
	   struct cellbuf *cb)
{
	const struct task *t = row->task;
	const struct report_cells *cells = cb->cells;
	bool first = true;
	int rc = jsonfmt_putc(b, '{');

	report_row_cells(r, row, TIME_FORMAT_ISO, cb->cells);
	for (int c = 0; c < COL_COUNT; c++) {
		size_t mark = b->len;

		rc |= first ? put_upto(b, json_keys[c].text + 1, json_keys[c].len - 1, KEY_READ) :
			      put_upto(b, json_keys[c].text, json_keys[c].len, KEY_READ);
		if (report_columns[c].kind == COL_DURATION) {
			rc |= put_duration(b, row, cells, (enum col_id)c);
		} else if (report_columns[c].kind != COL_NUMBER && cells->raw[c] &&
			   cells->len[c] + 1 < CELL_MAX) {
			/* a time or count ecsprof wrote (the text report_cell() gives, without
			 * its copy, as csv does): nothing in it to escape */
			rc |= put_raw(b, cells->text[c], cells->len[c]);
		} else if (report_columns[c].kind == COL_TIME) {
			rc |= jsonfmt_string_len(b, cells->text[c], cells->len[c]);
		} else if (report_columns[c].kind == COL_NUMBER) {
			const char *num = cells->text[c];

			if (num[0] == '\0') {
				rc |= PUTS(b, "null");
			} else if (!jsonfmt_decimal(b, num, &rc)) {
				b->len = mark;   /* no key, as jansson left it out */
				b->data[mark] = '\0';
				continue;
			}
		} else {
			/* report_cell() as cell() grows it, uncut below CELL_MAX: the row's text,
			 * and cell()'s own cut for the (broken) texts that reach it */
			rc |= cells->len[c] + 1 < CELL_MAX ?
			      jsonfmt_string_len(b, cells->text[c], cells->len[c]) :
			      jsonfmt_string(b, cell(r, row, (enum col_id)c, cb));
		}
		first = false;
	}
	rc |= first ? PUTS(b, "\"phases\":{") : PUTS(b, ",\"phases\":{");
	for (int p = 0; p < PHASE_COUNT; p++) {
		rc |= p ? jsonfmt_putc(b, ',') : 0;
		rc |= put_upto(b, phase_cols[p].key, phase_cols[p].len, 16);
		rc |= put_duration(b, row, cells, phase_cols[p].col);
	}
	rc |= PUTS(b, "},\"containers\":[");
	for (size_t i = 0; i < t->ncontainers; i++) {
		if (i > 0)
			rc |= jsonfmt_putc(b, ',');
		rc |= write_container(b, &t->containers[i]);
	}
	rc |= PUTS(b, "],");
	rc |= write_tags(b, t);
	return rc | jsonfmt_putc(b, '}');
}

/* the task appended to b and written out, b emptied */
static int
dump_task(FILE *f, struct buf *b, const struct report *r, const struct report_row *row,
	  struct cellbuf *cb)
{
	int rc = write_task(b, r, row, cb);

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

/* the formatting state of one thread: the report's cells of a row and cell()'s buffer */
static void *
scratch_new(void)
{
	struct cellbuf *cb = xmalloc(sizeof *cb);

	cb->size = 4096;
	cb->data = xmalloc(cb->size);
	cb->cells = xmalloc(sizeof *cb->cells);
	return cb;
}

static void
scratch_free(void *p)
{
	struct cellbuf *cb = p;

	free(cb->data);
	free(cb->cells);
	free(cb);
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

		rc |= write_task(b, r, &r->rows[i], scratch);
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
				    .scratch_new = scratch_new, .scratch_free = scratch_free,
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
	struct cellbuf cb = { xmalloc(4096), 4096, xmalloc(sizeof(struct report_cells)) };
	struct buf line;
	int rc;

	buf_init(&line, JSON_TASK_MAX);
	rc = dump_task(f, &line, r, row, &cb);
	buf_cleanup(&line);
	free(cb.data);
	free(cb.cells);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}
