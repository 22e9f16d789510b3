/* fuzz_ec2: libFuzzer harness for ec2.c's answer readers, the calls behind `ecsprof check`'s
 * image path: DescribeSubnets, DescribeRouteTables (the subnet's own table, else the VPC's
 * main one), DescribeVpcEndpoints and DescribeNatGateways, each through its whole call
 * (signing, paging, the query protocol's XML, then the reader that turns the answer into
 * ec2.h's structs). fuzz_awsquery stops at awsquery_read; this one goes on to the readers.
 * The first byte picks the call (low two bits) and the HTTP status (200, or 400 with the
 * next bit); the rest is the server's body, served to every request of the call (a repeated
 * nextToken ends the paging; a ninth request gets a network error). What must hold:
 * - no crash, leak or out-of-bounds read (ASan/UBSan);
 * - a failure is one line, and leaves the output empty;
 * - a success gives what ec2.h promises: the subnet asked for with its VPC, a route table's
 *   routes counted, endpoints' lists counted, a NAT gateway's state never NULL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/ec2.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct served {
	const char *body;
	size_t len;
	long status;
	int calls;
};

static int
serve(void *ctx, const struct http_request *req, struct http_response *resp,
      struct err *err)
{
	struct served *s = ctx;

	(void)req;
	if (++s->calls > 8)
		return err_set(err, ERR_NETWORK, "fuzz: no more answers");
	resp->status = s->status;
	resp->headers = xstrdup("Content-Type: text/xml\r\n");
	buf_add(&resp->body, s->body, s->len);
	return 0;
}

static int
creds(void *arg, struct aws_creds *out, struct err *err)
{
	(void)arg;
	(void)err;
	memset(out, 0, sizeof *out);
	out->access_key_id = xstrdup("AKIDFUZZ");
	out->secret_access_key = xstrdup("secret");
	out->expires_ms = TS_NONE;
	out->source = xstrdup("fuzz");
	return 0;
}

static void
one_line(int rc, const struct err *err)
{
	if (rc != 0 && (err->msg[0] == '\0' || strchr(err->msg, '\n') != NULL))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ec2_options o = {
		.common = { .region = "us-east-1", .max_attempts = 1, .creds = creds },
		.endpoint = "https://ec2.us-east-1.amazonaws.com" };
	struct served s;
	struct http_transport t = { serve, &s };
	struct err err = { 0 };
	struct ec2 *c;
	int rc;

	if (size == 0)
		return 0;
	s = (struct served){ (const char *)data + 1, size - 1, data[0] & 4 ? 400 : 200, 0 };
	if (ec2_new(&o, &c, &err) != 0)
		abort();
	switch (data[0] & 3) {
	case 0: {
		struct ec2_subnet sn;

		rc = ec2_describe_subnet(c, &t, "subnet-0a1", &sn, &err);
		one_line(rc, &err);
		if (rc == 0 && (sn.id == NULL || strcmp(sn.id, "subnet-0a1") != 0 ||
				sn.vpc_id == NULL))
			abort();
		if (rc != 0 && (sn.id != NULL || sn.vpc_id != NULL))
			abort();
		ec2_subnet_free(&sn);
		break;
	}
	case 1: {
		struct ec2_route_table rt;

		rc = ec2_subnet_route_table(c, &t, "subnet-0a1", "vpc-1", &rt, &err);
		one_line(rc, &err);
		/* every route read through: ASan sees a bad string */
		for (size_t i = 0; rc == 0 && i < rt.nroutes; i++)
			(void)(strlen(rt.routes[i].destination ? rt.routes[i].destination : "") +
			       strlen(rt.routes[i].target ? rt.routes[i].target : ""));
		if (rt.id == NULL && rt.nroutes != 0)
			abort();
		ec2_route_table_free(&rt);
		break;
	}
	case 2: {
		struct ec2_endpoints e;

		rc = ec2_vpc_endpoints(c, &t, "vpc-1", &e, &err);
		one_line(rc, &err);
		for (size_t i = 0; rc == 0 && i < e.n; i++) {
			for (size_t j = 0; j < e.v[i].nroute_tables; j++)
				if (e.v[i].route_tables[j] == NULL)
					abort();
			for (size_t j = 0; j < e.v[i].nsubnets; j++)
				if (e.v[i].subnets[j] == NULL)
					abort();
		}
		if (rc != 0 && e.n != 0)
			abort();
		ec2_endpoints_free(&e);
		break;
	}
	default: {
		char *state = NULL;

		rc = ec2_nat_gateway_state(c, &t, "nat-0a1", &state, &err);
		one_line(rc, &err);
		if ((rc == 0) != (state != NULL))
			abort();
		free(state);
		break;
	}
	}
	ec2_free(c);
	return 0;
}
