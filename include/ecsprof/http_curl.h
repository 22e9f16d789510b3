/* http_curl: the production HTTP transport on libcurl (TLS always verified, HTTP/2 when the
 * server offers it, keep-alive connections reused between requests).
 * Ownership: http_curl_new() returns a transport whose ctx is owned by it and freed by
 * http_curl_free(); one transport must be used by one thread at a time. */
#ifndef ECSPROF_HTTP_CURL_H
#define ECSPROF_HTTP_CURL_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/err.h"
#include "ecsprof/http.h"

/* What the answers of a session's transports (one per worker thread) may hold in memory
 * at once. Each transport charges the body it receives and keeps the charge until its
 * next request or its end, the time its caller takes to read the answer; a body that
 * would take the sum over limit fails its request, so --concurrency 64 against huge
 * answers is bounded by the sum, not 64 times the largest answer. */
struct http_budget {
	size_t limit;               /* bytes; 0 = no limit */
	size_t used;                /* atomic */
};

struct http_curl_options {
	const char *ca_bundle;      /* PEM file (aws_context: AWS_CA_BUNDLE or the profile's
				     * ca_bundle); NULL = the system store */
	long connect_timeout_ms;    /* 0 = 10 s */
	long timeout_ms;            /* whole request; 0 = 60 s */
	size_t max_body;            /* 0 = 64 MiB */
	struct http_budget *budget; /* NULL: none; shared by transports, outlives them */
	bool debug;                 /* trace the exchange on stderr, secrets redacted */
};

/* Fills out; fails (ERR_NETWORK) only when libcurl cannot be initialised. */
int http_curl_new(const struct http_curl_options *o, struct http_transport *out,
		  struct err *err);
void http_curl_free(struct http_transport *t);

#endif
