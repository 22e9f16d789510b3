/* image_fetch: the image lookups of a run, on worker threads (each with its own
 * transport), per (digest, platform): cache, then ECR (BatchGetImage, DescribeImages,
 * the platform manifest, ListImageReferrers, the config's history). One ECR client per
 * registry region. Warnings are collected and printed by the calling thread. */
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ecsprof/ecr.h"
#include "ecsprof/image_fetch.h"
#include "ecsprof/image_io.h"
#include "image_cache.h"
#include "image_fetch_int.h"
#include "ecsprof/log.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define CONFIG_MAX ((size_t)4 << 20)

static void
warn(struct image_fetch *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
warn(struct image_fetch *f, const char *fmt, ...)
{
	char line[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->nwarnings; i++)
		if (strcmp(f->warnings[i], line) == 0) {
			pthread_mutex_unlock(&f->lock);
			return;
		}
	f->warnings = xreallocarray(f->warnings, f->nwarnings + 1, sizeof *f->warnings);
	f->warnings[f->nwarnings++] = xstrdup(line);
	pthread_mutex_unlock(&f->lock);
}

/* the cache: image_cache.c */
static bool
cache_read(struct image_fetch *f, const char *digest, const char *platform,
    struct image_facts *out)
{
	return f->cache_dir != NULL && image_cache_read(f->cache_dir, digest, platform, out);
}

static void
cache_write(struct image_fetch *f, const struct image_facts *facts)
{
	char why[400];

	if (f->cache_dir != NULL && image_cache_write(f->cache_dir, facts, why, sizeof why) != 0)
		warn(f, "image cache: %s", why);
}

/* ---- one lookup ----------------------------------------------------------------------- */

static int
fetch_creds(void *arg, struct aws_creds *out, struct err *err)
{
	struct image_fetch *f = arg;
	return creds_get(f->o.ctx, out, err);
}

static struct ecr_client *
client_for(struct image_fetch *f, const char *region, struct err *err)
{
	struct ecr_client_options eo = { 0 };
	struct ecr_client *c = NULL;
	char *url = NULL;

	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->nclients; i++)
		if (strcmp(f->clients[i].region, region) == 0) {
			c = f->clients[i].c;
			break;
		}
	if (c == NULL && ecr_endpoint(f->o.ctx, region, &url, err) == 0) {
		/* the registry's region, the fetch's own debug and log (not the context's) */
		eo.common.region = region;
		eo.common.max_attempts = f->o.ctx->max_attempts;
		eo.common.creds = fetch_creds;
		eo.common.creds_arg = f;
		eo.common.debug = f->o.debug;
		eo.common.log = f->o.log;
		eo.common.cancel = &f->cancel;
		eo.endpoint = url;
		if (ecr_client_new(&eo, &c, err) == 0) {
			f->clients = xreallocarray(f->clients, f->nclients + 1, sizeof *f->clients);
			f->clients[f->nclients].region = xstrdup(region);
			f->clients[f->nclients++].c = c;
		}
		free(url);
	}
	pthread_mutex_unlock(&f->lock);
	return c;
}

static bool
denied(const struct err *e)
{
	return strstr(e->aws_type, "AccessDenied") != NULL ||
	    strcmp(e->aws_type, "UnauthorizedOperation") == 0;
}

