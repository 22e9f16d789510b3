/* endpoint: the generated AWS endpoint rule set, reduced to what it does for regional
 * services like ECS and STS. Partition data follows botocore's partitions.json; the
 * region patterns are matched by hand because POSIX regex has no \w or \d. */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/endpoint.h"
#include "ecsprof/log.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/xalloc.h"

struct partition_def {
	struct endpoint_partition p;
	const char *prefixes[10];       /* region regex ^(a|b|..)\-\w+\-\d+$, as prefixes */
	const char *regions[40];        /* known regions, matched exactly first */
};

static const struct partition_def partitions[] = {
	{ { "aws", "amazonaws.com", "api.aws" },
	  { "us", "eu", "ap", "sa", "ca", "me", "af", "il", "mx" },
	  { "af-south-1", "ap-east-1", "ap-east-2", "ap-northeast-1", "ap-northeast-2",
	    "ap-northeast-3", "ap-south-1", "ap-south-2", "ap-southeast-1", "ap-southeast-2",
	    "ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-6",
	    "ap-southeast-7", "ca-central-1", "ca-west-1", "eu-central-1", "eu-central-2",
	    "eu-north-1", "eu-south-1", "eu-south-2", "eu-west-1", "eu-west-2", "eu-west-3",
	    "il-central-1", "me-central-1", "me-south-1", "mx-central-1", "sa-east-1",
	    "us-east-1", "us-east-2", "us-west-1", "us-west-2", "aws-global" } },
	{ { "aws-cn", "amazonaws.com.cn", "api.amazonwebservices.com.cn" },
	  { "cn" },
	  { "cn-north-1", "cn-northwest-1", "aws-cn-global" } },
	{ { "aws-us-gov", "amazonaws.com", "api.aws" },
	  { "us-gov" },
	  { "us-gov-east-1", "us-gov-west-1", "aws-us-gov-global" } },
	{ { "aws-iso", "c2s.ic.gov", "api.aws.ic.gov" },
	  { "us-iso" },
	  { "us-iso-east-1", "us-iso-west-1", "aws-iso-global" } },
	{ { "aws-iso-b", "sc2s.sgov.gov", "api.aws.scloud" },
	  { "us-isob" },
	  { "us-isob-east-1", "us-isob-west-1", "aws-iso-b-global" } },
	{ { "aws-iso-e", "cloud.adc-e.uk", "api.cloud-aws.adc-e.uk" },
	  { "eu-isoe" },
	  { "eu-isoe-west-1", "aws-iso-e-global" } },
	{ { "aws-iso-f", "csp.hci.ic.gov", "api.aws.hci.ic.gov" },
	  { "us-isof" },
	  { "us-isof-east-1", "us-isof-south-1", "aws-iso-f-global" } },
	{ { "aws-eusc", "amazonaws.eu", "api.amazonwebservices.eu" },
	  { "eusc-de" },
	  { "eusc-de-east-1" } },
};

#define NPARTITIONS (sizeof partitions / sizeof partitions[0])

/* ^PREFIX\-\w+\-\d+$ */
static bool
region_matches(const char *region, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p;
	size_t word = 0, num = 0;

	if (strncmp(region, prefix, n) != 0 || region[n] != '-')
		return false;
	p = region + n + 1;
	while (isalnum((unsigned char)*p) || *p == '_') {
		p++;
		word++;
	}
	if (word == 0 || *p != '-')
		return false;
	p++;
	while (isdigit((unsigned char)*p)) {
		p++;
		num++;
	}
	return num > 0 && *p == '\0';
}

const struct endpoint_partition *
endpoint_partition(const char *region)
{
	for (size_t i = 0; i < NPARTITIONS; i++)
		for (size_t j = 0; j < 40 && partitions[i].regions[j]; j++)
			if (strcmp(region, partitions[i].regions[j]) == 0)
				return &partitions[i].p;
	for (size_t i = 0; i < NPARTITIONS; i++)
		for (size_t j = 0; j < 10 && partitions[i].prefixes[j]; j++)
			if (region_matches(region, partitions[i].prefixes[j]))
				return &partitions[i].p;
	return &partitions[0].p;
}

bool
endpoint_fips_pseudo_region(const char *region, char **real)
{
	size_t n = strlen(region);

	if (strncmp(region, "fips-", 5) == 0 && n > 5) {
		*real = xstrdup(region + 5);
		return true;
	}
	if (n > 5 && strcmp(region + n - 5, "-fips") == 0) {
		*real = xstrndup(region, n - 5);
		return true;
	}
	return false;
}

