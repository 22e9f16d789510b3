/* group: grouping keys, their values per task, and the SOCI label with its evidence. */
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/buf.h"
#include "ecsprof/group.h"
#include "ecsprof/image.h"
#include "ecsprof/log.h"
#include "ecsprof/ncpu.h"
#include "ecsprof/xalloc.h"

/* The names users type, in the order the error message and the man page list them. */
static const struct {
	enum group_key_kind kind;
	const char *name;
} group_key_names[] = {
	{ GK_FAMILY,            "family" },
	{ GK_TASKDEF,           "taskdef" },
	{ GK_SERVICE,           "service" },
	{ GK_STARTED_BY,        "started-by" },
	{ GK_DEPLOYMENT,        "deployment" },
	{ GK_IMAGE,             "image" },
	{ GK_DIGEST,            "digest" },
	{ GK_PLATFORM,          "platform" },
	{ GK_LAUNCH_TYPE,       "launch-type" },
	{ GK_CAPACITY_PROVIDER, "capacity-provider" },
	{ GK_AZ,                "az" },
	{ GK_SIZE,              "size" },
	{ GK_STATUS,            "status" },
	{ GK_STOP_CODE,         "stop-code" },
	{ GK_SOURCE,            "source" },
	{ GK_CLUSTER,           "cluster" },
	{ GK_TAG,               "tag:NAME" },
	{ GK_SOCI,              "soci" },
	{ GK_SOCI_INDEX,        "soci-index" },
	{ GK_SOCI_ADVICE,       "soci-advice" },
	{ GK_COMPRESSION,       "compression" },
	{ GK_REGISTRY,          "registry" },
};
#define GROUP_NKEYS (sizeof group_key_names / sizeof group_key_names[0])

#define TAG_PREFIX "tag:"
/* The prefix ECS puts in startedBy for tasks a service deployment launched. */
#define DEPLOYMENT_PREFIX "ecs-svc/"

const char *
group_key_name(size_t i)
{
	return i < GROUP_NKEYS ? group_key_names[i].name : NULL;
}

