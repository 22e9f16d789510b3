/* endpoint: the ECS rule-set cases, read at test time from SHARED_DIR/testdata/ecs-endpoints.md
 * (44 region rows from its two tables) plus its five custom-endpoint / error cases; and the
 * scale-out services' endpoints (their ids, AWS_ENDPOINT_URL_<ID>, the services section). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/creds.h"
#include "ecsprof/endpoint.h"
#include "ecsprof/log.h"

#define MD SHARED_DIR "/testdata/ecs-endpoints.md"

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '`')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '`' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Splits "| a | b | c |" into cells; returns the count. */
static int
cells(char *line, char **out, int max)
{
	int n = 0;
	char *p = line, *bar;

	if (*p != '|')
		return 0;
	p++;
	while ((bar = strchr(p, '|')) != NULL && n < max) {
		/* "\|" inside the regex column is not a separator */
		if (bar > p && bar[-1] == '\\') {
			p = bar + 1;
			continue;
		}
		*bar = '\0';
		out[n++] = trim(p);
		p = bar + 1;
	}
	return n;
}

static void
check(const char *region, bool fips, bool dual, const char *host, int *count)
{
	struct endpoint_params p = { .region = region, .use_fips = fips, .use_dualstack = dual };
	struct err err = { 0 };
	char *url = NULL, want[256];

	snprintf(want, sizeof want, "https://%s", host);
	cr_assert_eq(endpoint_resolve("ecs", &p, &url, &err), 0, "%s fips=%d dual=%d: %s",
		     region, fips, dual, err.msg);
	cr_expect_str_eq(url, want, "%s fips=%d dual=%d", region, fips, dual);
	free(url);
	(*count)++;
}

Test(endpoint, md_table_cases)
{
	FILE *f = fopen(MD, "r");
	char line[1024], *c[8];
	int count = 0;

	cr_assert_not_null(f, "cannot open %s", MD);
	while (fgets(line, sizeof line, f) != NULL) {
		int n = cells(line, c, 8);

		if (n == 2 && strncmp(c[1], "ecs", 3) == 0 && strchr(c[1], '.') != NULL) {
			check(c[0], false, false, c[1], &count);
		} else if (n == 4 && strchr(c[3], '.') != NULL &&
			   (strcmp(c[1], "on") == 0 || strcmp(c[1], "off") == 0)) {
			check(c[0], strcmp(c[1], "on") == 0, strcmp(c[2], "on") == 0, c[3], &count);
		}
	}
	fclose(f);
	/* the file says 29 + 15 region cases; fewer means the parser lost rows */
	cr_expect_eq(count, 44, "parsed %d region cases from %s", count, MD);
}

struct custom_case {
	const char *endpoint, *region;
	bool fips, dual;
	const char *want_url, *want_err;
};

/* The five non-region cases of the same file (its prose table, encoded as data). */
static const struct custom_case custom_cases[] = {
	{ "https://example.com", "us-east-1", false, false, "https://example.com", NULL },
	{ "https://example.com", NULL, false, false, "https://example.com", NULL },
	{ "https://example.com", "us-east-1", true, false, NULL,
	  "Invalid Configuration: FIPS and custom endpoint are not supported" },
	{ "https://example.com", "us-east-1", false, true, NULL,
	  "Invalid Configuration: Dualstack and custom endpoint are not supported" },
	{ NULL, NULL, false, false, NULL, "Invalid Configuration: Missing Region" },
};

Test(endpoint, custom_and_errors)
{
	for (size_t i = 0; i < sizeof custom_cases / sizeof custom_cases[0]; i++) {
		const struct custom_case *k = &custom_cases[i];
		struct endpoint_params p = { .region = k->region, .use_fips = k->fips, .use_dualstack = k->dual, .endpoint = k->endpoint };
		struct err err = { 0 };
		char *url = NULL;
		int rc = endpoint_resolve("ecs", &p, &url, &err);

		if (k->want_url) {
			cr_assert_eq(rc, 0, "case %zu: %s", i, err.msg);
			cr_expect_str_eq(url, k->want_url);
		} else {
			cr_assert_eq(rc, -1, "case %zu", i);
			cr_expect_null(url);
			cr_expect_eq(err.code, ERR_CONFIG);
			cr_expect_str_eq(err.msg, k->want_err);
		}
		free(url);
	}
}

