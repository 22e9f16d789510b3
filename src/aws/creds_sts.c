/* creds_sts: AssumeRole (SigV4-signed) and AssumeRoleWithWebIdentity (unsigned) over the
 * STS query protocol. The XML answers are read by tag: the shapes are fixed and small,
 * and the values (secrets) must land only in memory we wipe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "creds_int.h"
#include "ecsprof/log.h"
#include "ecsprof/sigv4.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "ecsprof/xmlscan.h"

#define STS_TIMEOUT_MS 30000

/* Text of the first <tag>...</tag> after from, entities decoded, in memory the caller
 * frees with creds_free_secret (one allocation, so no unwiped copy is left); NULL when
 * absent. */
static char *
xml_text(const char *from, const char *tag)
{
	const char *v;
	size_t len = 0;
	struct buf b;

	if ((v = xmlscan_find(from, tag, &len)) == NULL)
		return NULL;
	creds_buf_secret(&b, len);
	xmlscan_decode(v, len, &b);
	return buf_take(&b);
}

static int
sts_error(const struct http_response *r, const char *what, struct err *err)
{
	const char *body = buf_str(&r->body);
	char *code = xml_text(body, "Code"), *msg = xml_text(body, "Message");
	enum err_code ec = r->status == 400 && code && strstr(code, "Throttl") ? ERR_THROTTLED
									    : ERR_AWS;

	err_set(err, ec, "%s failed: HTTP %ld %s%s%.300s", what, r->status,
		code ? code : "(no error code)", msg ? ": " : "", msg ? msg : "");
	err->http_status = r->status;
	if (code != NULL)
		snprintf(err->aws_type, sizeof err->aws_type, "%s", code);
	free(code);
	free(msg);
	return CREDS_ERROR;
}

static int
sts_credentials(const struct http_response *r, const char *what, const char *source,
		struct aws_creds *out, struct err *err)
{
	const char *body = buf_str(&r->body), *c = strstr(body, "<Credentials>");
	char *akid = NULL, *secret = NULL, *token = NULL, *exp = NULL;
	int64_t exp_ms = TS_NONE;
	int rc = CREDS_ERROR;

	if (c != NULL) {
		akid = xml_text(c, "AccessKeyId");
		secret = xml_text(c, "SecretAccessKey");
		token = xml_text(c, "SessionToken");
		exp = xml_text(c, "Expiration");
	}
	if (akid == NULL || secret == NULL || token == NULL || akid[0] == '\0') {
		err_set(err, ERR_AWS, "%s: the STS answer has no Credentials", what);
	} else if (exp != NULL && timeutil_parse_iso8601(exp, &exp_ms) != 0) {
		err_set(err, ERR_AWS, "%s: bad Expiration '%.40s' in the STS answer", what, exp);
	} else {
		creds_set(out, akid, secret, token, exp_ms, source);
		rc = CREDS_FOUND;
	}
	creds_free_secret(akid);
	creds_free_secret(secret);
	creds_free_secret(token);
	free(exp);
	return rc;
}

int
creds_sts_answer(const struct http_response *r, const char *what, const char *source,
		 struct aws_creds *out, struct err *err)
{
	if (r->status != 200)
		return sts_error(r, what, err);
	return sts_credentials(r, what, source, out, err);
}

