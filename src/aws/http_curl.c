/* http_curl: one CURL easy handle per transport, so that keep-alive connections and TLS
 * sessions are reused from one request to the next; libcurl appears nowhere else. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <openssl/crypto.h>

#include "ecsprof/buf.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/xalloc.h"
#include "ecsprof_version.h"

#define DEFAULT_CONNECT_TIMEOUT_MS 10000L
#define DEFAULT_TIMEOUT_MS 60000L

struct curl_transport {
	CURL *curl;
	char *ca_bundle;
	long connect_timeout_ms;
	long timeout_ms;
	size_t max_body;
	struct http_budget *budget;
	size_t charged;             /* this transport's part of budget->used */
	bool debug;
	bool body_too_big;
	bool over_budget;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_OK;

static void
global_init(void)
{
	global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct write_ctx {
	struct curl_transport *ct;
	struct http_response *resp;
	struct buf headers;
};

static size_t
write_body(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct write_ctx *w = userdata;
	size_t n = size * nmemb;

	struct http_budget *b = w->ct->budget;

	if (b != NULL && b->limit > 0) {
		if (__atomic_add_fetch(&b->used, n, __ATOMIC_RELAXED) > b->limit) {
			__atomic_sub_fetch(&b->used, n, __ATOMIC_RELAXED);
			w->ct->over_budget = true;
			return 0;
		}
		w->ct->charged += n;
	}
	if (w->resp->body.len == 0 && !w->resp->body.secret) {
		/* room for the whole answer at once when its length is announced (within
		 * the cap and the budget; past them the adds refuse as before): a 150 kB
		 * DescribeTasks answer is not copied again at each doubling */
		curl_off_t cl = -1;

		if (curl_easy_getinfo(w->ct->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) ==
			    CURLE_OK && cl > 0 && (uint64_t)cl <= w->ct->max_body &&
		    (b == NULL || b->limit == 0 || (uint64_t)cl <= b->limit))
			(void)buf_reserve(&w->resp->body, (size_t)cl);
	}
	if (buf_add(&w->resp->body, ptr, n) != 0) {
		w->ct->body_too_big = true;
		return 0;
	}
	return n;
}

/* The previous answer has been read by now: its bytes leave the budget. */
static void
release(struct curl_transport *ct)
{
	if (ct->budget != NULL && ct->charged > 0)
		__atomic_sub_fetch(&ct->budget->used, ct->charged, __ATOMIC_RELAXED);
	ct->charged = 0;
}

static size_t
write_header(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct write_ctx *w = userdata;
	size_t n = size * nmemb;

	/* a new status line (after 100 Continue or a proxy CONNECT) starts a new block */
	if (n >= 5 && memcmp(ptr, "HTTP/", 5) == 0)
		buf_reset(&w->headers);
	else if (buf_add(&w->headers, ptr, n) != 0)
		return 0;
	return n;
}

/* A line of the debug trace: into the request's trace when it has one (written as one
 * block by its owner), else straight to stderr. */
static void trace(const struct http_request *req, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
trace(const struct http_request *req, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (req->trace != NULL) {
		char line[4096];

		vsnprintf(line, sizeof line, fmt, ap);
		buf_adds(req->trace, line);
	} else {
		vfprintf(stderr, fmt, ap);
	}
	va_end(ap);
}

/* A header line for the debug trace, with credentials cut out. */
static void
debug_header(const struct http_request *req, const char *dir, const char *line)
{
	const char *sig;

	if (strncasecmp(line, "x-amz-security-token:", 21) == 0) {
		trace(req, "%s x-amz-security-token: <redacted>\n", dir);
		return;
	}
	if (strncasecmp(line, "authorization:", 14) == 0 &&
	    (sig = strstr(line, "Signature=")) != NULL) {
		trace(req, "%s %.*sSignature=<redacted>\n", dir, (int)(sig - line), line);
		return;
	}
	trace(req, "%s %s\n", dir, line);
}

static void
debug_response(const struct http_request *req, const struct http_response *resp)
{
	const char *p = resp->headers ? resp->headers : "";

	trace(req, "< HTTP %ld\n", resp->status);
	while (*p != '\0') {
		size_t n = strcspn(p, "\r\n");
		if (n > 0)
			trace(req, "< %.*s\n", (int)n, p);
		p += n;
		p += strspn(p, "\r\n");
	}
	if (resp->body.len > 0)
		trace(req, "< %.*s%s\n", resp->body.len > 2048 ? 2048 : (int)resp->body.len,
		      buf_str(&resp->body), resp->body.len > 2048 ? " ..." : "");
}

/* libcurl asks this during a transfer (about once a second when nothing moves, more
 * often otherwise): non-zero aborts it, which is how a cancelled run stops waiting. */
static int
xfer_info(void *clientp, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
	  curl_off_t ulnow)
{
	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	return http_cancelled(clientp) ? 1 : 0;
}

/* Which network failures the retry policy may retry: timeouts and broken or refused
 * connections may heal; a certificate that does not verify or a bad URL will not. */
static const char *
classify(CURLcode rc)
{
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		return HTTP_NET_TIMEOUT;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_BAD_CONTENT_ENCODING:
		return HTTP_NET_CONNECTION;
	default:
		return "";
	}
}

static void
wipe_slist(struct curl_slist *list)
{
	for (struct curl_slist *l = list; l != NULL; l = l->next)
		OPENSSL_cleanse(l->data, strlen(l->data));
	curl_slist_free_all(list);
}

/* EMFILE or ENFILE when a failed transfer failed for want of a file descriptor: the
 * errno libcurl kept, or else whether one can be opened now; 0 otherwise */
static int
out_of_fds(CURL *c, CURLcode rc)
{
	long os = 0;

	if (rc != CURLE_COULDNT_CONNECT && rc != CURLE_COULDNT_RESOLVE_HOST &&
	    rc != CURLE_COULDNT_RESOLVE_PROXY && rc != CURLE_FAILED_INIT)
		return 0;
	if (curl_easy_getinfo(c, CURLINFO_OS_ERRNO, &os) == CURLE_OK &&
	    (os == EMFILE || os == ENFILE))
		return (int)os;
	return err_fd_exhausted();
}

static int
curl_send(void *ctx, const struct http_request *req, struct http_response *resp,
	  struct err *err)
{
	struct curl_transport *ct = ctx;
	struct curl_slist *list = NULL, *tmp;
	struct write_ctx w = { ct, resp, { 0 } };
	char errbuf[CURL_ERROR_SIZE] = "";
	CURL *c = ct->curl;
	CURLcode rc;
	int fds;
	long status = 0;
	int ret = -1;

	buf_init(&w.headers, 1 << 20);
	buf_reset(&resp->body);
	free(resp->headers);
	resp->headers = NULL;
	resp->status = 0;
	ct->body_too_big = false;
	ct->over_budget = false;
	release(ct);

	for (size_t i = 0; i < req->nheaders; i++) {
		char *line = xasprintf("%s: %s", req->headers[i].name, req->headers[i].value);
		tmp = curl_slist_append(list, line);
		/* Authorization and X-Amz-Security-Token lines are secrets: every header
		 * line is wiped, ours here and curl's copy in wipe_slist() */
		OPENSSL_cleanse(line, strlen(line));
		free(line);
		if (tmp == NULL)
			goto oom;
		list = tmp;
	}
	/* no 100-continue round trip: AWS answers POSTs directly */
	if ((tmp = curl_slist_append(list, "Expect:")) == NULL)
		goto oom;
	list = tmp;

	curl_easy_setopt(c, CURLOPT_URL, req->url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, NULL);
	if (strcmp(req->method, "GET") == 0) {
		curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
	} else {
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body ? req->body : "");
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)(req->body ? req->body_len : 0));
		if (strcmp(req->method, "POST") != 0)
			curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
			 req->timeout_ms > 0 ? req->timeout_ms : ct->timeout_ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
			 req->connect_timeout_ms > 0 ? req->connect_timeout_ms
						     : ct->connect_timeout_ms);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &w);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, write_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &w);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, req->cancel != NULL ? 0L : 1L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, req->cancel != NULL ? xfer_info : NULL);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, (void *)req->cancel);

	if (ct->debug) {
		trace(req, "> %s %s\n", req->method, req->url);
		for (struct curl_slist *l = list; l != NULL; l = l->next)
			if (strcmp(l->data, "Expect:") != 0)
				debug_header(req, ">", l->data);
		if (req->body_len > 0)
			trace(req, "> %.*s\n", (int)req->body_len, req->body);
	}

	rc = curl_easy_perform(c);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	if (rc != CURLE_OK) {
		if (rc == CURLE_WRITE_ERROR && ct->over_budget) {
			err_set(err, ERR_NETWORK, "%s: the answers in flight would hold more than "
				"%zu MiB (this one reached %.1f MiB); lower --concurrency, or the "
				"endpoint is sending answers no ECS sends", req->url,
				ct->budget->limit >> 20, (double)resp->body.len / 1048576.0);
			snprintf(err->aws_type, sizeof err->aws_type, "%s", "");
		} else if ((rc == CURLE_WRITE_ERROR && ct->body_too_big) ||
			   rc == CURLE_FILESIZE_EXCEEDED) {
			err_set(err, ERR_NETWORK, "%s: response body larger than %zu bytes",
				req->url, ct->max_body);
			snprintf(err->aws_type, sizeof err->aws_type, "%s", "");
		} else if (rc == CURLE_ABORTED_BY_CALLBACK) {
			err_set(err, ERR_NETWORK, "%s: cancelled", req->url);
			snprintf(err->aws_type, sizeof err->aws_type, "%s", HTTP_CANCELLED);
		} else if (rc == CURLE_OUT_OF_MEMORY) {
			err_set(err, ERR_INTERNAL, "%s: out of memory", req->url);
			snprintf(err->aws_type, sizeof err->aws_type, "%s", "");
		} else if ((fds = out_of_fds(c, rc)) != 0) {
			/* libcurl says "Couldn't connect" (or cannot resolve) when socket() fails */
			err_set(err, ERR_NETWORK, "%s: cannot open a connection: %s", req->url,
				err_strerror(fds));
			snprintf(err->aws_type, sizeof err->aws_type, "%s", classify(rc));
		} else {
			err_set(err, ERR_NETWORK, "%s: %s", req->url,
				errbuf[0] ? errbuf : curl_easy_strerror(rc));
			snprintf(err->aws_type, sizeof err->aws_type, "%s", classify(rc));
		}
		if (ct->debug)
			trace(req, "< (no response) %s\n", err->msg);
		goto out;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	resp->status = status;
	resp->headers = buf_take(&w.headers);
	if (ct->debug)
		debug_response(req, resp);
	ret = 0;
	goto out;
oom:
	err_set(err, ERR_INTERNAL, "out of memory building the request headers");
out:
	buf_cleanup(&w.headers);
	wipe_slist(list);
	return ret;
}