Test(endpoint, newer_regions_and_partitions)
{
	static const char *const cases[][2] = {
		{ "ap-southeast-5", "https://ecs.ap-southeast-5.amazonaws.com" },
		{ "mx-central-1", "https://ecs.mx-central-1.amazonaws.com" },
		{ "il-central-1", "https://ecs.il-central-1.amazonaws.com" },
		{ "eusc-de-east-1", "https://ecs.eusc-de-east-1.amazonaws.eu" },
		{ "eu-isoe-west-1", "https://ecs.eu-isoe-west-1.cloud.adc-e.uk" },
		{ "us-isof-south-1", "https://ecs.us-isof-south-1.csp.hci.ic.gov" },
		/* unknown but pattern-matching regions */
		{ "cn-south-9", "https://ecs.cn-south-9.amazonaws.com.cn" },
		{ "us-gov-north-7", "https://ecs.us-gov-north-7.amazonaws.com" },
		{ "us-isob-south-3", "https://ecs.us-isob-south-3.sc2s.sgov.gov" },
		/* matches no pattern: the rules engine falls back to aws */
		{ "moon-base-1", "https://ecs.moon-base-1.amazonaws.com" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct endpoint_params p = { .region = cases[i][0] };
		struct err err = { 0 };
		char *url = NULL;

		cr_assert_eq(endpoint_resolve("ecs", &p, &url, &err), 0, "%s", err.msg);
		cr_expect_str_eq(url, cases[i][1]);
		free(url);
	}
	cr_expect_str_eq(endpoint_partition("us-gov-west-1")->name, "aws-us-gov");
	cr_expect_str_eq(endpoint_partition("us-west-1")->name, "aws");
}

Test(endpoint, sts_and_pseudo_regions)
{
	struct endpoint_params p = { .region = "eu-west-1" };
	struct err err = { 0 };
	char *url = NULL, *real = NULL;

	cr_assert_eq(endpoint_resolve("sts", &p, &url, &err), 0);
	cr_expect_str_eq(url, "https://sts.eu-west-1.amazonaws.com");
	free(url);
	p.region = "cn-northwest-1";
	cr_assert_eq(endpoint_resolve("sts", &p, &url, &err), 0);
	cr_expect_str_eq(url, "https://sts.cn-northwest-1.amazonaws.com.cn");
	free(url);

	cr_assert(endpoint_fips_pseudo_region("fips-us-gov-west-1", &real));
	cr_expect_str_eq(real, "us-gov-west-1");
	free(real);
	cr_assert(endpoint_fips_pseudo_region("us-east-1-fips", &real));
	cr_expect_str_eq(real, "us-east-1");
	free(real);
	cr_expect_not(endpoint_fips_pseudo_region("us-east-1", &real));

	/* a region is a host label: nothing that could redirect the request */
	p.region = "evil.com/x";
	cr_expect_eq(endpoint_resolve("ecs", &p, &url, &err), -1);
	cr_expect_null(url);
}

/* issue 10 item 12: userinfo in a custom endpoint was signed and sent as part of the Host
 * header; it is refused, and the message shows "***" instead */
Test(endpoint, userinfo_refused_and_never_shown)
{
	static const char *urls[] = { "https://AKID:s3cr3t@ecs.example.com/",
		"http://s3cr3t@127.0.0.1:4566", "https://a@b:s3cr3t@host", "HTTPS://u:s3cr3t@[::1]:1/x?y=@" };
	struct endpoint_params p = { .region = "us-east-1" };

	for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
		struct err err = { 0 };
		char *url = NULL;

		p.endpoint = urls[i];
		cr_expect_eq(endpoint_resolve("ecs", &p, &url, &err), -1, "%s", urls[i]);
		cr_expect_null(url);
		cr_expect_eq(err.code, ERR_CONFIG);
		cr_expect_null(strstr(err.msg, "s3cr3t"), "%s", err.msg);
		cr_expect(strstr(err.msg, "a user name or password in an endpoint URL is refused") != NULL,
		    "%s", err.msg);
	}
	/* an '@' in the path or query is no userinfo */
	p.endpoint = "https://ecs.example.com/a@b?c=@";
	{
		struct err err = { 0 };
		char *url = NULL;

		cr_expect_eq(endpoint_resolve("ecs", &p, &url, &err), 0, "%s", err.msg);
		free(url);
	}
	char shown[256];
	endpoint_redact("https://AKID:s3cr3t@ecs.example.com:443/p", shown, sizeof shown);
	cr_expect_str_eq(shown, "https://***@ecs.example.com:443/p");
}

