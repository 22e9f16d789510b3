/* creds: the credential chain, region and endpoint resolution, driven by a scripted fake
 * transport and a fake clock. Every test runs in its own process (Criterion forks), with
 * a private HOME, config files and an environment stripped of AWS_*. */
#include <criterion/criterion.h>
#include <ftw.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ecsprof/creds.h"
#include "ecsprof/timeutil.h"
#include "src/aws/creds_int.h"

extern char **environ;

/* ---- fixture: private home, clean environment, fake clock ---- */

static char home[256];
static int64_t fake_now = 1714557600000; /* 2024-05-01T10:00:00Z */

static int64_t
now_fn(void *ctx)
{
	(void)ctx;
	return fake_now;
}

static void
sleep_fn(void *ctx, int64_t ms)
{
	(void)ctx;
	fake_now += ms;
}

/* every context here is given it: the process clock is never swapped */
static const struct timeutil_clock fake_clock = { now_fn, sleep_fn, NULL };

static void
clear_aws_env(void)
{
	char name[256];

	for (;;) {
		bool found = false;
		for (char **e = environ; *e; e++) {
			if (strncmp(*e, "AWS_", 4) == 0) {
				size_t n = strcspn(*e, "=");
				snprintf(name, sizeof name, "%.*s", (int)n, *e);
				unsetenv(name);
				found = true;
				break;
			}
		}
		if (!found)
			break;
	}
}

static void
write_file(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", home, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static char *
home_path(const char *rel)
{
	static char path[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof path[i], "%s/%s", home, rel);
	return path[i];
}

static void
setup(void)
{
	clear_aws_env();
	snprintf(home, sizeof home, "/tmp/ecsprof-creds-XXXXXX");
	cr_assert_not_null(mkdtemp(home));
	setenv("HOME", home, 1);
	cr_assert_eq(mkdir(home_path(".aws"), 0700), 0);
	setenv("AWS_CONFIG_FILE", home_path(".aws/config"), 1);
	setenv("AWS_SHARED_CREDENTIALS_FILE", home_path(".aws/credentials"), 1);
	setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(p);
}

static void
teardown(void)
{
	nftw(home, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(creds, .init = setup, .fini = teardown);

/* ---- fake transport ---- */

struct canned {
	const char *url_has;      /* the request URL must contain this */
	long status;              /* 0 = network error */
	const char *body;
};

struct fake {
	struct canned script[12];
	size_t n, next;
	char *method[12], *url[12], *headers[12], *body[12];
};

static int
fake_send(void *vctx, const struct http_request *req, struct http_response *resp, struct err *err)
{
	struct fake *f = vctx;
	struct buf h;
	const struct canned *c;
	size_t i = f->next++;

	cr_assert_lt(i, f->n, "unexpected request %s %s", req->method, req->url);
	c = &f->script[i];
	buf_init(&h, 0);
	for (size_t k = 0; k < req->nheaders; k++)
		buf_addf(&h, "%s: %s\n", req->headers[k].name, req->headers[k].value);
	f->method[i] = strdup(req->method);
	f->url[i] = strdup(req->url);
	f->headers[i] = buf_take(&h);
	f->body[i] = req->body ? strndup(req->body, req->body_len) : strdup("");
	cr_assert(strstr(req->url, c->url_has) != NULL, "request %zu: URL %s lacks %s", i,
		  req->url, c->url_has);
	if (c->status == 0)
		return err_set(err, ERR_NETWORK, "connection refused");
	resp->status = c->status;
	buf_adds(&resp->body, c->body);
	return 0;
}

static void
fake_free(struct fake *f)
{
	for (size_t i = 0; i < f->next; i++) {
		free(f->method[i]);
		free(f->url[i]);
		free(f->headers[i]);
		free(f->body[i]);
	}
}

static struct fake fk;

static int
ctx_init(struct aws_context *ctx, const char *profile, struct err *err)
{
	struct aws_context_options o = { .profile = profile, .service = "ecs",
					 .clock = &fake_clock };

	return aws_context_init(ctx, &o, (struct http_transport){ fake_send, &fk }, err);
}

static void
get_ok(const char *profile, struct aws_creds *c)
{
	struct aws_context ctx;
	struct err err = { 0 };

	cr_assert_eq(ctx_init(&ctx, profile, &err), 0, "init: %s", err.msg);
	cr_assert_eq(creds_get(&ctx, c, &err), 0, "creds_get: %s", err.msg);
	aws_context_cleanup(&ctx);
}

static void
get_fail(const char *profile, struct err *err)
{
	struct aws_context ctx;
	struct aws_creds c;

	cr_assert_eq(ctx_init(&ctx, profile, err), 0, "init: %s", err->msg);
	cr_assert_eq(creds_get(&ctx, &c, err), -1, "creds_get unexpectedly found %s",
		     c.source ? c.source : "?");
	aws_context_cleanup(&ctx);
}

#define STS_OK(AKID, EXP)                                                              \
	"<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"     \
	"<AssumeRoleResult><Credentials><AccessKeyId>" AKID "</AccessKeyId>"           \
	"<SecretAccessKey>sec/ret+" AKID "</SecretAccessKey>"                          \
	"<SessionToken>tok&amp;" AKID "</SessionToken><Expiration>" EXP                \
	"</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>"

/* ---- environment and static keys ---- */

Test(creds, environment_keys)
{
	struct aws_creds c;

	setenv("AWS_REGION", "us-east-1", 1);
	setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "secretenv", 1);
	setenv("AWS_SESSION_TOKEN", "tokenenv", 1);
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "AKIDENV");
	cr_expect_str_eq(c.secret_access_key, "secretenv");
	cr_expect_str_eq(c.session_token, "tokenenv");
	cr_expect_str_eq(c.source, "environment");
	cr_expect_eq(c.expires_ms, TS_NONE);
	aws_creds_cleanup(&c);
	cr_expect_null(c.secret_access_key);
}

Test(creds, environment_partial_keys_is_an_error)
{
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
	get_fail(NULL, &err);
	cr_expect_eq(err.code, ERR_CREDS);
	cr_expect(strstr(err.msg, "AWS_SECRET_ACCESS_KEY") != NULL, "%s", err.msg);
}

/* botocore: an explicit --profile removes the environment provider; AWS_PROFILE does not */
Test(creds, explicit_profile_beats_environment_keys)
{
	struct aws_creds c;

	write_file(".aws/credentials", "[dev]\naws_access_key_id = AKIDDEV\n"
		   "aws_secret_access_key = secretdev\n");
	write_file(".aws/config", "[profile dev]\nregion = eu-west-1\n");
	setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "secretenv", 1);
	get_ok("dev", &c);
	cr_expect_str_eq(c.access_key_id, "AKIDDEV");
	cr_expect_str_eq(c.source, "profile dev (static keys)");
	cr_expect_null(c.session_token);
	aws_creds_cleanup(&c);

	setenv("AWS_PROFILE", "dev", 1);
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "AKIDENV");
	aws_creds_cleanup(&c);
}

Test(creds, static_keys_with_session_token_from_config)
{
	struct aws_creds c;

	write_file(".aws/config", "[default]\nregion = us-west-2\naws_access_key_id = AKIDCFG\n"
		   "aws_secret_access_key = s3cr3t\naws_session_token = tok\n");
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "AKIDCFG");
	cr_expect_str_eq(c.session_token, "tok");
	aws_creds_cleanup(&c);
}

Test(creds, missing_named_profile_is_a_config_error)
{
	struct aws_context ctx;
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	cr_assert_eq(ctx_init(&ctx, "nope", &err), -1);
	cr_expect_eq(err.code, ERR_CONFIG);
	cr_expect(strstr(err.msg, "(nope) could not be found") != NULL, "%s", err.msg);
	setenv("AWS_PROFILE", "gone", 1);
	cr_assert_eq(ctx_init(&ctx, NULL, &err), -1);
	cr_expect(strstr(err.msg, "(gone)") != NULL, "%s", err.msg);
}

Test(creds, nothing_found_lists_every_source)
{
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	get_fail(NULL, &err);
	cr_expect_eq(err.code, ERR_CREDS);
	/* one short line: the sources tried, then what to do (issue 30 item 4) */
	cr_expect_str_eq(err.msg, "no AWS credentials (tried environment, web identity, profile "
			 "default, container, IMDS): run 'aws configure', or 'aws sso login "
			 "--profile NAME', or pass --profile (--verbose says why each gave none)");
	cr_expect_null(strchr(err.msg, '\n'));
}

