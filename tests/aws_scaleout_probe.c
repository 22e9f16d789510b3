/* aws_scaleout_probe: the scale-out calls (aws_scaleout.h, ecs_describe_services_json) run
 * from the command line, for tests/cli/scaleout_aws_*.py to compare with what the AWS CLI
 * prints against the same server. The AWS settings come as for ecsprof (AWS_REGION,
 * AWS_ENDPOINT_URL*, the credential chain). Prints the one JSON document on stdout, or
 * err's one line on stderr and exits 1.
 *   aws_scaleout_probe activities CLUSTER SERVICE [SINCE_MS]
 *   aws_scaleout_probe policies CLUSTER SERVICE
 *   aws_scaleout_probe alarms NAME...
 *   aws_scaleout_probe history NAME [START_MS END_MS]
 *   aws_scaleout_probe target-groups ARN...
 *   aws_scaleout_probe target-health ARN
 *   aws_scaleout_probe services CLUSTER NAME...
 *   aws_scaleout_probe endpoint appscaling|cloudwatch|elbv2|ec2 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/aws_scaleout.h"
#include "ecsprof/ecs.h"
#include "ecsprof/http_curl.h"
#include "ecsprof/timeutil.h"

static int
creds(void *arg, struct aws_creds *out, struct err *err)
{
	return creds_get(arg, out, err);
}

static int
transport_new(void *arg, struct http_transport *out, struct err *err)
{
	struct http_curl_options o = { 0 };

	(void)arg;
	return http_curl_new(&o, out, err);
}

static void
transport_free(void *arg, struct http_transport *t)
{
	(void)arg;
	http_curl_free(t);
}

static int64_t
ms_arg(const char *s)
{
	return strcmp(s, "-") == 0 ? TS_NONE : strtoll(s, NULL, 10);
}

static int
ecs_call(struct aws_context *ctx, int argc, char **argv, char **json, struct err *err)
{
	struct ecs_client_options o = { 0 };
	struct ecs_client *c;
	int rc;

	o.common.region = ctx->region;
	o.endpoint = ctx->endpoint;
	o.common.max_attempts = ctx->max_attempts;
	o.concurrency = 1;
	o.common.creds = creds;
	o.common.creds_arg = ctx;
	o.transport_new = transport_new;
	o.transport_free = transport_free;
	if (ecs_client_new(&o, &c, err) != 0)
		return -1;
	rc = ecs_describe_services_json(c, argv[2], (const char *const *)argv + 3,
					(size_t)argc - 3, json, err);
	ecs_client_free(c);
	return rc;
}

static int
call(struct aws_context *ctx, struct aws_scaleout *c, const struct http_transport *t,
     int argc, char **argv, char **json, struct err *err)
{
	const char *op = argv[1];

	if (strcmp(op, "activities") == 0 && argc >= 4)
		return appscaling_describe_activities(c, t, argv[2], argv[3],
						      argc > 4 ? ms_arg(argv[4]) : TS_NONE, json, err);
	if (strcmp(op, "policies") == 0 && argc == 4)
		return appscaling_describe_policies(c, t, argv[2], argv[3], json, err);
	if (strcmp(op, "alarms") == 0)
		return cloudwatch_describe_alarms(c, t, (const char *const *)argv + 2,
						  (size_t)argc - 2, json, err);
	if (strcmp(op, "history") == 0 && (argc == 3 || argc == 5))
		return cloudwatch_alarm_history(c, t, argv[2], argc == 5 ? ms_arg(argv[3]) : TS_NONE,
						argc == 5 ? ms_arg(argv[4]) : TS_NONE, json, err);
	if (strcmp(op, "target-groups") == 0)
		return elbv2_describe_target_groups(c, t, (const char *const *)argv + 2,
						    (size_t)argc - 2, json, err);
	if (strcmp(op, "target-health") == 0 && argc == 3)
		return elbv2_describe_target_health(c, t, argv[2], json, err);
	if (strcmp(op, "services") == 0 && argc >= 4)
		return ecs_call(ctx, argc, argv, json, err);
	return err_set(err, ERR_USAGE, "usage: see the first comment of tests/aws_scaleout_probe.c");
}

int
main(int argc, char **argv)
{
	static const char *const names[] = { "appscaling", "cloudwatch", "elbv2", "ec2" };
	struct aws_context_options co = { .service = "ecs" };
	struct aws_scaleout_options so = { 0 };
	struct aws_context ctx;
	struct aws_scaleout *c = NULL;
	struct http_transport t = { 0 }, ctx_t = { 0 };
	struct http_curl_options ho = { 0 };
	struct err err = { 0 };
	char *urls[3] = { NULL, NULL, NULL }, *json = NULL;
	int rc = -1;

	if (argc < 2) {
		fprintf(stderr, "usage: see the first comment of tests/aws_scaleout_probe.c\n");
		return 2;
	}
	if (http_curl_new(&ho, &ctx_t, &err) != 0 || http_curl_new(&ho, &t, &err) != 0 ||
	    aws_context_init(&ctx, &co, ctx_t, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (strcmp(argv[1], "endpoint") == 0 && argc == 3) {
		for (int i = 0; i < 4; i++)
			if (strcmp(argv[2], names[i]) == 0 &&
			    (rc = aws_scaleout_endpoint(&ctx, (enum aws_scaleout_service)i, &json,
							&err)) == 0)
				printf("%s\n", json);
		goto out;
	}
	for (int i = 0; i < 3; i++)
		if (aws_scaleout_endpoint(&ctx, (enum aws_scaleout_service)i, &urls[i], &err) != 0)
			goto out;
	so.common.region = ctx.region;
	so.appscaling_endpoint = urls[0];
	so.cloudwatch_endpoint = urls[1];
	so.elbv2_endpoint = urls[2];
	so.common.max_attempts = ctx.max_attempts;
	so.common.creds = creds;
	so.common.creds_arg = &ctx;
	if (aws_scaleout_new(&so, &c, &err) != 0)
		goto out;
	rc = call(&ctx, c, &t, argc, argv, &json, &err);
	if (rc == 0)
		printf("%s\n", json);
out:
	if (rc != 0)
		fprintf(stderr, "%s\n", err.msg);
	free(json);
	for (int i = 0; i < 3; i++)
		free(urls[i]);
	aws_scaleout_free(c);
	aws_context_cleanup(&ctx);
	http_curl_free(&t);
	http_curl_free(&ctx_t);
	return rc == 0 ? 0 : 1;
}