/* A region becomes a host label: refuse anything that would change the URL's meaning. */
static bool
region_valid(const char *r)
{
	if (*r == '\0' || *r == '-' || strlen(r) > 63)
		return false;
	for (; *r; r++)
		if (!isalnum((unsigned char)*r) && *r != '-')
			return false;
	return true;
}

/* The authority of url (after "scheme://", up to '/', '?' or '#'): *start and its length;
 * the whole string when it has no "://". */
static size_t
authority(const char *url, const char **start)
{
	const char *p = strstr(url, "://");

	*start = p != NULL ? p + 3 : url;
	return strcspn(*start, "/?#");
}

bool
endpoint_has_userinfo(const char *url)
{
	const char *a;
	size_t n = authority(url, &a);

	return memchr(a, '@', n) != NULL;
}

void
endpoint_redact(const char *url, char *out, size_t size)
{
	const char *a, *at;
	size_t n = authority(url, &a);

	at = NULL;
	for (const char *q = a; q < a + n; q++)
		if (*q == '@')
			at = q;   /* the last '@' ends the userinfo, as URL parsers read it */
	if (at == NULL)
		snprintf(out, size, "%.200s", url);
	else
		snprintf(out, size, "%.*s***%.200s", (int)(a - url), url, at);
	termsafe_scrub(out, NULL);
}

bool
endpoint_is_loopback(const char *url)
{
	const char *a;
	size_t n = authority(url, &a), hn;
	char host[256];
	unsigned char addr[16];

	if (a[0] == '[') {
		const char *close = memchr(a, ']', n);

		if (close == NULL)
			return false;
		hn = (size_t)(close - a - 1);
		a++;
	} else {
		hn = strcspn(a, ":/?#");
		hn = hn < n ? hn : n;
	}
	if (hn == 0 || hn >= sizeof host)
		return false;
	memcpy(host, a, hn);
	host[hn] = '\0';
	if (strcasecmp(host, "localhost") == 0 ||
	    (hn > 10 && strcasecmp(host + hn - 10, ".localhost") == 0))
		return true;   /* RFC 6761: resolves to loopback */
	if (inet_pton(AF_INET, host, addr) == 1)
		return addr[0] == 127;
	if (inet_pton(AF_INET6, host, addr) == 1) {
		static const unsigned char lo[16] = { [15] = 1 };

		return memcmp(addr, lo, 16) == 0;
	}
	return false;
}

/* once per context (p->http_warned): the first custom endpoint in plain http that
 * leaves the host */
static void
warn_plain_http(const struct log *lg, const char *url, atomic_bool *warned)
{
	char shown[256];

	if (strncasecmp(url, "http://", 7) != 0 || endpoint_is_loopback(url) ||
	    (warned != NULL && atomic_exchange(warned, true)))
		return;
	endpoint_redact(url, shown, sizeof shown);
	log_warn(lg, "endpoint %s is plain http and not loopback: the signed requests, any "
		 "session token and the answers travel unencrypted (use https://)", shown);
}

int
endpoint_resolve(const char *service, const struct endpoint_params *p, char **url,
		 struct err *err)
{
	const struct endpoint_partition *part;

	*url = NULL;
	if (p->endpoint != NULL && p->endpoint[0] != '\0') {
		if (p->use_fips)
			return err_set(err, ERR_CONFIG,
				       "Invalid Configuration: FIPS and custom endpoint are not supported");
		if (p->use_dualstack)
			return err_set(err, ERR_CONFIG,
				       "Invalid Configuration: Dualstack and custom endpoint are not supported");
		if (endpoint_has_userinfo(p->endpoint)) {
			char shown[256];

			/* it would be signed and sent as part of the Host header, and logged */
			endpoint_redact(p->endpoint, shown, sizeof shown);
			return err_set(err, ERR_CONFIG, "endpoint URL %s: a user name or password "
				       "in an endpoint URL is refused (AWS requests are signed; "
				       "remove the part before '@')", shown);
		}
		warn_plain_http(p->log, p->endpoint, p->http_warned);
		*url = xstrdup(p->endpoint);
		return 0;
	}
	if (p->region == NULL || p->region[0] == '\0')
		return err_set(err, ERR_CONFIG, "Invalid Configuration: Missing Region");
	if (!region_valid(p->region))
		return err_set(err, ERR_CONFIG, "Invalid Configuration: region '%.64s' is not a valid "
			       "region name", p->region);
	part = endpoint_partition(p->region);
	*url = xasprintf("https://%s%s.%s.%s", service, p->use_fips ? "-fips" : "", p->region,
			 p->use_dualstack ? part->dualstack_suffix : part->dns_suffix);
	return 0;
}
