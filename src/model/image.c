/* image: image facts, the set of them and image references (the per-task answers are
 * image_task.c's).
 * Pure model: no JSON and no network here (the facts are read in src/in/image_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/image.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

struct image_set {
	struct image_facts *v;
	size_t n, cap;
};

void
image_facts_init(struct image_facts *f)
{
	memset(f, 0, sizeof *f);
	f->pushed_ms = TS_NONE;
	f->fetched_ms = TS_NONE;
	f->size_bytes = -1;
}

void
image_facts_cleanup(struct image_facts *f)
{
	for (size_t i = 0; i < f->nlayers; i++) {
		free(f->layers[i].digest);
		free(f->layers[i].media_type);
		free(f->layers[i].created_by);
	}
	free(f->layers);
	free(f->digest);
	free(f->platform);
	free(f->image);
	free(f->registry);
	free(f->repository);
	free(f->tags);
	free(f->media_type);
	free(f->manifest_digest);
	free(f->config_digest);
	free(f->soci_index_digest);
	free(f->error);
	image_facts_init(f);
}

void
image_facts_copy(struct image_facts *dst, const struct image_facts *src)
{
	*dst = *src;
	dst->digest = xstrdup_or_null(src->digest);
	dst->platform = xstrdup_or_null(src->platform);
	dst->image = xstrdup_or_null(src->image);
	dst->registry = xstrdup_or_null(src->registry);
	dst->repository = xstrdup_or_null(src->repository);
	dst->tags = xstrdup_or_null(src->tags);
	dst->media_type = xstrdup_or_null(src->media_type);
	dst->manifest_digest = xstrdup_or_null(src->manifest_digest);
	dst->config_digest = xstrdup_or_null(src->config_digest);
	dst->soci_index_digest = xstrdup_or_null(src->soci_index_digest);
	dst->error = xstrdup_or_null(src->error);
	dst->layers = src->nlayers ? xcalloc(src->nlayers, sizeof *dst->layers) : NULL;
	for (size_t i = 0; i < src->nlayers; i++) {
		dst->layers[i] = src->layers[i];
		dst->layers[i].digest = xstrdup_or_null(src->layers[i].digest);
		dst->layers[i].media_type = xstrdup_or_null(src->layers[i].media_type);
		dst->layers[i].created_by = xstrdup_or_null(src->layers[i].created_by);
	}
}

struct image_set *
image_set_new(void)
{
	return xcalloc(1, sizeof(struct image_set));
}

void
image_set_free(struct image_set *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		image_facts_cleanup(&s->v[i]);
	free(s->v);
	free(s);
}

static bool
str_eq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static struct image_facts *
find_exact(const struct image_set *s, const char *digest, const char *platform)
{
	for (size_t i = 0; i < s->n; i++)
		if (str_eq(s->v[i].digest, digest) &&
		    (platform == NULL || str_eq(s->v[i].platform, platform)))
			return &s->v[i];
	return NULL;
}

/* Which of two facts about one key to keep: the one that knows more. */
static bool
better(const struct image_facts *a, const struct image_facts *b)
{
	if ((a->status == IMAGE_OK) != (b->status == IMAGE_OK))
		return a->status == IMAGE_OK;
	if (a->history != b->history)
		return a->history;
	if (a->v1_checked != b->v1_checked)
		return a->v1_checked;
	/* digests are immutable: with as much known, the facts already held stay */
	return false;
}

const struct image_facts *
image_set_put(struct image_set *s, struct image_facts *f)
{
	struct image_facts *have = find_exact(s, f->digest, f->platform ? f->platform : "");

	if (f->platform == NULL)
		f->platform = xstrdup("");
	if (have != NULL) {
		if (better(f, have)) {
			image_facts_cleanup(have);
			*have = *f;
		} else {
			image_facts_cleanup(f);
		}
		image_facts_init(f);
		return have;
	}
	s->v = xgrow(s->v, s->n + 1, &s->cap, sizeof *s->v);
	s->v[s->n] = *f;
	image_facts_init(f);
	return &s->v[s->n++];
}

