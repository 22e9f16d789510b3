/* task: the task model, its derived fields, and the ARN-indexed task set that merges the
 * same task seen in several inputs (a DescribeTasks dump, events, a metadata document). */
#include <stdlib.h>
#include <string.h>

#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"

const struct ts_def ts_defs[TS_COUNT] = {
	{ TS_CREATED,           "createdAt",          "CreatedAt",          "created_at" },
	{ TS_CONNECTIVITY,      "connectivityAt",     NULL,                 "connectivity_at" },
	{ TS_PULL_STARTED,      "pullStartedAt",      "PullStartedAt",      "pull_started_at" },
	{ TS_PULL_STOPPED,      "pullStoppedAt",      "PullStoppedAt",      "pull_stopped_at" },
	{ TS_STARTED,           "startedAt",          "StartedAt",          "started_at" },
	{ TS_STOPPING,          "stoppingAt",         NULL,                 "stopping_at" },
	{ TS_EXECUTION_STOPPED, "executionStoppedAt", "ExecutionStoppedAt", "execution_stopped_at" },
	{ TS_STOPPED,           "stoppedAt",          "StoppedAt",          "stopped_at" },
};

/* Every owned string member, so that cleanup, copy and merge cannot forget one. */
#define TASK_STRINGS(X)                                                           \
	X(arn) X(cluster_arn) X(taskdef_arn) X(group) X(started_by) X(launch_type) \
	X(platform_version) X(platform_family) X(capacity_provider)               \
	X(availability_zone) X(cpu) X(memory) X(last_status) X(desired_status)   \
	X(stop_code) X(stopped_reason) X(health_status) X(source)

#define DERIVED_STRINGS(X) X(id) X(cluster) X(service) X(family) X(taskdef)

#define CONTAINER_STRINGS(X) X(name) X(image) X(image_digest) X(last_status) X(reason) X(snapshotter)

void
task_init(struct task *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < TS_COUNT; i++)
		t->ts[i] = TS_NONE;
	t->fetched_at_ms = TS_NONE;
}

static void
container_cleanup(struct container *c)
{
#define X(f) free(c->f);
	CONTAINER_STRINGS(X)
#undef X
}

static void
task_free_derived(struct task *t)
{
#define X(f) free(t->f); t->f = NULL;
	DERIVED_STRINGS(X)
#undef X
}

void
task_cleanup(struct task *t)
{
#define X(f) free(t->f);
	TASK_STRINGS(X)
#undef X
	task_free_derived(t);
	for (size_t i = 0; i < t->ncontainers; i++)
		container_cleanup(&t->containers[i]);
	free(t->containers);
	for (size_t i = 0; i < t->ntags; i++) {
		free(t->tags[i].key);
		free(t->tags[i].value);
	}
	free(t->tags);
	task_init(t);
}

static const char *
last_segment(const char *s, char sep)
{
	const char *p = strrchr(s, sep);

	return p ? p + 1 : s;
}

void
task_derive(struct task *t)
{
	task_free_derived(t);

	/* arn:aws:ecs:REGION:ACCOUNT:task/CLUSTER/ID (new) or task/ID (old format) */
	t->id = xstrdup(t->arn ? last_segment(t->arn, '/') : "");

	if (t->cluster_arn != NULL) {
		t->cluster = xstrdup(last_segment(t->cluster_arn, '/'));
	} else if (t->arn != NULL && strstr(t->arn, ":task/") != NULL) {
		const char *p = strstr(t->arn, ":task/") + 6, *q = strchr(p, '/');

		t->cluster = q ? xstrndup(p, (size_t)(q - p)) : xstrdup("");
	} else {
		t->cluster = xstrdup("");
	}

	if (t->group != NULL && strncmp(t->group, "service:", 8) == 0)
		t->service = xstrdup(t->group + 8);
	else
		t->service = xstrdup("");

	/* arn:...:task-definition/FAMILY:REV */
	if (t->taskdef_arn != NULL) {
		const char *td = last_segment(t->taskdef_arn, '/');
		const char *colon = strrchr(td, ':');

		t->taskdef = xstrdup(td);
		t->family = colon ? xstrndup(td, (size_t)(colon - td)) : xstrdup(td);
	} else if (t->group != NULL && strncmp(t->group, "family:", 7) == 0) {
		t->taskdef = xstrdup("");
		t->family = xstrdup(t->group + 7);
	} else {
		t->taskdef = xstrdup("");
		t->family = xstrdup("");
	}
}

const char *
task_image(const struct task *t)
{
	for (size_t i = 0; i < t->ncontainers; i++)
		if (t->containers[i].image != NULL)
			return t->containers[i].image;
	return NULL;
}

const char *
task_image_digest(const struct task *t)
{
	for (size_t i = 0; i < t->ncontainers; i++)
		if (t->containers[i].image_digest != NULL)
			return t->containers[i].image_digest;
	return NULL;
}

const char *
task_tag(const struct task *t, const char *key)
{
	for (size_t i = 0; i < t->ntags; i++)
		if (t->tags[i].key != NULL && strcmp(t->tags[i].key, key) == 0)
			return t->tags[i].value ? t->tags[i].value : "";
	return NULL;
}

static void
container_copy(struct container *dst, const struct container *src)
{
	*dst = *src;
#define X(f) dst->f = xstrdup_or_null(src->f);
	CONTAINER_STRINGS(X)
#undef X
}

