/* awsjson: the one client for AWS's JSON protocol (awsJson1_1: POST to the endpoint,
 * "X-Amz-Target: <prefix><Operation>", a JSON body), shared by ECS, ECR and whatever comes
 * next: endpoint, SigV4 signing, the standard retries, errors mapped to one line. Its
 * signed, retried send (awsjson_send) carries the query protocol's requests too
 * (awsquery.h: CloudWatch, ELBv2), so that every AWS call retries and fails alike.
 * Ownership: a client borrows its options' service, callbacks and strings for its lifetime
 * and owns its copies of the endpoint parts; a json_t answer is the caller's (json_decref);
 * the request body is borrowed. Private to src/aws/ because it speaks jansson, which no
 * public header may (tests/style.sh).
 *
 * Adding an operation of an existing service (e.g. ECR's DescribeImages):
 *   1. build the request:  json_t *req = json_pack("{s:s}", "repositoryName", name);
 *   2. call it:            rc = awsjson_call(c, t, "DescribeImages", req, &resp, NULL, err);
 *                          json_decref(req);
 *   3. read the answer with jansson, copy what you keep into your own structs, and
 *      json_decref(resp). On failure err already reads "Code: message — what to do"; add
 *      hints for the service's own error codes to the table in awserr.c.
 * Adding a service: one `const struct awsjson_service` (below, defined in awsjson.c) and
 * its own client file (ecs.c is the model): resolve the endpoint with
 * awsjson_endpoint(), create the client, and give each thread its own transport. */
#ifndef ECSPROF_AWSJSON_H
#define ECSPROF_AWSJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ecsprof/buf.h"
#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"

struct awsjson_service {
	const char *service_id;     /* "ECS": AWS_ENDPOINT_URL_ECS, [services] key "ecs",
				     * and the name in messages */
	const char *signing_name;   /* "ecs": SigV4 service, and the IAM action prefix */
	const char *target_prefix;  /* "AmazonEC2ContainerServiceV20141113."; NULL: a
				     * query-protocol service (awsquery.h) */
	const char *host_prefix;    /* "ecs": https://ecs.REGION.amazonaws.com */
	const char *iam_prefix;     /* the IAM action prefix when it is not signing_name
				     * (CloudWatch signs as "monitoring", is "cloudwatch:") */
};

extern const struct awsjson_service awsjson_ecs;
extern const struct awsjson_service awsjson_ecr;
extern const struct awsjson_service awsjson_appscaling;
extern const struct awsjson_service awsjson_cloudwatch;   /* query protocol */
extern const struct awsjson_service awsjson_elbv2;        /* query protocol */
extern const struct awsjson_service awsjson_ec2;          /* the endpoint only, for now */

/* The service's endpoint as the AWS CLI resolves it: explicit_url (--endpoint-url) >
 * AWS_ENDPOINT_URL_<ID> > AWS_ENDPOINT_URL > the profile's services section > the
 * profile's endpoint_url > the standard regional host (FIPS / dual-stack applied). The
 * caller frees *url. */
int awsjson_endpoint(struct aws_context *ctx, const struct awsjson_service *svc,
		     const char *explicit_url, char **url, struct err *err);

struct timeutil_clock;

struct awsjson_options {
	const struct awsjson_service *service;   /* required */
	const char *endpoint;          /* resolved URL (awsjson_endpoint); required */
	/* region, attempts, credentials, debug, log and clock (its cancel is not read: each
	 * call takes its own, awsjson_call_options) */
	struct aws_client_common common;
};

struct awsjson_client;

int awsjson_client_new(const struct awsjson_options *o, struct awsjson_client **out,
		       struct err *err);
void awsjson_client_free(struct awsjson_client *c);

/* Sends op with body (borrowed) through t and returns the parsed JSON object answer in
 * *out. Safe from several threads at once, each with its own transport. A 200 whose body
 * is not JSON (cut short by a proxy) is asked again like a 5xx. answered_ms (may be NULL)
 * is when the answer arrived. On failure (-1) err is one line (awsjson_error). */
int awsjson_call(struct awsjson_client *c, const struct http_transport *t, const char *op,
		 json_t *body, json_t **out, int64_t *answered_ms, struct err *err);

