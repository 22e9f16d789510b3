/* cost: billed_startup_s and startup_cost_usd computed by hand from the contract's
 * formula, for x86 and ARM, on-demand and Spot from a --prices file. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "ecsprof/cost.h"

static struct task
fargate(const char *cpu, const char *memory, const char *arch, const char *cp)
{
	struct task t;

	task_init(&t);
	t.arn_tail = "arn:aws:ecs:us-east-1:111122223333:task/prod/0123456789abcdef";
	task_edit_profile(&t)->launch_type = cp ? NULL : "FARGATE";
	task_edit_profile(&t)->capacity_provider = (char *)cp;
	task_edit_profile(&t)->cpu = (char *)cpu;
	task_edit_profile(&t)->memory = (char *)memory;
	task_edit_profile(&t)->cpu_arch = (char *)arch;
	task_set_ts(&t, TS_CREATED, 1000000);
	task_set_ts(&t, TS_PULL_STARTED, 1020000);      /* +20 s */
	task_set_ts(&t, TS_STARTED, 1110000);           /* +90 s after the pull started */
	return t;
}

Test(cost, billed_from_pull_start_to_running)
{
	struct task t = fargate("1024", "2048", NULL, NULL);

	cr_expect_eq(cost_billed_ms(&t), 90000);
	/* 90 s x (1 vCPU x 0.04048/3600 + 2 GB x 0.004445/3600) */
	double want = 90.0 * (1 * 0.04048 / 3600 + 2 * 0.004445 / 3600);
	cr_expect_float_eq(cost_startup_usd(NULL, &t), want, 1e-12);
	cr_expect_float_eq(want, 0.0012342500, 1e-10);
	task_cleanup(&t);
}

Test(cost, billed_to_healthy_when_known)
{
	struct task t = fargate("512", "1024", NULL, NULL);

	task_set_ts(&t, TS_HEALTHY, 1140000);           /* healthy 30 s after RUNNING */
	cr_expect_eq(cost_billed_ms(&t), 120000);
	/* 120 s x (0.5 x 0.04048 + 1 x 0.004445) / 3600 = 0.000822833... */
	cr_expect_float_eq(cost_startup_usd(NULL, &t), 120.0 * (0.5 * 0.04048 + 0.004445) / 3600,
			   1e-12);
	task_cleanup(&t);
}

Test(cost, arm_is_priced_as_arm)
{
	struct task t = fargate("2 vCPU", "4 GB", "arm64", NULL);

	/* 90 s x (2 x 0.03238 + 4 x 0.00356) / 3600 = 0.0019750 */
	cr_expect_float_eq(cost_startup_usd(NULL, &t), 90.0 * (2 * 0.03238 + 4 * 0.00356) / 3600,
			   1e-12);
	cr_expect_float_eq(cost_startup_usd(NULL, &t), 0.001975, 1e-9);
	task_cleanup(&t);
}

Test(cost, not_fargate_or_missing_is_empty)
{
	struct task t = fargate("1024", "2048", NULL, NULL);

	task_edit_profile(&t)->launch_type = "EC2";
	cr_expect_eq(cost_billed_ms(&t), TS_NONE);
	cr_expect(isnan(cost_startup_usd(NULL, &t)));
	task_cleanup(&t);
	t = fargate("1024", "2048", NULL, NULL);
	task_set_ts(&t, TS_PULL_STARTED, TS_NONE);
	cr_expect(isnan(cost_startup_usd(NULL, &t)));
	task_cleanup(&t);
	t = fargate("1024", "2048", NULL, NULL);
	t.arn_tail = "arn:aws:ecs:mars-north-1:111122223333:task/prod/01";
	cr_expect(isnan(cost_startup_usd(NULL, &t)), "no price for an unknown region");
	task_cleanup(&t);
}

Test(cost, spot_needs_a_prices_file)
{
	struct task t = fargate("1024", "2048", "arm64", "FARGATE_SPOT");
	struct cost_prices p;
	struct err err;
	char path[] = "/tmp/ecsprof-prices-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	cr_expect(isnan(cost_startup_usd(NULL, &t)), "no built-in Spot price");
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# REGION ARCH CAPACITY USD_PER_VCPU_HOUR USD_PER_GB_HOUR\n"
	      "us-east-1 arm64 FARGATE_SPOT 0.01 0.001\n"
	      "*         x86_64 FARGATE     0.05 0.005   # any region\n", f);
	fclose(f);
	cost_prices_init(&p);
	cr_assert_eq(cost_prices_load(&p, path, &err), 0, "%s", err.msg);
	unlink(path);
	/* 90 s x (1 x 0.01 + 2 x 0.001) / 3600 = 0.0003 */
	cr_expect_float_eq(cost_startup_usd(&p, &t), 0.0003, 1e-12);
	/* an exact region of the built-in table is still used for on-demand x86 in us-east-1?
	 * No: the file's '*' line comes first, before the built-in table. */
	struct task x = fargate("1024", "2048", NULL, NULL);
	cr_expect_float_eq(cost_startup_usd(&p, &x), 90.0 * (0.05 + 2 * 0.005) / 3600, 1e-12);
	cost_prices_cleanup(&p);
	task_cleanup(&t);
	task_cleanup(&x);
}

