/* scaleout_src: the sources a scale-out's story is told from, as plain structs (no JSON:
 * in/input_scaleout.c reads the AWS CLI's documents into them): Application Auto Scaling's
 * scaling activities and policies, CloudWatch alarms and their state changes, the ECS
 * service's settings (its deployments and events are a deploy_set, deploy.h), the target
 * groups' health check settings and the target health observed at given instants.
 * Ownership: a so_sources owns every item and string in it (so_sources_cleanup); the
 * so_sources_add_* functions return a zeroed item inside it, valid until the next add. */
#ifndef ECSPROF_SCALEOUT_SRC_H
#define ECSPROF_SCALEOUT_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/deploy.h"

/* The documents a scale-out is read from: a source is "read" when a document of its kind
 * was given (even one with no items), so that "no alarm history" (not read) and "no
 * alarm fired" (read, empty) are told apart. */
enum so_source {
	SO_SRC_ACTIVITIES,       /* {"ScalingActivities":[...]} */
	SO_SRC_POLICIES,         /* {"ScalingPolicies":[...]} */
	SO_SRC_ALARMS,           /* {"MetricAlarms":[...]} */
	SO_SRC_ALARM_HISTORY,    /* {"AlarmHistoryItems":[...]} */
	SO_SRC_SERVICES,         /* {"services":[...]} (or a recording's event lines) */
	SO_SRC_TARGET_GROUPS,    /* {"TargetGroups":[...]} */
	SO_SRC_TARGET_HEALTH,    /* {"observed_at":..., "TargetHealthDescriptions":[...]} */
	SO_SRC_COUNT
};
/* "scaling activities", "alarm history", ...: as the notes name them */
extern const char *const so_source_names[SO_SRC_COUNT];

/* Application Auto Scaling ScalingActivity */
struct so_activity {
	char *id;                 /* ActivityId */
	char *resource_id;        /* "service/CLUSTER/SERVICE" */
	char *cluster, *service;  /* of the resource id; NULL when it is not an ECS service's */
	char *description;        /* "Setting desired count to 30." */
	char *cause;              /* "monitor alarm NAME in state ALARM triggered policy P" */
	char *status;             /* StatusCode: Successful, Failed, InProgress, ... */
	char *alarm;              /* the alarm the cause names; NULL */
	char *policy;             /* the policy the cause names; NULL */
	int64_t start_ms, end_ms; /* TS_NONE when absent */
	long desired_to;          /* N of "Setting desired count to N"; -1 */
};

/* Application Auto Scaling ScalingPolicy */
struct so_policy {
	char *name, *arn, *resource_id;
	char *type;               /* TargetTrackingScaling, StepScaling, ... */
	char *metric;             /* predefined metric type, or the custom metric's name */
	double target_value;      /* NAN unless target tracking */
	long scale_out_cooldown_s, scale_in_cooldown_s;   /* -1 when unset */
	char **alarms;            /* Alarms[].AlarmName */
	size_t nalarms;
};

/* CloudWatch MetricAlarm: the settings detect depends on */
struct so_alarm {
	char *name, *arn;
	char *metric;             /* MetricName */
	char *comparison;         /* ComparisonOperator */
	double threshold;         /* NAN when absent */
	long period_s;            /* -1 when absent */
	long evaluation_periods;
	long datapoints;          /* DatapointsToAlarm, else EvaluationPeriods; -1 */
	char **actions;           /* AlarmActions (policy ARNs) */
	size_t nactions;
};

/* One CloudWatch StateUpdate history item */
struct so_transition {
	char *alarm;              /* AlarmName */
	char *old_state, *new_state;   /* OK, ALARM, INSUFFICIENT_DATA; NULL */
	int64_t at_ms;            /* Timestamp */
	/* the earliest period start among the ALARM transition's evaluatedDatapoints that
	 * breach (all of them when the values do not say); TS_NONE when the data has none */
	int64_t first_breach_ms;
	size_t ndatapoints;       /* evaluatedDatapoints read */
};

/* ECS Service: its settings (deployments and events are in so_sources.deploys) */
struct so_service {
	char *name, *arn, *cluster;   /* cluster: the short name from clusterArn; "" unknown */
	long desired;             /* desiredCount at the time of the document; -1 */
	long grace_s;             /* healthCheckGracePeriodSeconds; -1 */
	char **target_groups;     /* loadBalancers[].targetGroupArn */
	size_t ntarget_groups;
};

/* Elastic Load Balancing v2 TargetGroup */
struct so_target_group {
	char *arn, *name;
	char *target_type;        /* ip, instance, ... */
	long interval_s, healthy_threshold, unhealthy_threshold, timeout_s;   /* -1 */
};

/* One target's state at one observation (describe-target-health has no times: the
 * recording says when it looked) */
struct so_target_obs {
	char *target_group;       /* ARN */
	char *target;             /* Target.Id: an IP address for type ip */
	char *state;              /* initial, healthy, unhealthy, draining, ... */
	char *reason;             /* TargetHealth.Reason; NULL */
	int64_t observed_ms;
};

struct so_sources {
	bool read[SO_SRC_COUNT];
	struct so_activity *activities; size_t nactivities;
	struct so_policy *policies; size_t npolicies;
	struct so_alarm *alarms; size_t nalarms;
	struct so_transition *transitions; size_t ntransitions;
	struct so_service *services; size_t nservices;
	struct so_target_group *target_groups; size_t ntarget_groups;
	struct so_target_obs *observations; size_t nobservations;
	struct deploy_set deploys;   /* deployments and service events */
};

void so_sources_init(struct so_sources *s);
void so_sources_cleanup(struct so_sources *s);
/* A new zeroed item (numbers -1/NAN/TS_NONE as the structs above say "absent"); an item
 * with the same identity as one already there (activity id, policy or alarm name, target
 * group ARN, service name, a transition's alarm and time, an observation's target
 * group, target and time) is that one, cleared, so that reading a document twice (a
 * file and a recording of it) keeps one of each. */
struct so_activity *so_sources_activity(struct so_sources *s, const char *id);
struct so_policy *so_sources_policy(struct so_sources *s, const char *arn, const char *name);
struct so_alarm *so_sources_alarm(struct so_sources *s, const char *arn, const char *name);
/* The alarm named name in src (a lookup, nothing added); NULL when absent or name NULL. */
const struct so_alarm *so_alarm_of(const struct so_sources *src, const char *name);
struct so_transition *so_sources_transition(struct so_sources *s, const char *alarm,
					    int64_t at_ms);
struct so_service *so_sources_service(struct so_sources *s, const char *name);
struct so_target_group *so_sources_target_group(struct so_sources *s, const char *arn);
struct so_target_obs *so_sources_observation(struct so_sources *s, const char *tg,
					     const char *target, int64_t observed_ms);

/* Parsing helpers on the API's texts, shared by the reader and the tests (no JSON): */
/* "Setting desired count to 30." -> 30; -1 when the text says no count */
long so_desired_of_description(const char *description);
/* "monitor alarm NAME in state ALARM triggered policy POLICY": *alarm and *policy (the
 * caller's to free; NULL when not named) */
void so_cause_names(const char *cause, char **alarm, char **policy);
/* "service/CLUSTER/SERVICE" -> the service and the cluster, copied into out (sizes given);
 * false when the resource is not an ECS service */
bool so_resource_service(const char *resource_id, char *cluster, size_t csize, char *service,
			 size_t ssize);
/* a->cluster and a->service from a->resource_id */
void so_activity_resource(struct so_activity *a);

#endif
