/* ecs_fetch: ListTasks and DescribeTasks on a small pool of threads. ListTasks is a chain
 * of pages, each waiting for the previous page's nextToken, so the run cannot be faster
 * than that chain; everything else (DescribeTasks batches, other chains) runs beside it,
 * each thread with its own transport, so the wall time stays close to the chain.
 * The workers only talk to ECS; the calling thread, in ecs_fetch_poll(), hands the
 * described tasks to the callback in ListTasks order, logs the failures[] and decides when
 * the fetch is over. One failure cancels the others: their requests and backoff waits end
 * at once (http.h, cancel) instead of running out their retries.
 * This file: the pool and the ListTasks chains; the batches are ecs_batch.c's. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "ecs_fetch_int.h"
#include "ecsprof/log.h"
#include "ecsprof/strset.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define LIST_PAGE 100      /* ListTasks maxResults: the API's maximum */
#define INTERRUPT_CHECK_MS 50

struct chain {
	const char *service;
	const char *status;
	char *token;            /* next page; NULL before the first and after the last */
	bool queued;            /* a page of this chain waits for a worker */
	bool done;
	size_t pages;           /* answered so far (ecs_page_continue bounds them) */
};

struct worker {
	struct ecs_fetch *f;
	struct http_transport *t;
	pthread_t thread;
	bool started;
};

/* Takes s (owned) as a listed ARN (desired: the chain's status; NULL for --task); false
 * (s freed) when it was listed already. */
static bool
add_arn(struct ecs_fetch *f, char *s, const char *desired, int64_t listed_at_ms)
{
	bool known;

	if (!strset_add(&f->seen, s, 0)) {
		free(s);
		return false;
	}
	known = desired != NULL && f->q.known != NULL && f->q.known(f->q.known_arg, s, desired);
	f->arns = xgrow(f->arns, f->narns + 1, &f->arns_cap, sizeof *f->arns);
	f->arns[f->narns++] = s;
	f->pending = xgrow(f->pending, f->npending + 1, &f->pending_cap, sizeof *f->pending);
	f->pending[f->npending++] = (struct entry){ s, known, listed_at_ms };
	return true;
}

static bool
chains_done(const struct ecs_fetch *f)
{
	for (size_t i = 0; i < f->nchains; i++)
		if (!f->chains[i].done)
			return false;
	return true;
}

static int
call(struct ecs_fetch *f, struct http_transport *t, const char *op, json_t *req, json_t **resp,
     int64_t *answered_ms, struct awsjson_call_options *o, struct err *err)
{
	int rc;

	o->cancel = &f->cancel;
	rc = awsjson_call_opt(f->c->api, t, op, req, o, resp, err);
	if (answered_ms != NULL)
		*answered_ms = o->answered_ms;
	return rc;
}

/* awsjson's body hook for ListTasks: the page read in one pass, or 1 for the DOM */
static int
scan_page(void *arg, struct buf *body)
{
	struct ecs_page *pg = arg;

	ecs_page_cleanup(pg);
	return ecs_scan_list(buf_str(body), body->len, pg);
}

/* One page of ch into *pg (the caller's: ecs_page_cleanup). */
static int
do_list_page(struct ecs_fetch *f, struct http_transport *t, const struct chain *ch,
	     const char *token, struct ecs_page *pg, int64_t *answered_ms, struct err *err)
{
	const struct ecs_query *q = &f->q;
	struct awsjson_call_options o = { 0 };
	json_t *req = json_object(), *resp = NULL, *v, *a;
	size_t i, cap = 0;
	int rc;

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
	memset(pg, 0, sizeof *pg);
	o.body = scan_page;
	o.body_arg = pg;
	rc = call(f, t, "ListTasks", req, &resp, answered_ms, &o, err);
	json_decref(req);
	if (rc != 0) {
		ecs_page_cleanup(pg);
		return -1;
	}
	if (resp != NULL) {
		/* the one-pass reader gave it up: jansson's DOM, the same fields */
		json_array_foreach(json_object_get(resp, "taskArns"), i, a)
			if (json_is_string(a)) {
				pg->arns = xgrow(pg->arns, pg->n + 1, &cap, sizeof *pg->arns);
				pg->arns[pg->n++] = xstrdup(json_string_value(a));
			}
		v = json_object_get(resp, "nextToken");
		if (json_is_string(v))
			pg->token = xstrdup(json_string_value(v));
		json_decref(resp);
	}
	return 0;
}

