/* check_live: EC2's answers about a subnet (ec2.h) turned into the facts the image-path
 * rule weighs: a default route to an internet gateway or a NAT, and the VPC endpoints
 * that let a task reach ECR and its layers in S3 without either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "ecsprof/check_live.h"
#include "ecsprof/ec2.h"
#include "ecsprof/ecs.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/live.h"
#include "ecsprof/xalloc.h"

static bool
starts(const char *s, const char *prefix)
{
	return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* the table's active IPv4 default route: to an internet gateway, or to a NAT (a NAT
 * gateway, or a NAT instance or its interface) */
static void
default_route(const struct ec2_route_table *rt, struct check_network *f)
{
	f->igw_route = FACT_NO;
	f->nat_route = FACT_NO;
	for (size_t i = 0; i < rt->nroutes; i++) {
		const struct ec2_route *r = &rt->routes[i];

		if (!r->active || r->destination == NULL || strcmp(r->destination, "0.0.0.0/0") != 0)
			continue;
		if (starts(r->target, "igw-"))
			f->igw_route = FACT_YES;
		else if (starts(r->target, "nat-") || starts(r->target, "i-") ||
			 starts(r->target, "eni-"))
			f->nat_route = FACT_YES;
	}
}

static bool
on_table(const struct ec2_endpoint *e, const char *table)
{
	for (size_t i = 0; i < e->nroute_tables; i++)
		if (table != NULL && strcmp(e->route_tables[i], table) == 0)
			return true;
	return false;
}

/* the endpoints that count: available; ECR's interface ones with private DNS (the task
 * asks for the public names), S3's gateway on the subnet's route table */
static void
endpoints(const struct ec2_endpoints *eps, const char *region, const char *table,
	  struct check_network *f)
{
	char *api = xasprintf("com.amazonaws.%s.ecr.api", region);
	char *dkr = xasprintf("com.amazonaws.%s.ecr.dkr", region);
	char *s3 = xasprintf("com.amazonaws.%s.s3", region);

	f->ecr_api = f->ecr_dkr = f->s3_gateway = FACT_NO;
	for (size_t i = 0; i < eps->n; i++) {
		const struct ec2_endpoint *e = &eps->v[i];
		bool iface = e->type != NULL && strcmp(e->type, "Interface") == 0 && e->private_dns;

		if (e->service == NULL || e->state == NULL || strcasecmp(e->state, "available") != 0)
			continue;
		if (iface && strcmp(e->service, api) == 0)
			f->ecr_api = FACT_YES;
		else if (iface && strcmp(e->service, dkr) == 0)
			f->ecr_dkr = FACT_YES;
		else if (strcmp(e->service, s3) == 0 && e->type != NULL &&
			 strcmp(e->type, "Gateway") == 0 && on_table(e, table))
			f->s3_gateway = FACT_YES;
	}
	free(api);
	free(dkr);
	free(s3);
}

static int
subnet_facts(struct ec2 *c, const struct http_transport *t, const char *region,
	     const char *id, struct check_network *f, struct err *err)
{
	struct ec2_subnet sn;
	struct ec2_route_table rt;
	struct ec2_endpoints eps;
	int rc = -1;

	if (ec2_describe_subnet(c, t, id, &sn, err) != 0)
		return -1;
	if (ec2_subnet_route_table(c, t, sn.id, sn.vpc_id, &rt, err) == 0) {
		default_route(&rt, f);
		if (ec2_vpc_endpoints(c, t, sn.vpc_id, &eps, err) == 0) {
			endpoints(&eps, region, rt.id, f);
			ec2_endpoints_free(&eps);
			rc = 0;
		}
		ec2_route_table_free(&rt);
	}
	ec2_subnet_free(&sn);
	return rc;
}

/* how far a task in the subnet gets: 2 the internet, 1 ECR alone, 0 nowhere */
static int
reach(const struct check_network *f)
{
	if ((f->public_ip == FACT_YES && f->igw_route == FACT_YES) || f->nat_route == FACT_YES)
		return 2;
	return f->ecr_api == FACT_YES && f->ecr_dkr == FACT_YES && f->s3_gateway == FACT_YES;
}

int
check_live_network(struct live_session *s, struct check_network *net, char **subnet,
		   struct err *err)
{
	struct http_transport t;
	struct ec2 *c;
	int worst = 3, rc = 0;

	*subnet = NULL;
	if (live_session_ec2(s, &c, &t, err) != 0)
		return -1;
	for (size_t i = 0; rc == 0 && i < net->nsubnets_given; i++) {
		char *list = xstrdup(net->subnets_given[i]), *p = list;

		while (rc == 0 && p != NULL) {
			char *comma = strchr(p, ',');
			struct check_network f = *net;

			if (comma != NULL)
				*comma = '\0';
			if (*p != '\0') {
				rc = subnet_facts(c, &t, live_session_region(s), p, &f, err);
				if (rc == 0 && reach(&f) < worst) {
					worst = reach(&f);
					free(*subnet);
					*subnet = xstrdup(p);
					*net = f;
				}
			}
			p = comma != NULL ? comma + 1 : NULL;
		}
		free(list);
	}
	http_curl_free(&t);
	ec2_free(c);
	if (rc != 0) {
		free(*subnet);
		*subnet = NULL;
		return -1;
	}
	net->checked = *subnet != NULL;
	net->subnet = *subnet;
	return 0;
}

static char *
dup_string(json_t *v)
{
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static int
service_from(const char *raw, const char *name, struct check_service *out, struct err *err)
{
	json_t *svc = json_loads(raw, 0, NULL), *vpc, *v;
	size_t i;
	int rc = 0;

	vpc = json_object_get(json_object_get(svc, "networkConfiguration"),
			      "awsvpcConfiguration");
	json_array_foreach(json_object_get(vpc, "subnets"), i, v)
		if (json_is_string(v)) {
			out->subnets = xrealloc(out->subnets, (out->nsubnets + 1) * sizeof *out->subnets);
			out->subnets[out->nsubnets++] = xstrdup(json_string_value(v));
		}
	v = json_object_get(vpc, "assignPublicIp");
	out->assign_public_ip = json_is_string(v) && strcmp(json_string_value(v), "ENABLED") == 0;
	out->platform_version = dup_string(json_object_get(svc, "platformVersion"));
	out->task_definition = dup_string(json_object_get(svc, "taskDefinition"));
	if (out->nsubnets == 0)
		rc = err_set(err, ERR_AWS, "service %s has no awsvpc subnets "
			     "(networkConfiguration.awsvpcConfiguration): give --subnets", name);
	json_decref(svc);
	return rc;
}

int
check_live_service(struct live_session *s, const char *cluster, const char *name,
		   struct check_service *out, struct err *err)
{
	struct ecs_service_list l;
	int rc;

	memset(out, 0, sizeof *out);
	if (ecs_describe_services(live_session_ecs(s), cluster, &name, 1, &l, err) != 0)
		return -1;
	rc = l.n == 1 && l.v[0].raw_json != NULL ? service_from(l.v[0].raw_json, name, out, err) :
	     err_set(err, ERR_AWS, "DescribeServices: no service %s in the answer", name);
	ecs_service_list_cleanup(&l);
	if (rc != 0)
		check_service_free(out);
	return rc;
}

void
check_service_free(struct check_service *svc)
{
	for (size_t i = 0; i < svc->nsubnets; i++)
		free(svc->subnets[i]);
	free(svc->subnets);
	free(svc->platform_version);
	free(svc->task_definition);
	memset(svc, 0, sizeof *svc);
}
