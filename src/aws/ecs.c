/* ecs: the ECS API client. ListTasks is a chain of pages, each waiting for the previous
 * page's nextToken, so the run cannot be faster than that chain; everything else
 * (DescribeTasks batches, other chains) runs beside it on a small pool of threads, each
 * with its own transport, so the wall time stays close to the chain. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "ecsprof/buf.h"
#include "ecsprof/ecs.h"
#include "ecsprof/log.h"
#include "ecsprof/sigv4.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define TARGET_PREFIX "AmazonEC2ContainerServiceV20141113."
#define CONTENT_TYPE "application/x-amz-json-1.1"
#define LIST_PAGE 100      /* ListTasks maxResults: the API's maximum */
#define DESCRIBE_BATCH 100 /* DescribeTasks: at most 100 tasks per call */
#define SERVICES_BATCH 10  /* DescribeServices: at most 10 per call */
#define MAX_CONCURRENCY 64

struct ecs_client {
	char *region;
	char *url;          /* what we POST to */
	char *host;         /* Host header, default port dropped as botocore does */
	char *path;         /* signed path */
	int max_attempts;
	long concurrency;
	ecs_creds_fn *creds;
	void *creds_arg;
	ecs_transport_free_fn *transport_free;
	void *transport_arg;
	struct http_transport *transports;
	bool debug;
	int64_t skew_ms;    /* shared by the threads through http_retry */
	pthread_mutex_t creds_lock;
	/* counters of the current fetch (under creds_lock) */
	size_t requests, throttled;
	/* a failed credential chain fails the whole fetch: remember it (under creds_lock)
	 * so that the other workers do not each run it again (a credential_process, the
	 * container or IMDS timeouts, serialized by the lock) */
	bool creds_failed;
	struct err creds_err;
};

/* ---- one signed request ------------------------------------------------------------ */

struct call {
	struct ecs_client *c;
	const char *op;
	const char *body;
	size_t body_len;
	char target[96];
	struct http_header headers[3 + SIGV4_MAX_ADD];
	struct sigv4_output sig;
	bool signed_once;
};

static int
call_prepare(void *ctx, int64_t now_ms, struct http_request *req, struct err *err)
{
	struct call *k = ctx;
	struct ecs_client *c = k->c;
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

	pthread_mutex_lock(&c->creds_lock);
	if (c->creds_failed) {
		*err = c->creds_err;
		rc = -1;
	} else if ((rc = c->creds(c->creds_arg, &cr, err)) != 0) {
		c->creds_failed = true;
		c->creds_err = *err;
	}
	pthread_mutex_unlock(&c->creds_lock);
	if (rc != 0)
		return -1;
	key.access_key_id = cr.access_key_id;
	key.secret_access_key = cr.secret_access_key;
	key.session_token = cr.session_token;
	in.method = "POST";
	in.path = c->path;
	in.region = c->region;
	in.service = "ecs";
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
		fprintf(stderr, "ecsprof: debug: %s canonical request:\n%s\n", k->op,
			k->sig.canonical_request_redacted ? k->sig.canonical_request_redacted : "");
	for (size_t i = 0; i < k->sig.nadd; i++)
		k->headers[n++] = (struct http_header){ k->sig.add[i].name, k->sig.add[i].value };

	req->method = "POST";
	req->url = c->url;
	req->headers = k->headers;
	req->nheaders = n;
	req->body = k->body;
	req->body_len = k->body_len;
	pthread_mutex_lock(&c->creds_lock);
	c->requests++;
	pthread_mutex_unlock(&c->creds_lock);
	return 0;
}

/* A new fetch tries the credential chain again. */
static void
creds_failure_forget(struct ecs_client *c)
{
	pthread_mutex_lock(&c->creds_lock);
	c->creds_failed = false;
	pthread_mutex_unlock(&c->creds_lock);
}

/* ---- errors ------------------------------------------------------------------------- */

