/* creds: the run's AWS context (profile, region, endpoints) and the credential chain in
 * botocore's order: environment, assumed role, web identity, SSO, static keys,
 * credential_process, container endpoint, IMDS. The chain remembers why each source gave
 * nothing so that failure is one line a user can act on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "creds_int.h"
#include "ecsprof/awscfg.h"
#include "ecsprof/endpoint.h"
#include "ecsprof/log.h"
#include "ecsprof/strset.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define MAX_CHAIN 16

/* ~/... instead of the full home path keeps the one-line message short */
static void
add_path(struct buf *b, const char *path)
{
	const char *home = creds_env("HOME");
	size_t n = home ? strlen(home) : 0;

	if (path == NULL)
		buf_adds(b, "(none)");
	else if (n > 1 && strncmp(path, home, n) == 0 && path[n] == '/')
		buf_addf(b, "~%s", path + n);
	else
		buf_adds(b, path);
}

static void
add_files(const struct aws_context *ctx, struct buf *b)
{
	add_path(b, ctx->cache->config_path);
	buf_adds(b, " or ");
	add_path(b, ctx->cache->credentials_path);
}

/* ---- context ---- */

static bool
flag(struct aws_context *ctx, const char *env, const char *key)
{
	const char *v = creds_env(env);

	if (v == NULL)
		v = creds_prof(ctx, ctx->profile, key);
	return creds_truthy(v);
}

static int
parse_max_attempts(const char *v, const char *where, int *out, struct err *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < 1 || n > 100)
		return err_set(err, ERR_CONFIG, "%s: '%.32s' is not a number of attempts "
			       "between 1 and 100", where, v);
	*out = (int)n;
	return 0;
}

int
aws_context_init(struct aws_context *ctx, const struct aws_context_options *o,
		 struct http_transport transport, struct err *err)
{
	struct awscfg_env env;
	const char *region, *v;
	char *real = NULL;
	struct buf b;

	memset(ctx, 0, sizeof *ctx);
	ctx->transport = transport;
	ctx->debug = o->debug;
	ctx->log = o->log;
	ctx->clock = o->clock;
	ctx->max_attempts = 3;
	ctx->cache = xcalloc(1, sizeof *ctx->cache);
	ctx->cache->creds.expires_ms = TS_NONE;
	pthread_mutex_init(&ctx->cache->lock, NULL);
	strset_init(&ctx->cache->warned_endpoints);
	ctx->cache->endpoint_explicit = o->endpoint_url != NULL && o->endpoint_url[0] != '\0';

	awscfg_env_from_process(&env);
	if (awscfg_locate(&ctx->cache->config_path, &ctx->cache->credentials_path, err) != 0)
		goto fail;
	ctx->cfg = awscfg_new();
	if (awscfg_load(ctx->cfg, ctx->cache->config_path, ctx->cache->credentials_path, err) != 0)
		goto fail;

	if (o->profile != NULL && o->profile[0] != '\0') {
		ctx->profile = xstrdup(o->profile);
		ctx->cache->profile_explicit = true;
	} else {
		ctx->profile = xstrdup(awscfg_profile_name(&env));
	}
	/* as the CLI: naming a profile that does not exist is an error, not a fallback */
	if ((ctx->cache->profile_explicit || creds_env("AWS_PROFILE") != NULL) &&
	    !awscfg_has_profile(ctx->cfg, ctx->profile)) {
		buf_init(&b, 1024);
		buf_addf(&b, "the config profile (%.100s) could not be found in ", ctx->profile);
		add_files(ctx, &b);
		err_set(err, ERR_CONFIG, "%s", buf_str(&b));
		buf_cleanup(&b);
		goto fail;
	}

