/* check_rules: the rules of `ecsprof check` as data, one row per rule (id, severity,
 * the field it judges, what is wrong, the fix, and its test); the man page's CHECK list
 * and the tests read this table. The task-level Fargate tests are here; the others are
 * in check_wiring.c, check_grid.c and check_image.c. What Fargate refuses is from AWS's
 * "Amazon ECS task definition differences for Fargate" page; what Windows containers do
 * not take (linuxParameters, ulimits) from the ContainerDefinition API reference. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "ecsprof/xalloc.h"

static check_test_fn check_fargate_compat, check_fargate_compat_unset, check_network_mode,
	check_os_arch, check_windows_cpu, check_windows_params, check_gpu, check_privileged, check_ipc_mode,
	check_pid_mode, check_linux_params, check_capabilities, check_placement,
	check_docker_volume, check_links, check_docker_options, check_host_port,
	check_target_type;

static const struct check_rule rules[] = {
	{ "fargate-compat", CHECK_ERROR, "requiresCompatibilities",
	  "requiresCompatibilities does not name FARGATE: RunTask on Fargate refuses the task definition",
	  "add \"FARGATE\" to requiresCompatibilities", check_fargate_compat },
	{ "fargate-compat-unset", CHECK_INFO, "requiresCompatibilities",
	  "requiresCompatibilities is not set: registration does not check the definition against Fargate, only RunTask will",
	  "set requiresCompatibilities to [\"FARGATE\"]", check_fargate_compat_unset },
	{ "fargate-network-mode", CHECK_ERROR, "networkMode",
	  "Fargate runs only networkMode awsvpc", "set networkMode to \"awsvpc\"",
	  check_network_mode },
	{ "fargate-size", CHECK_ERROR, "cpu",
	  "the task's cpu and memory are not a Fargate size",
	  "use a size of Fargate's grid", check_fargate_size },
	{ "fargate-platform-size", CHECK_ERROR, "cpu",
	  "8 and 16 vCPU need Fargate platform version 1.4.0 or later",
	  "run on platform version 1.4.0 (LATEST), or use 4 vCPU or less",
	  check_fargate_platform_size },
	{ "fargate-os-arch", CHECK_ERROR, "runtimePlatform",
	  "Fargate does not run this operating system and CPU architecture",
	  "use LINUX on X86_64 or ARM64, or Windows Server 2019/2022 on X86_64", check_os_arch },
	{ "fargate-windows-cpu", CHECK_ERROR, "cpu",
	  "Windows containers on Fargate need at least 1 vCPU",
	  "set cpu to 1024 (1 vCPU) or more", check_windows_cpu },
	{ "fargate-windows-params", CHECK_ERROR, "containerDefinitions[]",
	  "Windows containers do not take this Linux-only parameter",
	  "remove it from the Windows container", check_windows_params },
	{ "fargate-gpu", CHECK_ERROR, "containerDefinitions[].resourceRequirements",
	  "Fargate has no GPUs or inference accelerators",
	  "remove the GPU requirement, or run on EC2 (a GPU capacity provider)", check_gpu },
	{ "fargate-privileged", CHECK_ERROR, "containerDefinitions[].privileged",
	  "Fargate does not run privileged containers",
	  "remove privileged (add CAP_SYS_PTRACE if that is what it was for)", check_privileged },
	{ "fargate-ipc-mode", CHECK_ERROR, "ipcMode", "Fargate does not take ipcMode",
	  "remove ipcMode", check_ipc_mode },
	{ "fargate-pid-mode", CHECK_ERROR, "pidMode",
	  "Fargate takes pidMode \"task\" only", "remove pidMode or set it to \"task\"",
	  check_pid_mode },
	{ "fargate-linux-params", CHECK_ERROR, "containerDefinitions[].linuxParameters",
	  "Fargate does not take this Linux parameter",
	  "remove it (for /dev/shm size on Fargate, mount a volume there)", check_linux_params },
	{ "fargate-capabilities", CHECK_ERROR,
	  "containerDefinitions[].linuxParameters.capabilities.add",
	  "Fargate lets a container add only the CAP_SYS_PTRACE capability",
	  "remove the other capabilities", check_capabilities },
	{ "fargate-placement", CHECK_ERROR, "placementConstraints[]",
	  "Fargate does not take placement constraints",
	  "remove placementConstraints (choose subnets, hence zones, instead)", check_placement },
	{ "fargate-docker-volume", CHECK_ERROR, "volumes[]",
	  "Fargate supports bind mounts and EFS, not Docker volumes or host paths",
	  "use an EFS volume (efsVolumeConfiguration), or a bind mount without host.sourcePath",
	  check_docker_volume },
	{ "fargate-links", CHECK_ERROR, "containerDefinitions[].links",
	  "Fargate does not take links (awsvpc containers share localhost)",
	  "remove links; reach the other container on localhost:PORT", check_links },
	{ "fargate-docker-options", CHECK_ERROR, "containerDefinitions[]",
	  "Fargate does not take this Docker option",
	  "remove it (DNS comes from the VPC's DHCP options on Fargate)", check_docker_options },
	{ "awsvpc-host-port", CHECK_ERROR, "containerDefinitions[].portMappings[].hostPort",
	  "with awsvpc the host port must be the container port",
	  "remove hostPort or set it to containerPort", check_host_port },
	{ "service-target-type", CHECK_ERROR, "service.loadBalancers[].targetGroupArn",
	  "the service's target group does not take targets by IP: awsvpc tasks register their own IP, so the service cannot register them",
	  "use a target group of target type ip (a new one: the type cannot be changed)",
	  check_target_type },
	{ "container-required", CHECK_ERROR, "containerDefinitions[]",
	  "a container definition lacks what registration requires",
	  "give every container a name and an image", check_container_required },
	{ "container-name-dup", CHECK_ERROR, "containerDefinitions[].name",
	  "two containers have the same name", "give each container its own name",
	  check_container_name_dup },
	{ "container-resources", CHECK_ERROR, "containerDefinitions[]",
	  "the containers ask for more than the task has",
	  "raise the task's size or lower the containers'", check_container_resources },
	{ "no-essential", CHECK_ERROR, "containerDefinitions[].essential",
	  "no container is essential: registration requires one",
	  "mark the main container essential (the default when essential is left out)",
	  check_no_essential },
	{ "depends-unknown", CHECK_ERROR, "containerDefinitions[].dependsOn[].containerName",
	  "dependsOn names a container the task does not have",
	  "name one of the task's containers", check_depends_unknown },
	{ "depends-condition", CHECK_ERROR, "containerDefinitions[].dependsOn[].condition",
	  "dependsOn needs a condition of START, COMPLETE, SUCCESS or HEALTHY",
	  "set condition to one of START, COMPLETE, SUCCESS, HEALTHY", check_depends_condition },
	{ "depends-cycle", CHECK_ERROR, "containerDefinitions[].dependsOn",
	  "the containers wait for each other: none can start",
	  "break the cycle: one of them must not depend on the others", check_depends_cycle },
	{ "depends-healthy-no-check", CHECK_ERROR,
	  "containerDefinitions[].dependsOn[].condition",
	  "HEALTHY on a container without a health check: it never becomes HEALTHY",
	  "give that container a healthCheck, or wait for START", check_depends_healthy_no_check },
	{ "depends-exit-essential", CHECK_ERROR, "containerDefinitions[].dependsOn[].condition",
	  "COMPLETE or SUCCESS on an essential container: its exit stops the task",
	  "mark the container it waits for \"essential\": false", check_depends_exit_essential },
	{ "health-range", CHECK_ERROR, "containerDefinitions[].healthCheck",
	  "a health check value outside what ECS takes",
	  "command non-empty; interval 5-300, timeout 2-60, retries 1-10, startPeriod 0-300 s",
	  check_health_range },
	{ "health-timeout", CHECK_WARN, "containerDefinitions[].healthCheck.timeout",
	  "the health check's timeout is not shorter than its interval",
	  "make timeout shorter than interval", check_health_timeout },
	{ "health-first-check", CHECK_WARN, "containerDefinitions[].healthCheck.interval",
	  "the first health check runs one interval after the container starts: HEALTHY, and what waits for it, comes no sooner",
	  "set interval to 10 s or less (timeout below it)", check_health_first_check },
	{ "health-unhealthy-late", CHECK_WARN, "containerDefinitions[].healthCheck",
	  "a container that never becomes healthy is found out late",
	  "lower startPeriod + interval x retries to 180 s or less", check_health_unhealthy_late },
	{ "nofile-low", CHECK_WARN, "containerDefinitions[].ulimits[].softLimit",
	  "nofile is below Fargate's default of 65535",
	  "raise nofile to 65535 (soft and hard), or remove the ulimit", check_nofile_low },
	{ "ulimit-order", CHECK_ERROR, "containerDefinitions[].ulimits[]",
	  "a soft limit above its hard limit: the container fails to start",
	  "make softLimit at most hardLimit", check_ulimit_order },
	{ "image-latest", CHECK_WARN, "containerDefinitions[].image",
	  "the image has no tag or digest, so it is :latest: each start may pull a different image",
	  "pin a tag (or @sha256: digest) per release", check_image_latest },
	{ "image-docker-hub", CHECK_WARN, "containerDefinitions[].image",
	  "a Docker Hub image pulled anonymously: Docker Hub allows 10 anonymous pulls an hour per IPv4 address (or IPv6 /64), and the tasks behind one NAT gateway share it: past it, CannotPullContainerError (toomanyrequests)",
	  "pull through an ECR pull-through cache rule for Docker Hub (authenticated), or copy the image to ECR, or set repositoryCredentials to a Docker Hub account (authenticated pulls)",
	  check_image_docker_hub },
	{ "image-path", CHECK_ERROR, "containerDefinitions[].image",
	  "the task cannot reach the registry: CannotPullContainerError before the code runs",
	  "give the subnet a NAT route, or a public IP and an internet gateway route, or the ecr.api, ecr.dkr and S3 endpoints",
	  check_image_path },
	{ "image-endpoint-subnet", CHECK_WARN, "containerDefinitions[].image",
	  "the ECR interface endpoints the pull goes through have no interface in the task's subnet",
	  "add the subnet (or one in its Availability Zone) to the ecr.api and ecr.dkr endpoints "
	  "(aws ec2 modify-vpc-endpoint --add-subnet-ids)", check_image_endpoint_subnet },
	{ "image-path-unchecked", CHECK_INFO, "containerDefinitions[].image",
	  "the image path (public IP, routes, VPC endpoints) is not checked",
	  "run with --subnets and live access", check_image_path_unchecked },
	{ "image-size", CHECK_INFO, "containerDefinitions[].image",
	  "the image's facts (from --history's image facts)", "", check_image_size },
	{ "pull-forecast", CHECK_INFO, "containerDefinitions[].image",
	  "no recorded pull fits the task definition's images",
	  "give --history a recording of pulls of this architecture and size (ecsprof record; "
	  "with image facts, as tasks and images record them)", check_pull },
	{ "price", CHECK_INFO, "cpu", "the price of the size", "",
	  check_price },
};

const struct check_rule *
check_rules(size_t *n)
{
	*n = sizeof rules / sizeof rules[0];
	return rules;
}

const struct check_rule *
check_rule_by_id(const char *id)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (strcmp(rules[i].id, id) == 0)
			return &rules[i];
	return NULL;
}

/* "WHAT: the rule's message" at PREFIX[i]SUFFIX */
static void
emit_at(struct check_findings *out, const struct check_rule *r, const char *prefix, size_t i,
	const char *suffix, const char *what)
{
	char *path = xasprintf("%s[%zu]%s", prefix, i, suffix);

	check_emit(out, r, path, NULL, "%s: %s", what, r->message);
	free(path);
}