static const struct {
	const char *code;
	const char *hint;       /* NULL: the IAM hint naming the operation */
	enum err_code ec;
} hints[] = {
	{ "AccessDeniedException", NULL, ERR_AWS },
	{ "AccessDenied", NULL, ERR_AWS },
	{ "UnauthorizedOperation", NULL, ERR_AWS },
	{ "InvalidSignatureException", "check the secret key and the clock", ERR_CREDS },
	{ "SignatureDoesNotMatch", "check the secret key and the clock", ERR_CREDS },
	{ "UnrecognizedClientException",
	  "the access key is unknown here; check AWS_ACCESS_KEY_ID / --profile, the session token and --region", ERR_CREDS },
	{ "InvalidClientTokenId",
	  "the access key is unknown here; check AWS_ACCESS_KEY_ID / --profile, the session token and --region", ERR_CREDS },
	{ "ExpiredTokenException", "the credentials expired; refresh them (e.g. aws sso login) and run again", ERR_CREDS },
	{ "ExpiredToken", "the credentials expired; refresh them (e.g. aws sso login) and run again", ERR_CREDS },
	{ "RequestExpired", "check the clock of this machine", ERR_CREDS },
	{ "IncompleteSignatureException", "the request was not signed as AWS expects; check --endpoint-url and --region", ERR_CREDS },
	{ "MissingAuthenticationTokenException", "the request was not signed as AWS expects; check --endpoint-url and --region", ERR_CREDS },
	{ "ClusterNotFoundException", "check --cluster and --region", ERR_AWS },
	{ "ServiceNotFoundException", "check --service, --cluster and --region", ERR_AWS },
	{ "InvalidParameterException", "check the SELECT options", ERR_AWS },
};