	region = o->region != NULL && o->region[0] != '\0' ? o->region : NULL;
	if (region == NULL)
		region = creds_env("AWS_REGION");
	if (region == NULL)
		region = creds_env("AWS_DEFAULT_REGION");
	if (region == NULL)
		region = creds_prof(ctx, ctx->profile, "region");
	ctx->cache->use_fips = flag(ctx, "AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint");
	ctx->cache->use_dualstack = flag(ctx, "AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint");
	if (region == NULL) {
		err_set(err, ERR_CONFIG, "no AWS region: use --region, set AWS_REGION or "
			"AWS_DEFAULT_REGION, or add 'region' to profile %.100s", ctx->profile);
		goto fail;
	}
	if (endpoint_fips_pseudo_region(region, &real)) {
		ctx->region = real;
		ctx->cache->use_fips = true;
	} else {
		ctx->region = xstrdup(region);
	}

	if (creds_service_endpoint(ctx, o->endpoint_url, "ECS", o->service ? o->service : "ecs",
				   o->service ? o->service : "ecs", ctx->region, true,
				   &ctx->endpoint, err) != 0) {
		err_prefix(err, "endpoint for %s", o->service ? o->service : "ecs");
		goto fail;
	}
	if (creds_service_endpoint(ctx, NULL, "STS", "sts", "sts", ctx->region, true,
				   &ctx->sts_endpoint, err) != 0) {
		err_prefix(err, "endpoint for STS");
		goto fail;
	}

	v = creds_env("AWS_CA_BUNDLE");
	if (v == NULL)
		v = creds_prof(ctx, ctx->profile, "ca_bundle");
	ctx->ca_bundle = xstrdup_or_null(v);

	if ((v = creds_env("AWS_MAX_ATTEMPTS")) != NULL) {
		if (parse_max_attempts(v, "AWS_MAX_ATTEMPTS", &ctx->max_attempts, err) != 0)
			goto fail;
	} else if ((v = creds_prof(ctx, ctx->profile, "max_attempts")) != NULL) {
		if (parse_max_attempts(v, "max_attempts in the profile", &ctx->max_attempts,
				       err) != 0)
			goto fail;
	}
	log_debug(ctx->log, "aws: profile %s%s, region %s, endpoint %s, sts %s", ctx->profile,
		  ctx->cache->profile_explicit ? " (--profile)" : "", ctx->region, ctx->endpoint,
		  ctx->sts_endpoint);
	return 0;
fail:
	aws_context_cleanup(ctx);
	return -1;
}

struct aws_client_common
aws_client_common_of(const struct aws_context *ctx, aws_creds_fn *creds, void *arg)
{
	struct aws_client_common c = { 0 };

	c.region = ctx->region;
	c.max_attempts = ctx->max_attempts;
	c.creds = creds;
	c.creds_arg = arg;
	c.debug = ctx->debug;
	c.log = ctx->log;
	c.clock = ctx->clock;
	return c;
}

void
aws_context_cleanup(struct aws_context *ctx)
{
	if (ctx->cache != NULL) {
		if (ctx->cache->have)
			aws_creds_cleanup(&ctx->cache->creds);
		free(ctx->cache->config_path);
		free(ctx->cache->credentials_path);
		pthread_mutex_destroy(&ctx->cache->lock);
		strset_cleanup(&ctx->cache->warned_endpoints);
		free(ctx->cache);
	}
	if (ctx->cfg != NULL)
		awscfg_free(ctx->cfg);
	free(ctx->profile);
	free(ctx->region);
	free(ctx->endpoint);
	free(ctx->sts_endpoint);
	free(ctx->ca_bundle);
	memset(ctx, 0, sizeof *ctx);
}

/* ---- the chain ---- */

struct visited {
	const char *names[MAX_CHAIN];
	size_t n;
};

static int profile_role(struct aws_context *ctx, const char *profile, struct visited *v,
			struct aws_creds *out, struct err *err);

static bool
has_static(struct aws_context *ctx, const char *profile)
{
	return creds_prof(ctx, profile, "aws_access_key_id") != NULL &&
	       creds_prof(ctx, profile, "aws_secret_access_key") != NULL;
}

static bool
has_sso(struct aws_context *ctx, const char *profile)
{
	return creds_prof(ctx, profile, "sso_session") != NULL ||
	       creds_prof(ctx, profile, "sso_start_url") != NULL ||
	       creds_prof(ctx, profile, "sso_account_id") != NULL;
}

