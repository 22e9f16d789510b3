/* ecs_stop: StopTask for many tasks at once, for the end of an experiment and its
 * --cleanup. One StopTask at a time with 3 attempts left tasks running (and billing) when
 * ECS throttled or answered 503 for a while, and a hung endpoint made shutdown take 3 x 30 s
 * per task, one task after the other: here every task is stopped in parallel (one thread
 * per transport of the client), each asked again with a growing backoff for as long as
 * the answer is one that may change (throttling, 5xx, a cut connection, a timeout), and
 * everything ends at one deadline (a second Ctrl-C ends it sooner, in the caller). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_int.h"
#include "ecsprof/ecs_run.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define STOP_BACKOFF_FIRST_MS 1000
#define STOP_BACKOFF_MAX_MS 16000
#define STOP_WATCH_MS 50        /* how often the deadline and the caller's flag are read */

struct stop_run {
	struct ecs_client *c;
	const struct ecs_stop_options *o;
	struct ecs_stop_item *items;
	size_t n, next, finished;
	bool said_retrying;
	int cancel;                     /* set by the watcher at the deadline */
	pthread_mutex_t lock;
};

static bool
stop_cancelled(struct stop_run *s)
{
	return __atomic_load_n(&s->cancel, __ATOMIC_SEQ_CST) != 0;
}

/* An answer that may be different if asked again later. */
static bool
stop_retryable(const struct err *e)
{
	if (strcmp(e->aws_type, HTTP_CANCELLED) == 0)
		return false;
	return e->code == ERR_THROTTLED || e->code == ERR_NETWORK ||
	       (e->code == ERR_AWS && e->http_status >= 500);
}

static void
stop_one(struct stop_run *s, const struct http_transport *t, struct ecs_stop_item *it)
{
	int64_t backoff = STOP_BACKOFF_FIRST_MS;

	for (;;) {
		err_clear(&it->err);
		if (ecs_stop_task_on(s->c, t, &s->cancel, s->o->cluster, it->arn, s->o->reason,
				     &it->raw, &it->answered_ms, &it->err) == 0) {
			it->stopped = true;
			break;
		}
		it->attempts_failed++;
		if (!stop_retryable(&it->err) || stop_cancelled(s))
			break;
		pthread_mutex_lock(&s->lock);
		if (!s->said_retrying && s->o->retrying != NULL)
			s->o->retrying(s->o->done_arg, &it->err);
		s->said_retrying = true;
		pthread_mutex_unlock(&s->lock);
		/* wait, a slice at a time, so that the deadline and the caller cut it short */
		for (int64_t waited = 0; waited < backoff && !stop_cancelled(s);
		     waited += STOP_WATCH_MS)
			timeutil_clock_sleep(s->c->clock, STOP_WATCH_MS);
		if (stop_cancelled(s))
			break;
		backoff = backoff * 2 > STOP_BACKOFF_MAX_MS ? STOP_BACKOFF_MAX_MS : backoff * 2;
	}
	if (it->stopped && s->o->done != NULL) {
		pthread_mutex_lock(&s->lock);
		s->o->done(s->o->done_arg, (size_t)(it - s->items));
		pthread_mutex_unlock(&s->lock);
	}
}

struct stop_worker {
	struct stop_run *s;
	const struct http_transport *t;
	pthread_t tid;
	bool started;
};

static void *
stop_worker(void *arg)
{
	struct stop_worker *w = arg;
	struct stop_run *s = w->s;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&s->lock);
		i = s->next++;
		pthread_mutex_unlock(&s->lock);
		if (i >= s->n || stop_cancelled(s))
			break;
		stop_one(s, w->t, &s->items[i]);
	}
	pthread_mutex_lock(&s->lock);
	s->finished++;
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

size_t
ecs_stop_tasks(struct ecs_client *c, const struct ecs_stop_options *o,
	       struct ecs_stop_item *items, size_t n)
{
	struct stop_run s = { .c = c, .o = o, .items = items, .n = n };
	size_t nthreads = n < (size_t)c->concurrency ? n : (size_t)c->concurrency, stopped = 0;
	size_t started = 0, finished = 0;
	struct stop_worker *w;

	for (size_t i = 0; i < n; i++) {
		items[i].stopped = false;
		items[i].raw = NULL;
		items[i].answered_ms = TS_NONE;
		items[i].attempts_failed = 0;
		err_clear(&items[i].err);
	}
	if (n == 0)
		return 0;
	awsjson_reset(c->api);
	pthread_mutex_init(&s.lock, NULL);
	w = xcalloc(nthreads, sizeof *w);
	for (size_t k = 0; k < nthreads; k++) {
		w[k].s = &s;
		w[k].t = &c->transports[k];
		w[k].started = pthread_create(&w[k].tid, NULL, stop_worker, &w[k]) == 0;
		started += w[k].started;
	}
	if (started == 0) {
		stop_worker(&w[0]);   /* no thread at all: this one does the work */
	} else {
		/* the watcher: at the deadline, every request in flight and every wait ends */
		for (;;) {
			pthread_mutex_lock(&s.lock);
			finished = s.finished;
			pthread_mutex_unlock(&s.lock);
			if (finished == started)
				break;
			if (o->deadline_ms != TS_NONE &&
			    timeutil_clock_now(c->clock) >= o->deadline_ms)
				__atomic_store_n(&s.cancel, 1, __ATOMIC_SEQ_CST);
			timeutil_clock_sleep(c->clock, STOP_WATCH_MS);
		}
		for (size_t k = 0; k < nthreads; k++)
			if (w[k].started)
				pthread_join(w[k].tid, NULL);
	}
	free(w);
	pthread_mutex_destroy(&s.lock);
	for (size_t i = 0; i < n; i++)
		stopped += items[i].stopped;
	return stopped;
}
