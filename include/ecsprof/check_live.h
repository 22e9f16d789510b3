/* check_live: the live half of `ecsprof check`: the image path's network facts
 * (struct check_network, check.h) looked up in EC2 for the subnets the command line gives,
 * so that the model's image-path rule decides on facts, not on what it cannot see.
 * Ownership: the session is borrowed; *subnet (what net->subnet points at) is the
 * caller's. */
#ifndef ECSPROF_CHECK_LIVE_H
#define ECSPROF_CHECK_LIVE_H

#include "ecsprof/check.h"
#include "ecsprof/err.h"

struct live_session;

/* Fills net's route and endpoint facts (net->public_ip, from the command line, is kept)
 * for each subnet of net->subnets_given (each "ID" or "ID,ID"): DescribeSubnets, the
 * subnet's own route table else the VPC's main one, the VPC's endpoints. A task may be
 * placed in any of them, so net holds the facts of the one it is worst off in (no way
 * out, then ECR alone through endpoints, then the internet), net->subnet naming it in
 * *subnet. -1 and err: a call failed (UnauthorizedOperation names the IAM action). */
int check_live_network(struct live_session *s, struct check_network *net, char **subnet,
		       struct err *err);

#endif
