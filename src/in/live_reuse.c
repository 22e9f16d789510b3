/* live_reuse: the tasks of the last watch poll that this poll keeps instead of describing
 * (live_reuse.h says which and why). */
#include <stdlib.h>
#include <string.h>

#include "live_reuse.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/health.h"
#include "ecsprof/log.h"
#include "ecsprof/strset.h"
#include "ecsprof/xalloc.h"

/* what a task definition says about health checks */
enum { TD_NO_CHECK = 1, TD_CHECK, TD_UNKNOWN };
/* the desiredStatus a known task must still be listed under */
enum { WANT_RUNNING = 1, WANT_STOPPED };

struct live_reuse {
	const struct log *log;         /* borrowed */
	struct strset taskdefs;        /* task definition ARN -> TD_*; keys in tdkeys */
	char **tdkeys;
	size_t ntdkeys, tdkeys_cap;
	/* the fetch in progress */
	const struct task_set *prev;
	struct strset known;           /* ARN -> WANT_*; keys in knowntext */
	char *knowntext;               /* the known ARNs, whole, one after the other */
	/* the last task definition found in taskdefs (borrowed from prev): the tasks of a
	 * service mostly have one, looked up once rather than hashed again per task */
	const char *memo_arn;
	size_t memo_state;
	struct task_set *out;
	struct image_fetch *images;
	struct task_copy_memo memo;    /* the copies from prev into out */
};

struct live_reuse *
live_reuse_new(const struct log *lg)
{
	struct live_reuse *r = xcalloc(1, sizeof *r);

	r->log = lg;
	strset_init(&r->taskdefs);
	strset_init(&r->known);
	return r;
}

void
live_reuse_free(struct live_reuse *r)
{
	if (r == NULL)
		return;
	strset_cleanup(&r->taskdefs);
	strset_cleanup(&r->known);
	free(r->knowntext);
	for (size_t i = 0; i < r->ntdkeys; i++)
		free(r->tdkeys[i]);
	free(r->tdkeys);
	free(r);
}

static bool
str_is(const char *s, const char *want)
{
	return s != NULL && strcmp(s, want) == 0;
}

static void
taskdef_put(struct live_reuse *r, const char *arn, size_t state)
{
	char *key = xstrdup(arn);

	if (!strset_add(&r->taskdefs, key, state)) {
		free(key);
		return;
	}
	r->tdkeys = xgrow(r->tdkeys, r->ntdkeys + 1, &r->tdkeys_cap, sizeof *r->tdkeys);
	r->tdkeys[r->ntdkeys++] = key;
}

/* TD_* for the task definition arn, asking ECS the first time. A throttled or failed
 * request is asked again next poll; a refusal (no permission, no such definition) is
 * remembered: its tasks are then described every poll, as without this. */
static size_t
taskdef_state(struct live_reuse *r, struct ecs_client *c, const char *arn, size_t *requests,
	      struct err *err)
{
	struct ecs_taskdef td;
	struct err e = { 0 };
	size_t state;
	int rc;

	if (r->memo_arn != NULL && (arn == r->memo_arn || strcmp(arn, r->memo_arn) == 0))
		return r->memo_state;
	if (strset_get(&r->taskdefs, arn, &state)) {
		r->memo_arn = arn;
		r->memo_state = state;
		return state;
	}
	rc = ecs_describe_task_definition(c, arn, &td, &e);
	*requests += ecs_client_requests(c);
	if (rc != 0) {
		if (strcmp(e.aws_type, HTTP_CANCELLED) == 0) {
			*err = e;
			return 0;
		}
		if (e.code == ERR_THROTTLED || e.code == ERR_NETWORK)
			return TD_UNKNOWN;
		log_info(r->log, "watch: %s; running tasks of %s are described every poll", e.msg, arn);
		taskdef_put(r, arn, TD_UNKNOWN);
		return TD_UNKNOWN;
	}
	state = td.health_check ? TD_CHECK : TD_NO_CHECK;
	ecs_taskdef_cleanup(&td);
	taskdef_put(r, arn, state);
	return state;
}

/* WANT_* when t cannot change while ListTasks lists it under that desiredStatus, else 0.
 * A running task with a health check can still become HEALTHY (healthy_at, serving_s):
 * described until it is. */
