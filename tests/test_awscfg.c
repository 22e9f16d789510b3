/* awscfg tests: the SDKs' shared profile-parser and file-location suites, read from
 * SHARED_DIR at test time, plus our own cases for loading, services and sub-properties. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ecsprof/awscfg.h"
#include "ecsprof/buf.h"
#include "ecsprof/xalloc.h"

#define CFG_DIR SHARED_DIR "/testdata/aws-config"

static json_t *
load_json(const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);

	cr_assert_not_null(root, "cannot read %s: %s (line %d)", path, je.text, je.line);
	return root;
}

/* Compares one kind of section of cfg with the expected object; returns mismatches. */
static int
compare_sections(const struct awscfg *cfg, enum awscfg_kind kind, json_t *want,
		 const char *casename)
{
	int bad = 0;
	const char *name;
	json_t *props;

	if (json_object_size(want) != awscfg_section_count(cfg, kind)) {
		cr_log_error("%s: %zu sections expected, got %zu", casename,
			     json_object_size(want), awscfg_section_count(cfg, kind));
		for (size_t i = 0; i < awscfg_section_count(cfg, kind); i++)
			cr_log_error("  got [%s]", awscfg_section_name(cfg, kind, i));
		bad++;
	}
	json_object_foreach(want, name, props) {
		if (awscfg_property_count(cfg, kind, name) != json_object_size(props)) {
			cr_log_error("%s: [%s] %zu properties expected, got %zu", casename, name,
				     json_object_size(props), awscfg_property_count(cfg, kind, name));
			bad++;
		}
		const char *key;
		json_t *val;
		json_object_foreach(props, key, val) {
			const char *got = NULL;
			for (size_t i = 0; i < awscfg_property_count(cfg, kind, name); i++) {
				const char *k, *v;
				cr_assert_eq(awscfg_property_at(cfg, kind, name, i, &k, &v), 0);
				if (strcmp(k, key) == 0)
					got = v;
			}
			if (kind == AWSCFG_PROFILE) {
				const char *viaget = awscfg_get(cfg, name, key);
				if (got != viaget) {
					cr_log_error("%s: awscfg_get and enumeration disagree on %s.%s",
						     casename, name, key);
					bad++;
				}
			}
			/* bytes, not characters: the Unicode case holds mojibake on purpose */
			if (got == NULL || strcmp(got, json_string_value(val)) != 0) {
				cr_log_error("%s: [%s] %s: want '%s' got '%s'", casename, name, key,
					     json_string_value(val), got ? got : "(absent)");
				bad++;
			}
		}
	}
	return bad;
}

Test(awscfg, profile_parser_suite)
{
	json_t *root = load_json(CFG_DIR "/profile-parser-tests.json");
	json_t *tests = json_object_get(root, "tests");
	size_t i, ncases = 0, nerr = 0, nok = 0;
	json_t *t;
	int failures = 0;

	cr_assert(json_is_array(tests), "no tests array");
	json_array_foreach(tests, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		json_t *in = json_object_get(t, "input"), *out = json_object_get(t, "output");
		json_t *cf = json_object_get(in, "configFile"), *cr = json_object_get(in, "credentialsFile");
		struct awscfg *cfg = awscfg_new();
		struct err err = { 0 };
		int rc = 0;

		ncases++;
		if (cf != NULL)
			rc = awscfg_parse_text(cfg, json_string_value(cf), json_string_length(cf),
					       AWSCFG_CONFIG, "config", &err);
		if (rc == 0 && cr != NULL)
			rc = awscfg_parse_text(cfg, json_string_value(cr), json_string_length(cr),
					       AWSCFG_CREDENTIALS, "credentials", &err);
		json_t *wanterr = json_object_get(out, "errorContaining");
		if (wanterr != NULL) {
			nerr++;
			if (rc != -1) {
				cr_log_error("%s: parse should fail with '%s'", name,
					     json_string_value(wanterr));
				failures++;
			} else if (strstr(err.msg, json_string_value(wanterr)) == NULL ||
				   strncmp(err.msg, "config:", 7) != 0 || strchr(err.msg, '\n')) {
				cr_log_error("%s: message '%s' lacks '%s' or file:line", name, err.msg,
					     json_string_value(wanterr));
				failures++;
			}
		} else {
			json_t *want = json_object_get(out, "config");
			nok++;
			if (rc != 0) {
				cr_log_error("%s: unexpected error %s", name, err.msg);
				failures++;
			} else {
				failures += compare_sections(cfg, AWSCFG_PROFILE,
							     json_object_get(want, "profiles"), name);
				json_t *sso = json_object_get(want, "sso_sessions");
				if (sso != NULL)
					failures += compare_sections(cfg, AWSCFG_SSO_SESSION, sso, name);
			}
		}
		awscfg_free(cfg);
	}
	json_decref(root);
	cr_log_info("profile-parser-tests: %zu cases (%zu ok, %zu error)", ncases, nok, nerr);
	cr_assert_eq(ncases, 65, "expected the 65 shared cases, found %zu", ncases);
	cr_assert_eq(nerr, 10);
	cr_assert_eq(failures, 0, "%d mismatches (see log)", failures);
}