Test(creds, empty_profile_reason)
{
	struct err err = { 0 };

	write_file(".aws/config", "[profile ci]\nregion = us-east-1\n");
	get_fail("ci", &err);
	/* the environment was not tried: not named */
	cr_expect(strstr(err.msg, "(tried web identity, ") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "profile ci (no keys, role_arn, SSO or credential_process") !=
		  NULL, "%s", err.msg);
}

/* ---- region, endpoint and settings ---- */

static char *
resolve(const char *field, const char *profile, const char *cli_region, const char *cli_url)
{
	struct aws_context_options o = { .profile = profile, .region = cli_region,
					 .endpoint_url = cli_url, .service = "ecs",
					 .clock = &fake_clock };
	struct aws_context ctx;
	struct err err = { 0 };
	char *r;

	if (aws_context_init(&ctx, &o, (struct http_transport){ fake_send, &fk }, &err) != 0)
		return strdup(err.msg);
	if (strcmp(field, "region") == 0)
		r = strdup(ctx.region);
	else if (strcmp(field, "sts") == 0)
		r = strdup(ctx.sts_endpoint);
	else if (strcmp(field, "ca") == 0)
		r = strdup(ctx.ca_bundle ? ctx.ca_bundle : "(null)");
	else if (strcmp(field, "attempts") == 0)
		r = strdup(ctx.max_attempts == 3 ? "3" : ctx.max_attempts == 7 ? "7" : "other");
	else
		r = strdup(ctx.endpoint);
	aws_context_cleanup(&ctx);
	return r;
}

#define EXPECT_RESOLVE(want, ...)                                                      \
	do {                                                                           \
		char *got_ = resolve(__VA_ARGS__);                                     \
		cr_expect_str_eq(got_, want);                                          \
		free(got_);                                                            \
	} while (0)

Test(creds, region_precedence)
{
	write_file(".aws/config", "[default]\nregion = ap-south-1\n[profile x]\nregion = sa-east-1\n");
	EXPECT_RESOLVE("ap-south-1", "region", NULL, NULL, NULL);
	EXPECT_RESOLVE("sa-east-1", "region", "x", NULL, NULL);
	setenv("AWS_DEFAULT_REGION", "eu-north-1", 1);
	EXPECT_RESOLVE("eu-north-1", "region", "x", NULL, NULL);
	setenv("AWS_REGION", "eu-west-3", 1);
	EXPECT_RESOLVE("eu-west-3", "region", "x", NULL, NULL);
	EXPECT_RESOLVE("ca-central-1", "region", "x", "ca-central-1", NULL);
	/* an empty variable counts as unset */
	setenv("AWS_REGION", "", 1);
	EXPECT_RESOLVE("eu-north-1", "region", NULL, NULL, NULL);
}

Test(creds, no_region_is_a_clear_error)
{
	char *m = resolve("region", NULL, NULL, NULL);

	cr_expect(strncmp(m, "no AWS region: use --region", 27) == 0, "%s", m);
	free(m);
}

Test(creds, endpoint_precedence)
{
	write_file(".aws/config", "[default]\nregion = us-east-1\n"
		   "[profile svc]\nregion = us-east-1\nservices = local\nendpoint_url = http://global.cfg\n"
		   "[services local]\necs =\n  endpoint_url = http://ecs.cfg\n"
		   "sts =\n  endpoint_url = http://sts.cfg\n");
	EXPECT_RESOLVE("https://ecs.us-east-1.amazonaws.com", "endpoint", NULL, NULL, NULL);
	EXPECT_RESOLVE("https://sts.us-east-1.amazonaws.com", "sts", NULL, NULL, NULL);
	EXPECT_RESOLVE("http://ecs.cfg", "endpoint", "svc", NULL, NULL);
	EXPECT_RESOLVE("http://sts.cfg", "sts", "svc", NULL, NULL);
	setenv("AWS_ENDPOINT_URL", "http://global.env", 1);
	EXPECT_RESOLVE("http://global.env", "endpoint", "svc", NULL, NULL);
	EXPECT_RESOLVE("http://global.env", "sts", "svc", NULL, NULL);
	setenv("AWS_ENDPOINT_URL_ECS", "http://ecs.env", 1);
	setenv("AWS_ENDPOINT_URL_STS", "http://sts.env", 1);
	EXPECT_RESOLVE("http://ecs.env", "endpoint", "svc", NULL, NULL);
	EXPECT_RESOLVE("http://sts.env", "sts", "svc", NULL, NULL);
	/* --endpoint-url is for the ECS calls only */
	EXPECT_RESOLVE("http://cli", "endpoint", "svc", NULL, "http://cli");
	EXPECT_RESOLVE("http://sts.env", "sts", "svc", NULL, "http://cli");
	setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", 1);
	EXPECT_RESOLVE("https://ecs.us-east-1.amazonaws.com", "endpoint", "svc", NULL, NULL);
	EXPECT_RESOLVE("http://cli", "endpoint", "svc", NULL, "http://cli");
}

Test(creds, profile_endpoint_url_without_services)
{
	write_file(".aws/config", "[default]\nregion = us-east-1\nendpoint_url = http://all.cfg\n");
	EXPECT_RESOLVE("http://all.cfg", "endpoint", NULL, NULL, NULL);
	EXPECT_RESOLVE("http://all.cfg", "sts", NULL, NULL, NULL);
}

Test(creds, fips_dualstack_and_partitions)
{
	write_file(".aws/config", "[default]\nregion = us-gov-west-1\nuse_fips_endpoint = true\n"
		   "[profile cn]\nregion = cn-north-1\nuse_dualstack_endpoint = true\n");
	EXPECT_RESOLVE("https://ecs-fips.us-gov-west-1.amazonaws.com", "endpoint", NULL, NULL, NULL);
	EXPECT_RESOLVE("https://sts-fips.us-gov-west-1.amazonaws.com", "sts", NULL, NULL, NULL);
	EXPECT_RESOLVE("https://ecs.cn-north-1.api.amazonwebservices.com.cn", "endpoint", "cn",
		       NULL, NULL);
	setenv("AWS_USE_FIPS_ENDPOINT", "true", 1);
	EXPECT_RESOLVE("https://ecs-fips.cn-north-1.api.amazonwebservices.com.cn", "endpoint",
		       "cn", NULL, NULL);
	/* the environment overrides the profile both ways */
	setenv("AWS_USE_FIPS_ENDPOINT", "false", 1);
	EXPECT_RESOLVE("https://ecs.us-gov-west-1.amazonaws.com", "endpoint", NULL, NULL, NULL);
	/* FIPS with a custom endpoint is the rule set's error */
	setenv("AWS_USE_FIPS_ENDPOINT", "true", 1);
	{
		char *m = resolve("endpoint", NULL, NULL, "http://x");
		cr_expect(strstr(m, "FIPS and custom endpoint are not supported") != NULL, "%s", m);
		free(m);
	}
	/* deprecated pseudo-region: real region, FIPS host */
	unsetenv("AWS_USE_FIPS_ENDPOINT");
	write_file(".aws/config", "[default]\nregion = us-east-1\n");
	EXPECT_RESOLVE("https://ecs.us-east-1.amazonaws.com", "endpoint", NULL, NULL, NULL);
	EXPECT_RESOLVE("https://ecs-fips.us-east-2.amazonaws.com", "endpoint", NULL,
		       "fips-us-east-2", NULL);
	EXPECT_RESOLVE("us-east-2", "region", NULL, "fips-us-east-2", NULL);
}

Test(creds, ca_bundle_and_max_attempts)
{
	write_file(".aws/config", "[default]\nregion = us-east-1\nca_bundle = /cfg/ca.pem\n"
		   "max_attempts = 7\n[profile bad]\nregion = us-east-1\nmax_attempts = many\n");
	EXPECT_RESOLVE("/cfg/ca.pem", "ca", NULL, NULL, NULL);
	EXPECT_RESOLVE("7", "attempts", NULL, NULL, NULL);
}

