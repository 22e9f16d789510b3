/* ecs_fetch: ListTasks and DescribeTasks on a small pool of threads. ListTasks is a chain
 * of pages, each waiting for the previous page's nextToken, so the run cannot be faster
 * than that chain; everything else (DescribeTasks batches, other chains) runs beside it,
 * each thread with its own transport, so the wall time stays close to the chain. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ecs_int.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define LIST_PAGE 100      /* ListTasks maxResults: the API's maximum */
#define DESCRIBE_BATCH 100 /* DescribeTasks: at most 100 tasks per call */

struct chain {
	const char *service;
	const char *status;
	char *token;            /* next page; NULL before the first and after the last */
	bool queued;            /* a page of this chain waits for a worker */
	bool done;
	size_t pages;           /* answered so far (ecs_page_continue bounds them) */
};

struct result {
	char *json;
	size_t len;
	int64_t fetched_at_ms;
};

struct batch {
	char **arns;
	size_t n;
	bool done;              /* described; results ready to hand over */
	struct result *results;
	size_t nresults;
};

/* set of strings seen, open addressing */
struct seen {
	char **v;
	size_t cap, n;
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* true when s was not yet in the set (and adds it; the set borrows s) */
static bool
seen_add(struct seen *set, char *s)
{
	size_t i;

	if ((set->n + 1) * 2 > set->cap) {
		struct seen bigger = { xcalloc(set->cap ? set->cap * 2 : 256, sizeof(char *)),
				       set->cap ? set->cap * 2 : 256, 0 };
		for (i = 0; i < set->cap; i++)
			if (set->v[i] != NULL)
				seen_add(&bigger, set->v[i]);
		free(set->v);
		*set = bigger;
	}
	for (i = hash_str(s) & (set->cap - 1); set->v[i] != NULL; i = (i + 1) & (set->cap - 1))
		if (strcmp(set->v[i], s) == 0)
			return false;
	set->v[i] = s;
	set->n++;
	return true;
}

struct pool {
	struct ecs_client *c;
	const struct ecs_query *q;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chain *chains;
	size_t nchains;
	struct batch **batches;
	size_t nbatches, batches_cap;
	size_t next_batch;      /* first batch no worker took yet */
	char **pending;         /* listed ARNs not yet in a batch */
	size_t npending, pending_cap;
	struct seen seen;
	size_t inflight;
	ecs_task_fn *fn;
	void *arg;
	size_t next_emit;       /* first batch not yet handed to fn */
	bool emitting;          /* a thread is handing batches over */
	bool failed;
	struct err err;
	struct ecs_fetch_stats *st;
};

static void
pool_add_batch(struct pool *p, char **arns, size_t n)
{
	struct batch *b = xcalloc(1, sizeof *b);

	b->arns = arns;
	b->n = n;
	if (p->nbatches == p->batches_cap) {
		p->batches_cap = p->batches_cap ? p->batches_cap * 2 : 32;
		p->batches = xreallocarray(p->batches, p->batches_cap, sizeof *p->batches);
	}
	p->batches[p->nbatches++] = b;
}

/* Cuts full batches from the pending ARNs; with flush, the remainder too. */
static void
pool_cut(struct pool *p, bool flush)
{
	while (p->npending >= DESCRIBE_BATCH || (flush && p->npending > 0)) {
		size_t n = p->npending < DESCRIBE_BATCH ? p->npending : DESCRIBE_BATCH;
		char **arns = xcalloc(n, sizeof *arns);

		memcpy(arns, p->pending, n * sizeof *arns);
		memmove(p->pending, p->pending + n, (p->npending - n) * sizeof *arns);
		p->npending -= n;
		pool_add_batch(p, arns, n);
	}
}

static bool
chains_done(const struct pool *p)
{
	for (size_t i = 0; i < p->nchains; i++)
		if (!p->chains[i].done)
			return false;
	return true;
}

static int
do_list_page(struct pool *p, struct http_transport *t, struct chain *ch, char *token,
	     char ***arns, size_t *narns, char **next, struct err *err)
{
	const struct ecs_query *q = p->q;
	json_t *req = json_object(), *resp = NULL, *v;
	size_t i;
	int rc;

	*arns = NULL;
	*narns = 0;
	*next = NULL;
	if (q->cluster != NULL)
		json_object_set_new(req, "cluster", json_string(q->cluster));
	/* ECS refuses startedBy together with another filter; the caller (app_select)
	 * applies --service and --family to what comes back instead. */
	if (q->started_by != NULL) {
		json_object_set_new(req, "startedBy", json_string(q->started_by));
	} else {
		if (ch->service != NULL)
			json_object_set_new(req, "serviceName", json_string(ch->service));
		if (q->family != NULL)
			json_object_set_new(req, "family", json_string(q->family));
	}
	json_object_set_new(req, "desiredStatus", json_string(ch->status));
	json_object_set_new(req, "maxResults", json_integer(LIST_PAGE));
	if (token != NULL)
		json_object_set_new(req, "nextToken", json_string(token));
	rc = awsjson_call(p->c->api, t, "ListTasks", req, &resp, NULL, err);
	json_decref(req);
	if (rc != 0)
		return -1;
	v = json_object_get(resp, "taskArns");
	if (json_array_size(v) > 0)
		*arns = xcalloc(json_array_size(v), sizeof **arns);
	json_t *a;
	json_array_foreach(v, i, a)
		if (json_is_string(a))
			(*arns)[(*narns)++] = xstrdup(json_string_value(a));
	v = json_object_get(resp, "nextToken");
	if (json_is_string(v) && json_string_length(v) > 0)
		*next = xstrdup(json_string_value(v));
	json_decref(resp);
	return 0;
}

static bool
task_wanted(const struct ecs_query *q, json_t *task)
{
	int64_t created;

	if (q->since_ms == TS_NONE)
		return true;
	created = ecs_json_time(task, "createdAt");
	return created != TS_NONE && created >= q->since_ms;
}

static int
do_describe(struct pool *p, struct http_transport *t, struct batch *b, struct err *err)
{
	const struct ecs_query *q = p->q;
	json_t *req = json_object(), *arr = json_array(), *inc = json_array(), *resp = NULL, *v;
	int64_t at;
	size_t i;
	int rc;

	if (q->cluster != NULL)
		json_object_set_new(req, "cluster", json_string(q->cluster));
	for (i = 0; i < b->n; i++)
		json_array_append_new(arr, json_string(b->arns[i]));
	json_object_set_new(req, "tasks", arr);
	json_array_append_new(inc, json_string("TAGS"));
	json_object_set_new(req, "include", inc);
	rc = awsjson_call(p->c->api, t, "DescribeTasks", req, &resp, &at, err);
	json_decref(req);
	if (rc != 0)
		return -1;
	v = json_object_get(resp, "tasks");
	b->results = json_array_size(v) ? xcalloc(json_array_size(v), sizeof *b->results) : NULL;
	json_t *task;
	json_array_foreach(v, i, task) {
		char *text;

		if (!json_is_object(task))
			continue;
		if (!ecs_task_was_asked(b->arns, b->n, q->cluster,
					json_string_value(json_object_get(task, "taskArn")))) {
			log_warn("DescribeTasks: the answer holds task %.200s, which was not asked "
				 "for; dropped", json_string_value(json_object_get(task, "taskArn"))
				 ? json_string_value(json_object_get(task, "taskArn")) : "(no ARN)");
			continue;
		}
		pthread_mutex_lock(&p->lock);
		p->st->described++;
		pthread_mutex_unlock(&p->lock);
		if (!task_wanted(q, task))
			continue;
		/* 16 digits keep epoch seconds with milliseconds exact */
		text = json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16));
		if (text == NULL)
			continue;
		b->results[b->nresults].json = text;
		b->results[b->nresults].len = strlen(text);
		b->results[b->nresults].fetched_at_ms = at;
		b->nresults++;
	}
	json_array_foreach(json_object_get(resp, "failures"), i, v) {
		const char *arn = json_string_value(json_object_get(v, "arn"));
		const char *reason = json_string_value(json_object_get(v, "reason"));
		const char *detail = json_string_value(json_object_get(v, "detail"));
		bool missing = reason != NULL && strcmp(reason, "MISSING") == 0;

		pthread_mutex_lock(&p->lock);
		p->st->failures++;
		pthread_mutex_unlock(&p->lock);
		log_warn("DescribeTasks: %s: %s%s%s%s", arn ? arn : "(no ARN)",
			 reason ? reason : "failed", detail ? " (" : "", detail ? detail : "",
			 detail ? ")" : "");
		if (missing)
			log_info("ECS forgets a task about an hour after it stops");
	}
	json_decref(resp);
	return 0;
}

