/* ecs_fetch: ListTasks and DescribeTasks on a small pool of threads. ListTasks is a chain
 * of pages, each waiting for the previous page's nextToken, so the run cannot be faster
 * than that chain; everything else (DescribeTasks batches, other chains) runs beside it,
 * each thread with its own transport, so the wall time stays close to the chain.
 * The workers only talk to ECS; the calling thread, in ecs_fetch_poll(), hands the
 * described tasks to the callback in ListTasks order, logs the failures[] and decides when
 * the fetch is over. One failure cancels the others: their requests and backoff waits end
 * at once (http.h, cancel) instead of running out their retries. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "ecs_int.h"
#include "ecsprof/log.h"
#include "ecsprof/strset.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define LIST_PAGE 100      /* ListTasks maxResults: the API's maximum */
#define DESCRIBE_BATCH 100 /* DescribeTasks: at most 100 tasks per call */
#define BATCH_ENTRIES 1000 /* listed tasks per batch, known ones (not described) included */
#define INTERRUPT_CHECK_MS 50

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
	size_t entry;           /* its place in the batch's entries; SIZE_MAX: not matched */
};

/* A listed ARN in ListTasks order; a known one (ecs_query.known) is not described. */
struct entry {
	char *arn;              /* borrowed from the fetch's arns */
	bool known;
	int64_t listed_at_ms;
};

struct warning {
	char *line;
	bool missing;           /* reason MISSING: say why, after it */
};

struct batch {
	char **arns;            /* the ARNs to describe, borrowed from the fetch's arns */
	size_t n;
	struct entry *entries;  /* every listed ARN of the batch, in order (known ones too) */
	size_t nentries, nknown;
	size_t asked_hint;      /* where the next described task is asked, as a rule */
	bool done;              /* described; results ready to hand over */
	struct result *results;
	size_t nresults, results_cap;
	struct warning *warnings;   /* failures[], logged by the calling thread */
	size_t nwarnings, warnings_cap;
};

struct worker {
	struct ecs_fetch *f;
	struct http_transport *t;
	pthread_t thread;
	bool started;
};

struct ecs_fetch {
	struct ecs_client *c;
	struct ecs_query q;     /* its strings borrowed until ecs_fetch_free() */
	pthread_mutex_t lock;
	pthread_cond_t work;    /* workers: a page or a batch is waiting, or stop */
	pthread_cond_t news;    /* the calling thread: a batch is done, or a worker left */
	struct chain *chains;
	size_t nchains;
	struct batch **batches;
	size_t nbatches, batches_cap;
	size_t next_batch;      /* first batch no worker took yet */
	struct entry *pending;  /* listed ARNs not yet in a batch (borrowed from arns) */
	size_t npending, pending_cap;
	char **arns;            /* every ARN, owned, for the seen set and the batches */
	size_t narns, arns_cap;
	struct strset seen;
	size_t inflight;
	size_t next_emit;       /* first batch not yet handed over */
	int cancel;             /* read by the HTTP layer without the lock (atomically) */
	bool failed;
	struct err err;
	bool explained;         /* the ClusterNotFound message names the clusters */
	struct ecs_fetch_stats st;
	int services;           /* q.services_out: 1 to ask, 2 asked; 0 done (or none) */
	struct worker *workers;
	long nworkers, running;
};

static void
add_batch(struct ecs_fetch *f, const struct entry *e, size_t n)
{
	struct batch *b = xcalloc(1, sizeof *b);

	b->entries = xcalloc(n, sizeof *b->entries);
	memcpy(b->entries, e, n * sizeof *e);
	b->nentries = n;
	b->arns = xcalloc(n, sizeof *b->arns);
	for (size_t i = 0; i < n; i++)
		if (e[i].known)
			b->nknown++;
		else
			b->arns[b->n++] = e[i].arn;
	f->batches = xgrow(f->batches, f->nbatches + 1, &f->batches_cap, sizeof *f->batches);
	f->batches[f->nbatches++] = b;
}

