/* creds_sso: IAM Identity Center profiles. We never log in ourselves: we read the token
 * `aws sso login` cached in ~/.aws/sso/cache/<sha1>.json and trade it for role credentials
 * at the portal's GetRoleCredentials, as botocore does. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "creds_int.h"
#include "ecsprof/awscfg.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define SSO_TIMEOUT_MS 30000

static void
sha1_hex(const char *s, char out[41])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(s, strlen(s), md, &n, EVP_sha1(), NULL);
	for (unsigned int i = 0; i < n && i < 20; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	out[40] = '\0';
}

/* "2024-05-01T10:00:03Z" or, from older CLIs, "2024-05-01T10:00:03UTC" */
static int
parse_expires(const char *s, int64_t *ms)
{
	size_t n = strlen(s);
	char tmp[64];

	if (timeutil_parse_iso8601(s, ms) == 0)
		return 0;
	if (n > 3 && n < sizeof tmp && strcmp(s + n - 3, "UTC") == 0) {
		snprintf(tmp, sizeof tmp, "%.*sZ", (int)(n - 3), s);
		return timeutil_parse_iso8601(tmp, ms);
	}
	return -1;
}

static int
login_hint(struct err *err, const char *profile, const char *why)
{
	return err_set(err, ERR_CREDS, "profile %s: %s; run 'aws sso login --profile %s'",
		       profile, why, profile);
}

/* The cached access token (caller wipes and frees) or -1 with the login hint. */
static int
cached_token(const char *profile, const char *key, int64_t now_ms, char **token,
	     struct err *err)
{
	const char *home = creds_env("HOME");
	char hex[41], *path, *text = NULL, *msg;
	const char *tok, *exp;
	struct creds_json j;
	int64_t exp_ms;
	struct err ferr = { 0 };
	int rc = -1;

	*token = NULL;
	if (home == NULL)
		return login_hint(err, profile, "HOME is not set, so the SSO token cache "
				  "cannot be found");
	sha1_hex(key, hex);
	path = xasprintf("%s/.aws/sso/cache/%s.json", home, hex);
	if (creds_read_file(path, 64 * 1024, &text, &ferr) != 0) {
		msg = xasprintf("no cached SSO token (%s)", ferr.msg);
		login_hint(err, profile, msg);
		free(msg);
		free(path);
		return -1;
	}
	if (creds_json_parse(text, strlen(text), &j, err) != 0) {
		msg = xasprintf("the SSO token cache %s is not valid JSON (%s)", path, err->msg);
		login_hint(err, profile, msg);
		free(msg);
		goto out;
	}
	tok = creds_json_get(&j, "accessToken");
	exp = creds_json_get(&j, "expiresAt");
	if (tok == NULL || tok[0] == '\0' || exp == NULL || parse_expires(exp, &exp_ms) != 0) {
		login_hint(err, profile, "the cached SSO token has no accessToken or expiresAt");
	} else if (now_ms >= exp_ms) {
		char when[TIMEUTIL_ISO_LEN];
		timeutil_format_iso(exp_ms, when);
		msg = xasprintf("the SSO session expired at %s", when);
		login_hint(err, profile, msg);
		free(msg);
	} else {
		*token = xstrdup(tok);
		rc = 0;
	}
	creds_json_free(&j);
out:
	creds_free_secret(text);
	free(path);
	return rc;
}