Test(creds, max_attempts_errors_and_env)
{
	char *m;

	write_file(".aws/config", "[default]\nregion = us-east-1\nmax_attempts = 7\n"
		   "[profile bad]\nregion = us-east-1\nmax_attempts = many\n");
	setenv("AWS_CA_BUNDLE", "/env/ca.pem", 1);
	EXPECT_RESOLVE("/env/ca.pem", "ca", NULL, NULL, NULL);
	m = resolve("attempts", "bad", NULL, NULL);
	cr_expect(strstr(m, "max_attempts") != NULL && strstr(m, "many") != NULL, "%s", m);
	free(m);
	setenv("AWS_MAX_ATTEMPTS", "3", 1);
	EXPECT_RESOLVE("3", "attempts", NULL, NULL, NULL);
	setenv("AWS_MAX_ATTEMPTS", "0", 1);
	m = resolve("attempts", NULL, NULL, NULL);
	cr_expect(strstr(m, "AWS_MAX_ATTEMPTS") != NULL, "%s", m);
	free(m);
}

/* ---- assumed roles ---- */

Test(creds, assume_role_with_source_profile)
{
	struct aws_creds c;

	write_file(".aws/config",
		   "[profile base]\nregion = eu-west-1\naws_access_key_id = AKIDBASE\n"
		   "aws_secret_access_key = basesecret\n"
		   "[profile admin]\nregion = eu-west-1\nrole_arn = arn:aws:iam::123456789012:role/Admin\n"
		   "source_profile = base\nrole_session_name = me@example\nexternal_id = ext 1\n"
		   "duration_seconds = 1800\n");
	fk = (struct fake){ .n = 1, .script = {
		{ "https://sts.eu-west-1.amazonaws.com/", 200, STS_OK("ASIAADMIN", "2024-05-01T11:00:00Z") } } };
	get_ok("admin", &c);
	cr_expect_str_eq(c.access_key_id, "ASIAADMIN");
	cr_expect_str_eq(c.secret_access_key, "sec/ret+ASIAADMIN");
	cr_expect_str_eq(c.session_token, "tok&ASIAADMIN");
	cr_expect_eq(c.expires_ms, fake_now + 3600000);
	cr_expect(strstr(c.source, "assumed role arn:aws:iam::123456789012:role/Admin") != NULL);
	cr_expect_str_eq(fk.method[0], "POST");
	cr_expect_str_eq(fk.body[0], "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam"
			 "%3A%3A123456789012%3Arole%2FAdmin&RoleSessionName=me%40example"
			 "&ExternalId=ext%201&DurationSeconds=1800");
	cr_expect(strstr(fk.headers[0], "Authorization: AWS4-HMAC-SHA256 Credential=AKIDBASE/"
			 "20240501/eu-west-1/sts/aws4_request") != NULL, "%s", fk.headers[0]);
	cr_expect(strstr(fk.headers[0], "Host: sts.eu-west-1.amazonaws.com\n") != NULL);
	cr_expect(strstr(fk.headers[0], "Content-Type: application/x-www-form-urlencoded") != NULL);
	cr_expect_null(strstr(fk.headers[0], "basesecret"));
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, chained_roles_sign_with_the_previous_role)
{
	struct aws_creds c;

	write_file(".aws/config",
		   "[profile a]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = b\n"
		   "[profile b]\nrole_arn = arn:aws:iam::1:role/B\nsource_profile = c\n"
		   "[profile c]\naws_access_key_id = AKIDC\naws_secret_access_key = csecret\n");
	fk = (struct fake){ .n = 2, .script = {
		{ "sts.", 200, STS_OK("ASIAB", "2024-05-01T11:00:00Z") },
		{ "sts.", 200, STS_OK("ASIAA", "2024-05-01T10:30:00Z") } } };
	get_ok("a", &c);
	cr_expect_str_eq(c.access_key_id, "ASIAA");
	cr_expect(strstr(fk.body[0], "role%2FB") != NULL, "%s", fk.body[0]);
	cr_expect(strstr(fk.headers[0], "Credential=AKIDC/") != NULL);
	cr_expect(strstr(fk.body[1], "role%2FA") != NULL);
	cr_expect(strstr(fk.headers[1], "Credential=ASIAB/") != NULL);
	/* the second call carries the first role's session token */
	cr_expect(strstr(fk.headers[1], "X-Amz-Security-Token: tok&ASIAB") != NULL, "%s",
		  fk.headers[1]);
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, source_profile_loop_names_profiles)
{
	struct err err = { 0 };

	write_file(".aws/config",
		   "[profile a]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = b\n"
		   "[profile b]\nrole_arn = arn:aws:iam::1:role/B\nsource_profile = a\n");
	get_fail("a", &err);
	cr_expect_eq(err.code, ERR_CONFIG);
	cr_expect(strstr(err.msg, "source_profile loop a -> b -> a") != NULL, "%s", err.msg);
	cr_expect_eq(fk.next, 0, "no STS call on a loop");
}

Test(creds, self_referencing_source_profile_uses_its_keys)
{
	struct aws_creds c;

	write_file(".aws/config",
		   "[profile me]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/Me\nsource_profile = me\n"
		   "aws_access_key_id = AKIDME\naws_secret_access_key = mesecret\n"
		   "[profile nokeys]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/N\n"
		   "source_profile = nokeys\n");
	fk = (struct fake){ .n = 1, .script = { { "sts.", 200, STS_OK("ASIAME", "2024-05-01T11:00:00Z") } } };
	get_ok("me", &c);
	cr_expect_str_eq(c.access_key_id, "ASIAME");
	cr_expect(strstr(fk.headers[0], "Credential=AKIDME/") != NULL);
	aws_creds_cleanup(&c);
	fake_free(&fk);
	{
		struct err err = { 0 };
		get_fail("nokeys", &err);
		cr_expect(strstr(err.msg, "profile nokeys: source_profile loop") != NULL, "%s", err.msg);
	}
}

Test(creds, missing_source_profile_names_both)
{
	struct err err = { 0 };

	write_file(".aws/config", "[profile r]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/R\n"
		   "source_profile = ghost\n[profile both]\nregion = us-east-1\n"
		   "role_arn = arn:aws:iam::1:role/R\nsource_profile = r\ncredential_source = Environment\n"
		   "[profile none]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/R\n");
	get_fail("r", &err);
	cr_expect(strstr(err.msg, "profile r: source_profile ghost does not exist") != NULL, "%s",
		  err.msg);
	get_fail("both", &err);
	cr_expect(strstr(err.msg, "profile both: both source_profile and credential_source") !=
		  NULL, "%s", err.msg);
	get_fail("none", &err);
	cr_expect(strstr(err.msg, "profile none: role_arn needs source_profile or "
			 "credential_source") != NULL, "%s", err.msg);
}

Test(creds, credential_source_environment_and_container)
{
	struct aws_creds c;
	struct err err = { 0 };

	write_file(".aws/config", "[profile e]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/E\n"
		   "credential_source = Environment\n"
		   "[profile k]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/K\n"
		   "credential_source = EcsContainer\n"
		   "[profile i]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/I\n"
		   "credential_source = Ec2InstanceMetadata\n");
	get_fail("e", &err);
	cr_expect(strstr(err.msg, "profile e: credential_source Environment gave no credentials")
		  != NULL, "%s", err.msg);
	setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
	setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
	fk = (struct fake){ .n = 3, .script = {
		{ "sts.", 200, STS_OK("ASIAE", "2024-05-01T11:00:00Z") },
		{ "http://127.0.0.1:9/c", 200, "{\"AccessKeyId\":\"ASIACONT\",\"SecretAccessKey\":"
		  "\"cs\",\"Token\":\"ct\",\"Expiration\":\"2024-05-01T12:00:00Z\"}" },
		{ "sts.", 200, STS_OK("ASIAK", "2024-05-01T11:00:00Z") } } };
	get_ok("e", &c);
	cr_expect_str_eq(c.access_key_id, "ASIAE");
	cr_expect(strstr(fk.headers[0], "Credential=AKIDENV/") != NULL);
	aws_creds_cleanup(&c);
	setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:9/c", 1);
	get_ok("k", &c);
	cr_expect_str_eq(c.access_key_id, "ASIAK");
	cr_expect(strstr(fk.headers[2], "Credential=ASIACONT/") != NULL);
	cr_expect(strstr(fk.headers[2], "X-Amz-Security-Token: ct") != NULL);
	aws_creds_cleanup(&c);
	get_fail("i", &err);
	cr_expect(strstr(err.msg, "credential_source Ec2InstanceMetadata gave no credentials: IMDS "
			 "(disabled") != NULL, "%s", err.msg);
	fake_free(&fk);
}

