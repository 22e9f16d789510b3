/* check_live: EC2's answers about a subnet (ec2.h) turned into the facts the image-path
 * rule weighs: a default route to an internet gateway or a NAT, and the VPC endpoints
 * that let a task reach ECR and its layers in S3 without either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/check_live.h"
#include "ecsprof/creds.h"
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

/* appends "; text" (or text) to a fixed note, cut at its size */
static void
note(char *dst, size_t size, const char *text)
{
	size_t n = strlen(dst);

	if (n + 2 < size)
		snprintf(dst + n, size - n, "%s%s", n ? "; " : "", text);
}

/* the table's active IPv4 default route: to an internet gateway, or to a NAT (a NAT
 * gateway that is available, or a NAT instance or its interface); a NAT gateway's state
 * is DescribeNatGateways' (a failed or deleted one leaves the route in place) */
static int
default_route(struct ec2 *c, const struct http_transport *t, const struct ec2_route_table *rt,
	      struct check_network *f, struct err *err)
{
	f->igw_route = FACT_NO;
	f->nat_route = FACT_NO;
	for (size_t i = 0; i < rt->nroutes; i++) {
		const struct ec2_route *r = &rt->routes[i];
		char *state = NULL, *why;

		if (!r->active || r->destination == NULL || strcmp(r->destination, "0.0.0.0/0") != 0)
			continue;
		if (starts(r->target, "igw-")) {
			f->igw_route = FACT_YES;
		} else if (starts(r->target, "i-") || starts(r->target, "eni-")) {
			f->nat_route = FACT_YES;
		} else if (starts(r->target, "nat-")) {
			if (ec2_nat_gateway_state(c, t, r->target, &state, err) != 0)
				return -1;
			if (strcmp(state, "available") == 0) {
				f->nat_route = FACT_YES;
			} else {
				why = xasprintf("0.0.0.0/0 goes to NAT gateway %s, which is %s",
						r->target, state);
				note(f->why, sizeof f->why, why);
				free(why);
			}
			free(state);
		}
	}
	return 0;
}

static bool
in_subnets(const struct ec2_endpoint *e, const char *subnet)
{
	for (size_t i = 0; i < e->nsubnets; i++)
		if (strcmp(e->subnets[i], subnet) == 0)
			return true;
	return false;
}

/* an ECR interface endpoint: counts (1), or why not in f->why (0); one that counts but
 * has no interface in the subnet is noted in f->elsewhere */
static int
ecr_endpoint(const struct ec2_endpoint *e, const char *name, const char *subnet,
	     struct check_network *f)
{
	char *text = NULL;
	int ok = 0;