int
http_curl_new(const struct http_curl_options *o, struct http_transport *out,
	      struct err *err)
{
	static const struct http_curl_options none = { 0 };
	struct curl_transport *ct;
	const char *ca;
	char *ua;

	if (o == NULL)
		o = &none;
	pthread_once(&global_once, global_init);
	if (global_rc != CURLE_OK)
		return err_set(err, ERR_NETWORK, "cannot initialise libcurl: %s",
			       curl_easy_strerror(global_rc));
	ct = xcalloc(1, sizeof *ct);
	ct->curl = curl_easy_init();
	if (ct->curl == NULL) {
		free(ct);
		return err_set(err, ERR_NETWORK, "cannot initialise libcurl");
	}
	/* AWS_CA_BUNDLE and the profile's ca_bundle are the AWS context's to weigh
	 * (aws_context_init): reading the variable here too would let it win where the
	 * caller decided otherwise */
	ca = o->ca_bundle;
	ct->ca_bundle = (ca != NULL && *ca != '\0') ? xstrdup(ca) : NULL;
	ct->connect_timeout_ms = o->connect_timeout_ms > 0 ? o->connect_timeout_ms
							   : DEFAULT_CONNECT_TIMEOUT_MS;
	ct->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : DEFAULT_TIMEOUT_MS;
	ct->max_body = o->max_body > 0 ? o->max_body : BUF_MAX_DEFAULT;
	ct->budget = o->budget;
	ct->debug = o->debug;

	CURL *c = ct->curl;
	ua = xasprintf("ecsprof/%s", ECSPROF_VERSION);
	curl_easy_setopt(c, CURLOPT_USERAGENT, ua);
	free(ua);   /* libcurl copies string options */
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (ct->ca_bundle != NULL)
		curl_easy_setopt(c, CURLOPT_CAINFO, ct->ca_bundle);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
	/* a 150 kB DescribeTasks answer in one or two reads, not ten of the default 16 kB:
	 * each read was a recvfrom, a poll and a write callback (2,700 reads for 600
	 * answers at 30k tasks) */
	curl_easy_setopt(c, CURLOPT_BUFFERSIZE, 256L * 1024);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)ct->max_body);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");

	out->send = curl_send;
	out->ctx = ct;
	return 0;
}

void
http_curl_free(struct http_transport *t)
{
	struct curl_transport *ct;

	if (t == NULL || t->ctx == NULL)
		return;
	ct = t->ctx;
	release(ct);
	curl_easy_cleanup(ct->curl);
	free(ct->ca_bundle);
	free(ct);
	t->ctx = NULL;
	t->send = NULL;
}