/* A page's ARNs (taken) and next token into the fetch; called with the lock held. */
static void
take_page(struct ecs_fetch *f, struct chain *ch, struct ecs_page *pg, const char *token,
	  int64_t answered_ms)
{
	f->st.pages++;
	for (size_t i = 0; i < pg->n; i++) {
		if (add_arn(f, pg->arns[i], ch->status, answered_ms))
			f->st.listed++;
		pg->arns[i] = NULL;   /* taken (or freed) */
	}
	ch->pages++;
	if (pg->token != NULL && pg->token[0] != '\0' &&
	    ecs_page_continue(f->c->log, "ListTasks", token, pg->token, ch->pages)) {
		ch->token = pg->token;
		pg->token = NULL;
		ch->queued = true;
	} else {
		ch->done = true;
	}
	ecs_batch_cut(f, chains_done(f));
}

/* The first failure wins; it stops every worker. Called with the lock held. */
static void
fail(struct ecs_fetch *f, const struct err *err)
{
	if (!f->failed) {
		f->failed = true;
		f->err = *err;
	}
	__atomic_store_n(&f->cancel, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&f->work);
	pthread_cond_broadcast(&f->news);
}

/* After a request, with the lock held: one idle worker woken for each piece of work
 * beyond the one this worker takes next (it loops without waiting). A broadcast here woke
 * every idle worker after every request, to find nothing for most of them: a futex wake
 * and a context switch each. The end of the fetch and a failure still broadcast. */
static void
wake_for_work(struct ecs_fetch *f)
{
	size_t avail = f->nbatches - f->next_batch;

	for (size_t i = 0; i < f->nchains; i++)
		avail += f->chains[i].queued;
	for (size_t i = 1; i < avail && i < (size_t)f->nworkers; i++)
		pthread_cond_signal(&f->work);
}

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	struct ecs_fetch *f = w->f;
	struct err err;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		struct chain *ch = NULL;
		struct batch *b = NULL;

		if (f->failed || __atomic_load_n(&f->cancel, __ATOMIC_RELAXED))
			break;
		if (f->services == 1) {
			/* DescribeServices first, and nothing else until it is answered */
			int rc;

			f->services = 2;
			f->inflight++;
			pthread_mutex_unlock(&f->lock);
			err_clear(&err);
			rc = ecs_describe_services_on(f->c, w->t, &f->cancel, f->q.cluster,
						      f->q.describe_services,
						      f->q.ndescribe_services, f->q.services_out,
						      &err);
			pthread_mutex_lock(&f->lock);
			if (rc != 0)
				fail(f, &err);
			f->services = 0;
			f->inflight--;
			pthread_cond_broadcast(&f->work);
			continue;
		}
		if (f->services != 0) {
			pthread_cond_wait(&f->work, &f->lock);
			continue;
		}
		/* ListTasks pages first: they are the critical path */
		for (size_t i = 0; i < f->nchains; i++)
			if (f->chains[i].queued) {
				ch = &f->chains[i];
				break;
			}
		if (ch == NULL && f->next_batch < f->nbatches)
			b = f->batches[f->next_batch++];
		if (ch == NULL && b == NULL) {
			if (f->inflight == 0 && chains_done(f) && f->next_batch == f->nbatches)
				break;
			pthread_cond_wait(&f->work, &f->lock);
			continue;
		}
		f->inflight++;
		err_clear(&err);
		if (ch != NULL) {
			char *token = ch->token;
			struct ecs_page pg;
			int rc;

			ch->queued = false;
			ch->token = NULL;
			pthread_mutex_unlock(&f->lock);
			int64_t answered = TS_NONE;

			rc = do_list_page(f, w->t, ch, token, &pg, &answered, &err);
			pthread_mutex_lock(&f->lock);
			if (rc != 0)
				fail(f, &err);
			else
				take_page(f, ch, &pg, token, answered);
			free(token);
			ecs_page_cleanup(&pg);
		} else {
			int rc;

			pthread_mutex_unlock(&f->lock);
			rc = ecs_batch_describe(f, w->t, b, &err);
			pthread_mutex_lock(&f->lock);
			if (rc != 0)
				fail(f, &err);
			else
				b->done = true;
			/* the caller waits for the batch it delivers next, no other */
			if (b == f->batches[f->next_emit])
				pthread_cond_signal(&f->news);
		}
		f->inflight--;
		wake_for_work(f);
	}
	f->running--;
	/* the last one out wakes the others (all waiting for work that will not come) */
	pthread_cond_broadcast(&f->work);
	pthread_cond_broadcast(&f->news);
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

