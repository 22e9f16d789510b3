/* creds_container: the two metadata sources on AWS compute: the ECS/EKS container
 * credentials endpoint and EC2 IMDSv2. Both answer the same JSON document; IMDS is tried
 * last with short timeouts because off EC2 it is a black hole. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "creds_int.h"
#include "ecsprof/endpoint.h"
#include "ecsprof/log.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define ECS_AGENT "http://169.254.170.2"
#define IMDS_DEFAULT "http://169.254.169.254"
#define IMDS_DEFAULT_V6 "http://[fd00:ec2::254]"
#define CONTAINER_ATTEMPTS 3
#define CONTAINER_TIMEOUT_MS 2000
#define IMDS_TIMEOUT_MS 1000

/* Plain http is acceptable only where the traffic cannot leave the host or task. */
static bool
http_host_allowed(const char *h)
{
	unsigned char a[16];

	if (strcasecmp(h, "localhost") == 0)
		return true;
	if (inet_pton(AF_INET, h, a) == 1)
		return a[0] == 127 || strcmp(h, "169.254.170.2") == 0 ||
		       strcmp(h, "169.254.170.23") == 0;
	if (inet_pton(AF_INET6, h, a) == 1) {
		static const unsigned char lo[16] = { [15] = 1 };
		unsigned char eks[16];
		inet_pton(AF_INET6, "fd00:ec2::23", eks);
		return memcmp(a, lo, 16) == 0 || memcmp(a, eks, 16) == 0;
	}
	return false;
}

int
creds_container_url(const char *relative_uri, const char *full_uri, char **url,
		    struct err *err)
{
	struct creds_url u;

	*url = NULL;
	if (relative_uri != NULL && relative_uri[0] != '\0') {
		*url = xasprintf("%s%s%s", ECS_AGENT, relative_uri[0] == '/' ? "" : "/",
				 relative_uri);
		return 0;
	}
	if (full_uri == NULL || full_uri[0] == '\0')
		return err_set(err, ERR_CREDS, "No environment variables were set to configure ECS "
			       "provider (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI)");
	if (endpoint_has_userinfo(full_uri)) {
		char shown[256];

		/* the message must not show the password either */
		endpoint_redact(full_uri, shown, sizeof shown);
		return err_set(err, ERR_CREDS, "AWS_CONTAINER_CREDENTIALS_FULL_URI %s: a user name "
			       "or password in the URI is refused (the token goes in "
			       "AWS_CONTAINER_AUTHORIZATION_TOKEN)", shown);
	}
	if (creds_url_split(full_uri, &u) != 0)
		return err_set(err, ERR_CREDS, "AWS_CONTAINER_CREDENTIALS_FULL_URI %.200s: URI did "
			       "not specify a host", full_uri);
	if (strcmp(u.scheme, "https") != 0 &&
	    !(strcmp(u.scheme, "http") == 0 && http_host_allowed(u.hostname)))
		return err_set(err, ERR_CREDS, "AWS_CONTAINER_CREDENTIALS_FULL_URI %.200s: plain http "
			       "is allowed only to loopback, 169.254.170.2, 169.254.170.23 or "
			       "fd00:ec2::23", full_uri);
	*url = xstrdup(full_uri);
	return 0;
}