static bool
has_repo(const char *list, const char *repo)
{
	size_t n = strlen(repo);

	for (const char *p = list; (p = strstr(p, repo)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return true;
	return false;
}

static void
note_denied(struct image_fetch *f, const char *op, const char *lost, const char *repo,
    const char *why)
{
	struct denial *d = NULL;

	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->ndenials; i++) {
		if (strcmp(f->denials[i].op, op) != 0 || (f->denials[i].why == NULL) != (why == NULL))
			continue;
		if (has_repo(f->denials[i].repos, repo))
			goto done;
		if (!f->denials[i].printed)
			d = &f->denials[i];
	}
	if (d != NULL) {
		char *r = xasprintf("%s, %s", d->repos, repo);

		free(d->repos);
		d->repos = r;
	} else {
		f->denials = xreallocarray(f->denials, f->ndenials + 1, sizeof *f->denials);
		d = &f->denials[f->ndenials++];
		d->op = xstrdup(op);
		d->lost = xstrdup(lost);
		d->repos = xstrdup(repo);
		d->why = xstrdup_or_null(why);
		d->printed = false;
	}
done:
	pthread_mutex_unlock(&f->lock);
}

/* What a missing permission costs, in the words of the warning. An optional call (one
 * whose loss leaves the other facts standing) that fails otherwise is one line too. */
static void
warn_call(struct image_fetch *f, const char *what, const char *repo, const char *op,
    const char *lost, const struct err *e, bool optional)
{
	if (denied(e))
		note_denied(f, op, lost, repo, NULL);
	else if (optional)
		note_denied(f, op, lost, repo, e->msg);
	else
		warn(f, "%s: %s: %s", what, op, e->msg);
}

static void
set_failure(struct image_facts *facts, enum image_status st, const struct err *e)
{
	facts->status = st;
	free(facts->error);
	facts->error = xstrdup(e->msg);
}

/* The manifest could not be read: the image's facts are unknown, with the reason (never
 * an image of 0 layers and 0 bytes, which would be advised on as "too small"). */
static void
unreadable(struct image_fetch *f, struct image_facts *x, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
unreadable(struct image_fetch *f, struct image_facts *x, const char *who, const char *fmt, ...)
{
	char why[400];
	struct err e;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	err_clear(&e);
	err_set(&e, ERR_PARSE, "%s", why);   /* server text: made terminal-safe */
	set_failure(x, IMAGE_ERROR, &e);
	warn(f, "image %s: its manifest cannot be read, so its size, layers and SOCI index are "
	    "unknown: %s", who, e.msg);
}

static void
layers_into(struct image_facts *facts, struct image_manifest_info *m)
{
	facts->layers = m->layers;
	facts->nlayers = m->nlayers;
	m->layers = NULL;
	m->nlayers = 0;
	facts->size_bytes = 0;
	for (size_t i = 0; i < facts->nlayers; i++)
		facts->size_bytes += facts->layers[i].size;
	facts->config_digest = m->config_digest;
	m->config_digest = NULL;
}

/* Replaces x by the cached facts of its digest, keeping how this run refers to it. */
static bool
from_cache(struct image_fetch *f, struct image_facts *x, const char *platform)
{
	struct image_facts c;

	if (x->digest == NULL || !cache_read(f, x->digest, platform, &c))
		return false;
	free(c.image);
	c.image = x->image;   /* the reference this run knows it by */
	x->image = NULL;
	image_facts_cleanup(x);
	*x = c;
	pthread_mutex_lock(&f->lock);
	f->st.cached++;
	pthread_mutex_unlock(&f->lock);
	return true;
}

static void
lookup(struct image_fetch *f, const struct http_transport *t, struct job *j)
{
	struct image_facts *x = &j->facts;
	struct image_ref ref;
	struct ecr_client *c;
	struct image_manifest_info m = { 0 };
	struct err e;
	char *json = NULL, *manifest = NULL, *mt = NULL;
	const char *who = j->image;

	err_clear(&e);
	x->digest = xstrdup_or_null(j->digest);
	x->platform = xstrdup(j->platform);
	x->image = xstrdup(j->image);
	if (image_ref_parse(j->image, &ref) != 0) {
		err_set(&e, ERR_PARSE, "'%s' is not an image reference", j->image);
		set_failure(x, IMAGE_ERROR, &e);
		warn(f, "image %s: not an image reference: no ECR facts", j->image);
		return;
	}
	x->registry = xstrdup(ref.registry);
	x->repository = xstrdup(ref.repository);
	if (!ref.private_ecr) {
		x->status = IMAGE_NOT_ECR;
		warn(f, "image %s is not in private ECR (%s): no image facts", j->image, ref.registry);
		goto out;
	}
	if (x->digest == NULL && ref.digest != NULL)
		x->digest = xstrdup(ref.digest);
	if (from_cache(f, x, j->platform))
		goto out;
	c = client_for(f, ref.region, &e);
	if (c == NULL) {
		set_failure(x, IMAGE_ERROR, &e);
		warn(f, "image %s: %s", who, e.msg);
		goto out;
	}
	pthread_mutex_lock(&f->lock);
	f->st.looked_up++;
	pthread_mutex_unlock(&f->lock);
	/* DescribeImages: tags, push time, size; it resolves a tag to a digest too */
	if ((x->digest != NULL ? image_batch_get(f, 'D', c, t, &ref, x->digest, &json, &e)
	    : ecr_describe_image(c, t, ref.account, ref.repository, NULL, ref.tag, &json,
	    &e)) == 0) {
		bool had_digest = x->digest != NULL;

		image_parse_describe_answer(json, strlen(json), x->digest, x, &e);
		free(json);
		json = NULL;
		x->status = IMAGE_OK;
		/* a tag resolved to a digest we may know already */
		if (!had_digest && from_cache(f, x, j->platform))
			goto out;
	} else if (strcmp(e.aws_type, "RepositoryNotFoundException") == 0 ||
	    strcmp(e.aws_type, "ImageNotFoundException") == 0) {
		set_failure(x, IMAGE_NOT_FOUND, &e);
		warn(f, "image %s: %s", who, e.msg);
		goto out;
	} else {
		warn_call(f, who, ref.repository, "DescribeImages",
		    "image tags and push times not shown", &e, false);
		if (!denied(&e)) {
			set_failure(x, IMAGE_ERROR, &e);
			goto out;
		}
	}
	if (x->digest == NULL) {
		err_set(&e, ERR_AWS, "no digest for %s", who);
		set_failure(x, IMAGE_ERROR, &e);
		warn(f, "image %s: the digest is unknown (the task has none yet and DescribeImages "
		    "did not say)", who);
		goto out;
	}
	if (image_batch_get(f, 'B', c, t, &ref, x->digest, &json, &e) != 0 ||
	    image_parse_batch_answer(json, strlen(json), x->digest, &manifest, &mt, &e) != 0) {
		if (strcmp(e.aws_type, "ImageNotFound") == 0 ||
		    strcmp(e.aws_type, "RepositoryNotFoundException") == 0) {
			set_failure(x, IMAGE_NOT_FOUND, &e);
			warn(f, "image %s: %s", who, e.msg);
		} else {
			warn_call(f, who, ref.repository, "BatchGetImage",
			    "layers, compression and SOCI indexes not checked", &e, false);
			if (x->status != IMAGE_OK)
				set_failure(x, IMAGE_ERROR, &e);
		}
		goto out;
	}
	free(json);
	json = NULL;
	x->status = IMAGE_OK;
	free(x->media_type);
	x->media_type = mt;
	mt = NULL;
	if (image_parse_manifest(manifest, strlen(manifest), j->platform, &m, &e) != 0) {
		unreadable(f, x, who, "%s", e.msg);
		goto out;
	}
	if (m.is_index) {
		if (m.manifest_digest == NULL) {
			unreadable(f, x, who, "the image index has no %s manifest (it has: %s)",
			    j->platform, m.platforms && *m.platforms ? m.platforms : "none");
			goto out;
		}
		x->manifest_digest = xstrdup(m.manifest_digest);
		if (m.soci_v2_digest != NULL) {
			x->soci = IMAGE_SOCI_V2;
			x->soci_index_digest = xstrdup(m.soci_v2_digest);
		}
		image_manifest_info_cleanup(&m);
		free(manifest);
		manifest = NULL;
		if (image_batch_get(f, 'B', c, t, &ref, x->manifest_digest, &json, &e) != 0 ||
		    image_parse_batch_answer(json, strlen(json), x->manifest_digest, &manifest,
		    &mt, &e) != 0 ||
		    image_parse_manifest(manifest, strlen(manifest), NULL, &m, &e) != 0) {
			unreadable(f, x, who, "platform manifest %s: %s", x->manifest_digest, e.msg);
			goto out;
		}
		/* one level of index only: an index in an index (nested 200 deep, a cycle)
		 * is not followed */
		if (m.is_index) {
			unreadable(f, x, who, "platform manifest %s is an image index again "
			    "(nested indexes are not followed)", x->manifest_digest);
			goto out;
		}
		free(json);
		json = NULL;
	} else {
		x->manifest_digest = xstrdup(x->digest);
		if (m.soci_v2_digest != NULL) {
			x->soci = IMAGE_SOCI_V2;
			x->soci_index_digest = xstrdup(m.soci_v2_digest);
		}
	}
	layers_into(x, &m);
	if (x->soci != IMAGE_SOCI_V2)
		x->soci = IMAGE_SOCI_NONE;
	/* SOCI index v1: a referrer of the platform manifest */
	if (ecr_list_referrers(c, t, ref.account, ref.repository, x->manifest_digest,
	    IMAGE_SOCI_V1_TYPE, &json, &e) == 0) {
		char *v1 = NULL;

		x->v1_checked = true;
		if (image_parse_referrers(json, strlen(json), &v1, &e) == 0 && v1 != NULL &&
		    x->soci != IMAGE_SOCI_V2) {
			x->soci = IMAGE_SOCI_V1;
			free(x->soci_index_digest);
			x->soci_index_digest = v1;
			v1 = NULL;
		}
		free(v1);
		free(json);
		json = NULL;
	} else {
		warn_call(f, who, ref.repository, "ListImageReferrers",
		    "SOCI v1 indexes not checked", &e, true);
	}
	/* the config's history names the build step of each layer */
	if (x->config_digest != NULL) {
		char *url = NULL, *body = NULL;
		size_t len = 0;

		if (ecr_download_url(c, t, ref.account, ref.repository, x->config_digest, &url,
		    &e) != 0) {
			warn_call(f, who, ref.repository, "GetDownloadUrlForLayer",
			    "the build step of each layer not shown", &e, true);
		} else if (ecr_get_url(f->o.log, t, url, CONFIG_MAX, &f->cancel, &body, &len, &e) != 0) {
			warn(f, "image %s: image config: %s", who, e.msg);
		} else if (image_parse_config(body, len, x, &e) != 0) {
			warn(f, "image %s: image config: %s", who, e.msg);
		}
		free(url);
		free(body);
	}
	x->fetched_ms = timeutil_now_ms();
	cache_write(f, x);
out:
	if (x->status == IMAGE_ERROR) {
		pthread_mutex_lock(&f->lock);
		f->st.failed++;
		pthread_mutex_unlock(&f->lock);
	}
	free(json);
	free(manifest);
	free(mt);
	image_manifest_info_cleanup(&m);
	image_ref_cleanup(&ref);
}

/* ---- the workers ---------------------------------------------------------------------- */

struct worker_arg {
	struct image_fetch *f;
	size_t i;
};

static void *
worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct image_fetch *f = wa->f;
	const struct http_transport *t = &f->transports[wa->i];

	free(wa);
	pthread_mutex_lock(&f->lock);
	for (;;) {
		struct job j;
		size_t at;

		while (!f->stop && f->next == f->njobs)
			pthread_cond_wait(&f->more, &f->lock);
		if (f->next == f->njobs)
			break;
		at = f->next++;
		f->busy++;
		/* work on a copy: the array may move while the lock is not held */
		j = f->jobs[at];
		pthread_mutex_unlock(&f->lock);
		image_facts_init(&j.facts);
		lookup(f, t, &j);
		pthread_mutex_lock(&f->lock);
		f->jobs[at].facts = j.facts;
		f->jobs[at].done = true;
		f->busy--;
		pthread_cond_broadcast(&f->idle);
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static char *
default_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x != NULL && *x == '/')
		return xasprintf("%s/ecsprof", x);
	if (home != NULL && *home == '/')
		return xasprintf("%s/.cache/ecsprof", home);
	return NULL;
}

int
image_fetch_new(const struct image_fetch_options *o, struct image_fetch **out, struct err *err)
{
	struct image_fetch *f = xcalloc(1, sizeof *f);
	size_t n = o->concurrency > 0 ? (size_t)o->concurrency : 4;

	*out = NULL;
	if (n > IMAGE_MAX_THREADS)
		n = IMAGE_MAX_THREADS;
	f->o = *o;
	f->cache_dir = o->no_cache ? NULL : o->cache_dir ? xstrdup(o->cache_dir)
	    : default_cache_dir();
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->more, NULL);
	pthread_cond_init(&f->idle, NULL);
	pthread_cond_init(&f->answered, NULL);
	for (size_t i = 0; i < n; i++) {
		struct worker_arg *wa;

		if (o->transport_new(o->transport_arg, &f->transports[i], err) != 0)
			break;
		wa = xmalloc(sizeof *wa);
		wa->f = f;
		wa->i = i;
		if (pthread_create(&f->threads[i], NULL, worker, wa) != 0) {
			free(wa);
			if (o->transport_free != NULL)
				o->transport_free(o->transport_arg, &f->transports[i]);
			err_set(err, ERR_INTERNAL, "image lookups: cannot start a thread");
			break;
		}
		f->nthreads++;
	}
	if (f->nthreads == 0) {
		image_fetch_free(f);
		return -1;
	}
	*out = f;
	return 0;
}

