/* task: the task model: where a task stands (task_stage), its derived fields, copies, and
 * the strings and arrays it writes into its pool. The set that merges tasks by ARN is
 * task_set.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/hex.h"
#include "ecsprof/image.h"
#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"
#include "task_int.h"
#include "task_pool.h"

const struct ts_def ts_defs[TS_COUNT] = {
	{ TS_CREATED,           "createdAt",          "CreatedAt",          "created_at" },
	{ TS_CONNECTIVITY,      "connectivityAt",     NULL,                 "connectivity_at" },
	{ TS_PULL_STARTED,      "pullStartedAt",      "PullStartedAt",      "pull_started_at" },
	{ TS_PULL_STOPPED,      "pullStoppedAt",      "PullStoppedAt",      "pull_stopped_at" },
	{ TS_STARTED,           "startedAt",          "StartedAt",          "started_at" },
	{ TS_STOPPING,          "stoppingAt",         NULL,                 "stopping_at" },
	{ TS_EXECUTION_STOPPED, "executionStoppedAt", "ExecutionStoppedAt", "execution_stopped_at" },
	{ TS_STOPPED,           "stoppedAt",          "StoppedAt",          "stopped_at" },
	/* ecsprof's own: from Containers[].Health or a watch poll (health.h) */
	{ TS_HEALTHY,           "healthyAt",          NULL,                 "healthy_at" },
};

const char *const task_stage_names[STAGE_COUNT] = {
	"unknown", "provision", "pull", "start", "running", "stopped", "failed",
};

const struct task_profile task_profile_none;
const struct container_profile container_profile_none;

/* the size classes of the drafts in a pool's spare chunks (tpool_take_chunk()) */
enum { CHUNK_TASK_PROFILE, CHUNK_CONTAINER_PROFILE };

static bool
status_is(const struct task *t, const char *s)
{
	return t->prof->last_status != NULL && strcmp(t->prof->last_status, s) == 0;
}

int64_t
task_latest_ms(const struct task *t)
{
	int64_t m = task_ts(t, TS_FETCHED);

	for (int f = 0; f < TS_COUNT; f++)
		if (task_ts(t, f) != TS_NONE && (m == TS_NONE || task_ts(t, f) > m))
			m = task_ts(t, f);
	return m;
}

bool
task_is_final(const struct task *t)
{
	return task_ts(t, TS_STOPPED) != TS_NONE || status_is(t, "STOPPED");
}

bool
task_stage_is_starting(enum task_stage s)
{
	return s == STAGE_PROVISION || s == STAGE_PULL || s == STAGE_START;
}

bool
task_stage_is_down(enum task_stage s)
{
	return s == STAGE_STOPPED || s == STAGE_FAILED;
}

/* The first sign that the task is going down, or TS_NONE when there is no timestamp for
 * it (only a status, a stop code or a reason). */
static bool
going_down(const struct task *t, int64_t *since)
{
	static const enum ts_field marks[] = { TS_STOPPING, TS_EXECUTION_STOPPED, TS_STOPPED };
	static const char *const statuses[] = { "DEACTIVATING", "STOPPING", "DEPROVISIONING",
						"STOPPED" };
	bool down = t->prof->stop_code != NULL || t->prof->stopped_reason != NULL;

	*since = TS_NONE;
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (task_ts(t, marks[i]) != TS_NONE) {
			if (*since == TS_NONE || task_ts(t, marks[i]) < *since)
				*since = task_ts(t, marks[i]);
			down = true;
		}
	/* each of them begins with D or S: a running task's status is told apart by one byte
	 * rather than four strcmp() (the live CSV asks every task's stage) */
	if (!down && t->prof->last_status != NULL &&
	    (t->prof->last_status[0] == 'D' || t->prof->last_status[0] == 'S'))
		for (size_t i = 0; i < sizeof statuses / sizeof statuses[0] && !down; i++)
			down = status_is(t, statuses[i]);
	return down;
}

