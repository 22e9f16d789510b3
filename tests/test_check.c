/* check: every rule of the table against its fixture (tests/fixtures/check/RULE.json: the
 * README's clean rerank-api task definition, examples/rerank-api.json, with ONE fault
 * planted): the rule fires and no other error does; the clean one has no error and no
 * warning; DescribeTaskDefinition's
 * shape reads the same; bad input is one line naming the file, the path and why; the
 * size grid, image references and the image path's decisions by hand; the man page
 * lists every rule id. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/check.h"
#include "ecsprof/input.h"
#include "ecsprof/task.h"
#include "ecsprof/taskdef_read.h"

#define CHECK_DIR FIXTURE_DIR "/check"
/* the clean task definition is the README's example, every fixture is it with one fault */
#define CLEAN_PATH TESTS_DIR "/../examples/rerank-api.json"
#define MAN_PATH TESTS_DIR "/../man/ecsprof.1"
/* make_history.py's recorded pulls, whose forecast its comment works out by hand */
#define HISTORY_PATH CHECK_DIR "/history.jsonl"

/* history.jsonl into set; without_facts: its task lines only (no image sizes) */
static void
read_history(struct task_set *set, bool without_facts)
{
	FILE *fp = fopen(HISTORY_PATH, "rb");
	char line[8192];
	struct input_stats st = { 0 };
	struct err err = { 0 };
	char *text = calloc(1, 1 << 16);
	size_t len = 0;

	cr_assert_not_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (without_facts && strstr(line, "\"image\":{") != NULL)
			continue;
		cr_assert_lt(len + strlen(line), (size_t)1 << 16);
		memcpy(text + len, line, strlen(line));
		len += strlen(line);
	}
	fclose(fp);
	task_set_init(set);
	cr_assert_eq(input_read_mem("history.jsonl", text, len, set, &st, &err), 0, "%s",
		     err.msg);
	free(text);
}

static void
read_fixture(const char *name, struct taskdef *td)
{
	char path[512];
	struct err err = { 0 };

	if (strcmp(name, "clean") == 0)
		snprintf(path, sizeof path, "%s", CLEAN_PATH);
	else
		snprintf(path, sizeof path, "%s/%s.json", CHECK_DIR, name);
	cr_assert_eq(taskdef_read_file(path, td, &err), 0, "%s: %s", path, err.msg);
}

static void
input_for(const struct taskdef *td, struct check_input *in)
{
	memset(in, 0, sizeof *in);
	in->td = td;
	cr_assert_eq(check_platform_parse("LATEST", &in->platform), 0);
	in->region = "us-east-1";
}

static bool
fired(const struct check_findings *f, const char *rule)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].rule, rule) == 0)
			return true;
	return false;
}

/* The network facts under which the image path fails: a private subnet, nothing else. */
static void
private_subnet(struct check_network *n)
{
	memset(n, 0, sizeof *n);
	n->checked = true;
	n->subnet = "subnet-0abc";
	n->public_ip = n->igw_route = n->nat_route = FACT_NO;
	n->ecr_api = n->ecr_dkr = n->s3_gateway = FACT_NO;
}

/* A private subnet whose ECR endpoints count but have their interfaces elsewhere. */
static void
endpoints_elsewhere(struct check_network *n)
{
	private_subnet(n);
	n->ecr_api = n->ecr_dkr = n->s3_gateway = FACT_YES;
	snprintf(n->elsewhere, sizeof n->elsewhere, "ecr.api vpce-1 (subnet-0def)");
}

