/* experiment: the plan of a before/after run (`ecsprof experiment`): arms, the RunTask calls
 * in launch order (interleaved rounds or arm after arm, at most 10 tasks per call, never
 * more than --max-tasks), the network configuration as the AWS CLI takes it, task sizes
 * and the Fargate cost estimate (at cost.h's prices). Pure model: no AWS, no I/O, so all
 * of it is unit-tested.
 * Ownership: exp_arm, exp_plan and exp_network own their strings and arrays, freed by the
 * matching _cleanup(); the input strings are copied. */
#ifndef ECSPROF_EXPERIMENT_H
#define ECSPROF_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/cost.h"
#include "ecsprof/err.h"

#define EXP_RUNTASK_MAX 10           /* RunTask: at most 10 tasks per call */
#define EXP_MAX_ARMS 8
#define EXP_DEFAULT_PER_ARM 10
#define EXP_DEFAULT_MAX_TASKS 50
#define EXP_TAG_EXPERIMENT "ecsprof:experiment"
#define EXP_TAG_ARM "ecsprof:arm"
#define EXP_STARTED_BY_PREFIX "ecsprof-"

struct exp_arm {
	char *name;      /* "no-soci": [A-Za-z0-9._-], 1..64 characters */
	char *taskdef;   /* family, family:revision or ARN */
};

/* "NAME=TASKDEF". */
int exp_arm_parse(const char *spec, struct exp_arm *out, struct err *err);
void exp_arm_cleanup(struct exp_arm *a);

/* A valid experiment id (also used in startedBy "ecsprof-ID", at most 128 characters):
 * [A-Za-z0-9_-], 1..64 characters. */
bool exp_id_valid(const char *id);

/* One RunTask call. */
struct exp_call {
	size_t arm;          /* index into the arms */
	long count;          /* 1..10 */
	size_t round;        /* interleaved: the round; sequential: the arm */
	bool wait_before;    /* sequential: wait for the previous arm's tasks first */
};

struct exp_plan {
	struct exp_call *calls;
	size_t ncalls;
	size_t nrounds;
	long total;          /* tasks in all */
};

struct exp_plan_options {
	size_t narms;        /* 2..EXP_MAX_ARMS (1 is allowed: a baseline run) */
	long per_arm;        /* tasks per arm, >= 1 */
	long round_size;     /* tasks per arm per round (interleaved), 1..10 */
	bool sequential;     /* arm after arm instead of interleaved rounds */
	long max_tasks;      /* refuse a plan beyond it */
};

/* Interleaved: round r launches min(round_size, left) tasks of arm 0, then arm 1, ...
 * (A, B, A, B) so that drift falls on every arm alike. Sequential: all of arm 0 in calls
 * of at most 10, then arm 1 (its first call has wait_before). Fails (ERR_USAGE) when the
 * plan would exceed max_tasks, saying by how much. */
int exp_plan_build(const struct exp_plan_options *o, struct exp_plan *p, struct err *err);
void exp_plan_cleanup(struct exp_plan *p);

/* awsvpc network configuration. */
struct exp_network {
	char **subnets;
	size_t nsubnets;
	char **security_groups;
	size_t nsecurity_groups;
	int assign_public_ip;    /* -1 unset, 0 DISABLED, 1 ENABLED */
};

void exp_network_init(struct exp_network *n);
void exp_network_cleanup(struct exp_network *n);
/* --network-configuration as the AWS CLI takes it: the shorthand
 * "awsvpcConfiguration={subnets=[subnet-1,subnet-2],securityGroups=[sg-1],assignPublicIp=ENABLED}"
 * or the JSON {"awsvpcConfiguration": {...}}. Adds to n. */
int exp_network_parse(const char *spec, struct exp_network *n, struct err *err);
/* "--subnets a,b": appends each comma-separated id (empty ones refused). */
int exp_network_add_ids(char ***v, size_t *n, const char *csv, const char *what,
			struct err *err);

/* Task sizes as ECS writes them: cpu "256" (units, 1024 = 1 vCPU) or "1 vCPU"/"0.5 vcpu";
 * memory "512" (MiB) or "1 GB"/"2GB". -1 when the text is no such size. */
int exp_parse_vcpu(const char *s, double *vcpu);
int exp_parse_memory_gb(const char *s, double *gb);

/* Fargate cost of one task of this size billed for seconds (at least 60: Fargate's
 * minimum) at price (cost.h: the built-in table by region and architecture, or
 * --prices); NAN when price is NULL. */
double exp_fargate_cost(const struct cost_price *price, double vcpu, double gb,
			double seconds);

#endif