static char warned[8][512];
static int nwarned;

static void
keep_warning(enum log_level level, const char *line, void *ctx)
{
	(void)ctx;
	if (level == LOG_WARN && nwarned < 8)
		snprintf(warned[nwarned++], sizeof warned[0], "%s", line);
}

/* issue 10 item 12: plain http that can leave the host warns once on stderr; loopback
 * (the local fakes and LocalStack) and https never do */
Test(endpoint, plain_http_off_loopback_warns_once)
{
	static const char *quiet[] = { "http://127.0.0.1:4566", "http://localhost:4566/",
		"http://LOCALHOST", "http://[::1]:8080/x", "http://127.8.9.10", "http://ecs.localhost:1",
		"https://ecs.example.com", "https://10.0.0.1:8443" };
	static const char *loud[] = { "http://10.0.0.1:8080/", "http://ecs.example.com",
		"http://[::2]:1", "http://127.0.0.1.example.com/", "http://localhost.example.com" };
	atomic_bool warned_once = false;   /* the context's flag */
	struct log lg;
	struct endpoint_params p = { "us-east-1", false, false, NULL, &warned_once, &lg };
	struct err err = { 0 };
	char *url;

	for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
		cr_expect(!endpoint_is_loopback(quiet[i]) == (strncmp(quiet[i], "https", 5) == 0),
		    "%s", quiet[i]);
	for (size_t i = 0; i < sizeof loud / sizeof loud[0]; i++)
		cr_expect(!endpoint_is_loopback(loud[i]), "%s", loud[i]);
	log_init(&lg, 0, keep_warning, NULL);
	for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
		p.endpoint = quiet[i];
		cr_assert_eq(endpoint_resolve("ecs", &p, &url, &err), 0, "%s", err.msg);
		free(url);
	}
	cr_expect_eq(nwarned, 0, "%s", warned[0]);
	for (size_t i = 0; i < sizeof loud / sizeof loud[0]; i++) {
		p.endpoint = loud[i];
		cr_assert_eq(endpoint_resolve("sts", &p, &url, &err), 0, "%s", err.msg);
		free(url);
	}
	log_cleanup(&lg);
	cr_expect_eq(nwarned, 1);
	cr_expect_str_eq(warned[0], "endpoint http://10.0.0.1:8080/ is plain http and not loopback: "
	    "the signed requests, any session token and the answers travel unencrypted (use https://)");
}

/* ---- the scale-out services: their ids, variables and the services section -------- */

static int
no_network(void *ctx, const struct http_request *req, struct http_response *resp,
	   struct err *err)
{
	(void)ctx; (void)req; (void)resp;
	return err_set(err, ERR_NETWORK, "no network in this test");
}

/* The endpoint of s with config (the whole ~/.aws/config) and the AWS_* variables set now. */
static char *
service_url(const char *config, enum aws_scaleout_service s)
{
	char dir[] = "/tmp/ecsprof-endpoint-XXXXXX", path[256];
	struct aws_context_options o = { 0 };
	struct aws_context ctx;
	struct err err = { 0 };
	char *url = NULL;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/config", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(config, f);
	fclose(f);
	setenv("AWS_CONFIG_FILE", path, 1);
	setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", 1);
	if (aws_context_init(&ctx, &o, (struct http_transport){ no_network, NULL }, &err) == 0) {
		if (aws_scaleout_endpoint(&ctx, s, &url, &err) != 0)
			url = strdup(err.msg);
		aws_context_cleanup(&ctx);
	} else {
		url = strdup(err.msg);
	}
	remove(path);
	rmdir(dir);
	return url;
}

#define EXPECT_URL(want, config, s)                                                   \
	do {                                                                           \
		char *got_ = service_url(config, s);                                   \
		cr_expect_str_eq(got_, want, "service %d", (int)(s));                  \
		free(got_);                                                            \
	} while (0)

static void
clear_aws_vars(void)
{
	static const char *const vars[] = {
		"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING",
		"AWS_ENDPOINT_URL_CLOUDWATCH", "AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2",
		"AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL_ECS", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_PROFILE", "AWS_USE_FIPS_ENDPOINT", "AWS_USE_DUALSTACK_ENDPOINT",
		"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
	};

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		unsetenv(vars[i]);
}

