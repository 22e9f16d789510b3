/* live: wires the session's options to the AWS context, the credential chain and the ECS
 * client. Kept apart from app.c so that the commands never see HTTP, and apart from ecs.c
 * so that the client never sees the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/creds.h"
#include "ecsprof/ec2.h"
#include "ecsprof/ecs.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/image_fetch.h"
#include "ecsprof/image.h"
#include "ecsprof/image_io.h"
#include "ecsprof/input.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "live_reuse.h"
#include "taskscan.h"

struct live_session {
	struct live_options o;
	struct http_transport ctx_transport;   /* STS, SSO, container credentials */
	struct aws_context ctx;
	bool ctx_ok;
	struct ecs_client *client;
	struct http_curl_options curl;
	struct http_budget budget;             /* every transport's answers together */
	struct log_once warned;                /* a bad task's warnings, once per session */
	struct image_fetch *images;            /* NULL with --no-images */
	struct live_reuse *reuse;              /* watch: what a poll need not describe */
	const volatile sig_atomic_t *interrupt;
};

void
live_session_set_interrupt(struct live_session *s, const volatile sig_atomic_t *flag)
{
	s->interrupt = flag;
}

void
live_result_init(struct live_result *r)
{
	memset(r, 0, sizeof *r);
}

void
live_result_cleanup(struct live_result *r)
{
	ecs_service_list_cleanup(&r->services);
	for (size_t i = 0; i < r->nraw; i++)
		free(r->raw[i].json);
	free(r->raw);
	free(r->region);
	free(r->cluster);
	free(r->endpoint);
	r->raw = NULL;
	r->nraw = 0;
	r->region = r->cluster = r->endpoint = NULL;
}

static int
session_creds(void *arg, struct aws_creds *out, struct err *err)
{
	struct live_session *s = arg;
	return creds_get(&s->ctx, out, err);
}

static int
session_transport_new(void *arg, struct http_transport *out, struct err *err)
{
	struct live_session *s = arg;
	return http_curl_new(&s->curl, out, err);
}

static void
session_transport_free(void *arg, struct http_transport *t)
{
	http_curl_free(t);
}

void
live_session_free(struct live_session *s)
{
	if (s == NULL)
		return;
	image_fetch_free(s->images);
	live_reuse_free(s->reuse);
	log_once_cleanup(&s->warned);
	ecs_client_free(s->client);
	if (s->ctx_ok)
		aws_context_cleanup(&s->ctx);
	http_curl_free(&s->ctx_transport);
	free(s);
}

static int
image_transport_new(void *arg, struct http_transport *out, struct err *err)
{
	struct live_session *s = arg;
	/* never traced: a layer download URL carries its own signature */
	struct http_curl_options quiet = s->curl;

	quiet.debug = false;
	return http_curl_new(&quiet, out, err);
}

/* The image lookups run on threads of their own while the tasks are fetched. */
static int
live_images_start(struct live_session *s, struct err *err)
{
	struct image_fetch_options io = { 0 };

	io.ctx = &s->ctx;
	io.concurrency = s->o.concurrency;
	io.transport_new = image_transport_new;
	io.transport_free = session_transport_free;
	io.transport_arg = s;
	io.debug = s->o.debug;
	io.log = s->o.log;
	return image_fetch_new(&io, &s->images, err);
}