static void
pool_fail(struct pool *p, const struct err *err)
{
	if (!p->failed) {
		p->failed = true;
		p->err = *err;
	}
	pthread_cond_broadcast(&p->cond);
}

/* Hands described batches to the callback in ListTasks order, while later pages are still
 * being fetched, so that parsing overlaps the network. Called with the lock held; one
 * thread at a time emits, without the lock, so the callback needs no locking. */
static void
pool_emit(struct pool *p)
{
	struct err err;

	if (p->emitting)
		return;
	p->emitting = true;
	while (!p->failed && p->next_emit < p->nbatches && p->batches[p->next_emit]->done) {
		struct batch *b = p->batches[p->next_emit];
		int rc = 0;
		size_t kept = 0;

		pthread_mutex_unlock(&p->lock);
		err_clear(&err);
		for (size_t j = 0; j < b->nresults && rc == 0; j++) {
			rc = p->fn(p->arg, b->results[j].json, b->results[j].len,
				   b->results[j].fetched_at_ms, &err);
			if (rc == 0)
				kept++;
		}
		for (size_t j = 0; j < b->nresults; j++)
			free(b->results[j].json);
		free(b->results);
		b->results = NULL;
		b->nresults = 0;
		pthread_mutex_lock(&p->lock);
		p->st->kept += kept;
		p->next_emit++;
		if (rc != 0)
			pool_fail(p, &err);
	}
	p->emitting = false;
}

