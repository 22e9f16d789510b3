/* ecs: the Amazon ECS API (ListTasks, DescribeTasks, DescribeServices, ListClusters), sent
 * through the one AWS JSON-protocol client (src/aws/awsjson.h: signing, retries, errors),
 * with several requests in flight (ecs_fetch.c).
 * Ownership: an ecs_client borrows its options' strings and callbacks for its lifetime and
 * owns its transports; results (ecs_service_list, cluster names) are the caller's, freed
 * with the matching _cleanup/_free; raw task JSON handed to a callback is borrowed. */
#ifndef ECSPROF_ECS_H
#define ECSPROF_ECS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"

/* One transport per request in flight (http_curl_new in production; tests script one). */
typedef int ecs_transport_new_fn(void *arg, struct http_transport *out, struct err *err);
typedef void ecs_transport_free_fn(void *arg, struct http_transport *t);

struct log;
struct timeutil_clock;

struct ecs_client_options {
	struct aws_client_common common;   /* its cancel is not read: see there */
	const char *endpoint;          /* "https://ecs.us-east-1.amazonaws.com"; required */
	long concurrency;              /* requests in flight; <= 0: 4 */
	ecs_transport_new_fn *transport_new;   /* required */
	ecs_transport_free_fn *transport_free;
	void *transport_arg;
};

struct ecs_client;

int ecs_client_new(const struct ecs_client_options *o, struct ecs_client **out,
		   struct err *err);
void ecs_client_free(struct ecs_client *c);
/* HTTP attempts (retries included) since the last call began: a fetch, DescribeServices
 * and DescribeTaskDefinition each start the count again. */
size_t ecs_client_requests(struct ecs_client *c);

/* A poll that holds tasks already (watch): true when the caller holds arn in a state that a
 * task ListTasks lists under desired ("RUNNING" or "STOPPED") can no longer leave, so that
 * describing it again would tell nothing new. Called on a worker thread, under the fetch's
 * lock: it must only read. */
typedef bool ecs_known_fn(void *arg, const char *arn, const char *desired);
/* Hands over a known task in its place (ListTasks order, the calling thread, as
 * ecs_task_fn); listed_at_ms is when the ListTasks page naming it arrived. */
typedef int ecs_reuse_fn(void *arg, const char *arn, int64_t listed_at_ms, struct err *err);

/* A reader of DescribeTasks tasks (ecs_query.reader): each task of an answer read by the
 * worker that got it, in the pass that checks the answer, so that the calling thread only
 * takes it instead of reading its text again (issue 35). */
struct jsonscan;   /* ecsprof/jsonscan.h */
struct ecs_task_reader {
	/* On a worker: a batch for one answer's tasks; batch_free (on any thread) once they
	 * are handed over or dropped. */
	void *(*batch_new)(void *arg);
	void (*batch_free)(void *arg, void *batch);
	/* On a worker: the task object at sc->p (its '{'; sc checks repeated keys) read into
	 * batch: 0 with *slot its place there, *arn its taskArn (in the batch; NULL when it
	 * has none) and *created_ms its createdAt (TS_NONE when absent); or -1 when not sure:
	 * the scan goes back to the '{' and the task is handed to ecs_task_fn as text. */
	int (*read)(void *arg, void *batch, struct jsonscan *sc, size_t *slot, const char **arn,
		    int64_t *created_ms);
	/* On the calling thread, in place of ecs_task_fn for a task read (fn_arg is
	 * ecs_fetch_poll's arg; json its text as ecs_task_fn gets it; the same answers). */
	int (*take)(void *fn_arg, void *batch, size_t slot, const char *json, size_t len,
		    int64_t fetched_at_ms, struct err *err);
	void *arg;
};