enum task_stage
task_stage(const struct task *t, int64_t *since_ms)
{
	int64_t dummy, *since = since_ms != NULL ? since_ms : &dummy;
	bool failed_code = t->prof->stop_code != NULL &&
			   strcmp(t->prof->stop_code, "TaskFailedToStart") == 0;

	if (going_down(t, since))
		/* ECS's own verdict wins: a task it says failed to start failed, even with a
		 * startedAt from a container that came up before another one died */
		return failed_code || task_ts(t, TS_STARTED) == TS_NONE ? STAGE_FAILED : STAGE_STOPPED;
	if (task_ts(t, TS_STARTED) != TS_NONE || status_is(t, "RUNNING")) {
		*since = task_ts(t, TS_STARTED);
		return STAGE_RUNNING;
	}
	if (task_ts(t, TS_CREATED) == TS_NONE) {
		*since = TS_NONE;
		return STAGE_UNKNOWN;
	}
	if (task_ts(t, TS_PULL_STOPPED) != TS_NONE) {
		*since = task_ts(t, TS_PULL_STOPPED);
		return STAGE_START;
	}
	if (task_ts(t, TS_PULL_STARTED) != TS_NONE) {
		*since = task_ts(t, TS_PULL_STARTED);
		return STAGE_PULL;
	}
	*since = task_ts(t, TS_CREATED);
	return STAGE_PROVISION;
}


void
task_init(struct task *t)
{
	memset(t, 0, sizeof *t);
	t->ts_base = TS_NONE;
	for (int i = 0; i < TS_SLOTS; i++)
		t->tsv.d[i] = TS_D_NONE;
	t->prof = &task_profile_none;
}

/* t's times as a new array of t's pool, slot f set to v: the wide form (see task.h). */
static void
set_wide(struct task *t, int f, int64_t v)
{
	int64_t *w = tpool_alloc(task_pool_of(t), TS_SLOTS * sizeof *w, _Alignof(int64_t));

	for (int i = 0; i < TS_SLOTS; i++)
		w[i] = task_ts(t, i);
	w[f] = v;
	t->tsv.wide = w;
	t->ts_wide = true;
}

void
task_set_ts(struct task *t, int f, int64_t v)
{
	int64_t d;

	if (t->ts_wide) {
		if (t->tsv.wide[f] != v)
			set_wide(t, f, v);
	} else if (v == TS_NONE) {
		t->tsv.d[f] = TS_D_NONE;
	} else if (t->ts_base == TS_NONE) {
		t->ts_base = v;
		t->tsv.d[f] = 0;
	} else if (!__builtin_sub_overflow(v, t->ts_base, &d) && d > TS_D_NONE && d <= INT32_MAX) {
		t->tsv.d[f] = (int32_t)d;
	} else {
		set_wide(t, f, v);
	}
}

void
task_copy_wide(struct task *t, struct task_strpool *p)
{
	int64_t *w;

	if (!t->ts_wide)
		return;
	w = tpool_alloc(p, TS_SLOTS * sizeof *w, _Alignof(int64_t));
	memcpy(w, t->tsv.wide, TS_SLOTS * sizeof *w);
	t->tsv.wide = w;
}

void
task_init_pool(struct task *t, struct task_strpool *p)
{
	task_init(t);
	t->pool = p;
}

void
task_reset(struct task *t)
{
	task_drop_draft(t);
	task_init_pool(t, t->pool);
}

void
task_cleanup(struct task *t)
{
	if (t->pool != NULL && t->pool->kind == POOL_PRIVATE)
		task_strpool_free(t->pool);
	else
		task_drop_draft(t);
	task_init(t);
}

/* A task profile's draft field: a draft of a task's own, and whether its tags array is the
 * draft's own too (task_tags(), written in place: shared with the profile) or already one
 * of the pool's (task_share_tags(), the array of another profile). */
enum { DRAFT = 1, DRAFT_OWN_TAGS = 2 };

struct task_profile *
task_new_draft(struct task *t, const struct task_profile *from)
{
	struct task_profile *d = tpool_take_chunk(task_pool_of(t), CHUNK_TASK_PROFILE, sizeof *d);

	*d = from != NULL ? *from : task_profile_none;
	d->draft = DRAFT;
	t->prof = d;
	return d;
}

struct task_profile *
task_edit_profile(struct task *t)
{
	if (t->prof->draft)
		return (struct task_profile *)(uintptr_t)t->prof;
	return task_new_draft(t, t->prof);
}

void
task_drop_draft(struct task *t)
{
	/* a zeroed task (never task_init()ed) has no profile yet */
	if (t->prof != NULL && t->prof->draft && t->pool != NULL)
		tpool_give_back(t->pool, CHUNK_TASK_PROFILE, (void *)(uintptr_t)t->prof);
	t->prof = &task_profile_none;
}

/* t's draft as one of its pool's shared profiles: the pool's copy of an equal one (the
 * strings being the pool's, equal profiles are equal bytes), the draft given back. */