Test(creds, sts_error_is_reported_without_secrets)
{
	struct err err = { 0 };

	write_file(".aws/config", "[profile r]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/R\n"
		   "source_profile = s\n[profile s]\naws_access_key_id = AKIDS\n"
		   "aws_secret_access_key = supersecret\n");
	fk = (struct fake){ .n = 1, .script = { { "sts.", 403,
		"<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User "
		"is not authorized to perform: sts:AssumeRole</Message></Error></ErrorResponse>" } } };
	get_fail("r", &err);
	cr_expect_eq(err.code, ERR_AWS);
	cr_expect_eq(err.http_status, 403);
	cr_expect_str_eq(err.aws_type, "AccessDenied");
	cr_expect(strstr(err.msg, "profile r: AssumeRole arn:aws:iam::1:role/R failed: HTTP 403 "
			 "AccessDenied: User is not authorized") != NULL, "%s", err.msg);
	cr_expect_null(strstr(err.msg, "supersecret"));
	fake_free(&fk);
}

Test(creds, unsupported_mfa_and_bad_duration)
{
	struct err err = { 0 };

	write_file(".aws/config", "[profile m]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/R\n"
		   "source_profile = s\nmfa_serial = arn:aws:iam::1:mfa/me\n"
		   "[profile d]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/R\n"
		   "source_profile = s\nduration_seconds = 10\n"
		   "[profile s]\naws_access_key_id = A\naws_secret_access_key = B\n");
	get_fail("m", &err);
	cr_expect(strstr(err.msg, "profile m: mfa_serial is not supported") != NULL, "%s", err.msg);
	get_fail("d", &err);
	cr_expect(strstr(err.msg, "profile d: duration_seconds '10'") != NULL, "%s", err.msg);
}

/* ---- web identity ---- */

Test(creds, web_identity_from_environment_is_unsigned)
{
	struct aws_creds c;

	setenv("AWS_REGION", "us-east-2", 1);
	write_file("token.jwt", "eyJ.jwt+token/x\n");
	setenv("AWS_WEB_IDENTITY_TOKEN_FILE", home_path("token.jwt"), 1);
	setenv("AWS_ROLE_ARN", "arn:aws:iam::1:role/Ci", 1);
	setenv("AWS_ROLE_SESSION_NAME", "gha", 1);
	fk = (struct fake){ .n = 1, .script = { { "https://sts.us-east-2.amazonaws.com/", 200,
		"<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult>"
		"<Credentials><AccessKeyId>ASIAWEB</AccessKeyId><SecretAccessKey>w</SecretAccessKey>"
		"<SessionToken>wt</SessionToken><Expiration>2024-05-01T11:00:00Z</Expiration>"
		"</Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>" } } };
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "ASIAWEB");
	cr_expect_str_eq(c.source, "web identity (arn:aws:iam::1:role/Ci)");
	cr_expect_str_eq(fk.body[0], "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn="
			 "arn%3Aaws%3Aiam%3A%3A1%3Arole%2FCi&RoleSessionName=gha&WebIdentityToken="
			 "eyJ.jwt%2Btoken%2Fx");
	cr_expect_null(strstr(fk.headers[0], "Authorization"));
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, web_identity_from_profile_and_missing_role)
{
	struct aws_creds c;
	struct err err = { 0 };
	char cfg[1024];

	write_file("t.jwt", "tok");
	snprintf(cfg, sizeof cfg, "[profile w]\nregion = us-east-1\nweb_identity_token_file = %s\n"
		 "role_arn = arn:aws:iam::1:role/W\n[profile norole]\nregion = us-east-1\n"
		 "web_identity_token_file = %s\n", home_path("t.jwt"), home_path("t.jwt"));
	write_file(".aws/config", cfg);
	fk = (struct fake){ .n = 1, .script = { { "sts.", 200, STS_OK("ASIAW", "2024-05-01T11:00:00Z") } } };
	get_ok("w", &c);
	cr_expect_str_eq(c.access_key_id, "ASIAW");
	cr_expect(strstr(fk.body[0], "RoleSessionName=ecsprof-session-1714557600") != NULL, "%s",
		  fk.body[0]);
	aws_creds_cleanup(&c);
	fake_free(&fk);
	get_fail("norole", &err);
	cr_expect(strstr(err.msg, "set AWS_ROLE_ARN or role_arn in profile norole") != NULL, "%s",
		  err.msg);
}

/* ---- credential_process ---- */

Test(creds, credential_process_variants)
{
	struct aws_creds c;
	struct err err = { 0 };

	write_file("ok.json", "{\"Version\": 1, \"AccessKeyId\": \"AKIDPROC\", \"SecretAccessKey\": "
		   "\"procsecret\", \"SessionToken\": \"pt\", \"Expiration\": \"2024-05-01T10:30:00Z\"}");
	write_file("v2.json", "{\"Version\": 2, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"S\"}");
	{
		char cfg[2048];
		snprintf(cfg, sizeof cfg,
			 "[default]\nregion = us-east-1\ncredential_process = cat '%s'\n"
			 "[profile fails]\nregion = us-east-1\ncredential_process = sh -c 'echo nope >&2; exit 3'\n"
			 "[profile badjson]\nregion = us-east-1\n"
			 "credential_process = printf '{\"AccessKeyId\": \"AKIDLEAK\", \"SecretAccessKey\": \"leaky\"'\n"
			 "[profile v2]\nregion = us-east-1\ncredential_process = cat '%s'\n",
			 home_path("ok.json"), home_path("v2.json"));
		write_file(".aws/config", cfg);
	}
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "AKIDPROC");
	cr_expect_str_eq(c.session_token, "pt");
	cr_expect_eq(c.expires_ms, fake_now + 1800000);
	cr_expect_str_eq(c.source, "profile default (credential_process)");
	aws_creds_cleanup(&c);

	get_fail("fails", &err);
	cr_expect_str_eq(err.msg, "profile fails: credential_process exited with status 3");
	get_fail("badjson", &err);
	cr_expect(strstr(err.msg, "profile badjson: credential_process printed bad JSON") != NULL,
		  "%s", err.msg);
	cr_expect_null(strstr(err.msg, "leaky"));
	cr_expect_null(strstr(err.msg, "AKIDLEAK"));
	get_fail("v2", &err);
	cr_expect(strstr(err.msg, "profile v2: credential_process output needs \"Version\": 1") !=
		  NULL, "%s", err.msg);
}

/* credential_process runs without a shell (botocore's shlex.split, POSIX rules): quotes
 * group words, nothing is expanded or redirected */
Test(creds, credential_process_split_like_shlex)
{
	/* expected values from python3 shlex.split */
	static const struct { const char *line; const char *want[5]; } v[] = {
		{ "a \"b c\" d", { "a", "b c", "d" } },
		{ "a 'b  c'd e", { "a", "b  cd", "e" } },
		{ "a\\ b \"c\\\"d\" \"e\\f\" \\\\x", { "a b", "c\"d", "e\\f", "\\x" } },
		{ "a \"\" b", { "a", "", "b" } },
		{ "x\"y\"z", { "xyz" } },
		{ "  lead \t trail  ", { "lead", "trail" } },
		{ "\"\\\\\"", { "\\" } },
		{ "echo $HOME;ls >x", { "echo", "$HOME;ls", ">x" } },
	};
	struct err err = { 0 };
	char **argv;

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		size_t n = 0;

		cr_assert_eq(creds_split_command(v[i].line, &argv, &err), 0, "%s: %s", v[i].line,
			     err.msg);
		for (; argv[n] != NULL; n++) {
			cr_assert_not_null(v[i].want[n], "%s: extra word %s", v[i].line, argv[n]);
			cr_expect_str_eq(argv[n], v[i].want[n], "%s: word %zu", v[i].line, n);
		}
		cr_expect_null(v[i].want[n], "%s: %zu words", v[i].line, n);
		creds_argv_free(argv);
	}
	cr_expect_eq(creds_split_command("a \"b", &argv, &err), -1);
	cr_expect_str_eq(err.msg, "no closing quotation");
	cr_expect_eq(creds_split_command("a 'b", &argv, &err), -1);
	cr_expect_str_eq(err.msg, "no closing quotation");
	cr_expect_eq(creds_split_command("a\\", &argv, &err), -1);
	cr_expect_str_eq(err.msg, "no escaped character");
	cr_expect_eq(creds_split_command("  ", &argv, &err), -1);
	cr_expect_str_eq(err.msg, "no command");
}

