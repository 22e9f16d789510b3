/* task_set: the ARN-indexed task set that merges the same task seen in several inputs (a
 * DescribeTasks dump, events, a metadata document), and takes tasks and their pools in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ecsprof/image.h"
#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"
#include "task_int.h"
#include "task_pool.h"
void
task_set_init(struct task_set *s)
{
	memset(s, 0, sizeof *s);
}

struct task_strpool *
task_set_pool(struct task_set *s)
{
	if (s->pool == NULL)
		s->pool = tpool_new(POOL_SET);
	return s->pool;
}

void
task_set_cleanup(struct task_set *s)
{
	/* every task's strings and arrays are in s->pool: nothing to free one by one */
	free(s->tasks);
	free(s->index);
	tpool_free(s->pool);
	image_set_free(s->images);
	memset(s, 0, sizeof *s);
}

/* The whole pages of the n bytes at p made present in one call, where the kernel can
 * (Linux 5.14): a hint, no harm where refused. */
static void
prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t b = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)4095;

	if (e > b)
		(void)madvise((void *)b, e - b, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

/* The index holds pairs of 32 bits (position + 1, hash of the ARN's id), so a probe
 * touches a task only when the hash matches, in 8 bytes a slot. The id (the ARN's last
 * segment, task_id()) is what a task keeps alone and what tells tasks apart, so a lookup by
 * a whole ARN hashes the same bytes as the task it finds. */
static uint32_t
id_hash(const char *id)
{
	return (uint32_t)tpool_hash(id, strlen(id));
}

static uint32_t
arn_hash(const char *arn)
{
	const char *p = strrchr(arn, '/');

	return id_hash(p != NULL ? p + 1 : arn);
}

/* Do a and b have the same ARN? Their ids first, which differ for any two tasks. */
static bool
same_arn(const struct task *a, const struct task *b)
{
	const char *pa = a->prof->arn_prefix, *pb = b->prof->arn_prefix;
	struct task_arn_buf x, y;

	if (pa != NULL && pb != NULL)
		return strcmp(a->arn_tail, b->arn_tail) == 0 && (pa == pb || strcmp(pa, pb) == 0);
	if (strcmp(task_id(a), task_id(b)) != 0)
		return false;
	return strcmp(task_arn(a, &x), task_arn(b, &y)) == 0;
}

static void
index_put(uint32_t *index, size_t cap, uint32_t pos1, uint32_t h)
{
	size_t mask = cap - 1, i = h & mask;

	while (index[2 * i] != 0)
		i = (i + 1) & mask;
	index[2 * i] = pos1;
	index[2 * i + 1] = h;
}

/* For a set that grew: moves the pairs into a table twice the size. */
static void
index_grow(struct task_set *s)
{
	size_t cap = s->index_cap * 2;
	uint32_t *index = xcalloc(cap, 2 * sizeof *index);

	if (cap >= 8192)
		prefault(index, cap * 2 * sizeof *index);   /* every page gets a pair */

	for (size_t i = 0; i < s->index_cap; i++)
		if (s->index[2 * i] != 0)
			index_put(index, cap, s->index[2 * i], s->index[2 * i + 1]);
	free(s->index);
	s->index = index;
	s->index_cap = cap;
}

static void
index_rebuild(struct task_set *s)
{
	size_t cap = 64;

	while (cap < s->len * 2 + 2)
		cap *= 2;
	free(s->index);
	s->index = xcalloc(cap, 2 * sizeof *s->index);
	s->index_cap = cap;
	for (size_t i = 0; i < s->len; i++)
		if (s->tasks[i].arn_tail != NULL)
			index_put(s->index, cap, (uint32_t)(i + 1), id_hash(task_id(&s->tasks[i])));
}

struct task *
task_set_find(struct task_set *s, const char *arn)
{
	size_t mask, i, pos;
	uint32_t h;

	if (arn == NULL || s->len == 0)
		return NULL;
	if (s->index_cap == 0)
		index_rebuild(s);   /* dropped by task_set_trim() */
	mask = s->index_cap - 1;
	h = arn_hash(arn);
	for (i = h & mask; (pos = s->index[2 * i]) != 0; i = (i + 1) & mask)
		if (s->index[2 * i + 1] == h && task_arn_is(&s->tasks[pos - 1], arn))
			return &s->tasks[pos - 1];
	return NULL;
}

struct task *
task_set_find_task(struct task_set *s, const struct task *t)
{
	size_t mask, i, pos;
	uint32_t h;

	if (t->arn_tail == NULL || s->len == 0)
		return NULL;
	if (s->index_cap == 0)
		index_rebuild(s);   /* dropped by task_set_trim() */
	mask = s->index_cap - 1;
	h = id_hash(task_id(t));
	for (i = h & mask; (pos = s->index[2 * i]) != 0; i = (i + 1) & mask)
		if (s->index[2 * i + 1] == h && same_arn(&s->tasks[pos - 1], t))
			return &s->tasks[pos - 1];
	return NULL;
}

static int
count_ts(const struct task *t)
{
	int n = 0;

	for (int i = 0; i < TS_COUNT; i++)
		n += task_ts(t, i) != TS_NONE;
	return n;
}

/* Is b a newer state of the task than a? Versions decide when both have one; a side with
 * a version (an API view) beats one without (a metadata document); then fetch time; then
 * whichever knows more timestamps, ties going to the later arrival. */
static bool
newer(const struct task *a, const struct task *b)
{
	if (a->has_version && b->has_version && a->version != b->version)
		return b->version > a->version;
	if (a->has_version != b->has_version)
		return b->has_version;
	if (task_ts(a, TS_FETCHED) != TS_NONE && task_ts(b, TS_FETCHED) != TS_NONE &&
	    task_ts(a, TS_FETCHED) != task_ts(b, TS_FETCHED))
		return task_ts(b, TS_FETCHED) > task_ts(a, TS_FETCHED);
	return count_ts(b) >= count_ts(a);
}

static void
take_str(const char **dst, const char **src)
{
	if (*dst == NULL && *src != NULL) {
		*dst = *src;
		*src = NULL;
	}
}

/* Fills what w's profile lacks from l's: into a draft of w's, made only when there is
 * something to fill. */
static void
merge_profile(struct task *w, const struct task *l)
{
	const struct task_profile *wp = w->prof, *lp = l->prof;
	struct task_profile *d;

	if (wp == lp)
		return;
#define X(f) || (wp->f == NULL && lp->f != NULL)
	if (!(false PROFILE_STRINGS(X)))
		return;
#undef X
	d = task_edit_profile(w);
#define X(f) if (d->f == NULL) d->f = lp->f;
	PROFILE_STRINGS(X)
#undef X
}

/* Fills what winner lacks from loser; loser is left for cleanup. */
static void
merge_into(struct task *w, struct task *l)
{
	if (w->arn_tail == NULL && l->arn_tail != NULL) {
		w->arn_tail = l->arn_tail;
		if (w->prof->arn_prefix != l->prof->arn_prefix)
			task_edit_profile(w)->arn_prefix = l->prof->arn_prefix;
	}
	merge_profile(w, l);
	if (task_ts(w, TS_HEALTHY) == TS_NONE && task_ts(l, TS_HEALTHY) != TS_NONE) {
		w->healthy_observed = l->healthy_observed;
		w->healthy_resolution_ms = l->healthy_resolution_ms;
	}
	for (int i = 0; i < TS_COUNT; i++)
		if (task_ts(w, i) == TS_NONE)
			task_set_ts(w, i, task_ts(l, i));
	if (w->awsvpc == TRI_UNKNOWN)
		w->awsvpc = l->awsvpc;
	if (w->public_ip == TRI_UNKNOWN)
		w->public_ip = l->public_ip;
	if (!w->has_version && l->has_version) {
		w->has_version = true;
		w->version = l->version;
	}
	if (task_ts(w, TS_FETCHED) == TS_NONE)
		task_set_ts(w, TS_FETCHED, task_ts(l, TS_FETCHED));
	w->from_metadata = w->from_metadata || l->from_metadata;
	if (w->ncontainers == 0) {
		w->containers = l->containers;
		w->ncontainers = l->ncontainers;
		l->containers = NULL;
		l->ncontainers = 0;
	} else if (l->ncontainers > 0) {
		/* containers match by name; metadata adds the snapshotter and digests. Either
		 * array may be shared with other tasks (task_share_containers()): the fill runs
		 * on copies, and w gets a new array only when it changed */
		size_t nw = w->ncontainers, nl = l->ncontainers;
		struct container *ws = xreallocarray(NULL, nw, sizeof *ws);
		struct container *ls = xreallocarray(NULL, nl, sizeof *ls);

		memcpy(ws, w->containers, nw * sizeof *ws);
		memcpy(ls, l->containers, nl * sizeof *ls);
		for (size_t i = 0; i < nw; i++) {
			struct container *wc = &ws[i];

			for (size_t j = 0; j < nl; j++) {
				struct container *lc = &ls[j];

				const struct container_profile *wp = wc->prof, *lp = lc->prof;

				if (wp->name && lp->name && strcmp(wp->name, lp->name) == 0) {
					take_str(&wc->digest_raw, &lc->digest_raw);
#define X(f) || (wp->f == NULL && lp->f != NULL)
					if (wp != lp && (false CONTAINER_PROFILE_STRINGS(X))) {
#undef X
						struct container_profile *d =
						    container_edit_profile(w, wc);
#define X(f) if (d->f == NULL) d->f = lp->f;
						CONTAINER_PROFILE_STRINGS(X)
#undef X
					}
					if (!wc->has_exit_code && lc->has_exit_code) {
						wc->has_exit_code = true;
						wc->exit_code = lc->exit_code;
					}
					if (!wc->has_health_since && lc->has_health_since) {
						wc->has_health_since = true;
						wc->health_since_ms = lc->health_since_ms;
					}
					if (wc->essential == TRI_UNKNOWN)
						wc->essential = lc->essential;
				}
			}
		}
		task_share_container_profiles(w, ws, nw);
		if (memcmp(ws, w->containers, nw * sizeof *ws) != 0) {
			w->containers = tpool_alloc(task_pool_of(w), nw * sizeof *ws,
			    _Alignof(struct container));
			memcpy(w->containers, ws, nw * sizeof *ws);
		}
		free(ws);
		free(ls);
	}
	if (w->prof->ntags == 0 && l->prof->ntags > 0) {
		struct task_profile *p = task_edit_profile(w);

		p->tags = l->prof->tags;
		p->ntags = l->prof->ntags;
	}
}

/* t's pool's storage into s's pool (see task.h); t->pool becomes s's. */
static void
adopt_pool(struct task_set *s, struct task *t)
{
	struct task_strpool *sp = task_set_pool(s), *p = t->pool;

	t->pool = sp;
	if (p == NULL || p == sp)
		return;
	switch (p->kind) {
	case POOL_PRIVATE:
		tpool_adopt(sp, p);
		free(p);
		return;
	case POOL_BATCH:
		if (p->taken_by == NULL || p->taken_by == sp) {
			if (p->blocks != NULL)
				tpool_adopt(sp, p);
			p->taken_by = sp;
			return;
		}
		break;
	case POOL_SET:
		break;
	}
	/* its strings are another set's: they would go when that set does */
	fprintf(stderr, "ecsprof: internal error: task_set_take() of a task whose strings "
	    "belong to another set\n");
	abort();
}

/* The tasks array is first written here, on the main thread, a page fault every 12
 * tasks; on a virtual machine a fault is dear. Every TASKS_AHEAD tasks, the pages of the
 * next TASKS_AHEAD are asked for in one call, so peak memory grows by at most their
 * 1.3 MB (200k tasks: a third fewer faults, ~5% less time on the main thread). */
#define TASKS_AHEAD 4096

static void
tasks_prefault(struct task_set *s)
{
	size_t end = s->len + TASKS_AHEAD < s->cap ? s->len + TASKS_AHEAD : s->cap;

	if (s->cap >= TASKS_AHEAD)
		prefault(s->tasks + s->len, (end - s->len) * sizeof *s->tasks);
}

/* task_set_take_seen(); derive false: t's derived fields hold already (a copy's, made
 * by task_set_take_copy()), so a task added as it is keeps them. */
static struct task *
take(struct task_set *s, struct task *t, bool *repeat, bool derive)
{
	struct task *have = NULL;
	uint32_t *slot = NULL, h = 0;

	if (repeat != NULL)
		*repeat = false;
	/* first, so that strings merge_into() moves between tasks all belong to the set */
	adopt_pool(s, t);
	if (t->arn_tail != NULL) {
		/* one probe: the task with this ARN, or the free slot it goes to (room made
		 * first, so that the slot stays where it was found) */
		size_t mask, i, pos;

		if (s->index_cap == 0)
			index_rebuild(s);
		if ((s->len + 1) * 2 + 2 > s->index_cap)
			index_grow(s);
		mask = s->index_cap - 1;
		h = id_hash(task_id(t));
		for (i = h & mask; (pos = s->index[2 * i]) != 0; i = (i + 1) & mask)
			if (s->index[2 * i + 1] == h && same_arn(&s->tasks[pos - 1], t)) {
				have = &s->tasks[pos - 1];
				break;
			}
		slot = &s->index[2 * i];
	}
	if (have != NULL) {
		if (repeat != NULL)
			*repeat = have->has_version && t->has_version && have->version == t->version;
		if (newer(have, t)) {
			struct task old = *have;

			*have = *t;
			merge_into(have, &old);
			task_cleanup(&old);
		} else {
			merge_into(have, t);
			task_cleanup(t);
		}
		task_init(t);
		task_derive(have);
		return have;
	}
	s->tasks = xgrow(s->tasks, s->len + 1, &s->cap, sizeof *s->tasks);
	if (s->len % TASKS_AHEAD == 0)
		tasks_prefault(s);
	s->tasks[s->len] = *t;
	task_init(t);
	struct task *added = &s->tasks[s->len++];
	if (derive || added->prof->cluster == NULL)
		task_derive(added);
	if (slot != NULL) {
		slot[0] = (uint32_t)s->len;
		slot[1] = h;
	}
	return added;
}

struct task *
task_set_take_seen(struct task_set *s, struct task *t, bool *repeat)
{
	return take(s, t, repeat, true);
}

struct task *
task_set_take_derived(struct task_set *s, struct task *t, bool *repeat)
{
	return take(s, t, repeat, false);
}

struct task *
task_set_take(struct task_set *s, struct task *t)
{
	return take(s, t, NULL, true);
}

/* p's copy of s (NULL for NULL): the memo's copy md when s is the memo's string ms (the
 * same text of the same source set), else looked up in p. */
static const char *
copy_str(struct task_strpool *p, const char *s, const char *ms, const char *md)
{
	if (s == NULL)
		return NULL;
	if (s == ms)
		return md;
	return tpool_intern(p, s, strlen(s));
}

/* copy_str() of a kept digest (task.h), whose bytes may hold NULs */
static const char *
copy_raw(struct task_strpool *p, const char *s, const char *ms, const char *md)
{
	if (s == NULL)
		return NULL;
	if (s == ms)
		return md;
	return tpool_intern(p, s, digest_raw_len(s));
}

struct task *
task_set_take_copy(struct task_set *s, const struct task *src, struct task_copy_memo *m)
{
	static const struct task_copy_memo none;
	struct task_strpool *p = task_set_pool(s);
	const struct task *ms = m != NULL ? &m->src : &none.src, *md = m != NULL ? &m->dst : &none.dst;
	struct container cs[COPY_STACK], *c = cs;
	struct tag gs[COPY_STACK], *g = gs;
	const struct task_profile *msp = ms->prof != NULL ? ms->prof : &task_profile_none;
	const struct task_profile *mdp = md->prof != NULL ? md->prof : &task_profile_none;
	struct task t = *src;
	struct task *in;

	t.pool = p;
	task_copy_wide(&t, p);
	/* the ARN's id (or whole ARN) is the one string no other task has: stored, not
	 * looked up; its prefix is the profile's */
	if (src->arn_tail != NULL) {
		size_t n = strlen(src->arn_tail);
		char *a = tpool_alloc(p, n + 1, 1);

		memcpy(a, src->arn_tail, n + 1);
		t.arn_tail = a;
	}
	if (src->prof == msp && msp != &task_profile_none && !msp->draft) {
		t.prof = mdp;   /* a profile the pool shares already */
	} else {
		struct task_profile *d = task_new_draft(&t, NULL);

#define X(f) d->f = copy_str(p, src->prof->f, msp->f, mdp->f);
		PROFILE_STRINGS(X)
		X(arn_prefix)
#undef X
	}
	if (src->ncontainers > 0 && src->containers == ms->containers &&
	    src->ncontainers == ms->ncontainers) {
		t.containers = md->containers;   /* an array the pool shares already */
	} else {
		if (src->ncontainers > COPY_STACK)
			c = xreallocarray(NULL, src->ncontainers, sizeof *c);
		for (size_t i = 0; i < src->ncontainers; i++) {
			const struct container *sc = &src->containers[i];
			const struct container *mc = i < ms->ncontainers ? &ms->containers[i] : NULL;
			const struct container *dc = mc != NULL ? &md->containers[i] : NULL;

			c[i] = *sc;
			c[i].digest_raw = copy_raw(p, sc->digest_raw, mc ? mc->digest_raw : NULL,
						   dc ? dc->digest_raw : NULL);
			if (mc != NULL && sc->prof == mc->prof && !sc->prof->draft) {
				c[i].prof = dc->prof;   /* a profile the pool shares already */
			} else {
				const struct container_profile *sp = sc->prof;
				const struct container_profile *mp = mc ? mc->prof : NULL;
				const struct container_profile *dp = dc ? dc->prof : NULL;
				struct container_profile *d = task_new_container_draft(&t, &c[i], NULL);

#define X(f) d->f = copy_str(p, sp->f, mp ? mp->f : NULL, dp ? dp->f : NULL);
				CONTAINER_PROFILE_STRINGS(X)
#undef X
			}
		}
		task_share_containers(&t, c, src->ncontainers);
		if (c != cs)
			free(c);
	}
	/* the tags are the profile's: a profile taken from the memo has them already */
	if (t.prof == mdp) {
		/* nothing */
	} else if (src->prof->ntags > 0 && src->prof->tags == msp->tags &&
		   src->prof->ntags == msp->ntags) {
		struct task_profile *tp = task_edit_profile(&t);

		tp->tags = mdp->tags;   /* an array the pool shares already */
		tp->ntags = mdp->ntags;
	} else if (src->prof->ntags > 0) {
		if (src->prof->ntags > COPY_STACK)
			g = xreallocarray(NULL, src->prof->ntags, sizeof *g);
		for (size_t i = 0; i < src->prof->ntags; i++) {
			const struct tag *mg = i < msp->ntags ? &msp->tags[i] : NULL;
			const struct tag *dg = mg != NULL ? &mdp->tags[i] : NULL;

			g[i].key = copy_str(p, src->prof->tags[i].key, mg ? mg->key : NULL,
					    dg ? dg->key : NULL);
			g[i].value = copy_str(p, src->prof->tags[i].value, mg ? mg->value : NULL,
					      dg ? dg->value : NULL);
		}
		task_share_tags(&t, g, src->prof->ntags);
		if (g != gs)
			free(g);
	}
	task_derive(&t);
	if (m != NULL) {
		m->src = *src;
		m->dst = t;
	}
	in = take(s, &t, NULL, false);
	return in;
}

void
task_set_trim(struct task_set *s)
{
	free(s->index);
	s->index = NULL;
	s->index_cap = 0;
	if (s->len > 0 && s->len < s->cap) {
		s->tasks = xreallocarray(s->tasks, s->len, sizeof *s->tasks);
		s->cap = s->len;
	}
}

void
task_set_filter(struct task_set *s, bool (*keep)(const struct task *, void *), void *ctx)
{
	size_t j = 0;

	for (size_t i = 0; i < s->len; i++) {
		if (keep(&s->tasks[i], ctx)) {
			if (i != j)
				s->tasks[j] = s->tasks[i];
			j++;
		} else {
			task_cleanup(&s->tasks[i]);
		}
	}
	if (j == s->len)
		return;   /* nothing moved: the index holds as it is (a SELECT that keeps all) */
	s->len = j;
	index_rebuild(s);
}
