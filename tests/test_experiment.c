/* Tests for experiment.c: the launch plan (interleaving, calls of at most 10, --max-tasks),
 * arm and id syntax, the network configuration in both AWS CLI forms, sizes and cost. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "ecsprof/experiment.h"

Test(experiment, interleaved_rounds_alternate_the_arms)
{
	struct exp_plan_options o = { .narms = 2, .per_arm = 5, .round_size = 2, .max_tasks = 50 };
	struct exp_plan p;
	struct err err;
	/* rounds of 2, 2, 1, each A then B */
	static const struct { size_t arm; long count; size_t round; } want[] = {
		{ 0, 2, 0 }, { 1, 2, 0 }, { 0, 2, 1 }, { 1, 2, 1 }, { 0, 1, 2 }, { 1, 1, 2 },
	};

	cr_assert_eq(exp_plan_build(&o, &p, &err), 0, "%s", err.msg);
	cr_assert_eq(p.ncalls, 6);
	cr_expect_eq(p.nrounds, 3);
	cr_expect_eq(p.total, 10);
	for (size_t i = 0; i < 6; i++) {
		cr_expect_eq(p.calls[i].arm, want[i].arm, "call %zu", i);
		cr_expect_eq(p.calls[i].count, want[i].count, "call %zu", i);
		cr_expect_eq(p.calls[i].round, want[i].round, "call %zu", i);
		cr_expect(!p.calls[i].wait_before);
	}
	exp_plan_cleanup(&p);
}

Test(experiment, sequential_runs_arm_after_arm_in_calls_of_ten)
{
	struct exp_plan_options o = { .narms = 2, .per_arm = 23, .round_size = 1,
				      .sequential = true, .max_tasks = 50 };
	struct exp_plan p;
	struct err err;

	cr_assert_eq(exp_plan_build(&o, &p, &err), 0, "%s", err.msg);
	cr_assert_eq(p.ncalls, 6);
	long counts[] = { 10, 10, 3, 10, 10, 3 };
	for (size_t i = 0; i < 6; i++) {
		cr_expect_eq(p.calls[i].arm, i / 3);
		cr_expect_eq(p.calls[i].count, counts[i]);
		cr_expect_leq(p.calls[i].count, EXP_RUNTASK_MAX);
		cr_expect_eq(p.calls[i].wait_before, i == 3, "call %zu", i);
	}
	cr_expect_eq(p.total, 46);
	exp_plan_cleanup(&p);
}

