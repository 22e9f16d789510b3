/* Tests for group.c: key parsing, the value of every key (including tasks that lack
 * every optional field), and the SOCI label with its evidence. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/group.h"
#include "ecsprof/xalloc.h"

/* A task with every field group.c reads, as a DescribeTasks parse would leave it. */
static void
full_task(struct task *t)
{
	task_init(t);
	task_set_arn(t, "arn:aws:ecs:us-east-1:123456789012:task/prod/0123456789abcdef0123456789abcdef", strlen("arn:aws:ecs:us-east-1:123456789012:task/prod/0123456789abcdef0123456789abcdef"));
	task_str(t, &task_edit_profile(t)->cluster_arn, "arn:aws:ecs:us-east-1:123456789012:cluster/prod");
	task_str(t, &task_edit_profile(t)->taskdef_arn, "arn:aws:ecs:us-east-1:123456789012:task-definition/rerank-api:8");
	task_str(t, &task_edit_profile(t)->group, "service:rerank");
	task_str(t, &task_edit_profile(t)->started_by, "ecs-svc/1234567890123456789");
	task_str(t, &task_edit_profile(t)->launch_type, "FARGATE");
	task_str(t, &task_edit_profile(t)->platform_version, "1.4.0");
	task_str(t, &task_edit_profile(t)->capacity_provider, "FARGATE_SPOT");
	task_str(t, &task_edit_profile(t)->availability_zone, "us-east-1b");
	task_str(t, &task_edit_profile(t)->cpu, "1024");
	task_str(t, &task_edit_profile(t)->memory, "2048");
	task_str(t, &task_edit_profile(t)->last_status, "RUNNING");
	task_str(t, &task_edit_profile(t)->stop_code, "EssentialContainerExited");
	task_str(t, &task_edit_profile(t)->source, "data/after.jsonl");
	task_containers(t, 2);
	task_str(t, &container_edit_profile(t, &t->containers[0])->name, "app");
	task_str(t, &container_edit_profile(t, &t->containers[0])->image, "123456789012.dkr.ecr.us-east-1.amazonaws.com/rerank:2.1");
	container_set_digest(t, &t->containers[0], "sha256:aaaa", strlen("sha256:aaaa"));
	task_str(t, &container_edit_profile(t, &t->containers[1])->name, "sidecar");
	task_str(t, &container_edit_profile(t, &t->containers[1])->image, "public.ecr.aws/aws-observability/aws-otel-collector:latest");
	struct tag *tg = task_tags(t, 2);
	task_str(t, &tg[0].key, "team");
	task_str(t, &tg[0].value, "search");
	task_str(t, &tg[1].key, "soci");
	task_str(t, &tg[1].value, "true");
	task_derive(t);
}

/* Only what every task has after task_init: nothing. */
static void
bare_task(struct task *t)
{
	task_init(t);
	task_derive(t);
}

static const char *
value_of(const struct task *t, const char *key, char *buf, size_t size)
{
	struct group_key k;
	struct err err;
	static char copy[512];

	err_clear(&err);
	cr_assert_eq(group_key_parse(key, &k, &err), 0, "%s: %s", key, err.msg);
	snprintf(copy, sizeof copy, "%s", group_value(t, &k, buf, size));
	group_key_cleanup(&k);
	return copy;
}

Test(group, parse_every_key)
{
	static const struct {
		const char *name;
		enum group_key_kind kind;
	} keys[] = {
		{ "family", GK_FAMILY }, { "taskdef", GK_TASKDEF }, { "service", GK_SERVICE },
		{ "started-by", GK_STARTED_BY }, { "deployment", GK_DEPLOYMENT },
		{ "image", GK_IMAGE }, { "digest", GK_DIGEST }, { "platform", GK_PLATFORM },
		{ "launch-type", GK_LAUNCH_TYPE }, { "capacity-provider", GK_CAPACITY_PROVIDER },
		{ "az", GK_AZ }, { "size", GK_SIZE }, { "status", GK_STATUS },
		{ "stop-code", GK_STOP_CODE }, { "source", GK_SOURCE }, { "cluster", GK_CLUSTER },
		{ "soci", GK_SOCI }, { "Family", GK_FAMILY },
	};
	struct group_key k;
	struct err err;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		err_clear(&err);
		cr_expect_eq(group_key_parse(keys[i].name, &k, &err), 0, "%s", keys[i].name);
		cr_expect_eq(k.kind, keys[i].kind, "%s", keys[i].name);
		group_key_cleanup(&k);
	}
	cr_assert_eq(group_key_parse("tag:Team", &k, &err), 0);
	cr_expect_eq(k.kind, GK_TAG);
	cr_expect_str_eq(k.tag, "Team");
	group_key_cleanup(&k);
}

