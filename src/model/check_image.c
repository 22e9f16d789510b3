/* check_image: the image rules: references (a tag or not, Docker Hub or ECR) and the
 * image path, whether the task's network reaches its registry, decided from the facts of
 * struct check_network (check.h): offline none are known, live EC2 fills them. A task
 * reaches ECR with a public IP and an internet gateway route, or a NAT route, or the
 * ecr.api and ecr.dkr interface endpoints (private DNS) and an S3 gateway endpoint (the
 * layers are in S3); any other registry only through the internet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/xalloc.h"

static bool
ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && strncasecmp(s + n - k, suffix, k) == 0;
}

void
check_image_parse(const char *image, struct check_image_ref *out)
{
	const char *at, *slash, *last, *colon;
	size_t n, reg = 0;

	memset(out, 0, sizeof *out);
	if (image == NULL)
		return;
	at = strchr(image, '@');
	n = at != NULL ? (size_t)(at - image) : strlen(image);
	out->has_digest = at != NULL;
	slash = memchr(image, '/', n);
	/* the first component is a registry when it looks like a host (Docker's rule) */
	if (slash != NULL) {
		size_t k = (size_t)(slash - image);

		if (memchr(image, '.', k) != NULL || memchr(image, ':', k) != NULL ||
		    (k == 9 && strncmp(image, "localhost", 9) == 0))
			reg = k;
	}
	snprintf(out->registry, sizeof out->registry, "%.*s", reg ? (int)reg : 9,
		 reg ? image : "docker.io");
	last = image;
	for (const char *p = image; p < image + n; p++)
		if (*p == '/')
			last = p + 1;
	colon = memchr(last, ':', (size_t)(image + n - last));
	out->has_tag = colon != NULL && colon + 1 < image + n;
	out->latest = !out->has_digest &&
		      (!out->has_tag || ((size_t)(image + n - colon - 1) == 6 &&
					  strncmp(colon + 1, "latest", 6) == 0));
	out->docker_hub = strcasecmp(out->registry, "docker.io") == 0 ||
			  strcasecmp(out->registry, "index.docker.io") == 0 ||
			  strcasecmp(out->registry, "registry-1.docker.io") == 0;
	n = strlen(out->registry);
	out->ecr = strstr(out->registry, ".dkr.ecr.") != NULL &&
		   (ends_with(out->registry, n, ".amazonaws.com") ||
		    ends_with(out->registry, n, ".amazonaws.com.cn"));
}

static void
emit_image(struct check_findings *out, const struct check_rule *r, size_t i,
	   const char *fix, const char *what)
{
	char *path = xasprintf("containerDefinitions[%zu].image", i);

	check_emit(out, r, path, fix, "%s", what);
	free(path);
}

void
check_image_latest(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const char *image = in->td->containers[i].image;
		struct check_image_ref ref;
		char *msg;

		check_image_parse(image, &ref);
		if (image == NULL || !ref.latest)
			continue;
		msg = xasprintf("%s: %s", image, ref.has_tag ? "the :latest tag moves: each start "
				"may pull a different image" : r->message);
		emit_image(out, r, i, NULL, msg);
		free(msg);
	}
}

void
check_image_docker_hub(const struct check_rule *r, const struct check_input *in,
		       struct check_findings *out)
{
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];
		struct check_image_ref ref;
		char *msg;

		check_image_parse(c->image, &ref);
		if (c->image == NULL || !ref.docker_hub || c->repository_credentials)
			continue;
		msg = xasprintf("%s: %s%s%s%s", c->image, r->message,
				in->net.checked && in->net.nat_route == FACT_YES ? "; subnet " : "",
				in->net.checked && in->net.nat_route == FACT_YES && in->net.subnet ?
				in->net.subnet : "",
				in->net.checked && in->net.nat_route == FACT_YES ? " pulls through a "
				"NAT: every task behind it counts against the same limit" : "");
		emit_image(out, r, i, NULL, msg);
		free(msg);
	}
}