const struct image_facts *
image_set_find(const struct image_set *s, const char *digest, const char *platform)
{
	const struct image_facts *f;

	if (s == NULL || digest == NULL)
		return NULL;
	if ((f = find_exact(s, digest, platform)) != NULL)
		return f;
	/* a task that ran the platform manifest of an index we know, or facts recorded
	 * without a platform */
	for (size_t i = 0; i < s->n; i++)
		if (str_eq(s->v[i].manifest_digest, digest))
			return &s->v[i];
	return platform != NULL ? find_exact(s, digest, NULL) : NULL;
}

size_t
image_set_len(const struct image_set *s)
{
	return s != NULL ? s->n : 0;
}

const struct image_facts *
image_set_at(const struct image_set *s, size_t i)
{
	return s != NULL && i < s->n ? &s->v[i] : NULL;
}

void
image_set_merge(struct image_set *dst, struct image_set *src)
{
	if (src == NULL)
		return;
	for (size_t i = 0; i < src->n; i++)
		image_set_put(dst, &src->v[i]);
	free(src->v);
	src->v = NULL;
	src->n = src->cap = 0;
}

/* ---- references ---------------------------------------------------------------------- */

void
image_ref_cleanup(struct image_ref *r)
{
	free(r->registry);
	free(r->repository);
	free(r->tag);
	free(r->digest);
	free(r->account);
	free(r->region);
	memset(r, 0, sizeof *r);
}

/* ACCOUNT.dkr.ecr[-fips].REGION.amazonaws.com[.cn] (private ECR), the n bytes at host
 * (no NUL needed: a row's reference is read in place); the account and the region copied
 * when account is not NULL */
static bool
ecr_host(const char *host, size_t n, char **account, char **region)
{
	const char *end = host + n, *r = host + 20, *dot;

	/* twelve digits, then ".dkr.ecr" */
	if (n < 20 || strspn(host, "0123456789") < 12 || memcmp(host + 12, ".dkr.ecr", 8) != 0)
		return false;
	if (end - r >= 5 && memcmp(r, "-fips", 5) == 0)
		r += 5;
	if (r == end || *r++ != '.')
		return false;
	dot = memchr(r, '.', (size_t)(end - r));
	if (dot == NULL || dot == r || end - dot < 14 || memcmp(dot, ".amazonaws.com", 14) != 0)
		return false;
	if (end - dot != 14 && (end - dot != 17 || memcmp(dot + 14, ".cn", 3) != 0))
		return false;
	if (account != NULL) {
		*account = xstrndup(host, 12);
		*region = xstrndup(r, (size_t)(dot - r));
	}
	return true;
}

/* A reference's parts as spans of its text: the one reading of Docker's grammar that both
 * image_ref_parse (which copies them) and image_ref_is_private_ecr (asked for every row
 * written, so it copies nothing) use. host is NULL for Docker Hub. */
struct ref_span {
	const char *host, *name, *tag, *digest;
	size_t hlen, nlen, tlen;
};

static int
ref_split(const char *s, struct ref_span *sp)
{
	const char *slash, *rest, *at, *end, *colon;

	memset(sp, 0, sizeof *sp);
	if (s == NULL || *s == '\0' || strchr(s, ' ') != NULL)
		return -1;
	slash = strchr(s, '/');
	/* a first part with '.', ':' or "localhost" is a registry host (Docker's rule) */
	if (slash != NULL && (memchr(s, '.', (size_t)(slash - s)) != NULL ||
	    memchr(s, ':', (size_t)(slash - s)) != NULL ||
	    ((size_t)(slash - s) == 9 && strncmp(s, "localhost", 9) == 0))) {
		sp->host = s;
		sp->hlen = (size_t)(slash - s);
		rest = slash + 1;
	} else {
		rest = s;
	}
	at = strchr(rest, '@');
	end = at != NULL ? at : rest + strlen(rest);
	colon = memrchr(rest, ':', (size_t)(end - rest));
	if (colon != NULL && memchr(colon, '/', (size_t)(end - colon)) == NULL) {
		sp->tag = colon + 1;
		sp->tlen = (size_t)(end - colon - 1);
		end = colon;
	}
	sp->name = rest;
	sp->nlen = (size_t)(end - rest);
	sp->digest = at != NULL ? at + 1 : NULL;
	return sp->nlen == 0 || (at != NULL && at[1] == '\0') ? -1 : 0;
}