int
live_session_new(const struct live_options *o, struct live_session **out, struct err *err)
{
	struct live_session *s = xcalloc(1, sizeof *s);
	struct aws_context_options co = { 0 };
	struct ecs_client_options eo = { 0 };

	*out = NULL;
	s->o = *o;
	s->curl.connect_timeout_ms = o->connect_timeout_ms;
	s->curl.timeout_ms = o->timeout_ms;
	s->curl.debug = o->debug;
	s->budget.limit = LIVE_MEMORY_BUDGET;
	log_once_init(&s->warned, o->log);
	s->curl.budget = &s->budget;
	/* The credential sources' exchanges (STS, SSO, container, IMDS) carry secrets in
	 * bodies and in headers the ECS trace does not know to redact: never trace them. */
	struct http_curl_options quiet = s->curl;
	quiet.debug = false;
	if (http_curl_new(&quiet, &s->ctx_transport, err) != 0)
		goto fail;
	co.profile = o->profile;
	co.region = o->region;
	co.endpoint_url = o->endpoint_url;
	co.service = "ecs";
	co.debug = o->debug;
	co.log = o->log;
	if (aws_context_init(&s->ctx, &co, s->ctx_transport, err) != 0)
		goto fail;
	s->ctx_ok = true;
	/* the config file's ca_bundle counts too, not only AWS_CA_BUNDLE; it is known only
	 * now, and no credential request has been made yet, so rebuild that transport */
	s->curl.ca_bundle = s->ctx.ca_bundle;
	if (s->ctx.ca_bundle != NULL) {
		quiet.ca_bundle = s->ctx.ca_bundle;
		http_curl_free(&s->ctx_transport);
		if (http_curl_new(&quiet, &s->ctx_transport, err) != 0)
			goto fail;
		s->ctx.transport = s->ctx_transport;
	}
	if (s->ctx.region == NULL) {
		err_set(err, ERR_CONFIG, "no AWS region: use --region, set AWS_REGION, or set "
			"region in the profile of ~/.aws/config");
		goto fail;
	}
	eo.common = aws_client_common_of(&s->ctx, session_creds, s);
	eo.endpoint = s->ctx.endpoint;
	eo.concurrency = o->concurrency;
	eo.transport_new = session_transport_new;
	eo.transport_free = session_transport_free;
	eo.transport_arg = s;
	if (ecs_client_new(&eo, &s->client, err) != 0)
		goto fail;
	if (!o->no_images && live_images_start(s, err) != 0)
		goto fail;
	*out = s;
	return 0;
fail:
	live_session_free(s);
	return -1;
}

struct ecs_client *
live_session_ecs(struct live_session *s)
{
	return s->client;
}

const char *
live_session_region(const struct live_session *s)
{
	return s->ctx.region;
}

int
live_session_ec2(struct live_session *s, struct ec2 **out, struct http_transport *t,
		 struct err *err)
{
	struct ec2_options eo = { 0 };
	char *endpoint = NULL;

	*out = NULL;
	memset(t, 0, sizeof *t);
	if (aws_scaleout_endpoint(&s->ctx, AWS_SCALEOUT_EC2, &endpoint, err) != 0)
		return -1;
	eo.common = aws_client_common_of(&s->ctx, session_creds, s);
	eo.endpoint = endpoint;
	if (ec2_new(&eo, out, err) != 0 || session_transport_new(s, t, err) != 0) {
		ec2_free(*out);
		*out = NULL;
		free(endpoint);
		return -1;
	}
	free(endpoint);     /* the client keeps its own copy */
	return 0;
}

struct aws_context *
live_session_context(struct live_session *s)
{
	return &s->ctx;
}

int
live_session_transport_new(struct live_session *s, struct http_transport *out,
			   struct err *err)
{
	return session_transport_new(s, out, err);
}

struct sink {
	struct task_set *set;
	struct live_result *extra;
	struct image_fetch *images;
	struct log_once *warned;
};

/* live_take_task; keys_unique: json is the fetch's text, which names no key twice */
static int
take_task_text(const char *json, size_t len, int64_t fetched_at_ms, struct task_set *set,
	       bool raw_kept, struct log_once *once, bool keys_unique, struct err *err)
{
	struct input_options io = { 0 };
	const char *kept = "";
	char line[1024];

	io.warn = once != NULL ? log_once_warn : NULL;
	io.warn_ctx = once;
	io.keys_unique = keys_unique;
	if (input_parse_task_json_with(json, len, "live", fetched_at_ms, &io, set, err) == 0)
		return 0;
	/* one bad task must not cost the others (report skips it the same way); a
	 * recording still keeps its raw JSON, so nothing ECS will forget is lost */
	if (err->code != ERR_PARSE)
		return err_prefix(err, "DescribeTasks answer");
	if (raw_kept) {
		struct input_key k;
		struct err e;

		/* a recording merges by taskArn and version: without them it cannot keep it */
		err_clear(&e);
		kept = " (not recorded: its identity cannot be read)";
		if (input_peek_task(json, len, &k, &e) == 0) {
			input_key_cleanup(&k);
			kept = " (its raw JSON is recorded)";
		}
	}
	snprintf(line, sizeof line, "DescribeTasks: skipped %s%s",
		 strncmp(err->msg, "live: ", 6) == 0 ? err->msg + 6 : err->msg, kept);
	if (once != NULL)
		log_once_warn(once, line);
	else
		log_warn(NULL, "%s", line);
	err_clear(err);
	return 1;
}