static void
check_fargate_compat(const struct check_rule *r, const struct check_input *in,
		     struct check_findings *out)
{
	if (!check_on_fargate(in->td))
		check_emit(out, r, r->path, NULL, "requiresCompatibilities is [%s%s]: RunTask on "
			   "Fargate refuses the task definition", in->td->requires[0],
			   in->td->nrequires > 1 ? ", ..." : "");
}

static void
check_fargate_compat_unset(const struct check_rule *r, const struct check_input *in,
			   struct check_findings *out)
{
	if (in->td->nrequires == 0)
		check_emit(out, r, r->path, NULL, "%s", r->message);
}

static void
check_network_mode(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	const char *m = in->td->network_mode;

	if (check_on_fargate(in->td) && (m == NULL || strcmp(m, "awsvpc") != 0))
		check_emit(out, r, r->path, NULL, "networkMode is %s%s: %s", m ? m : "bridge",
			   m ? "" : " (unset: bridge)", r->message);
}

static bool
os_on_fargate(const char *os)
{
	static const char *const ok[] = { "LINUX", "WINDOWS_SERVER_2019_CORE",
		"WINDOWS_SERVER_2019_FULL", "WINDOWS_SERVER_2022_CORE", "WINDOWS_SERVER_2022_FULL",
		"WINDOWS_SERVER_2025_CORE", "WINDOWS_SERVER_2025_FULL" };

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (strcmp(os, ok[i]) == 0)
			return true;
	return false;
}

