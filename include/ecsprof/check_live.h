/* check_live: the live half of `ecsprof check`: the image path's network facts
 * (struct check_network, check.h) looked up in EC2 for the subnets the command line gives,
 * so that the model's image-path rule decides on facts, not on what it cannot see.
 * Ownership: the session is borrowed; *subnet (what net->subnet points at) and a
 * check_service's strings are the caller's. */
#ifndef ECSPROF_CHECK_LIVE_H
#define ECSPROF_CHECK_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/check.h"
#include "ecsprof/err.h"

struct live_session;

/* What a service says of the tasks it starts (DescribeServices): its awsvpc network, its
 * platform version and its task definition; the strings are owned (check_service_free). */
struct check_service {
	char **subnets;
	size_t nsubnets;
	bool assign_public_ip;          /* assignPublicIp ENABLED */
	char *platform_version;         /* NULL: not set (LATEST) */
	char *task_definition;          /* the service's taskDefinition (an ARN) */
	/* loadBalancers[] with a targetGroupArn; name and type filled by
	 * check_live_target_groups (strings owned) */
	struct check_target_group *target_groups;
	size_t ntarget_groups;
};
/* DescribeServices of name in cluster (NULL: "default"); a service ECS does not know, or
 * one without an awsvpc configuration, is an error naming it. */
int check_live_service(struct live_session *s, const char *cluster, const char *name,
		       struct check_service *out, struct err *err);
void check_service_free(struct check_service *svc);

/* DescribeTargetGroups (Elastic Load Balancing v2) of svc's target groups: their names and
 * target types into svc->target_groups. -1 and err: the call failed. */
int check_live_target_groups(struct live_session *s, struct check_service *svc,
			     struct err *err);

/* Fills net's route and endpoint facts (net->public_ip, from the command line, is kept)
 * for each subnet of net->subnets_given (each "ID" or "ID,ID"): DescribeSubnets, the
 * subnet's own route table else the VPC's main one, the VPC's endpoints. A task may be
 * placed in any of them, so net holds the facts of the one it is worst off in (no way
 * out, then ECR alone through endpoints, then the internet), net->subnet naming it in
 * *subnet. -1 and err: a call failed (UnauthorizedOperation names the IAM action). */
int check_live_network(struct live_session *s, struct check_network *net, char **subnet,
		       struct err *err);

#endif
