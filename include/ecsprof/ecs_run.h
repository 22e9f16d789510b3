/* ecs_run: the ECS calls that start and stop tasks (RunTask, StopTask) and that check a
 * task definition before it is run (DescribeTaskDefinition), for `ecsprof experiment`.
 * Ownership: requests are borrowed; every result (raw task JSON, failures, task
 * definition facts, request text) is the caller's, freed with the matching _cleanup() or
 * free(). */
#ifndef ECSPROF_ECS_RUN_H
#define ECSPROF_ECS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/ecs.h"
#include "ecsprof/err.h"

struct ecs_tag_kv {
	const char *key;
	const char *value;
};

struct ecs_run_request {
	const char *cluster;                 /* NULL: "default" */
	const char *taskdef;                 /* family, family:revision or ARN */
	long count;                          /* 1..10 */
	const char *launch_type;             /* "FARGATE", "EC2"; NULL with a capacity provider */
	const char *capacity_provider;       /* NULL: none */
	const char *platform_version;        /* NULL: LATEST */
	const char *const *subnets;          /* awsvpc; nsubnets 0: no networkConfiguration */
	size_t nsubnets;
	const char *const *security_groups;
	size_t nsecurity_groups;
	int assign_public_ip;                /* -1 unset, 0 DISABLED, 1 ENABLED */
	const char *started_by;
	const struct ecs_tag_kv *tags;
	size_t ntags;
	const char *client_token;            /* idempotency of this call's retries; NULL none */
};

/* The RunTask body as sent (compact) or indented for a person (--dry-run). Caller frees. */
char *ecs_run_request_json(const struct ecs_run_request *r, bool pretty);

struct ecs_failure {
	char *arn;
	char *reason;                        /* "RESOURCE:MEMORY", "Capacity is unavailable..." */
	char *detail;
};

struct ecs_run_result {
	char **tasks;                        /* each a raw Task object, compact JSON */
	size_t ntasks;
	struct ecs_failure *failures;
	size_t nfailures;
	int64_t answered_ms;                 /* when the answer arrived */
};

/* RunTask. A call that starts fewer tasks than asked is not an error: the missing ones
 * are in failures[]. */
int ecs_run_task(struct ecs_client *c, const struct ecs_run_request *r,
		 struct ecs_run_result *out, struct err *err);
void ecs_run_result_cleanup(struct ecs_run_result *r);

/* A RunTask failure worth asking again (capacity, resources, agent, throttling) rather
 * than a refusal that will not change (a missing task definition, a bad parameter). */
bool ecs_failure_retryable(const char *reason);

/* One task of ecs_stop_tasks(). */
struct ecs_stop_item {
	const char *arn;                /* in (borrowed) */
	bool stopped;                   /* out: StopTask answered */
	char *raw;                      /* out: the stopped Task object (caller frees) or NULL */
	int64_t answered_ms;            /* out: when; TS_NONE */
	int attempts_failed;            /* out: StopTask calls that failed (each after its
					 * own retries) */
	struct err err;                 /* out: the last failure, when not stopped */
};

struct ecs_stop_options {
	const char *cluster;
	const char *reason;
	int64_t deadline_ms;            /* epoch ms at which every request and wait ends;
					 * TS_NONE: none */
	void (*done)(void *arg, size_t i);   /* may be NULL: items[i] was stopped (called
					      * from the stopping threads, one at a time) */
	void *done_arg;                 /* given to done and retrying */
	void (*retrying)(void *arg, const struct err *why);   /* may be NULL: called once,
					      * when the first StopTask is to be asked again */
};

/* StopTask for every item at once (a thread per transport of the client), each asked
 * again with a growing backoff (1 s to 16 s) while the answer may change (throttling,
 * 5xx, a cut connection, a timeout) until deadline_ms, when whatever is in flight is
 * given up. Returns how many were stopped; the others say why in their err. */
size_t ecs_stop_tasks(struct ecs_client *c, const struct ecs_stop_options *o,
		      struct ecs_stop_item *items, size_t n);

struct ecs_taskdef {
	char *arn;
	char *family;
	long revision;
	char *status;                        /* ACTIVE, INACTIVE, DELETE_IN_PROGRESS */
	char *cpu;                           /* task-level, as a string; NULL if unset */
	char *memory;
	char *network_mode;                  /* NULL: ECS's default (bridge on EC2) */
	char *cpu_arch;                      /* runtimePlatform.cpuArchitecture; NULL: X86_64 */
	bool compat_ec2, compat_fargate;     /* compatibilities, as ECS computed them */
	bool requires_fargate, requires_ec2; /* requiresCompatibilities, as registered */
	bool health_check;                   /* an essential container has a healthCheck */
};

/* DescribeTaskDefinition; a task definition that does not exist is an ERR_AWS line
 * naming it. */
int ecs_describe_task_definition(struct ecs_client *c, const char *name,
				 struct ecs_taskdef *out, struct err *err);
void ecs_taskdef_cleanup(struct ecs_taskdef *td);
/* The same call's answer as its JSON text ({"taskDefinition": {...}}, what taskdef_read
 * reads), for check; *json is the caller's to free. */
int ecs_describe_task_definition_json(struct ecs_client *c, const char *name, char **json,
				      struct err *err);

#endif