Test(endpoint, scaleout_services_standard_hosts_per_partition)
{
	clear_aws_vars();
	EXPECT_URL("https://application-autoscaling.eu-west-1.amazonaws.com",
		   "[default]\nregion = eu-west-1\n", AWS_SCALEOUT_APPSCALING);
	EXPECT_URL("https://monitoring.eu-west-1.amazonaws.com",
		   "[default]\nregion = eu-west-1\n", AWS_SCALEOUT_CLOUDWATCH);
	EXPECT_URL("https://elasticloadbalancing.eu-west-1.amazonaws.com",
		   "[default]\nregion = eu-west-1\n", AWS_SCALEOUT_ELBV2);
	EXPECT_URL("https://ec2.eu-west-1.amazonaws.com", "[default]\nregion = eu-west-1\n",
		   AWS_SCALEOUT_EC2);
	EXPECT_URL("https://monitoring.cn-north-1.amazonaws.com.cn",
		   "[default]\nregion = cn-north-1\n", AWS_SCALEOUT_CLOUDWATCH);
	EXPECT_URL("https://elasticloadbalancing-fips.us-gov-west-1.amazonaws.com",
		   "[default]\nregion = us-gov-west-1\nuse_fips_endpoint = true\n",
		   AWS_SCALEOUT_ELBV2);
	EXPECT_URL("https://application-autoscaling.us-east-2.api.aws",
		   "[default]\nregion = us-east-2\nuse_dualstack_endpoint = true\n",
		   AWS_SCALEOUT_APPSCALING);
}

Test(endpoint, scaleout_services_variables_then_profile)
{
	static const char cfg[] =
		"[default]\nregion = us-east-1\nservices = local\nendpoint_url = http://all.cfg\n"
		"[services local]\napplication_auto_scaling =\n  endpoint_url = http://aas.cfg\n"
		"cloudwatch =\n  endpoint_url = http://cw.cfg\n"
		"elastic_load_balancing_v2 =\n  endpoint_url = http://elb.cfg\n"
		"ec2 =\n  endpoint_url = http://ec2.cfg\n";

	clear_aws_vars();
	EXPECT_URL("http://aas.cfg", cfg, AWS_SCALEOUT_APPSCALING);
	EXPECT_URL("http://cw.cfg", cfg, AWS_SCALEOUT_CLOUDWATCH);
	EXPECT_URL("http://elb.cfg", cfg, AWS_SCALEOUT_ELBV2);
	EXPECT_URL("http://ec2.cfg", cfg, AWS_SCALEOUT_EC2);
	EXPECT_URL("http://all.cfg", "[default]\nregion = us-east-1\nendpoint_url = http://all.cfg\n",
		   AWS_SCALEOUT_CLOUDWATCH);
	setenv("AWS_ENDPOINT_URL", "http://all.env", 1);
	EXPECT_URL("http://all.env", cfg, AWS_SCALEOUT_ELBV2);
	setenv("AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING", "http://aas.env", 1);
	setenv("AWS_ENDPOINT_URL_CLOUDWATCH", "http://cw.env", 1);
	setenv("AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2", "http://elb.env", 1);
	setenv("AWS_ENDPOINT_URL_EC2", "http://ec2.env", 1);
	EXPECT_URL("http://aas.env", cfg, AWS_SCALEOUT_APPSCALING);
	EXPECT_URL("http://cw.env", cfg, AWS_SCALEOUT_CLOUDWATCH);
	EXPECT_URL("http://elb.env", cfg, AWS_SCALEOUT_ELBV2);
	EXPECT_URL("http://ec2.env", cfg, AWS_SCALEOUT_EC2);
	/* ECS's variable is ECS's alone */
	unsetenv("AWS_ENDPOINT_URL_CLOUDWATCH");
	setenv("AWS_ENDPOINT_URL_ECS", "http://ecs.env", 1);
	EXPECT_URL("http://all.env", cfg, AWS_SCALEOUT_CLOUDWATCH);
	setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", 1);
	EXPECT_URL("https://monitoring.us-east-1.amazonaws.com", cfg, AWS_SCALEOUT_CLOUDWATCH);
	clear_aws_vars();
}