static size_t
settled(struct live_reuse *r, struct ecs_client *c, const struct task *t, size_t *requests,
	struct err *err)
{
	size_t td;

	if (!task_has_arn(t))
		return 0;
	if (task_is_final(t))
		return str_is(t->prof->desired_status, "STOPPED") ? WANT_STOPPED : 0;
	if (!str_is(t->prof->last_status, "RUNNING") || !str_is(t->prof->desired_status, "RUNNING") ||
	    task_ts(t, TS_STARTED) == TS_NONE || task_ts(t, TS_STOPPING) != TS_NONE ||
	    t->prof->stop_code != NULL)
		return 0;
	if (health_is_healthy(t))
		return WANT_RUNNING;
	if (t->prof->taskdef_arn == NULL)
		return 0;
	td = taskdef_state(r, c, t->prof->taskdef_arn, requests, err);
	return td == TD_NO_CHECK ? WANT_RUNNING : 0;
}

int
live_reuse_prepare(struct live_reuse *r, struct ecs_client *c, const struct task_set *prev,
		   struct task_set *out, struct image_fetch *images, size_t *requests,
		   struct err *err)
{
	size_t *want = NULL, n = prev != NULL ? prev->len : 0, text = 0;
	char *at;

	strset_cleanup(&r->known);
	strset_init(&r->known);
	free(r->knowntext);
	r->knowntext = NULL;
	r->prev = prev;
	r->memo_arn = NULL;   /* it pointed into the last poll's set */
	r->out = out;
	r->images = images;
	memset(&r->memo, 0, sizeof r->memo);
	err_clear(err);
	if (n > 0)
		want = xreallocarray(NULL, n, sizeof *want);
	for (size_t i = 0; i < n; i++) {
		struct task_arn_buf ab;

		want[i] = settled(r, c, &prev->tasks[i], requests, err);
		if (err->code != ERR_OK) {
			free(want);
			return -1;
		}
		if (want[i] != 0)
			text += strlen(task_arn(&prev->tasks[i], &ab)) + 1;
	}
	/* the set keeps its ARNs in two parts (task.h): the keys, whole, in one block */
	at = r->knowntext = text > 0 ? xmalloc(text) : NULL;
	for (size_t i = 0; i < n; i++) {
		struct task_arn_buf ab;
		const char *arn;
		size_t len;

		if (want[i] == 0)
			continue;
		arn = task_arn(&prev->tasks[i], &ab);
		len = strlen(arn) + 1;
		memcpy(at, arn, len);
		strset_add(&r->known, at, want[i]);
		at += len;
	}
	free(want);
	return 0;
}

bool
live_reuse_known(void *arg, const char *arn, const char *desired)
{
	const struct live_reuse *r = arg;
	size_t want;

	return strset_get(&r->known, arn, &want) &&
	       want == (strcmp(desired, "STOPPED") == 0 ? WANT_STOPPED : WANT_RUNNING);
}

int
live_reuse_take(void *arg, const char *arn, int64_t listed_at_ms, struct err *err)
{
	struct live_reuse *r = arg;
	const struct task *p = task_set_find((struct task_set *)r->prev, arn);
	struct task copy;
	struct task *t;

	if (p == NULL)
		return err_set(err, ERR_INTERNAL, "watch: task %s was known but is gone", arn);
	copy = *p;
	/* the last poll's set is only read: a time too far from the copy's others goes to a
	 * pool of the copy's own (task_set_ts()), given back below */
	copy.pool = NULL;
	/* ListTasks has just seen it in the same state: the state is as of that page */
	if (listed_at_ms != TS_NONE)
		task_set_ts(&copy, TS_FETCHED, listed_at_ms);
	/* copied into the new set's pool: each set owns all of its strings, so the last
	 * poll's set can go whole; the memo makes the copy of a service's tasks cost about
	 * what the borrowing of the last poll's strings did (bench/watch.sh) */
	t = task_set_take_copy(r->out, &copy, &r->memo);
	task_cleanup(&copy);
	if (r->images != NULL)
		image_fetch_want_task(r->images, t);
	return 0;
}
