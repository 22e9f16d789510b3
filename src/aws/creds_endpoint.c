/* creds_endpoint: where a service's calls go in the run's context (a custom endpoint from
 * the environment, the profile or --endpoint-url, else AWS's own, with FIPS and dual-stack
 * as configured), and the one warning when --endpoint-url leaves a service on AWS's own.
 * Apart from creds.c, which sets up the context and calls it, so that the providers
 * (creds_sso.c, creds_sts.c) that need an endpoint do not call back into the chain. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "creds_int.h"
#include "ecsprof/awscfg.h"
#include "ecsprof/endpoint.h"
#include "ecsprof/log.h"
#include "ecsprof/strset.h"

/* The custom endpoint of a service (svc_env "ECR": AWS_ENDPOINT_URL_ECR, then
 * AWS_ENDPOINT_URL, the profile's services section, its endpoint_url), explicit_url first;
 * NULL when its calls go to AWS's own endpoint. */
static const char *
service_custom(struct aws_context *ctx, const char *explicit_url, const char *svc_env,
	       const char *svc_key)
{
	const char *custom = explicit_url != NULL && explicit_url[0] != '\0' ? explicit_url : NULL;
	bool ignore = creds_truthy(creds_env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) ||
		      creds_truthy(creds_prof(ctx, ctx->profile, "ignore_configured_endpoint_urls"));
	char envname[64];

	if (custom == NULL && !ignore) {
		const char *section = creds_prof(ctx, ctx->profile, "services");

		snprintf(envname, sizeof envname, "AWS_ENDPOINT_URL_%s", svc_env);
		custom = creds_env(envname);
		if (custom == NULL)
			custom = creds_env("AWS_ENDPOINT_URL");
		if (custom == NULL && section != NULL && ctx->cfg != NULL) {
			custom = awscfg_services_get(ctx->cfg, section, svc_key, "endpoint_url");
			if (custom != NULL && custom[0] == '\0')
				custom = NULL;
		}
		if (custom == NULL)
			custom = creds_prof(ctx, ctx->profile, "endpoint_url");
	}
	return custom;
}

void
creds_endpoint_warn_aws(struct aws_context *ctx, const char *svc_env, const char *svc_key,
			const char *url)
{
	bool warn;

	if (!ctx->cache->endpoint_explicit || service_custom(ctx, NULL, svc_env, svc_key) != NULL)
		return;
	pthread_mutex_lock(&ctx->cache->lock);
	warn = strset_add(&ctx->cache->warned_endpoints, svc_env, 0);
	pthread_mutex_unlock(&ctx->cache->lock);
	if (warn)
		log_warn(ctx->log, "--endpoint-url sets only the ECS endpoint: %s calls go to AWS's own "
			 "endpoint %s, with your credentials (set AWS_ENDPOINT_URL_%s to send them "
			 "elsewhere)", svc_env, url, svc_env);
}

int
creds_service_endpoint(struct aws_context *ctx, const char *explicit_url, const char *svc_env,
		       const char *svc_key, const char *host_prefix, const char *region,
		       bool use_variants, char **url, struct err *err)
{
	struct endpoint_params p = { region, false, false, NULL, &ctx->cache->http_warned,
				     ctx->log };

	p.endpoint = service_custom(ctx, explicit_url, svc_env, svc_key);
	if (use_variants) {
		p.use_fips = ctx->cache->use_fips;
		p.use_dualstack = ctx->cache->use_dualstack;
	}
	return endpoint_resolve(host_prefix, &p, url, err);
}