/* Cuts full batches from the pending ARNs (DESCRIBE_BATCH to describe, or BATCH_ENTRIES
 * listed); with flush, the remainder too. */
static void
cut_batches(struct ecs_fetch *f, bool flush)
{
	size_t at = 0;

	for (;;) {
		size_t end = at, ask = 0;

		while (end < f->npending && ask < DESCRIBE_BATCH && end - at < BATCH_ENTRIES)
			ask += !f->pending[end++].known;
		if (end == at || (!flush && ask < DESCRIBE_BATCH && end - at < BATCH_ENTRIES))
			break;
		add_batch(f, f->pending + at, end - at);
		at = end;
	}
	/* nothing cut: pending may still be NULL, and memmove(NULL, ...) is undefined */
	if (at > 0)
		memmove(f->pending, f->pending + at, (f->npending - at) * sizeof *f->pending);
	f->npending -= at;
}

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
scan_page(void *arg, const char *body, size_t len)
{
	struct ecs_page *pg = arg;

	ecs_page_cleanup(pg);
	return ecs_scan_list(body, len, pg);
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
	    ecs_page_continue("ListTasks", token, pg->token, ch->pages)) {
		ch->token = pg->token;
		pg->token = NULL;
		ch->queued = true;
	} else {
		ch->done = true;
	}
	cut_batches(f, chains_done(f));
}

static const char *
json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: case JSON_REAL: return "number";
	case JSON_TRUE: case JSON_FALSE: return "boolean";
	case JSON_NULL: return "null";
	default: return "object";
	}
}

/* The place of the described task arn among b's entries (answers come in the order asked,
 * so the search starts after the last match), SIZE_MAX when it is not there verbatim. */
static size_t
entry_of(const struct batch *b, const char *arn, size_t *cursor)
{
	if (arn == NULL)
		return SIZE_MAX;
	for (size_t k = 0; k < b->nentries; k++) {
		size_t i = (*cursor + k) % b->nentries;

		if (!b->entries[i].known && strcmp(b->entries[i].arn, arn) == 0) {
			*cursor = i + 1;
			return i;
		}
	}
	return SIZE_MAX;
}

static void
add_warning(struct batch *b, char *line, bool missing)
{
	b->warnings = xgrow(b->warnings, b->nwarnings + 1, &b->warnings_cap, sizeof *b->warnings);
	b->warnings[b->nwarnings++] = (struct warning){ line, missing };
}

/* One described task (its taskArn, createdAt and text, the text taken) into b's results,
 * or dropped with a warning when it was not asked for. */
static void
take_described(struct ecs_fetch *f, struct batch *b, const char *arn, int64_t created_ms,
	       char *text, size_t len, int64_t at, size_t *described, size_t *unasked,
	       size_t *cursor)
{
	const struct ecs_query *q = &f->q;

	if (!ecs_task_was_asked_at(b->arns, b->n, q->cluster, arn, &b->asked_hint)) {
		add_warning(b, xasprintf("DescribeTasks: the answer holds task %.200s, which was "
					 "not asked for; dropped", arn ? arn : "(no ARN)"), false);
		(*unasked)++;
		free(text);
		return;
	}
	(*described)++;
	if (q->since_ms != TS_NONE && (created_ms == TS_NONE || created_ms < q->since_ms)) {
		free(text);
		return;
	}
	b->results = xgrow(b->results, b->nresults + 1, &b->results_cap, sizeof *b->results);
	b->results[b->nresults++] = (struct result){ text, len, at,
		b->nknown > 0 ? entry_of(b, arn, cursor) : SIZE_MAX };
}

struct scanned {
	struct ecs_scanned_task *v;
	size_t n;
};

/* awsjson's body hook: the answer read in one pass (ecs_scan.c), or 1 for the DOM */
static int
scan_answer(void *arg, const char *body, size_t len)
{
	struct scanned *sc = arg;

	ecs_scanned_free(sc->v, sc->n);
	sc->v = NULL;
	sc->n = 0;
	return ecs_scan_describe(body, len, &sc->v, &sc->n);
}