Test(creds, credential_process_quoted_argument_and_no_shell)
{
	struct aws_creds c;
	struct err err = { 0 };
	char cfg[2048];

	cr_assert_eq(mkdir(home_path("bin dir"), 0700), 0);
	write_file("bin dir/creds.sh", "#!/bin/sh\nprintf '{\"Version\": 1, \"AccessKeyId\": "
		   "\"%s\", \"SecretAccessKey\": \"s\"}' \"$1|$2|$#\"\n");
	chmod(home_path("bin dir/creds.sh"), 0700);
	snprintf(cfg, sizeof cfg, "[default]\nregion = us-east-1\ncredential_process = "
		 "\"%s\" \"two  words\" $HOME'x'\n"
		 "[profile missing]\nregion = us-east-1\ncredential_process = %s/nonexistent --x\n"
		 "[profile unclosed]\nregion = us-east-1\ncredential_process = cat 'x\n",
		 home_path("bin dir/creds.sh"), home);
	write_file(".aws/config", cfg);
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "two  words|$HOMEx|2");
	aws_creds_cleanup(&c);
	get_fail("missing", &err);
	cr_expect(strstr(err.msg, "profile missing: credential_process could not run ") != NULL &&
		  strstr(err.msg, "No such file or directory") != NULL, "%s", err.msg);
	get_fail("unclosed", &err);
	cr_expect_str_eq(err.msg, "profile unclosed: credential_process: no closing quotation "
			 "(it is split like a POSIX shell's words, never run by a shell)");
}

static double
mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a process that never ends is killed after the timeout, and the lock is free again */
Test(creds, credential_process_timeout_kills_it, .timeout = 30)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };
	double t0;

	write_file(".aws/config", "[default]\nregion = us-east-1\n"
		   "credential_process = sh -c 'exec sleep 1000'\n");
	setenv("ECSPROF_CREDENTIAL_PROCESS_TIMEOUT", "0.5", 1);
	cr_assert_eq(ctx_init(&ctx, NULL, &err), 0, "init: %s", err.msg);
	for (int i = 0; i < 2; i++) {
		t0 = mono_s();
		cr_assert_eq(creds_get(&ctx, &c, &err), -1);
		cr_expect_lt(mono_s() - t0, 5.0, "took %.1f s", mono_s() - t0);
		cr_expect_str_eq(err.msg, "profile default: credential_process did not finish "
				 "within 0.5 s (stopped it; ECSPROF_CREDENTIAL_PROCESS_TIMEOUT "
				 "sets the limit)");
	}
	aws_context_cleanup(&ctx);
}

/* `credential_process = yes` stops at the size cap instead of reading forever */
Test(creds, credential_process_endless_output_stops_at_cap, .timeout = 30)
{
	struct err err = { 0 };
	double t0 = mono_s();

	write_file(".aws/config", "[default]\nregion = us-east-1\ncredential_process = yes\n");
	get_fail(NULL, &err);
	cr_expect_lt(mono_s() - t0, 5.0, "took %.1f s", mono_s() - t0);
	cr_expect_str_eq(err.msg, "profile default: credential_process printed more than 262144 "
			 "bytes (stopped it)");
}

/* ---- SSO ---- */

static void
sso_cache(const char *key, const char *expires)
{
	unsigned char md[20];
	unsigned int n;
	char rel[128], text[256];

	EVP_Digest(key, strlen(key), md, &n, EVP_sha1(), NULL);
	char hex[41];

	for (unsigned i = 0; i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	snprintf(rel, sizeof rel, ".aws/sso/cache/%s.json", hex);
	snprintf(text, sizeof text, "{\"startUrl\": \"https://x.awsapps.com/start\", \"region\": "
		 "\"eu-central-1\", \"accessToken\": \"bearer-secret\", \"expiresAt\": \"%s\"}",
		 expires);
	mkdir(home_path(".aws/sso"), 0700);
	mkdir(home_path(".aws/sso/cache"), 0700);
	write_file(rel, text);
}

#define SSO_CONFIG                                                                     \
	"[profile s]\nregion = us-east-1\nsso_session = corp\nsso_account_id = 111122223333\n" \
	"sso_role_name = ReadOnly\n"                                                   \
	"[sso-session corp]\nsso_start_url = https://x.awsapps.com/start\n"            \
	"sso_region = eu-central-1\n"                                                  \
	"[profile legacy]\nregion = us-east-1\nsso_start_url = https://old.awsapps.com/start\n" \
	"sso_region = eu-central-1\nsso_account_id = 1\nsso_role_name = R\n"

#define SSO_OK "{\"roleCredentials\":{\"accessKeyId\":\"ASIASSO\",\"secretAccessKey\":\"ss\"," \
	"\"sessionToken\":\"st\",\"expiration\":1714561200000}}"

Test(creds, sso_session_profile)
{
	struct aws_creds c;

	write_file(".aws/config", SSO_CONFIG);
	sso_cache("corp", "2024-05-01T18:00:00Z");
	fk = (struct fake){ .n = 1, .script = { { "https://portal.sso.eu-central-1.amazonaws.com/"
		"federation/credentials?account_id=111122223333&role_name=ReadOnly", 200, SSO_OK } } };
	get_ok("s", &c);
	cr_expect_str_eq(c.access_key_id, "ASIASSO");
	cr_expect_str_eq(c.session_token, "st");
	cr_expect_eq(c.expires_ms, 1714561200000);
	cr_expect_str_eq(fk.method[0], "GET");
	cr_expect(strstr(fk.headers[0], "x-amz-sso_bearer_token: bearer-secret\n") != NULL);
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, sso_legacy_profile_and_endpoint_override)
{
	struct aws_creds c;

	write_file(".aws/config", SSO_CONFIG);
	sso_cache("https://old.awsapps.com/start", "2024-05-01T18:00:00UTC");
	setenv("AWS_ENDPOINT_URL_SSO", "http://127.0.0.1:1", 1);
	fk = (struct fake){ .n = 1, .script = { { "http://127.0.0.1:1/federation/credentials?"
		"account_id=1&role_name=R", 200, SSO_OK } } };
	get_ok("legacy", &c);
	cr_expect_str_eq(c.source, "profile legacy (SSO 1/R)");
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, sso_missing_expired_and_rejected_tokens_say_login)
{
	struct err err = { 0 };

	write_file(".aws/config", SSO_CONFIG);
	get_fail("s", &err);
	cr_expect(strstr(err.msg, "profile s: no cached SSO token") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "run 'aws sso login --profile s'") != NULL, "%s", err.msg);
	sso_cache("corp", "2024-05-01T09:59:59Z");
	get_fail("s", &err);
	cr_expect(strstr(err.msg, "the SSO session expired at 2024-05-01T09:59:59.000Z; run 'aws "
			 "sso login --profile s'") != NULL, "%s", err.msg);
	sso_cache("corp", "2024-05-01T18:00:00Z");
	fk = (struct fake){ .n = 1, .script = { { "portal.sso", 401,
		"{\"message\":\"Session token not found or invalid\"}" } } };
	get_fail("s", &err);
	cr_expect(strstr(err.msg, "refused the cached token (HTTP 401); run 'aws sso login") !=
		  NULL, "%s", err.msg);
	cr_expect_null(strstr(err.msg, "bearer-secret"));
	fake_free(&fk);
}

/* ---- container endpoint ---- */

Test(creds, container_url_vectors)
{
	const char *path = SHARED_DIR "/testdata/aws-config/ecs-container-credentials-tests.json";
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *tests, *t;
	size_t i, count = 0;

	cr_assert_not_null(root, "cannot read %s: %s", path, je.text);
	tests = json_object_get(root, "tests");
	json_array_foreach(tests, i, t) {
		json_t *env = json_object_get(t, "env"), *res = json_object_get(t, "result");
		const char *rel = json_string_value(json_object_get(env,
						"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"));
		const char *full = json_string_value(json_object_get(env,
						"AWS_CONTAINER_CREDENTIALS_FULL_URI"));
		const char *ok = json_string_value(json_object_get(res, "Ok"));
		const char *bad = json_string_value(json_object_get(res, "ErrorContains"));
		const char *docs = json_string_value(json_object_get(t, "docs"));
		struct err err = { 0 };
		char *url = NULL;
		int rc = creds_container_url(rel, full, &url, &err);

		cr_assert(ok != NULL || bad != NULL, "case %s has no result", docs);
		if (ok != NULL) {
			cr_expect_eq(rc, 0, "%s: %s", docs, err.msg);
			cr_expect_str_eq(url ? url : "(null)", ok, "%s", docs);
		} else {
			cr_expect_eq(rc, -1, "%s: accepted %s", docs, url ? url : "");
			/* smithy-rs wording; ours keeps the key phrase */
			cr_expect(strstr(err.msg, bad) != NULL, "%s: '%s' lacks '%s'", docs, err.msg,
				  bad);
		}
		free(url);
		count++;
	}
	json_decref(root);
	cr_expect_eq(count, 11);
}