static int
group_key_unknown(const char *s, struct err *err)
{
	struct buf b;
	int rc;

	buf_init(&b, 1024);
	for (size_t i = 0; i < GROUP_NKEYS; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", group_key_names[i].name);
	rc = err_set(err, ERR_USAGE, "unknown group key '%s'; valid keys: %s", s, buf_str(&b));
	buf_cleanup(&b);
	return rc;
}

int
group_key_parse(const char *s, struct group_key *out, struct err *err)
{
	out->kind = GK_ALL;
	out->tag = NULL;
	if (s == NULL || *s == '\0')
		return group_key_unknown("", err);
	if (strncasecmp(s, TAG_PREFIX, strlen(TAG_PREFIX)) == 0) {
		const char *name = s + strlen(TAG_PREFIX);

		if (*name == '\0')
			return err_set(err, ERR_USAGE,
				       "group key '%s' needs a tag name, e.g. tag:team", s);
		out->kind = GK_TAG;
		/* tag keys are case-sensitive in ECS: keep the name as typed */
		out->tag = xstrdup(name);
		return 0;
	}
	for (size_t i = 0; i < GROUP_NKEYS; i++) {
		if (group_key_names[i].kind == GK_TAG)
			continue;
		if (strcasecmp(s, group_key_names[i].name) == 0) {
			out->kind = group_key_names[i].kind;
			return 0;
		}
	}
	return group_key_unknown(s, err);
}

void
group_key_cleanup(struct group_key *k)
{
	free(k->tag);
	k->tag = NULL;
	k->kind = GK_ALL;
}

/* NULL and "" both mean the task lacks the value */
static const char *
group_or_none(const char *v)
{
	return v != NULL && *v != '\0' ? v : NULL;
}

/* The image's registry host: "123456789012.dkr.ecr.us-east-1.amazonaws.com" */
static const char *
registry_of(const struct task *t, char *buf, size_t size)
{
	struct image_ref r;
	const char *img = task_image(t);

	if (img == NULL || image_ref_parse(img, &r) != 0)
		return NULL;
	snprintf(buf, size, "%s", r.registry);
	image_ref_cleanup(&r);
	return buf;
}

static const char *
image_key_value(const struct task *t, const struct group_key *k, const struct image_set *s)
{
	struct image_task_info in;
	const char *v = NULL;

	image_task_info(s, t, &in);
	if (k->kind == GK_SOCI_INDEX)
		v = image_soci_name(in.soci);
	else if (k->kind == GK_SOCI_ADVICE)
		v = soci_advice_name(in.advice);
	else if (in.compression[0] != '\0')
		v = strcmp(in.compression, "gzip") == 0 ? "gzip" :
		    strcmp(in.compression, "zstd") == 0 ? "zstd" :
		    strcmp(in.compression, "none") == 0 ? "none" : "mixed";
	return v != NULL && *v != '\0' ? v : NULL;
}

/* The raw value, or NULL when missing; buf holds built values. */
static const char *
group_raw_value(const struct task *t, const struct group_key *k, const struct image_set *images,
		char *buf, size_t size)
{
	switch (k->kind) {
	case GK_ALL:
		return "all";
	case GK_FAMILY:
		return group_or_none(t->prof->family);
	case GK_TASKDEF:
		return group_or_none(t->prof->taskdef);
	case GK_SERVICE:
		return group_or_none(t->prof->service);
	case GK_STARTED_BY:
		return group_or_none(t->prof->started_by);
	case GK_DEPLOYMENT:
		if (t->prof->started_by != NULL &&
		    strncmp(t->prof->started_by, DEPLOYMENT_PREFIX, strlen(DEPLOYMENT_PREFIX)) == 0 &&
		    t->prof->started_by[strlen(DEPLOYMENT_PREFIX)] != '\0')
			return t->prof->started_by;
		return NULL;
	case GK_IMAGE:
		return group_or_none(task_image(t));
	case GK_DIGEST: {
		struct digest_buf d;
		const char *v = task_image_digest(t, &d);

		if (v == d.s) {   /* built: the caller's to keep */
			snprintf(buf, size, "%s", v);
			v = buf;
		}
		return group_or_none(v);
	}
	case GK_PLATFORM:
		return group_or_none(t->prof->platform_version);
	case GK_LAUNCH_TYPE:
		return group_or_none(t->prof->launch_type);
	case GK_CAPACITY_PROVIDER:
		return group_or_none(t->prof->capacity_provider);
	case GK_AZ:
		return group_or_none(t->prof->availability_zone);
	case GK_SIZE: {
		const char *cpu = group_or_none(t->prof->cpu), *mem = group_or_none(t->prof->memory);

		if (cpu == NULL && mem == NULL)
			return NULL;
		/* half a size still separates tasks; "?" marks the missing half */
		snprintf(buf, size, "%s/%s", cpu ? cpu : "?", mem ? mem : "?");
		return buf;
	}
	case GK_STATUS:
		return group_or_none(t->prof->last_status);
	case GK_STOP_CODE:
		return group_or_none(t->prof->stop_code);
	case GK_SOURCE:
		return group_or_none(t->prof->source);
	case GK_CLUSTER:
		return group_or_none(t->prof->cluster);
	case GK_TAG:
		return k->tag != NULL ? group_or_none(task_tag(t, k->tag)) : NULL;
	case GK_SOCI:
		return soci_label_name(t->soci);
	case GK_SOCI_INDEX:
	case GK_SOCI_ADVICE:
	case GK_COMPRESSION:
		return image_key_value(t, k, images);
	case GK_REGISTRY:
		return registry_of(t, buf, size);
	}
	return NULL;
}

const char *
group_value(const struct task *t, const struct group_key *k, char *buf, size_t size)
{
	return group_value_images(t, k, NULL, buf, size);
}

const char *
group_value_images(const struct task *t, const struct group_key *k,
		   const struct image_set *images, char *buf, size_t size)
{
	const char *v = group_raw_value(t, k, images, buf, size);

	return v != NULL ? v : GROUP_NONE;
}

int
soci_rule_parse(const char *s, struct soci_rule *out, struct err *err)
{
	const char *eq = s != NULL ? strchr(s, '=') : NULL;
	char *key;
	int rc;

	out->key.kind = GK_ALL;
	out->key.tag = NULL;
	out->glob = NULL;
	if (eq == NULL)
		return err_set(err, ERR_USAGE,
			       "--soci-if '%s': expected KEY=GLOB, e.g. taskdef='web:8'",
			       s != NULL ? s : "");
	if (eq[1] == '\0')
		return err_set(err, ERR_USAGE, "--soci-if '%s': the pattern after '=' is empty", s);
	key = xstrndup(s, (size_t)(eq - s));
	rc = group_key_parse(key, &out->key, err);
	free(key);
	if (rc < 0)
		return err_prefix(err, "--soci-if '%s'", s);
	if (out->key.kind == GK_SOCI) {
		group_key_cleanup(&out->key);
		return err_set(err, ERR_USAGE,
			       "--soci-if '%s': a rule cannot test the soci label it sets", s);
	}
	out->glob = xstrdup(eq + 1);
	return 0;
}

void
soci_rule_cleanup(struct soci_rule *r)
{
	group_key_cleanup(&r->key);
	free(r->glob);
	r->glob = NULL;
}

/* A task lacking the key's value matches no rule: "--soci-if tag:soci=*" must not
 * claim tasks that carry no such tag. Sources also match on their base name, so
 * "source=after.jsonl" works for "data/after.jsonl". */
static bool
soci_rule_matches(const struct soci_rule *r, const struct task *t)
{
	char buf[256];
	const char *v = group_raw_value(t, &r->key, NULL, buf, sizeof buf);

	if (v == NULL)
		return false;
	if (fnmatch(r->glob, v, 0) == 0)
		return true;
	if (r->key.kind == GK_SOURCE) {
		const char *slash = strrchr(v, '/');

		if (slash != NULL && fnmatch(r->glob, slash + 1, 0) == 0)
			return true;
	}
	return false;
}

/* What task metadata's Snapshotter proves: SOCI_YES when any container was lazy-loaded
 * by soci, SOCI_NO when every container that reports a snapshotter used overlayfs, and
 * SOCI_UNKNOWN when none reports one (or reports something else). */
static enum soci_label
soci_from_metadata(const struct task *t)
{
	size_t known = 0, overlay = 0;

	for (size_t i = 0; i < t->ncontainers; i++) {
		const char *s = t->containers[i].prof->snapshotter;

		if (s == NULL || *s == '\0')
			continue;
		known++;
		if (strcasecmp(s, "soci") == 0)
			return SOCI_YES;
		if (strcasecmp(s, "overlayfs") == 0)
			overlay++;
	}
	return known > 0 && overlay == known ? SOCI_NO : SOCI_UNKNOWN;
}

/* What ECR shows for the digest the task ran: a v2 index (SOCI_YES), none (SOCI_NO), or
 * nothing to say (no facts, or only a v1 index, which current snapshotters ignore). */
static enum soci_label
soci_from_ecr(const struct task *t, const struct image_set *images)
{
	struct image_task_info in;

	if (images == NULL)
		return SOCI_UNKNOWN;
	image_task_info(images, t, &in);
	if (in.soci == IMAGE_SOCI_V2)
		return SOCI_YES;
	if (in.soci == IMAGE_SOCI_NONE)
		return SOCI_NO;
	return SOCI_UNKNOWN;
}

static bool
soci_rules_match(const struct soci_rule *rules, size_t nrules, const struct task *t)
{
	for (size_t j = 0; j < nrules; j++)
		if (soci_rule_matches(&rules[j], t))
			return true;
	return false;
}

/* The labels of tasks [from, to): each written only here, so two ranges run at once. */
struct soci_range {
	struct task_set *s;
	const struct soci_rule *rules;
	size_t nrules, from, to;
	size_t contradicted;
	const char *example;   /* the first contradicted task's id in the range */
};

static void *
soci_label_range(void *arg)
{
	struct soci_range *r = arg;
	const struct soci_rule *rules = r->rules;
	size_t nrules = r->nrules;

	for (size_t i = r->from; i < r->to; i++) {
		struct task *t = &r->s->tasks[i];
		enum soci_label l = soci_from_metadata(t);

		if (l != SOCI_UNKNOWN) {
			t->soci = l;
			t->soci_evidence = SOCI_EVIDENCE_METADATA;
			continue;
		}
		if ((l = soci_from_ecr(t, r->s->images)) != SOCI_UNKNOWN) {
			t->soci = l;
			t->soci_evidence = SOCI_EVIDENCE_ECR;
			if (nrules > 0 && soci_rules_match(rules, nrules, t) != (l == SOCI_YES)) {
				r->contradicted++;
				r->example = r->example ? r->example : task_id(t);
			}
			continue;
		}
		if (nrules == 0) {
			t->soci = SOCI_UNKNOWN;
			t->soci_evidence = SOCI_EVIDENCE_NONE;
			continue;
		}
		t->soci = SOCI_NO;
		t->soci_evidence = SOCI_EVIDENCE_RULE;
		for (size_t j = 0; j < nrules; j++) {
			if (soci_rule_matches(&rules[j], t)) {
				t->soci = SOCI_YES;
				break;
			}
		}
	}
	return NULL;
}

/* From this many tasks the second half is labelled on a second thread: the pass reads
 * every task and its containers' profiles after the read, on the main thread alone
 * otherwise (1M tasks: 0.05-0.16 s, issue 35 item 2b). */
#define SOCI_THREADED_MIN 32768

void
group_apply_soci(const struct log *lg, struct task_set *s, const struct soci_rule *rules, size_t nrules)
{
	struct soci_range half[2] = {
		{ s, rules, nrules, 0, s->len, 0, NULL },
		{ s, rules, nrules, s->len, s->len, 0, NULL },
	};
	size_t contradicted;
	const char *example;
	pthread_t tid;
	bool threaded = false;

	if (s->len >= SOCI_THREADED_MIN && ncpu_usable() >= 2) {
		half[0].to = half[1].from = s->len / 2;
		threaded = pthread_create(&tid, NULL, soci_label_range, &half[1]) == 0;
		if (!threaded)
			half[0].to = s->len;
	}
	soci_label_range(&half[0]);
	if (threaded)
		pthread_join(tid, NULL);
	contradicted = half[0].contradicted + half[1].contradicted;
	example = half[0].example ? half[0].example : half[1].example;
	if (contradicted > 0)
		log_warn(lg, "--soci-if: %zu task%s (e.g. %s) labelled otherwise by the rules than ECR "
			 "shows; ECR's SOCI index decides (soci_evidence ecr)", contradicted,
			 contradicted == 1 ? "" : "s", example);
}

const char *
soci_label_name(enum soci_label l)
{
	switch (l) {
	case SOCI_YES:
		return "soci";
	case SOCI_NO:
		return "no-soci";
	case SOCI_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *
soci_evidence_name(enum soci_evidence e)
{
	switch (e) {
	case SOCI_EVIDENCE_METADATA:
		return "metadata";
	case SOCI_EVIDENCE_RULE:
		return "rule";
	case SOCI_EVIDENCE_ECR:
		return "ecr";
	case SOCI_EVIDENCE_NONE:
		break;
	}
	return "none";
}
