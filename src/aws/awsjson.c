/* awsjson: one signed, retried awsJson1_1 request, shared by every JSON-protocol service
 * (ECS, ECR, ...). The request is signed again before every attempt, so a retry carries a
 * fresh time and the server's clock when ours is off. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "awsjson.h"
#include "creds_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/log.h"
#include "ecsprof/sigv4.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define CONTENT_TYPE "application/x-amz-json-1.1"

const struct awsjson_service awsjson_ecs = {
	"ECS", "ecs", "AmazonEC2ContainerServiceV20141113.", "ecs",
};

const struct awsjson_service awsjson_ecr = {
	"ECR", "ecr", "AmazonEC2ContainerRegistry_V20150921.", "api.ecr",
};

struct awsjson_client {
	const struct awsjson_service *svc;
	char *region;
	char *url;          /* what we POST to */
	char *host;         /* Host header, default port dropped as botocore does */
	char *path;         /* signed path */
	int max_attempts;
	awsjson_creds_fn *creds;
	void *creds_arg;
	bool debug;
	int64_t skew_ms;    /* shared by the threads through http_retry */
	pthread_mutex_t lock;
	/* under lock: the counters of the current run, and a failed credential chain, which
	 * fails the whole run: remembered so that the other threads do not each run it again
	 * (a credential_process, the container or IMDS timeouts, serialized by the lock) */
	struct awsjson_counts counts;
	bool creds_failed;
	struct err creds_err;
};

int
awsjson_endpoint(struct aws_context *ctx, const struct awsjson_service *svc,
		 const char *explicit_url, char **url, struct err *err)
{
	char key[64];
	size_t i;

	/* the services-section key is the service id in lower case, spaces as '_' */
	for (i = 0; svc->service_id[i] != '\0' && i + 1 < sizeof key; i++)
		key[i] = svc->service_id[i] == ' '
			 ? '_' : (char)tolower((unsigned char)svc->service_id[i]);
	key[i] = '\0';
	return creds_service_endpoint(ctx, explicit_url, svc->service_id, key, svc->host_prefix,
				      ctx->region, true, url, err);
}

/* ---- one signed request ------------------------------------------------------------ */

struct call {
	struct awsjson_client *c;
	const char *op;
	const char *body;
	size_t body_len;
	char target[128];
	struct http_header headers[3 + SIGV4_MAX_ADD];
	struct sigv4_output sig;
	bool signed_once;
	const int *cancel;
	struct buf trace;   /* --debug: this attempt's trace, written as one block */
};

static void
trace_flush(struct call *k)
{
	if (k->trace.len > 0)
		log_block(LOG_DEBUG, buf_str(&k->trace));
	buf_reset(&k->trace);
}

static int
call_prepare(void *ctx, int64_t now_ms, struct http_request *req, struct err *err)
{
	struct call *k = ctx;
	struct awsjson_client *c = k->c;
	struct aws_creds cr = { 0 };
	struct sigv4_key key;
	struct sigv4_input in = { 0 };
	size_t n = 0;
	int rc;

	if (k->signed_once)
		sigv4_output_cleanup(&k->sig);
	k->signed_once = false;
	k->headers[n++] = (struct http_header){ "Host", c->host };
	k->headers[n++] = (struct http_header){ "Content-Type", CONTENT_TYPE };
	k->headers[n++] = (struct http_header){ "X-Amz-Target", k->target };

	pthread_mutex_lock(&c->lock);
	if (c->creds_failed) {
		*err = c->creds_err;
		rc = -1;
	} else if ((rc = c->creds(c->creds_arg, &cr, err)) != 0) {
		c->creds_failed = true;
		c->creds_err = *err;
	}
	pthread_mutex_unlock(&c->lock);
	if (rc != 0)
		return -1;
	key.access_key_id = cr.access_key_id;
	key.secret_access_key = cr.secret_access_key;
	key.session_token = cr.session_token;
	in.method = "POST";
	in.path = c->path;
	in.region = c->region;
	in.service = c->svc->signing_name;
	in.headers = k->headers;
	in.nheaders = n;
	in.body = k->body;
	in.body_len = k->body_len;
	in.time_ms = now_ms;
	in.normalize_path = true;
	rc = sigv4_sign(&in, &key, &k->sig, err);
	aws_creds_cleanup(&cr);
	if (rc != 0)
		return -1;
	k->signed_once = true;
	if (c->debug)
		buf_addf(&k->trace, "ecsprof: debug: %s canonical request:\n%s\n", k->op,
			 k->sig.canonical_request_redacted ? k->sig.canonical_request_redacted : "");
	for (size_t i = 0; i < k->sig.nadd; i++)
		k->headers[n++] = (struct http_header){ k->sig.add[i].name, k->sig.add[i].value };

	req->method = "POST";
	req->url = c->url;
	req->headers = k->headers;
	req->nheaders = n;
	req->body = k->body;
	req->body_len = k->body_len;
	req->cancel = k->cancel;
	req->trace = c->debug ? &k->trace : NULL;
	pthread_mutex_lock(&c->lock);
	c->counts.requests++;
	pthread_mutex_unlock(&c->lock);
	return 0;
}