Test(creds, container_url_refuses_plain_http_elsewhere)
{
	struct err err = { 0 };
	char *url = NULL;

	cr_expect_eq(creds_container_url(NULL, "http://example.com/creds", &url, &err), -1);
	cr_expect_eq(creds_container_url(NULL, "http://user@127.0.0.1/creds", &url, &err), -1);
	cr_expect_eq(creds_container_url(NULL, "ftp://127.0.0.1/creds", &url, &err), -1);
	cr_expect_eq(creds_container_url(NULL, "http://127.0.0.2:80/c", &url, &err), 0);
	free(url);
	cr_expect_eq(creds_container_url(NULL, "http://[::1]:80/c", &url, &err), 0);
	free(url);
}

Test(creds, container_with_token_file_and_retry)
{
	struct aws_creds c;

	setenv("AWS_REGION", "us-east-1", 1);
	write_file("ecs-token", "Bearer tok123\n");
	setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://localhost:51679/v2/creds", 1);
	setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN", "ignored-when-file-set", 1);
	setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", home_path("ecs-token"), 1);
	fk = (struct fake){ .n = 3, .script = {
		{ "localhost:51679/v2/creds", 0, NULL },
		{ "localhost:51679/v2/creds", 503, "busy" },
		{ "localhost:51679/v2/creds", 200, "{\"AccessKeyId\":\"ASIACT\",\"SecretAccessKey\":"
		  "\"s\\/x\",\"Token\":\"t\\u00e9\",\"Expiration\":\"2024-05-01T16:00:00Z\"}" } } };
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "ASIACT");
	cr_expect_str_eq(c.secret_access_key, "s/x");
	cr_expect_str_eq(c.session_token, "t\xc3\xa9");
	cr_expect_str_eq(fk.headers[2], "Accept: application/json\nAuthorization: Bearer tok123\n");
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, container_failure_is_an_error)
{
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	setenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/abc", 1);
	/* a scripted fake transport: the URL is only compared, no socket is opened */
	fk = (struct fake){ .n = 1, .script = { { "http://169.254.170.2/v2/credentials/abc", 403,
		"{}" } } };
	get_fail(NULL, &err);
	cr_expect_str_eq(err.msg, "container credentials http://169.254.170.2/v2/credentials/abc: "
			 "HTTP 403");
	fake_free(&fk);
}

/* ---- IMDS ---- */

#define IMDS_DOC "{\"Code\":\"Success\",\"Type\":\"AWS-HMAC\",\"AccessKeyId\":\"ASIAEC2\"," \
	"\"SecretAccessKey\":\"e\",\"Token\":\"et\",\"Expiration\":\"2024-05-01T16:00:00Z\"}"

Test(creds, imds_v2_token_first)
{
	struct aws_creds c;

	setenv("AWS_REGION", "us-east-1", 1);
	unsetenv("AWS_EC2_METADATA_DISABLED");
	setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:1/", 1);
	fk = (struct fake){ .n = 3, .script = {
		{ "http://127.0.0.1:1/latest/api/token", 200, "imds-token" },
		{ "http://127.0.0.1:1/latest/meta-data/iam/security-credentials/", 200, "web-role\n" },
		{ "http://127.0.0.1:1/latest/meta-data/iam/security-credentials/web-role", 200,
		  IMDS_DOC } } };
	get_ok(NULL, &c);
	cr_expect_str_eq(c.access_key_id, "ASIAEC2");
	cr_expect_str_eq(c.source, "IMDS (role web-role)");
	cr_expect_str_eq(fk.method[0], "PUT");
	cr_expect_str_eq(fk.headers[0], "X-aws-ec2-metadata-token-ttl-seconds: 21600\n");
	cr_expect_str_eq(fk.headers[1], "X-aws-ec2-metadata-token: imds-token\n");
	cr_expect_str_eq(fk.headers[2], "X-aws-ec2-metadata-token: imds-token\n");
	aws_creds_cleanup(&c);
	fake_free(&fk);
}

Test(creds, imds_v1_fallback_and_no_answer)
{
	struct aws_creds c;
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	unsetenv("AWS_EC2_METADATA_DISABLED");
	setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:1", 1);
	fk = (struct fake){ .n = 4, .script = {
		{ "/latest/api/token", 405, "" },
		{ "/security-credentials/", 200, "r" },
		{ "/security-credentials/r", 200, IMDS_DOC },
		{ "/latest/api/token", 0, NULL } } };
	get_ok(NULL, &c);
	cr_expect_str_eq(fk.headers[1], "");
	aws_creds_cleanup(&c);
	get_fail(NULL, &err);
	/* a source set up that gave none keeps its reason in the short line */
	cr_expect(strstr(err.msg, ", IMDS (no answer from http://127.0.0.1:1: connection refused)")
		  != NULL, "%s", err.msg);
	fake_free(&fk);
}

/* ---- cache and refresh ---- */