void
task_copy(struct task *dst, const struct task *src)
{
	*dst = *src;
#define X(f) dst->f = xstrdup_or_null(src->f);
	TASK_STRINGS(X)
	DERIVED_STRINGS(X)
#undef X
	dst->containers = src->ncontainers ? xcalloc(src->ncontainers, sizeof *dst->containers) : NULL;
	for (size_t i = 0; i < src->ncontainers; i++)
		container_copy(&dst->containers[i], &src->containers[i]);
	dst->tags = src->ntags ? xcalloc(src->ntags, sizeof *dst->tags) : NULL;
	for (size_t i = 0; i < src->ntags; i++) {
		dst->tags[i].key = xstrdup_or_null(src->tags[i].key);
		dst->tags[i].value = xstrdup_or_null(src->tags[i].value);
	}
}

void
task_set_init(struct task_set *s)
{
	memset(s, 0, sizeof *s);
}

void
task_set_cleanup(struct task_set *s)
{
	for (size_t i = 0; i < s->len; i++)
		task_cleanup(&s->tasks[i]);
	free(s->tasks);
	free(s->index);
	memset(s, 0, sizeof *s);
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;  /* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static void
index_insert(struct task_set *s, size_t pos)
{
	size_t mask = s->index_cap - 1;
	size_t i = hash_str(s->tasks[pos].arn) & mask;

	while (s->index[i] != 0)
		i = (i + 1) & mask;
	s->index[i] = pos + 1;
}

static void
index_rebuild(struct task_set *s)
{
	size_t cap = 64;

	while (cap < s->len * 2 + 2)
		cap *= 2;
	free(s->index);
	s->index = xcalloc(cap, sizeof *s->index);
	s->index_cap = cap;
	for (size_t i = 0; i < s->len; i++)
		if (s->tasks[i].arn != NULL)
			index_insert(s, i);
}

struct task *
task_set_find(struct task_set *s, const char *arn)
{
	size_t mask, i, pos;

	if (arn == NULL || s->index_cap == 0)
		return NULL;
	mask = s->index_cap - 1;
	for (i = hash_str(arn) & mask; (pos = s->index[i]) != 0; i = (i + 1) & mask)
		if (strcmp(s->tasks[pos - 1].arn, arn) == 0)
			return &s->tasks[pos - 1];
	return NULL;
}

static int
count_ts(const struct task *t)
{
	int n = 0;

	for (int i = 0; i < TS_COUNT; i++)
		n += t->ts[i] != TS_NONE;
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
	if (a->fetched_at_ms != TS_NONE && b->fetched_at_ms != TS_NONE &&
	    a->fetched_at_ms != b->fetched_at_ms)
		return b->fetched_at_ms > a->fetched_at_ms;
	return count_ts(b) >= count_ts(a);
}

static void
take_str(char **dst, char **src)
{
	if (*dst == NULL && *src != NULL) {
		*dst = *src;
		*src = NULL;
	}
}

/* Fills what winner lacks from loser; loser is left for cleanup. */
static void
merge_into(struct task *w, struct task *l)
{
#define X(f) take_str(&w->f, &l->f);
	TASK_STRINGS(X)
#undef X
	for (int i = 0; i < TS_COUNT; i++)
		if (w->ts[i] == TS_NONE)
			w->ts[i] = l->ts[i];
	if (!w->has_version && l->has_version) {
		w->has_version = true;
		w->version = l->version;
	}
	if (w->fetched_at_ms == TS_NONE)
		w->fetched_at_ms = l->fetched_at_ms;
	w->from_metadata = w->from_metadata || l->from_metadata;
	if (w->ncontainers == 0) {
		w->containers = l->containers;
		w->ncontainers = l->ncontainers;
		l->containers = NULL;
		l->ncontainers = 0;
	} else {
		/* containers match by name; metadata adds the snapshotter and digests */
		for (size_t i = 0; i < w->ncontainers; i++) {
			struct container *wc = &w->containers[i];

			for (size_t j = 0; j < l->ncontainers; j++) {
				struct container *lc = &l->containers[j];

				if (wc->name && lc->name && strcmp(wc->name, lc->name) == 0) {
#define X(f) take_str(&wc->f, &lc->f);
					CONTAINER_STRINGS(X)
#undef X
					if (!wc->has_exit_code && lc->has_exit_code) {
						wc->has_exit_code = true;
						wc->exit_code = lc->exit_code;
					}
				}
			}
		}
	}
	if (w->ntags == 0) {
		w->tags = l->tags;
		w->ntags = l->ntags;
		l->tags = NULL;
		l->ntags = 0;
	}
}

struct task *
task_set_take(struct task_set *s, struct task *t)
{
	struct task *have = task_set_find(s, t->arn);

	if (have != NULL) {
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
	if (s->len == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->tasks = xreallocarray(s->tasks, s->cap, sizeof *s->tasks);
	}
	s->tasks[s->len] = *t;
	task_init(t);
	struct task *added = &s->tasks[s->len++];
	if (added->id == NULL)
		task_derive(added);
	if (added->arn != NULL) {
		if (s->len * 2 + 2 > s->index_cap)
			index_rebuild(s);
		else
			index_insert(s, s->len - 1);
	}
	return added;
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
	s->len = j;
	index_rebuild(s);
}
