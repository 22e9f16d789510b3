/* diagnose: one real stop message per rule (the texts AWS's ECS troubleshooting pages
 * quote, with the account and addresses of their examples), read through the input
 * reader so that the network facts come from the task's attachments as they would. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/diagnose.h"
#include "ecsprof/input.h"

#define ENI_PRIVATE \
	"[{\"id\":\"a1\",\"type\":\"ElasticNetworkInterface\",\"status\":\"DELETED\",\"details\":[" \
	"{\"name\":\"subnetId\",\"value\":\"subnet-0abc\"},{\"name\":\"privateIPv4Address\"," \
	"\"value\":\"10.0.3.17\"}]}]"
#define ENI_PUBLIC \
	"[{\"id\":\"a1\",\"type\":\"ElasticNetworkInterface\",\"status\":\"DELETED\",\"details\":[" \
	"{\"name\":\"privateIPv4Address\",\"value\":\"10.0.3.17\"},{\"name\":\"publicIPv4Address\"," \
	"\"value\":\"54.1.2.3\"}]}]"
#define NO_ENI "[]"

struct dcase {
	const char *want;         /* rule id, NULL: no diagnosis */
	const char *stop_code;
	const char *reason;       /* stoppedReason */
	const char *creason;      /* containers[0].reason */
	const char *attachments;  /* JSON, NULL: the task has no attachments member */
};