static void
xml_text(const char *body, const char *tag, char *out, size_t size)
{
	char open[32], close[32];
	const char *p, *e;
	struct buf b;

	out[0] = '\0';
	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	if ((p = strstr(body, open)) == NULL)
		return;
	p += strlen(open);
	if ((e = strstr(p, close)) == NULL)
		return;
	buf_init(&b, size);
	while (p < e) {
		static const struct { const char *ent; char c; } ents[] = {
			{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
			{ "&quot;", '"' }, { "&apos;", '\'' },
		};
		size_t i;

		for (i = 0; i < sizeof ents / sizeof ents[0]; i++)
			if (strncmp(p, ents[i].ent, strlen(ents[i].ent)) == 0)
				break;
		if (i < sizeof ents / sizeof ents[0]) {
			buf_addc(&b, ents[i].c);
			p += strlen(ents[i].ent);
		} else {
			buf_addc(&b, *p++);
		}
	}
	snprintf(out, size, "%s", buf_str(&b));
	buf_cleanup(&b);
}

/* Printable one-line excerpt of an unknown body. */
static void
excerpt(const char *s, size_t len, char *out, size_t size)
{
	size_t j = 0;

	for (size_t i = 0; i < len && j + 4 < size; i++) {
		unsigned char ch = (unsigned char)s[i];
		out[j++] = (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch;
	}
	out[j] = '\0';
	if (len > j && j + 4 >= size)
		memcpy(out + j, "...", 4);
}

int
ecs_error_from_response(const char *op, const struct http_response *resp, int attempts,
			struct err *err)
{
	char code[64] = "", message[384] = "", hint[160] = "", after[48] = "";
	enum err_code ec = ERR_AWS;
	json_t *root;

	http_aws_error_code(resp, code, sizeof code);
	root = json_loadb(buf_str(&resp->body), resp->body.len, 0, NULL);
	if (json_is_object(root)) {
		const char *m = json_string_value(json_object_get(root, "message"));
		if (m == NULL)
			m = json_string_value(json_object_get(root, "Message"));
		if (m != NULL)
			snprintf(message, sizeof message, "%s", m);
	} else {
		xml_text(buf_str(&resp->body), "Message", message, sizeof message);
	}
	json_decref(root);
	for (char *p = message; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';

	if (resp->status >= 500 || resp->status == 429)
		snprintf(after, sizeof after, " (HTTP %ld%s", resp->status,
			 attempts > 1 ? "" : ")");
	if (attempts > 1)
		snprintf(after + strlen(after), sizeof after - strlen(after), "%safter %d attempts)",
			 after[0] ? ", " : " (", attempts);
	for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
		if (strcmp(code, hints[i].code) == 0) {
			if (hints[i].hint == NULL)
				snprintf(hint, sizeof hint,
					 "grant ecs:%s in the IAM policy of these credentials", op);
			else
				snprintf(hint, sizeof hint, "%s", hints[i].hint);
			ec = hints[i].ec;
			break;
		}
	}
	if (hint[0] == '\0' && (resp->status == 429 || http_is_throttling_code(code))) {
		snprintf(hint, sizeof hint,
			 "still throttled; lower --concurrency, raise AWS_MAX_ATTEMPTS, or retry later");
		ec = ERR_THROTTLED;
	} else if (hint[0] == '\0' && resp->status >= 500) {
		snprintf(hint, sizeof hint, "a failure on the AWS side; retry later");
	}
	if (code[0] == '\0') {
		char ex[160];
		excerpt(buf_str(&resp->body), resp->body.len, ex, sizeof ex);
		char tries[32] = "";
		if (attempts > 1)
			snprintf(tries, sizeof tries, " (after %d attempts)", attempts);
		err_set(err, ec, "%s: HTTP %ld%s with no AWS error code%s%s%s%s", op, resp->status,
			tries, ex[0] ? ": " : "", ex,
			hint[0] ? " — " : " — is --endpoint-url an ECS endpoint?", hint);
	} else {
		err_set(err, ec, "%s: %s%s%s%s%s", code, message[0] ? message : "(no message)",
			after, hint[0] ? " — " : "", hint, "");
	}
	snprintf(err->aws_type, sizeof err->aws_type, "%s", code);
	err->http_status = resp->status;
	return -1;
}

/* ---- calling one operation ------------------------------------------------------------ */

/* POSTs body to op and returns the parsed answer in *out. A 200 whose body is not JSON
 * (cut short by a proxy or a broken connection) is tried again like a 5xx. */
static int
ecs_call(struct ecs_client *c, struct http_transport *t, const char *op, json_t *body_obj,
	 json_t **out, int64_t *answered_ms, struct err *err)
{
	struct call k;
	struct http_response resp;
	struct http_retry r = { 0 };
	char *body;
	int ret = -1, tries = 0;
	int max = c->max_attempts > 0 ? c->max_attempts : 3;
	json_error_t je;

	*out = NULL;
	body = json_dumps(body_obj, JSON_COMPACT);
	if (body == NULL)
		return err_set(err, ERR_INTERNAL, "%s: cannot encode the request", op);
	memset(&k, 0, sizeof k);
	k.c = c;
	k.op = op;
	k.body = body;
	k.body_len = strlen(body);
	snprintf(k.target, sizeof k.target, TARGET_PREFIX "%s", op);
	http_response_init(&resp);
	r.max_attempts = max;
	r.skew_ms = &c->skew_ms;
	for (;;) {
		if (http_send_retry(t, &r, call_prepare, &k, &resp, err) != 0) {
			err_prefix(err, "%s", op);
			goto out;
		}
		tries += r.attempts;
		pthread_mutex_lock(&c->creds_lock);
		c->throttled += (size_t)r.throttled;
		pthread_mutex_unlock(&c->creds_lock);
		if (resp.status < 200 || resp.status >= 300) {
			ecs_error_from_response(op, &resp, tries, err);
			goto out;
		}
		*out = json_loadb(buf_str(&resp.body), resp.body.len, 0, &je);
		if (json_is_object(*out))
			break;
		json_decref(*out);
		*out = NULL;
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
	if (answered_ms != NULL)
		*answered_ms = timeutil_now_ms();
	ret = 0;
out:
	if (k.signed_once)
		sigv4_output_cleanup(&k.sig);
	http_response_cleanup(&resp);
	free(body);
	return ret;
}

/* ---- client --------------------------------------------------------------------------- */

static int
split_endpoint(struct ecs_client *c, const char *endpoint, struct err *err)
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
ecs_client_new(const struct ecs_client_options *o, struct ecs_client **out, struct err *err)
{
	struct ecs_client *c;

	*out = NULL;
	if (o->region == NULL || *o->region == '\0')
		return err_set(err, ERR_CONFIG,
			       "no AWS region: use --region, AWS_REGION, or region in ~/.aws/config");
	if (o->endpoint == NULL || *o->endpoint == '\0')
		return err_set(err, ERR_CONFIG, "no ECS endpoint for region %s", o->region);
	if (o->creds == NULL || o->transport_new == NULL)
		return err_set(err, ERR_INTERNAL, "ecs client without credentials or transport");
	c = xcalloc(1, sizeof *c);
	if (split_endpoint(c, o->endpoint, err) != 0) {
		free(c);
		return -1;
	}
	c->region = xstrdup(o->region);
	c->max_attempts = o->max_attempts > 0 ? o->max_attempts : 3;
	c->concurrency = o->concurrency > 0 ? o->concurrency : 4;
	if (c->concurrency > MAX_CONCURRENCY)
		c->concurrency = MAX_CONCURRENCY;
	c->creds = o->creds;
	c->creds_arg = o->creds_arg;
	c->transport_free = o->transport_free;
	c->transport_arg = o->transport_arg;
	c->debug = o->debug;
	pthread_mutex_init(&c->creds_lock, NULL);
	c->transports = xcalloc((size_t)c->concurrency, sizeof *c->transports);
	for (long i = 0; i < c->concurrency; i++) {
		if (o->transport_new(o->transport_arg, &c->transports[i], err) != 0) {
			c->concurrency = i;
			ecs_client_free(c);
			return -1;
		}
	}
	*out = c;
	return 0;
}

void
ecs_client_free(struct ecs_client *c)
{
	if (c == NULL)
		return;
	for (long i = 0; i < c->concurrency; i++)
		if (c->transport_free != NULL)
			c->transport_free(c->transport_arg, &c->transports[i]);
	free(c->transports);
	pthread_mutex_destroy(&c->creds_lock);
	free(c->region);
	free(c->url);
	free(c->host);
	free(c->path);
	free(c);
}

/* ---- ListClusters ------------------------------------------------------------------- */

void
ecs_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static const char *
after_slash(const char *arn)
{
	const char *s = strrchr(arn, '/');
	return s ? s + 1 : arn;
}

int
ecs_list_clusters(struct ecs_client *c, char ***names, size_t *n, struct err *err)
{
	char *token = NULL;
	size_t cap = 0;

	creds_failure_forget(c);
	*names = NULL;
	*n = 0;
	do {
		json_t *req = json_object(), *resp = NULL, *arns;
		size_t i;
		json_t *v;
		int rc;

		json_object_set_new(req, "maxResults", json_integer(100));
		if (token != NULL)
			json_object_set_new(req, "nextToken", json_string(token));
		rc = ecs_call(c, &c->transports[0], "ListClusters", req, &resp, NULL, err);
		json_decref(req);
		free(token);
		token = NULL;
		if (rc != 0) {
			ecs_names_free(*names, *n);
			*names = NULL;
			*n = 0;
			return -1;
		}
		arns = json_object_get(resp, "clusterArns");
		json_array_foreach(arns, i, v) {
			if (!json_is_string(v))
				continue;
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				*names = xreallocarray(*names, cap, sizeof **names);
			}
			(*names)[(*n)++] = xstrdup(after_slash(json_string_value(v)));
		}
		if (json_is_string(json_object_get(resp, "nextToken")))
			token = xstrdup(json_string_value(json_object_get(resp, "nextToken")));
		json_decref(resp);
	} while (token != NULL);
	return 0;
}

/* "ClusterNotFoundException: ... — clusters here are: a, b" */
static void
explain_cluster_not_found(struct ecs_client *c, const char *cluster, struct err *err)
{
	struct err e2;
	char **names;
	size_t n;
	struct buf b;

	err_clear(&e2);
	if (ecs_list_clusters(c, &names, &n, &e2) != 0)
		return;
	buf_init(&b, 300);
	for (size_t i = 0; i < n; i++)
		if (buf_addf(&b, "%s%s", i ? ", " : "", names[i]) != 0) {
			buf_reset(&b);
			buf_addf(&b, "%zu clusters (see aws ecs list-clusters)", n);
			break;
		}
	err_set(err, ERR_AWS, "ClusterNotFoundException: cluster '%s' not found in %s — %s%s",
		cluster ? cluster : "default", c->region,
		n ? "clusters here are: " : "there are no clusters in this region; check --region",
		buf_str(&b));
	snprintf(err->aws_type, sizeof err->aws_type, "ClusterNotFoundException");
	err->http_status = 400;
	buf_cleanup(&b);
	ecs_names_free(names, n);
}

/* ---- DescribeServices ----------------------------------------------------------------- */

static char *
jstr(json_t *o, const char *key)
{
	return xstrdup_or_null(json_string_value(json_object_get(o, key)));
}

static long
jlong(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

static int64_t
jtime(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	int64_t ms;

	if (json_is_number(v) && timeutil_epoch_seconds_to_ms(json_number_value(v), &ms) == 0)
		return ms;
	if (json_is_string(v) && timeutil_parse_iso8601(json_string_value(v), &ms) == 0)
		return ms;
	return TS_NONE;
}

static void
service_from_json(struct ecs_service *s, json_t *o)
{
	json_t *deps = json_object_get(o, "deployments"), *d;
	size_t i;

	memset(s, 0, sizeof *s);
	s->name = jstr(o, "serviceName");
	s->arn = jstr(o, "serviceArn");
	s->status = jstr(o, "status");
	s->taskdef_arn = jstr(o, "taskDefinition");
	s->launch_type = jstr(o, "launchType");
	s->desired = jlong(o, "desiredCount");
	s->running = jlong(o, "runningCount");
	s->pending = jlong(o, "pendingCount");
	s->created_ms = jtime(o, "createdAt");
	if (json_array_size(deps) > 0)
		s->deployments = xcalloc(json_array_size(deps), sizeof *s->deployments);
	json_array_foreach(deps, i, d) {
		struct ecs_deployment *x = &s->deployments[s->ndeployments++];
		x->id = jstr(d, "id");
		x->status = jstr(d, "status");
		x->rollout_state = jstr(d, "rolloutState");
		x->taskdef_arn = jstr(d, "taskDefinition");
		x->created_ms = jtime(d, "createdAt");
		x->updated_ms = jtime(d, "updatedAt");
		x->desired = jlong(d, "desiredCount");
		x->running = jlong(d, "runningCount");
		x->pending = jlong(d, "pendingCount");
		x->failed = jlong(d, "failedTasks");
	}
}

static void
service_cleanup(struct ecs_service *s)
{
	for (size_t i = 0; i < s->ndeployments; i++) {
		free(s->deployments[i].id);
		free(s->deployments[i].status);
		free(s->deployments[i].rollout_state);
		free(s->deployments[i].taskdef_arn);
	}
	free(s->deployments);
	free(s->name);
	free(s->arn);
	free(s->status);
	free(s->taskdef_arn);
	free(s->launch_type);
}

void
ecs_service_list_cleanup(struct ecs_service_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		service_cleanup(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void
ecs_service_list_add(struct ecs_service_list *dst, const struct ecs_service *s)
{
	struct ecs_service *d;

	dst->v = xreallocarray(dst->v, dst->n + 1, sizeof *dst->v);
	d = &dst->v[dst->n++];
	*d = *s;
	d->name = xstrdup_or_null(s->name);
	d->arn = xstrdup_or_null(s->arn);
	d->status = xstrdup_or_null(s->status);
	d->taskdef_arn = xstrdup_or_null(s->taskdef_arn);
	d->launch_type = xstrdup_or_null(s->launch_type);
	d->deployments = s->ndeployments ? xcalloc(s->ndeployments, sizeof *d->deployments) : NULL;
	for (size_t i = 0; i < s->ndeployments; i++) {
		d->deployments[i] = s->deployments[i];
		d->deployments[i].id = xstrdup_or_null(s->deployments[i].id);
		d->deployments[i].status = xstrdup_or_null(s->deployments[i].status);
		d->deployments[i].rollout_state = xstrdup_or_null(s->deployments[i].rollout_state);
		d->deployments[i].taskdef_arn = xstrdup_or_null(s->deployments[i].taskdef_arn);
	}
}

int
ecs_describe_services(struct ecs_client *c, const char *cluster, const char *const *names,
		      size_t n, struct ecs_service_list *out, struct err *err)
{
	creds_failure_forget(c);
	out->v = NULL;
	out->n = 0;
	for (size_t at = 0; at < n; at += SERVICES_BATCH) {
		json_t *req = json_object(), *arr = json_array(), *resp = NULL, *v;
		size_t i, end = at + SERVICES_BATCH < n ? at + SERVICES_BATCH : n;
		int rc;

		if (cluster != NULL)
			json_object_set_new(req, "cluster", json_string(cluster));
		for (i = at; i < end; i++)
			json_array_append_new(arr, json_string(names[i]));
		json_object_set_new(req, "services", arr);
		rc = ecs_call(c, &c->transports[0], "DescribeServices", req, &resp, NULL, err);
		json_decref(req);
		if (rc != 0) {
			if (strcmp(err->aws_type, "ClusterNotFoundException") == 0)
				explain_cluster_not_found(c, cluster, err);
			ecs_service_list_cleanup(out);
			return -1;
		}
		json_array_foreach(json_object_get(resp, "failures"), i, v) {
			const char *arn = json_string_value(json_object_get(v, "arn"));
			const char *reason = json_string_value(json_object_get(v, "reason"));
			err_set(err, ERR_AWS, "service '%s' %s in cluster '%s' — check --service, "
				"--cluster and --region", arn ? after_slash(arn) : "?",
				reason && strcmp(reason, "MISSING") == 0 ? "not found"
									  : (reason ? reason : "failed"),
				cluster ? cluster : "default");
			snprintf(err->aws_type, sizeof err->aws_type, "ServiceNotFoundException");
			json_decref(resp);
			ecs_service_list_cleanup(out);
			return -1;
		}
		json_array_foreach(json_object_get(resp, "services"), i, v) {
			struct ecs_service s;
			service_from_json(&s, v);
			out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
			out->v[out->n++] = s;
		}
		json_decref(resp);
	}
	return 0;
}

/* ---- fetching tasks: the pool ---------------------------------------------------------- */

struct chain {
	const char *service;
	const char *status;
	char *token;            /* next page; NULL before the first and after the last */
	bool queued;            /* a page of this chain waits for a worker */
	bool done;
};

struct result {
	char *json;
	size_t len;
	int64_t fetched_at_ms;
};

struct batch {
	char **arns;
	size_t n;
	bool done;              /* described; results ready to hand over */
	struct result *results;
	size_t nresults;
};

/* set of strings seen, open addressing */
struct seen {
	char **v;
	size_t cap, n;
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* true when s was not yet in the set (and adds it; the set borrows s) */
static bool
seen_add(struct seen *set, char *s)
{
	size_t i;

	if ((set->n + 1) * 2 > set->cap) {
		struct seen bigger = { xcalloc(set->cap ? set->cap * 2 : 256, sizeof(char *)),
				       set->cap ? set->cap * 2 : 256, 0 };
		for (i = 0; i < set->cap; i++)
			if (set->v[i] != NULL)
				seen_add(&bigger, set->v[i]);
		free(set->v);
		*set = bigger;
	}
	for (i = hash_str(s) & (set->cap - 1); set->v[i] != NULL; i = (i + 1) & (set->cap - 1))
		if (strcmp(set->v[i], s) == 0)
			return false;
	set->v[i] = s;
	set->n++;
	return true;
}

struct pool {
	struct ecs_client *c;
	const struct ecs_query *q;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chain *chains;
	size_t nchains;
	struct batch **batches;
	size_t nbatches, batches_cap;
	size_t next_batch;      /* first batch no worker took yet */
	char **pending;         /* listed ARNs not yet in a batch */
	size_t npending, pending_cap;
	struct seen seen;
	size_t inflight;
	ecs_task_fn *fn;
	void *arg;
	size_t next_emit;       /* first batch not yet handed to fn */
	bool emitting;          /* a thread is handing batches over */
	bool failed;
	struct err err;
	struct ecs_fetch_stats *st;
};

static void
pool_add_batch(struct pool *p, char **arns, size_t n)
{
	struct batch *b = xcalloc(1, sizeof *b);

	b->arns = arns;
	b->n = n;
	if (p->nbatches == p->batches_cap) {
		p->batches_cap = p->batches_cap ? p->batches_cap * 2 : 32;
		p->batches = xreallocarray(p->batches, p->batches_cap, sizeof *p->batches);
	}
	p->batches[p->nbatches++] = b;
}

/* Cuts full batches from the pending ARNs; with flush, the remainder too. */
static void
pool_cut(struct pool *p, bool flush)
{
	while (p->npending >= DESCRIBE_BATCH || (flush && p->npending > 0)) {
		size_t n = p->npending < DESCRIBE_BATCH ? p->npending : DESCRIBE_BATCH;
		char **arns = xcalloc(n, sizeof *arns);

		memcpy(arns, p->pending, n * sizeof *arns);
		memmove(p->pending, p->pending + n, (p->npending - n) * sizeof *arns);
		p->npending -= n;
		pool_add_batch(p, arns, n);
	}
}

static bool
chains_done(const struct pool *p)
{
	for (size_t i = 0; i < p->nchains; i++)
		if (!p->chains[i].done)
			return false;
	return true;
}

static int
do_list_page(struct pool *p, struct http_transport *t, struct chain *ch, char *token,
	     char ***arns, size_t *narns, char **next, struct err *err)
{
	const struct ecs_query *q = p->q;
	json_t *req = json_object(), *resp = NULL, *v;
	size_t i;
	int rc;

	*arns = NULL;
	*narns = 0;
	*next = NULL;
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
	rc = ecs_call(p->c, t, "ListTasks", req, &resp, NULL, err);
	json_decref(req);
	if (rc != 0)
		return -1;
	v = json_object_get(resp, "taskArns");
	if (json_array_size(v) > 0)
		*arns = xcalloc(json_array_size(v), sizeof **arns);
	json_t *a;
	json_array_foreach(v, i, a)
		if (json_is_string(a))
			(*arns)[(*narns)++] = xstrdup(json_string_value(a));
	v = json_object_get(resp, "nextToken");
	if (json_is_string(v) && json_string_length(v) > 0)
		*next = xstrdup(json_string_value(v));
	json_decref(resp);
	return 0;
}

static bool
task_wanted(const struct ecs_query *q, json_t *task)
{
	int64_t created;

	if (q->since_ms == TS_NONE)
		return true;
	created = jtime(task, "createdAt");
	return created != TS_NONE && created >= q->since_ms;
}

static int
do_describe(struct pool *p, struct http_transport *t, struct batch *b, struct err *err)
{
	const struct ecs_query *q = p->q;
	json_t *req = json_object(), *arr = json_array(), *inc = json_array(), *resp = NULL, *v;
	int64_t at;
	size_t i;
	int rc;

	if (q->cluster != NULL)
		json_object_set_new(req, "cluster", json_string(q->cluster));
	for (i = 0; i < b->n; i++)
		json_array_append_new(arr, json_string(b->arns[i]));
	json_object_set_new(req, "tasks", arr);
	json_array_append_new(inc, json_string("TAGS"));
	json_object_set_new(req, "include", inc);
	rc = ecs_call(p->c, t, "DescribeTasks", req, &resp, &at, err);
	json_decref(req);
	if (rc != 0)
		return -1;
	v = json_object_get(resp, "tasks");
	b->results = json_array_size(v) ? xcalloc(json_array_size(v), sizeof *b->results) : NULL;
	json_t *task;
	json_array_foreach(v, i, task) {
		char *text;

		if (!json_is_object(task))
			continue;
		pthread_mutex_lock(&p->lock);
		p->st->described++;
		pthread_mutex_unlock(&p->lock);
		if (!task_wanted(q, task))
			continue;
		/* 16 digits keep epoch seconds with milliseconds exact */
		text = json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16));
		if (text == NULL)
			continue;
		b->results[b->nresults].json = text;
		b->results[b->nresults].len = strlen(text);
		b->results[b->nresults].fetched_at_ms = at;
		b->nresults++;
	}
	json_array_foreach(json_object_get(resp, "failures"), i, v) {
		const char *arn = json_string_value(json_object_get(v, "arn"));
		const char *reason = json_string_value(json_object_get(v, "reason"));
		const char *detail = json_string_value(json_object_get(v, "detail"));
		bool missing = reason != NULL && strcmp(reason, "MISSING") == 0;

		pthread_mutex_lock(&p->lock);
		p->st->failures++;
		pthread_mutex_unlock(&p->lock);
		log_warn("DescribeTasks: %s: %s%s%s%s", arn ? arn : "(no ARN)",
			 reason ? reason : "failed", detail ? " (" : "", detail ? detail : "",
			 detail ? ")" : "");
		if (missing)
			log_info("ECS forgets a task about an hour after it stops");
	}
	json_decref(resp);
	return 0;
}

static void
pool_fail(struct pool *p, const struct err *err)
{
	if (!p->failed) {
		p->failed = true;
		p->err = *err;
	}
	pthread_cond_broadcast(&p->cond);
}

/* Hands described batches to the callback in ListTasks order, while later pages are still
 * being fetched, so that parsing overlaps the network. Called with the lock held; one
 * thread at a time emits, without the lock, so the callback needs no locking. */
static void
pool_emit(struct pool *p)
{
	struct err err;

	if (p->emitting)
		return;
	p->emitting = true;
	while (!p->failed && p->next_emit < p->nbatches && p->batches[p->next_emit]->done) {
		struct batch *b = p->batches[p->next_emit];
		int rc = 0;
		size_t kept = 0;

		pthread_mutex_unlock(&p->lock);
		err_clear(&err);
		for (size_t j = 0; j < b->nresults && rc == 0; j++) {
			rc = p->fn(p->arg, b->results[j].json, b->results[j].len,
				   b->results[j].fetched_at_ms, &err);
			if (rc == 0)
				kept++;
		}
		for (size_t j = 0; j < b->nresults; j++)
			free(b->results[j].json);
		free(b->results);
		b->results = NULL;
		b->nresults = 0;
		pthread_mutex_lock(&p->lock);
		p->st->kept += kept;
		p->next_emit++;
		if (rc != 0)
			pool_fail(p, &err);
	}
	p->emitting = false;
}

struct worker {
	struct pool *p;
	struct http_transport *t;
	pthread_t thread;
};

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	struct err err;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct chain *ch = NULL;
		struct batch *b = NULL;

		if (p->failed)
			break;
		/* ListTasks pages first: they are the critical path */
		for (size_t i = 0; i < p->nchains; i++)
			if (p->chains[i].queued) {
				ch = &p->chains[i];
				break;
			}
		if (ch == NULL && p->next_batch < p->nbatches)
			b = p->batches[p->next_batch++];
		if (ch == NULL && b == NULL) {
			if (p->inflight == 0 && chains_done(p))
				break;
			pthread_cond_wait(&p->cond, &p->lock);
			continue;
		}
		p->inflight++;
		err_clear(&err);
		if (ch != NULL) {
			char *token = ch->token, *next = NULL, **arns = NULL;
			size_t narns = 0;
			int rc;

			ch->queued = false;
			ch->token = NULL;
			pthread_mutex_unlock(&p->lock);
			rc = do_list_page(p, w->t, ch, token, &arns, &narns, &next, &err);
			free(token);
			pthread_mutex_lock(&p->lock);
			if (rc != 0) {
				pool_fail(p, &err);
			} else {
				p->st->pages++;
				for (size_t i = 0; i < narns; i++) {
					if (!seen_add(&p->seen, arns[i])) {
						free(arns[i]);
						continue;
					}
					if (p->npending == p->pending_cap) {
						p->pending_cap = p->pending_cap ? p->pending_cap * 2 : 256;
						p->pending = xreallocarray(p->pending, p->pending_cap,
									   sizeof *p->pending);
					}
					p->pending[p->npending++] = arns[i];
					p->st->listed++;
				}
				if (next != NULL) {
					ch->token = next;
					ch->queued = true;
				} else {
					ch->done = true;
				}
				pool_cut(p, chains_done(p));
			}
			free(arns);
		} else {
			int rc;

			pthread_mutex_unlock(&p->lock);
			rc = do_describe(p, w->t, b, &err);
			pthread_mutex_lock(&p->lock);
			if (rc != 0) {
				pool_fail(p, &err);
			} else {
				b->done = true;
				pool_emit(p);
			}
		}
		p->inflight--;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int
ecs_fetch_tasks(struct ecs_client *c, const struct ecs_query *q, ecs_task_fn *fn, void *arg,
		struct ecs_fetch_stats *st, struct err *err)
{
	struct ecs_fetch_stats local;
	struct pool p;
	struct worker *w;
	long nw = c->concurrency;
	int ret = -1;

	if (st == NULL)
		st = &local;
	memset(st, 0, sizeof *st);
	memset(&p, 0, sizeof p);
	p.c = c;
	p.q = q;
	p.st = st;
	p.fn = fn;
	p.arg = arg;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	pthread_mutex_lock(&c->creds_lock);
	c->requests = 0;
	c->throttled = 0;
	pthread_mutex_unlock(&c->creds_lock);
	creds_failure_forget(c);

	if (q->ntasks > 0) {
		for (size_t i = 0; i < q->ntasks; i++) {
			char *s = xstrdup(q->tasks[i]);
			if (!seen_add(&p.seen, s)) {
				free(s);
				continue;
			}
			if (p.npending == p.pending_cap) {
				p.pending_cap = p.pending_cap ? p.pending_cap * 2 : 64;
				p.pending = xreallocarray(p.pending, p.pending_cap, sizeof *p.pending);
			}
			p.pending[p.npending++] = s;
		}
		pool_cut(&p, true);
	} else {
		/* with startedBy the service filter is applied afterwards: one chain */
		size_t nsvc = q->nservices && q->started_by == NULL ? q->nservices : 1, k = 0;
		bool running = q->running || !q->stopped;

		p.nchains = nsvc * ((running ? 1 : 0) + (q->stopped ? 1 : 0));
		p.chains = xcalloc(p.nchains, sizeof *p.chains);
		for (size_t i = 0; i < nsvc; i++) {
			const char *svc = nsvc > 1 || (q->nservices && q->started_by == NULL)
					  ? q->services[i] : NULL;
			if (running)
				p.chains[k++] = (struct chain){ svc, "RUNNING", NULL, true, false };
			if (q->stopped)
				p.chains[k++] = (struct chain){ svc, "STOPPED", NULL, true, false };
		}
	}

	if (nw < 1)
		nw = 1;
	w = xcalloc((size_t)nw, sizeof *w);
	for (long i = 0; i < nw; i++) {
		w[i].p = &p;
		w[i].t = &c->transports[i];
	}
	/* the calling thread is worker 0 */
	for (long i = 1; i < nw; i++)
		if (pthread_create(&w[i].thread, NULL, worker_run, &w[i]) != 0) {
			nw = i;
			break;
		}
	worker_run(&w[0]);
	for (long i = 1; i < nw; i++)
		pthread_join(w[i].thread, NULL);
	free(w);

	pthread_mutex_lock(&c->creds_lock);
	st->requests = c->requests;
	st->throttled = c->throttled;
	pthread_mutex_unlock(&c->creds_lock);

	if (p.failed) {
		*err = p.err;
		if (strcmp(err->aws_type, "ClusterNotFoundException") == 0)
			explain_cluster_not_found(c, q->cluster, err);
		goto out;
	}
	/* every batch was handed over as it completed */
	ret = 0;
out:
	for (size_t i = 0; i < p.nbatches; i++) {
		struct batch *b = p.batches[i];
		for (size_t j = 0; j < b->nresults; j++)
			free(b->results[j].json);
		free(b->results);
		free(b->arns);
		free(b);
	}
	free(p.batches);
	for (size_t i = 0; i < p.nchains; i++)
		free(p.chains[i].token);
	free(p.chains);
	/* the seen set owns every ARN string (batches and pending only borrow them) */
	for (size_t i = 0; i < p.seen.cap; i++)
		free(p.seen.v[i]);
	free(p.seen.v);
	free(p.pending);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return ret;
}