struct worker {
	struct pool *p;
	struct http_transport *t;
	pthread_t thread;
};

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	struct err err;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct chain *ch = NULL;
		struct batch *b = NULL;

		if (p->failed)
			break;
		/* ListTasks pages first: they are the critical path */
		for (size_t i = 0; i < p->nchains; i++)
			if (p->chains[i].queued) {
				ch = &p->chains[i];
				break;
			}
		if (ch == NULL && p->next_batch < p->nbatches)
			b = p->batches[p->next_batch++];
		if (ch == NULL && b == NULL) {
			if (p->inflight == 0 && chains_done(p))
				break;
			pthread_cond_wait(&p->cond, &p->lock);
			continue;
		}
		p->inflight++;
		err_clear(&err);
		if (ch != NULL) {
			char *token = ch->token, *next = NULL, **arns = NULL;
			size_t narns = 0;
			int rc;

			ch->queued = false;
			ch->token = NULL;
			pthread_mutex_unlock(&p->lock);
			rc = do_list_page(p, w->t, ch, token, &arns, &narns, &next, &err);
			pthread_mutex_lock(&p->lock);
			if (rc != 0) {
				pool_fail(p, &err);
			} else {
				p->st->pages++;
				for (size_t i = 0; i < narns; i++) {
					if (!seen_add(&p->seen, arns[i])) {
						free(arns[i]);
						continue;
					}
					if (p->npending == p->pending_cap) {
						p->pending_cap = p->pending_cap ? p->pending_cap * 2 : 256;
						p->pending = xreallocarray(p->pending, p->pending_cap,
									   sizeof *p->pending);
					}
					p->pending[p->npending++] = arns[i];
					p->st->listed++;
				}
				ch->pages++;
				if (ecs_page_continue("ListTasks", token, next, ch->pages)) {
					ch->token = next;
					ch->queued = true;
				} else {
					free(next);
					ch->done = true;
				}
				pool_cut(p, chains_done(p));
			}
			free(token);
			free(arns);
		} else {
			int rc;

			pthread_mutex_unlock(&p->lock);
			rc = do_describe(p, w->t, b, &err);
			pthread_mutex_lock(&p->lock);
			if (rc != 0) {
				pool_fail(p, &err);
			} else {
				b->done = true;
				pool_emit(p);
			}
		}
		p->inflight--;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int
