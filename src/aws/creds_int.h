/* creds_int: what the creds_*.c files share: the provider calling convention, a small
 * JSON reader whose memory is wiped (credential documents hold secrets, and jansson frees
 * without wiping), URL splitting and HTTP helpers.
 * Ownership: a creds_json owns copies of every value and wipes them in creds_json_free(). */
#ifndef ECSPROF_CREDS_INT_H
#define ECSPROF_CREDS_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/buf.h"
#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"
#include "ecsprof/strset.h"

/* Provider results: found (out filled), not configured (why filled: "not set ..."), or a
 * hard error (err filled) that stops the chain, as botocore raises for a configured source
 * that fails. */
#define CREDS_FOUND 0
#define CREDS_NONE 1
#define CREDS_ERROR (-1)

#define CREDS_REFRESH_MS (5 * 60 * 1000)

struct creds_cache {
	pthread_mutex_t lock;         /* creds_get() may be called from worker threads */
	bool profile_explicit;        /* --profile given: environment keys are skipped */
	bool use_fips, use_dualstack;
	char *config_path, *credentials_path;
	bool have;
	struct aws_creds creds;
	bool endpoint_explicit;       /* --endpoint-url given (it sets the ECS endpoint only) */
	struct strset warned_endpoints;   /* the services creds_endpoint_warn_aws named */
	atomic_bool http_warned;      /* a plain-http endpoint off the host warned (endpoint.h) */
};

/* Flat view of a JSON object: "roleCredentials.accessKeyId" -> value. Strings are
 * unescaped; numbers, true, false, null keep their text. Arrays are checked, not kept. */
struct creds_json_item {
	char *key;
	char *value;
	bool is_string;
};

struct creds_json {
	struct creds_json_item *items;
	size_t n, cap;
};

/* -1 with ERR_PARSE ("byte N: why") when text is not one JSON object. */
int creds_json_parse(const char *text, size_t len, struct creds_json *out, struct err *err);
const char *creds_json_get(const struct creds_json *j, const char *key);
const struct creds_json_item *creds_json_item(const struct creds_json *j, const char *key);
void creds_json_free(struct creds_json *j);

/* The container/IMDS credential document ({AccessKeyId, SecretAccessKey, Token,
 * Expiration}); what names the source in errors. */
int creds_from_doc(const char *body, size_t len, const char *what, struct aws_creds *out,
		   struct err *err);

/* An STS query-protocol answer (AssumeRole, AssumeRoleWithWebIdentity): the credentials
 * of a 200, else its <Error> as one line in err. Separate from the POST so the fuzz
 * harness reads the same bytes the network would hand it. */
int creds_sts_answer(const struct http_response *r, const char *what, const char *source,
		     struct aws_creds *out, struct err *err);

/* A buf for a secret: allocated once at its cap, so it never moves (and leaves no
 * unwiped copy); adds beyond max fail. Clean up with buf_cleanup_secure(). */
void creds_buf_secret(struct buf *b, size_t max);
/* Wipes and frees a string holding a secret. */
void creds_free_secret(char *s);
/* Duplicates a string; secrets only pass through here so the copy is counted. */
void creds_set(struct aws_creds *c, const char *akid, const char *secret, const char *token,
	       int64_t expires_ms, const char *source);
void creds_copy(struct aws_creds *dst, const struct aws_creds *src);

/* "scheme://host[:port]/path?q" -> parts (host keeps [] around IPv6). -1 when no host. */
struct creds_url {
	char scheme[16];
	char host[256];              /* host[:port], for the Host header */
	char hostname[256];          /* without port and without [] */
	const char *path;            /* into the source string; "" when absent */
};
int creds_url_split(const char *url, struct creds_url *u);

/* Form / query encoding (RFC 3986 unreserved kept). */
void creds_urlencode(struct buf *b, const char *s);

/* Reads a whole small file (a token); trailing whitespace trimmed. Caller wipes+frees. */
int creds_read_file(const char *path, size_t max, char **out, struct err *err);

/* Splits a credential_process line into words as botocore does (Python's shlex.split,
 * POSIX rules, no comments): blanks separate words, '...' is literal, "..." keeps a
 * backslash unless it precedes " or \, a backslash outside quotes takes the next
 * character; nothing is expanded. *argv is NULL-terminated (free with creds_argv_free).
 * -1 with ERR_CONFIG "no closing quotation" / "no escaped character" / "no command". */
int creds_split_command(const char *line, char ***argv, struct err *err);
void creds_argv_free(char **argv);

/* Value of environment variable name, NULL when unset or empty. */
const char *creds_env(const char *name);
bool creds_truthy(const char *v);

/* Profile property, NULL when absent or empty. */
const char *creds_prof(const struct aws_context *ctx, const char *profile, const char *key);

/* URL for a service: explicit_url > AWS_ENDPOINT_URL_<svc_env> > AWS_ENDPOINT_URL >
 * [services] svc_key endpoint_url > profile endpoint_url > standard host (host_prefix);
 * use_variants applies the FIPS / dual-stack settings. Caller frees *url. */
/* Under --endpoint-url, one warning per run and service (svc_env "ECR", svc_key "ecr")
 * when that service's calls go to AWS's own endpoint url: it names the service and the
 * variable that would send them elsewhere. Call it where the service is first used. */
void creds_endpoint_warn_aws(struct aws_context *ctx, const char *svc_env, const char *svc_key,
			     const char *url);
int creds_service_endpoint(struct aws_context *ctx, const char *explicit_url, const char *svc_env,
			   const char *svc_key, const char *host_prefix, const char *region,
			   bool use_variants, char **url, struct err *err);

/* Providers. */
int creds_env_provider(struct aws_creds *out, struct buf *why, struct err *err);
int creds_static_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
			  struct err *err);
int creds_process_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
			   struct err *err);
int creds_container_provider(struct aws_context *ctx, struct aws_creds *out, struct buf *why,
			     struct err *err);
int creds_imds_provider(struct aws_context *ctx, struct aws_creds *out, struct buf *why,
			struct err *err);
int creds_sso_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		       struct err *err);
/* STS. source: the credentials signing AssumeRole (borrowed). */
struct creds_assume_role {
	const char *role_arn;
	const char *session_name;     /* NULL = "ecsprof-<epoch s>" */
	const char *external_id;
	const char *duration_seconds;
	const char *profile;          /* for messages */
};
int creds_sts_assume_role(struct aws_context *ctx, const struct creds_assume_role *ar,
			  const struct aws_creds *source, struct aws_creds *out, struct err *err);
int creds_sts_web_identity(struct aws_context *ctx, const struct creds_assume_role *ar,
			   const char *token_file, struct aws_creds *out, struct err *err);

/* One exchange; wipes the response body when the caller says it holds secrets. */
void creds_response_cleanup(struct http_response *r);

#endif