/* Web identity from the profile alone (use_env false: a source profile) or with the
 * AWS_WEB_IDENTITY_TOKEN_FILE / AWS_ROLE_ARN / AWS_ROLE_SESSION_NAME overrides. */
static int
web_identity(struct aws_context *ctx, const char *profile, bool use_env, struct aws_creds *out,
	     struct buf *why, struct err *err)
{
	struct creds_assume_role ar = { 0 };
	const char *file = NULL;

	if (use_env) {
		file = creds_env("AWS_WEB_IDENTITY_TOKEN_FILE");
		ar.role_arn = creds_env("AWS_ROLE_ARN");
		ar.session_name = creds_env("AWS_ROLE_SESSION_NAME");
	}
	if (file == NULL)
		file = creds_prof(ctx, profile, "web_identity_token_file");
	if (ar.role_arn == NULL)
		ar.role_arn = creds_prof(ctx, profile, "role_arn");
	if (ar.session_name == NULL)
		ar.session_name = creds_prof(ctx, profile, "role_session_name");
	ar.profile = profile;
	if (file == NULL) {
		if (why != NULL)
			buf_adds(why, "web identity (AWS_WEB_IDENTITY_TOKEN_FILE not set)");
		return CREDS_NONE;
	}
	if (ar.role_arn == NULL)
		return err_set(err, ERR_CONFIG, "web identity token file %s is set but no role: set "
			       "AWS_ROLE_ARN or role_arn in profile %s", file, profile);
	return creds_sts_web_identity(ctx, &ar, file, out, err);
}

static int
credential_source(struct aws_context *ctx, const char *profile, const char *cs,
		  struct aws_creds *out, struct err *err)
{
	struct buf why;
	int rc;

	buf_init(&why, 1024);
	if (strcmp(cs, "Environment") == 0)
		rc = creds_env_provider(out, &why, err);
	else if (strcmp(cs, "Ec2InstanceMetadata") == 0)
		rc = creds_imds_provider(ctx, out, &why, err);
	else if (strcmp(cs, "EcsContainer") == 0)
		rc = creds_container_provider(ctx, out, &why, err);
	else
		rc = err_set(err, ERR_CONFIG, "profile %s: unknown credential_source '%.40s' (use "
			     "Environment, Ec2InstanceMetadata or EcsContainer)", profile, cs);
	if (rc == CREDS_NONE)
		rc = err_set(err, ERR_CREDS, "profile %s: credential_source %s gave no credentials: "
			     "%s", profile, cs, buf_str(&why));
	buf_cleanup(&why);
	return rc;
}

static int
static_or_process(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		  struct err *err)
{
	int rc;

	if (has_sso(ctx, profile))
		return creds_sso_provider(ctx, profile, out, err);
	rc = creds_static_provider(ctx, profile, out, err);
	if (rc != CREDS_NONE)
		return rc;
	if (creds_prof(ctx, profile, "credential_process") != NULL)
		return creds_process_provider(ctx, profile, out, err);
	return CREDS_NONE;
}

static void
loop_path(struct buf *b, const struct visited *v, const char *again)
{
	for (size_t i = 0; i < v->n; i++)
		buf_addf(b, "%s -> ", v->names[i]);
	buf_adds(b, again);
}

static int
source_profile(struct aws_context *ctx, const char *parent, const char *name, struct visited *v,
	       struct aws_creds *out, struct err *err)
{
	struct buf b;
	int rc;

