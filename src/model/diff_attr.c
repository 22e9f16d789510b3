/* diff_attr: what changed between the windows and which change explains a phase's: each
 * attribute's mix tested (stats_mix_test: Fisher's exact for two values, chi-square for
 * more; Holm over the attributes), the new window split by each attribute that changed,
 * each part against the whole baseline, and the task definition fields that differ. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/diff.h"
#include "ecsprof/group.h"
#include "ecsprof/image.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

static const struct {
	const char *name, *words;
	enum group_key_kind key;      /* GK_ALL: a value of its own below */
} attrs[DIFF_ATTR_COUNT] = {
	[DIFF_DIGEST] = { "image_digest", "image digest", GK_DIGEST },
	[DIFF_TASKDEF] = { "taskdef", "task definition", GK_TASKDEF },
	[DIFF_PLATFORM] = { "platform_version", "platform version", GK_PLATFORM },
	[DIFF_CAPACITY] = { "capacity", "launch type or capacity provider", GK_ALL },
	[DIFF_AZ] = { "availability_zone", "availability zone", GK_AZ },
	[DIFF_ARCH] = { "architecture", "architecture", GK_ALL },
	[DIFF_SOCI] = { "soci", "SOCI", GK_SOCI },
	[DIFF_REGISTRY] = { "registry", "registry", GK_REGISTRY },
};

const char *
diff_attr_name(enum diff_attr a)
{
	return (unsigned)a < DIFF_ATTR_COUNT ? attrs[a].name : "?";
}

const char *
diff_attr_words(enum diff_attr a)
{
	return (unsigned)a < DIFF_ATTR_COUNT ? attrs[a].words : "?";
}

const char *
diff_attr_value(const struct task *t, enum diff_attr a, char *buf, size_t size)
{
	const char *v = NULL;

	if (a == DIFF_CAPACITY)   /* a capacity provider says more than its launch type */
		v = t->prof->capacity_provider != NULL && t->prof->capacity_provider[0] != '\0' ?
		    t->prof->capacity_provider : t->prof->launch_type;
	else if (a == DIFF_ARCH)
		v = t->prof->cpu_arch;
	else {
		struct group_key k = { .kind = attrs[a].key };

		v = group_value(t, &k, buf, size);
	}
	return v != NULL && v[0] != '\0' ? v : GROUP_NONE;
}

/* The index of the value in the mix, added when new. */
static size_t
value_index(struct diff_mix *m, const char *v)
{
	for (size_t i = 0; i < m->nvalues; i++)
		if (strcmp(m->values[i].value, v) == 0)
			return i;
	m->values = xreallocarray(m->values, m->nvalues + 1, sizeof *m->values);
	m->values[m->nvalues] = (struct diff_value){ .value = xstrdup(v), .size_bytes = -1 };
	return m->nvalues++;
}

/* Each task's value index for one attribute, both windows (base first). */
static size_t *
mix_count(struct diff_mix *m, enum diff_attr a, const struct diff_window *base,
	  const struct diff_window *cur)
{
	size_t *idx = xmalloc((base->n + cur->n) * sizeof *idx);
	char buf[256];

	for (size_t i = 0; i < base->n + cur->n; i++) {
		bool in_base = i < base->n;
		const struct task *t = in_base ? base->v[i] : cur->v[i - base->n];
		size_t k = value_index(m, diff_attr_value(t, a, buf, sizeof buf));

		idx[i] = k;
		if (in_base)
			m->values[k].base_n++;
		else
			m->values[k].new_n++;
	}
	return idx;
}

static void
mix_test(struct diff_mix *m)
{
	size_t *a = xmalloc((m->nvalues + 1) * sizeof *a), *b = xmalloc((m->nvalues + 1) * sizeof *b);
	struct stats_mix r;

	for (size_t i = 0; i < m->nvalues; i++) {
		a[i] = m->values[i].base_n;
		b[i] = m->values[i].new_n;
	}
	m->p_value = NAN;
	if (m->nvalues > 1 && stats_mix_test(a, b, m->nvalues, &r) == 0) {
		m->p_value = r.p < DBL_MIN ? DBL_MIN : r.p;   /* underflow: never print 0 */
		m->fisher = r.fisher;
		m->df = r.df;
	}
	free(a);
	free(b);
}