static void
share_profile(struct task *t)
{
	struct task_profile *d = (struct task_profile *)(uintptr_t)t->prof;

	/* an array made by task_tags() and written in place is the draft's own */
	if (d->draft & DRAFT_OWN_TAGS)
		d->tags = (const struct tag *)(const void *)tpool_intern_aligned(
		    t->pool, (const char *)d->tags, d->ntags * sizeof *d->tags, _Alignof(struct tag));
	d->draft = 0;
	t->prof = (const struct task_profile *)(const void *)tpool_intern_aligned(
	    t->pool, (const char *)d, sizeof *d, _Alignof(struct task_profile));
	tpool_give_back(t->pool, CHUNK_TASK_PROFILE, d);
}

struct container_profile *
task_new_container_draft(struct task *t, struct container *c, const struct container_profile *from)
{
	struct container_profile *d = tpool_take_chunk(task_pool_of(t), CHUNK_CONTAINER_PROFILE,
						       sizeof *d);

	*d = from != NULL ? *from : container_profile_none;
	d->draft = true;
	c->prof = d;
	return d;
}

struct container_profile *
container_edit_profile(struct task *t, struct container *c)
{
	/* a zeroed container (memset, a scanner's scratch) has none yet */
	if (c->prof != NULL && c->prof->draft)
		return (struct container_profile *)(uintptr_t)c->prof;
	return task_new_container_draft(t, c, c->prof);
}

void
task_share_container_profiles(struct task *t, struct container *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct container_profile *d = (struct container_profile *)(uintptr_t)v[i].prof;

		if (!d->draft)
			continue;
		d->draft = false;
		v[i].prof = (const struct container_profile *)(const void *)tpool_intern_aligned(
		    t->pool, (const char *)d, sizeof *d, _Alignof(struct container_profile));
		tpool_give_back(t->pool, CHUNK_CONTAINER_PROFILE, d);
	}
}

static const char *
last_segment(const char *s, char sep)
{
	const char *p = strrchr(s, sep);

	return p ? p + 1 : s;
}

/* A derived field: n bytes at s. A tail of one of t's strings (tail true) is shared
 * where it lies, since the pool keeps it; "" is a constant; anything else goes to t's pool. */
static void
derive_set(struct task *t, const char **f, const char *s, size_t n, bool tail)
{
	if (tail)
		*f = s;
	else if (n == 0)
		*f = "";
	else
		*f = tpool_intern(task_pool_of(t), s, n);
}

void
task_derive(struct task *t)
{
	struct task_profile *p = task_edit_profile(t);
	const char *s;

	if (p->cluster_arn != NULL) {
		s = last_segment(p->cluster_arn, '/');
		derive_set(t, &p->cluster, s, strlen(s), true);
	} else if (t->arn_tail != NULL &&
		   strstr(p->arn_prefix != NULL ? p->arn_prefix : t->arn_tail, ":task/") != NULL) {
		/* the cluster is in the prefix when the ARN is kept in two parts */
		const char *c = strstr(p->arn_prefix != NULL ? p->arn_prefix : t->arn_tail, ":task/") + 6;
		const char *q = strchr(c, '/');

		derive_set(t, &p->cluster, c, q ? (size_t)(q - c) : 0, false);
	} else {
		derive_set(t, &p->cluster, "", 0, false);
	}

	if (p->group != NULL && strncmp(p->group, "service:", 8) == 0)
		derive_set(t, &p->service, p->group + 8, strlen(p->group + 8), true);
	else
		derive_set(t, &p->service, "", 0, false);

	/* arn:...:task-definition/FAMILY:REV */
	if (p->taskdef_arn != NULL) {
		const char *td = last_segment(p->taskdef_arn, '/');
		const char *colon = strrchr(td, ':');
		size_t n = strlen(td);

		derive_set(t, &p->taskdef, td, n, true);
		derive_set(t, &p->family, td, colon ? (size_t)(colon - td) : n, colon == NULL);
	} else if (p->group != NULL && strncmp(p->group, "family:", 7) == 0) {
		derive_set(t, &p->taskdef, "", 0, false);
		derive_set(t, &p->family, p->group + 7, strlen(p->group + 7), true);
	} else {
		derive_set(t, &p->taskdef, "", 0, false);
		derive_set(t, &p->family, "", 0, false);
	}
	share_profile(t);
	/* an array made by task_containers() and written in place is the task's own */
	task_share_container_profiles(t, t->containers, t->ncontainers);
}

const char *
task_image(const struct task *t)
{
	for (size_t i = 0; i < t->ncontainers; i++)
		if (t->containers[i].prof->image != NULL)
			return t->containers[i].prof->image;
	return NULL;
}

size_t
digest_raw_len(const char *raw)
{
	return raw[0] == DIGEST_RAW_SHA256 ? DIGEST_RAW_SHA256_LEN : strlen(raw);
}

