/* awsjson: one signed, retried awsJson1_1 request, shared by every JSON-protocol service
 * (ECS, ECR, ...). The request is signed again before every attempt, so a retry carries a
 * fresh time and the server's clock when ours is off. */
#include <ctype.h>
#include <math.h>
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
	"ECS", "ecs", "AmazonEC2ContainerServiceV20141113.", "ecs", NULL,
};

const struct awsjson_service awsjson_ecr = {
	"ECR", "ecr", "AmazonEC2ContainerRegistry_V20150921.", "api.ecr", NULL,
};

const struct awsjson_service awsjson_appscaling = {
	"Application Auto Scaling", "application-autoscaling", "AnyScaleFrontendService.",
	"application-autoscaling", NULL,
};

/* the query protocol's (awsquery.c): no X-Amz-Target */
const struct awsjson_service awsjson_cloudwatch = {
	"CloudWatch", "monitoring", NULL, "monitoring", "cloudwatch",
};

const struct awsjson_service awsjson_elbv2 = {
	"Elastic Load Balancing v2", "elasticloadbalancing", NULL, "elasticloadbalancing", NULL,
};

const struct awsjson_service awsjson_ec2 = {
	"EC2", "ec2", NULL, "ec2", NULL,
};

struct awsjson_client {
	const struct awsjson_service *svc;
	char *region;
	char *url;          /* what we POST to */
	char *host;         /* Host header, default port dropped as botocore does */
	char *path;         /* signed path */
	int max_attempts;
	aws_creds_fn *creds;
	void *creds_arg;
	bool debug;
	const struct log *log;
	int64_t skew_ms;    /* shared by the threads through http_retry */
	struct sigv4_cache *keys;  /* derived signing keys, shared by the threads (own lock) */
	const struct timeutil_clock *clock;   /* borrowed from the options */
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
	char key[64], env[64];
	size_t i;

	/* botocore: the services-section key is the service id in lower case, the variable
	 * AWS_ENDPOINT_URL_<id in upper case>, spaces as '_' in both */
	for (i = 0; svc->service_id[i] != '\0' && i + 1 < sizeof key; i++) {
		unsigned char ch = (unsigned char)svc->service_id[i];
		key[i] = ch == ' ' ? '_' : (char)tolower(ch);
		env[i] = ch == ' ' ? '_' : (char)toupper(ch);
	}
	key[i] = env[i] = '\0';
	return creds_service_endpoint(ctx, explicit_url, env, key, svc->host_prefix,
				      ctx->region, true, url, err);
}

/* ---- one signed request ------------------------------------------------------------ */

struct call {
	struct awsjson_client *c;
	const char *op;
	const char *body;
	size_t body_len;
	const char *content_type;
	char target[128];           /* "": no X-Amz-Target (the query protocol) */
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
		log_block(k->c->log, buf_str(&k->trace));
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
	k->headers[n++] = (struct http_header){ "Content-Type", k->content_type };
	if (k->target[0] != '\0')
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
	in.cache = c->keys;
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
awsjson_send(struct awsjson_client *c, const struct http_transport *t, const char *op,
	     struct awsjson_raw *r, struct err *err)
{
	struct call k;
	struct http_response resp;
	struct http_retry hr = { 0 };
	char why[160];
	size_t len;
	int ret = -1, tries = 0, rc;
	int max = c->max_attempts > 0 ? c->max_attempts : 3;