int
awsjson_call(struct awsjson_client *c, const struct http_transport *t, const char *op,
	     json_t *body_obj, json_t **out, int64_t *answered_ms, struct err *err)
{
	struct awsjson_call_options o = { 0 };
	int rc = awsjson_call_opt(c, t, op, body_obj, &o, out, err);

	if (answered_ms != NULL)
		*answered_ms = o.answered_ms;
	return rc;
}

struct dump {
	char *p;
	size_t n, cap;
};

static void
dump_put(struct dump *d, const char *s, size_t n)
{
	if (d->n + n + 1 > d->cap) {
		d->cap = (d->n + n + 1) * 2;
		d->p = xrealloc(d->p, d->cap);
	}
	memcpy(d->p + d->n, s, n);
	d->n += n;
}

/* a string jansson writes as it is (JSON_COMPACT, no JSON_ENSURE_ASCII): false when it
 * has anything it escapes or checks (controls, quote, backslash, DEL, non-ASCII) */
static bool
dump_plain_string(struct dump *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e || s[i] == '"' ||
		    s[i] == '\\')
			return false;
	dump_put(d, "\"", 1);
	dump_put(d, s, n);
	dump_put(d, "\"", 1);
	return true;
}

/* v as json_dumps(JSON_COMPACT) writes it; false for anything but the plain values */
static bool
dump_value(struct dump *d, json_t *v, int depth)
{
	char num[32];
	const char *key;
	json_t *x;
	size_t i, klen;
	bool first = true;

	if (depth > 32)
		return false;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		dump_put(d, "{", 1);
		/* in the object's order, as json_dumps without JSON_SORT_KEYS */
		json_object_keylen_foreach(v, key, klen, x) {
			if (!first)
				dump_put(d, ",", 1);
			first = false;
			if (!dump_plain_string(d, key, klen))
				return false;
			dump_put(d, ":", 1);
			if (!dump_value(d, x, depth + 1))
				return false;
		}
		dump_put(d, "}", 1);
		return true;
	case JSON_ARRAY:
		dump_put(d, "[", 1);
		json_array_foreach(v, i, x) {
			if (i > 0)
				dump_put(d, ",", 1);
			if (!dump_value(d, x, depth + 1))
				return false;
		}
		dump_put(d, "]", 1);
		return true;
	case JSON_STRING:
		return dump_plain_string(d, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		dump_put(d, num, strlen(num));
		return true;
	case JSON_TRUE:
		dump_put(d, "true", 4);
		return true;
	case JSON_FALSE:
		dump_put(d, "false", 5);
		return true;
	case JSON_NULL:
		dump_put(d, "null", 4);
		return true;
	default:
		return false;   /* reals: jansson's own formatting */
	}
}

char *
awsjson_dump_compact(json_t *v)
{
	struct dump d = { NULL, 0, 0 };

	/* json_dumps writes only objects and arrays at the top (JSON_ENCODE_ANY not set) */
	if (v != NULL && (json_is_object(v) || json_is_array(v)) && dump_value(&d, v, 0)) {
		d.p[d.n] = '\0';
		return d.p;
	}
	free(d.p);
	return json_dumps(v, JSON_COMPACT);
}

int
awsjson_call_opt(struct awsjson_client *c, const struct http_transport *t, const char *op,
		 json_t *body_obj, struct awsjson_call_options *o, json_t **out,
		 struct err *err)
{
	struct call k;
	struct http_response resp;
	struct http_retry r = { 0 };
	char *body;
	int ret = -1, tries = 0;
	int max = c->max_attempts > 0 ? c->max_attempts : 3;
	json_error_t je;
	bool oom;

