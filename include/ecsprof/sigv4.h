/* sigv4: AWS Signature Version 4 (AWS4-HMAC-SHA256) for header-signed requests:
 * canonical request -> string to sign -> derived key -> Authorization.
 * Ownership: sigv4_sign() borrows its inputs and fills a caller-provided sigv4_output
 * whose strings it owns; sigv4_output_cleanup() wipes and frees them (the session
 * token is the only secret that can appear in an output; keys never do). */
#ifndef ECSPROF_SIGV4_H
#define ECSPROF_SIGV4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/http.h"

struct sigv4_cache;

struct sigv4_key {
	const char *access_key_id;
	const char *secret_access_key;
	const char *session_token;      /* NULL or "" for long-term keys */
};

struct sigv4_input {
	const char *method;             /* "POST" */
	const char *path;               /* raw request target, may contain "?query"; "" = "/" */
	const char *region;             /* "us-east-1" */
	const char *service;            /* signing name: "ecs", "sts" */
	/* Every header the request will carry and that should be signed (Host is required;
	 * names in any case; a name may repeat). If X-Amz-Date is among them its value is
	 * used as the signing time and time_ms is ignored; likewise an X-Amz-Security-Token
	 * here is signed as given and not added again. */
	const struct http_header *headers;
	size_t nheaders;
	const char *body;               /* may be NULL when body_len == 0 */
	size_t body_len;
	int64_t time_ms;                /* signing time, epoch ms (UTC) */
	bool normalize_path;            /* remove "." / ".." and repeated "/" (never for S3) */
	bool single_encode_path;        /* S3 only: do not percent-encode '%' in the path again */
	bool omit_session_token;        /* add the token header after signing, unsigned */
	bool sign_body;                 /* add and sign x-amz-content-sha256 */
	/* The signer's derived-key cache (sigv4_cache_new()), borrowed; NULL derives the key
	 * each time (four HMACs), as a one-off signer such as STS does. */
	struct sigv4_cache *cache;
};

struct sigv4_header {
	char *name;                     /* as to be sent: "X-Amz-Date", "Authorization" */
	char *value;
};

#define SIGV4_MAX_ADD 4

struct sigv4_output {
	char *canonical_request;        /* for tests; has the session token when it was signed */
	char *canonical_request_redacted;  /* for --debug: the token replaced by "<redacted>" */
	char *string_to_sign;
	char *signature;                /* 64 lower-case hex digits */
	char *signed_headers;           /* "content-type;host;x-amz-date;x-amz-target" */
	char *authorization;            /* full Authorization header value */
	char *amz_date;                 /* "20150830T123600Z" */
	/* Headers the caller must add to the request, in this order when present:
	 * X-Amz-Date, X-Amz-Content-Sha256, X-Amz-Security-Token, Authorization.
	 * The token value is a copy of a secret: sigv4_output_cleanup() wipes it. */
	struct sigv4_header add[SIGV4_MAX_ADD];
	size_t nadd;
};

/* Signs; on success fills out (zeroed first) and returns 0. -1 with ERR_INTERNAL or
 * ERR_USAGE on bad input (missing method, key, region, ...). */
int sigv4_sign(const struct sigv4_input *in, const struct sigv4_key *key,
	       struct sigv4_output *out, struct err *err);
void sigv4_output_cleanup(struct sigv4_output *out);

/* Lower-case hex SHA-256 of data into out[65]. */
void sigv4_sha256_hex(const void *data, size_t len, char out[65]);
/* "20150830T123600Z" for an epoch-ms time. */
void sigv4_format_amz_date(int64_t time_ms, char out[17]);
/* A cache of derived signing keys (four slots, least recently used replaced), owned by
 * the one who signs repeatedly and freed with it; thread-safe (it has its own lock), so
 * the threads of one client share it. Keys are wiped when dropped; secrets are never
 * stored, only their SHA-256. It also holds SHA-256 and HMAC as fetched from OpenSSL once,
 * which each signature with it uses instead of looking them up again. free and clear
 * accept NULL. */
struct sigv4_cache *sigv4_cache_new(void);
void sigv4_cache_free(struct sigv4_cache *c);
/* Drops the cached keys (wiped). */
void sigv4_cache_clear(struct sigv4_cache *c);
/* How many signatures took their key from the cache (for tests). */
unsigned long long sigv4_cache_hits(struct sigv4_cache *c);

#endif