int
live_take_task(const char *json, size_t len, int64_t fetched_at_ms, struct task_set *set,
	       bool raw_kept, struct log_once *once, struct err *err)
{
	return take_task_text(json, len, fetched_at_ms, set, raw_kept, once, false, err);
}

/* After a task was taken (the set had before tasks): its images, its raw JSON. */
static void
sink_taken(struct sink *k, size_t before, const char *json, size_t len,
	   int64_t fetched_at_ms)
{
	/* a new task is the last one; its images are looked up while the fetch goes on */
	if (k->images != NULL && k->set->len > before)
		image_fetch_want_task(k->images, &k->set->tasks[k->set->len - 1]);
	if (k->extra != NULL && k->extra->keep_raw) {
		struct live_result *r = k->extra;
		r->raw = xreallocarray(r->raw, r->nraw + 1, sizeof *r->raw);
		r->raw[r->nraw].json = xstrndup(json, len);
		r->raw[r->nraw].len = len;
		r->raw[r->nraw].fetched_at_ms = fetched_at_ms;
		r->nraw++;
	}
}

static int
take_task(void *arg, const char *json, size_t len, int64_t fetched_at_ms, struct err *err)
{
	struct sink *k = arg;
	size_t before = k->set->len;
	bool keep_raw = k->extra != NULL && k->extra->keep_raw;
	/* ecs_fetch's texts the reader below was not sure of: as ECS sent them (ecs_scan
	 * gives answers with a key twice to jansson) or json_dumps' of jansson's DOM */
	int rc = take_task_text(json, len, fetched_at_ms, k->set, keep_raw, k->warned, true, err);

	if (rc < 0)
		return -1;
	sink_taken(k, before, json, len, fetched_at_ms);
	return rc;
}

/* A DescribeTasks answer's tasks, read by the worker that got the answer in its one pass
 * over it (ecs_task_reader): in a batch pool that the set adopts whole, each derived
 * there, so that this thread only takes them (task_set_take_derived; issue 35). Read as
 * input_parse_task_json_with() reads a task when taskscan is sure of it; a task it is not
 * sure of comes as text to take_task(), which words the warnings as before. */
struct read_block {
	struct read_block *next;
	size_t used, cap;
	char text[];
};

struct read_batch {
	struct task_strpool *pool;
	struct task *tasks;
	/* each task's whole ARN for the fetch (read's *arn), kept until the batch is freed: the
	 * tasks keep theirs in two parts (task.h). Their texts one after another in blocks
	 * that never move (one malloc an answer, not one a task) */
	const char **arns;
	struct read_block *texts;
	size_t n, cap;
};

/* a copy of s in b's blocks, until b is freed */
static const char *
read_batch_text(struct read_batch *b, const char *s)
{
	size_t n = strlen(s) + 1;
	struct read_block *k = b->texts;
	char *at;

	if (k == NULL || k->cap - k->used < n) {
		/* a DescribeTasks answer's 100 ARNs of ~90 bytes in one */
		size_t cap = n > 16384 ? n : 16384;

		k = xmalloc(sizeof *k + cap);
		k->next = b->texts;
		k->used = 0;
		k->cap = cap;
		b->texts = k;
	}
	at = k->text + k->used;
	memcpy(at, s, n);
	k->used += n;
	return at;
}

static void *
read_batch_new(void *arg)
{
	struct read_batch *b = xcalloc(1, sizeof *b);

	(void)arg;
	b->pool = task_strpool_new();
	/* room for a whole answer (DescribeTasks describes at most 100 tasks): the array of
	 * tasks is not copied four times growing from 16 */
	b->cap = 100;
	b->tasks = xreallocarray(NULL, b->cap, sizeof *b->tasks);
	b->arns = xreallocarray(NULL, b->cap, sizeof *b->arns);
	return b;
}

static void
read_batch_free(void *arg, void *batch)
{
	struct read_batch *b = batch;

	(void)arg;
	task_strpool_free(b->pool);   /* what the set did not take */
	while (b->texts != NULL) {
		struct read_block *next = b->texts->next;

		free(b->texts);
		b->texts = next;
	}
	free(b->arns);
	free(b->tasks);
	free(b);
}