Test(awscfg, file_location_suite)
{
	json_t *root = load_json(CFG_DIR "/file-location-tests.json");
	json_t *tests = json_object_get(root, "tests");
	size_t i, nlinux = 0;
	json_t *t;

	cr_assert(json_is_array(tests));
	json_array_foreach(tests, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *platform = json_string_value(json_object_get(t, "platform"));
		json_t *envj = json_object_get(t, "environment");
		struct awscfg_env env = {
			.home = json_string_value(json_object_get(envj, "HOME")),
			.aws_config_file = json_string_value(json_object_get(envj, "AWS_CONFIG_FILE")),
			.aws_shared_credentials_file =
				json_string_value(json_object_get(envj, "AWS_SHARED_CREDENTIALS_FILE")),
			.aws_profile = json_string_value(json_object_get(envj, "AWS_PROFILE")),
		};
		char *cfgp = NULL, *credp = NULL;
		struct err err = { 0 };

		cr_assert_not_null(platform, "%s: no platform", name);
		if (strcmp(platform, "linux") != 0)
			continue;      /* USERPROFILE / HOMEDRIVE are Windows rules */
		nlinux++;
		cr_assert_eq(awscfg_locate_env(&env, &cfgp, &credp, &err), 0, "%s: %s", name, err.msg);
		cr_expect_str_eq(cfgp, json_string_value(json_object_get(t, "configLocation")), "%s", name);
		cr_expect_str_eq(credp, json_string_value(json_object_get(t, "credentialsLocation")),
				 "%s", name);
		json_t *prof = json_object_get(t, "profile");
		if (prof != NULL)
			cr_expect_str_eq(awscfg_profile_name(&env), json_string_value(prof), "%s", name);
		free(cfgp);
		free(credp);
	}
	json_decref(root);
	cr_assert_eq(nlinux, 4, "expected 4 linux cases, found %zu", nlinux);
}

Test(awscfg, tilde_expansion_and_missing_home)
{
	struct awscfg_env env = { .home = "/h/u/", .aws_config_file = "~/cfg",
				  .aws_shared_credentials_file = "~other/creds" };
	char *a, *b;
	struct err err = { 0 };

	cr_assert_eq(awscfg_locate_env(&env, &a, &b, &err), 0);
	cr_expect_str_eq(a, "/h/u/cfg");
	cr_expect_str_eq(b, "~other/creds");
	free(a);
	free(b);

	struct awscfg_env nohome = { .aws_config_file = "/abs/config" };
	cr_assert_eq(awscfg_locate_env(&nohome, &a, &b, &err), -1);
	cr_expect_null(a);
	cr_expect_null(b);
	cr_expect(strstr(err.msg, "HOME") != NULL, "%s", err.msg);
	cr_expect_str_eq(awscfg_profile_name(&nohome), "default");
}

Test(awscfg, locate_reads_process_environment)
{
	char *a, *b;
	struct err err = { 0 };

	setenv("HOME", "/tmp/fakehome", 1);
	setenv("AWS_CONFIG_FILE", "~/x/config", 1);
	unsetenv("AWS_SHARED_CREDENTIALS_FILE");
	cr_assert_eq(awscfg_locate(&a, &b, &err), 0, "%s", err.msg);
	cr_expect_str_eq(a, "/tmp/fakehome/x/config");
	cr_expect_str_eq(b, "/tmp/fakehome/.aws/credentials");
	free(a);
	free(b);
}

