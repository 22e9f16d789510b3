/* endpoint: AWS service endpoint selection (the rule set every SDK generates for ECS and STS):
 * region -> partition -> https://SERVICE[-fips].REGION.SUFFIX, FIPS and dual-stack variants,
 * custom endpoints, and the deprecated fips- pseudo-regions.
 * Ownership: endpoint_resolve() returns a URL the caller frees; partition data is static. */
#ifndef ECSPROF_ENDPOINT_H
#define ECSPROF_ENDPOINT_H

#include <stdbool.h>

#include "ecsprof/err.h"

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
};

/* The partition a region belongs to: exact region lists first, then each partition's
 * region pattern, then "aws" (as the rules engine's aws.partition does). */
const struct endpoint_partition *endpoint_partition(const char *region);

/* URL for service ("ecs", "sts", "portal.sso") under p. Errors (ERR_CONFIG) use the rule
 * set's wording: "Invalid Configuration: Missing Region", "... FIPS and custom endpoint
 * are not supported", "... Dualstack and custom endpoint are not supported". */
int endpoint_resolve(const char *service, const struct endpoint_params *p, char **url,
		     struct err *err);

/* Maps the deprecated pseudo-regions "fips-us-east-1" / "us-east-1-fips" to the real
 * region, returning true (and the real region, caller frees, in *real) when it did. */
bool endpoint_fips_pseudo_region(const char *region, char **real);

#endif
