/* group: grouping keys (--group-by), the value of a key for a task, and the SOCI label
 * with its evidence (--soci-if rules, task metadata Snapshotter).
 * Ownership: a group_key / soci_rule owns its strings, freed by its _cleanup; values
 * returned by group_value() are borrowed from the task or from the caller's buffer. */
#ifndef ECSPROF_GROUP_H
#define ECSPROF_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/err.h"
#include "ecsprof/task.h"

#define GROUP_NONE "(none)"

enum group_key_kind {
	GK_ALL,               /* no --group-by: one group named "all" */
	GK_FAMILY,
	GK_TASKDEF,
	GK_SERVICE,
	GK_STARTED_BY,
	GK_DEPLOYMENT,
	GK_IMAGE,
	GK_DIGEST,
	GK_PLATFORM,
	GK_LAUNCH_TYPE,
	GK_CAPACITY_PROVIDER,
	GK_AZ,
	GK_SIZE,
	GK_STATUS,
	GK_STOP_CODE,
	GK_SOURCE,
	GK_CLUSTER,
	GK_TAG,
	GK_SOCI,
	GK_SOCI_INDEX,        /* image facts (image.h): v2, v1, none */
	GK_SOCI_ADVICE,
	GK_COMPRESSION,
	GK_REGISTRY,          /* the image's registry host */
};

struct group_key {
	enum group_key_kind kind;
	char *tag;            /* GK_TAG: the tag name */
};

/* "family", "tag:team", ... (names case-insensitive, tag names as typed); on error fills
 * err (ERR_USAGE) with the list of valid keys. size is "cpu/memory", "?" for a missing
 * half; deployment is startedBy when it is "ecs-svc/..."; platform is platformVersion. */
int group_key_parse(const char *s, struct group_key *out, struct err *err);
void group_key_cleanup(struct group_key *k);
/* The i-th key name as users type it ("family", ..., "tag:NAME"), NULL past the last:
 * for the shell completion. */
const char *group_key_name(size_t i);
/* The key's value for t, or GROUP_NONE when the task lacks it. buf is used when the
 * value has to be built (size, tag lookups...); the result is borrowed. */
const char *group_value(const struct task *t, const struct group_key *k, char *buf, size_t size);
/* The same with the run's image facts, which the image keys (soci-index, soci-advice,
 * compression) need; images may be NULL. */
struct image_set;
const char *group_value_images(const struct task *t, const struct group_key *k,
			       const struct image_set *images, char *buf, size_t size);

struct soci_rule {
	struct group_key key;
	char *glob;           /* fnmatch(3) pattern */
};
/* "KEY=GLOB" */
int soci_rule_parse(const char *s, struct soci_rule *out, struct err *err);
void soci_rule_cleanup(struct soci_rule *r);
/* Labels every task: metadata Snapshotter (proof) > ECR (s->images: SOCI_YES where a v2
 * index exists for the task's digest, SOCI_NO where ECR shows none; a rule that says
 * otherwise is one warning) > rules > unknown. With at least one
 * rule, a task matching none is SOCI_NO (evidence "rule").
 * Metadata: any container with Snapshotter "soci" -> SOCI_YES; every container that
 * reports one says "overlayfs" -> SOCI_NO; none reports one -> the rules decide.
 * Rules: fnmatch(3) on the key's value; a task lacking the value matches no rule (so
 * "tag:soci=*" does not claim untagged tasks); source also matches on its base name. */
struct log;   /* log.h: where a contradicted rule is said */
void group_apply_soci(const struct log *lg, struct task_set *s, const struct soci_rule *rules,
		      size_t nrules);
const char *soci_label_name(enum soci_label l);        /* "soci", "no-soci", "unknown" */
const char *soci_evidence_name(enum soci_evidence e);  /* "metadata", "rule", "none" */

#endif