Test(experiment, max_tasks_is_never_exceeded)
{
	struct exp_plan_options o = { .narms = 2, .per_arm = 26, .round_size = 10, .max_tasks = 50 };
	struct exp_plan p;
	struct err err;

	cr_expect_eq(exp_plan_build(&o, &p, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect(strstr(err.msg, "52 tasks") && strstr(err.msg, "--max-tasks 50"), "%s", err.msg);
	o.per_arm = 25;
	cr_assert_eq(exp_plan_build(&o, &p, &err), 0);
	cr_expect_eq(p.total, 50);
	exp_plan_cleanup(&p);
	/* n x arms that would wrap a long */
	o.per_arm = 0x7fffffffffffffffL;
	cr_expect_eq(exp_plan_build(&o, &p, &err), -1);
	o.per_arm = 1;
	o.round_size = 11;
	cr_expect_eq(exp_plan_build(&o, &p, &err), -1);
}

Test(experiment, arms_and_ids)
{
	struct exp_arm a;
	struct err err;

	cr_assert_eq(exp_arm_parse("no-soci=web:7", &a, &err), 0);
	cr_expect_str_eq(a.name, "no-soci");
	cr_expect_str_eq(a.taskdef, "web:7");
	exp_arm_cleanup(&a);
	cr_assert_eq(exp_arm_parse("soci=arn:aws:ecs:us-east-1:1:task-definition/web:8", &a, &err), 0);
	cr_expect_str_eq(a.taskdef, "arn:aws:ecs:us-east-1:1:task-definition/web:8");
	exp_arm_cleanup(&a);
	cr_expect_eq(exp_arm_parse("web:7", &a, &err), -1);
	cr_expect(strstr(err.msg, "NAME=TASKDEF"));
	cr_expect_eq(exp_arm_parse("=web", &a, &err), -1);
	cr_expect_eq(exp_arm_parse("a b=web", &a, &err), -1);
	cr_expect_eq(exp_arm_parse("a=", &a, &err), -1);
	cr_expect(exp_id_valid("20261203T0841-3fa9"));
	cr_expect(!exp_id_valid(""));
	cr_expect(!exp_id_valid("a/b"));
}

Test(experiment, network_shorthand_and_json)
{
	struct exp_network n;
	struct err err;

	exp_network_init(&n);
	cr_assert_eq(exp_network_parse("awsvpcConfiguration={subnets=[subnet-1,subnet-2],"
				       "securityGroups=[sg-1],assignPublicIp=ENABLED}", &n, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(n.nsubnets, 2);
	cr_expect_str_eq(n.subnets[1], "subnet-2");
	cr_assert_eq(n.nsecurity_groups, 1);
	cr_expect_str_eq(n.security_groups[0], "sg-1");
	cr_expect_eq(n.assign_public_ip, 1);
	exp_network_cleanup(&n);

	cr_assert_eq(exp_network_parse(" {\"awsvpcConfiguration\": {\"subnets\": [\"subnet-9\"],"
				       " \"assignPublicIp\": \"DISABLED\"}} ", &n, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(n.nsubnets, 1);
	cr_expect_str_eq(n.subnets[0], "subnet-9");
	cr_expect_eq(n.nsecurity_groups, 0);
	cr_expect_eq(n.assign_public_ip, 0);
	exp_network_cleanup(&n);

	cr_expect_eq(exp_network_parse("awsvpcConfiguration={subnets=[subnet-1}", &n, &err), -1);
	cr_expect(strstr(err.msg, "--network-configuration"), "%s", err.msg);
	exp_network_cleanup(&n);
	cr_expect_eq(exp_network_parse("subnets=[a]", &n, &err), -1);
	exp_network_cleanup(&n);
	cr_expect_eq(exp_network_parse("awsvpcConfiguration={assignPublicIp=YES}", &n, &err), -1);
	exp_network_cleanup(&n);

	cr_assert_eq(exp_network_add_ids(&n.subnets, &n.nsubnets, "subnet-a, subnet-b", "--subnets",
					 &err), 0);
	cr_expect_eq(n.nsubnets, 2);
	cr_expect_str_eq(n.subnets[1], "subnet-b");
	cr_expect_eq(exp_network_add_ids(&n.subnets, &n.nsubnets, "a,,b", "--subnets", &err), -1);
	exp_network_cleanup(&n);
}

Test(experiment, sizes_and_cost)
{
	double v, g;

	cr_assert_eq(exp_parse_vcpu("256", &v), 0);
	cr_expect(fabs(v - 0.25) < 1e-12);
	cr_assert_eq(exp_parse_vcpu("2 vCPU", &v), 0);
	cr_expect(fabs(v - 2) < 1e-12);
	cr_expect_eq(exp_parse_vcpu("lots", &v), -1);
	cr_expect_eq(exp_parse_vcpu(NULL, &v), -1);
	cr_assert_eq(exp_parse_memory_gb("512", &g), 0);
	cr_expect(fabs(g - 0.5) < 1e-12);
	cr_assert_eq(exp_parse_memory_gb("4GB", &g), 0);
	cr_expect(fabs(g - 4) < 1e-12);
	/* 1 vCPU and 2 GB for an hour in us-east-1: 0.04048 + 2 x 0.004445 */
	const struct cost_price *use1 = cost_price_lookup(NULL, "us-east-1", NULL, false);
	cr_assert_not_null(use1);
	cr_expect(fabs(exp_fargate_cost(use1, 1, 2, 3600) - 0.04937) < 1e-9);
	/* the one-minute minimum */
	cr_expect(fabs(exp_fargate_cost(use1, 1, 2, 5) - 0.04937 / 60) < 1e-12);
	/* ARM64 as a task definition's runtimePlatform spells it */
	cr_expect(fabs(exp_fargate_cost(cost_price_lookup(NULL, "us-east-1", "ARM64", false),
					1, 0, 3600) - 0.03238) < 1e-12);
	cr_expect(isnan(exp_fargate_cost(NULL, 1, 2, 3600)));
}

Test(experiment, cost_follows_the_region_and_the_prices_file)
{
	struct cost_prices p;
	struct err err;

	/* the same task costs more in Tokyo than in Virginia: the built-in table's row */
	const struct cost_price *tokyo = cost_price_lookup(NULL, "ap-northeast-1", "X86_64", false);
	cr_assert_not_null(tokyo);
	cr_expect(fabs(exp_fargate_cost(tokyo, 1, 2, 3600) - (0.05056 + 2 * 0.00553)) < 1e-9);
	cr_expect(exp_fargate_cost(tokyo, 1, 2, 3600) >
		  exp_fargate_cost(cost_price_lookup(NULL, "us-east-1", NULL, false), 1, 2, 3600));
	/* a region the table lacks has no price (the plan says so) ... */
	cr_expect_null(cost_price_lookup(NULL, "sa-east-1", NULL, false));
	/* ... until --prices gives one; and --prices wins over the table, also for spot */
	cost_prices_init(&p);
	err_clear(&err);
	cr_assert_eq(cost_prices_parse(&p, "t", "sa-east-1 x86_64 FARGATE 0.1 0.01\n"
				       "us-east-1 x86_64 FARGATE_SPOT 0.012 0.0013\n", &err), 0,
		     "%s", err.msg);
	cr_expect(fabs(exp_fargate_cost(cost_price_lookup(&p, "sa-east-1", NULL, false), 1, 2,
					3600) - 0.12) < 1e-9);
	cr_expect(fabs(exp_fargate_cost(cost_price_lookup(&p, "us-east-1", NULL, true), 1, 2,
					3600) - 0.0146) < 1e-9);
	cr_expect_null(cost_price_lookup(&p, "us-east-1", "ARM64", true));
	cost_prices_cleanup(&p);
}