ecs_fetch_tasks(struct ecs_client *c, const struct ecs_query *q, ecs_task_fn *fn, void *arg,
		struct ecs_fetch_stats *st, struct err *err)
{
	struct ecs_fetch_stats local;
	struct pool p;
	struct worker *w;
	long nw = c->concurrency;
	int ret = -1;

	if (st == NULL)
		st = &local;
	memset(st, 0, sizeof *st);
	memset(&p, 0, sizeof p);
	p.c = c;
	p.q = q;
	p.st = st;
	p.fn = fn;
	p.arg = arg;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	awsjson_reset(c->api);

	if (q->ntasks > 0) {
		for (size_t i = 0; i < q->ntasks; i++) {
			char *s = xstrdup(q->tasks[i]);
			if (!seen_add(&p.seen, s)) {
				free(s);
				continue;
			}
			if (p.npending == p.pending_cap) {
				p.pending_cap = p.pending_cap ? p.pending_cap * 2 : 64;
				p.pending = xreallocarray(p.pending, p.pending_cap, sizeof *p.pending);
			}
			p.pending[p.npending++] = s;
		}
		pool_cut(&p, true);
	} else {
		/* with startedBy the service filter is applied afterwards: one chain */
		size_t nsvc = q->nservices && q->started_by == NULL ? q->nservices : 1, k = 0;
		bool running = q->running || !q->stopped;

		p.nchains = nsvc * ((running ? 1 : 0) + (q->stopped ? 1 : 0));
		p.chains = xcalloc(p.nchains, sizeof *p.chains);
		for (size_t i = 0; i < nsvc; i++) {
			const char *svc = nsvc > 1 || (q->nservices && q->started_by == NULL)
					  ? q->services[i] : NULL;
			if (running)
				p.chains[k++] = (struct chain){ svc, "RUNNING", NULL, true, false, 0 };
			if (q->stopped)
				p.chains[k++] = (struct chain){ svc, "STOPPED", NULL, true, false, 0 };
		}
	}

	if (nw < 1)
		nw = 1;
	w = xcalloc((size_t)nw, sizeof *w);
	for (long i = 0; i < nw; i++) {
		w[i].p = &p;
		w[i].t = &c->transports[i];
	}
	/* the calling thread is worker 0 */
	for (long i = 1; i < nw; i++)
		if (pthread_create(&w[i].thread, NULL, worker_run, &w[i]) != 0) {
			nw = i;
			break;
		}
	worker_run(&w[0]);
	for (long i = 1; i < nw; i++)
		pthread_join(w[i].thread, NULL);
	free(w);

	{
		struct awsjson_counts n;

		awsjson_counts(c->api, &n);
		st->requests = n.requests;
		st->throttled = n.throttled;
	}

	if (p.failed) {
		*err = p.err;
		if (strcmp(err->aws_type, "ClusterNotFoundException") == 0)
			ecs_explain_cluster_not_found(c, q->cluster, err);
		goto out;
	}
	/* every batch was handed over as it completed */
	ret = 0;
out:
	for (size_t i = 0; i < p.nbatches; i++) {
		struct batch *b = p.batches[i];
		for (size_t j = 0; j < b->nresults; j++)
			free(b->results[j].json);
		free(b->results);
		free(b->arns);
		free(b);
	}
	free(p.batches);
	for (size_t i = 0; i < p.nchains; i++)
		free(p.chains[i].token);
	free(p.chains);
	/* the seen set owns every ARN string (batches and pending only borrow them) */
	for (size_t i = 0; i < p.seen.cap; i++)
		free(p.seen.v[i]);
	free(p.seen.v);
	free(p.pending);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return ret;
}