static char *
write_tmp(const char *text)
{
	char *path = xstrdup("/tmp/test_awscfg_XXXXXX");
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

Test(awscfg, load_merges_files_and_services)
{
	char *cfgp = write_tmp(
		"[default]\nregion = eu-west-1\n"
		"[profile dev]\nregion = us-east-2\nservices = my-svcs\n"
		"s3 =\n  max_concurrent_requests = 10\n  Addressing_Style = path\n"
		"[services my-svcs]\necs =\n  endpoint_url = http://127.0.0.1:4566\n"
		"sts =\n  endpoint_url = http://127.0.0.1:5000\n"
		"[sso-session corp]\nsso_region = us-east-1\nsso_start_url = https://x.awsapps.com/start\n");
	char *credp = write_tmp("[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = s3cr3t\n"
				"region = ap-south-1\n");
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };

	cr_assert_eq(awscfg_load(cfg, cfgp, credp, &err), 0, "%s", err.msg);
	cr_expect_str_eq(awscfg_get(cfg, "default", "region"), "eu-west-1");
	cr_expect_str_eq(awscfg_get(cfg, "dev", "REGION"), "ap-south-1", "credentials win");
	cr_expect_str_eq(awscfg_get(cfg, "dev", "aws_access_key_id"), "AKIDDEV");
	cr_expect(awscfg_has_profile(cfg, "dev"));
	cr_expect(!awscfg_has_profile(cfg, "corp"));
	cr_expect(!awscfg_has_profile(cfg, "my-svcs"));
	cr_expect_null(awscfg_get(cfg, "nope", "region"));
	cr_expect_str_eq(awscfg_get_sub(cfg, "dev", "s3", "max_concurrent_requests"), "10");
	cr_expect_str_eq(awscfg_get_sub(cfg, "dev", "s3", "addressing_style"), "path");
	cr_expect_null(awscfg_get_sub(cfg, "dev", "s3", "nothing"));
	cr_expect_str_eq(awscfg_services_get(cfg, "my-svcs", "ecs", "endpoint_url"),
			 "http://127.0.0.1:4566");
	cr_expect_str_eq(awscfg_services_get(cfg, "my-svcs", "sts", "endpoint_url"),
			 "http://127.0.0.1:5000");
	cr_expect_null(awscfg_services_get(cfg, "my-svcs", "s3", "endpoint_url"));
	cr_expect_null(awscfg_services_get(cfg, "other", "ecs", "endpoint_url"));
	cr_expect_str_eq(awscfg_sso_session_get(cfg, "corp", "sso_region"), "us-east-1");
	cr_expect_eq(awscfg_section_count(cfg, AWSCFG_SSO_SESSION), 1);
	cr_expect_eq(awscfg_section_count(cfg, AWSCFG_SERVICES), 1);
	awscfg_free(cfg);
	unlink(cfgp);
	unlink(credp);
	free(cfgp);
	free(credp);
}

Test(awscfg, missing_files_are_fine)
{
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };

	cr_assert_eq(awscfg_load(cfg, "/nonexistent/ecsprof/config",
				 "/nonexistent/ecsprof/credentials", &err), 0, "%s", err.msg);
	cr_expect_eq(awscfg_section_count(cfg, AWSCFG_PROFILE), 0);
	cr_assert_eq(awscfg_load(cfg, NULL, NULL, &err), 0);
	awscfg_free(cfg);
}

Test(awscfg, malformed_file_names_file_and_line)
{
	char *cfgp = write_tmp("[profile a]\nx = 1\n\n[profile b\n");
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };
	char want[256];

	cr_assert_eq(awscfg_load(cfg, cfgp, NULL, &err), -1);
	snprintf(want, sizeof want, "%s:4: ", cfgp);
	cr_expect(strncmp(err.msg, want, strlen(want)) == 0, "got '%s'", err.msg);
	cr_expect_eq(err.code, ERR_CONFIG);
	cr_expect_null(strchr(err.msg, '\n'));
	awscfg_free(cfg);
	unlink(cfgp);
	free(cfgp);
}

