/* live: the commands' way into the ECS API: options -> AWS context -> ECS client ->
 * tasks in a task_set (plus the services and, for recording, the raw task JSON).
 * Ownership: a live_session owns its context, client and connections until
 * live_session_free(); a live_result owns everything in it, freed by live_result_cleanup();
 * a session copies its live_options, whose strings and arrays are borrowed for its lifetime.
 * The command line stays in cmd/: it fills a live_options (app_live_options). */
#ifndef ECSPROF_LIVE_H
#define ECSPROF_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/ecs.h"
#include "ecsprof/err.h"
#include "ecsprof/task.h"

/* What the answers of a session's requests (ECS, ECR, all threads) may hold in memory at
 * once: 64 requests of 4 MiB each, where a DescribeTasks answer of 100 tasks is ~0.3 MiB. */
#define LIVE_MEMORY_BUDGET ((size_t)256 << 20)

struct live_session;

struct log;

/* What a session needs: where and how to ask (the AWS side), and which tasks. */
struct live_options {
	const char *profile;           /* NULL: AWS_PROFILE, else "default" */
	const char *region;            /* NULL: AWS_REGION, then the profile's */
	const char *endpoint_url;      /* NULL: the region's ECS endpoint */
	long concurrency;              /* requests in flight */
	long connect_timeout_ms;
	long timeout_ms;               /* per request */
	bool debug;                    /* trace ECS requests (redacted) on stderr */
	const struct log *log;         /* borrowed; NULL: log.h */
	bool no_images;                /* no ECR lookups */
	/* the selection ECS can apply (the SELECT filter applies the rest, select.h) */
	const char *cluster;           /* NULL: "default" */
	const char *const *services;
	size_t nservices;
	const char *family;
	const char *started_by;
	bool running, stopped;         /* which desired statuses to list */
	const char *const *tasks;      /* ARNs or ids; a short id lists the cluster */
	size_t ntasks;
	const char *since;             /* a duration or a time (timeutil_parse_since), at
					* each fetch; NULL: none */
	/* live_record: lines to record beside the tasks, fetched on the same session before
	 * the file is touched (each the caller's to free, appended to *lines); NULL: none */
	int (*more_lines)(void *arg, struct live_session *s, const char *region,
			  const char *cluster, char ***lines, size_t *nlines, struct err *err);
	void *more_arg;
};

struct live_raw_task {
	char *json;                    /* one DescribeTasks task object, compact JSON */
	size_t len;
	int64_t fetched_at_ms;
};

struct live_result {
	bool keep_raw;                 /* in: collect raw[] (record, watch --record) */
	bool want_services;            /* in: DescribeServices for --service (watch) */
	const struct task_set *reuse_from;  /* in (watch): the last poll's tasks, borrowed;
					     * those that cannot have changed are copied from
					     * there, not described (live_reuse.h) */
	struct ecs_service_list services;   /* --service: DescribeServices, with deployments */
	struct live_raw_task *raw;
	size_t nraw;
	struct ecs_fetch_stats stats;
	size_t requests;               /* every request of the fetch (DescribeServices and
					* DescribeTaskDefinition too), retries included */
	char *region;                  /* where the tasks came from */
	char *cluster;                 /* as given, "default" when not */
	char *endpoint;
};

void live_result_init(struct live_result *r);
void live_result_cleanup(struct live_result *r);

/* A session keeps its connections and credentials between fetches (watch polls). */
struct live_session;
int live_session_new(const struct live_options *o, struct live_session **out, struct err *err);
/* Adds the selected tasks to out (source "live"); extra may be NULL. The first failure
 * stops the fetch with one line in err (AWS error code, message and what to do). */
int live_session_fetch(struct live_session *s, struct task_set *out, struct live_result *extra,
		       struct err *err);
void live_session_free(struct live_session *s);

/* The same fetch as a job that a loop polls, so that the terminal UI keeps reading keys
 * while it runs:
 *   live_session_fetch_start(s, out, extra, &j, err);
 *   while ((rc = live_job_poll(j, 0, err)) == 1)
 *           live_job_progress(j, &p);   // draw "fetching: 1,200 of 6,000 tasks ..."
 *   live_job_free(j);
 * The requests before the task fetch proper (watch's DescribeServices and what a reused
 * poll needs) are made inside live_session_fetch_start(); ListTasks, DescribeTasks and
 * the image lookups then run on worker threads. Tasks are added to out only inside
 * live_job_poll(), on its caller's thread: between two polls the caller may read out (show
 * the tasks loaded so far) but not change it. One job per session at a time; the job
 * borrows s, out and extra until live_job_free(). */