void
image_fetch_free(struct image_fetch *f)
{
	if (f == NULL)
		return;
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	f->njobs = f->next;    /* the lookups not started are dropped */
	/* and those in flight give up (a quitting TUI must not wait for their retries) */
	__atomic_store_n(&f->cancel, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&f->more);
	pthread_mutex_unlock(&f->lock);
	for (size_t i = 0; i < f->nthreads; i++) {
		pthread_join(f->threads[i], NULL);
		if (f->o.transport_free != NULL)
			f->o.transport_free(f->o.transport_arg, &f->transports[i]);
	}
	for (size_t i = 0; i < f->jcap && i < f->njobs; i++) {
		free(f->jobs[i].image);
		free(f->jobs[i].digest);
		free(f->jobs[i].platform);
		image_facts_cleanup(&f->jobs[i].facts);
	}
	for (size_t i = f->njobs; i < f->jcap; i++) {
		/* dropped before they started */
		if (f->jobs[i].image == NULL)
			continue;
		free(f->jobs[i].image);
		free(f->jobs[i].digest);
		free(f->jobs[i].platform);
	}
	free(f->jobs);
	for (size_t i = 0; i < f->nlater; i++) {
		free(f->later[i].image);
		free(f->later[i].platform);
	}
	free(f->later);
	for (size_t i = 0; i < f->nclients; i++) {
		ecr_client_free(f->clients[i].c);
		free(f->clients[i].region);
	}
	free(f->clients);
	for (size_t i = 0; i < f->nwarnings; i++)
		free(f->warnings[i]);
	free(f->warnings);
	for (size_t i = 0; i < f->ndenials; i++) {
		free(f->denials[i].op);
		free(f->denials[i].lost);
		free(f->denials[i].repos);
		free(f->denials[i].why);
	}
	free(f->denials);
	free(f->cache_dir);
	pthread_cond_destroy(&f->more);
	pthread_cond_destroy(&f->idle);
	pthread_cond_destroy(&f->answered);
	image_batch_free(f);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/* Under f->lock: queues a lookup for the workers. */
static void
queue_job(struct image_fetch *f, char *image, char *digest, char *platform)
{
	struct job *j;

	if (f->njobs == f->jcap) {
		size_t old = f->jcap;

		f->jobs = xgrow(f->jobs, f->njobs + 1, &f->jcap, sizeof *f->jobs);
		memset(f->jobs + old, 0, (f->jcap - old) * sizeof *f->jobs);
	}
	j = &f->jobs[f->njobs++];
	memset(j, 0, sizeof *j);
	j->image = image;
	j->digest = digest;
	j->platform = platform;
	image_facts_init(&j->facts);
	f->st.wanted++;
	pthread_cond_signal(&f->more);
}

/* Under f->lock: a job already covers this reference (with a digest, a job of the same
 * reference; without, any job of the same reference and platform). */
static bool
covered(const struct job *v, size_t n, const char *image, const char *digest,
    const char *platform)
{
	for (size_t i = 0; i < n; i++) {
		/* a digest names the image wherever it is pushed: one lookup per digest */
		if (digest != NULL ? str_same(v[i].digest, digest) &&
				     str_same(v[i].platform, platform)
				   : str_same(v[i].image, image) && str_same(v[i].platform, platform))
			return true;
	}
	return false;
}

void
image_fetch_want(struct image_fetch *f, const char *image, const char *digest,
    const char *platform)
{
	if (image == NULL || *image == '\0')
		return;
	if (digest != NULL && *digest == '\0')
		digest = NULL;
	if (platform == NULL)
		platform = "linux/amd64";
	pthread_mutex_lock(&f->lock);
	if (covered(f->jobs, f->njobs, image, digest, platform)) {
		pthread_mutex_unlock(&f->lock);
		return;
	}
	if (digest != NULL) {
		queue_job(f, xstrdup(image), xstrdup(digest), xstrdup(platform));
		pthread_mutex_unlock(&f->lock);
		return;
	}
	/* A task still pulling has no digest; a sibling that ran the same reference usually
	 * has, and its lookup (cached by digest) answers for both. Resolving the tag now would
	 * cost a DescribeImages call on every run, warm cache or not: wait until collect. */
	if (!covered(f->later, f->nlater, image, NULL, platform)) {
		struct job *l;

		f->later = xgrow(f->later, f->nlater + 1, &f->lcap, sizeof *f->later);
		l = &f->later[f->nlater++];
		memset(l, 0, sizeof *l);
		l->image = xstrdup(image);
		l->platform = xstrdup(platform);
	}
	pthread_mutex_unlock(&f->lock);
}

void
image_fetch_want_task(struct image_fetch *f, const struct task *t)
{
	struct digest_buf b;

	for (size_t i = 0; i < t->ncontainers; i++)
		image_fetch_want(f, t->containers[i].prof->image,
				 container_digest(&t->containers[i], &b), image_task_platform(t));
}

/* Under f->lock: the references no digest came for are resolved by their tags now. */
static void
queue_later(struct image_fetch *f)
{
	for (size_t i = 0; i < f->nlater; i++) {
		if (covered(f->jobs, f->njobs, f->later[i].image, NULL, f->later[i].platform)) {
			free(f->later[i].image);
			free(f->later[i].platform);
			continue;
		}
		queue_job(f, f->later[i].image, NULL, f->later[i].platform);
	}
	f->nlater = 0;
	pthread_cond_broadcast(&f->more);
}

bool
image_fetch_wait(struct image_fetch *f, int64_t wait_ms)
{
	int64_t until = timeutil_now_ms() + (wait_ms > 0 ? wait_ms : 0);
	bool idle;

	pthread_mutex_lock(&f->lock);
	queue_later(f);
	while ((f->next < f->njobs || f->busy > 0) && timeutil_now_ms() < until) {
		struct timespec ts;

		timeutil_abstime_in(until - timeutil_now_ms(), &ts);
		pthread_cond_timedwait(&f->idle, &f->lock, &ts);
	}
	idle = f->next >= f->njobs && f->busy == 0;
	pthread_mutex_unlock(&f->lock);
	return idle;
}

void
image_fetch_progress(struct image_fetch *f, size_t *wanted, size_t *done)
{
	pthread_mutex_lock(&f->lock);
	*wanted = f->njobs + f->nlater;
	*done = f->next - f->busy;
	pthread_mutex_unlock(&f->lock);
}

void
image_fetch_collect(struct image_fetch *f, struct image_set **set, struct image_fetch_stats *st)
{
	size_t req = 0, thr = 0;
	int64_t t0 = timeutil_now_ms();

	pthread_mutex_lock(&f->lock);
	queue_later(f);
	while (f->next < f->njobs || f->busy > 0)
		pthread_cond_wait(&f->idle, &f->lock);
	f->st.wait_ms = timeutil_now_ms() - t0;
	if (*set == NULL)
		*set = image_set_new();
	f->st.not_ecr = 0;
	for (size_t i = 0; i < f->njobs; i++) {
		struct image_facts copy;

		if (!f->jobs[i].done || f->jobs[i].facts.digest == NULL)
			continue;
		f->st.not_ecr += f->jobs[i].facts.status == IMAGE_NOT_ECR;
		image_facts_copy(&copy, &f->jobs[i].facts);
		image_set_put(*set, &copy);
	}
	for (; f->warned < f->nwarnings; f->warned++)
		log_warn(f->o.log, "%s", f->warnings[f->warned]);
	for (size_t i = 0; i < f->ndenials; i++) {
		struct denial *d = &f->denials[i];

		if (d->printed)
			continue;
		d->printed = true;
		if (d->why != NULL)
			log_warn(f->o.log, "ecr:%s failed: %s: %s (repository %s)", d->op, d->lost, d->why,
			    d->repos);
		else
			log_warn(f->o.log, "no ecr:%s: %s (repository %s; grant ecr:%s to see them)", d->op,
			    d->lost, d->repos, d->op);
	}
	for (size_t i = 0; i < f->nclients; i++) {
		size_t r, t;

		ecr_client_counts(f->clients[i].c, &r, &t);
		req += r;
		thr += t;
	}
	f->st.requests = req;
	f->st.throttled = thr;
	if (st != NULL)
		*st = f->st;
	pthread_mutex_unlock(&f->lock);
}