Test(awscfg, unreadable_file_is_an_error)
{
	/* a directory cannot be read as a file, even by root (chmod 000 can) */
	char dir[] = "/tmp/test_awscfg_dirXXXXXX";
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(awscfg_load(cfg, NULL, dir, &err), -1);
	cr_expect(strstr(err.msg, dir) != NULL, "%s", err.msg);
	rmdir(dir);
	awscfg_free(cfg);
}

struct edge {
	const char *name;
	const char *text;
	const char *profile, *key, *want;   /* want NULL: key must be absent */
	int rc;
};

static struct edge edges[] = {
	{ "continued_property", "[profile a]\nk = v\n  more\n", "a", "k", "v\nmore", 0 },
	{ "crlf_continuation", "[profile a]\r\nk = v\r\n\tmore \r\n", "a", "k", "v\nmore", 0 },
	{ "duplicate_profiles", "[profile a]\nk = 1\n[profile a]\nk = 2\n", "a", "k", "2", 0 },
	{ "hash_comment", "[profile a] # c\nk = v # c\n", "a", "k", "v", 0 },
	{ "semicolon_kept", "[profile a]\nk = v;c\n", "a", "k", "v;c", 0 },
	{ "plain_section_ignored", "[a]\nk = v\n", "a", "k", NULL, 0 },
	{ "legacy_default", "[default]\nk = v\n", "default", "k", "v", 0 },
	{ "missing_bracket", "[profile a\n", "a", "k", NULL, -1 },
	{ "property_before_section", "k = v\n", "a", "k", NULL, -1 },
	{ "no_equals", "[profile a]\nk v\n", "a", "k", NULL, -1 },
	{ "nul_byte", "[profile a]\nk = v\0x\n", "a", "k", NULL, -1 },
};

/* Named edge cases in one test: Criterion's parameterized tests copy parameters into a
 * fresh process where pointers into our static strings would not be valid. */
Test(awscfg, edge_cases)
{
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		const struct edge *e = &edges[i];
		struct awscfg *cfg = awscfg_new();
		struct err err = { 0 };
		/* nul_byte needs the real length, past the embedded NUL */
		size_t len = strcmp(e->name, "nul_byte") == 0 ? 20 : strlen(e->text);
		int rc = awscfg_parse_text(cfg, e->text, len, AWSCFG_CONFIG, "cfg", &err);

		cr_expect_eq(rc, e->rc, "%s: rc %d (%s)", e->name, rc, err.msg);
		if (rc == 0) {
			const char *got = awscfg_get(cfg, e->profile, e->key);
			if (e->want == NULL)
				cr_expect_null(got, "%s", e->name);
			else
				cr_expect(got != NULL && strcmp(got, e->want) == 0, "%s: got '%s'",
					  e->name, got ? got : "(null)");
		} else {
			cr_expect(strncmp(err.msg, "cfg:", 4) == 0, "%s: %s", e->name, err.msg);
		}
		awscfg_free(cfg);
	}
}

/* issue 10 item 9: the lookups behind parsing are hashed; the botocore rules must hold at
 * every size: duplicate sections merge, the last definition of a key wins (keys compared
 * without case), a key keeps its first position, sections keep their first-seen order */
