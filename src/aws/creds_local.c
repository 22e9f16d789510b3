/* creds_local: the sources that need no network: environment keys, a profile's static
 * keys, and credential_process (run through /bin/sh -c, JSON "Version": 1 on stdout). */
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "creds_int.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define PROCESS_MAX_OUTPUT (256 * 1024)

int
creds_env_provider(struct aws_creds *out, struct buf *why, struct err *err)
{
	const char *akid = creds_env("AWS_ACCESS_KEY_ID");
	const char *secret = creds_env("AWS_SECRET_ACCESS_KEY");

	if (akid == NULL && secret == NULL) {
		buf_adds(why, "environment (AWS_ACCESS_KEY_ID not set)");
		return CREDS_NONE;
	}
	if (akid == NULL)
		return err_set(err, ERR_CREDS, "environment: AWS_SECRET_ACCESS_KEY is set but "
			       "AWS_ACCESS_KEY_ID is not");
	if (secret == NULL)
		return err_set(err, ERR_CREDS, "environment: AWS_ACCESS_KEY_ID is set but "
			       "AWS_SECRET_ACCESS_KEY is not");
	creds_set(out, akid, secret, creds_env("AWS_SESSION_TOKEN"), TS_NONE, "environment");
	return CREDS_FOUND;
}

int
creds_static_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		      struct err *err)
{
	const char *akid = creds_prof(ctx, profile, "aws_access_key_id");
	const char *secret = creds_prof(ctx, profile, "aws_secret_access_key");
	char *source;

	if (akid == NULL && secret == NULL)
		return CREDS_NONE;
	if (akid == NULL || secret == NULL)
		return err_set(err, ERR_CREDS, "profile %s: %s is set but %s is not", profile,
			       akid ? "aws_access_key_id" : "aws_secret_access_key",
			       akid ? "aws_secret_access_key" : "aws_access_key_id");
	source = xasprintf("profile %s (static keys)", profile);
	creds_set(out, akid, secret, creds_prof(ctx, profile, "aws_session_token"), TS_NONE,
		  source);
	free(source);
	return CREDS_FOUND;
}

int
creds_process_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		       struct err *err)
{
	const char *cmd = creds_prof(ctx, profile, "credential_process");
	struct creds_json j = { 0 };
	const struct creds_json_item *ver;
	const char *akid, *secret, *token, *exp;
	int64_t exp_ms = TS_NONE;
	struct buf b;
	char chunk[4096], *source;
	size_t n;
	bool too_big = false;
	FILE *p;
	int status, rc = CREDS_ERROR;

	if (cmd == NULL)
		return CREDS_NONE;
	/* the child inherits our stdio buffers; flush so nothing is written twice */
	fflush(stdout);
	fflush(stderr);
	p = popen(cmd, "r");
	if (p == NULL)
		return err_set(err, ERR_CREDS, "profile %s: credential_process could not be "
			       "started", profile);
	creds_buf_secret(&b, PROCESS_MAX_OUTPUT);
	while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
		if (!too_big && buf_add(&b, chunk, n) != 0)
			too_big = true;
	OPENSSL_cleanse(chunk, sizeof chunk);
	status = pclose(p);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (status != -1 && WIFEXITED(status))
			err_set(err, ERR_CREDS, "profile %s: credential_process exited with status %d",
				profile, WEXITSTATUS(status));
		else if (status != -1 && WIFSIGNALED(status))
			err_set(err, ERR_CREDS, "profile %s: credential_process killed by signal %d",
				profile, WTERMSIG(status));
		else
			err_set(err, ERR_CREDS, "profile %s: credential_process failed", profile);
		goto out;
	}
	if (too_big) {
		err_set(err, ERR_CREDS, "profile %s: credential_process printed more than %d bytes",
			profile, PROCESS_MAX_OUTPUT);
		goto out;
	}
	/* the output is never quoted in the message: it holds the secret */
	if (creds_json_parse(buf_str(&b), b.len, &j, err) != 0) {
		err_prefix(err, "profile %s: credential_process printed bad JSON", profile);
		goto out;
	}
	ver = creds_json_item(&j, "Version");
	if (ver == NULL || ver->is_string || strcmp(ver->value, "1") != 0) {
		err_set(err, ERR_CREDS, "profile %s: credential_process output needs \"Version\": 1",
			profile);
		goto out;
	}
	akid = creds_json_get(&j, "AccessKeyId");
	secret = creds_json_get(&j, "SecretAccessKey");
	token = creds_json_get(&j, "SessionToken");
	exp = creds_json_get(&j, "Expiration");
	if (akid == NULL || secret == NULL || akid[0] == '\0' || secret[0] == '\0') {
		err_set(err, ERR_CREDS, "profile %s: credential_process output lacks AccessKeyId or "
			"SecretAccessKey", profile);
		goto out;
	}
	if (exp != NULL && timeutil_parse_iso8601(exp, &exp_ms) != 0) {
		err_set(err, ERR_CREDS, "profile %s: credential_process Expiration '%.40s' is not "
			"an ISO 8601 time", profile, exp);
		goto out;
	}
	source = xasprintf("profile %s (credential_process)", profile);
	creds_set(out, akid, secret, token, exp_ms, source);
	free(source);
	rc = CREDS_FOUND;
out:
	creds_json_free(&j);
	buf_cleanup_secure(&b);
	return rc;
}