/* The tasks of an answer the one-pass reader gave up, from jansson's DOM. */
static void
take_dom_answer(struct ecs_fetch *f, struct batch *b, json_t *resp, int64_t at,
		size_t *described, size_t *unasked, size_t *cursor)
{
	json_t *task, *v;
	size_t i;

	json_array_foreach(json_object_get(resp, "tasks"), i, task) {
		char *text;

		if (!json_is_object(task)) {
			/* no ARN to match it to a request, nor to key it in a recording */
			add_warning(b, xasprintf("DescribeTasks: tasks[%zu] is a JSON %s, not a "
						 "task object; dropped", i, json_kind(task)), false);
			(*unasked)++;
			continue;
		}
		/* 16 digits keep epoch seconds with milliseconds exact */
		text = json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16));
		if (text == NULL)
			continue;
		take_described(f, b, json_string_value(json_object_get(task, "taskArn")),
			       ecs_json_time(task, "createdAt"), text, strlen(text), at, described,
			       unasked, cursor);
	}
	json_array_foreach(json_object_get(resp, "failures"), i, v) {
		const char *arn = json_string_value(json_object_get(v, "arn"));
		const char *reason = json_string_value(json_object_get(v, "reason"));
		const char *detail = json_string_value(json_object_get(v, "detail"));

		add_warning(b, xasprintf("DescribeTasks: %s: %s%s%s%s", arn ? arn : "(no ARN)",
					 reason ? reason : "failed", detail ? " (" : "",
					 detail ? detail : "", detail ? ")" : ""),
			    reason != NULL && strcmp(reason, "MISSING") == 0);
	}
}

/* Describes b's tasks into b (a worker's own batch: no lock needed but for counters). Each
 * answer is read once: in one pass without a DOM (ecs_scan.c), or by jansson when that
 * pass is not sure of it. */
static int
do_describe(struct ecs_fetch *f, struct http_transport *t, struct batch *b, struct err *err)
{
	const struct ecs_query *q = &f->q;
	struct awsjson_call_options o = { 0 };
	struct scanned sc = { NULL, 0 };
	json_t *req, *arr, *inc, *resp = NULL;
	size_t described = 0, unasked = 0, cursor = 0;
	int64_t at;
	int rc;

	if (b->n == 0)
		return 0;   /* every task of the batch is known: nothing to ask */
	req = json_object();
	arr = json_array();
	inc = json_array();
	if (q->cluster != NULL)
		json_object_set_new(req, "cluster", json_string(q->cluster));
	for (size_t i = 0; i < b->n; i++)
		json_array_append_new(arr, json_string(b->arns[i]));
	json_object_set_new(req, "tasks", arr);
	json_array_append_new(inc, json_string("TAGS"));
	json_object_set_new(req, "include", inc);
	o.body = scan_answer;
	o.body_arg = &sc;
	rc = call(f, t, "DescribeTasks", req, &resp, &at, &o, err);
	json_decref(req);
	if (rc != 0) {
		ecs_scanned_free(sc.v, sc.n);
		return -1;
	}
	if (resp != NULL) {
		take_dom_answer(f, b, resp, at, &described, &unasked, &cursor);
		json_decref(resp);
	} else {
		for (size_t i = 0; i < sc.n; i++) {
			take_described(f, b, sc.v[i].arn, sc.v[i].created_ms, sc.v[i].json,
				       sc.v[i].len, at, &described, &unasked, &cursor);
			sc.v[i].json = NULL;   /* taken */
		}
	}
	ecs_scanned_free(sc.v, sc.n);
	pthread_mutex_lock(&f->lock);
	f->st.described += described;
	f->st.describe_calls++;
	f->st.failures += b->nwarnings - unasked;
	pthread_mutex_unlock(&f->lock);
	return 0;
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
			rc = do_describe(f, w->t, b, &err);
			pthread_mutex_lock(&f->lock);
			if (rc != 0)
				fail(f, &err);
			else
				b->done = true;
			pthread_cond_broadcast(&f->news);
		}
		f->inflight--;
		pthread_cond_broadcast(&f->work);
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
		cut_batches(f, true);
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

