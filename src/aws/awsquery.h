/* awsquery: the one client for AWS's query protocol (CloudWatch, Elastic Load Balancing
 * v2, EC2): a form-encoded POST "Action=<op>&Version=<v>&<params>" sent through the
 * awsjson client's endpoint, SigV4 signing, retries and error lines, whose answer is XML;
 * and the reader that turns an answer into the JSON the AWS CLI prints for it, along the
 * operation's output shape (botocore's service-2.json, written as a table of fields).
 * Ownership: parameters and shapes are borrowed; a json_t answer is the caller's
 * (json_decref). Private to src/aws/ because it speaks jansson. */
#ifndef ECSPROF_AWSQUERY_H
#define ECSPROF_AWSQUERY_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "awsjson.h"

/* One request parameter; values are form-encoded here. List members are named as the
 * protocol flattens them ("AlarmNames.member.1"). */
struct awsquery_param {
	const char *name;
	const char *value;
};

/* The types of botocore's shapes that the answers read here use. */
enum awsquery_type {
	AQ_STRING,
	AQ_INTEGER,
	AQ_DOUBLE,
	AQ_BOOLEAN,
	AQ_TIMESTAMP,          /* written as the CLI prints it: "2026-12-07T14:02:00+00:00" */
	AQ_STRUCT,             /* members */
	AQ_LIST,               /* <X><member>..</member></X> (EC2: <item>); members: of
				* structures, NULL: of strings */
	AQ_MAP,                /* <X><entry><key/><value/></entry></X> of strings */
};

/* A member of a structure, in the shape's order (the order botocore, and so the CLI,
 * writes the keys in); a table ends with a NULL name. */
struct awsquery_field {
	const char *name;
	enum awsquery_type type;
	const struct awsquery_field *members;
};

/* The largest answer read (a page of 100 alarms is well under 1 MiB). */
#define AWSQUERY_MAX_ANSWER ((size_t)16 << 20)

/* Sends op (API version version) with params[0..n) through c on t, and reads the answer's
 * <opResult> (EC2: the root's children) along shape into *out, a JSON object with the
 * members present (lists and maps that the answer has, even empty). cancel may be NULL.
 * On failure (-1) err is one line naming op and why (AccessDenied: the IAM action to
 * grant). */
int awsquery_call(struct awsjson_client *c, const struct http_transport *t, const char *op,
		  const char *version, const struct awsquery_param *params, size_t n,
		  const struct awsquery_field *shape, const int *cancel, json_t **out,
		  struct err *err);

/* An operation read page by page: every page of op (API version version) with the
 * params, then token_in=<the token> (NextToken or Marker) after the first page, for as
 * long as the answer has token_out (NextToken or NextMarker). The lists named lists
 * (NULL-terminated) of every page are appended to the same lists of *merged (a JSON
 * object, created when NULL): {"MetricAlarms":[...],...}, each list there even when no
 * page had it. A repeated token or more than 1000 pages is an error. */
struct awsquery_paging {
	const char *op;
	const char *version;
	const struct awsquery_field *shape;
	const char *token_in;
	const char *token_out;
	const char *const *lists;
};
int awsquery_paged(struct awsjson_client *c, const struct http_transport *t,
		   const struct awsquery_paging *pg, const struct awsquery_param *params,
		   size_t n, const int *cancel, json_t **merged, struct err *err);
/* The same for items[0..n) sent as the members of list ("AlarmNames" ->
 * AlarmNames.member.1 ...), batch at a time, after the fixed params: one chain of pages
 * per batch, all merged (one chain without members when n is 0). */
int awsquery_batched(struct awsjson_client *c, const struct http_transport *t,
		     const struct awsquery_paging *pg, const struct awsquery_param *fixed,
		     size_t nfixed, const char *list, const char *const *items, size_t n,
		     size_t batch, const int *cancel, json_t **merged, struct err *err);

/* The reading alone, for the tests and the fuzz harness: body[0..len) as the answer of op.
 * 0 and *out, or -1 and err ("op: the XML answer ...: why"). */
int awsquery_read(const char *body, size_t len, const char *op,
		  const struct awsquery_field *shape, json_t **out, struct err *err);

#endif
