/* endpoint: AWS service endpoint selection (the rule set every SDK generates for ECS and STS):
 * region -> partition -> https://SERVICE[-fips].REGION.SUFFIX, FIPS and dual-stack variants,
 * custom endpoints, and the deprecated fips- pseudo-regions.
 * Ownership: endpoint_resolve() returns a URL the caller frees; partition data is static. */
#ifndef ECSPROF_ENDPOINT_H
#define ECSPROF_ENDPOINT_H

#include <stdatomic.h>
#include <stdbool.h>

#include "ecsprof/err.h"

struct log;

struct endpoint_partition {
	const char *name;               /* "aws", "aws-cn", ... */
	const char *dns_suffix;         /* "amazonaws.com" */
	const char *dualstack_suffix;   /* "api.aws" */
};

struct endpoint_params {
	const char *region;             /* NULL = not set */
	bool use_fips;
	bool use_dualstack;
	const char *endpoint;           /* custom URL (--endpoint-url and friends), NULL = none */
	/* the caller's "plain http warned" flag (the run's context has one), so the warning
	 * comes once per context; NULL: warn at every resolve */
	atomic_bool *http_warned;
	const struct log *log;          /* where that warning goes (log.h) */
};

/* The partition a region belongs to: exact region lists first, then each partition's
 * region pattern, then "aws" (as the rules engine's aws.partition does). */
const struct endpoint_partition *endpoint_partition(const char *region);

/* URL for service ("ecs", "sts", "portal.sso") under p. Errors (ERR_CONFIG) use the rule
 * set's wording: "Invalid Configuration: Missing Region", "... FIPS and custom endpoint
 * are not supported", "... Dualstack and custom endpoint are not supported". */
int endpoint_resolve(const char *service, const struct endpoint_params *p, char **url,
		     struct err *err);

/* A custom endpoint URL (https://user:pw@host/) with userinfo is refused (ERR_CONFIG, the
 * URL shown with "***" for the userinfo); one in plain http whose host is not loopback
 * (localhost, 127.0.0.0/8, ::1) gets one warning per process, through log_warn. */
bool endpoint_has_userinfo(const char *url);
bool endpoint_is_loopback(const char *url);
/* url for a message, its userinfo (if any) replaced by three asterisks; control bytes
 * scrubbed */
void endpoint_redact(const char *url, char *out, size_t size);

/* Maps the deprecated pseudo-regions "fips-us-east-1" / "us-east-1-fips" to the real
 * region, returning true (and the real region, caller frees, in *real) when it did. */
bool endpoint_fips_pseudo_region(const char *region, char **real);

#endif