Test(check, every_rule_fires_on_its_fixture_alone)
{
	size_t n;
	const struct check_rule *rules = check_rules(&n);

	cr_assert_gt(n, 30);
	for (size_t i = 0; i < n; i++) {
		struct taskdef td;
		struct check_input in;
		struct check_findings f;

		read_fixture(rules[i].id, &td);
		input_for(&td, &in);
		/* the two rules whose fault is outside the file: the network, the platform */
		if (strcmp(rules[i].id, "image-path") == 0)
			private_subnet(&in.net);
		if (strcmp(rules[i].id, "fargate-platform-size") == 0)
			cr_assert_eq(check_platform_parse("1.3.0", &in.platform), 0);
		if (strcmp(rules[i].id, "image-endpoint-subnet") == 0)
			endpoints_elsewhere(&in.net);
		static const struct check_target_group instance_tg = {
			"arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/1",
			"web", "instance", "rerank-api" };
		if (strcmp(rules[i].id, "service-target-type") == 0) {
			in.service = "rerank";
			in.target_groups = &instance_tg;
			in.ntarget_groups = 1;
		}
		/* the forecast's fault: an image the history never pulled */
		struct task_set history;
		bool with_history = strcmp(rules[i].id, "pull-forecast") == 0 ||
				    strcmp(rules[i].id, "image-size") == 0;

		if (with_history) {
			read_history(&history, false);
			in.history = &history;
		}
		check_run(&in, &f);
		cr_expect(fired(&f, rules[i].id), "%s: the rule did not fire on its fixture",
			  rules[i].id);
		if (with_history) {
			for (size_t k = 0; k < f.n; k++)
				if (strcmp(f.v[k].rule, "pull-forecast") == 0 &&
				    strcmp(rules[i].id, "pull-forecast") == 0)
					cr_expect_not_null(strstr(f.v[k].message, "no pull forecast"),
							   "%s", f.v[k].message);
			task_set_cleanup(&history);
		}
		for (size_t k = 0; k < f.n; k++) {
			if (f.v[k].severity != CHECK_ERROR || strcmp(f.v[k].rule, rules[i].id) == 0)
				continue;
			cr_expect_fail("%s's fixture also trips %s at %s: %s", rules[i].id,
				       f.v[k].rule, f.v[k].path, f.v[k].message);
		}
		for (size_t k = 0; k < f.n; k++) {
			cr_expect_not_null(f.v[k].path);
			cr_expect(f.v[k].message[0] != '\0', "%s: empty message", f.v[k].rule);
			if (strcmp(f.v[k].rule, rules[i].id) == 0)
				cr_expect_eq(f.v[k].severity, rules[i].severity);
		}
		check_findings_free(&f);
		taskdef_free(&td);
	}
}

Test(check, clean_rerank_api_has_no_error_and_no_warning)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;
	char verdict[128];

	read_fixture("clean", &td);
	cr_expect_str_eq(td.family, "rerank-api");
	cr_expect_eq(td.cpu_units, 2048);
	cr_expect_eq(td.memory_mib, 8192);
	cr_expect_str_eq(taskdef_arch(&td), "ARM64");
	cr_expect_eq(td.containers[0].ulimits[0].soft, 65535);
	input_for(&td, &in);
	check_run(&in, &f);
	for (size_t k = 0; k < f.n; k++)
		cr_expect_eq(f.v[k].severity, CHECK_INFO, "%s at %s: %s", f.v[k].rule, f.v[k].path,
			     f.v[k].message);
	cr_expect(fired(&f, "price"));
	cr_expect(fired(&f, "image-path-unchecked"));
	/* 2 vCPU x $0.03238 + 8 GB x $0.00356, ARM64 in us-east-1 */
	cr_expect_float_eq(f.usd_hour, 2 * 0.03238 + 8 * 0.00356, 1e-9);
	check_verdict(&f, verdict, sizeof verdict);
	cr_expect_str_eq(verdict, "will start: 0 errors, 0 warnings");
	check_findings_free(&f);
	taskdef_free(&td);
}