const char *
container_digest(const struct container *c, struct digest_buf *b)
{
	if (c->digest_raw == NULL)
		return NULL;
	if (c->digest_raw[0] == DIGEST_RAW_TEXT)
		return c->digest_raw + 1;
	if (c->digest_raw[0] != DIGEST_RAW_SHA256)
		return c->digest_raw;
	memcpy(b->s, "sha256:", 7);
	hex_encode(c->digest_raw + 1, 32, b->s + 7);
	b->s[DIGEST_TEXT_LEN] = '\0';
	return b->s;
}

void
container_set_digest(struct task *t, struct container *c, const char *s, size_t n)
{
	char raw[DIGEST_RAW_SHA256_LEN];
	bool bytes = s != NULL && n == DIGEST_TEXT_LEN && memcmp(s, "sha256:", 7) == 0;

	if (bytes)
		bytes = hex_decode_lower(s + 7, 32, raw + 1);
	if (s == NULL) {
		c->digest_raw = NULL;
	} else if (bytes) {
		/* every digest has its bytes; the tasks of a service share one */
		raw[0] = DIGEST_RAW_SHA256;
		c->digest_raw = tpool_intern(task_pool_of(t), raw, sizeof raw);
	} else if (n > 0 && (s[0] == DIGEST_RAW_SHA256 || s[0] == DIGEST_RAW_TEXT)) {
		char *m = xmalloc(n + 1);

		m[0] = DIGEST_RAW_TEXT;
		memcpy(m + 1, s, n);
		c->digest_raw = tpool_intern(task_pool_of(t), m, n + 1);
		free(m);
	} else {
		task_strn(t, &c->digest_raw, s, n);
	}
}

const char *
task_image_digest(const struct task *t, struct digest_buf *b)
{
	for (size_t i = 0; i < t->ncontainers; i++)
		if (t->containers[i].digest_raw != NULL)
			return container_digest(&t->containers[i], b);
	return NULL;
}

const char *
task_tag(const struct task *t, const char *key)
{
	for (size_t i = 0; i < t->prof->ntags; i++)
		if (t->prof->tags[i].key != NULL && strcmp(t->prof->tags[i].key, key) == 0)
			return t->prof->tags[i].value ? t->prof->tags[i].value : "";
	return NULL;
}

void
task_copy_to(struct task *dst, const struct task *src, struct task_strpool *p)
{
	struct container cs[COPY_STACK], *c = cs;
	struct tag gs[COPY_STACK], *g = gs;

	struct task_profile *d;

	*dst = *src;
	dst->pool = p;
	task_copy_wide(dst, task_pool_of(dst));
	task_str(dst, &dst->arn_tail, src->arn_tail);
	d = task_new_draft(dst, NULL);
#define X(f) task_str(dst, &d->f, src->prof->f);
	PROFILE_STRINGS(X)
	X(arn_prefix)
#undef X
	if (src->ncontainers > COPY_STACK)
		c = xreallocarray(NULL, src->ncontainers, sizeof *c);
	for (size_t i = 0; i < src->ncontainers; i++) {
		struct container_profile *cp;

		c[i] = src->containers[i];
		cp = task_new_container_draft(dst, &c[i], NULL);
		c[i].digest_raw = src->containers[i].digest_raw == NULL ? NULL :
				  tpool_intern(task_pool_of(dst), src->containers[i].digest_raw,
					       digest_raw_len(src->containers[i].digest_raw));
#define X(f) task_str(dst, &cp->f, src->containers[i].prof->f);
		CONTAINER_PROFILE_STRINGS(X)
#undef X
	}
	task_share_containers(dst, c, src->ncontainers);
	if (c != cs)
		free(c);
	if (src->prof->ntags > COPY_STACK)
		g = xreallocarray(NULL, src->prof->ntags, sizeof *g);
	for (size_t i = 0; i < src->prof->ntags; i++) {
		task_str(dst, &g[i].key, src->prof->tags[i].key);
		task_str(dst, &g[i].value, src->prof->tags[i].value);
	}
	task_share_tags(dst, g, src->prof->ntags);
	if (g != gs)
		free(g);
	if (src->prof->cluster != NULL)
		task_derive(dst);   /* the same values, pointing into dst's strings */
}

void
task_copy(struct task *dst, const struct task *src)
{
	task_copy_to(dst, src, NULL);
}


/* ---- the pools a task's strings live in (task_pool.c) -------------------------------- */

struct task_strpool *
task_strpool_new(void)
{
	return tpool_new(POOL_BATCH);
}

void
task_strpool_free(struct task_strpool *p)
{
	tpool_free(p);
}

