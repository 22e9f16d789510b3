/* creds: the AWS context of a run (profile, region, endpoints, retry settings) and the
 * credential chain, resolved the way the AWS CLI does.
 * Ownership: struct aws_context owns everything in it, freed by aws_context_cleanup();
 * struct aws_creds owns its strings, wiped and freed by aws_creds_cleanup(). */
#ifndef ECSPROF_CREDS_H
#define ECSPROF_CREDS_H

#include <stdbool.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/http.h"

struct aws_creds {
	char *access_key_id;
	char *secret_access_key;
	char *session_token;          /* NULL for long-term keys */
	int64_t expires_ms;           /* TS_NONE when they do not expire */
	char *source;                 /* "environment", "profile dev (static keys)", ... */
};

struct timeutil_clock;
struct log;

/* Credentials for one request (creds_get in production). Called under the client's lock,
 * so it need not be thread-safe. */
typedef int aws_creds_fn(void *arg, struct aws_creds *out, struct err *err);

/* What every AWS client of ours is made with, whichever service it calls (ECS, ECR, EC2,
 * the scale-out services): where and as whom it signs, how hard it tries, where it logs
 * and which clock it reads. Borrowed by the client for its lifetime. */
struct aws_client_common {
	const char *region;            /* signing region; required */
	int max_attempts;              /* <= 0: 3 */
	aws_creds_fn *creds;           /* required */
	void *creds_arg;
	bool debug;                    /* log the canonical requests (token redacted) */
	const struct log *log;         /* NULL: log.h */
	/* may be NULL; non-zero (read atomically): every call in flight gives up at once
	 * (HTTP_CANCELLED). ECS's client does not read it: each of its calls takes its own. */
	const int *cancel;
	/* signing, backoff and (ECS) the waits of fetch and stop; NULL: see
	 * timeutil_clock_now() */
	const struct timeutil_clock *clock;
};

struct awscfg;                        /* awscfg.h */
struct creds_cache;                   /* private to creds.c */

struct aws_context_options {
	const char *profile;          /* --profile, NULL = AWS_PROFILE or "default" */
	const char *region;           /* --region */
	const char *endpoint_url;     /* --endpoint-url */
	const char *service;          /* "ecs" */
	bool debug;                   /* --debug: trace requests (secrets redacted) */
	const struct log *log;        /* borrowed for the context's lifetime; NULL: log.h */
	/* expiry, signing and retry waits; borrowed for the context's lifetime; NULL: see
	 * timeutil_clock_now() */
	const struct timeutil_clock *clock;
};

struct aws_context {
	char *profile;                /* selected profile name */
	char *region;                 /* resolved (init fails when none can be found) */
	char *endpoint;               /* resolved service endpoint URL, e.g. https://ecs.us-east-1.amazonaws.com */
	char *sts_endpoint;
	char *ca_bundle;              /* AWS_CA_BUNDLE / ca_bundle, or NULL */
	int max_attempts;             /* AWS_MAX_ATTEMPTS / max_attempts, default 3 */
	bool debug;
	const struct log *log;        /* from the options, borrowed */
	struct awscfg *cfg;           /* parsed config + credentials files */
	struct http_transport transport;  /* for STS, SSO, container, IMDS calls */
	struct creds_cache *cache;
	const struct timeutil_clock *clock;   /* from the options, borrowed */
};

/* Reads the environment and the config files; resolves profile, region and endpoint.
 * Does not fetch credentials yet. transport is borrowed for the context's lifetime.
 * Fails (ERR_CONFIG) on a malformed config file, a named profile that does not exist, no
 * region at all, FIPS/dual-stack with a custom endpoint, or a bad max_attempts. */
int aws_context_init(struct aws_context *ctx, const struct aws_context_options *o,
		     struct http_transport transport, struct err *err);
void aws_context_cleanup(struct aws_context *ctx);

/* What a client made from ctx signs and retries with: ctx's region, max_attempts, debug,
 * log and clock, credentials from creds(arg), no cancel. */
struct aws_client_common aws_client_common_of(const struct aws_context *ctx,
					      aws_creds_fn *creds, void *arg);

/* Current credentials, fetched on first use and refreshed before they expire (a watch
 * can run for hours). Copies into out; the caller cleans it up. On failure (ERR_CREDS)
 * the message lists each source tried and why it gave nothing. Safe to call from several
 * threads: fetching happens under a lock, the only time ctx->transport is used, so give the
 * context a transport that no other thread uses. */
int creds_get(struct aws_context *ctx, struct aws_creds *out, struct err *err);
void aws_creds_cleanup(struct aws_creds *c);

/* The URL the container provider calls, from AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and
 * _FULL_URI (NULL = unset; relative wins). Plain http is allowed only to loopback and the
 * ECS/EKS link-local agents. -1 (ERR_CREDS) when neither is set or the URI is refused;
 * *url is the caller's to free. */
int creds_container_url(const char *relative_uri, const char *full_uri, char **url,
			struct err *err);

#endif
