/* http: one HTTP exchange through a replaceable transport (libcurl in production, a
 * scripted fake in unit tests), and the retry policy on top of it (AWS SDK standard mode).
 * Ownership: a http_request borrows everything it points to; a http_response owns its
 * body and headers, freed by http_response_cleanup(). */
#ifndef ECSPROF_HTTP_H
#define ECSPROF_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/buf.h"
#include "ecsprof/err.h"

struct http_header {
	const char *name;
	const char *value;
};

struct http_request {
	const char *method;         /* "POST" */
	const char *url;            /* "https://ecs.us-east-1.amazonaws.com/" */
	const struct http_header *headers;
	size_t nheaders;
	const char *body;
	size_t body_len;
	long timeout_ms;            /* whole request; 0 = transport default */
	long connect_timeout_ms;
	const int *cancel;          /* may be NULL; non-zero (read atomically): give up now,
				     * err->aws_type HTTP_CANCELLED */
	struct buf *trace;          /* may be NULL; with a debug transport the trace of this
				     * exchange goes here instead of stderr (one block per
				     * request, so that requests in flight do not interleave) */
};

struct http_response {
	long status;                /* 0 when no response arrived */
	struct buf body;
	char *headers;              /* raw header block, "Name: value\r\n"...; owned */
};

/* Returns 0 when a response arrived (any status), -1 with err (ERR_NETWORK) when not:
 * DNS, connect, TLS, reset, timeout. err->msg says which. */
typedef int http_send_fn(void *ctx, const struct http_request *req,
			 struct http_response *resp, struct err *err);

struct http_transport {
	http_send_fn *send;
	void *ctx;
};

void http_response_init(struct http_response *r);
/* For answers that carry secrets (credentials, tokens): the body is a buf_init_secret(). */
void http_response_init_secret(struct http_response *r);
void http_response_cleanup(struct http_response *r);
/* Value of a response header (case-insensitive name) copied into out; -1 if absent. */
int http_response_header(const struct http_response *r, const char *name, char *out, size_t size);

/* --- added by the live-ECS module (http.c): network error classes and the retry policy --- */

/* err->aws_type of an ERR_NETWORK the retry policy may retry; "" means it will not heal
 * (certificate, bad URL, response too large). */
#define HTTP_NET_TIMEOUT "RequestTimeout"
#define HTTP_NET_CONNECTION "ConnectionError"
/* err->aws_type (ERR_NETWORK) of a request given up because its cancel flag was set */
#define HTTP_CANCELLED "Cancelled"

/* Builds the request of one attempt. Called again before every attempt so that the
 * signature carries a fresh time; now_ms is our clock corrected by the server's skew.
 * The request and what it points to belong to ctx and must stay valid until the next
 * call or the end of http_send_retry(). */
typedef int http_prepare_fn(void *ctx, int64_t now_ms, struct http_request *req,
			    struct err *err);

struct timeutil_clock;
struct log;

struct http_retry {
	int max_attempts;      /* <= 0: 3 (AWS standard mode) */
	int64_t base_ms;       /* <= 0: 100 */
	int64_t cap_ms;        /* <= 0: 20000 */
	int64_t *skew_ms;      /* in/out, may be NULL: server clock minus ours, shared by
				* the threads of a run (read and written atomically) */
	const int *cancel;     /* may be NULL; non-zero (read atomically): no further
				* attempt, the backoff wait cut short (HTTP_CANCELLED) */
	struct buf *trace;     /* may be NULL: written (log_block) and emptied after each
				* attempt; prepare and the transport fill it (--debug) */
	const struct log *log; /* the trace and the retries' lines; NULL: log.h */
	const struct timeutil_clock *clock;  /* the signing time and the backoff waits;
				* NULL: timeutil_clock_now()'s default */
	/* out */
	int attempts;
	int throttled;         /* how many responses were throttling */
	bool skew_corrected;
};

/* Sends with retries: throttling codes and HTTP 429, 500, 502, 503, 504, transient codes,
 * timeouts and broken connections are retried with full-jitter exponential backoff (or
 * Retry-After when longer); other 4xx are not (each retry is logged with log_info). A clock-skew error is retried once, signed
 * with the server's time from the Date header. Returns 0 with the last response (any
 * status: the caller turns non-2xx into an error), or -1 with err when no response came. */
int http_send_retry(const struct http_transport *t, struct http_retry *r,
		    http_prepare_fn *prepare, void *pctx, struct http_response *resp,
		    struct err *err);

/* The AWS error code of a response, sanitised (text before ':', after '#'): from the
 * X-Amzn-Errortype header, the JSON "__type"/"code", or an XML <Code>. -1 if none. */
int http_aws_error_code(const struct http_response *r, char *out, size_t size);
bool http_is_throttling_code(const char *code);
/* True when cancel is set (NULL: never). */
bool http_cancelled(const int *cancel);
/* RFC 7231 HTTP-date ("Sun, 06 Nov 1994 08:49:37 GMT", also the RFC 850 and asctime
 * forms) to ms; -1 if not one. */
int http_parse_date(const char *s, int64_t *out_ms);

#endif