/* What to fetch. Tasks come from ListTasks unless tasks[] is given. */
struct ecs_query {
	const char *cluster;               /* name or ARN; NULL = the "default" cluster */
	const char *const *services;       /* serviceName filters (one ListTasks chain each) */
	size_t nservices;
	const char *family;
	const char *started_by;
	bool running;                      /* desiredStatus RUNNING (includes PENDING tasks) */
	bool stopped;                      /* desiredStatus STOPPED */
	const char *const *tasks;          /* ARNs or ids: describe these, skip ListTasks */
	size_t ntasks;
	int64_t since_ms;                  /* keep tasks created at or after; TS_NONE = all */
	const volatile sig_atomic_t *interrupt;   /* may be NULL: non-zero (a SIGINT
						   * handler's flag) stops the fetch */
	ecs_known_fn *known;               /* may be NULL: every listed task is described */
	ecs_reuse_fn *reuse;               /* required with known */
	void *known_arg;                   /* for both */
	/* may be NULL: DescribeServices of these ndescribe_services names first (as
	 * ecs_describe_services(), into *services_out, the caller's once the fetch is
	 * over), on the fetch's threads, so that the caller does not wait for it; the
	 * tasks are listed after it, and its failure is the fetch's */
	struct ecs_service_list *services_out;
	const char *const *describe_services;
	size_t ndescribe_services;
	const struct ecs_task_reader *reader;   /* may be NULL: every task as text */
};

struct ecs_fetch_stats {
	size_t listed;        /* task ARNs ListTasks returned (after de-duplication) */
	size_t described;     /* tasks DescribeTasks returned */
	size_t kept;          /* ... handed to the callback (after --since) and kept by it */
	size_t skipped;       /* ... handed to the callback and skipped by it (bad tasks) */
	size_t failures;      /* DescribeTasks failures[] entries (each logged as a warning) */
	size_t pages;         /* ListTasks pages */
	size_t requests;      /* HTTP attempts, retries included */
	size_t throttled;     /* throttled responses */
	size_t describe_calls;   /* DescribeTasks requests (retries not counted) */
	size_t reused;        /* known tasks handed to ecs_query.reuse instead (not described) */
	bool listed_all;      /* every ListTasks chain is done: listed is the total (progress) */
};

/* Receives one described task as JSON text: the bytes ECS sent for it (json[len] is
 * '\0'), or jansson's compact text of it when the one-pass reader left the answer to
 * jansson (a \u escape, failures[]); no object in it names a key twice. In ListTasks
 * order, on the thread that calls ecs_fetch_poll() (or ecs_fetch_tasks()), while later
 * pages are still being fetched. fetched_at_ms is when its DescribeTasks answer arrived.
 * Returns 0 when it kept the task, 1 when it skipped it (it warned; counted in
 * ecs_fetch_stats.skipped, the fetch goes on); -1 (err filled) stops the fetch. */
typedef int ecs_task_fn(void *arg, const char *json, size_t len, int64_t fetched_at_ms,
			struct err *err);

/* Lists and describes, blocking; on a ClusterNotFoundException the message names the
 * clusters that do exist. Every failure is one line (see ecs_error_from_response); the
 * first one stops the requests in flight at once. st (may be NULL) is filled. */
int ecs_fetch_tasks(struct ecs_client *c, const struct ecs_query *q, ecs_task_fn *fn,
		    void *arg, struct ecs_fetch_stats *st, struct err *err);

/* The same as a fetch in progress that a loop polls (the terminal UI keeps reading keys):
 *   ecs_fetch_start(c, &q, &f, err);
 *   while ((rc = ecs_fetch_poll(f, 100, fn, arg, err)) == 1)
 *           ecs_fetch_progress(f, &st);      // pages, listed, described, kept so far
 *   ecs_fetch_free(f);
 * The workers run on their own threads (one per --concurrency, each with its own
 * transport); fn and the warnings come only from inside ecs_fetch_poll(), on its caller's
 * thread. q and its strings are borrowed until ecs_fetch_free(); one fetch per client at
 * a time. */
