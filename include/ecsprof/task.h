/* task: the in-memory model of one ECS task (as DescribeTasks describes it) and the set
 * of tasks a run works on, merged by task ARN from any number of inputs.
 * Ownership: a task_set owns its tasks and every string in them; strings in a struct task
 * are owned by that task (NULL when absent) and freed by task_cleanup(), except in a task
 * with t->pool set (every task held by a set), whose strings belong to that string pool:
 * read-only, shared between tasks, freed with the pool (task_set_cleanup() for a set's). */
#ifndef ECSPROF_TASK_H
#define ECSPROF_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/timeutil.h"

/* The lifecycle timestamps of an ECS Task, in ms since the epoch, TS_NONE when absent. */
enum ts_field {
	TS_CREATED,
	TS_CONNECTIVITY,
	TS_PULL_STARTED,
	TS_PULL_STOPPED,
	TS_STARTED,
	TS_STOPPING,
	TS_EXECUTION_STOPPED,
	TS_STOPPED,
	TS_HEALTHY,          /* not an ECS field: when the task was first HEALTHY (health.h) */
	TS_COUNT
};

struct ts_def {
	enum ts_field id;
	const char *json_name;  /* ECS member name: "createdAt" */
	const char *meta_name;  /* task metadata v4 name: "PullStartedAt"; NULL if none */
	const char *csv_name;   /* "created_at" */
};
extern const struct ts_def ts_defs[TS_COUNT];

/* A fact an input may or may not state. */
enum tri { TRI_UNKNOWN, TRI_NO, TRI_YES };

enum soci_label { SOCI_UNKNOWN, SOCI_YES, SOCI_NO };
enum soci_evidence { SOCI_EVIDENCE_NONE, SOCI_EVIDENCE_METADATA, SOCI_EVIDENCE_RULE };

struct container {
	char *name;
	char *image;
	char *image_digest;
	char *last_status;
	char *reason;
	char *snapshotter;   /* task metadata v4 only: "soci", "overlayfs"; NULL if unknown */
	char *health_status; /* healthStatus / metadata Health.status: HEALTHY, UNHEALTHY, ... */
	bool has_exit_code;
	int exit_code;
	bool has_health_since;   /* metadata Health.statusSince */
	int64_t health_since_ms;
	enum tri essential;      /* metadata "Essential" where a document has it */
};

struct tag {
	char *key;
	char *value;
};

/* A set's interned strings: most repeat across tasks (cluster, task definition, image,
 * statuses), so a set keeps one copy of each distinct text. Private to task.c. */
struct task_strpool;

struct task {
	/* as ECS names them */
	char *arn;
	char *cluster_arn;
	char *taskdef_arn;
	char *group;             /* ECS "group": "service:web" or "family:web" */
	char *started_by;        /* "ecs-svc/123..." for service tasks */
	char *launch_type;
	char *platform_version;
	char *platform_family;
	char *capacity_provider;
	char *availability_zone;
	char *cpu;               /* strings in the API: "256", "1 vCPU" */
	char *memory;
	char *last_status;
	char *desired_status;
	char *stop_code;
	char *stopped_reason;
	char *health_status;
	char *cpu_arch;          /* attribute ecs.cpu-architecture: "x86_64", "arm64" */
	bool has_version;
	int64_t version;
	int64_t ts[TS_COUNT];

	struct container *containers;
	size_t ncontainers;
	struct tag *tags;
	size_t ntags;

	/* network facts for the diagnosis (input_serving.c): an ENI attachment (awsvpc) and
	 * a public IPv4 address in its details */
	enum tri awsvpc;
	enum tri public_ip;
	/* ts[TS_HEALTHY] seen by a poll rather than stated by task metadata: then true, with
	 * the poll interval as its resolution (how late it may be) */
	bool healthy_observed;
	int64_t healthy_resolution_ms;

	/* derived by task_derive() from the above; never NULL after it ran */
	char *id;                /* last ARN segment */
	char *cluster;           /* cluster short name, "" if unknown */
	char *service;           /* from group "service:NAME", "" if not a service task */
	char *family;            /* task definition family, "" if unknown */
	char *taskdef;           /* "family:revision", "" if unknown */

	/* where it came from */
	char *source;            /* input file name, "-" for stdin, or "live" */
	int64_t fetched_at_ms;   /* recordings: when it was fetched; TS_NONE otherwise */
	bool from_metadata;      /* a task metadata v4 document contributed to this task */

	/* set by group_apply_soci() */
	enum soci_label soci;
	enum soci_evidence soci_evidence;

