/* ec2: the EC2 calls behind `ecsprof check`'s image path (query protocol, API 2016-11-15,
 * through the one AWS client: signed, retried, every page read): a subnet's VPC and
 * public-IP default (DescribeSubnets), the route table that routes it, its own or else the
 * VPC's main one (DescribeRouteTables), the VPC's endpoints (DescribeVpcEndpoints) and the
 * state of a NAT gateway a route goes to (DescribeNatGateways),
 * as plain facts for the check to weigh.
 * Ownership: a client owns its copy of the endpoint and borrows the region and callbacks;
 * every struct filled here owns its strings and is freed with its *_free(). */
#ifndef ECSPROF_EC2_H
#define ECSPROF_EC2_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"

struct ec2_options {
	struct aws_client_common common;
	const char *endpoint;       /* aws_scaleout_endpoint(..., AWS_SCALEOUT_EC2, ...) */
};

struct ec2;

int ec2_new(const struct ec2_options *o, struct ec2 **out, struct err *err);
void ec2_free(struct ec2 *c);

/* Each call returns 0 with its facts, or -1 with err one line ("CODE: message — what to
 * do"; UnauthorizedOperation names the IAM action, e.g. ec2:DescribeSubnets). */

struct ec2_subnet {
	char *id;
	char *vpc_id;
	bool map_public_ip;         /* MapPublicIpOnLaunch (EC2 launches; Fargate ignores it) */
};
/* The subnet id; an id EC2 does not know is its InvalidSubnetID.NotFound error. */
int ec2_describe_subnet(struct ec2 *c, const struct http_transport *t, const char *id,
			struct ec2_subnet *out, struct err *err);
void ec2_subnet_free(struct ec2_subnet *s);

/* One route of a table: its IPv4 destination and where it goes. */
struct ec2_route {
	char *destination;          /* "0.0.0.0/0"; NULL for an IPv6 or prefix-list route */
	char *target;               /* igw-..., nat-..., vgw-..., i-..., local, ...; NULL */
	bool active;                /* state active (not blackhole) */
};
struct ec2_route_table {
	char *id;                   /* NULL: the VPC has no table for it (found nowhere) */
	bool main;                  /* the VPC's main table: the subnet has none of its own */
	struct ec2_route *routes;
	size_t nroutes;
};
/* The table that routes subnet (in vpc): the one associated with it, else vpc's main. */
int ec2_subnet_route_table(struct ec2 *c, const struct http_transport *t, const char *subnet,
			   const char *vpc, struct ec2_route_table *out, struct err *err);
void ec2_route_table_free(struct ec2_route_table *rt);

struct ec2_endpoint {
	char *id;
	char *service;              /* "com.amazonaws.us-east-1.ecr.dkr" */
	char *type;                 /* "Interface", "Gateway", ... */
	char *state;                /* "available", "pending", ... */
	bool private_dns;           /* PrivateDnsEnabled */
	char **route_tables;        /* a gateway's RouteTableIds */
	size_t nroute_tables;
	char **subnets;             /* an interface's SubnetIds: where its interfaces are */
	size_t nsubnets;
};
struct ec2_endpoints {
	struct ec2_endpoint *v;
	size_t n;
};
/* Every VPC endpoint of vpc. */
int ec2_vpc_endpoints(struct ec2 *c, const struct http_transport *t, const char *vpc,
		      struct ec2_endpoints *out, struct err *err);
void ec2_endpoints_free(struct ec2_endpoints *e);

/* The state of NAT gateway id (DescribeNatGateways): "available", "pending", "failed",
 * "deleting", "deleted"; "unknown" when EC2 does not list it. *state is the caller's. */
int ec2_nat_gateway_state(struct ec2 *c, const struct http_transport *t, const char *id,
			  char **state, struct err *err);

#endif