Test(check, describe_task_definition_shape_reads_the_same)
{
	const char *text = "{\"taskDefinition\": {\"family\": \"rerank-api\", \"revision\": 7,"
		"\"taskDefinitionArn\": \"arn:aws:ecs:us-east-1:123456789012:task-definition/rerank-api:7\","
		"\"networkMode\": \"awsvpc\", \"requiresCompatibilities\": [\"FARGATE\"],"
		"\"compatibilities\": [\"EC2\", \"FARGATE\"], \"cpu\": \"2048\", \"memory\": \"8192\","
		"\"runtimePlatform\": {\"cpuArchitecture\": \"ARM64\"},"
		"\"containerDefinitions\": [{\"name\": \"api\", \"image\": \"nginx\", \"cpu\": 0,"
		"\"privileged\": true}]}, \"tags\": []}";
	struct taskdef td;
	struct err err = { 0 };
	struct check_input in;
	struct check_findings f;

	cr_assert_eq(taskdef_read_mem("d.json", text, strlen(text), &td, &err), 0, "%s", err.msg);
	cr_expect(td.described);
	cr_expect_eq(td.revision, 7);
	cr_expect_str_eq(td.arn, "arn:aws:ecs:us-east-1:123456789012:task-definition/rerank-api:7");
	cr_expect_eq(td.ncontainers, 1);
	cr_expect_eq(td.containers[0].cpu, 0);
	input_for(&td, &in);
	check_run(&in, &f);
	cr_expect(fired(&f, "fargate-privileged"));
	cr_expect(fired(&f, "image-latest"));
	cr_expect(fired(&f, "image-docker-hub"));
	cr_expect_eq(f.v[0].severity, CHECK_ERROR, "errors come first");
	check_findings_free(&f);
	taskdef_free(&td);
}

static void
expect_bad(const char *text, const char *want)
{
	struct taskdef td;
	struct err err = { 0 };

	cr_expect_eq(taskdef_read_mem("td.json", text, strlen(text), &td, &err), -1, "%s", text);
	cr_expect_not_null(strstr(err.msg, want), "got '%s', want '%s'", err.msg, want);
	cr_expect_null(strchr(err.msg, '\n'));
	cr_expect_eq(td.ncontainers, 0, "nothing kept after a failure");
}

Test(check, bad_input_names_file_path_and_why)
{
	expect_bad("{\"family\": \"x\",", "td.json:1:");
	expect_bad("[1, 2]", "td.json: expected a task definition object, got an array");
	expect_bad("{\"name\": \"x\"}", "td.json: neither a task definition");
	expect_bad("{\"family\": 3}", "td.json: family: expected a string, got a number");
	expect_bad("{\"family\": \"x\", \"containerDefinitions\": [{\"name\": \"a\", \"cpu\": \"lots\"}]}",
		   "td.json: containerDefinitions[0].cpu: expected CPU units");
	expect_bad("{\"family\": \"x\", \"memory\": \"8 TB\"}", "td.json: memory: expected MiB");
	expect_bad("{\"family\": \"x\", \"containerDefinitions\": [{\"name\": \"a\", \"healthCheck\":"
		   " {\"interval\": -5}}]}", "containerDefinitions[0].healthCheck.interval: a whole number");
	expect_bad("{\"family\": \"x\", \"containerDefinitions\": [{\"name\": \"a\", \"dependsOn\": [1]}]}",
		   "containerDefinitions[0].dependsOn[0]: expected an object, got a number");
	expect_bad("{\"taskDefinition\": {\"family\": \"x\", \"containerDefinitions\": {}}}",
		   "td.json: taskDefinition.containerDefinitions: expected an array, got an object");
	expect_bad("{\"family\": \"x\", \"family\": \"y\"}", "td.json:1:");
	expect_bad("{\"family\": \"x\", \"containerDefinitions\": [{\"essential\": \"yes\"}]}",
		   "containerDefinitions[0].essential: expected true or false, got a string");
}

Test(check, missing_file_is_named)
{
	struct taskdef td;
	struct err err = { 0 };

	cr_expect_eq(taskdef_read_file(CHECK_DIR "/no-such.json", &td, &err), -1);
	cr_expect_not_null(strstr(err.msg, "no-such.json: cannot open"), "%s", err.msg);
}