static int
read_task(void *arg, void *batch, struct jsonscan *sc, size_t *slot, const char **arn,
	  int64_t *created_ms)
{
	struct read_batch *b = batch;
	struct task_arn_buf ab;
	struct task *t;
	size_t cap = b->cap;

	(void)arg;
	b->tasks = xgrow(b->tasks, b->n + 1, &b->cap, sizeof *b->tasks);
	if (b->cap != cap)
		b->arns = xreallocarray(b->arns, b->cap, sizeof *b->arns);
	t = &b->tasks[b->n];
	task_init_pool(t, b->pool);
	if (taskscan_task_at(sc, t, b->n > 0 ? &b->tasks[b->n - 1] : NULL) != 0)
		return -1;
	if (b->n > 0)
		task_edit_profile(t)->source = b->tasks[b->n - 1].prof->source;   /* "live" in the pool already */
	else
		task_str(t, &task_edit_profile(t)->source, "live");
	task_derive(t);
	b->arns[b->n] = task_has_arn(t) ? read_batch_text(b, task_arn(t, &ab)) : NULL;
	*slot = b->n++;
	*arn = b->arns[*slot];
	*created_ms = task_ts(t, TS_CREATED);
	return 0;
}

static int
take_read(void *arg, void *batch, size_t slot, const char *json, size_t len,
	  int64_t fetched_at_ms, struct err *err)
{
	struct sink *k = arg;
	struct read_batch *b = batch;
	size_t before = k->set->len;

	(void)err;
	task_set_ts(&b->tasks[slot], TS_FETCHED, fetched_at_ms);
	task_set_take_derived(k->set, &b->tasks[slot], NULL);
	sink_taken(k, before, json, len, fetched_at_ms);
	return 0;
}

static const struct ecs_task_reader live_reader = {
	read_batch_new, read_batch_free, read_task, take_read, NULL
};

struct live_job {
	struct live_session *s;
	struct task_set *out;
	struct live_result *extra;
	struct sink k;
	struct ecs_query q;            /* borrowed by f until ecs_fetch_free() */
	struct ecs_fetch *f;           /* NULL once the tasks are in (or it failed) */
	struct ecs_fetch_stats st;     /* the fetch's, kept when f is freed */
	size_t before_fetch;           /* requests made before the task fetch */
	int64_t t0;
	int state;                     /* 1 running, 0 done, -1 failed */
};

int
live_session_fetch_start(struct live_session *s, struct task_set *out,
			 struct live_result *extra, struct live_job **jp, struct err *err)
{
	const struct live_options *o = &s->o;
	struct live_job *j = xcalloc(1, sizeof *j);
	struct ecs_query *q = &j->q;

	*jp = NULL;
	j->s = s;
	j->out = out;
	j->extra = extra;
	j->k = (struct sink){ out, extra, s->images, &s->warned };
	j->t0 = timeutil_now_ms();
	j->state = 1;
	q->cluster = o->cluster;
	q->services = o->services;
	q->nservices = o->nservices;
	q->family = o->family;
	q->started_by = o->started_by;
	q->running = o->running;
	q->stopped = o->stopped;
	q->tasks = o->tasks;
	q->ntasks = o->ntasks;
	/* a short id (313da244, as the table prints it) is no id DescribeTasks knows: list
	 * the cluster and let the SELECT filter match it as a prefix */
	for (size_t i = 0; i < o->ntasks; i++)
		if (strchr(o->tasks[i], '/') == NULL && strlen(o->tasks[i]) < 32)
			q->ntasks = 0;
	q->since_ms = TS_NONE;
	q->interrupt = s->interrupt;
	q->reader = &live_reader;
	if (o->since != NULL &&
	    timeutil_parse_since(o->since, timeutil_now_ms(), &q->since_ms) != 0) {
		err_set(err, ERR_USAGE,
			"--since: '%s' is neither a duration (30m, 2h, 1d) nor a time (2026-11-30, 2026-11-30T14:03, ISO 8601)",
			o->since);
		goto fail;
	}
	if (extra != NULL) {
		free(extra->region);
		free(extra->cluster);
		free(extra->endpoint);
		extra->region = xstrdup(s->ctx.region);
		extra->cluster = xstrdup(o->cluster ? o->cluster : "default");
		extra->endpoint = xstrdup_or_null(s->ctx.endpoint);
		if (extra->want_services && o->nservices > 0) {
			/* asked by the fetch's threads, before the tasks: the caller (the
			 * TUI's screen) does not wait for it */
			ecs_service_list_cleanup(&extra->services);
			q->services_out = &extra->services;
			q->describe_services = o->services;
			q->ndescribe_services = o->nservices;
		}
		if (extra->reuse_from != NULL) {
			if (s->reuse == NULL)
				s->reuse = live_reuse_new(s->o.log);
			if (live_reuse_prepare(s->reuse, s->client, extra->reuse_from, out,
					       s->images, &j->before_fetch, err) != 0)
				goto fail;
			q->known = live_reuse_known;
			q->reuse = live_reuse_take;
			q->known_arg = s->reuse;
		}
	}
	if (ecs_fetch_start(s->client, q, &j->f, err) != 0)
		goto fail;
	*jp = j;
	return 0;
fail:
	free(j);
	return -1;
}