/* What the network lacks for this registry, or NULL when it gets there. */
static char *
path_missing(const struct check_network *n, bool ecr)
{
	bool internet = (n->public_ip == FACT_YES && n->igw_route == FACT_YES) ||
			n->nat_route == FACT_YES;
	bool endpoints = n->ecr_api == FACT_YES && n->ecr_dkr == FACT_YES &&
			 n->s3_gateway == FACT_YES;
	struct buf b;

	if (internet || (ecr && endpoints))
		return NULL;
	if (n->public_ip == FACT_YES && n->igw_route != FACT_YES)
		return xasprintf("the task has a public IP but subnet %s has no internet gateway "
				 "route", n->subnet ? n->subnet : "?");
	if (n->igw_route == FACT_YES && n->public_ip != FACT_YES)
		return xasprintf("subnet %s routes to an internet gateway but the task gets no "
				 "public IP (assignPublicIp DISABLED)", n->subnet ? n->subnet : "?");
	if (!ecr && endpoints)
		return xstrdup("not on ECR, and the subnet reaches only ECR (VPC endpoints): no NAT "
			       "route, no public IP");
	buf_init(&b, 1024);
	buf_addf(&b, "subnet %s has no NAT route, no public IP with an internet gateway route",
		 n->subnet ? n->subnet : "?");
	if (ecr) {
		const struct { enum check_fact f; const char *name; } ep[] = {
			{ n->ecr_api, "ecr.api" }, { n->ecr_dkr, "ecr.dkr" },
			{ n->s3_gateway, "s3 (gateway)" },
		};
		bool first = true;

		for (size_t k = 0; k < sizeof ep / sizeof ep[0]; k++)
			if (ep[k].f != FACT_YES) {
				buf_addf(&b, "%s%s", first ? ", and no endpoint " : ", ", ep[k].name);
				first = false;
			}
	}
	return buf_take(&b);
}

void
check_image_path(const struct check_rule *r, const struct check_input *in,
		 struct check_findings *out)
{
	if (!in->net.checked)
		return;
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const char *image = in->td->containers[i].image;
		struct check_image_ref ref;
		char *why, *msg;

		if (image == NULL)
			continue;
		check_image_parse(image, &ref);
		why = path_missing(&in->net, ref.ecr);
		if (why == NULL)
			continue;
		msg = xasprintf("%s: %s%s%s%s: CannotPullContainerError before the code runs", image,
				why, in->net.why[0] ? " (" : "", in->net.why,
				in->net.why[0] ? ")" : "");
		emit_image(out, r, i, ref.ecr ? NULL : "give the subnet a NAT route, or a public "
			   "IP and an internet gateway route (or copy the image to ECR)", msg);
		free(msg);
		free(why);
	}
}

void
check_image_path_unchecked(const struct check_rule *r, const struct check_input *in,
			   struct check_findings *out)
{
	if (in->net.checked || in->td->ncontainers == 0)
		return;
	check_emit(out, r, r->path, in->net.nsubnets_given ? "see for yourself: the subnet's "
		   "route table needs a NAT route, or an internet gateway route and a public IP, "
		   "or the ecr.api, ecr.dkr and S3 endpoints (aws ec2 describe-route-tables, "
		   "describe-vpc-endpoints)" : NULL,
		   "%s: %s", r->message, in->net.nsubnets_given ?
		   "needs live access (EC2 subnets, route tables, VPC endpoints)" :
		   "needs --subnets and live access");
}

void
check_image_endpoint_subnet(const struct check_rule *r, const struct check_input *in,
			    struct check_findings *out)
{
	const struct check_network *n = &in->net;
	bool internet = (n->public_ip == FACT_YES && n->igw_route == FACT_YES) ||
			n->nat_route == FACT_YES;
	bool endpoints = n->ecr_api == FACT_YES && n->ecr_dkr == FACT_YES &&
			 n->s3_gateway == FACT_YES;

	if (!n->checked || internet || !endpoints || n->elsewhere[0] == '\0')
		return;
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const char *image = in->td->containers[i].image;
		struct check_image_ref ref;
		char *msg;

		check_image_parse(image, &ref);
		if (image == NULL || !ref.ecr)
			continue;
		msg = xasprintf("%s: the ECR endpoints it is pulled through have no interface in "
				"subnet %s: %s; the pull goes to another subnet's, across "
				"Availability Zones if that one is in another (cross-AZ charges, and "
				"the pull fails when that zone does)", image, n->subnet ? n->subnet : "?",
				n->elsewhere);
		emit_image(out, r, i, NULL, msg);
		free(msg);
	}
}