	*out = NULL;
	body = awsjson_dump_compact(body_obj);
	if (body == NULL)
		return err_set(err, ERR_INTERNAL, "%s: cannot encode the request", op);
	memset(&k, 0, sizeof k);
	k.c = c;
	k.op = op;
	k.body = body;
	k.body_len = strlen(body);
	k.cancel = o->cancel;
	buf_init(&k.trace, 0);
	snprintf(k.target, sizeof k.target, "%s%s", c->svc->target_prefix, op);
	http_response_init(&resp);
	r.max_attempts = max;
	r.skew_ms = &c->skew_ms;
	r.cancel = o->cancel;
	r.trace = c->debug ? &k.trace : NULL;
	for (;;) {
		if (http_send_retry(t, &r, call_prepare, &k, &resp, err) != 0) {
			/* credentials are not the operation's: their error says what to do */
			if (err->code != ERR_CREDS)
				err_prefix(err, "%s", op);
			goto out;
		}
		tries += r.attempts;
		pthread_mutex_lock(&c->lock);
		c->counts.throttled += (size_t)r.throttled;
		pthread_mutex_unlock(&c->lock);
		if (resp.status < 200 || resp.status >= 300) {
			awsjson_error(c->svc, op, &resp, tries, err);
			goto out;
		}
		if (o->body != NULL && o->body(o->body_arg, buf_str(&resp.body), resp.body.len) == 0)
			break;
		*out = json_loadb(buf_str(&resp.body), resp.body.len, 0, &je);
		if (json_is_object(*out))
			break;
		oom = *out == NULL &&
		      (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0');
		json_decref(*out);
		*out = NULL;
		if (oom) {
			/* jansson could not allocate (no text: its lexer could not start), not a
			 * bad answer: asking again would need the same memory */
			err_set(err, ERR_INTERNAL, "%s: out of memory parsing the answer (%zu bytes)",
				op, resp.body.len);
			goto out;
		}
		if (tries >= max) {
			err_set(err, ERR_NETWORK,
				"%s: the answer was cut short or is not JSON (%zu bytes; %s at byte %d) "
				"after %d attempts — check the network, a proxy, or --endpoint-url",
				op, resp.body.len, je.text, je.position, tries);
			goto out;
		}
		log_info("%s: the answer is not valid JSON (%s); asking again", op, je.text);
		timeutil_sleep_ms(100);
	}
	o->answered_ms = timeutil_now_ms();
	ret = 0;
out:
	trace_flush(&k);
	buf_cleanup(&k.trace);
	if (k.signed_once)
		sigv4_output_cleanup(&k.sig);
	http_response_cleanup(&resp);
	free(body);
	return ret;
}

/* ---- client --------------------------------------------------------------------------- */

static int
split_endpoint(struct awsjson_client *c, const char *endpoint, struct err *err)
{
	const char *scheme_end = strstr(endpoint, "://"), *auth, *path;
	size_t alen, plen;
	bool https;
	char *host;

	if (scheme_end == NULL)
		return err_set(err, ERR_CONFIG, "endpoint '%s' is not a URL (expected https://HOST)",
			       endpoint);
	https = (size_t)(scheme_end - endpoint) == 5 && strncasecmp(endpoint, "https", 5) == 0;
	if (!https && !((size_t)(scheme_end - endpoint) == 4 && strncasecmp(endpoint, "http", 4) == 0))
		return err_set(err, ERR_CONFIG, "endpoint '%s': only http:// and https:// work",
			       endpoint);
	auth = scheme_end + 3;
	alen = strcspn(auth, "/?#");
	if (alen == 0)
		return err_set(err, ERR_CONFIG, "endpoint '%s' has no host", endpoint);
	path = auth + alen;
	plen = strcspn(path, "?#");
	host = xstrndup(auth, alen);
	/* botocore signs the host without a default port; so must we, to match */
	{
		size_t hl = strlen(host);
		if (https && hl > 4 && strcmp(host + hl - 4, ":443") == 0)
			host[hl - 4] = '\0';
		else if (!https && hl > 3 && strcmp(host + hl - 3, ":80") == 0)
			host[hl - 3] = '\0';
	}
	c->host = host;
	while (plen > 0 && path[plen - 1] == '/')
		plen--;
	if (plen == 0) {
		c->path = xstrdup("/");
	} else {
		c->path = xstrndup(path, plen);
	}
	c->url = xasprintf("%.*s%s", (int)(auth - endpoint + alen), endpoint, c->path);
	return 0;
}

int
awsjson_client_new(const struct awsjson_options *o, struct awsjson_client **out,
		   struct err *err)
{
	struct awsjson_client *c;

	*out = NULL;
	if (o->service == NULL || o->creds == NULL)
		return err_set(err, ERR_INTERNAL, "AWS client without a service or credentials");
	if (o->region == NULL || *o->region == '\0')
		return err_set(err, ERR_CONFIG,
			       "no AWS region: use --region, AWS_REGION, or region in ~/.aws/config");
	if (o->endpoint == NULL || *o->endpoint == '\0')
		return err_set(err, ERR_CONFIG, "no %s endpoint for region %s",
			       o->service->service_id, o->region);
	c = xcalloc(1, sizeof *c);
	if (split_endpoint(c, o->endpoint, err) != 0) {
		free(c);
		return -1;
	}
	c->svc = o->service;
	c->region = xstrdup(o->region);
	c->max_attempts = o->max_attempts > 0 ? o->max_attempts : 3;
	c->creds = o->creds;
	c->creds_arg = o->creds_arg;
	c->debug = o->debug;
	pthread_mutex_init(&c->lock, NULL);
	*out = c;
	return 0;
}

void
awsjson_client_free(struct awsjson_client *c)
{
	if (c == NULL)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c->region);
	free(c->url);
	free(c->host);
	free(c->path);
	free(c);
}

void
awsjson_reset(struct awsjson_client *c)
{
	pthread_mutex_lock(&c->lock);
	c->creds_failed = false;
	memset(&c->counts, 0, sizeof c->counts);
	pthread_mutex_unlock(&c->lock);
}

void
awsjson_counts(struct awsjson_client *c, struct awsjson_counts *out)
{
	pthread_mutex_lock(&c->lock);
	*out = c->counts;
	pthread_mutex_unlock(&c->lock);
}

const char *
awsjson_region(const struct awsjson_client *c)
{
	return c->region;
}