static int
auth_token(char **out, struct err *err)
{
	const char *file = creds_env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
	const char *tok = creds_env("AWS_CONTAINER_AUTHORIZATION_TOKEN");

	*out = NULL;
	if (file != NULL) {
		if (creds_read_file(file, 16 * 1024, out, err) != 0)
			return err_prefix(err, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
	} else if (tok != NULL) {
		*out = xstrdup(tok);
	} else {
		return 0;
	}
	/* a newline would let the token inject headers */
	if (strpbrk(*out, "\r\n") != NULL) {
		creds_free_secret(*out);
		*out = NULL;
		return err_set(err, ERR_CREDS, "the container authorization token contains a line "
			       "break");
	}
	return 0;
}

int
creds_container_provider(struct aws_context *ctx, struct aws_creds *out, struct buf *why,
			 struct err *err)
{
	const char *rel = creds_env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
	const char *full = creds_env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
	struct http_header h[2];
	struct http_request req = { 0 };
	struct http_response resp;
	char *url = NULL, *token = NULL, *what;
	size_t nh = 0;
	int rc = CREDS_ERROR;

	if (rel == NULL && full == NULL) {
		buf_adds(why, "container (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI/_FULL_URI not set)");
		return CREDS_NONE;
	}
	if (creds_container_url(rel, full, &url, err) != 0)
		return CREDS_ERROR;
	if (auth_token(&token, err) != 0) {
		free(url);
		return CREDS_ERROR;
	}
	what = xasprintf("container credentials %s", url);
	h[nh++] = (struct http_header){ "Accept", "application/json" };
	if (token != NULL)
		h[nh++] = (struct http_header){ "Authorization", token };
	req.method = "GET";
	req.url = url;
	req.headers = h;
	req.nheaders = nh;
	req.timeout_ms = CONTAINER_TIMEOUT_MS;
	req.connect_timeout_ms = CONTAINER_TIMEOUT_MS / 2;
	log_debug(ctx->log, "aws: trying %s", what);
	for (int attempt = 1; attempt <= CONTAINER_ATTEMPTS; attempt++) {
		bool retry;

		http_response_init_secret(&resp);
		if (ctx->transport.send(ctx->transport.ctx, &req, &resp, err) != 0) {
			err_prefix(err, "%s", what);
			retry = true;
		} else if (resp.status == 200) {
			rc = creds_from_doc(buf_str(&resp.body), resp.body.len, what, out, err) == 0
				     ? CREDS_FOUND : CREDS_ERROR;
			retry = false;
		} else {
			err_set(err, ERR_CREDS, "%s: HTTP %ld", what, resp.status);
			err->http_status = resp.status;
			retry = resp.status >= 500;
		}
		creds_response_cleanup(&resp);
		if (rc == CREDS_FOUND || !retry || attempt == CONTAINER_ATTEMPTS)
			break;
		timeutil_clock_sleep(ctx->clock, 100L * attempt);
	}
	free(what);
	free(url);
	creds_free_secret(token);
	return rc;
}

/* ---- IMDS ---- */

static int
imds_get(struct aws_context *ctx, const char *method, const char *url, const char *token,
	 struct http_response *resp, struct err *err)
{
	struct http_header h[1];
	struct http_request req = { 0 };

	if (strcmp(method, "PUT") == 0)
		h[0] = (struct http_header){ "X-aws-ec2-metadata-token-ttl-seconds", "21600" };
	else
		h[0] = (struct http_header){ "X-aws-ec2-metadata-token", token };
	req.method = method;
	req.url = url;
	req.headers = h;
	req.nheaders = token != NULL || strcmp(method, "PUT") == 0 ? 1 : 0;
	req.body = "";
	req.timeout_ms = IMDS_TIMEOUT_MS;
	req.connect_timeout_ms = IMDS_TIMEOUT_MS;
	http_response_init_secret(resp);
	return ctx->transport.send(ctx->transport.ctx, &req, resp, err);
}

static bool
role_name_ok(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!(((*s | 32) >= 'a' && (*s | 32) <= 'z') || (*s >= '0' && *s <= '9') ||
		      strchr("+=,.@_-", *s)))
			return false;
	return true;
}