/* The tasks are in: the counters, and the summary line --verbose prints. */
static void
job_tasks_done(struct live_job *j)
{
	ecs_fetch_progress(j->f, &j->st);
	ecs_fetch_free(j->f);
	j->f = NULL;
	if (j->extra != NULL) {
		j->extra->stats = j->st;
		j->extra->requests = j->before_fetch + j->st.requests;
	}
}

int
live_job_poll(struct live_job *j, int64_t wait_ms, struct err *err)
{
	const struct live_options *o = &j->s->o;
	int rc;

	if (j->state != 1) {
		if (j->state < 0)
			err_set(err, ERR_INTERNAL, "live_job_poll: the fetch is over");
		return j->state;
	}
	if (j->f != NULL) {
		rc = ecs_fetch_poll(j->f, wait_ms, take_task, &j->k, err);
		if (rc == 1)
			return 1;
		job_tasks_done(j);
		if (rc < 0) {
			j->state = -1;
			return -1;
		}
		wait_ms = 0;   /* the next polls wait for the images */
	}
	if (j->s->images != NULL) {
		struct image_fetch_stats is;

		if (!image_fetch_wait(j->s->images, wait_ms))
			return 1;
		image_fetch_collect(j->s->images, &j->out->images, &is);
		log_info(j->s->o.log, "images: %zu distinct, %zu from the cache, %zu looked up in ECR "
			 "(%zu requests, %zu throttled), %zu failed, %zu not in private ECR; "
			 "done %.3f s after the tasks",
			 is.wanted, is.cached, is.looked_up, is.requests, is.throttled, is.failed,
			 is.not_ecr, (double)is.wait_ms / 1000.0);
	}
	log_info(j->s->o.log, "%s: %zu tasks listed in %zu pages, %zu described, %zu kept, %zu skipped; "
		 "%zu requests, %zu throttled; %.3f s", o->cluster ? o->cluster : "default",
		 j->st.listed, j->st.pages, j->st.described, j->st.kept, j->st.skipped,
		 j->st.requests, j->st.throttled, (double)(timeutil_now_ms() - j->t0) / 1000.0);
	j->state = 0;
	return 0;
}

void
live_job_progress(struct live_job *j, struct live_progress *p)
{
	memset(p, 0, sizeof *p);
	if (j->f != NULL) {
		ecs_fetch_progress(j->f, &j->st);
		p->tasks = j->st;
		return;
	}
	p->tasks = j->st;
	p->tasks.listed_all = true;
	if (j->state == 1 && j->s->images != NULL) {
		p->images = true;
		image_fetch_progress(j->s->images, &p->images_wanted, &p->images_done);
	}
}

void
live_job_cancel(struct live_job *j)
{
	if (j->f != NULL)
		ecs_fetch_cancel(j->f);
}

void
live_job_free(struct live_job *j)
{
	if (j == NULL)
		return;
	ecs_fetch_free(j->f);
	free(j);
}

int
live_session_fetch(struct live_session *s, struct task_set *out, struct live_result *extra,
		   struct err *err)
{
	struct live_job *j;
	int rc;

	if (live_session_fetch_start(s, out, extra, &j, err) != 0)
		return -1;
	while ((rc = live_job_poll(j, 1000, err)) == 1)
		;
	live_job_free(j);
	return rc;
}

int
live_fetch(const struct live_options *o, struct task_set *out, struct live_result *extra,
	   struct err *err)
{
	struct live_session *s;
	int rc;

	if (live_session_new(o, &s, err) != 0)
		return -1;
	rc = live_session_fetch(s, out, extra, err);
	live_session_free(s);
	return rc;
}