/* The parts of phase p split by attribute a: the new window's tasks of each value, each
 * against the whole baseline, Holm over the parts. */
static void
split_phase(struct diff *d, enum diff_phase p, enum diff_attr a, const size_t *idx,
	    const struct diff_window *base, const struct diff_window *cur)
{
	const struct diff_mix *m = &d->mix[a];
	size_t na, first = d->nparts;
	double *va = diff_window_values(base, p, &na);
	double *vb = xmalloc((cur->n ? cur->n : 1) * sizeof *vb);
	double *fresh = xmalloc((cur->n ? cur->n : 1) * sizeof *fresh);
	double *kept = xmalloc((cur->n ? cur->n : 1) * sizeof *kept);
	size_t nfresh = 0, nkept = 0;
	double u;

	for (size_t i = 0; i < cur->n; i++) {
		double s = diff_phase_secs(cur->v[i], p);

		if (isnan(s))
			continue;
		if (m->values[idx[base->n + i]].base_n > 0)
			kept[nkept++] = s;
		else
			fresh[nfresh++] = s;
	}
	if (stats_mann_whitney(fresh, nfresh, kept, nkept, &d->split_p[p][a], &u) != 0)
		d->split_p[p][a] = NAN;
	free(fresh);
	free(kept);
	for (size_t k = 0; k < m->nvalues; k++) {
		size_t nb = 0;

		if (m->values[k].new_n == 0)
			continue;
		for (size_t i = 0; i < cur->n; i++) {
			double s;

			if (idx[base->n + i] != k || isnan(s = diff_phase_secs(cur->v[i], p)))
				continue;
			vb[nb++] = s;
		}
		d->parts = xreallocarray(d->parts, d->nparts + 1, sizeof *d->parts);
		struct diff_part *pt = &d->parts[d->nparts++];

		*pt = (struct diff_part){ .phase = p, .attr = a, .value = k,
					  .in_baseline = m->values[k].base_n > 0 };
		/* diff_compare sorts va: the same values in another order compare the same */
		diff_compare(va, na, vb, nb, &pt->cmp);
	}
	struct diff_cmp **fam = xmalloc((d->nparts - first + 1) * sizeof *fam);

	for (size_t i = first; i < d->nparts; i++)
		fam[i - first] = &d->parts[i].cmp;
	diff_holm(fam, d->nparts - first);
	free(fam);
	free(va);
	free(vb);
}

static bool
same_sign(double x, double y)
{
	return x == 0 || y == 0 || (x > 0) == (y > 0);
}

/* How attribute a's split of phase p reads: 1 when its new values' parts carry the change,
 * the parts on values the baseline has do not (no significant change, or one under
 * DIFF_EXPLAIN_SHARE of the new values' part's), and the two kinds of tasks differ from each
 * other within the new window (so a part is not clean merely for being small); 2 when every new task has a value the
 * baseline never had (no part to compare against: confounded); 0 otherwise. */
static int
split_verdict(const struct diff *d, enum diff_phase p, enum diff_attr a)
{
	bool new_sig = false, any_old = false, any_new = false;
	double whole = d->phase[p].p50_delta_s, carried = 0, old_worst = 0;

	for (size_t i = 0; i < d->nparts; i++) {
		const struct diff_part *pt = &d->parts[i];
		double x = fabs(pt->cmp.p50_delta_s);

		if (pt->phase != p || pt->attr != a || !pt->cmp.valid)
			continue;
		if (pt->in_baseline) {
			any_old = true;
			if (pt->cmp.significant && x > old_worst)
				old_worst = x;
		} else if (pt->cmp.significant && same_sign(pt->cmp.p50_delta_s, whole)) {
			any_new = new_sig = true;
			if (x > carried)
				carried = x;
		} else {
			any_new = true;
		}
	}
	if (any_new && !any_old)
		return 2;
	/* with thousands of tasks a part on an old value is significant for a drift of a
	 * tenth of a second: it still leaves the change to the new values when it is under a
	 * quarter of what their part carries */
	return new_sig && old_worst <= DIFF_EXPLAIN_SHARE * carried &&
	       d->split_p[p][a] < DIFF_ALPHA ? 1 : 0;
}