int
ecs_fetch_start(struct ecs_client *c, const struct ecs_query *q, struct ecs_fetch **out,
		struct err *err)
{
	struct ecs_fetch *f = xcalloc(1, sizeof *f);
	long started = 0;

	*out = NULL;
	f->c = c;
	f->q = *q;
	strset_init(&f->seen);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->work, NULL);
	pthread_cond_init(&f->news, NULL);
	awsjson_reset(c->api);
	if (q->services_out != NULL) {
		q->services_out->v = NULL;
		q->services_out->n = 0;
		f->services = q->ndescribe_services > 0 ? 1 : 0;
	}

	if (q->ntasks > 0) {
		for (size_t i = 0; i < q->ntasks; i++)
			add_arn(f, xstrdup(q->tasks[i]), NULL, TS_NONE);
		ecs_batch_cut(f, true);
	} else {
		/* with startedBy the service filter is applied afterwards: one chain */
		size_t nsvc = q->nservices && q->started_by == NULL ? q->nservices : 1, k = 0;
		bool running = q->running || !q->stopped;

		f->nchains = nsvc * ((running ? 1 : 0) + (q->stopped ? 1 : 0));
		f->chains = xcalloc(f->nchains, sizeof *f->chains);
		for (size_t i = 0; i < nsvc; i++) {
			const char *svc = nsvc > 1 || (q->nservices && q->started_by == NULL)
					  ? q->services[i] : NULL;
			if (running)
				f->chains[k++] = (struct chain){ svc, "RUNNING", NULL, true, false, 0 };
			if (q->stopped)
				f->chains[k++] = (struct chain){ svc, "STOPPED", NULL, true, false, 0 };
		}
	}

	f->nworkers = c->concurrency > 0 ? c->concurrency : 1;
	f->workers = xcalloc((size_t)f->nworkers, sizeof *f->workers);
	pthread_mutex_lock(&f->lock);
	for (long i = 0; i < f->nworkers; i++) {
		f->workers[i].f = f;
		f->workers[i].t = &c->transports[i];
		if (pthread_create(&f->workers[i].thread, NULL, worker_run, &f->workers[i]) == 0) {
			f->workers[i].started = true;
			f->running++;
			started++;
		}
	}
	/* (f->running may drop to 0 as soon as the lock is released: a fetch can fail, or
	 * have nothing to do, before this function returns) */
	pthread_mutex_unlock(&f->lock);
	if (started == 0) {
		ecs_fetch_free(f);
		return err_set(err, ERR_INTERNAL, "cannot start a thread to fetch tasks");
	}
	*out = f;
	return 0;
}

static void
join_workers(struct ecs_fetch *f)
{
	for (long i = 0; i < f->nworkers; i++)
		if (f->workers[i].started) {
			pthread_join(f->workers[i].thread, NULL);
			f->workers[i].started = false;
		}
}