static void
check_os_arch(const struct check_rule *r, const struct check_input *in,
	      struct check_findings *out)
{
	const struct taskdef *td = in->td;
	const char *arch = taskdef_arch(td);

	if (!check_on_fargate(td))
		return;
	if (td->os_family != NULL && !os_on_fargate(td->os_family))
		check_emit(out, r, "runtimePlatform.operatingSystemFamily", NULL,
			   "operatingSystemFamily %s: Fargate runs LINUX and Windows Server "
			   "2019, 2022 and 2025", td->os_family);
	else if (strcmp(arch, "X86_64") != 0 && strcmp(arch, "ARM64") != 0)
		check_emit(out, r, "runtimePlatform.cpuArchitecture", NULL,
			   "cpuArchitecture %s: Fargate runs X86_64 and ARM64", arch);
	else if (taskdef_is_windows(td) && strcmp(arch, "ARM64") == 0)
		check_emit(out, r, "runtimePlatform.cpuArchitecture",
			   "use X86_64 for Windows, or a Linux image for ARM64",
			   "%s on ARM64: Fargate runs Windows on X86_64 only", td->os_family);
}

static void
check_windows_cpu(const struct check_rule *r, const struct check_input *in,
		  struct check_findings *out)
{
	if (check_on_fargate(in->td) && taskdef_is_windows(in->td) &&
	    in->td->cpu_units != TASKDEF_UNSET && in->td->cpu_units < 1024)
		check_emit(out, r, r->path, NULL, "cpu %s with %s: %s", in->td->cpu_text,
			   in->td->os_family, r->message);
}