static void
batch_free(struct batch *b)
{
	for (size_t j = 0; j < b->nresults; j++)
		free(b->results[j].json);
	free(b->results);
	for (size_t j = 0; j < b->nwarnings; j++)
		free(b->warnings[j].line);
	free(b->warnings);
	free(b->arns);
	free(b->entries);
	free(b);
}

/* Hands one described batch over on the calling thread, without the lock (the batch is
 * done: no worker touches it again). */
static int
deliver(struct ecs_fetch *f, struct batch *b, ecs_task_fn *fn, void *arg, size_t *kept,
	size_t *skipped, size_t *reused, struct err *err)
{
	size_t *at = NULL;
	int rc = 0;

	for (size_t j = 0; j < b->nwarnings; j++) {
		log_warn("%s", b->warnings[j].line);
		if (b->warnings[j].missing)
			log_info("ECS forgets a task about an hour after it stops");
	}
	if (b->nknown > 0) {
		/* known and described tasks in the order ListTasks gave them, then any answer
		 * that matched no ARN asked verbatim */
		at = xcalloc(b->nentries, sizeof *at);
		for (size_t j = 0; j < b->nresults; j++)
			if (b->results[j].entry != SIZE_MAX)
				at[b->results[j].entry] = j + 1;
		for (size_t e = 0; rc == 0 && e < b->nentries; e++) {
			if (b->entries[e].known) {
				rc = f->q.reuse(f->q.known_arg, b->entries[e].arn,
						b->entries[e].listed_at_ms, err);
				*reused += rc == 0;
			} else if (at[e] != 0) {
				const struct result *r = &b->results[at[e] - 1];

				rc = fn(arg, r->json, r->len, r->fetched_at_ms, err);
				*kept += rc == 0;
				*skipped += rc > 0;
				rc = rc < 0 ? -1 : 0;
			}
		}
	}
	for (size_t j = 0; rc == 0 && j < b->nresults; j++) {
		if (b->nknown > 0 && b->results[j].entry != SIZE_MAX)
			continue;
		rc = fn(arg, b->results[j].json, b->results[j].len, b->results[j].fetched_at_ms,
			err);
		*kept += rc == 0;
		*skipped += rc > 0;
		rc = rc < 0 ? -1 : 0;
	}
	free(at);
	return rc;
}

int
ecs_fetch_poll(struct ecs_fetch *f, int64_t wait_ms, ecs_task_fn *fn, void *arg,
	       struct err *err)
{
	int64_t until = timeutil_now_ms() + (wait_ms > 0 ? wait_ms : 0);
	struct err e;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->failed && f->next_emit < f->nbatches && f->batches[f->next_emit]->done) {
			struct batch *b = f->batches[f->next_emit];
			size_t kept = 0, skipped = 0, reused = 0;
			int rc;

			pthread_mutex_unlock(&f->lock);
			err_clear(&e);
			rc = deliver(f, b, fn, arg, &kept, &skipped, &reused, &e);
			pthread_mutex_lock(&f->lock);
			f->st.kept += kept;
			f->st.skipped += skipped;
			f->st.reused += reused;
			/* delivered: the results are not needed any more */
			for (size_t j = 0; j < b->nresults; j++)
				free(b->results[j].json);
			b->nresults = 0;
			f->next_emit++;
			if (rc != 0)
				fail(f, &e);
		}
		if (f->failed || f->running == 0)
			break;
		if (wait_ms <= 0 || timeutil_now_ms() >= until ||
		    (f->q.interrupt != NULL && *f->q.interrupt))
			break;
		{
			/* short slices, so that an interrupt flag set by a signal handler (which
			 * cannot signal a condition variable) is seen soon */
			int64_t now = timeutil_now_ms(), slice = until - now;
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
		batch_free(f->batches[i]);
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
