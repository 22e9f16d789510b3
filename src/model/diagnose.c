/* diagnose: the table of known stop reasons, and the matcher that picks a task's rule.
 *
 * The patterns are the message texts ECS writes into stoppedReason and containers[].reason,
 * as the Amazon ECS Developer Guide's troubleshooting pages quote them:
 *   "Amazon ECS stopped task error messages" (stopped-task-error-codes.html),
 *   "CannotPullContainer task errors" (task_cannot_pull_image.html),
 *   "Troubleshooting ResourceInitializationError errors" (resource-initialization-error.html),
 *   "Troubleshooting OutOfMemoryError errors" (out-of-memory.html),
 *   "Troubleshooting CannotStartContainerError errors" (cannot-start-container.html),
 * and the re:Post knowledge-center articles "Why is my Amazon ECS task stopped?"
 * (ecs-task-stopped), "ecs-fargate-pull-container-error" and "fargate-spot-termination-notice".
 * tests/test_diagnose.c holds one real message per rule. Order matters: a specific rule
 * (the S3 layer bucket, registry auth) comes before the general one it would also match. */
#include <string.h>

#include "ecsprof/diagnose.h"

/* What a connection that never got an answer looks like, from containerd, Docker and the
 * AWS SDK the agents use. */
#define TIMEOUTS "i/o timeout", "request canceled while waiting for connection", \
	"context deadline exceeded", "Client.Timeout exceeded", "connection timed out", \
	"dial tcp", "context canceled"

#define NO_ROUTE_ECR_CAUSE "no route to ECR from a private subnet"
#define NO_ROUTE_ECR_NEXT "add a NAT gateway or the VPC endpoints ecr.api, ecr.dkr and an S3 " \
	"gateway endpoint"