	for (size_t i = 0; i < v->n; i++) {
		if (strcmp(v->names[i], name) != 0)
			continue;
		/* botocore allows a profile to name itself when it has its own keys */
		if (strcmp(name, parent) == 0 && has_static(ctx, name))
			return creds_static_provider(ctx, name, out, err);
		buf_init(&b, 512);
		loop_path(&b, v, name);
		err_set(err, ERR_CONFIG, "profile %s: source_profile loop %s", parent, buf_str(&b));
		buf_cleanup(&b);
		return CREDS_ERROR;
	}
	if (!awscfg_has_profile(ctx->cfg, name)) {
		buf_init(&b, 512);
		add_files(ctx, &b);
		err_set(err, ERR_CONFIG, "profile %s: source_profile %s does not exist in %s",
			parent, name, buf_str(&b));
		buf_cleanup(&b);
		return CREDS_ERROR;
	}
	if (v->n == MAX_CHAIN)
		return err_set(err, ERR_CONFIG, "profile %s: more than %d chained roles", parent,
			       MAX_CHAIN);
	v->names[v->n++] = name;
	if (creds_prof(ctx, name, "web_identity_token_file") != NULL)
		return web_identity(ctx, name, false, out, NULL, err);
	if (creds_prof(ctx, name, "role_arn") != NULL)
		return profile_role(ctx, name, v, out, err);
	rc = static_or_process(ctx, name, out, err);
	if (rc == CREDS_NONE)
		rc = err_set(err, ERR_CREDS, "profile %s: source_profile %s has no credentials (no "
			     "keys, role_arn, SSO or credential_process)", parent, name);
	return rc;
}

static int
profile_role(struct aws_context *ctx, const char *profile, struct visited *v,
	     struct aws_creds *out, struct err *err)
{
	struct creds_assume_role ar = { 0 };
	struct aws_creds src = { 0 };
	const char *sp = creds_prof(ctx, profile, "source_profile");
	const char *cs = creds_prof(ctx, profile, "credential_source");
	int rc;

	src.expires_ms = TS_NONE;
	if (sp != NULL && cs != NULL)
		return err_set(err, ERR_CONFIG, "profile %s: both source_profile and "
			       "credential_source are set; keep one", profile);
	if (sp == NULL && cs == NULL)
		return err_set(err, ERR_CONFIG, "profile %s: role_arn needs source_profile or "
			       "credential_source", profile);
	if (creds_prof(ctx, profile, "mfa_serial") != NULL)
		return err_set(err, ERR_CONFIG, "profile %s: mfa_serial is not supported (ecsprof "
			       "cannot prompt for a code); use SSO or a session from "
			       "'aws sts get-session-token'", profile);
	if (cs != NULL)
		rc = credential_source(ctx, profile, cs, &src, err);
	else
		rc = source_profile(ctx, profile, sp, v, &src, err);
	if (rc != CREDS_FOUND)
		return CREDS_ERROR;
	ar.role_arn = creds_prof(ctx, profile, "role_arn");
	ar.session_name = creds_prof(ctx, profile, "role_session_name");
	ar.external_id = creds_prof(ctx, profile, "external_id");
	ar.duration_seconds = creds_prof(ctx, profile, "duration_seconds");
	ar.profile = profile;
	rc = creds_sts_assume_role(ctx, &ar, &src, out, err);
	aws_creds_cleanup(&src);
	return rc;
}

static int
profile_chain(struct aws_context *ctx, struct aws_creds *out, struct buf *why, struct err *err)
{
	const char *p = ctx->profile;
	struct visited v = { { p }, 1 };
	int rc;

	if (creds_prof(ctx, p, "role_arn") != NULL &&
	    creds_prof(ctx, p, "web_identity_token_file") == NULL)
		return profile_role(ctx, p, &v, out, err);
	rc = web_identity(ctx, p, !ctx->cache->profile_explicit, out, why, err);
	if (rc != CREDS_NONE)
		return rc;
	buf_adds(why, "; ");
	if (!awscfg_has_profile(ctx->cfg, p)) {
		buf_addf(why, "profile %s (no such profile in ", p);
		add_files(ctx, why);
		buf_adds(why, ")");
		return CREDS_NONE;
	}
	rc = static_or_process(ctx, p, out, err);
	if (rc == CREDS_NONE)
		buf_addf(why, "profile %s (no keys, role_arn, SSO or credential_process in it)", p);
	return rc;
}

/* The error when no source had credentials: one short line naming the sources tried
 * (the entries of why, "environment (AWS_ACCESS_KEY_ID not set); web identity (...)"),
 * then the next step, as the AWS CLI ends with one. A source that is simply not set up
 * is only named (--verbose says why); one set up that gave none keeps its reason. */
