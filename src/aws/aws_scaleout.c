/* aws_scaleout: the client of the scale-out calls (one awsjson client per service, sharing
 * credentials and options) and the endpoints of their services. */
#include <stdio.h>
#include <stdlib.h>

#include "aws_scaleout_int.h"
#include "ecsprof/xalloc.h"

int
aws_scaleout_endpoint(struct aws_context *ctx, enum aws_scaleout_service s, char **url,
		      struct err *err)
{
	static const struct awsjson_service *const svc[] = {
		[AWS_SCALEOUT_APPSCALING] = &awsjson_appscaling,
		[AWS_SCALEOUT_CLOUDWATCH] = &awsjson_cloudwatch,
		[AWS_SCALEOUT_ELBV2] = &awsjson_elbv2,
		[AWS_SCALEOUT_EC2] = &awsjson_ec2,
	};

	*url = NULL;
	if ((size_t)s >= sizeof svc / sizeof svc[0])
		return err_set(err, ERR_INTERNAL, "no such AWS service (%d)", (int)s);
	return awsjson_endpoint(ctx, svc[s], NULL, url, err);
}

static int
client(const struct aws_scaleout_options *o, const struct awsjson_service *svc,
       const char *endpoint, struct awsjson_client **out, struct err *err)
{
	struct awsjson_options ao = { 0 };

	ao.service = svc;
	ao.endpoint = endpoint;
	ao.common = o->common;
	return awsjson_client_new(&ao, out, err);
}

int
aws_scaleout_new(const struct aws_scaleout_options *o, struct aws_scaleout **out,
		 struct err *err)
{
	struct aws_scaleout *c = xcalloc(1, sizeof *c);

	*out = NULL;
	c->cancel = o->common.cancel;
	if (client(o, &awsjson_appscaling, o->appscaling_endpoint, &c->appscaling, err) != 0 ||
	    client(o, &awsjson_cloudwatch, o->cloudwatch_endpoint, &c->cloudwatch, err) != 0 ||
	    client(o, &awsjson_elbv2, o->elbv2_endpoint, &c->elbv2, err) != 0) {
		aws_scaleout_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void
aws_scaleout_free(struct aws_scaleout *c)
{
	if (c == NULL)
		return;
	awsjson_client_free(c->appscaling);
	awsjson_client_free(c->cloudwatch);
	awsjson_client_free(c->elbv2);
	free(c);
}

void
aws_scaleout_counts(struct aws_scaleout *c, size_t *requests, size_t *throttled)
{
	struct awsjson_client *v[] = { c->appscaling, c->cloudwatch, c->elbv2 };

	*requests = *throttled = 0;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		struct awsjson_counts n;

		awsjson_counts(v[i], &n);
		*requests += n.requests;
		*throttled += n.throttled;
	}
}

int
aws_scaleout_take(json_t *answer, const char *op, char **json, struct err *err)
{
	*json = json_dumps(answer, JSON_COMPACT);
	json_decref(answer);
	if (*json == NULL)
		return err_set(err, ERR_INTERNAL, "%s: cannot encode the answer", op);
	return 0;
}