static int
sts_post(struct aws_context *ctx, const struct buf *form, const struct aws_creds *signer,
	 const char *what, const char *source, struct aws_creds *out, struct err *err)
{
	struct http_header h[2 + SIGV4_MAX_ADD];
	struct sigv4_output so = { 0 };
	struct http_response resp;
	struct http_request req = { 0 };
	struct creds_url u;
	char *url;
	size_t nh = 0;
	int rc = CREDS_ERROR;

	creds_endpoint_warn_aws(ctx, "STS", "sts", ctx->sts_endpoint);
	url = xasprintf("%s%s", ctx->sts_endpoint,
			ctx->sts_endpoint[strlen(ctx->sts_endpoint) - 1] == '/' ? "" : "/");
	if (creds_url_split(url, &u) != 0) {
		err_set(err, ERR_CONFIG, "%s: STS endpoint %s is not a URL", what, url);
		free(url);
		return CREDS_ERROR;
	}
	h[nh++] = (struct http_header){ "Host", u.host };
	h[nh++] = (struct http_header){ "Content-Type",
					"application/x-www-form-urlencoded; charset=utf-8" };
	if (signer != NULL) {
		struct sigv4_input in = {
			.method = "POST", .path = u.path[0] ? u.path : "/", .region = ctx->region,
			.service = "sts", .headers = h, .nheaders = nh, .body = buf_str(form),
			.body_len = form->len, .time_ms = timeutil_clock_now(ctx->clock),
		};
		struct sigv4_key key = { signer->access_key_id, signer->secret_access_key,
					 signer->session_token };

		if (sigv4_sign(&in, &key, &so, err) != 0) {
			err_prefix(err, "%s: signing", what);
			free(url);
			return CREDS_ERROR;
		}
		for (size_t i = 0; i < so.nadd; i++)
			h[nh++] = (struct http_header){ so.add[i].name, so.add[i].value };
	}
	req.method = "POST";
	req.url = url;
	req.headers = h;
	req.nheaders = nh;
	req.body = buf_str(form);
	req.body_len = form->len;
	req.timeout_ms = STS_TIMEOUT_MS;
	http_response_init_secret(&resp);
	log_debug(ctx->log, "aws: %s via %s", what, url);
	if (ctx->transport.send(ctx->transport.ctx, &req, &resp, err) != 0) {
		err_prefix(err, "%s", what);
	} else {
		rc = creds_sts_answer(&resp, what, source, out, err);
	}
	creds_response_cleanup(&resp);
	sigv4_output_cleanup(&so);
	free(url);
	return rc;
}

static void
form_common(struct aws_context *ctx, struct buf *form, const char *action,
	    const struct creds_assume_role *ar)
{
	buf_addf(form, "Action=%s&Version=2011-06-15&RoleArn=", action);
	creds_urlencode(form, ar->role_arn);
	buf_adds(form, "&RoleSessionName=");
	if (ar->session_name != NULL)
		creds_urlencode(form, ar->session_name);
	else
		buf_addf(form, "ecsprof-session-%lld",
			 (long long)(timeutil_clock_now(ctx->clock) / 1000));
}

int
creds_sts_assume_role(struct aws_context *ctx, const struct creds_assume_role *ar,
		      const struct aws_creds *source, struct aws_creds *out, struct err *err)
{
	struct buf form;
	char *what, *src;
	int rc;

	if (ar->duration_seconds != NULL) {
		char *end;
		long d = strtol(ar->duration_seconds, &end, 10);
		if (end == ar->duration_seconds || *end != '\0' || d < 900 || d > 43200)
			return err_set(err, ERR_CONFIG, "profile %s: duration_seconds '%.20s' must be "
				       "between 900 and 43200", ar->profile, ar->duration_seconds);
	}
	buf_init(&form, 0);
	form_common(ctx, &form, "AssumeRole", ar);
	if (ar->external_id != NULL) {
		buf_adds(&form, "&ExternalId=");
		creds_urlencode(&form, ar->external_id);
	}
	if (ar->duration_seconds != NULL) {
		buf_adds(&form, "&DurationSeconds=");
		creds_urlencode(&form, ar->duration_seconds);
	}
	what = xasprintf("profile %s: AssumeRole %s", ar->profile, ar->role_arn);
	src = xasprintf("profile %s (assumed role %s)", ar->profile, ar->role_arn);
	rc = sts_post(ctx, &form, source, what, src, out, err);
	free(what);
	free(src);
	buf_cleanup(&form);
	return rc;
}

int
creds_sts_web_identity(struct aws_context *ctx, const struct creds_assume_role *ar,
		       const char *token_file, struct aws_creds *out, struct err *err)
{
	struct buf form;
	char *token, *what, *src;
	int rc;

	if (creds_read_file(token_file, 64 * 1024, &token, err) != 0)
		return err_prefix(err, "web identity token (profile %s)", ar->profile);
	if (token[0] == '\0') {
		creds_free_secret(token);
		return err_set(err, ERR_CREDS, "web identity token file %s is empty", token_file);
	}
	buf_init(&form, 0);
	form_common(ctx, &form, "AssumeRoleWithWebIdentity", ar);
	buf_adds(&form, "&WebIdentityToken=");
	creds_urlencode(&form, token);
	creds_free_secret(token);
	what = xasprintf("web identity: AssumeRoleWithWebIdentity %s", ar->role_arn);
	src = xasprintf("web identity (%s)", ar->role_arn);
	rc = sts_post(ctx, &form, NULL, what, src, out, err);
	free(what);
	free(src);
	buf_cleanup_secure(&form);
	return rc;
}