	/* NULL: the strings are the task's own. Else the pool (a task_set's, or one from
	 * task_strpool_new()) that owns them: never free or write them; task_cleanup() frees
	 * only the containers and tags arrays. */
	struct task_strpool *pool;
};

struct task_set {
	struct task *tasks;
	size_t len;
	size_t cap;
	/* open-addressing index of arn: index_cap pairs (position + 1, hash); private to
	 * task.c */
	size_t *index;
	size_t index_cap;
	/* every string of every task in the set (NULL until the first task_set_take()) */
	struct task_strpool *pool;
};

/* Where a task stands: the one answer every output (table, TUI, watch, phases) reads,
 * so that no two of them can disagree about a task. */
enum task_stage {
	STAGE_UNKNOWN,        /* no createdAt, and no status that says more */
	STAGE_PROVISION,      /* createdAt: capacity, ENI, agent (PROVISIONING, PENDING) */
	STAGE_PULL,           /* pullStartedAt, no pullStoppedAt yet */
	STAGE_START,          /* pullStoppedAt, not RUNNING yet */
	STAGE_RUNNING,        /* startedAt, or lastStatus RUNNING */
	STAGE_STOPPED,        /* stopping or stopped after it ran */
	STAGE_FAILED,         /* stopping or stopped without ever running, or stop code
				 TaskFailedToStart: a failed start */
	STAGE_COUNT
};
extern const char *const task_stage_names[STAGE_COUNT];   /* "provision", ..., "failed" */

/* The task's stage and, in *since_ms (may be NULL), when that stage began (ms since the
 * epoch; TS_NONE when the data does not say). A task is on its way down from the first
 * sign of it: stoppingAt, executionStoppedAt or stoppedAt, a stop code or reason, or
 * lastStatus DEACTIVATING, STOPPING, DEPROVISIONING or STOPPED; it then is STAGE_FAILED
 * when it never had a startedAt (or ECS says TaskFailedToStart), else STAGE_STOPPED. */
enum task_stage task_stage(const struct task *t, int64_t *since_ms);
/* True for STAGE_PROVISION, STAGE_PULL and STAGE_START: still starting. */
bool task_stage_is_starting(enum task_stage s);
/* ECS is done with the task: lastStatus STOPPED or a stoppedAt. A stage says where a task
 * is; this says whether it can still change. */
bool task_is_final(const struct task *t);

void task_init(struct task *t);       /* zeroes, all ts = TS_NONE */
void task_cleanup(struct task *t);
/* Fills the derived fields (id, cluster, service, family, taskdef); call after parsing.
 * On a task held by a set the derived strings come from the set's pool. */
void task_derive(struct task *t);
/* The first container's image/digest, or NULL. */
const char *task_image(const struct task *t);
const char *task_image_digest(const struct task *t);
const char *task_tag(const struct task *t, const char *key);
/* Deep copy into dst (initialised by this call); dst owns its strings even when src is
 * held by a set. */
void task_copy(struct task *dst, const struct task *src);

/* A pool of one's own, for tasks made in bulk before a set takes them (the input reader's
 * worker threads): set t->pool and fill t's strings with task_strpool_assign(); then
 * task_cleanup() frees only t's arrays, and task_strpool_free() every string at once. */
struct task_strpool *task_strpool_new(void);
/* Points *dst at the pool's copy of the n bytes at s (NUL-terminated there; not freed
 * before the pool). */
void task_strpool_assign(struct task_strpool *p, char **dst, const char *s, size_t n);
void task_strpool_free(struct task_strpool *p);

void task_set_init(struct task_set *s);
void task_set_cleanup(struct task_set *s);
struct task *task_set_find(struct task_set *s, const char *arn);
/* Adds t, taking ownership of its contents (t is zeroed). Its strings move into the
 * set's pool: its own are freed where the pool holds the same text already; those of a
 * pool from task_strpool_new() (t->pool) are copied, and that pool stays the caller's. To
 * add a task held by another set, take a task_copy() of it. The derived fields are
 * computed again. A task whose ARN is already in the set is merged: the newer state
 * wins (higher version, else later fetched_at_ms, else more timestamps, else the later
 * arrival) and fields only one side has are kept (e.g. metadata Snapshotter onto a
 * DescribeTasks task). A task without ARN is added as is. Returns the task in the set. */
struct task *task_set_take(struct task_set *s, struct task *t);
/* Removes tasks for which keep() returns false; keeps order. Their strings stay in the
 * pool until task_set_cleanup(). */
void task_set_filter(struct task_set *s, bool (*keep)(const struct task *, void *), void *ctx);

#endif
