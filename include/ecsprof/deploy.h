/* deploy: service deployments and their events (DescribeServices, EventBridge "ECS
 * Deployment State Change" / "ECS Service Action", recordings), and what `report
 * --deployments` measures from a deployment's start: first, median and all tasks RUNNING,
 * all HEALTHY, steady state, failed tasks.
 * Ownership: a deploy_set owns every deployment, event and string in it
 * (deploy_set_cleanup); rows borrow the set and the tasks and are freed with free(). */
#ifndef ECSPROF_DEPLOY_H
#define ECSPROF_DEPLOY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/task.h"

struct deployment {
	char *service;            /* service name */
	char *id;                 /* "ecs-svc/..." (the tasks' startedBy) */
	char *status;             /* PRIMARY, ACTIVE, INACTIVE; NULL if unknown */
	char *rollout_state;      /* IN_PROGRESS, COMPLETED, FAILED */
	char *taskdef;            /* task definition ARN */
	int64_t created_ms;       /* the deployment's start; TS_NONE if unknown */
	int64_t updated_ms;
	int64_t completed_ms;     /* SERVICE_DEPLOYMENT_COMPLETED / _FAILED; TS_NONE */
	long desired;             /* -1 if unknown */
	long failed;              /* failedTasks as ECS counts them; -1 if unknown */
	int64_t seen_ms;          /* when this state was fetched (newer replaces older) */
};

struct deploy_event {
	char *service;
	char *id;                 /* ServiceEvent id, NULL for EventBridge-made ones */
	int64_t at_ms;
	char *message;            /* "(service web) has reached a steady state." */
};

struct deploy_set {
	struct deployment *v;
	size_t n;
	struct deploy_event *ev;
	size_t nev;
};

void deploy_set_init(struct deploy_set *s);
void deploy_set_cleanup(struct deploy_set *s);
/* The deployment (service, id), added (empty: times TS_NONE, counts -1) if new. */
struct deployment *deploy_set_get(struct deploy_set *s, const char *service, const char *id);
/* Fills what d lacks from the given state, or replaces it when seen_ms is newer. */
void deploy_merge(struct deployment *d, const struct deployment *from);
/* Adds an event once (by service and id, else by service, time and message). */
void deploy_set_event(struct deploy_set *s, const char *service, const char *id, int64_t at_ms,
		      const char *message);

struct deploy_row {
	const struct deployment *d;
	size_t tasks_started;     /* tasks whose startedBy is the deployment id */
	int64_t first_running_ms; /* from the deployment's start; TS_NONE when not known */
	int64_t p50_running_ms;
	int64_t all_running_ms;   /* the desired-th RUNNING (every task when desired unknown) */
	int64_t all_healthy_ms;
	int64_t steady_ms;        /* "has reached a steady state" (else COMPLETED) */
	long failed_tasks;        /* failed starts seen, or ECS's failedTasks if larger */
	/* the service events from the deployment's start until the next deployment's start */
	const struct deploy_event **events;
	size_t nevents;
};

/* One row per deployment, by service then start time. *rows is the caller's to free
 * with deploy_rows_free(). */
void deploy_rows(const struct deploy_set *s, const struct task_set *tasks,
		 struct deploy_row **rows, size_t *n);
void deploy_rows_free(struct deploy_row *rows, size_t n);
/* "30 tasks: first RUNNING +31 s, all +112 s, steady state +140 s" */
void deploy_row_sentence(const struct deploy_row *r, char *out, size_t size);

#endif