static void
explain_phase(struct diff *d, enum diff_phase p)
{
	struct diff_explain *e = &d->explain[p];
	int first[3] = { -1, -1, -1 };
	unsigned bits[3] = { 0, 0, 0 };
	bool any = false;

	for (int a = 0; a < DIFF_ATTR_COUNT; a++) {
		if (!d->mix[a].differs)
			continue;
		any = true;
		int v = split_verdict(d, p, (enum diff_attr)a);

		if (first[v] < 0)
			first[v] = a;
		bits[v] |= 1u << a;
	}
	if (first[1] >= 0) {
		e->why = DIFF_WHY_EXPLAINED;
		e->attr = (enum diff_attr)first[1];
		e->also = bits[1] & ~(1u << first[1]);
	} else if (first[2] >= 0) {
		e->why = DIFF_WHY_CONFOUNDED;
		e->attr = (enum diff_attr)first[2];
		e->also = bits[2] & ~(1u << first[2]);
	} else {
		e->why = any ? DIFF_WHY_EVERYWHERE : DIFF_WHY_NOTHING_CHANGED;
	}
}

/* The first task of the window with this task definition. */
static const struct task *
task_of(const struct diff_window *w, const char *taskdef)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i]->prof->taskdef, taskdef) == 0)
			return w->v[i];
	return NULL;
}

static const char *
or_dash(const char *s)
{
	return s != NULL && s[0] != '\0' ? s : "-";
}

/* "web:7 -> web:8: cpu 256 -> 512; memory 512 -> 1024; container app image repo:1 ->
 * repo:2", from one task of each revision: the baseline's most common one and the new
 * window's most common other one. */
static char *
taskdef_note(const struct diff_mix *m, const struct diff_window *base,
	     const struct diff_window *cur)
{
	size_t from = SIZE_MAX, to = SIZE_MAX;
	const struct task *a, *b;
	struct buf out;
	size_t before;

	for (size_t i = 0; i < m->nvalues; i++)
		if (m->values[i].base_n > 0 && (from == SIZE_MAX || m->values[i].base_n > m->values[from].base_n))
			from = i;
	for (size_t i = 0; i < m->nvalues; i++)
		if (i != from && m->values[i].new_n > 0 &&
		    (to == SIZE_MAX || m->values[i].new_n > m->values[to].new_n))
			to = i;
	if (from == SIZE_MAX || to == SIZE_MAX || strcmp(m->values[from].value, GROUP_NONE) == 0 ||
	    strcmp(m->values[to].value, GROUP_NONE) == 0)
		return NULL;
	a = task_of(base, m->values[from].value);
	b = task_of(cur, m->values[to].value);
	if (a == NULL || b == NULL)
		return NULL;
	buf_init(&out, 0);
	buf_addf(&out, "%s -> %s:", a->prof->taskdef, b->prof->taskdef);
	before = out.len;
	if (strcmp(or_dash(a->prof->cpu), or_dash(b->prof->cpu)) != 0)
		buf_addf(&out, " cpu %s -> %s;", or_dash(a->prof->cpu), or_dash(b->prof->cpu));
	if (strcmp(or_dash(a->prof->memory), or_dash(b->prof->memory)) != 0)
		buf_addf(&out, " memory %s -> %s;", or_dash(a->prof->memory), or_dash(b->prof->memory));
	for (uint32_t i = 0; i < b->ncontainers; i++) {
		const struct container *cb = &b->containers[i], *ca = NULL;

		for (uint32_t j = 0; j < a->ncontainers && ca == NULL; j++)
			if (strcmp(or_dash(a->containers[j].prof->name), or_dash(cb->prof->name)) == 0)
				ca = &a->containers[j];
		if (ca == NULL)
			buf_addf(&out, " container %s added;", or_dash(cb->prof->name));
		else if (strcmp(or_dash(ca->prof->image), or_dash(cb->prof->image)) != 0)
			buf_addf(&out, " container %s image %s -> %s;", or_dash(cb->prof->name),
				 or_dash(ca->prof->image), or_dash(cb->prof->image));
	}
	for (uint32_t j = 0; j < a->ncontainers; j++) {
		bool kept = false;

		for (uint32_t i = 0; i < b->ncontainers && !kept; i++)
			kept = strcmp(or_dash(a->containers[j].prof->name), or_dash(b->containers[i].prof->name)) == 0;
		if (!kept)
			buf_addf(&out, " container %s removed;", or_dash(a->containers[j].prof->name));
	}
	if (out.len == before)
		buf_adds(&out, " the same cpu, memory and container images");
	else
		out.len--, out.data[out.len] = '\0';   /* the last ';' */
	return buf_take(&out);
}