/* t's pool, a private one made now if it has none. */
struct task_strpool *
task_pool_of(struct task *t)
{
	if (t->pool == NULL)
		t->pool = tpool_new(POOL_PRIVATE);
	return t->pool;
}

void
task_strn(struct task *t, const char **dst, const char *s, size_t n)
{
	*dst = tpool_intern(task_pool_of(t), s, n);
}

void
task_str(struct task *t, const char **dst, const char *s)
{
	if (s == NULL)
		*dst = NULL;
	else
		task_strn(t, dst, s, strlen(s));
}

void
task_set_arn_like(struct task *t, const char *s, size_t n, const struct task *like)
{
	const char *slash = s != NULL && n <= TASK_ARN_MAX ? memrchr(s, '/', n) : NULL;
	const char *prefix = NULL;

	if (s == NULL) {
		t->arn_tail = NULL;
	} else if (slash == NULL) {
		task_strn(t, &t->arn_tail, s, n);
	} else {
		size_t pn = (size_t)(slash + 1 - s);
		const char *had = like != NULL ? like->prof->arn_prefix : NULL;

		if (had != NULL && strncmp(had, s, pn) == 0 && had[pn] == '\0')
			prefix = had;
		else
			task_strn(t, &prefix, s, pn);
		/* interned, as every string: a task's events in one batch share their id */
		task_strn(t, &t->arn_tail, slash + 1, n - pn);
	}
	if (t->prof->arn_prefix != prefix)
		task_edit_profile(t)->arn_prefix = prefix;
}

void
task_set_arn(struct task *t, const char *s, size_t n)
{
	task_set_arn_like(t, s, n, NULL);
}

void
task_set_arnf(struct task *t, const char *fmt, ...)
{
	struct task_arn_buf b;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b.s, sizeof b.s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		task_set_arn(t, NULL, 0);
	} else if ((size_t)n < sizeof b.s) {
		task_set_arn(t, b.s, (size_t)n);
	} else {
		char *big = xmalloc((size_t)n + 1);

		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		task_set_arn(t, big, (size_t)n);
		free(big);
	}
}

void
task_strf(struct task *t, const char **dst, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*dst = NULL;
	} else if ((size_t)n < sizeof small) {
		task_strn(t, dst, small, (size_t)n);
	} else {
		char *big = xmalloc((size_t)n + 1);

		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		task_strn(t, dst, big, (size_t)n);
		free(big);
	}
}

struct container *
task_containers(struct task *t, size_t n)
{
	struct container *c = NULL;

	if (n > TASK_MAX_CONTAINERS)
		n = TASK_MAX_CONTAINERS;   /* not reached: the readers refuse such a task */
	if (n > 0) {
		c = tpool_alloc(task_pool_of(t), n * sizeof *c, _Alignof(struct container));
		memset(c, 0, n * sizeof *c);
		for (size_t i = 0; i < n; i++)
			c[i].prof = &container_profile_none;
	}
	t->containers = c;
	t->ncontainers = (uint16_t)n;
	return c;
}

void
task_share_containers(struct task *t, struct container *v, size_t n)
{
	if (n > TASK_MAX_CONTAINERS)
		n = TASK_MAX_CONTAINERS;   /* not reached: the readers refuse such a task */
	/* v's drafts shared first, so that equal arrays are equal bytes */
	task_share_container_profiles(t, v, n);
	t->containers = n == 0 ? NULL : (struct container *)(uintptr_t)tpool_intern_aligned(
	    task_pool_of(t), (const char *)v, n * sizeof *v, _Alignof(struct container));
	t->ncontainers = (uint16_t)n;
}

void
task_share_tags(struct task *t, const struct tag *v, size_t n)
{
	const struct tag *g = n == 0 ? NULL : (const struct tag *)(const void *)tpool_intern_aligned(
	    task_pool_of(t), (const char *)v, n * sizeof *v, _Alignof(struct tag));
	struct task_profile *p = task_edit_profile(t);

	p->tags = g;
	p->ntags = n;
	p->draft &= ~(uint64_t)DRAFT_OWN_TAGS;
}

struct tag *
task_tags(struct task *t, size_t n)
{
	struct tag *g = NULL;
	struct task_profile *p;

	if (n > 0) {
		g = tpool_alloc(task_pool_of(t), n * sizeof *g, _Alignof(struct tag));
		memset(g, 0, n * sizeof *g);
	}
	p = task_edit_profile(t);
	p->tags = g;
	p->ntags = n;
	p->draft |= DRAFT_OWN_TAGS;
	return g;
}