int
image_ref_parse(const char *s, struct image_ref *out)
{
	struct ref_span sp;

	memset(out, 0, sizeof *out);
	if (ref_split(s, &sp) != 0)
		return -1;
	out->registry = sp.host != NULL ? xstrndup(sp.host, sp.hlen) : xstrdup("docker.io");
	out->digest = sp.digest != NULL ? xstrdup(sp.digest) : NULL;
	out->tag = sp.tag != NULL ? xstrndup(sp.tag, sp.tlen) : NULL;
	if (strcmp(out->registry, "docker.io") == 0 && memchr(sp.name, '/', sp.nlen) == NULL)
		out->repository = xasprintf("library/%.*s", (int)sp.nlen, sp.name);
	else
		out->repository = xstrndup(sp.name, sp.nlen);
	out->private_ecr = ecr_host(out->registry, strlen(out->registry), &out->account,
				     &out->region);
	return 0;
}

int
image_ref_is_private_ecr(const char *s)
{
	struct ref_span sp;

	if (ref_split(s, &sp) != 0)
		return -1;
	if (sp.host == NULL)
		return 0;   /* docker.io */
	return ecr_host(sp.host, sp.hlen, NULL, NULL);
}

/* ---- names --------------------------------------------------------------------------- */

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

enum image_comp
image_comp_of(const char *mt)
{
	if (mt == NULL)
		return IMAGE_COMP_UNKNOWN;
	if (ends_with(mt, "+zstd") || ends_with(mt, ".zstd"))
		return IMAGE_COMP_ZSTD;
	if (ends_with(mt, "+gzip") || ends_with(mt, ".gzip") || ends_with(mt, ".tar.gzip"))
		return IMAGE_COMP_GZIP;
	if (ends_with(mt, ".tar") || ends_with(mt, "layer.v1.tar"))
		return IMAGE_COMP_NONE;
	return IMAGE_COMP_UNKNOWN;
}

const char *
image_comp_name(enum image_comp c)
{
	switch (c) {
	case IMAGE_COMP_GZIP: return "gzip";
	case IMAGE_COMP_ZSTD: return "zstd";
	case IMAGE_COMP_NONE: return "none";
	case IMAGE_COMP_UNKNOWN: break;
	}
	return "";
}

const char *
image_soci_name(enum image_soci s)
{
	switch (s) {
	case IMAGE_SOCI_V2: return "v2";
	case IMAGE_SOCI_V1: return "v1";
	case IMAGE_SOCI_NONE: return "none";
	case IMAGE_SOCI_UNKNOWN: break;
	}
	return "";
}

const char *
image_status_name(enum image_status s)
{
	switch (s) {
	case IMAGE_OK: return "ok";
	case IMAGE_NOT_ECR: return "not-ecr";
	case IMAGE_NOT_FOUND: return "not-found";
	case IMAGE_ERROR: break;
	}
	return "error";
}

static const char *const advice_names[ADVICE_COUNT] = {
	"", "lazy-loaded", "index-not-used", "index-v2", "index-v1-only", "worth-indexing",
	"zstd", "too-small", "not-ecr", "platform",
};

const char *
soci_advice_name(enum soci_advice a)
{
	return a < ADVICE_COUNT ? advice_names[a] : "";
}

const char *
image_facts_compression(const struct image_facts *f)
{
	unsigned seen = 0;

	for (size_t i = 0; i < f->nlayers; i++)
		seen |= 1u << f->layers[i].comp;
	if (f->status != IMAGE_OK || f->nlayers == 0 || (seen & (1u << IMAGE_COMP_UNKNOWN)))
		return "";
	if (seen == (1u << IMAGE_COMP_GZIP))
		return "gzip";
	if (seen == (1u << IMAGE_COMP_ZSTD))
		return "zstd";
	if (seen == (1u << IMAGE_COMP_NONE))
		return "none";
	return "mixed";
}

bool
image_platform_too_old(const char *pv)
{
	unsigned a = 0, b = 0, c = 0;

	if (pv == NULL || *pv == '\0' || strcasecmp(pv, "LATEST") == 0)
		return false;
	if (sscanf(pv, "%u.%u.%u", &a, &b, &c) < 2)
		return false;
	return a < 1 || (a == 1 && b < 4);
}