int
creds_sso_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		   struct err *err)
{
	const char *session = creds_prof(ctx, profile, "sso_session");
	const char *start_url, *region, *key;
	const char *account = creds_prof(ctx, profile, "sso_account_id");
	const char *role = creds_prof(ctx, profile, "sso_role_name");
	char *token = NULL, *base = NULL, *source;
	struct http_header h[2];
	struct http_request req = { 0 };
	struct http_response resp;
	struct creds_json j = { 0 };
	struct buf url;
	int rc = CREDS_ERROR;

	if (session != NULL) {
		start_url = awscfg_sso_session_get(ctx->cfg, session, "sso_start_url");
		region = awscfg_sso_session_get(ctx->cfg, session, "sso_region");
		if (start_url == NULL || region == NULL)
			return err_set(err, ERR_CONFIG, "profile %s: sso_session %s needs an "
				       "[sso-session %s] section with sso_start_url and sso_region",
				       profile, session, session);
		/* botocore refuses profiles whose own values contradict the session */
		if ((creds_prof(ctx, profile, "sso_start_url") != NULL &&
		     strcmp(creds_prof(ctx, profile, "sso_start_url"), start_url) != 0) ||
		    (creds_prof(ctx, profile, "sso_region") != NULL &&
		     strcmp(creds_prof(ctx, profile, "sso_region"), region) != 0))
			return err_set(err, ERR_CONFIG, "profile %s: sso_start_url/sso_region differ "
				       "from those of sso-session %s", profile, session);
		key = session;
	} else {
		start_url = creds_prof(ctx, profile, "sso_start_url");
		region = creds_prof(ctx, profile, "sso_region");
		if (start_url == NULL || region == NULL)
			return err_set(err, ERR_CONFIG, "profile %s: an SSO profile needs sso_session, "
				       "or sso_start_url and sso_region", profile);
		key = start_url;
	}
	if (account == NULL || role == NULL)
		return err_set(err, ERR_CONFIG, "profile %s: an SSO profile needs sso_account_id and "
			       "sso_role_name", profile);
	if (cached_token(profile, key, timeutil_clock_now(ctx->clock), &token, err) != 0)
		return CREDS_ERROR;
	if (creds_service_endpoint(ctx, NULL, "SSO", "sso", "portal.sso", region, false, &base,
				   err) != 0) {
		creds_free_secret(token);
		return err_prefix(err, "profile %s: SSO endpoint", profile);
	}
	creds_endpoint_warn_aws(ctx, "SSO", "sso", base);
	buf_init(&url, 0);
	buf_addf(&url, "%s%sfederation/credentials?account_id=", base,
		 base[strlen(base) - 1] == '/' ? "" : "/");
	creds_urlencode(&url, account);
	buf_adds(&url, "&role_name=");
	creds_urlencode(&url, role);
	h[0] = (struct http_header){ "x-amz-sso_bearer_token", token };
	h[1] = (struct http_header){ "Accept", "application/json" };
	req.method = "GET";
	req.url = buf_str(&url);
	req.headers = h;
	req.nheaders = 2;
	req.timeout_ms = SSO_TIMEOUT_MS;
	http_response_init_secret(&resp);
	log_debug(ctx->log, "aws: SSO GetRoleCredentials for profile %s via %s", profile, base);
	if (ctx->transport.send(ctx->transport.ctx, &req, &resp, err) != 0) {
		err_prefix(err, "profile %s: SSO GetRoleCredentials", profile);
	} else if (resp.status == 401 || resp.status == 403) {
		char *m = xasprintf("the SSO portal refused the cached token (HTTP %ld)", resp.status);
		login_hint(err, profile, m);
		free(m);
	} else if (resp.status != 200) {
		err_set(err, ERR_AWS, "profile %s: SSO GetRoleCredentials failed: HTTP %ld", profile,
			resp.status);
		err->http_status = resp.status;
	} else if (creds_json_parse(buf_str(&resp.body), resp.body.len, &j, err) != 0) {
		err_prefix(err, "profile %s: SSO GetRoleCredentials answered bad JSON", profile);
	} else {
		const char *akid = creds_json_get(&j, "roleCredentials.accessKeyId");
		const char *secret = creds_json_get(&j, "roleCredentials.secretAccessKey");
		const char *stok = creds_json_get(&j, "roleCredentials.sessionToken");
		const char *exp = creds_json_get(&j, "roleCredentials.expiration");
		char *end = NULL;
		long long ms = exp ? strtoll(exp, &end, 10) : 0;

		if (akid == NULL || secret == NULL || akid[0] == '\0') {
			err_set(err, ERR_AWS, "profile %s: SSO GetRoleCredentials answer has no "
				"roleCredentials", profile);
		} else {
			source = xasprintf("profile %s (SSO %s/%s)", profile, account, role);
			creds_set(out, akid, secret, stok,
				  exp != NULL && end != exp && *end == '\0' ? (int64_t)ms : TS_NONE,
				  source);
			free(source);
			rc = CREDS_FOUND;
		}
	}
	creds_json_free(&j);
	creds_response_cleanup(&resp);
	buf_cleanup(&url);
	free(base);
	creds_free_secret(token);
	return rc;
}