static const struct dcase cases[] = {
	{ "no-route-to-ecr", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v42: failed to do request: Head \"https://111122223333.dkr.ecr.us-east-1.amazonaws.com/v2/web/manifests/v42\": dial tcp 10.0.3.17:443: i/o timeout",
	  NULL, ENI_PRIVATE },
	/* the same message without any network facts: still the contract's cause */
	{ "no-route-to-ecr", "TaskFailedToStart",
	  "CannotPullContainerError: Error response from daemon: Get https://111122223333.dkr.ecr.us-east-1.amazonaws.com/v2/: net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)",
	  NULL, NULL },
	{ "public-ip-no-route", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v42: failed to do request: Head \"https://111122223333.dkr.ecr.us-east-1.amazonaws.com/v2/web/manifests/v42\": dial tcp 52.94.1.2:443: i/o timeout",
	  NULL, ENI_PUBLIC },
	{ "instance-no-route", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v42: dial tcp 52.94.1.2:443: i/o timeout",
	  NULL, NO_ENI },
	{ "no-route-to-registry", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref docker.io/tryretool/backend:2.110.5: failed to do request: Head \"https://registry-1.docker.io/v2/tryretool/backend/manifests/2.110.5\": dial tcp 34.205.13.154:443: i/o timeout",
	  NULL, ENI_PRIVATE },
	{ "no-route-to-s3", "TaskFailedToStart",
	  "CannotPullContainerError: error pulling image configuration: Get https://prod-us-east-1-starport-layer-bucket.s3.amazonaws.com/61d6-a74d/d834cc02?X-Amz-Algorithm=AWS4-HMAC-SHA256: dial tcp 52.216.1.2:443: i/o timeout",
	  NULL, ENI_PRIVATE },
	{ "secrets-no-route", "TaskFailedToStart",
	  "ResourceInitializationError: unable to pull secrets or registry auth: execution resource retrieval failed: unable to retrieve secrets from ssm: service call has been retried 5 time(s): RequestCanceled: request context canceled caused by: context deadline exceeded.",
	  NULL, ENI_PRIVATE },
	{ "no-route-to-ecr", "TaskFailedToStart",
	  "ResourceInitializationError: unable to pull secrets or registry auth: execution resource retrieval failed: unable to retrieve ecr registry auth: service call has been retried 3 time(s): RequestError: send request failed caused by: Post \"https://api.ecr.us-east-1.amazonaws.com/\": dial tcp 52.94.2.3:443: i/o timeout",
	  NULL, ENI_PRIVATE },
	{ "execution-role-secrets", "TaskFailedToStart",
	  "ResourceInitializationError: unable to pull secrets or registry auth: execution resource retrieval failed: unable to retrieve secret from asm: service call has been retried 1 time(s): AccessDeniedException: User: arn:aws:sts::111122223333:assumed-role/ecsTaskExecutionRole/8f4e2a is not authorized to perform: secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:us-east-1:111122223333:secret:db-AbCdEf",
	  NULL, ENI_PRIVATE },
	{ "execution-role", "TaskFailedToStart",
	  "ResourceInitializationError: unable to pull secrets or registry auth: pull command failed: : signal: killed",
	  NULL, ENI_PRIVATE },
	{ "log-group-missing", "TaskFailedToStart",
	  "ResourceInitializationError: failed to validate logger args: create stream has been retried 1 times: failed to create Cloudwatch log stream: ResourceNotFoundException: The specified log group does not exist. : exit status 1",
	  NULL, ENI_PRIVATE },
	{ "docker-hub-rate-limit", "TaskFailedToStart",
	  "CannotPullContainerError: ref pull has been retried 1 time(s): failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/python/manifests/sha256:5501a4fe605abe24de87c2f3d6cf9fd760354416a0cad0296cf284fddcdca9e2: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit",
	  NULL, ENI_PRIVATE },
	{ "image-platform", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): image Manifest does not contain descriptor matching platform 'linux/arm64'",
	  NULL, ENI_PRIVATE },
	{ "image-not-found", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v43: 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v43: not found",
	  NULL, ENI_PRIVATE },
	{ "image-not-found", "TaskFailedToStart",
	  "CannotPullContainerError: Error response from daemon: manifest for 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:latest not found: manifest unknown: Requested image not found",
	  NULL, ENI_PRIVATE },
	{ "execution-role-ecr", "TaskFailedToStart",
	  "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v42: pulling from host 111122223333.dkr.ecr.us-east-1.amazonaws.com failed with status code [manifests v42]: 403 Forbidden",
	  NULL, ENI_PRIVATE },
	{ "disk-full", "TaskFailedToStart",
	  "CannotPullContainerError: failed to register layer: Error processing tar file(exit status 1): write /usr/lib/libLLVM.so.15: no space left on device",
	  NULL, ENI_PRIVATE },
	{ "out-of-memory", "EssentialContainerExited", "Essential container in task exited",
	  "OutOfMemoryError: Container killed due to memory usage", ENI_PRIVATE },
	{ "elb-health-check", "ServiceSchedulerInitiated",
	  "Task failed ELB health checks in (target-group arn:aws:elasticloadbalancing:us-east-1:111122223333:targetgroup/web-tg/73e2d6bc24d8a067)",
	  NULL, ENI_PRIVATE },
	{ "container-health-check", "ServiceSchedulerInitiated",
	  "Task failed container health checks", NULL, ENI_PRIVATE },
	{ "spot-interruption", "SpotInterruption", "Your Spot Task was interrupted.", NULL,
	  ENI_PRIVATE },
	{ "spot-interruption", NULL, "Your Spot Task was interrupted.", NULL, ENI_PRIVATE },
	{ "eni-timeout", "TaskFailedToStart",
	  "Timeout waiting for network interface provisioning to complete.", NULL, ENI_PRIVATE },
	{ "start-timeout", "TaskFailedToStart",
	  "DockerTimeoutError: Could not transition to started; timed out after waiting 3m0s",
	  NULL, ENI_PRIVATE },
	{ "cannot-start", "TaskFailedToStart", "CannotStartContainerError: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"/app/run.sh\": stat /app/run.sh: no such file or directory: unknown",
	  NULL, ENI_PRIVATE },
	{ "essential-container-exited", "EssentialContainerExited",
	  "Essential container in task exited", NULL, ENI_PRIVATE },
	{ "essential-container-exited", NULL, "Essential container in task exited", NULL, NULL },
	{ "scaled-in", "ServiceSchedulerInitiated",
	  "Scaling activity initiated by (deployment ecs-svc/1234567890123456789)", NULL,
	  ENI_PRIVATE },
	{ "stopped-by-user", "UserInitiated", "Task stopped by user", NULL, ENI_PRIVATE },
	/* nothing to say */
	{ NULL, "TaskFailedToStart", "something no rule has heard of", NULL, ENI_PRIVATE },
};

