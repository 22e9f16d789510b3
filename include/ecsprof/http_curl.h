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

struct http_curl_options {
	const char *ca_bundle;      /* PEM file (aws_context: AWS_CA_BUNDLE or the profile's
				     * ca_bundle); NULL = the system store */
	long connect_timeout_ms;    /* 0 = 10 s */
	long timeout_ms;            /* whole request; 0 = 60 s */
	size_t max_body;            /* 0 = 64 MiB */
	bool debug;                 /* trace the exchange on stderr, secrets redacted */
};

/* Fills out; fails (ERR_NETWORK) only when libcurl cannot be initialised. */
int http_curl_new(const struct http_curl_options *o, struct http_transport *out,
		  struct err *err);
void http_curl_free(struct http_transport *t);

#endif