struct ecs_fetch;
int ecs_fetch_start(struct ecs_client *c, const struct ecs_query *q, struct ecs_fetch **out,
		    struct err *err);
/* Hands over every task described so far, waiting up to wait_ms (0: not at all) for
 * more. 1: still running; 0: done, every task handed over; -1: failed or interrupted
 * (err; HTTP_CANCELLED as err->aws_type when cancelled or interrupted). */
int ecs_fetch_poll(struct ecs_fetch *f, int64_t wait_ms, ecs_task_fn *fn, void *arg,
		   struct err *err);
/* Counters so far; never blocks for long (a lock held only for bookkeeping). */
void ecs_fetch_progress(struct ecs_fetch *f, struct ecs_fetch_stats *st);
/* Stops the requests in flight and the backoff waits; the next poll returns -1. From any
 * thread but not from a signal handler (use ecs_query.interrupt there). */
void ecs_fetch_cancel(struct ecs_fetch *f);
/* Cancels if still running, waits for the workers and frees. NULL is fine. */
void ecs_fetch_free(struct ecs_fetch *f);

struct ecs_deployment {
	char *id;
	char *status;                      /* PRIMARY, ACTIVE, INACTIVE */
	char *rollout_state;               /* COMPLETED, IN_PROGRESS, FAILED; NULL if absent */
	char *taskdef_arn;
	int64_t created_ms;                /* TS_NONE if absent */
	int64_t updated_ms;
	long desired, running, pending, failed;
};

struct ecs_service {
	char *name;
	char *arn;
	char *status;                      /* ACTIVE, DRAINING, INACTIVE */
	char *taskdef_arn;
	char *launch_type;
	long desired, running, pending;
	int64_t created_ms;
	struct ecs_deployment *deployments;
	size_t ndeployments;
	char *raw_json;                    /* the Service object as received (compact JSON):
					      deployments and events for recordings */
};

struct ecs_service_list {
	struct ecs_service *v;
	size_t n;
};

/* DescribeServices (10 names per request). A name the service does not know is an error
 * (ServiceNotFoundException-like, one line naming it). out is initialised by the call. */
int ecs_describe_services(struct ecs_client *c, const char *cluster, const char *const *names,
			  size_t n, struct ecs_service_list *out, struct err *err);
void ecs_service_list_cleanup(struct ecs_service_list *l);
/* DescribeServices of names[0..n) (10 per request) as `aws ecs describe-services --output
 * json` prints it: {"services":[...],"failures":[...]}, every request's lists merged, the
 * services whole (events, deployments, loadBalancers, healthCheckGracePeriodSeconds, ...),
 * their times (createdAt, updatedAt, stabilityStatusAt) as the CLI writes them in UTC
 * ("2026-12-07T14:02:00.123000+00:00"). A name ECS does not know is in failures[], not
 * an error. *json is the caller's to free. */
int ecs_describe_services_json(struct ecs_client *c, const char *cluster,
			       const char *const *names, size_t n, char **json,
			       struct err *err);
/* The same on transport t, the caller's (not the client's own), so that it may run on a
 * thread of its own beside a fetch (scaleout_live.c); the client's request counts are
 * left as they are. */
int ecs_describe_services_json_on(struct ecs_client *c, const struct http_transport *t,
				  const char *cluster, const char *const *names, size_t n,
				  char **json, struct err *err);

/* ListClusters, every page; short names ("prod", not the ARN). */
int ecs_list_clusters(struct ecs_client *c, char ***names, size_t *n, struct err *err);
void ecs_names_free(char **names, size_t n);

/* Turns a failed ECS response (status >= 300) into one line a user can act on:
 * "CODE: message — what to do", with err->aws_type = CODE and err->http_status set.
 * op is the operation ("DescribeTasks"), used for IAM hints. Returns -1. (awsjson_error
 * for ECS.) */
int ecs_error_from_response(const char *op, const struct http_response *resp, int attempts,
			    struct err *err);

#endif