const struct diag_rule diag_rules[] = {
	/* "ResourceInitializationError: unable to pull secrets or registry auth: execution
	 * resource retrieval failed: unable to retrieve secrets from ssm: service call has been
	 * retried 5 time(s): RequestCanceled: request context canceled caused by: context
	 * deadline exceeded." */
	{ "secrets-no-route", NULL, { "ResourceInitializationError", "retrieve secret" }, { TIMEOUTS },
	  DN_NOT_YES, DN_ANY,
	  "no route to Secrets Manager / SSM Parameter Store from a private subnet",
	  "add a NAT gateway or the VPC endpoints secretsmanager and ssm, and allow outbound "
	  "443 in the security group" },
	/* "... unable to retrieve ecr registry auth: service call has been retried 3 time(s):
	 * RequestError: send request failed caused by: Post \"https://api.ecr...\": dial tcp
	 * ...:443: i/o timeout" */
	{ "no-route-to-ecr", NULL, { "ResourceInitializationError", "ecr registry auth" },
	  { TIMEOUTS }, DN_NOT_YES, DN_ANY, NO_ROUTE_ECR_CAUSE, NO_ROUTE_ECR_NEXT },
	/* "... unable to retrieve secret from asm: service call has been retried 1 time(s):
	 * AccessDeniedException: User: arn:aws:sts::...:assumed-role/ecsTaskExecutionRole/...
	 * is not authorized to perform: secretsmanager:GetSecretValue on resource: ..." */
	{ "execution-role-secrets", NULL,
	  { "ResourceInitializationError", "unable to pull secrets or registry auth" },
	  { "AccessDenied", "not authorized to perform", "ResourceNotFoundException",
	    "ParameterNotFound", "InvalidParameters", "KMS" },
	  DN_ANY, DN_ANY,
	  "the task execution role cannot read a secret or the registry credentials "
	  "(or the secret does not exist)",
	  "grant the execution role secretsmanager:GetSecretValue / ssm:GetParameters (and "
	  "kms:Decrypt for a customer key) on that ARN, and check the ARN and its region" },
	/* any other "unable to pull secrets or registry auth" */
	{ "execution-role", NULL,
	  { "ResourceInitializationError", "unable to pull secrets or registry auth" }, { NULL },
	  DN_ANY, DN_ANY,
	  "the task execution role could not fetch the secrets or the registry auth",
	  "check the task definition's executionRoleArn (ecr:GetAuthorizationToken, "
	  "secretsmanager:GetSecretValue, ssm:GetParameters) and its network path" },
	/* "ResourceInitializationError: failed to validate logger args: create stream has been
	 * retried 1 times: failed to create Cloudwatch log stream: ResourceNotFoundException:
	 * The specified log group does not exist." */
	{ "log-group-missing", NULL, { "ResourceInitializationError", "log group does not exist" },
	  { NULL }, DN_ANY, DN_ANY,
	  "the awslogs log group does not exist",
	  "create the log group, or set awslogs-create-group to true (the execution role then "
	  "needs logs:CreateLogGroup)" },
	/* "CannotPullContainerError: ref pull has been retried 1 time(s): failed to copy:
	 * httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/
	 * library/nginx/manifests/sha256:...: 429 Too Many Requests - Server message:
	 * toomanyrequests: You have reached your pull rate limit. ..." */
	{ "docker-hub-rate-limit", NULL, { NULL },
	  { "toomanyrequests", "pull rate limit", "429 Too Many Requests" }, DN_ANY, DN_ANY,
	  "Docker Hub pull rate limit (anonymous pulls count per IP, and a NAT gateway is one IP)",
	  "copy the image to ECR (or an ECR pull-through cache rule), or authenticate the pulls "
	  "with repositoryCredentials" },
	/* "CannotPullContainerError: pull image manifest has been retried 5 time(s): image
	 * Manifest does not contain descriptor matching platform 'linux/arm64'" */
	{ "image-platform", NULL, { "CannotPullContainerError" },
	  { "descriptor matching platform", "no matching manifest", "no match for platform" },
	  DN_ANY, DN_ANY,
	  "the image has no manifest for the task's CPU architecture",
	  "push a multi-architecture image, or set runtimePlatform.cpuArchitecture to the "
	  "image's" },
	/* "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to
	 * resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v42: ...: not found",
	 * "... manifest for ... not found: manifest unknown: Requested image not found" */
	{ "image-not-found", NULL, { "CannotPullContainerError" },
	  { "not found", "manifest unknown", "does not exist" }, DN_ANY, DN_ANY,
	  "the image or its tag does not exist",
	  "check the image URI and tag in the task definition (aws ecr describe-images "
	  "--repository-name REPO --image-ids imageTag=TAG)" },
	/* "CannotPullContainerError: ... AccessDeniedException: User: ... is not authorized to
	 * perform: ecr:BatchGetImage ...", "pull access denied", "403 Forbidden" */
	{ "execution-role-ecr", NULL, { "CannotPullContainerError" },
	  { "AccessDenied", "not authorized to perform", "403 Forbidden", "access denied",
	    "no basic auth credentials", "denied:" },
	  DN_ANY, DN_ANY,
	  "the task execution role may not pull the image",
	  "attach AmazonECSTaskExecutionRolePolicy (ecr:GetAuthorizationToken, "
	  "ecr:BatchGetImage, ecr:GetDownloadUrlForLayer) and check the repository policy" },
	/* "CannotPullContainerError: error pulling image configuration: Get https://prod-us-
	 * east-1-starport-layer-bucket.s3.amazonaws.com/...: dial tcp ...: i/o timeout" */
	{ "no-route-to-s3", NULL, { "CannotPullContainerError", "starport-layer-bucket" },
	  { TIMEOUTS }, DN_ANY, DN_ANY,
	  "ECR answered, but the S3 bucket that holds its layers is not reachable",
	  "add an S3 gateway endpoint to the subnet's route table (ECR serves layers from S3)" },
	/* "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to
	 * resolve ref 111122223333.dkr.ecr.us-east-1.amazonaws.com/web:v42: failed to do
	 * request: Head \"https://...\": dial tcp 10.0.3.17:443: i/o timeout" */
	{ "no-route-to-ecr", NULL, { "CannotPullContainerError", ".ecr." }, { TIMEOUTS },
	  DN_NOT_YES, DN_NOT_NO, NO_ROUTE_ECR_CAUSE, NO_ROUTE_ECR_NEXT },
	/* the same for another registry:
	 * "... failed to resolve ref docker.io/library/nginx:1.27: ... dial tcp ...: i/o timeout" */
	{ "no-route-to-registry", NULL, { "CannotPullContainerError" }, { TIMEOUTS },
	  DN_NOT_YES, DN_NOT_NO,
	  "no route to the image registry from a private subnet",
	  "add a NAT gateway (VPC endpoints reach only AWS services), or copy the image to ECR "
	  "and add its VPC endpoints" },
	{ "public-ip-no-route", NULL, { "CannotPullContainerError" }, { TIMEOUTS },
	  DN_YES, DN_ANY,
	  "the task has a public IP but still cannot reach the registry",
	  "check that the subnet routes 0.0.0.0/0 to an internet gateway and that the security "
	  "group allows outbound 443" },
	{ "instance-no-route", NULL, { "CannotPullContainerError" }, { TIMEOUTS },
	  DN_ANY, DN_ANY,
	  "the container instance cannot reach the registry",
	  "check the instance subnet's route (NAT or internet gateway), any HTTP proxy, and the "
	  "security group's outbound 443" },
	/* "CannotPullContainerError: failed to register layer: ... no space left on device" */
	{ "disk-full", NULL, { NULL }, { "no space left on device" }, DN_ANY, DN_ANY,
	  "out of disk space while pulling or starting the image",
	  "raise ephemeralStorage (Fargate) or the instance's volume, or make the image smaller" },
	/* containers[].reason "OutOfMemoryError: Container killed due to memory usage" */
	{ "out-of-memory", NULL, { NULL },
	  { "OutOfMemoryError", "Container killed due to memory usage" }, DN_ANY, DN_ANY,
	  "a container used more memory than its limit and was killed (exit code 137)",
	  "raise the container's or the task's memory, or find what grows" },
	/* "Task failed ELB health checks in (target-group arn:aws:elasticloadbalancing:...)" */
	{ "elb-health-check", NULL, { "failed ELB health checks" }, { NULL }, DN_ANY, DN_ANY,
	  "the load balancer's health check failed, so ECS replaced the task",
	  "check the target group's health check path and port, that the task's security group "
	  "admits the load balancer, and raise healthCheckGracePeriodSeconds for a slow start" },
	/* "Task failed container health checks" */
	{ "container-health-check", NULL, { "failed container health checks" }, { NULL },
	  DN_ANY, DN_ANY,
	  "the container's own health check failed",
	  "check the task definition's healthCheck command, and give it a startPeriod as long as "
	  "the app's start" },
	/* stopCode SpotInterruption, "Your Spot Task was interrupted." */
	{ "spot-interruption", "SpotInterruption", { NULL }, { NULL }, DN_ANY, DN_ANY,
	  "Fargate Spot took the capacity back (a two-minute notice, then SIGTERM)",
	  "expected on Spot: keep a FARGATE base in the capacity provider strategy, and stop "
	  "cleanly on SIGTERM within stopTimeout (at most 120 s)" },
	{ "spot-interruption", NULL, { "Spot Task was interrupted" }, { NULL }, DN_ANY, DN_ANY,
	  "Fargate Spot took the capacity back (a two-minute notice, then SIGTERM)",
	  "expected on Spot: keep a FARGATE base in the capacity provider strategy, and stop "
	  "cleanly on SIGTERM within stopTimeout (at most 120 s)" },
	/* "Timeout waiting for network interface provisioning to complete." */
	{ "eni-timeout", NULL, { "network interface provisioning" }, { NULL }, DN_ANY, DN_ANY,
	  "the task's network interface (ENI) was not attached in time",
	  "check that the subnets have free IP addresses and the account's ENI quota, then retry" },
	/* "DockerTimeoutError: Could not transition to started; timed out after waiting 3m0s" */
	{ "start-timeout", NULL, { "DockerTimeoutError" }, { NULL }, DN_ANY, DN_ANY,
	  "the container did not start within the agent's timeout",
	  "often a private subnet without a route to ECR, S3 or Secrets Manager; else a slow "
	  "pull or entrypoint" },
	/* "CannotStartContainerError: Error response from daemon: failed to create shim task:
	 * ... exec: \"/app/run.sh\": stat /app/run.sh: no such file or directory" */
	{ "cannot-start", NULL, { "CannotStartContainerError" }, { NULL }, DN_ANY, DN_ANY,
	  "the runtime could not start the container",
	  "read the reason: usually the entryPoint or command (a missing file, exec format "
	  "error for the wrong architecture) or too little memory" },
	/* stopCode EssentialContainerExited, "Essential container in task exited" */
	{ "essential-container-exited", "EssentialContainerExited", { NULL }, { NULL },
	  DN_ANY, DN_ANY,
	  "an essential container exited, so ECS stopped the task",
	  "read that container's exit code and its logs (exit code 1: the app failed; 137: "
	  "killed; 139: crashed)" },
	{ "essential-container-exited", NULL, { "Essential container in task exited" }, { NULL },
	  DN_ANY, DN_ANY,
	  "an essential container exited, so ECS stopped the task",
	  "read that container's exit code and its logs (exit code 1: the app failed; 137: "
	  "killed; 139: crashed)" },
	/* "Scaling activity initiated by (deployment ecs-svc/...)" and StopTask */
	{ "scaled-in", "ServiceSchedulerInitiated", { NULL }, { NULL }, DN_ANY, DN_ANY,
	  "the service scheduler stopped it (scale-in or a deployment replacing it)",
	  "nothing to fix" },
	{ "stopped-by-user", "UserInitiated", { NULL }, { NULL }, DN_ANY, DN_ANY,
	  "stopped by a StopTask call", "nothing to fix" },
};
const size_t diag_nrules = sizeof diag_rules / sizeof diag_rules[0];