Test(creds, cached_and_refreshed_before_expiry)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:2/c", 1);
	fk = (struct fake){ .n = 4, .script = {
		{ "/c", 200, "{\"AccessKeyId\":\"ONE\",\"SecretAccessKey\":\"s\",\"Token\":\"t\","
		  "\"Expiration\":\"2024-05-01T11:00:00Z\"}" },
		{ "/c", 200, "{\"AccessKeyId\":\"TWO\",\"SecretAccessKey\":\"s\",\"Token\":\"t\","
		  "\"Expiration\":\"2024-05-01T12:00:00Z\"}" },
		{ "/c", 500, "" }, { "/c", 500, "" } } };
	cr_assert_eq(ctx_init(&ctx, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(c.access_key_id, "ONE");
	aws_creds_cleanup(&c);
	fake_now += 54 * 60 * 1000; /* 10:54: still 6 minutes left */
	cr_assert_eq(creds_get(&ctx, &c, &err), 0);
	cr_expect_str_eq(c.access_key_id, "ONE");
	cr_expect_eq(fk.next, 1, "cached credentials must not be fetched again");
	aws_creds_cleanup(&c);
	fake_now += 2 * 60 * 1000; /* 10:56: inside the 5-minute window */
	cr_assert_eq(creds_get(&ctx, &c, &err), 0);
	cr_expect_str_eq(c.access_key_id, "TWO");
	aws_creds_cleanup(&c);
	/* 11:56: refresh fails (500 three times; the fake clock advances on retry sleeps)
	 * but TWO is still valid until 12:00 */
	fk.n = 5;
	fk.script[4] = (struct canned){ "/c", 500, "" };
	fake_now = 1714557600000 + 116 * 60 * 1000;
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(c.access_key_id, "TWO");
	aws_creds_cleanup(&c);
	aws_context_cleanup(&ctx);
	fake_free(&fk);
}

Test(creds, expired_and_refresh_failing_is_an_error)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };

	setenv("AWS_REGION", "us-east-1", 1);
	setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:2/c", 1);
	fk = (struct fake){ .n = 2, .script = {
		{ "/c", 200, "{\"AccessKeyId\":\"ONE\",\"SecretAccessKey\":\"s\",\"Token\":\"t\","
		  "\"Expiration\":\"2024-05-01T11:00:00Z\"}" },
		{ "/c", 404, "" } } };
	cr_assert_eq(ctx_init(&ctx, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	aws_creds_cleanup(&c);
	fake_now += 61 * 60 * 1000;
	cr_expect_eq(creds_get(&ctx, &c, &err), -1);
	cr_expect(strstr(err.msg, "HTTP 404") != NULL, "%s", err.msg);
	aws_context_cleanup(&ctx);
	fake_free(&fk);
}

/* ---- the JSON reader ---- */

Test(creds, json_reader)
{
	struct creds_json j;
	struct err err = { 0 };
	const char *ok = "{\"a\": {\"b\": \"x\\\"y\", \"n\": -1.5e3, \"arr\": [1, {\"z\": 2}]},"
			 " \"t\": true, \"u\": \"\\ud83d\\ude00\"}";

	cr_assert_eq(creds_json_parse(ok, strlen(ok), &j, &err), 0, "%s", err.msg);
	cr_expect_str_eq(creds_json_get(&j, "a.b"), "x\"y");
	cr_expect_str_eq(creds_json_get(&j, "a.n"), "-1.5e3");
	cr_expect_str_eq(creds_json_get(&j, "t"), "true");
	cr_expect_str_eq(creds_json_get(&j, "u"), "\xf0\x9f\x98\x80");
	cr_expect_null(creds_json_get(&j, "z"));
	creds_json_free(&j);
	static const char *const bad[] = { "", "[]", "{", "{\"a\" 1}", "{\"a\": tru}",
					   "{\"a\": \"x}", "{\"a\": 1,}", "{} x", "{\"a\": \"\\q\"}" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_expect_eq(creds_json_parse(bad[i], strlen(bad[i]), &j, &err), -1, "%s", bad[i]);
}

/* ---- through the real libcurl transport: loopback servers and moto ---- */

#include <signal.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "ecsprof/http_curl.h"
#include "ecsprof/sigv4.h"

struct server {
	pid_t pid;
	json_t *state;
	char url[64];
};

static struct server srv;

static void
real_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void
server_start(struct server *s, const char *mode)
{
	char state[512], log[512];
	json_error_t je;
	int status;

	snprintf(state, sizeof state, "%s/state-%s.json", home, mode);
	snprintf(log, sizeof log, "%s/server-%s.log", home, mode);
	s->pid = fork();
	cr_assert_neq(s->pid, -1);
	if (s->pid == 0) {
		/* never outlive the test, even when an assertion ends it early */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (freopen(log, "w", stdout) == NULL || freopen(log, "a", stderr) == NULL)
			_exit(126);
		execlp("python3", "python3", TESTS_DIR "/creds_servers.py", mode, state, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 600; i++) {
		if (access(state, R_OK) == 0)
			break;
		cr_assert_eq(waitpid(s->pid, &status, WNOHANG), 0,
			     "the %s server exited early; see %s", mode, log);
		real_sleep_ms(50);
	}
	s->state = json_load_file(state, 0, &je);
	cr_assert_not_null(s->state, "the %s server did not start within 30 s (%s)", mode, log);
	snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d",
		 (int)json_integer_value(json_object_get(s->state, "port")));
}

static const char *
server_str(const struct server *s, const char *key)
{
	const char *v = json_string_value(json_object_get(s->state, key));

	cr_assert_not_null(v, "server state lacks %s", key);
	return v;
}

static void
server_stop(struct server *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
	}
	json_decref(s->state);
	s->state = NULL;
}

static void
live_teardown(void)
{
	server_stop(&srv);
	teardown();
}

static struct http_transport curl_t;

static void
curl_ctx(struct aws_context *ctx, const char *profile)
{
	struct http_curl_options co = { 0 };
	struct aws_context_options o = { .profile = profile, .service = "ecs",
					 .clock = &fake_clock };
	struct err err = { 0 };

	cr_assert_eq(http_curl_new(&co, &curl_t, &err), 0, "%s", err.msg);
	cr_assert_eq(aws_context_init(ctx, &o, curl_t, &err), 0, "%s", err.msg);
}

static void
curl_ctx_done(struct aws_context *ctx)
{
	aws_context_cleanup(ctx);
	http_curl_free(&curl_t);
}

TestSuite(creds_live, .init = setup, .fini = live_teardown, .timeout = 60);

Test(creds_live, container_endpoint_through_curl)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };
	char uri[128];

	server_start(&srv, "container");
	setenv("AWS_REGION", "us-east-1", 1);
	snprintf(uri, sizeof uri, "%s/v2/credentials/task-1?a=1", srv.url);
	setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", uri, 1);
	write_file("tok", "Bearer loopback-container-token\n");
	setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", home_path("tok"), 1);
	curl_ctx(&ctx, NULL);
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(c.access_key_id, "ASIACONTAINERLOOPBACK");
	cr_expect_str_eq(c.secret_access_key, "loopback/secret+ASIACONTAINER");
	cr_expect_str_eq(c.session_token, "loopback-session-token-ASIACONTAINER");
	aws_creds_cleanup(&c);
	curl_ctx_done(&ctx);

	/* a wrong token is refused by the server and reported with its status */
	setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", home_path("nope"), 1);
	write_file("nope", "Bearer wrong");
	curl_ctx(&ctx, NULL);
	cr_expect_eq(creds_get(&ctx, &c, &err), -1);
	cr_expect(strstr(err.msg, "HTTP 401") != NULL, "%s", err.msg);
	cr_expect_null(strstr(err.msg, "wrong"));
	curl_ctx_done(&ctx);
}

Test(creds_live, imds_v2_through_curl)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };

	server_start(&srv, "imds");
	setenv("AWS_REGION", "us-east-1", 1);
	unsetenv("AWS_EC2_METADATA_DISABLED");
	setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", srv.url, 1);
	curl_ctx(&ctx, NULL);
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(c.access_key_id, "ASIAIMDSROLELOOPBACK");
	cr_expect_str_eq(c.source, "IMDS (role ecsprof-instance-role)");
	cr_expect_eq(c.expires_ms, 4070908800000);
	aws_creds_cleanup(&c);
	curl_ctx_done(&ctx);
}