static void
check_windows_params(const struct check_rule *r, const struct check_input *in,
		     struct check_findings *out)
{
	for (size_t i = 0; taskdef_is_windows(in->td) && i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];

		if (c->linux_parameters)
			emit_at(out, r, "containerDefinitions", i, ".linuxParameters",
				"linuxParameters");
		if (c->nulimits > 0)
			emit_at(out, r, "containerDefinitions", i, ".ulimits", "ulimits");
	}
}

static void
check_gpu(const struct check_rule *r, const struct check_input *in,
	  struct check_findings *out)
{
	const struct taskdef *td = in->td;

	if (!check_on_fargate(td))
		return;
	if (td->ninference_accelerators > 0)
		check_emit(out, r, "inferenceAccelerators", NULL, "inferenceAccelerators: %s",
			   r->message);
	for (size_t i = 0; i < td->ncontainers; i++)
		if (td->containers[i].gpus > 0 || td->containers[i].inference_accelerator)
			emit_at(out, r, "containerDefinitions", i, ".resourceRequirements",
				td->containers[i].gpus > 0 ? "a GPU" : "an inference accelerator");
}

static void
check_privileged(const struct check_rule *r, const struct check_input *in,
		 struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->ncontainers; i++)
		if (in->td->containers[i].privileged)
			emit_at(out, r, "containerDefinitions", i, ".privileged", "privileged: true");
}

static void
check_ipc_mode(const struct check_rule *r, const struct check_input *in,
	       struct check_findings *out)
{
	if (check_on_fargate(in->td) && in->td->ipc_mode != NULL)
		check_emit(out, r, r->path, NULL, "ipcMode %s: %s", in->td->ipc_mode, r->message);
}

static void
check_pid_mode(const struct check_rule *r, const struct check_input *in,
	       struct check_findings *out)
{
	const char *m = in->td->pid_mode;

	if (check_on_fargate(in->td) && m != NULL && strcmp(m, "task") != 0)
		check_emit(out, r, r->path, NULL, "pidMode %s: %s", m, r->message);
}

static void
check_linux_params(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];
		const struct { bool on; const char *field; } p[] = {
			{ c->ndevices > 0, "devices" }, { c->shared_memory_size, "sharedMemorySize" },
			{ c->tmpfs, "tmpfs" }, { c->max_swap, "maxSwap" },
			{ c->swappiness, "swappiness" },
		};

		for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
			char *path;

			if (!p[k].on)
				continue;
			path = xasprintf("containerDefinitions[%zu].linuxParameters.%s", i,
					 p[k].field);
			check_emit(out, r, path, NULL, "%s: %s", p[k].field, r->message);
			free(path);
		}
	}
}