Test(check, sizes_as_registration_converts_them)
{
	cr_expect_eq(taskdef_parse_cpu("256"), 256);
	cr_expect_eq(taskdef_parse_cpu("0.25 vCPU"), 256);
	cr_expect_eq(taskdef_parse_cpu("2 vcpu"), 2048);
	cr_expect_eq(taskdef_parse_cpu("2vCPU"), 2048);
	cr_expect_eq(taskdef_parse_cpu("2.5"), -1);
	cr_expect_eq(taskdef_parse_cpu("two"), -1);
	cr_expect_eq(taskdef_parse_cpu("-1"), -1);
	cr_expect_eq(taskdef_parse_memory("8 GB"), 8192);
	cr_expect_eq(taskdef_parse_memory("0.5GB"), 512);
	cr_expect_eq(taskdef_parse_memory("1e3"), -1);
	cr_expect_eq(taskdef_parse_memory("8 GiB"), -1);
}

Test(check, grid_is_fargates)
{
	long near[3][2];
	size_t n;

	cr_expect(check_grid_valid(256, 512));
	cr_expect(check_grid_valid(256, 2048));
	cr_expect_not(check_grid_valid(256, 1536));
	cr_expect_not(check_grid_valid(256, 3072));
	cr_expect(check_grid_valid(512, 3072));
	cr_expect(check_grid_valid(2048, 16384));
	cr_expect_not(check_grid_valid(2048, 2048));
	cr_expect(check_grid_valid(4096, 30720));
	cr_expect_not(check_grid_valid(4096, 31744));
	cr_expect(check_grid_valid(8192, 20480));
	cr_expect_not(check_grid_valid(8192, 18432));   /* 4 GB steps */
	cr_expect(check_grid_valid(16384, 122880));
	cr_expect_not(check_grid_valid(16384, 36864));  /* 8 GB steps */
	cr_expect_not(check_grid_valid(3000, 8192));
	/* 2 vCPU with 2 GB: the cheapest sizes that hold it, and the largest inside it */
	n = check_grid_nearest(2048, 2048, near, 3);
	cr_assert_eq(n, 3);
	cr_expect(near[0][0] == 2048 && near[0][1] == 4096);
	cr_expect(near[1][0] == 2048 && near[1][1] == 5120);
	cr_expect(near[2][0] == 1024 && near[2][1] == 2048);
	/* more than the largest: only the largest below */
	n = check_grid_nearest(32768, 262144, near, 3);
	cr_assert_eq(n, 1);
	cr_expect(near[0][0] == 16384 && near[0][1] == 122880);
}

Test(check, size_finding_names_nearest_sizes_and_prices)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;

	read_fixture("fargate-size", &td);
	input_for(&td, &in);
	check_run(&in, &f);
	cr_assert_eq(f.v[0].severity, CHECK_ERROR);
	cr_expect_str_eq(f.v[0].rule, "fargate-size");
	cr_expect_str_eq(f.v[0].path, "memory");
	cr_expect_not_null(strstr(f.v[0].message, "2 vCPU takes 4-16 GB in 1 GB steps"), "%s",
			   f.v[0].message);
	/* ARM64 us-east-1: 2 x 0.03238 + 4 x 0.00356 = 0.07900 */
	cr_expect_not_null(strstr(f.v[0].fix, "cpu 2048 memory 4096 (2 vCPU / 4 GB, $0.0790/h)"),
			   "%s", f.v[0].fix);
	cr_expect(isnan(f.usd_hour), "no price for a size that is not one");
	check_findings_free(&f);
	taskdef_free(&td);
}