struct live_job;
struct live_progress {
	struct ecs_fetch_stats tasks;  /* pages, listed (listed_all: the total), described,
					* kept so far */
	bool images;                   /* the tasks are in; the image lookups are awaited */
	size_t images_wanted, images_done;
};
int live_session_fetch_start(struct live_session *s, struct task_set *out,
			     struct live_result *extra, struct live_job **j, struct err *err);
/* Takes the tasks described so far into out, waiting up to wait_ms (0: not at all) for
 * more. 1: still running; 0: done (every task in out, the image facts in out->images,
 * extra's counters filled); -1: failed or cancelled (err; HTTP_CANCELLED as
 * err->aws_type when cancelled). After 0 or -1 the job only waits to be freed. */
int live_job_poll(struct live_job *j, int64_t wait_ms, struct err *err);
void live_job_progress(struct live_job *j, struct live_progress *p);
/* Stops the requests in flight and their backoff waits (the next poll returns -1). The
 * image lookups in flight are given up only by live_session_free(). */
void live_job_cancel(struct live_job *j);
/* Cancels if still running, waits for the workers (promptly: they were cancelled) and
 * frees. NULL is fine. */
void live_job_free(struct live_job *j);
/* The session's ECS client and region (borrowed), for calls beyond fetching tasks
 * (experiment's RunTask and StopTask). */
struct ecs_client *live_session_ecs(struct live_session *s);
const char *live_session_region(const struct live_session *s);
/* An EC2 client on the session's region, credentials, retries and options (check's image
 * path: the endpoint as aws_scaleout_endpoint() resolves EC2's) and a transport for it;
 * the caller frees both (ec2_free, http_curl_free) before the session. */
struct ec2;
int live_session_ec2(struct live_session *s, struct ec2 **out, struct http_transport *t,
		     struct err *err);
struct aws_context;
struct http_transport;
/* The session's AWS context and a new transport on its settings (timeouts, CA bundle,
 * trace, memory budget), for the other services' calls (scaleout_live.h). */
struct aws_context *live_session_context(struct live_session *s);
int live_session_transport_new(struct live_session *s, struct http_transport *out,
			       struct err *err);
/* A flag a SIGINT handler sets (borrowed; NULL: none): a fetch in progress stops at once
 * when it becomes non-zero, with HTTP_CANCELLED in err->aws_type. */
void live_session_set_interrupt(struct live_session *s, const volatile sig_atomic_t *flag);

/* Parses one DescribeTasks task (raw JSON as ECS sent it) into set, for every
 * ecs_task_fn that keeps tasks. A task that is no usable task (ERR_PARSE: a field of the
 * wrong type, a timestamp out of range, too long a string) is skipped with one warning
 * naming it, saying its raw JSON is recorded when raw_kept: 1, err clear. 0: added (or
 * nothing to add); -1: any other error (err, prefixed). The caller returns 1 for a
 * skipped task so that the fetch counts it in ecs_fetch_stats.skipped. With once, each
 * warning (skipped, a field ignored) is said once per once (NULL: every time). */
struct log_once;
int live_take_task(const char *json, size_t len, int64_t fetched_at_ms, struct task_set *set,
		   bool raw_kept, struct log_once *once, struct err *err);

/* One-shot: session, fetch, free. */
int live_fetch(const struct live_options *o, struct task_set *out, struct live_result *extra,
	       struct err *err);

/* `ecsprof images`: with images (--image, nimages > 0), looks those references up (no
 * task fetched); else fetches the selected tasks as live_fetch() does, with their images. */
int live_images(const struct live_options *o, const char *const *images, size_t nimages,
		struct task_set *out, struct err *err);

/* `ecsprof record -o FILE`: fetches and merges the raw tasks into FILE (record.h). */
int live_record(const struct live_options *o, const char *file, struct err *err);

#endif