/* The case as an EventBridge-shaped DescribeTasks task, parsed by the input reader. */
static const struct diag_rule *
run_case(const struct dcase *c, struct task_set *set)
{
	char esc[4096], doc[12288];
	struct err err;
	size_t o = 0;
	int n;

	/* the messages have quotes: escape them for JSON */
	for (const char *p = c->reason; *p && o + 2 < sizeof esc; p++) {
		if (*p == '"')
			esc[o++] = '\\';
		esc[o++] = *p;
	}
	esc[o] = '\0';
	n = snprintf(doc, sizeof doc,
		     "{\"taskArn\":\"arn:aws:ecs:us-east-1:111122223333:task/prod/0123456789abcdef\","
		     "\"lastStatus\":\"STOPPED\",\"launchType\":\"FARGATE\"%s%s%s,"
		     "\"stoppedReason\":\"%s\",\"containers\":[{\"name\":\"web\",\"lastStatus\":\"STOPPED\"%s%s%s}]"
		     "%s%s}",
		     c->stop_code ? ",\"stopCode\":\"" : "", c->stop_code ? c->stop_code : "",
		     c->stop_code ? "\"" : "", esc,
		     c->creason ? ",\"reason\":\"" : "", c->creason ? c->creason : "",
		     c->creason ? "\"" : "",
		     c->attachments ? ",\"attachments\":" : "", c->attachments ? c->attachments : "");
	cr_assert(n > 0 && (size_t)n < sizeof doc);
	task_set_init(set);
	cr_assert_eq(input_read_mem("case", doc, strlen(doc), set, &(struct input_stats){ 0 },
				    &err), 0, "%s: %s", doc, err.msg);
	cr_assert_eq(set->len, 1);
	return diagnose_task(&set->tasks[0]);
}

Test(diagnose, every_case_finds_its_rule)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task_set set;
		const struct diag_rule *d = run_case(&cases[i], &set);

		if (cases[i].want == NULL)
			cr_expect_null(d, "case %zu: expected no diagnosis, got %s", i, d ? d->id : "");
		else
			cr_expect(d != NULL && strcmp(d->id, cases[i].want) == 0,
				  "case %zu: expected %s, got %s", i, cases[i].want,
				  d ? d->id : "(none)");
		task_set_cleanup(&set);
	}
}

Test(diagnose, every_rule_has_a_case)
{
	for (size_t r = 0; r < diag_nrules; r++) {
		bool found = false;

		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
			found = found || (cases[i].want && strcmp(cases[i].want, diag_rules[r].id) == 0);
		cr_expect(found, "rule %s has no test case with a real message", diag_rules[r].id);
		cr_expect(diag_rules[r].cause != NULL && diag_rules[r].next_step != NULL);
	}
}

Test(diagnose, the_contract_wording)
{
	struct task_set set;
	const struct diag_rule *d = run_case(&cases[0], &set);

	cr_assert_not_null(d);
	cr_expect_str_eq(d->cause, "no route to ECR from a private subnet");
	cr_expect_str_eq(d->next_step, "add a NAT gateway or the VPC endpoints ecr.api, ecr.dkr "
			 "and an S3 gateway endpoint");
	cr_expect_eq(set.tasks[0].awsvpc, TRI_YES);
	cr_expect_eq(set.tasks[0].public_ip, TRI_UNKNOWN);
	task_set_cleanup(&set);
}

Test(diagnose, a_running_task_has_none)
{
	struct task t;

	task_init(&t);
	task_edit_profile(&t)->last_status = "RUNNING";
	cr_expect_null(diagnose_task(&t));
	task_cleanup(&t);
}

/* A task ECS is still tearing down (DEPROVISIONING, stoppingAt, no stoppedAt and no stop
 * code yet) is down for every output (task_stage), so it is diagnosed now rather than an
 * hour later when it reaches STOPPED. */
Test(diagnose, a_task_on_its_way_down_is_diagnosed)
{
	static const char doc[] =
		"{\"taskArn\":\"arn:aws:ecs:us-east-1:111122223333:task/prod/0123456789abcdef\","
		"\"lastStatus\":\"DEPROVISIONING\",\"desiredStatus\":\"STOPPED\",\"launchType\":\"FARGATE\","
		"\"createdAt\":\"2024-05-01T10:00:00Z\",\"startedAt\":\"2024-05-01T10:00:40Z\","
		"\"stoppingAt\":\"2024-05-01T10:05:00Z\",\"containers\":[{\"name\":\"web\","
		"\"lastStatus\":\"STOPPED\",\"exitCode\":1,"
		"\"reason\":\"Essential container in task exited\"}]}";
	struct task_set set;
	struct err err;
	const struct diag_rule *d;

	task_set_init(&set);
	cr_assert_eq(input_read_mem("case", doc, strlen(doc), &set, &(struct input_stats){ 0 },
				    &err), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	d = diagnose_task(&set.tasks[0]);
	cr_expect(d != NULL && strcmp(d->id, "essential-container-exited") == 0, "got %s",
		  d ? d->id : "(none)");
	task_set_cleanup(&set);
}