Test(check, platform_versions)
{
	struct check_platform p;
	struct taskdef td;
	struct check_input in;
	struct check_findings f;

	cr_expect_eq(check_platform_parse("1.3.0", &p), 0);
	cr_expect(p.major == 1 && p.minor == 3 && !p.latest);
	cr_expect_eq(check_platform_parse("LATEST", &p), 0);
	cr_expect(p.latest);
	cr_expect_eq(check_platform_parse("1.4", &p), 0);
	cr_expect_eq(check_platform_parse("1.4.0x", &p), -1);
	cr_expect_eq(check_platform_parse("new", &p), -1);
	/* 8 vCPU passes on LATEST (the fixture run) and fails on 1.3.0 */
	read_fixture("fargate-platform-size", &td);
	input_for(&td, &in);
	check_run(&in, &f);
	cr_expect_not(fired(&f, "fargate-platform-size"));
	check_findings_free(&f);
	cr_assert_eq(check_platform_parse("1.3.0", &in.platform), 0);
	check_run(&in, &f);
	cr_expect(fired(&f, "fargate-platform-size"));
	check_findings_free(&f);
	taskdef_free(&td);
}

Test(check, image_references)
{
	struct check_image_ref r;

	check_image_parse("nginx", &r);
	cr_expect(r.docker_hub && r.latest && !r.has_tag);
	check_image_parse("library/nginx:1.27", &r);
	cr_expect(r.docker_hub && !r.latest && r.has_tag);
	check_image_parse("docker.io/bitnami/redis:latest", &r);
	cr_expect(r.docker_hub && r.latest);
	check_image_parse("localhost:5000/app", &r);
	cr_expect_str_eq(r.registry, "localhost:5000");
	cr_expect(!r.docker_hub && r.latest);
	check_image_parse("123456789012.dkr.ecr.eu-west-1.amazonaws.com/app@sha256:abc", &r);
	cr_expect(r.ecr && r.has_digest && !r.latest);
	check_image_parse("public.ecr.aws/nginx/nginx:1.27", &r);
	cr_expect(!r.ecr && !r.docker_hub);
	check_image_parse("ghcr.io/org/app:v1@sha256:abc", &r);
	cr_expect(!r.latest && r.has_tag && r.has_digest);
}

/* The image path of the clean (ECR) and the Docker Hub fixtures under net */
static void
path_case(const struct check_network *net, bool ecr_fails, bool hub_fails, const char *why)
{
	const char *names[] = { "clean", "image-docker-hub" };
	bool want[] = { ecr_fails, hub_fails };

	for (size_t i = 0; i < 2; i++) {
		struct taskdef td;
		struct check_input in;
		struct check_findings f;

		read_fixture(names[i], &td);
		input_for(&td, &in);
		in.net = *net;
		check_run(&in, &f);
		cr_expect_eq(fired(&f, "image-path"), want[i], "%s: %s", names[i], why);
		cr_expect_not(fired(&f, "image-path-unchecked"));
		/* the reason is the ECR image's, or the one that fails alone */
		if (want[i] && why != NULL && (i == 0 || !want[0]))
			cr_expect_not_null(strstr(f.v[0].message, why), "%s: want \"%s\" in: %s",
					   names[i], why, f.v[0].message);
		check_findings_free(&f);
		taskdef_free(&td);
	}
}

Test(check, image_path_decisions)
{
	struct check_network n;

	private_subnet(&n);
	path_case(&n, true, true, "no NAT route, no public IP with an internet gateway route, "
		  "and no endpoint ecr.api, ecr.dkr, s3 (gateway)");
	n.nat_route = FACT_YES;
	path_case(&n, false, false, NULL);
	private_subnet(&n);
	n.public_ip = n.igw_route = FACT_YES;
	path_case(&n, false, false, NULL);
	n.igw_route = FACT_NO;
	path_case(&n, true, true, "a public IP but subnet subnet-0abc has no internet gateway");
	private_subnet(&n);
	n.igw_route = FACT_YES;
	path_case(&n, true, true, "gets no public IP");
	private_subnet(&n);
	n.ecr_api = n.ecr_dkr = n.s3_gateway = FACT_YES;
	path_case(&n, false, true, "not on ECR");
	n.s3_gateway = FACT_NO;
	path_case(&n, true, true, "no endpoint s3 (gateway)");
}