/* on its way down or down (task_stage): a DEPROVISIONING task with a stop code is
 * diagnosed now, as the other outputs already mark it */
static bool
diag_stopped(const struct task *t)
{
	return task_stage_is_down(task_stage(t, NULL));
}

/* Does needle occur in the task's stoppedReason or one of its containers' reasons? */
static bool
diag_has(const struct task *t, const char *needle)
{
	if (t->prof->stopped_reason != NULL && strcasestr(t->prof->stopped_reason, needle) != NULL)
		return true;
	for (size_t i = 0; i < t->ncontainers; i++)
		if (t->containers[i].prof->reason != NULL &&
		    strcasestr(t->containers[i].prof->reason, needle) != NULL)
			return true;
	return false;
}

static bool
diag_net_ok(enum diag_net want, enum tri have)
{
	switch (want) {
	case DN_ANY:     return true;
	case DN_YES:     return have == TRI_YES;
	case DN_NOT_YES: return have != TRI_YES;
	case DN_NOT_NO:  return have != TRI_NO;
	}
	return false;
}

static bool
diag_match(const struct diag_rule *r, const struct task *t)
{
	bool any = r->any[0] == NULL;

	if (r->stop_code != NULL && (t->prof->stop_code == NULL || strcmp(r->stop_code, t->prof->stop_code) != 0))
		return false;
	for (size_t i = 0; i < sizeof r->all / sizeof r->all[0] && r->all[i] != NULL; i++)
		if (!diag_has(t, r->all[i]))
			return false;
	for (size_t i = 0; !any && i < sizeof r->any / sizeof r->any[0] && r->any[i] != NULL; i++)
		any = diag_has(t, r->any[i]);
	return any && diag_net_ok(r->public_ip, t->public_ip) && diag_net_ok(r->awsvpc, t->awsvpc);
}

const struct diag_rule *
diagnose_task(const struct task *t)
{
	if (!diag_stopped(t))
		return NULL;
	for (size_t i = 0; i < diag_nrules; i++)
		if (diag_match(&diag_rules[i], t))
			return &diag_rules[i];
	return NULL;
}

const struct diag_rule *
diagnose_rule(const char *id)
{
	for (size_t i = 0; id != NULL && i < diag_nrules; i++)
		if (strcmp(diag_rules[i].id, id) == 0)
			return &diag_rules[i];
	return NULL;
}