static void
none_found(const struct log *lg, const char *why, struct err *err)
{
	static const char *const unset[] = { "not set)", "disabled by ", "no such profile" };
	struct buf names;
	const char *p = why;

	buf_init(&names, 2048);
	while (*p != '\0') {
		/* an entry: its name, then its reason in parentheses (which may hold "; ") */
		size_t name = strcspn(p, "(;"), end = 0;
		bool plain = p[name] != '(' || strncmp(p + name, "(skipped", 8) == 0;
		int depth = 0;

		for (; p[end] != '\0' && !(depth == 0 && p[end] == ';'); end++)
			depth += p[end] == '(' ? 1 : p[end] == ')' && depth > 0 ? -1 : 0;
		for (size_t i = 0; i < sizeof unset / sizeof unset[0] && !plain; i++)
			plain = memmem(p + name, end - name, unset[i], strlen(unset[i])) != NULL;
		size_t shown = plain ? name : end;

		while (shown > 0 && p[shown - 1] == ' ')
			shown--;
		if (strncmp(p + name, "(skipped", 8) != 0)   /* not tried: not named */
			buf_addf(&names, "%s%.*s", names.len > 0 ? ", " : "", (int)shown, p);
		p += end;
		while (*p == ';' || *p == ' ')
			p++;
	}
	err_set(err, ERR_CREDS,
		"no AWS credentials (tried %s): run 'aws configure', or 'aws sso login --profile NAME', "
		"or pass --profile (--verbose says why each gave none)", buf_str(&names));
	log_info(lg, "credentials: %s", why);
	buf_cleanup(&names);
}

static int
resolve_chain(struct aws_context *ctx, struct aws_creds *out, struct err *err)
{
	struct buf why;
	int rc = CREDS_NONE;

	buf_init(&why, 4096);
	if (ctx->cache->profile_explicit)
		buf_adds(&why, "environment (skipped: --profile given)");
	else
		rc = creds_env_provider(out, &why, err);
	if (rc == CREDS_NONE) {
		buf_adds(&why, "; ");
		rc = profile_chain(ctx, out, &why, err);
	}
	if (rc == CREDS_NONE) {
		buf_adds(&why, "; ");
		rc = creds_container_provider(ctx, out, &why, err);
	}
	if (rc == CREDS_NONE) {
		buf_adds(&why, "; ");
		rc = creds_imds_provider(ctx, out, &why, err);
	}
	if (rc == CREDS_NONE)
		none_found(ctx->log, buf_str(&why), err);
	buf_cleanup(&why);
	return rc == CREDS_FOUND ? 0 : -1;
}

static int
creds_get_locked(struct aws_context *ctx, struct aws_creds *out, struct err *err)
{
	struct creds_cache *c = ctx->cache;
	struct aws_creds fresh = { 0 };
	int64_t now = timeutil_clock_now(ctx->clock);

	fresh.expires_ms = TS_NONE;
	if (c->have && (c->creds.expires_ms == TS_NONE ||
			now < c->creds.expires_ms - CREDS_REFRESH_MS)) {
		creds_copy(out, &c->creds);
		return 0;
	}
	if (resolve_chain(ctx, &fresh, err) != 0) {
		aws_creds_cleanup(&fresh);
		/* a failed early refresh is not fatal while the old credentials still work */
		if (c->have && c->creds.expires_ms != TS_NONE && now < c->creds.expires_ms) {
			log_warn(ctx->log, "refreshing AWS credentials failed, using the current ones until "
				 "they expire: %s", err->msg);
			err_clear(err);
			creds_copy(out, &c->creds);
			return 0;
		}
		return -1;
	}
	if (c->have)
		aws_creds_cleanup(&c->creds);
	c->creds = fresh;
	c->have = true;
	log_debug(ctx->log, "aws: credentials from %s", c->creds.source);
	creds_copy(out, &c->creds);
	return 0;
}

int
creds_get(struct aws_context *ctx, struct aws_creds *out, struct err *err)
{
	int rc;

	memset(out, 0, sizeof *out);
	out->expires_ms = TS_NONE;
	pthread_mutex_lock(&ctx->cache->lock);
	rc = creds_get_locked(ctx, out, err);
	pthread_mutex_unlock(&ctx->cache->lock);
	return rc;
}