Test(creds_live, imds_silent_endpoint_gives_up_fast)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };
	struct timespec t0, t1;
	long ms;
	int lfd;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	char url[64];

	/* a socket that listens but never answers: the black hole IMDS is off EC2 */
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_eq(bind(lfd, (struct sockaddr *)&a, sizeof a), 0);
	cr_assert_eq(listen(lfd, 8), 0);
	getsockname(lfd, (struct sockaddr *)&a, &alen);
	snprintf(url, sizeof url, "http://127.0.0.1:%d", ntohs(a.sin_port));
	setenv("AWS_REGION", "us-east-1", 1);
	unsetenv("AWS_EC2_METADATA_DISABLED");
	setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", url, 1);
	curl_ctx(&ctx, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cr_expect_eq(creds_get(&ctx, &c, &err), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	cr_expect(strstr(err.msg, "IMDS (no answer from http://127.0.0.1:") != NULL, "%s",
		  err.msg);
	cr_expect_lt(ms, 2500, "IMDS took %ld ms to give up", ms);
	cr_log_info("IMDS black hole: gave up after %ld ms", ms);
	curl_ctx_done(&ctx);
	close(lfd);
}

/* GetCallerIdentity signed with c: proves moto accepts the credentials (and our
 * signature and session token), and returns the caller's ARN. */
static char *
caller_arn(struct aws_context *ctx, const struct aws_creds *c, long *status)
{
	const char *form = "Action=GetCallerIdentity&Version=2011-06-15";
	struct creds_url u;
	struct http_header h[2 + SIGV4_MAX_ADD];
	struct sigv4_output so = { 0 };
	struct http_response resp;
	struct err err = { 0 };
	char url[128];
	const char *s, *e;
	char *arn = NULL;
	size_t nh = 0;

	snprintf(url, sizeof url, "%s/", ctx->sts_endpoint);
	cr_assert_eq(creds_url_split(url, &u), 0);
	h[nh++] = (struct http_header){ "Host", u.host };
	h[nh++] = (struct http_header){ "Content-Type", "application/x-www-form-urlencoded" };
	struct sigv4_input in = { .method = "POST", .path = "/", .region = ctx->region,
				  .service = "sts", .headers = h, .nheaders = nh, .body = form,
				  .body_len = strlen(form), .time_ms = fake_now };
	struct sigv4_key key = { c->access_key_id, c->secret_access_key, c->session_token };
	cr_assert_eq(sigv4_sign(&in, &key, &so, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < so.nadd; i++)
		h[nh++] = (struct http_header){ so.add[i].name, so.add[i].value };
	struct http_request req = { "POST", url, h, nh, form, strlen(form), 10000, 5000, NULL, NULL };
	http_response_init(&resp);
	cr_assert_eq(ctx->transport.send(ctx->transport.ctx, &req, &resp, &err), 0, "%s", err.msg);
	*status = resp.status;
	s = strstr(buf_str(&resp.body), "<Arn>");
	e = s ? strstr(s, "</Arn>") : NULL;
	if (s && e)
		arn = strndup(s + 5, (size_t)(e - s - 5));
	http_response_cleanup(&resp);
	sigv4_output_cleanup(&so);
	return arn;
}

static void
moto_auth(const char *url, const char *count)
{
	struct http_header h[] = { { "Content-Type", "text/plain" } };
	char u[128];
	struct http_request req = { "POST", u, h, 1, count, strlen(count), 10000, 5000, NULL, NULL };
	struct http_response resp;
	struct err err = { 0 };

	snprintf(u, sizeof u, "%s/moto-api/reset-auth", url);
	http_response_init(&resp);
	cr_assert_eq(curl_t.send(curl_t.ctx, &req, &resp, &err), 0, "%s", err.msg);
	cr_assert_eq(resp.status, 200, "reset-auth: %s", buf_str(&resp.body));
	http_response_cleanup(&resp);
}

static void
moto_env(void)
{
	/* moto keeps the real clock: sign with it */
	fake_now = (int64_t)time(NULL) * 1000;
	setenv("AWS_REGION", "us-east-1", 1);
	setenv("AWS_ENDPOINT_URL_STS", srv.url, 1);
}

Test(creds_live, moto_assume_role_chain_signed_by_us)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };
	char cfg[2048], *arn;
	long status = 0;

	server_start(&srv, "moto");
	moto_env();
	snprintf(cfg, sizeof cfg,
		 "[base]\naws_access_key_id = %s\naws_secret_access_key = %s\n"
		 "[broken]\naws_access_key_id = %s\naws_secret_access_key = not-the-secret\n",
		 server_str(&srv, "access_key_id"), server_str(&srv, "secret_access_key"),
		 server_str(&srv, "access_key_id"));
	write_file(".aws/credentials", cfg);
	snprintf(cfg, sizeof cfg,
		 "[profile a]\nrole_arn = %s\nsource_profile = base\nrole_session_name = sess-a\n"
		 "[profile b]\nrole_arn = %s\nsource_profile = a\nrole_session_name = sess-b\n"
		 "external_id = ext-123\nduration_seconds = 900\n"
		 "[profile bad]\nrole_arn = %s\nsource_profile = broken\n",
		 server_str(&srv, "role_a"), server_str(&srv, "role_b"), server_str(&srv, "role_a"));
	write_file(".aws/config", cfg);

	curl_ctx(&ctx, "b");
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	cr_expect(strncmp(c.access_key_id, "ASIA", 4) == 0, "%s", c.access_key_id);
	cr_expect_not_null(c.session_token);
	cr_expect_neq(c.expires_ms, TS_NONE);
	arn = caller_arn(&ctx, &c, &status);
	cr_expect_eq(status, 200);
	cr_expect_str_eq(arn ? arn : "(none)", "arn:aws:sts::123456789012:assumed-role/ecsprof-b/sess-b");
	free(arn);
	aws_creds_cleanup(&c);
	curl_ctx_done(&ctx);

	/* moto checks our signature: a wrong secret must fail, naming the profile */
	curl_ctx(&ctx, "bad");
	cr_expect_eq(creds_get(&ctx, &c, &err), -1);
	cr_expect(strstr(err.msg, "profile bad: AssumeRole") != NULL, "%s", err.msg);
	cr_expect_str_eq(err.aws_type, "SignatureDoesNotMatch");
	cr_expect_null(strstr(err.msg, "not-the-secret"));
	curl_ctx_done(&ctx);
}

Test(creds_live, moto_static_keys_and_web_identity)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };
	char *arn;
	long status = 0;

	server_start(&srv, "moto");
	moto_env();
	/* static keys from the environment, checked by moto with auth on */
	setenv("AWS_ACCESS_KEY_ID", server_str(&srv, "access_key_id"), 1);
	setenv("AWS_SECRET_ACCESS_KEY", server_str(&srv, "secret_access_key"), 1);
	curl_ctx(&ctx, NULL);
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	arn = caller_arn(&ctx, &c, &status);
	cr_expect_str_eq(arn ? arn : "(none)", "arn:aws:iam::123456789012:user/ecsprof-test");
	free(arn);
	aws_creds_cleanup(&c);
	curl_ctx_done(&ctx);
	unsetenv("AWS_ACCESS_KEY_ID");
	unsetenv("AWS_SECRET_ACCESS_KEY");

	/* AssumeRoleWithWebIdentity is unsigned, and moto (5.x) cannot take unsigned calls
	 * while auth is on: switch it off for the call, on again to check the result */
	write_file("web.jwt", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2ln\n");
	setenv("AWS_WEB_IDENTITY_TOKEN_FILE", home_path("web.jwt"), 1);
	setenv("AWS_ROLE_ARN", server_str(&srv, "role_b"), 1);
	setenv("AWS_ROLE_SESSION_NAME", "ci-run", 1);
	curl_ctx(&ctx, NULL);
	moto_auth(srv.url, "1000000");
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	moto_auth(srv.url, "0");
	cr_expect_str_eq(c.source, "web identity (arn:aws:iam::123456789012:role/ecsprof-b)");
	arn = caller_arn(&ctx, &c, &status);
	cr_expect_eq(status, 200);
	cr_expect_str_eq(arn ? arn : "(none)", "arn:aws:sts::123456789012:assumed-role/ecsprof-b/ci-run");
	free(arn);
	aws_creds_cleanup(&c);
	curl_ctx_done(&ctx);
}

Test(creds_live, sso_portal_through_curl)
{
	struct aws_context ctx;
	struct aws_creds c;
	struct err err = { 0 };

	server_start(&srv, "sso");
	write_file(".aws/config", SSO_CONFIG);
	sso_cache("corp", "2099-01-01T00:00:00Z");
	setenv("AWS_ENDPOINT_URL_SSO", srv.url, 1);
	/* the cache written by sso_cache holds "bearer-secret": the portal refuses it */
	curl_ctx(&ctx, "s");
	cr_expect_eq(creds_get(&ctx, &c, &err), -1);
	cr_expect(strstr(err.msg, "HTTP 401); run 'aws sso login --profile s'") != NULL, "%s",
		  err.msg);
	curl_ctx_done(&ctx);
	{
		unsigned char md[20];
		unsigned int n;
		char hex[41], rel[128];

		EVP_Digest("corp", 4, md, &n, EVP_sha1(), NULL);
		for (unsigned i = 0; i < 20; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
		snprintf(rel, sizeof rel, ".aws/sso/cache/%s.json", hex);
		write_file(rel, "{\"accessToken\": \"sso-bearer-token-from-aws-sso-login\", "
			   "\"expiresAt\": \"2099-01-01T00:00:00Z\", \"region\": \"eu-central-1\"}");
	}
	curl_ctx(&ctx, "s");
	cr_assert_eq(creds_get(&ctx, &c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(c.access_key_id, "ASIASSOLOOPBACK");
	cr_expect_str_eq(c.secret_access_key, "sso/secret");
	cr_expect_eq(c.expires_ms, 4070908800000);
	aws_creds_cleanup(&c);
	curl_ctx_done(&ctx);
}

/* issue 10 item 12: a user name or password in a credentials URI is refused, and the
 * message never shows the password */
Test(creds, userinfo_in_container_and_imds_uris_refused_unshown)
{
	struct err err = { 0 };
	char *url = NULL;

	cr_expect_eq(creds_container_url(NULL, "http://u:hunter2@127.0.0.1/creds", &url, &err), -1);
	cr_expect_null(strstr(err.msg, "hunter2"), "%s", err.msg);
	cr_expect(strstr(err.msg, "http://***@127.0.0.1/creds: a user name or password") != NULL,
	    "%s", err.msg);

	setenv("AWS_REGION", "us-east-1", 1);
	unsetenv("AWS_EC2_METADATA_DISABLED");
	setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://u:hunter2@127.0.0.1:1/", 1);
	fk = (struct fake){ .n = 0 };
	get_fail(NULL, &err);
	cr_expect_eq(fk.next, 0, "IMDS was asked");
	cr_expect_null(strstr(err.msg, "hunter2"), "%s", err.msg);
	cr_expect(strstr(err.msg, "IMDS (endpoint http://***@127.0.0.1:1/ refused") != NULL, "%s",
	    err.msg);
	fake_free(&fk);
}