Test(check, offline_image_path_is_not_checked_and_says_what_it_needs)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;

	read_fixture("clean", &td);
	input_for(&td, &in);
	check_run(&in, &f);
	for (size_t i = 0; i < f.n; i++)
		if (strcmp(f.v[i].rule, "image-path-unchecked") == 0)
			cr_expect_not_null(strstr(f.v[i].message, "needs --subnets and live access"));
	check_findings_free(&f);
	in.net.nsubnets_given = 1;
	check_run(&in, &f);
	for (size_t i = 0; i < f.n; i++)
		if (strcmp(f.v[i].rule, "image-path-unchecked") == 0)
			cr_expect_not_null(strstr(f.v[i].message, "needs live access"));
	check_findings_free(&f);
	taskdef_free(&td);
}

Test(check, dependency_cycle_is_named)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;

	read_fixture("depends-cycle", &td);
	input_for(&td, &in);
	check_run(&in, &f);
	cr_assert_eq(check_count(&f, CHECK_ERROR), 1);
	cr_expect_str_eq(f.v[0].path, "containerDefinitions[1].dependsOn[0]");
	cr_expect_not_null(strstr(f.v[0].message, "rerank-api -> warmup -> rerank-api"), "%s",
			   f.v[0].message);
	check_findings_free(&f);
	taskdef_free(&td);
}

Test(check, rule_table_ids_unique_and_in_the_man_page)
{
	size_t n;
	const struct check_rule *rules = check_rules(&n);
	FILE *man = fopen(MAN_PATH, "rb");
	char *text;
	long len;

	cr_assert_not_null(man);
	fseek(man, 0, SEEK_END);
	len = ftell(man);
	rewind(man);
	text = calloc((size_t)len + 1, 1);
	cr_assert_eq(fread(text, 1, (size_t)len, man), (size_t)len);
	fclose(man);
	for (size_t i = 0; i < n; i++) {
		char needle[96];

		for (size_t j = 0; j < i; j++)
			cr_expect_str_neq(rules[i].id, rules[j].id);
		cr_expect_eq(check_rule_by_id(rules[i].id), &rules[i]);
		cr_expect(rules[i].message[0] != '\0' && rules[i].path[0] != '\0');
		/* listed as a tagged paragraph's tag in the CHECK section: .B ID */
		snprintf(needle, sizeof needle, "\n.B %s\n", rules[i].id);
		cr_expect_not_null(strstr(text, needle), "the man page does not list rule %s",
				   rules[i].id);
	}
	cr_expect_not_null(strstr(text, "\n.SH CHECK\n"));
	free(text);
}

static const char *
message_of(const struct check_findings *f, const char *rule)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].rule, rule) == 0)
			return f->v[i].message;
	return NULL;
}

/* make_history.py: 1.2 GB at the ARM64 0.6-2.4 GB pulls' 30, 25, 20, 40, 20 MB/s takes
 * 40, 48, 60, 30, 60 s: p50 48, p10 30 + 0.4 x 10 = 34, p90 60; 5 of 7 recorded pulls;
 * the container start after them 5, 5, 5, 3, 7 s: median 5, an expected start of 53 s */
