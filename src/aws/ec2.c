/* ec2: DescribeSubnets, DescribeRouteTables, DescribeVpcEndpoints and DescribeNatGateways
 * (query protocol, API
 * 2016-11-15: lists of <item> inside <xxxSet>, members the root's children, lowerCamel
 * names), read along botocore's output shapes (only the members the check weighs) and
 * copied into plain facts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "awsjson.h"
#include "awsquery.h"
#include "ec2_int.h"
#include "ecsprof/ec2.h"
#include "ecsprof/xalloc.h"

#define VERSION "2016-11-15"

struct ec2 {
	struct awsjson_client *client;
	const int *cancel;
};

/* botocore's ec2 service-2.json, by locationName; members the check does not weigh are
 * skipped as botocore skips unknown ones */
static const struct awsquery_field subnet_item[] = {
	{ "subnetId", AQ_STRING, NULL },
	{ "vpcId", AQ_STRING, NULL },
	{ "mapPublicIpOnLaunch", AQ_BOOLEAN, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field ec2_subnets_shape[] = {
	{ "subnetSet", AQ_LIST, subnet_item },
	{ "nextToken", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field association[] = {
	{ "main", AQ_BOOLEAN, NULL },
	{ "routeTableId", AQ_STRING, NULL },
	{ "subnetId", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field route[] = {
	{ "destinationCidrBlock", AQ_STRING, NULL },
	{ "gatewayId", AQ_STRING, NULL },
	{ "instanceId", AQ_STRING, NULL },
	{ "natGatewayId", AQ_STRING, NULL },
	{ "transitGatewayId", AQ_STRING, NULL },
	{ "networkInterfaceId", AQ_STRING, NULL },
	{ "vpcPeeringConnectionId", AQ_STRING, NULL },
	{ "state", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field route_table[] = {
	{ "associationSet", AQ_LIST, association },
	{ "routeTableId", AQ_STRING, NULL },
	{ "routeSet", AQ_LIST, route },
	{ "vpcId", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field ec2_route_tables_shape[] = {
	{ "routeTableSet", AQ_LIST, route_table },
	{ "nextToken", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
static const struct awsquery_field endpoint[] = {
	{ "vpcEndpointId", AQ_STRING, NULL },
	{ "vpcEndpointType", AQ_STRING, NULL },
	{ "vpcId", AQ_STRING, NULL },
	{ "serviceName", AQ_STRING, NULL },
	{ "state", AQ_STRING, NULL },
	{ "routeTableIdSet", AQ_LIST, NULL },
	{ "subnetIdSet", AQ_LIST, NULL },
	{ "privateDnsEnabled", AQ_BOOLEAN, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field ec2_endpoints_shape[] = {
	{ "vpcEndpointSet", AQ_LIST, endpoint },
	{ "nextToken", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};

static const struct awsquery_field nat_gateway[] = {
	{ "natGatewayId", AQ_STRING, NULL },
	{ "state", AQ_STRING, NULL },
	{ "subnetId", AQ_STRING, NULL },
	{ "vpcId", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};
const struct awsquery_field ec2_nat_gateways_shape[] = {
	{ "natGatewaySet", AQ_LIST, nat_gateway },
	{ "nextToken", AQ_STRING, NULL },
	{ NULL, 0, NULL },
};

int
ec2_new(const struct ec2_options *o, struct ec2 **out, struct err *err)
{
	struct awsjson_options ao = { 0 };
	struct ec2 *c = xcalloc(1, sizeof *c);

	*out = NULL;
	ao.service = &awsjson_ec2;
	ao.endpoint = o->endpoint;
	ao.common = o->common;
	if (awsjson_client_new(&ao, &c->client, err) != 0) {
		free(c);
		return -1;
	}
	c->cancel = o->common.cancel;
	*out = c;
	return 0;
}

void
ec2_free(struct ec2 *c)
{
	if (c == NULL)
		return;
	awsjson_client_free(c->client);
	free(c);
}

/* every page of op with params, its list merged into (*all)[list] */
static int
paged(struct ec2 *c, const struct http_transport *t, const char *op,
      const struct awsquery_field *shape, const char *list,
      const struct awsquery_param *params, size_t n, json_t **all, struct err *err)
{
	const char *const lists[] = { list, NULL };
	const struct awsquery_paging pg = { op, VERSION, shape, "NextToken", "nextToken", lists };

	*all = NULL;
	if (awsquery_paged(c->client, t, &pg, params, n, c->cancel, all, err) == 0)
		return 0;
	json_decref(*all);
	*all = NULL;
	return -1;
}

static char *
dup_member(json_t *obj, const char *name)
{
	const char *s = json_string_value(json_object_get(obj, name));

	return s != NULL ? xstrdup(s) : NULL;
}

int
ec2_describe_subnet(struct ec2 *c, const struct http_transport *t, const char *id,
		    struct ec2_subnet *out, struct err *err)
{
	const struct awsquery_param p[] = { { "SubnetId.1", id } };
	json_t *all, *s;
	size_t i;

	memset(out, 0, sizeof *out);
	if (paged(c, t, "DescribeSubnets", ec2_subnets_shape, "subnetSet", p, 1, &all, err) != 0)
		return -1;
	json_array_foreach(json_object_get(all, "subnetSet"), i, s) {
		const char *sid = json_string_value(json_object_get(s, "subnetId"));

		if (sid == NULL || strcmp(sid, id) != 0)
			continue;
		out->id = xstrdup(sid);
		out->vpc_id = dup_member(s, "vpcId");
		out->map_public_ip = json_is_true(json_object_get(s, "mapPublicIpOnLaunch"));
		break;
	}
	json_decref(all);
	if (out->id == NULL || out->vpc_id == NULL) {
		ec2_subnet_free(out);
		return err_set(err, ERR_AWS, "DescribeSubnets: subnet %s is not in the answer "
			       "(or has no VPC) — check --subnets and --region", id);
	}
	return 0;
}

void
ec2_subnet_free(struct ec2_subnet *s)
{
	free(s->id);
	free(s->vpc_id);
	memset(s, 0, sizeof *s);
}

/* where a route goes: the first target member it has */
static char *
route_target(json_t *r)
{
	static const char *const targets[] = {
		"gatewayId", "natGatewayId", "instanceId", "transitGatewayId",
		"networkInterfaceId", "vpcPeeringConnectionId", NULL,
	};

	for (const char *const *k = targets; *k != NULL; k++)
		if (json_string_value(json_object_get(r, *k)) != NULL)
			return dup_member(r, *k);
	return NULL;
}

/* one routeTableSet item into *out; -1 when it has no id */
static int
route_table_from(json_t *rt, bool main, struct ec2_route_table *out)
{
	json_t *routes = json_object_get(rt, "routeSet"), *r;
	size_t i;

	memset(out, 0, sizeof *out);
	out->id = dup_member(rt, "routeTableId");
	if (out->id == NULL)
		return -1;
	out->main = main;
	out->routes = xcalloc(json_array_size(routes) + 1, sizeof *out->routes);
	json_array_foreach(routes, i, r) {
		struct ec2_route *x = &out->routes[out->nroutes++];
		const char *state = json_string_value(json_object_get(r, "state"));

		x->destination = dup_member(r, "destinationCidrBlock");
		x->target = route_target(r);
		/* moto and old answers leave state out of a working route */
		x->active = state == NULL || strcmp(state, "active") == 0;
	}
	return 0;
}

/* the first table of DescribeRouteTables with the filters; out->id NULL when none */
static int
table_by(struct ec2 *c, const struct http_transport *t, const struct awsquery_param *f,
	 size_t n, bool main, struct ec2_route_table *out, struct err *err)
{
	json_t *all, *rt;
	size_t i;

	memset(out, 0, sizeof *out);
	if (paged(c, t, "DescribeRouteTables", ec2_route_tables_shape, "routeTableSet", f, n,
		  &all, err) != 0)
		return -1;
	json_array_foreach(json_object_get(all, "routeTableSet"), i, rt)
		if (route_table_from(rt, main, out) == 0)
			break;
	json_decref(all);
	return 0;
}

int
ec2_subnet_route_table(struct ec2 *c, const struct http_transport *t, const char *subnet,
		       const char *vpc, struct ec2_route_table *out, struct err *err)
{
	const struct awsquery_param own[] = {
		{ "Filter.1.Name", "association.subnet-id" }, { "Filter.1.Value.1", subnet },
	};
	const struct awsquery_param main[] = {
		{ "Filter.1.Name", "vpc-id" }, { "Filter.1.Value.1", vpc },
		{ "Filter.2.Name", "association.main" }, { "Filter.2.Value.1", "true" },
	};

	if (table_by(c, t, own, 2, false, out, err) != 0)
		return -1;
	if (out->id != NULL)
		return 0;
	/* a subnet with no table of its own is routed by its VPC's main table */
	return table_by(c, t, main, 4, true, out, err);
}

void
ec2_route_table_free(struct ec2_route_table *rt)
{
	for (size_t i = 0; i < rt->nroutes; i++) {
		free(rt->routes[i].destination);
		free(rt->routes[i].target);
	}
	free(rt->routes);
	free(rt->id);
	memset(rt, 0, sizeof *rt);
}

int
ec2_vpc_endpoints(struct ec2 *c, const struct http_transport *t, const char *vpc,
		  struct ec2_endpoints *out, struct err *err)
{
	const struct awsquery_param f[] = {
		{ "Filter.1.Name", "vpc-id" }, { "Filter.1.Value.1", vpc },
	};
	json_t *all, *e;
	size_t i;

	memset(out, 0, sizeof *out);
	if (paged(c, t, "DescribeVpcEndpoints", ec2_endpoints_shape, "vpcEndpointSet", f, 2,
		  &all, err) != 0)
		return -1;
	out->v = xcalloc(json_array_size(json_object_get(all, "vpcEndpointSet")) + 1,
			 sizeof *out->v);
	json_array_foreach(json_object_get(all, "vpcEndpointSet"), i, e) {
		struct ec2_endpoint *x = &out->v[out->n++];
		json_t *tables = json_object_get(e, "routeTableIdSet"), *id;
		size_t j;

		x->id = dup_member(e, "vpcEndpointId");
		x->service = dup_member(e, "serviceName");
		x->type = dup_member(e, "vpcEndpointType");
		x->state = dup_member(e, "state");
		x->private_dns = json_is_true(json_object_get(e, "privateDnsEnabled"));
		x->route_tables = xcalloc(json_array_size(tables) + 1, sizeof *x->route_tables);
		json_array_foreach(tables, j, id)
			if (json_string_value(id) != NULL)
				x->route_tables[x->nroute_tables++] = xstrdup(json_string_value(id));
		tables = json_object_get(e, "subnetIdSet");
		x->subnets = xcalloc(json_array_size(tables) + 1, sizeof *x->subnets);
		json_array_foreach(tables, j, id)
			if (json_string_value(id) != NULL)
				x->subnets[x->nsubnets++] = xstrdup(json_string_value(id));
	}
	json_decref(all);
	return 0;
}

void
ec2_endpoints_free(struct ec2_endpoints *e)
{
	for (size_t i = 0; i < e->n; i++) {
		struct ec2_endpoint *x = &e->v[i];

		for (size_t j = 0; j < x->nroute_tables; j++)
			free(x->route_tables[j]);
		free(x->route_tables);
		for (size_t j = 0; j < x->nsubnets; j++)
			free(x->subnets[j]);
		free(x->subnets);
		free(x->id);
		free(x->service);
		free(x->type);
		free(x->state);
	}
	free(e->v);
	memset(e, 0, sizeof *e);
}

int
ec2_nat_gateway_state(struct ec2 *c, const struct http_transport *t, const char *id,
		      char **state, struct err *err)
{
	const struct awsquery_param p[] = { { "NatGatewayId.1", id } };
	json_t *all, *g;
	size_t i;

	*state = NULL;
	if (paged(c, t, "DescribeNatGateways", ec2_nat_gateways_shape, "natGatewaySet", p, 1,
		  &all, err) != 0)
		return -1;
	json_array_foreach(json_object_get(all, "natGatewaySet"), i, g) {
		const char *gid = json_string_value(json_object_get(g, "natGatewayId"));

		if (gid != NULL && strcmp(gid, id) == 0) {
			*state = dup_member(g, "state");
			break;
		}
	}
	json_decref(all);
	/* a route to a NAT gateway EC2 no longer lists goes nowhere */
	if (*state == NULL)
		*state = xstrdup("unknown");
	return 0;
}
