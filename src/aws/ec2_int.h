/* ec2_int: what ec2.c shows its tests and the fuzz harness: the output shapes it reads
 * EC2's answers along.
 * Ownership: the shapes are static tables. */
#ifndef ECSPROF_EC2_INT_H
#define ECSPROF_EC2_INT_H

#include "awsquery.h"

extern const struct awsquery_field ec2_subnets_shape[];
extern const struct awsquery_field ec2_route_tables_shape[];
extern const struct awsquery_field ec2_endpoints_shape[];
extern const struct awsquery_field ec2_nat_gateways_shape[];

#endif