Test(cost, bad_prices_lines_name_file_and_line)
{
	struct cost_prices p;
	struct err err;

	cost_prices_init(&p);
	cr_expect_eq(cost_prices_parse(&p, "p.txt", "us-east-1 x86_64 FARGATE 0.04\n", &err), -1);
	cr_expect(strstr(err.msg, "p.txt:1:") != NULL, "%s", err.msg);
	cr_expect_eq(cost_prices_parse(&p, "p.txt", "\n# c\nus-east-1 sparc FARGATE 1 1\n", &err), -1);
	cr_expect(strstr(err.msg, "p.txt:3: architecture 'sparc'") != NULL, "%s", err.msg);
	cr_expect_eq(cost_prices_parse(&p, "p.txt", "us-east-1 arm64 SPOTTY 1 1\n", &err), -1);
	cr_expect_eq(cost_prices_parse(&p, "p.txt", "us-east-1 arm64 FARGATE -1 1\n", &err), -1);
	cost_prices_cleanup(&p);
}

Test(cost, region_from_az_when_no_arn)
{
	struct task t = fargate("1024", "2048", NULL, NULL);
	char region[32];

	t.arn_tail = NULL;
	task_edit_profile(&t)->availability_zone = "eu-west-1b";
	cr_assert(cost_task_region(&t, region, sizeof region));
	cr_expect_str_eq(region, "eu-west-1");
	task_cleanup(&t);
}

/* the region from the ARN's fourth field, from the zone without its letter, and neither
 * when it does not fit the caller's buffer (as it never did) */
Test(cost, region_from_arn_and_zone_edges)
{
	struct task t = fargate("1024", "2048", NULL, NULL);
	char region[32], tiny[11];

	t.arn_tail = "arn:aws:ecs:ap-southeast-2:123456789012:task/prod/abc";
	task_edit_profile(&t)->availability_zone = "eu-west-1b";
	cr_assert(cost_task_region(&t, region, sizeof region));
	cr_expect_str_eq(region, "ap-southeast-2");
	/* 14 characters do not fit in 11: the zone's do */
	cr_assert(cost_task_region(&t, tiny, sizeof tiny));
	cr_expect_str_eq(tiny, "eu-west-1");
	t.arn_tail = "arn:aws:ecs::123456789012:task/prod/abc";   /* empty region: the zone */
	cr_assert(cost_task_region(&t, region, sizeof region));
	cr_expect_str_eq(region, "eu-west-1");
	task_edit_profile(&t)->availability_zone = "us-east-1-bos-1a";
	cr_assert(cost_task_region(&t, region, sizeof region));
	cr_expect_str_eq(region, "us-east-1-bos-1");
	task_edit_profile(&t)->availability_zone = "local";
	cr_expect_not(cost_task_region(&t, region, sizeof region));
	task_edit_profile(&t)->availability_zone = "eu-west-1b";
	cr_expect_not(cost_task_region(&t, region, 10));
	cr_assert(cost_task_region(&t, region, 11));
	cr_expect_str_eq(region, "eu-west-1");
	task_cleanup(&t);
}

/* cpu and memory as ECS writes them (digits) and as people do ("0.25 vCPU"): digits are
 * read without strtod, and must read as strtod reads them */
Test(cost, task_size_from_digits_and_units)
{
	static const struct { const char *cpu, *mem; bool ok; double vcpu, gb; } cases[] = {
		{ "256", "512", true, 0.25, 0.5 },
		{ "0256", "00512", true, 0.25, 0.5 },
		{ "1024", "3072 ", true, 1.0, 3.0 },
		{ "123456789", "1024", true, 123456789.0 / 1024.0, 1.0 },
		{ "1234567890", "1024", true, 1234567890.0 / 1024.0, 1.0 },
		{ "0.25 vCPU", "0.5 GB", true, 0.25, 0.5 },
		{ "2 vcpu", "4 GiB", true, 2.0, 4.0 },
		{ "0", "512", false, 0, 0 },
		{ "", "512", false, 0, 0 },
		{ "256", "-1", false, 0, 0 },
		{ "0x100", "512", true, 0.25, 0.5 },   /* strtod reads hex: so do we */
		{ "25a", "512", false, 0, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct task t;
		double vcpu = -1, gb = -1;
		bool ok;

		task_init(&t);
		task_edit_profile(&t)->cpu = cases[i].cpu;
		task_edit_profile(&t)->memory = cases[i].mem;
		ok = cost_task_size(&t, &vcpu, &gb);
		cr_expect_eq(ok, cases[i].ok, "%s / %s", cases[i].cpu, cases[i].mem);
		if (ok && cases[i].ok) {
			cr_expect_eq(vcpu, cases[i].vcpu, "%s: %g", cases[i].cpu, vcpu);
			cr_expect_eq(gb, cases[i].gb, "%s: %g", cases[i].mem, gb);
		}
		task_cleanup(&t);
	}
}