static int
cmp_value(const void *x, const void *y)
{
	const struct diff_value *a = x, *b = y;

	if (a->new_n != b->new_n)
		return a->new_n > b->new_n ? -1 : 1;
	if (a->base_n != b->base_n)
		return a->base_n > b->base_n ? -1 : 1;
	return strcmp(a->value, b->value);
}

/* Each digest's compressed size, from either window's image facts. */
static void
digest_sizes(struct diff_mix *m, const struct diff_window *base, const struct diff_window *cur)
{
	for (size_t i = 0; i < m->nvalues; i++) {
		const struct image_facts *f = NULL;

		if (base->images != NULL)
			f = image_set_find(base->images, m->values[i].value, NULL);
		if (f == NULL && cur->images != NULL)
			f = image_set_find(cur->images, m->values[i].value, NULL);
		if (f != NULL && f->size_bytes >= 0)
			m->values[i].size_bytes = f->size_bytes;
	}
}

void
diff_attrs_build(struct diff *d, const struct diff_window *base, const struct diff_window *cur)
{
	size_t *idx[DIFF_ATTR_COUNT];
	double p[DIFF_ATTR_COUNT], adj[DIFF_ATTR_COUNT];

	for (int a = 0; a < DIFF_ATTR_COUNT; a++) {
		struct diff_mix *m = &d->mix[a];

		/* sorted first, so the indices the split reads are the final ones */
		free(mix_count(m, (enum diff_attr)a, base, cur));
		qsort(m->values, m->nvalues, sizeof *m->values, cmp_value);
		for (size_t i = 0; i < m->nvalues; i++)
			m->values[i].base_n = m->values[i].new_n = 0;
		idx[a] = mix_count(m, (enum diff_attr)a, base, cur);
		mix_test(m);
		p[a] = m->p_value;
	}
	digest_sizes(&d->mix[DIFF_DIGEST], base, cur);
	stats_holm(p, DIFF_ATTR_COUNT, adj);
	for (int a = 0; a < DIFF_ATTR_COUNT; a++) {
		d->mix[a].p_holm = isnan(adj[a]) ? 1.0 : adj[a];
		d->mix[a].differs = d->mix[a].p_holm < DIFF_ALPHA;
	}
	for (int ph = 0; ph < DIFF_PHASE_COUNT; ph++)
		for (int a = 0; a < DIFF_ATTR_COUNT; a++)
			d->split_p[ph][a] = NAN;
	for (int ph = 0; ph < DIFF_PHASE_COUNT; ph++) {
		if (!d->phase[ph].significant)
			continue;
		for (int a = 0; a < DIFF_ATTR_COUNT; a++)
			if (d->mix[a].differs)
				split_phase(d, (enum diff_phase)ph, (enum diff_attr)a, idx[a], base, cur);
		explain_phase(d, (enum diff_phase)ph);
	}
	if (d->mix[DIFF_TASKDEF].differs)
		d->taskdef_note = taskdef_note(&d->mix[DIFF_TASKDEF], base, cur);
	for (int a = 0; a < DIFF_ATTR_COUNT; a++)
		free(idx[a]);
}