	memset(&k, 0, sizeof k);
	k.c = c;
	k.op = op;
	k.body = r->body;
	k.body_len = r->body_len;
	k.cancel = r->cancel;
	k.content_type = r->content_type;
	buf_init(&k.trace, 0);
	if (r->target != NULL)
		snprintf(k.target, sizeof k.target, "%s", r->target);
	http_response_init(&resp);
	hr.max_attempts = max;
	hr.skew_ms = &c->skew_ms;
	hr.cancel = r->cancel;
	hr.trace = c->debug ? &k.trace : NULL;
	hr.log = c->log;
	hr.clock = c->clock;
	for (;;) {
		if (http_send_retry(t, &hr, call_prepare, &k, &resp, err) != 0) {
			/* credentials are not the operation's: their error says what to do */
			if (err->code != ERR_CREDS)
				err_prefix(err, "%s", op);
			goto out;
		}
		tries += hr.attempts;
		pthread_mutex_lock(&c->lock);
		c->counts.throttled += (size_t)hr.throttled;
		pthread_mutex_unlock(&c->lock);
		if (resp.status < 200 || resp.status >= 300) {
			awsjson_error(c->svc, op, &resp, tries, err);
			goto out;
		}
		why[0] = '\0';
		len = resp.body.len;   /* for the message: on 0 accept may have taken the bytes */
		rc = r->accept(r->accept_arg, &resp.body, why, sizeof why, err);
		if (rc == 0)
			break;
		if (rc < 0)
			goto out;
		if (tries >= max) {
			err_set(err, ERR_NETWORK,
				"%s: the answer was cut short or is not %s (%zu bytes; %s) "
				"after %d attempts — check the network, a proxy, or --endpoint-url",
				op, r->format, len, why, tries);
			goto out;
		}
		log_info(c->log, "%s: the answer is not valid %s (%s); asking again", op, r->format, why);
		timeutil_clock_sleep(c->clock, 100);
	}
	r->answered_ms = timeutil_clock_now(c->clock);
	ret = 0;
out:
	trace_flush(&k);
	buf_cleanup(&k.trace);
	if (k.signed_once)
		sigv4_output_cleanup(&k.sig);
	http_response_cleanup(&resp);
	return ret;
}

struct json_accept {
	struct awsjson_call_options *o;
	json_t **out;
	const char *op;
};

/* a 2xx JSON answer: the caller's body hook first, then jansson */
static int
json_accept(void *arg, struct buf *body, char *why, size_t whysize, struct err *err)
{
	struct json_accept *a = arg;
	json_error_t je;
	size_t len = body->len;
	bool oom;

	if (a->o->body != NULL && a->o->body(a->o->body_arg, body) == 0)
		return 0;
	*a->out = json_loadb(buf_str(body), len, 0, &je);
	if (json_is_object(*a->out))
		return 0;
	oom = *a->out == NULL &&
	      (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0');
	json_decref(*a->out);
	*a->out = NULL;
	if (oom)
		/* jansson could not allocate (no text: its lexer could not start), not a bad
		 * answer: asking again would need the same memory */
		return err_set(err, ERR_INTERNAL, "%s: out of memory parsing the answer (%zu bytes)",
			       a->op, len);
	snprintf(why, whysize, "%s at byte %d", je.text, je.position);
	return 1;
}

int
awsjson_call_text(struct awsjson_client *c, const struct http_transport *t, const char *op,
		  const char *body, size_t len, struct awsjson_call_options *o, json_t **out,
		  struct err *err)
{
	struct awsjson_raw r = { 0 };
	struct json_accept a = { o, out, op };
	char target[128];
	int rc;

	*out = NULL;
	if (c->svc->target_prefix == NULL)
		return err_set(err, ERR_INTERNAL, "%s: %s speaks the query protocol (awsquery_call)",
			       op, c->svc->service_id);
	snprintf(target, sizeof target, "%s%s", c->svc->target_prefix, op);
	r.content_type = CONTENT_TYPE;
	r.target = target;
	r.body = body;
	r.body_len = len;
	r.cancel = o->cancel;
	r.accept = json_accept;
	r.accept_arg = &a;
	r.format = "JSON";
	rc = awsjson_send(c, t, op, &r, err);
	o->answered_ms = r.answered_ms;
	return rc;
}

int
awsjson_call_opt(struct awsjson_client *c, const struct http_transport *t, const char *op,
		 json_t *body_obj, struct awsjson_call_options *o, json_t **out,
		 struct err *err)
{
	char *body;
	int rc;

	*out = NULL;
	if (c->svc->target_prefix == NULL)
		return err_set(err, ERR_INTERNAL, "%s: %s speaks the query protocol (awsquery_call)",
			       op, c->svc->service_id);
	body = awsjson_dump_compact(body_obj);
	if (body == NULL)
		return err_set(err, ERR_INTERNAL, "%s: cannot encode the request", op);
	rc = awsjson_call_text(c, t, op, body, strlen(body), o, out, err);
	free(body);
	return rc;
}

void
awsjson_format_time(int64_t us, char out[AWSJSON_TIME_LEN])
{
	int64_t secs = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
	int64_t frac = us - secs * 1000000, days = secs >= 0 ? secs / 86400
						  : -((-secs + 86399) / 86400);
	int64_t sod = secs - days * 86400, y;
	unsigned m, d;
	int n;

	timeutil_civil_from_days(days, &y, &m, &d);
	n = snprintf(out, AWSJSON_TIME_LEN, "%04lld-%02u-%02uT%02d:%02d:%02d", (long long)y, m,
		     d, (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60));
	if (frac != 0 && n > 0 && n < AWSJSON_TIME_LEN)
		n += snprintf(out + n, (size_t)(AWSJSON_TIME_LEN - n), ".%06lld", (long long)frac);
	if (n > 0 && n < AWSJSON_TIME_LEN)
		snprintf(out + n, (size_t)(AWSJSON_TIME_LEN - n), "+00:00");
}

/* Epoch seconds to microseconds as Python's datetime.fromtimestamp rounds them (the
 * fraction apart, times 1e6, to even): 1796606978.1137 is .113699, not the .113700 that
 * rounding s * 1e6 gives, so that the text is the CLI's to the digit. */
static int64_t
seconds_to_us(double s)
{
	double whole, frac = modf(s, &whole);

	return (int64_t)whole * 1000000 + (int64_t)nearbyint(frac * 1e6);
}

/* the members named keys, anywhere in v, from epoch seconds to the CLI's text */
void
awsjson_cli_times(json_t *v, const char *const *keys)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			awsjson_cli_times(x, keys);
		return;
	}
	json_object_foreach(v, k, x) {
		bool is_time = false;

		for (const char *const *t = keys; *t != NULL && !is_time; t++)
			is_time = strcmp(k, *t) == 0;
		if (is_time && json_is_number(x)) {
			char out[AWSJSON_TIME_LEN];
			double s = json_number_value(x);

			if (!isfinite(s) || fabs(s) > 253402300799.0)
				continue;   /* past the year 9999: left as the number it is */
			awsjson_format_time(seconds_to_us(s), out);
			json_object_set_new(v, k, json_string(out));
		} else if (json_is_object(x) || json_is_array(x)) {
			awsjson_cli_times(x, keys);
		}
	}
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
	if (o->service == NULL || o->common.creds == NULL)
		return err_set(err, ERR_INTERNAL, "AWS client without a service or credentials");
	if (o->common.region == NULL || *o->common.region == '\0')
		return err_set(err, ERR_CONFIG,
			       "no AWS region: use --region, AWS_REGION, or region in ~/.aws/config");
	if (o->endpoint == NULL || *o->endpoint == '\0')
		return err_set(err, ERR_CONFIG, "no %s endpoint for region %s",
			       o->service->service_id, o->common.region);
	c = xcalloc(1, sizeof *c);
	if (split_endpoint(c, o->endpoint, err) != 0) {
		free(c);
		return -1;
	}
	c->svc = o->service;
	c->region = xstrdup(o->common.region);
	c->max_attempts = o->common.max_attempts > 0 ? o->common.max_attempts : 3;
	c->creds = o->common.creds;
	c->creds_arg = o->common.creds_arg;
	c->debug = o->common.debug;
	c->log = o->common.log;
	c->keys = sigv4_cache_new();
	c->clock = o->common.clock;
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
	sigv4_cache_free(c->keys);
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