int
live_record(const struct live_options *o, const char *file, struct err *err)
{
	struct task_set set;
	struct live_result r;
	struct live_session *s = NULL;
	char **lines = NULL;
	struct input_key *keys = NULL;   /* lines[i]'s key, read back when it was made */
	size_t nlines = 0, nkeys = 0, added = 0, updated = 0;
	int ret = -1;

	if (file == NULL || *file == '\0' || strcmp(file, "-") == 0)
		return err_set(err, ERR_USAGE, "record: name the recording with -o FILE "
			       "(it is merged, so it cannot be stdout)");
	task_set_init(&set);
	live_result_init(&r);
	r.keep_raw = true;
	r.want_services = o->nservices > 0;   /* their deployments and events too */
	/* fetch everything before touching the file: a failed run leaves it as it was */
	if (live_session_new(o, &s, err) != 0 || live_session_fetch(s, &set, &r, err) != 0)
		goto out;
	lines = xcalloc(r.nraw ? r.nraw : 1, sizeof *lines);
	keys = xcalloc(r.nraw ? r.nraw : 1, sizeof *keys);
	nkeys = r.nraw;
	for (size_t i = 0; i < r.nraw; i++) {
		lines[nlines] = record_line_new_key(r.raw[i].json, r.raw[i].len, r.region,
						    r.cluster, r.raw[i].fetched_at_ms,
						    &keys[nlines], err);
		if (lines[nlines] == NULL) {
			/* a task without a readable identity cannot be merged: the others are
			 * recorded all the same */
			if (err->code != ERR_PARSE)
				goto out;
			err_clear(err);   /* live_take_task said so when it skipped it */
			continue;
		}
		nlines++;
	}
	for (size_t i = 0; i < r.services.n; i++)
		record_service_lines(r.services.v[i].raw_json, r.region, r.cluster,
				     timeutil_now_ms(), &lines, &nlines);
	/* image facts beside the tasks, one line per digest, so report shows them offline */
	for (size_t i = 0; i < image_set_len(set.images); i++) {
		const struct image_facts *f = image_set_at(set.images, i);

		if (f->status != IMAGE_OK)
			continue;
		lines = xreallocarray(lines, nlines + 1, sizeof *lines);
		lines[nlines++] = image_record_line(f, r.region);
	}
	/* more lines on the same session (a scale-out's source documents, scaleout_live.h) */
	if (o->more_lines != NULL &&
	    o->more_lines(o->more_arg, s, r.region, r.cluster, &lines, &nlines, err) != 0)
		goto out;
	/* the service and image lines after the tasks' have no key yet: the merge reads them */
	if (nlines > nkeys) {
		keys = xreallocarray(keys, nlines, sizeof *keys);
		memset(keys + nkeys, 0, (nlines - nkeys) * sizeof *keys);
		nkeys = nlines;
	}
	if (record_merge_keyed(o->log, file, lines, keys, nlines, &added, &updated, err) != 0)
		goto out;
	log_info(o->log, "%s: %zu tasks fetched, %zu new, %zu updated", file, nlines, added,
		 updated);
	ret = 0;
out:
	for (size_t i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	for (size_t i = 0; i < nkeys; i++)
		input_key_cleanup(&keys[i]);
	free(keys);
	live_result_cleanup(&r);
	task_set_cleanup(&set);
	live_session_free(s);
	return ret;
}

int
live_images(const struct live_options *o, const char *const *images, size_t nimages,
	    struct task_set *out, struct err *err)
{
	struct live_session *s;
	struct image_fetch_stats is;

	if (nimages == 0)
		return live_fetch(o, out, NULL, err);
	for (size_t i = 0; i < nimages; i++) {
		struct image_ref r;

		if (image_ref_parse(images[i], &r) != 0)
			return err_set(err, ERR_USAGE, "--image '%s': expected REPO[:TAG|@DIGEST], "
				       "e.g. 123456789012.dkr.ecr.us-east-1.amazonaws.com/web:1.2",
				       images[i]);
		image_ref_cleanup(&r);
	}
	if (live_session_new(o, &s, err) != 0)
		return -1;
	for (size_t i = 0; i < nimages; i++)
		image_fetch_want(s->images, images[i], NULL, "linux/amd64");
	image_fetch_collect(s->images, &out->images, &is);
	log_info(o->log, "images: %zu asked, %zu from the cache, %zu looked up in ECR (%zu requests)",
		 is.wanted, is.cached, is.looked_up, is.requests);
	live_session_free(s);
	return 0;
}