static void
check_capabilities(const struct check_rule *r, const struct check_input *in,
		   struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];

		for (size_t k = 0; k < c->ncap_add; k++) {
			const char *cap = c->cap_add[k];
			char *path;

			if (strcasecmp(cap, "SYS_PTRACE") == 0 || strcasecmp(cap, "CAP_SYS_PTRACE") == 0)
				continue;
			path = xasprintf("containerDefinitions[%zu].linuxParameters.capabilities."
					 "add[%zu]", i, k);
			check_emit(out, r, path, NULL, "%s: %s", cap, r->message);
			free(path);
		}
	}
}

static void
check_placement(const struct check_rule *r, const struct check_input *in,
		struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->nplacements; i++) {
		const char *t = in->td->placements[i].type;

		emit_at(out, r, "placementConstraints", i, "", t ? t : "a constraint");
	}
}

static void
check_docker_volume(const struct check_rule *r, const struct check_input *in,
		    struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->nvolumes; i++) {
		const struct taskdef_volume *v = &in->td->volumes[i];

		if (v->docker_volume)
			emit_at(out, r, "volumes", i, ".dockerVolumeConfiguration",
				"dockerVolumeConfiguration");
		if (v->host_source_path)
			emit_at(out, r, "volumes", i, ".host.sourcePath", "host.sourcePath");
	}
}

static void
check_links(const struct check_rule *r, const struct check_input *in,
	    struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->ncontainers; i++)
		if (in->td->containers[i].nlinks > 0)
			emit_at(out, r, "containerDefinitions", i, ".links", "links");
}

static void
check_docker_options(const struct check_rule *r, const struct check_input *in,
		     struct check_findings *out)
{
	for (size_t i = 0; check_on_fargate(in->td) && i < in->td->ncontainers; i++) {
		const struct taskdef_container *c = &in->td->containers[i];
		const struct { bool on; const char *field; } p[] = {
			{ c->disable_networking, "disableNetworking" },
			{ c->ndns_servers > 0, "dnsServers" },
			{ c->ndns_search > 0, "dnsSearchDomains" },
			{ c->nextra_hosts > 0, "extraHosts" },
			{ c->nsecurity_opts > 0, "dockerSecurityOptions" },
		};

		for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
			char *path;

			if (!p[k].on)
				continue;
			path = xasprintf("containerDefinitions[%zu].%s", i, p[k].field);
			check_emit(out, r, path, NULL, "%s: %s", p[k].field, r->message);
			free(path);
		}
	}
}

static void
check_host_port(const struct check_rule *r, const struct check_input *in,
		struct check_findings *out)
{
	const struct taskdef *td = in->td;
	bool awsvpc = td->network_mode != NULL && strcmp(td->network_mode, "awsvpc") == 0;

	for (size_t i = 0; (awsvpc || check_on_fargate(td)) && i < td->ncontainers; i++) {
		const struct taskdef_container *c = &td->containers[i];

		for (size_t k = 0; k < c->nports; k++) {
			const struct taskdef_port *p = &c->ports[k];
			char *path;

			if (p->host_port == TASKDEF_UNSET || p->host_port == p->container_port)
				continue;
			path = xasprintf("containerDefinitions[%zu].portMappings[%zu].hostPort", i, k);
			check_emit(out, r, path, NULL, "hostPort %ld, containerPort %ld: %s",
				   p->host_port, p->container_port, r->message);
			free(path);
		}
	}
}

static void
check_target_type(const struct check_rule *r, const struct check_input *in,
		  struct check_findings *out)
{
	for (size_t i = 0; i < in->ntarget_groups; i++) {
		const struct check_target_group *g = &in->target_groups[i];
		char *path;

		if (g->type == NULL || strcmp(g->type, "ip") == 0)
			continue;
		path = xasprintf("service.loadBalancers[%zu].targetGroupArn", i);
		check_emit(out, r, path, NULL, "service %s%s%s: target group %s has target type %s: "
			   "awsvpc tasks (every Fargate task) register by IP, so ECS refuses the "
			   "service or its deployment", in->service ? in->service : "?",
			   g->container ? ", container " : "", g->container ? g->container : "",
			   g->name ? g->name : g->arn, g->type);
		free(path);
	}
}