	if (e->type == NULL || strcmp(e->type, "Interface") != 0)
		text = xasprintf("%s endpoint %s is a %s endpoint, not an interface", name,
				 e->id ? e->id : "?", e->type ? e->type : "?");
	else if (e->state == NULL || strcasecmp(e->state, "available") != 0)
		text = xasprintf("%s endpoint %s is %s", name, e->id ? e->id : "?",
				 e->state ? e->state : "in no state");
	else if (!e->private_dns)
		text = xasprintf("%s endpoint %s has private DNS off (the task asks for %s's "
				 "public name)", name, e->id ? e->id : "?", name);
	else
		ok = 1;
	if (text != NULL)
		note(f->why, sizeof f->why, text);
	free(text);
	if (ok && subnet != NULL && !in_subnets(e, subnet)) {
		char s[192];
		size_t n = (size_t)snprintf(s, sizeof s, "%s %s (", name, e->id ? e->id : "?");

		for (size_t i = 0; i < e->nsubnets && n < sizeof s; i++)
			n += (size_t)snprintf(s + n, sizeof s - n, "%s%s", i ? ", " : "",
					      e->subnets[i]);
		if (n < sizeof s)
			snprintf(s + n, sizeof s - n, "%s)", e->nsubnets ? "" : "no subnet");
		note(f->elsewhere, sizeof f->elsewhere, s);
	}
	return ok;
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
	  const char *subnet, struct check_network *f)
{
	char *api = xasprintf("com.amazonaws.%s.ecr.api", region);
	char *dkr = xasprintf("com.amazonaws.%s.ecr.dkr", region);
	char *s3 = xasprintf("com.amazonaws.%s.s3", region);

	f->ecr_api = f->ecr_dkr = f->s3_gateway = FACT_NO;
	for (size_t i = 0; i < eps->n; i++) {
		const struct ec2_endpoint *e = &eps->v[i];

		if (e->service == NULL)
			continue;
		if (strcmp(e->service, api) == 0) {
			if (ecr_endpoint(e, "ecr.api", subnet, f))
				f->ecr_api = FACT_YES;
		} else if (strcmp(e->service, dkr) == 0) {
			if (ecr_endpoint(e, "ecr.dkr", subnet, f))
				f->ecr_dkr = FACT_YES;
		} else if (strcmp(e->service, s3) == 0 && e->type != NULL &&
			   strcmp(e->type, "Gateway") == 0 && e->state != NULL &&
			   strcasecmp(e->state, "available") == 0 && on_table(e, table)) {
			f->s3_gateway = FACT_YES;
		}
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

	f->why[0] = f->elsewhere[0] = '\0';
	if (ec2_describe_subnet(c, t, id, &sn, err) != 0)
		return -1;
	if (ec2_subnet_route_table(c, t, sn.id, sn.vpc_id, &rt, err) == 0) {
		if (default_route(c, t, &rt, f, err) == 0 &&
		    ec2_vpc_endpoints(c, t, sn.vpc_id, &eps, err) == 0) {
			endpoints(&eps, region, rt.id, sn.id, f);
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
	json_array_foreach(json_object_get(svc, "loadBalancers"), i, v) {
		const char *arn = json_string_value(json_object_get(v, "targetGroupArn"));
		struct check_target_group *g;

		if (arn == NULL)
			continue;
		out->target_groups = xreallocarray(out->target_groups, out->ntarget_groups + 1,
						   sizeof *out->target_groups);
		g = &out->target_groups[out->ntarget_groups++];
		memset(g, 0, sizeof *g);
		g->arn = xstrdup(arn);
		g->container = dup_string(json_object_get(v, "containerName"));
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
	for (size_t i = 0; i < svc->ntarget_groups; i++) {
		free((char *)svc->target_groups[i].arn);
		free((char *)svc->target_groups[i].name);
		free((char *)svc->target_groups[i].type);
		free((char *)svc->target_groups[i].container);
	}
	free(svc->target_groups);
	memset(svc, 0, sizeof *svc);
}

static int
creds_of(void *arg, struct aws_creds *out, struct err *err)
{
	return creds_get(arg, out, err);
}

/* a client for ELB alone: aws_scaleout's, whose other endpoints go unused */
static int
elb_client(struct live_session *s, struct aws_scaleout **c, struct err *err)
{
	struct aws_context *ctx = live_session_context(s);
	struct aws_scaleout_options so = { 0 };
	char *url = NULL;
	int rc;

	if (aws_scaleout_endpoint(ctx, AWS_SCALEOUT_ELBV2, &url, err) != 0)
		return -1;
	so.common = aws_client_common_of(ctx, creds_of, ctx);
	so.appscaling_endpoint = so.cloudwatch_endpoint = so.elbv2_endpoint = url;
	rc = aws_scaleout_new(&so, c, err);
	free(url);
	return rc;
}

int
check_live_target_groups(struct live_session *s, struct check_service *svc, struct err *err)
{
	struct http_transport t = { 0 };
	struct aws_scaleout *c = NULL;
	const char **arns;
	char *json = NULL;
	json_t *doc, *g;
	size_t i;
	int rc = -1;

	if (svc->ntarget_groups == 0)
		return 0;
	arns = xcalloc(svc->ntarget_groups, sizeof *arns);
	for (i = 0; i < svc->ntarget_groups; i++)
		arns[i] = svc->target_groups[i].arn;
	if (elb_client(s, &c, err) != 0 || live_session_transport_new(s, &t, err) != 0 ||
	    elbv2_describe_target_groups(c, &t, arns, svc->ntarget_groups, &json, err) != 0)
		goto out;
	doc = json_loads(json, 0, NULL);
	json_array_foreach(json_object_get(doc, "TargetGroups"), i, g) {
		const char *arn = json_string_value(json_object_get(g, "TargetGroupArn"));

		for (size_t k = 0; arn != NULL && k < svc->ntarget_groups; k++) {
			struct check_target_group *x = &svc->target_groups[k];

			if (strcmp(x->arn, arn) != 0 || x->name != NULL)
				continue;
			x->name = dup_string(json_object_get(g, "TargetGroupName"));
			x->type = dup_string(json_object_get(g, "TargetType"));
			if (x->name == NULL)
				x->name = xstrdup(arn);
		}
	}
	json_decref(doc);
	rc = 0;
out:
	free(json);
	free(arns);
	http_curl_free(&t);
	aws_scaleout_free(c);
	return rc;
}