int
creds_imds_provider(struct aws_context *ctx, struct aws_creds *out, struct buf *why,
		    struct err *err)
{
	const char *base = creds_env("AWS_EC2_METADATA_SERVICE_ENDPOINT");
	const char *mode = creds_env("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
	bool v1_disabled;
	struct http_response resp;
	struct err e = { 0 };
	char *b, *url = NULL, *token = NULL, *role = NULL, *what = NULL;
	int rc = CREDS_NONE;

	if (creds_truthy(creds_env("AWS_EC2_METADATA_DISABLED"))) {
		buf_adds(why, "IMDS (disabled by AWS_EC2_METADATA_DISABLED)");
		return CREDS_NONE;
	}
	if (base == NULL)
		base = creds_prof(ctx, ctx->profile, "ec2_metadata_service_endpoint");
	if (mode == NULL)
		mode = creds_prof(ctx, ctx->profile, "ec2_metadata_service_endpoint_mode");
	if (base == NULL)
		base = mode != NULL && strcasecmp(mode, "ipv6") == 0 ? IMDS_DEFAULT_V6 : IMDS_DEFAULT;
	v1_disabled = creds_truthy(creds_env("AWS_EC2_METADATA_V1_DISABLED")) ||
		      creds_truthy(creds_prof(ctx, ctx->profile, "ec2_metadata_v1_disabled"));
	if (endpoint_has_userinfo(base)) {
		char shown[256];

		endpoint_redact(base, shown, sizeof shown);
		buf_addf(why, "IMDS (endpoint %s refused: a user name or password in it)", shown);
		return CREDS_NONE;
	}
	b = xstrdup(base);
	while (b[0] != '\0' && b[strlen(b) - 1] == '/')
		b[strlen(b) - 1] = '\0';

	url = xasprintf("%s/latest/api/token", b);
	if (imds_get(ctx, "PUT", url, NULL, &resp, &e) != 0) {
		buf_addf(why, "IMDS (no answer from %s: %s)", b, e.msg);
		goto out;
	}
	if (resp.status == 200 && resp.body.len > 0) {
		token = xstrndup(resp.body.data, resp.body.len);
	} else if (!v1_disabled && (resp.status == 403 || resp.status == 404 ||
				    resp.status == 405)) {
		log_debug(ctx->log, "aws: IMDS token PUT answered %ld, falling back to IMDSv1", resp.status);
	} else {
		buf_addf(why, "IMDS (token request to %s answered HTTP %ld)", b, resp.status);
		creds_response_cleanup(&resp);
		goto out;
	}
	creds_response_cleanup(&resp);
	free(url);

	url = xasprintf("%s/latest/meta-data/iam/security-credentials/", b);
	if (imds_get(ctx, "GET", url, token, &resp, &e) != 0) {
		buf_addf(why, "IMDS (no answer from %s: %s)", b, e.msg);
		goto out;
	}
	if (resp.status == 404) {
		buf_addf(why, "IMDS (no instance profile attached at %s)", b);
		creds_response_cleanup(&resp);
		goto out;
	}
	if (resp.status != 200) {
		buf_addf(why, "IMDS (role list at %s answered HTTP %ld)", b, resp.status);
		creds_response_cleanup(&resp);
		goto out;
	}
	role = xstrndup(buf_str(&resp.body), strcspn(buf_str(&resp.body), "\r\n"));
	creds_response_cleanup(&resp);
	if (!role_name_ok(role)) {
		buf_addf(why, "IMDS (no usable role name at %s)", b);
		goto out;
	}
	free(url);
	url = xasprintf("%s/latest/meta-data/iam/security-credentials/%s", b, role);
	what = xasprintf("IMDS (role %s)", role);
	if (imds_get(ctx, "GET", url, token, &resp, &e) != 0) {
		buf_addf(why, "IMDS (no answer from %s: %s)", b, e.msg);
		goto out;
	}
	if (resp.status != 200) {
		buf_addf(why, "IMDS (credentials for role %s answered HTTP %ld)", role, resp.status);
	} else if (creds_from_doc(buf_str(&resp.body), resp.body.len, what, out, &e) != 0) {
		buf_addf(why, "%s", e.msg);
	} else {
		rc = CREDS_FOUND;
	}
	creds_response_cleanup(&resp);
out:
	(void)err;
	free(b);
	free(url);
	free(role);
	free(what);
	creds_free_secret(token);
	return rc;
}