Test(check, pull_forecast_from_the_throughput_of_similar_pulls)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;
	struct check_forecast fc;
	struct task_set history;
	const char *m;

	read_fixture("clean", &td);
	read_history(&history, false);
	input_for(&td, &in);
	in.history = &history;
	in.history_name = "history.jsonl";
	cr_assert(check_pull_forecast(&in, &fc));
	cr_expect_eq(fc.how, FORECAST_THROUGHPUT);
	cr_expect_eq(fc.size_bytes, 1200000000);
	cr_expect_eq(fc.n, 5);
	cr_expect_eq(fc.recorded, 7);
	cr_expect_float_eq(fc.p50_s, 48.0, 1e-9);
	cr_expect_float_eq(fc.p10_s, 34.0, 1e-9);
	cr_expect_float_eq(fc.p90_s, 60.0, 1e-9);
	cr_expect_float_eq(fc.mbps_p50, 25.0, 1e-9);
	cr_expect_float_eq(fc.start_s, 5.0, 1e-9);
	check_run(&in, &f);
	m = message_of(&f, "image-size");
	cr_assert_not_null(m);
	cr_expect_not_null(strstr(m, "rerank-api:1.8.2: 1.20 GB compressed in 2 layers, gzip; no "
				  "SOCI index, and worth one"), "%s", m);
	cr_expect_not_null(strstr(m, "largest: 600 MB ADD rootfs.tar.gz /; 600 MB RUN pip "
				  "install -r requirements.txt"), "%s", m);
	m = message_of(&f, "pull-forecast");
	cr_assert_not_null(m);
	cr_expect_not_null(strstr(m, "expected pull 48 s (p10 34 s, p90 60 s) for 1.20 GB "
				  "compressed"), "%s", m);
	cr_expect_not_null(strstr(m, "the throughput of 5 of the 7 recorded pulls in "
				  "history.jsonl (ARM64, images of 600 MB-2.40 GB; median 25.0 MB/s)"),
			   "%s", m);
	/* $0.09324 per hour x 53 s / 3600 s x 1,000 = $1.3727 */
	m = message_of(&f, "price");
	cr_assert_not_null(m);
	cr_expect_not_null(strstr(m, "$1.37 per 1,000 starts at the expected start of 53 s "
				  "(pull 48 s + container start 5 s"), "%s", m);
	for (size_t k = 0; k < f.n; k++)
		cr_expect_eq(f.v[k].severity, CHECK_INFO, "%s", f.v[k].message);
	/* the same figures for scripts (CSV and JSON columns), on those findings only */
	for (size_t k = 0; k < f.n; k++) {
		const struct check_figures *g = &f.v[k].fig;

		if (strcmp(f.v[k].rule, "pull-forecast") == 0) {
			cr_expect_float_eq(g->pull_p50_s, 48.0, 1e-9);
			cr_expect_float_eq(g->pull_p10_s, 34.0, 1e-9);
			cr_expect_float_eq(g->pull_p90_s, 60.0, 1e-9);
			cr_expect_eq(g->pulls_used, 5);
			cr_expect_eq(g->pulls_recorded, 7);
			cr_expect_str_eq(g->basis, "throughput");
			cr_expect(isnan(g->usd_per_hour));
		} else if (strcmp(f.v[k].rule, "price") == 0) {
			cr_expect_float_eq(g->usd_per_hour, 0.09324, 1e-9);
			cr_expect_float_eq(g->usd_per_1000_starts, 0.09324 * 53 / 3600 * 1000, 1e-9);
			cr_expect_float_eq(g->start_s, 53.0, 1e-9);
			cr_expect(isnan(g->pull_p50_s));
		} else {
			cr_expect(isnan(g->pull_p50_s) && isnan(g->usd_per_hour) &&
				  g->pulls_used < 0 && g->basis == NULL, "%s", f.v[k].rule);
		}
	}
	check_findings_free(&f);
	task_set_cleanup(&history);
	taskdef_free(&td);
}

/* without image sizes: the same image's own pulls, 40, 48, 60 s (the X86_64 one and the
 * one still pulling left out): p10 40 + 0.2 x 8 = 41.6, p50 48, p90 48 + 0.8 x 12 = 57.6 */