Test(group, parse_bad_key_lists_valid_keys)
{
	struct group_key k;
	struct err err;

	err_clear(&err);
	cr_assert_eq(group_key_parse("colour", &k, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect_not_null(strstr(err.msg, "'colour'"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "family"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "capacity-provider"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "tag:NAME"), "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, "soci"), "%s", err.msg);
	group_key_cleanup(&k);

	err_clear(&err);
	cr_expect_eq(group_key_parse("tag:", &k, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect_not_null(strstr(err.msg, "tag name"), "%s", err.msg);
	err_clear(&err);
	cr_expect_eq(group_key_parse("", &k, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
}

Test(group, values_of_a_full_task)
{
	struct task t;
	char buf[128];

	full_task(&t);
	cr_expect_str_eq(value_of(&t, "family", buf, sizeof buf), "rerank-api");
	cr_expect_str_eq(value_of(&t, "taskdef", buf, sizeof buf), "rerank-api:8");
	cr_expect_str_eq(value_of(&t, "service", buf, sizeof buf), "rerank");
	cr_expect_str_eq(value_of(&t, "started-by", buf, sizeof buf), "ecs-svc/1234567890123456789");
	cr_expect_str_eq(value_of(&t, "deployment", buf, sizeof buf), "ecs-svc/1234567890123456789");
	cr_expect_str_eq(value_of(&t, "image", buf, sizeof buf),
			 "123456789012.dkr.ecr.us-east-1.amazonaws.com/rerank:2.1");
	cr_expect_str_eq(value_of(&t, "digest", buf, sizeof buf), "sha256:aaaa");
	cr_expect_str_eq(value_of(&t, "platform", buf, sizeof buf), "1.4.0");
	cr_expect_str_eq(value_of(&t, "launch-type", buf, sizeof buf), "FARGATE");
	cr_expect_str_eq(value_of(&t, "capacity-provider", buf, sizeof buf), "FARGATE_SPOT");
	cr_expect_str_eq(value_of(&t, "az", buf, sizeof buf), "us-east-1b");
	cr_expect_str_eq(value_of(&t, "size", buf, sizeof buf), "1024/2048");
	cr_expect_str_eq(value_of(&t, "status", buf, sizeof buf), "RUNNING");
	cr_expect_str_eq(value_of(&t, "stop-code", buf, sizeof buf), "EssentialContainerExited");
	cr_expect_str_eq(value_of(&t, "source", buf, sizeof buf), "data/after.jsonl");
	cr_expect_str_eq(value_of(&t, "cluster", buf, sizeof buf), "prod");
	cr_expect_str_eq(value_of(&t, "tag:team", buf, sizeof buf), "search");
	cr_expect_str_eq(value_of(&t, "tag:missing", buf, sizeof buf), GROUP_NONE);
	cr_expect_str_eq(value_of(&t, "soci", buf, sizeof buf), "unknown");
	task_cleanup(&t);
}

Test(group, values_of_a_task_missing_everything)
{
	static const char *keys[] = {
		"family", "taskdef", "service", "started-by", "deployment", "image", "digest",
		"platform", "launch-type", "capacity-provider", "az", "size", "status",
		"stop-code", "source", "cluster", "tag:team",
	};
	struct group_key all = { GK_ALL, NULL };
	struct task t;
	char buf[64];

	bare_task(&t);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		cr_expect_str_eq(value_of(&t, keys[i], buf, sizeof buf), GROUP_NONE, "%s", keys[i]);
	cr_expect_str_eq(value_of(&t, "soci", buf, sizeof buf), "unknown");
	cr_expect_str_eq(group_value(&t, &all, buf, sizeof buf), "all");
	task_cleanup(&t);
}

Test(group, deployment_only_for_service_tasks)
{
	struct task t;
	char buf[64];

	bare_task(&t);
	task_str(&t, &task_edit_profile(&t)->started_by, "nightly-batch");
	task_derive(&t);
	cr_expect_str_eq(value_of(&t, "started-by", buf, sizeof buf), "nightly-batch");
	cr_expect_str_eq(value_of(&t, "deployment", buf, sizeof buf), GROUP_NONE);
	task_cleanup(&t);
}

Test(group, size_with_one_half_missing)
{
	struct task t;
	char buf[64];

	bare_task(&t);
	task_str(&t, &task_edit_profile(&t)->cpu, "256");
	cr_expect_str_eq(value_of(&t, "size", buf, sizeof buf), "256/?");
	task_cleanup(&t);
}

/* ---- SOCI ---- */

static struct task *
add(struct task_set *s, struct task *t)
{
	return task_set_take(s, t);
}

static void
parse_rules(struct soci_rule *rules, const char **texts, size_t n)
{
	struct err err;

	for (size_t i = 0; i < n; i++) {
		err_clear(&err);
		cr_assert_eq(soci_rule_parse(texts[i], &rules[i], &err), 0, "%s: %s", texts[i],
			     err.msg);
	}
}

static void
set_arn(struct task *t, const char *id)
{
	task_set_arnf(t, "arn:aws:ecs:us-east-1:123456789012:task/prod/%s", id);
	task_derive(t);
}

Test(group, soci_no_evidence_is_unknown)
{
	struct task_set s;
	struct task t;

	task_set_init(&s);
	full_task(&t);
	add(&s, &t);
	bare_task(&t);
	add(&s, &t);
	group_apply_soci(NULL, &s, NULL, 0);
	for (size_t i = 0; i < s.len; i++) {
		cr_expect_eq(s.tasks[i].soci, SOCI_UNKNOWN);
		cr_expect_eq(s.tasks[i].soci_evidence, SOCI_EVIDENCE_NONE);
	}
	task_set_cleanup(&s);
}

Test(group, soci_rules)
{
	const char *texts[] = { "taskdef=rerank-api:8", "tag:soci=true" };
	struct soci_rule rules[2];
	struct task_set s;
	struct task t;

	parse_rules(rules, texts, 2);
	task_set_init(&s);

	full_task(&t);                        /* taskdef matches */
	set_arn(&t, "a");
	add(&s, &t);

	full_task(&t);                        /* other revision, but tagged soci=true */
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:123456789012:task-definition/rerank-api:7");
	set_arn(&t, "b");
	add(&s, &t);

	full_task(&t);                        /* neither */
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:123456789012:task-definition/rerank-api:7");
	{
		/* the shared array is never written: a copy of it, changed, shared again */
		struct tag g[2] = { t.prof->tags[0], t.prof->tags[1] };

		task_str(&t, &g[1].value, "false");
		task_share_tags(&t, g, 2);
	}
	set_arn(&t, "c");
	add(&s, &t);

	bare_task(&t);                        /* missing every field */
	add(&s, &t);

	group_apply_soci(NULL, &s, rules, 2);
	cr_expect_eq(s.tasks[0].soci, SOCI_YES);
	cr_expect_eq(s.tasks[0].soci_evidence, SOCI_EVIDENCE_RULE);
	cr_expect_eq(s.tasks[1].soci, SOCI_YES);
	cr_expect_eq(s.tasks[1].soci_evidence, SOCI_EVIDENCE_RULE);
	cr_expect_eq(s.tasks[2].soci, SOCI_NO);
	cr_expect_eq(s.tasks[2].soci_evidence, SOCI_EVIDENCE_RULE);
	cr_expect_eq(s.tasks[3].soci, SOCI_NO);
	cr_expect_eq(s.tasks[3].soci_evidence, SOCI_EVIDENCE_RULE);
	cr_expect_str_eq(soci_label_name(s.tasks[2].soci), "no-soci");
	cr_expect_str_eq(soci_evidence_name(s.tasks[2].soci_evidence), "rule");

	task_set_cleanup(&s);
	for (size_t i = 0; i < 2; i++)
		soci_rule_cleanup(&rules[i]);
}

Test(group, soci_rule_globs_and_missing_values)
{
	const char *texts[] = { "tag:soci=*", "taskdef=rerank-*:1?" };
	struct soci_rule rules[2];
	struct task_set s;
	struct task t;

	parse_rules(rules, texts, 2);
	task_set_init(&s);
	bare_task(&t);                        /* no tag at all: "*" must not claim it */
	set_arn(&t, "untagged");
	add(&s, &t);
	bare_task(&t);
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:1:task-definition/rerank-api:12");
	set_arn(&t, "rev12");
	add(&s, &t);
	bare_task(&t);
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:1:task-definition/rerank-api:8");
	set_arn(&t, "rev8");
	add(&s, &t);

	group_apply_soci(NULL, &s, rules, 2);
	cr_expect_eq(s.tasks[0].soci, SOCI_NO);
	cr_expect_eq(s.tasks[1].soci, SOCI_YES);
	cr_expect_eq(s.tasks[2].soci, SOCI_NO);
	task_set_cleanup(&s);
	for (size_t i = 0; i < 2; i++)
		soci_rule_cleanup(&rules[i]);
}

Test(group, soci_rule_on_source_base_name)
{
	const char *texts[] = { "source=after.jsonl" };
	struct soci_rule rule;
	struct task_set s;
	struct task t;

	parse_rules(&rule, texts, 1);
	task_set_init(&s);
	full_task(&t);                        /* source "data/after.jsonl" */
	add(&s, &t);
	full_task(&t);
	task_str(&t, &task_edit_profile(&t)->source, "data/before.jsonl");
	set_arn(&t, "before");
	add(&s, &t);
	group_apply_soci(NULL, &s, &rule, 1);
	cr_expect_eq(s.tasks[0].soci, SOCI_YES);
	cr_expect_eq(s.tasks[1].soci, SOCI_NO);
	task_set_cleanup(&s);
	soci_rule_cleanup(&rule);
}

Test(group, soci_metadata_beats_rules)
{
	const char *texts[] = { "taskdef=rerank-api:8" };
	struct soci_rule rule;
	struct task_set s;
	struct task t;

	parse_rules(&rule, texts, 1);
	task_set_init(&s);

	/* matches the rule, but the metadata says overlayfs for every container */
	full_task(&t);
	set_arn(&t, "overlay");
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->snapshotter, "overlayfs");
	task_str(&t, &container_edit_profile(&t, &t.containers[1])->snapshotter, "overlayfs");
	add(&s, &t);

	/* matches no rule, but one container was lazy-loaded */
	full_task(&t);
	set_arn(&t, "soci");
	task_str(&t, &task_edit_profile(&t)->taskdef_arn, "arn:aws:ecs:us-east-1:1:task-definition/other:1");
	task_derive(&t);
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->snapshotter, "soci");
	task_str(&t, &container_edit_profile(&t, &t.containers[1])->snapshotter, "overlayfs");
	add(&s, &t);

	/* an unrecognised snapshotter proves nothing: the rule decides */
	full_task(&t);
	set_arn(&t, "stargz");
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->snapshotter, "stargz");
	add(&s, &t);

	group_apply_soci(NULL, &s, &rule, 1);
	cr_expect_eq(s.tasks[0].soci, SOCI_NO);
	cr_expect_eq(s.tasks[0].soci_evidence, SOCI_EVIDENCE_METADATA);
	cr_expect_eq(s.tasks[1].soci, SOCI_YES);
	cr_expect_eq(s.tasks[1].soci_evidence, SOCI_EVIDENCE_METADATA);
	cr_expect_eq(s.tasks[2].soci, SOCI_YES);
	cr_expect_eq(s.tasks[2].soci_evidence, SOCI_EVIDENCE_RULE);

	/* without rules, metadata still decides; the rest is unknown */
	group_apply_soci(NULL, &s, NULL, 0);
	cr_expect_eq(s.tasks[0].soci, SOCI_NO);
	cr_expect_eq(s.tasks[1].soci, SOCI_YES);
	cr_expect_eq(s.tasks[2].soci, SOCI_UNKNOWN);
	cr_expect_str_eq(soci_evidence_name(s.tasks[0].soci_evidence), "metadata");
	cr_expect_str_eq(soci_evidence_name(s.tasks[2].soci_evidence), "none");

	/* and group-by soci sees the labels */
	{
		struct group_key k = { GK_SOCI, NULL };
		char buf[32];

		cr_expect_str_eq(group_value(&s.tasks[0], &k, buf, sizeof buf), "no-soci");
		cr_expect_str_eq(group_value(&s.tasks[1], &k, buf, sizeof buf), "soci");
		cr_expect_str_eq(group_value(&s.tasks[2], &k, buf, sizeof buf), "unknown");
	}
	task_set_cleanup(&s);
	soci_rule_cleanup(&rule);
}

Test(group, soci_rule_parse_errors)
{
	static const struct {
		const char *text;
		const char *says;
	} bad[] = {
		{ "taskdef", "KEY=GLOB" },
		{ "=web:8", "unknown group key" },
		{ "colour=red", "valid keys" },
		{ "soci=yes", "cannot test the soci label" },
		{ "taskdef=", "empty" },
		{ "tag:=x", "tag name" },
	};
	struct soci_rule r;
	struct err err;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err_clear(&err);
		cr_expect_eq(soci_rule_parse(bad[i].text, &r, &err), -1, "%s", bad[i].text);
		cr_expect_eq(err.code, ERR_USAGE, "%s", bad[i].text);
		cr_expect_not_null(strstr(err.msg, bad[i].says), "%s -> %s", bad[i].text, err.msg);
		soci_rule_cleanup(&r);
	}
	/* a glob may itself contain '=' */
	err_clear(&err);
	cr_assert_eq(soci_rule_parse("tag:flags=a=b*", &r, &err), 0, "%s", err.msg);
	cr_expect_eq(r.key.kind, GK_TAG);
	cr_expect_str_eq(r.key.tag, "flags");
	cr_expect_str_eq(r.glob, "a=b*");
	soci_rule_cleanup(&r);
}

/* A set large enough that its second half is labelled on a second thread
 * (SOCI_THREADED_MIN): every task gets its own label, those on both sides of the split
 * alike. */
Test(group, soci_rules_on_a_large_set)
{
	const char *texts[] = { "taskdef=rerank-api:8" };
	struct soci_rule rules[1];
	struct task_set s;
	struct task t;
	char id[32];
	size_t n = 40000;

	parse_rules(rules, texts, 1);
	task_set_init(&s);
	for (size_t i = 0; i < n; i++) {
		full_task(&t);
		if (i % 3 == 0)
			task_str(&t, &task_edit_profile(&t)->taskdef_arn,
				 "arn:aws:ecs:us-east-1:123456789012:task-definition/rerank-api:7");
		snprintf(id, sizeof id, "%zx", i);
		set_arn(&t, id);
		add(&s, &t);
	}
	cr_assert_eq(s.len, n);
	group_apply_soci(NULL, &s, rules, 1);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(s.tasks[i].soci, i % 3 == 0 ? SOCI_NO : SOCI_YES, "task %zu", i);
		cr_assert_eq(s.tasks[i].soci_evidence, SOCI_EVIDENCE_RULE, "task %zu", i);
	}
	task_set_cleanup(&s);
	soci_rule_cleanup(&rules[0]);
}
