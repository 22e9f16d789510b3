/* sigv4_canon: the parts of SigV4's canonical request, by the rules of the aws-c-auth
 * signer (see sigv4.c): the path (normalised, encoded), the query (decoded, strictly
 * re-encoded, sorted) and the headers (lower-cased, values folded and squeezed). Private
 * to sigv4.c. */
#ifndef ECSPROF_SIGV4_CANON_H
#define ECSPROF_SIGV4_CANON_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/buf.h"

/* Requests ECS and STS accept are small; the cap only stops runaway inputs. */
#define SIGV4_TEXT_MAX ((size_t)1 << 20)

struct chdr {
	char *name;     /* lower-cased */
	char *value;    /* trimmed, whitespace runs squeezed to one space */
	size_t order;   /* position in the request: duplicates keep request order */
	bool secret;    /* the session token: wiped on free */
};

/* appends the n bytes at s percent-encoded (RFC 3986 unreserved kept; '/' too with
 * keep_slash, "%XX" as it is with keep_pct); -1 on a bad escape */
int uri_encode(struct buf *out, const char *s, size_t n, bool keep_slash, bool keep_pct);
/* the n bytes of path p with "." and ".." segments resolved and empty ones dropped
 * (malloc'd) */
char *normalize_path(const char *p, size_t n);
/* appends the canonical form of the query string q (n bytes); -1 on a bad escape */
int canonical_query(struct buf *cr, const char *q, size_t n);
/* qsort order of headers: by name, then request order */
int chdr_cmp(const void *a, const void *b);
/* v trimmed, its whitespace runs (folds too) one space (malloc'd) */
char *squeeze_value(const char *v);
/* s lower-cased (malloc'd) */
char *lower_dup(const char *s);
/* frees the n headers at h, wiping the secret ones */
void chdrs_free(struct chdr *h, size_t n);

#endif