Test(check, pull_forecast_from_the_same_images_pulls_without_sizes)
{
	struct taskdef td;
	struct check_input in;
	struct check_forecast fc;
	struct task_set history;

	read_fixture("clean", &td);
	read_history(&history, true);
	input_for(&td, &in);
	in.history = &history;
	cr_assert(check_pull_forecast(&in, &fc));
	cr_expect_eq(fc.how, FORECAST_SAME_IMAGE);
	cr_expect_eq(fc.size_bytes, -1);
	cr_expect_eq(fc.n, 3);
	cr_expect_float_eq(fc.p10_s, 41.6, 1e-9);
	cr_expect_float_eq(fc.p50_s, 48.0, 1e-9);
	cr_expect_float_eq(fc.p90_s, 57.6, 1e-9);
	/* and the finding's figures for scripts say so */
	{
		struct check_findings f;

		check_run(&in, &f);
		for (size_t k = 0; k < f.n; k++)
			if (strcmp(f.v[k].rule, "pull-forecast") == 0) {
				cr_expect_str_eq(f.v[k].fig.basis, "same-image");
				cr_expect_float_eq(f.v[k].fig.pull_p10_s, 41.6, 1e-9);
				cr_expect_eq(f.v[k].fig.pulls_used, 3);
			}
		check_findings_free(&f);
	}
	task_set_cleanup(&history);
	taskdef_free(&td);
}

/* rerank-api:2.0.0, which the history neither sized nor pulled: no figure, and why */
Test(check, pull_forecast_says_when_nothing_fits)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;
	struct check_forecast fc;
	struct task_set history;
	const char *m;

	read_fixture("pull-forecast", &td);
	read_history(&history, false);
	input_for(&td, &in);
	in.history = &history;
	in.history_name = "history.jsonl";
	cr_expect_not(check_pull_forecast(&in, &fc));
	cr_expect_eq(fc.how, FORECAST_NONE);
	cr_expect(isnan(fc.p50_s));
	check_run(&in, &f);
	m = message_of(&f, "pull-forecast");
	cr_assert_not_null(m);
	cr_expect_not_null(strstr(m, "no pull forecast: history.jsonl has no size for the image "
				  "and none of its 7 recorded pulls is of the same image on ARM64"),
			   "%s", m);
	/* and the price stays per minute of start: no expected start to price */
	m = message_of(&f, "price");
	cr_expect_not_null(strstr(m, "for each minute a start takes"), "%s", m);
	for (size_t k = 0; k < f.n; k++) {
		const struct check_figures *g = &f.v[k].fig;

		if (strcmp(f.v[k].rule, "pull-forecast") == 0) {
			cr_expect_str_eq(g->basis, "none");
			cr_expect(isnan(g->pull_p50_s));
			cr_expect_eq(g->pulls_used, 0);
			cr_expect_eq(g->pulls_recorded, 7);
		} else if (strcmp(f.v[k].rule, "price") == 0) {
			cr_expect(isfinite(g->usd_per_hour));
			cr_expect(isnan(g->usd_per_1000_starts), "no expected start: per minute only");
		}
	}
	check_findings_free(&f);
	task_set_cleanup(&history);
	taskdef_free(&td);
}

/* Docker Hub's anonymous limit, and live: the NAT every task behind it shares */
Test(check, docker_hub_limit_names_the_nat_live)
{
	struct taskdef td;
	struct check_input in;
	struct check_findings f;
	const char *m;

	read_fixture("image-docker-hub", &td);
	input_for(&td, &in);
	check_run(&in, &f);
	m = message_of(&f, "image-docker-hub");
	cr_assert_not_null(m);
	cr_expect_not_null(strstr(m, "10 anonymous pulls an hour per IPv4 address"), "%s", m);
	cr_expect_null(strstr(m, "NAT:"), "%s", m);
	check_findings_free(&f);
	private_subnet(&in.net);
	in.net.nat_route = FACT_YES;
	check_run(&in, &f);
	m = message_of(&f, "image-docker-hub");
	cr_assert_not_null(m);
	cr_expect_not_null(strstr(m, "subnet subnet-0abc pulls through a NAT: every task behind "
				  "it counts against the same limit"), "%s", m);
	check_findings_free(&f);
	taskdef_free(&td);
}