/* The same with per-call options. */
struct awsjson_call_options {
	const int *cancel;     /* in, may be NULL: non-zero (read atomically) gives up at
				* once, retries and backoff included (err->aws_type
				* HTTP_CANCELLED) */
	int64_t answered_ms;   /* out: when the answer arrived */
	/* in, may be NULL: given a 2xx answer's body first; 0: it took the answer (*out
	 * stays NULL; it may have taken the bytes too, with buf_take(), saving a copy of
	 * an answer it keeps), 1: not sure, the body (left as it was) is parsed into *out
	 * as without it (called again for an answer asked again) */
	int (*body)(void *arg, struct buf *body);
	void *body_arg;
};
int awsjson_call_opt(struct awsjson_client *c, const struct http_transport *t,
		     const char *op, json_t *body, struct awsjson_call_options *o, json_t **out,
		     struct err *err);
/* The same with the request already encoded (body[0..len), borrowed): for a hot request
 * written without a DOM, as awsjson_dump_compact() would write it. */
int awsjson_call_text(struct awsjson_client *c, const struct http_transport *t,
		      const char *op, const char *body, size_t len,
		      struct awsjson_call_options *o, json_t **out, struct err *err);

/* One request of any protocol through the client's signing and retries (awsjson_call
 * and the query protocol's awsquery_call are built on it). A 2xx answer goes to accept:
 * 0 it took it, 1 it is malformed (why says how; asked again like a 5xx, up to the
 * attempts, then "the answer was cut short or is not <format>"), -1 a failure (err set);
 * on 0 it may have taken the bytes (buf_take). Every string is borrowed. */
struct awsjson_raw {
	const char *content_type;
	const char *target;        /* X-Amz-Target (prefix and operation); NULL: none */
	const char *body;
	size_t body_len;
	const int *cancel;         /* as awsjson_call_options.cancel */
	int (*accept)(void *arg, struct buf *body, char *why, size_t whysize,
		      struct err *err);
	void *accept_arg;
	const char *format;        /* "JSON", "XML": for the messages */
	int64_t answered_ms;       /* out */
};
int awsjson_send(struct awsjson_client *c, const struct http_transport *t, const char *op,
		 struct awsjson_raw *r, struct err *err);

/* Counters since the last awsjson_reset(); a failed credential chain is remembered until
 * then, so that the threads of one run do not each run it again. */
struct awsjson_counts {
	size_t requests;       /* HTTP attempts, retries included */
	size_t throttled;      /* throttled responses */
};
void awsjson_reset(struct awsjson_client *c);
void awsjson_counts(struct awsjson_client *c, struct awsjson_counts *out);
const char *awsjson_region(const struct awsjson_client *c);

/* Turns a failed response (status >= 300) into one line a user can act on:
 * "CODE: message — what to do", with err->aws_type = CODE and err->http_status set. The
 * code comes from X-Amzn-ErrorType, the JSON __type or code, or an XML <Code> (moto answers
 * auth failures in XML); op is the operation, for IAM hints. Returns -1. */
int awsjson_error(const struct awsjson_service *svc, const char *op,
		  const struct http_response *resp, int attempts, struct err *err);

/* json_dumps(v, JSON_COMPACT)'s very text (free() it), written directly when v holds only
 * objects, arrays, integers, true, false, null and strings of printable ASCII without '"'
 * or '\\' (every request body ecsprof sends), else by json_dumps. NULL as json_dumps. */
char *awsjson_dump_compact(json_t *v);

/* A time as the AWS CLI prints it (Python's datetime.isoformat(), here always in UTC):
 * "2026-12-07T14:02:00+00:00", "2026-12-07T14:02:00.123000+00:00" (microseconds when not
 * zero); us is microseconds since the epoch. */
#define AWSJSON_TIME_LEN 40
void awsjson_format_time(int64_t us, char out[AWSJSON_TIME_LEN]);
/* Rewrites, anywhere in v, the members named keys (NULL-terminated) that are numbers
 * (epoch seconds, as the JSON protocols send a timestamp) as the CLI's text of that time,
 * so that a live answer reads as a saved `aws ... --output json` file. */
void awsjson_cli_times(json_t *v, const char *const *keys);

/* Paging (ecs_limits.c, for every client): 1 to ask for the page after pages pages with
 * token next, 0 when next is NULL (the last page), -1 and err when the server repeats the
 * token it was given (prev) or the chain passes the cap of 1000 pages. */
int awsjson_page_next(const char *op, const char *prev, const char *next, size_t pages,
		      struct err *err);

#endif