int
ecs_fetch_poll(struct ecs_fetch *f, int64_t wait_ms, ecs_task_fn *fn, void *arg,
	       struct err *err)
{
	int64_t until = timeutil_clock_now(f->c->clock) + (wait_ms > 0 ? wait_ms : 0);
	struct err e;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->failed && f->next_emit < f->nbatches && f->batches[f->next_emit]->done) {
			struct batch *b = f->batches[f->next_emit];
			size_t kept = 0, skipped = 0, reused = 0;
			int rc;

			pthread_mutex_unlock(&f->lock);
			err_clear(&e);
			rc = ecs_batch_deliver(f, b, fn, arg, &kept, &skipped, &reused, &e);
			pthread_mutex_lock(&f->lock);
			f->st.kept += kept;
			f->st.skipped += skipped;
			f->st.reused += reused;
			f->next_emit++;
			if (rc != 0)
				fail(f, &e);
		}
		if (f->failed || f->running == 0)
			break;
		if (wait_ms <= 0 || timeutil_clock_now(f->c->clock) >= until ||
		    (f->q.interrupt != NULL && *f->q.interrupt))
			break;
		{
			/* short slices, so that an interrupt flag set by a signal handler (which
			 * cannot signal a condition variable) is seen soon */
			int64_t now = timeutil_clock_now(f->c->clock), slice = until - now;
			struct timespec ts;

			if (f->q.interrupt != NULL && slice > INTERRUPT_CHECK_MS)
				slice = INTERRUPT_CHECK_MS;
			timeutil_abstime_in(slice, &ts);
			pthread_cond_timedwait(&f->news, &f->lock, &ts);
		}
	}
	if (!f->failed && f->q.interrupt != NULL && *f->q.interrupt) {
		err_set(&e, ERR_NETWORK, "interrupted");
		snprintf(e.aws_type, sizeof e.aws_type, "%s", HTTP_CANCELLED);
		fail(f, &e);
	}
	if (f->failed) {
		pthread_mutex_unlock(&f->lock);
		/* the others were cancelled: they return promptly */
		join_workers(f);
		*err = f->err;
		if (!f->explained && strcmp(err->aws_type, "ClusterNotFoundException") == 0) {
			ecs_explain_cluster_not_found(f->c, f->q.cluster, err);
			f->err = *err;
			f->explained = true;
		}
		return -1;
	}
	if (f->running == 0 && f->next_emit == f->nbatches) {
		pthread_mutex_unlock(&f->lock);
		join_workers(f);
		return 0;
	}
	pthread_mutex_unlock(&f->lock);
	return 1;
}

void
ecs_fetch_progress(struct ecs_fetch *f, struct ecs_fetch_stats *st)
{
	struct awsjson_counts n;

	pthread_mutex_lock(&f->lock);
	*st = f->st;
	st->listed_all = chains_done(f);
	pthread_mutex_unlock(&f->lock);
	awsjson_counts(f->c->api, &n);
	st->requests = n.requests;
	st->throttled = n.throttled;
}

void
ecs_fetch_cancel(struct ecs_fetch *f)
{
	struct err e;

	err_set(&e, ERR_NETWORK, "cancelled");
	snprintf(e.aws_type, sizeof e.aws_type, "%s", HTTP_CANCELLED);
	pthread_mutex_lock(&f->lock);
	fail(f, &e);
	pthread_mutex_unlock(&f->lock);
}

void
ecs_fetch_free(struct ecs_fetch *f)
{
	if (f == NULL)
		return;
	pthread_mutex_lock(&f->lock);
	if (f->running > 0) {
		struct err e;

		err_set(&e, ERR_NETWORK, "cancelled");
		snprintf(e.aws_type, sizeof e.aws_type, "%s", HTTP_CANCELLED);
		fail(f, &e);
	}
	pthread_mutex_unlock(&f->lock);
	join_workers(f);
	for (size_t i = 0; i < f->nbatches; i++)
		ecs_batch_free(f->batches[i]);
	free(f->batches);
	for (size_t i = 0; i < f->nchains; i++)
		free(f->chains[i].token);
	free(f->chains);
	for (size_t i = 0; i < f->narns; i++)
		free(f->arns[i]);
	free(f->arns);
	free(f->pending);
	strset_cleanup(&f->seen);
	free(f->workers);
	pthread_cond_destroy(&f->news);
	pthread_cond_destroy(&f->work);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

int
ecs_fetch_tasks(struct ecs_client *c, const struct ecs_query *q, ecs_task_fn *fn, void *arg,
		struct ecs_fetch_stats *st, struct err *err)
{
	struct ecs_fetch *f;
	int rc;

	if (st != NULL)
		memset(st, 0, sizeof *st);
	if (ecs_fetch_start(c, q, &f, err) != 0)
		return -1;
	while ((rc = ecs_fetch_poll(f, 1000, fn, arg, err)) == 1)
		;
	if (st != NULL)
		ecs_fetch_progress(f, st);
	ecs_fetch_free(f);
	return rc;
}