Test(awscfg, duplicates_at_scale_later_keys_win)
{
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };
	struct buf t;
	const char *k, *v;
	char name[64], want[64];

	buf_init(&t, 0);
	/* 3000 profiles, each defined twice, the second time out of order */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 3000; i++) {
			int n = pass == 0 ? i : 2999 - i;
			buf_addf(&t, "[profile p%d]\nregion = r%d-%d\nonly%d = x\n", n, n, pass, pass);
		}
	/* one section with 500 keys, each set three times in different cases */
	buf_adds(&t, "[profile big]\n");
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < 500; i++)
			buf_addf(&t, "%s%d = v%d-%d\n", pass == 1 ? "KEY" : "key", i, i, pass);
	/* a parent key with 300 sub-properties, the last 100 repeated */
	buf_adds(&t, "s3 =\n");
	for (int i = 0; i < 400; i++)
		buf_addf(&t, "  Sub%d = s%d\n", i < 300 ? i : i - 100, i);
	cr_assert_eq(awscfg_parse_text(cfg, buf_str(&t), t.len, AWSCFG_CONFIG, "cfg", &err), 0,
		     "%s", err.msg);
	buf_cleanup(&t);
	buf_init(&t, 0);
	buf_adds(&t, "[p7]\nregion = from-credentials\n[p8]\naws_access_key_id = A\n");
	cr_assert_eq(awscfg_parse_text(cfg, buf_str(&t), t.len, AWSCFG_CREDENTIALS, "cred", &err),
		     0, "%s", err.msg);
	buf_cleanup(&t);

	cr_expect_eq(awscfg_section_count(cfg, AWSCFG_PROFILE), 3001);
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "p%d", i);
		if (i == 7)
			snprintf(want, sizeof want, "from-credentials");
		else
			snprintf(want, sizeof want, "r%d-1", i);
		cr_assert_str_eq(awscfg_section_name(cfg, AWSCFG_PROFILE, (size_t)i), name);
		cr_assert_str_eq(awscfg_get(cfg, name, "REGION"), want, "%s", name);
		cr_assert_str_eq(awscfg_get(cfg, name, "only0"), "x");
		cr_assert_str_eq(awscfg_get(cfg, name, "only1"), "x");
		cr_assert_eq(awscfg_property_count(cfg, AWSCFG_PROFILE, name), i == 8 ? 4 : 3);
		cr_assert_eq(awscfg_property_at(cfg, AWSCFG_PROFILE, name, 0, &k, &v), 0);
		cr_assert_str_eq(k, "region");
	}
	cr_expect_str_eq(awscfg_get(cfg, "p8", "aws_access_key_id"), "A");
	cr_expect_eq(awscfg_property_count(cfg, AWSCFG_PROFILE, "big"), 501);
	for (int i = 0; i < 500; i++) {
		snprintf(name, sizeof name, "Key%d", i);
		snprintf(want, sizeof want, "v%d-2", i);
		cr_assert_str_eq(awscfg_get(cfg, "big", name), want, "%s", name);
		cr_assert_eq(awscfg_property_at(cfg, AWSCFG_PROFILE, "big", (size_t)i, &k, &v), 0);
		snprintf(name, sizeof name, "key%d", i);
		cr_assert_str_eq(k, name);
	}
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "SUB%d", i);
		snprintf(want, sizeof want, "s%d", i < 200 ? i : i + 100);
		cr_assert_str_eq(awscfg_get_sub(cfg, "big", "s3", name), want, "%s", name);
	}
	cr_expect_null(awscfg_get_sub(cfg, "big", "s3", "sub300"));
	cr_expect_null(awscfg_get(cfg, "p3000", "region"));
	awscfg_free(cfg);
}

static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* issue 10 item 9: parsing is linear. 40k profiles took 11.6 s of CPU here with linear
 * section lookups (22 s in the issue) and one 15 MB section did not finish in 60 s; with
 * the indexes each shape below takes well under a second (bench_awscfg prints the
 * figures). The bound is CPU time: 0.93 s here indexed, 59.8 s with sections found by a
 * linear scan (the old sectlist_find); 10 s leaves room for ASan, far
 * below the quadratic one. */
Test(awscfg, parsing_stays_linear_at_scale, .timeout = 300)
{
	struct awscfg *cfg = awscfg_new();
	struct err err = { 0 };
	struct buf t;
	double t0, dt;

	buf_init(&t, 0);
	for (int i = 0; i < 40000; i++)
		buf_addf(&t, "[profile p%d]\nregion = eu-west-1\nsource_profile = base\n", i);
	buf_adds(&t, "[profile big]\n");
	for (int i = 0; i < 200000; i++)
		buf_addf(&t, "key%d = v%d\n", i, i);
	t0 = cpu_s();
	cr_assert_eq(awscfg_parse_text(cfg, buf_str(&t), t.len, AWSCFG_CONFIG, "big", &err), 0,
		     "%s", err.msg);
	dt = cpu_s() - t0;
	cr_expect(dt < 10.0, "40k profiles and a 200k-key section took %.2f s of CPU", dt);
	fprintf(stderr, "awscfg: 40k profiles + 200k keys: %.3f s CPU\n", dt);
	awscfg_free(cfg);
	buf_cleanup(&t);
}
