/* cmd_experiment: `ecsprof experiment`, the before/after run in one command: check every
 * arm's task definition, print the plan and its cost, ask, then launch (experiment_run.c),
 * stop everything, and report by arm (experiment_report.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/cmd_experiment.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define DEFAULT_WAIT_MS (10 * 60 * 1000)
/* the cost estimate's guess of a task's life when all goes well: start, then the wait for
 * the slowest task of the run, then the stop */
#define TYPICAL_TASK_S 300.0

static void
make_id(char *out, size_t size)
{
	int64_t now = timeutil_now_ms(), days = now / 86400000, y;
	unsigned m, d, r = 0;
	long sod = (long)(now % 86400000 / 1000);
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &r, sizeof r) != (ssize_t)sizeof r)
		r = (unsigned)getpid() ^ (unsigned)now;
	if (fd >= 0)
		close(fd);
	timeutil_civil_from_days(days, &y, &m, &d);
	snprintf(out, size, "%04lld%02u%02uT%02ld%02ld%02ld-%04x", (long long)y, m, d, sod / 3600,
		 sod / 60 % 60, sod % 60, r & 0xffff);
}

static int
read_spec_file(const char *spec, char **out, struct err *err)
{
	const char *path = spec + strlen("file://");
	FILE *f = fopen(path, "rb");
	struct buf b;
	char chunk[4096];
	size_t n;

	if (f == NULL)
		return err_set(err, ERR_USAGE, "--network-configuration %s: %s", spec, err_strerror(errno));
	buf_init(&b, 1 << 20);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (buf_add(&b, chunk, n) != 0) {
			fclose(f);
			buf_cleanup(&b);
			return err_set(err, ERR_USAGE, "--network-configuration %s: too large", spec);
		}
	fclose(f);
	*out = buf_take(&b);
	return 0;
}

static int
setup_network(struct xrun *x, struct err *err)
{
	const struct cli_experiment *e = &x->o->experiment;

	exp_network_init(&x->net);
	if (e->network_configuration != NULL) {
		char *text = NULL;
		int rc;

		if (strncmp(e->network_configuration, "file://", 7) == 0) {
			if (read_spec_file(e->network_configuration, &text, err) != 0)
				return -1;
		}
		rc = exp_network_parse(text ? text : e->network_configuration, &x->net, err);
		free(text);
		return rc;
	}
	for (size_t i = 0; i < e->subnets.n; i++)
		if (exp_network_add_ids(&x->net.subnets, &x->net.nsubnets, e->subnets.v[i],
					"--subnets", err) != 0)
			return -1;
	for (size_t i = 0; i < e->security_groups.n; i++)
		if (exp_network_add_ids(&x->net.security_groups, &x->net.nsecurity_groups,
					e->security_groups.v[i], "--security-groups", err) != 0)
			return -1;
	if (e->assign_public_ip)
		x->net.assign_public_ip = 1;
	if (x->net.nsubnets == 0 && (x->net.nsecurity_groups > 0 || x->net.assign_public_ip >= 0))
		return err_set(err, ERR_USAGE, "--security-groups and --assign-public-ip need "
			       "--subnets (awsvpc network configuration)");
	return 0;
}

static int
setup_arms(struct xrun *x, struct err *err)
{
	const struct cli_experiment *e = &x->o->experiment;

	x->narms = e->arms.n;
	x->arms = xcalloc(x->narms, sizeof *x->arms);
	for (size_t i = 0; i < x->narms; i++) {
		if (exp_arm_parse(e->arms.v[i], &x->arms[i].arm, err) != 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (strcmp(x->arms[j].arm.name, x->arms[i].arm.name) == 0)
				return err_set(err, ERR_USAGE, "--arm %s: two arms with one name",
					       x->arms[i].arm.name);
		x->arms[i].planned = e->per_arm;
	}
	return 0;
}

/* DescribeTaskDefinition of every arm: it must exist, be ACTIVE and fit the launch. */
static int
check_taskdefs(struct xrun *x, struct err *err)
{
	bool fargate = x->launch_type != NULL && strcmp(x->launch_type, "FARGATE") == 0;
	bool ec2 = x->launch_type != NULL && strcmp(x->launch_type, "EC2") == 0;

	for (size_t i = 0; i < x->narms; i++) {
		struct xarm *a = &x->arms[i];
		struct ecs_taskdef *td = &a->td;

		if (ecs_describe_task_definition(x->ecs, a->arm.taskdef, td, err) != 0)
			return err_prefix(err, "arm %s", a->arm.name);
		if (td->status != NULL && strcmp(td->status, "ACTIVE") != 0)
			return err_set(err, ERR_USAGE, "arm %s: task definition %s:%ld is %s, not "
				       "ACTIVE: register a new revision", a->arm.name, td->family,
				       td->revision, td->status);
		if (fargate && !td->compat_fargate)
			return err_set(err, ERR_USAGE, "arm %s: task definition %s:%ld is not "
				       "compatible with FARGATE (compatibilities lack FARGATE: register "
				       "it with --requires-compatibilities FARGATE, networkMode awsvpc and "
				       "task-level cpu and memory), or use --launch-type EC2",
				       a->arm.name, td->family, td->revision);
		if (ec2 && !td->compat_ec2)
			return err_set(err, ERR_USAGE, "arm %s: task definition %s:%ld is not "
				       "compatible with EC2 (its compatibilities lack EC2)", a->arm.name,
				       td->family, td->revision);
		if ((fargate || (td->network_mode && strcmp(td->network_mode, "awsvpc") == 0)) &&
		    x->net.nsubnets == 0)
			return err_set(err, ERR_USAGE, "arm %s: %s needs an awsvpc network "
				       "configuration: --subnets ID,... (and --security-groups), or "
				       "--network-configuration", a->arm.name,
				       fargate ? "FARGATE" : "networkMode awsvpc");
		if (x->until_healthy && !td->health_check)
			return err_set(err, ERR_USAGE, "arm %s: --until healthy, but no essential "
				       "container of %s:%ld has a healthCheck: ECS would never say "
				       "HEALTHY", a->arm.name, td->family, td->revision);
		if (exp_parse_vcpu(td->cpu, &a->vcpu) != 0)
			a->vcpu = 0;
		if (exp_parse_memory_gb(td->memory, &a->gb) != 0)
			a->gb = 0;
		a->arm64 = td->cpu_arch != NULL && strcmp(td->cpu_arch, "ARM64") == 0;
	}
	return 0;
}

static void
print_ids(FILE *f, const char *label, char **v, size_t n)
{
	fprintf(f, "%s", label);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", v[i]);
}

/* The price of one arm's tasks: --prices first, then the built-in table, for the region
 * and the task definition's CPU architecture; FARGATE_SPOT without a spot price falls back
 * to on-demand (*upper set: the estimate is then a bound). NULL: no price known. */
static const struct cost_price *
arm_price(const struct xrun *x, const struct xarm *a, bool spot, bool *upper)
{
	const struct cost_price *p = cost_price_lookup(&x->prices, x->region, a->td.cpu_arch,
						       spot);

	if (p == NULL && spot) {
		p = cost_price_lookup(&x->prices, x->region, a->td.cpu_arch, false);
		*upper = *upper || p != NULL;
	}
	return p;
}

static void
print_prices(const struct xrun *x, FILE *f, bool spot)
{
	const struct cost_price *shown[EXP_MAX_ARMS];
	size_t nshown = 0;
	bool upper = false;

	fprintf(f, "Fargate %s %s:", spot ? "Spot" : "on-demand", x->region ? x->region : "?");
	for (size_t i = 0; i < x->narms; i++) {
		const struct cost_price *p = arm_price(x, &x->arms[i], spot, &upper);
		bool seen = false;

		for (size_t j = 0; j < nshown; j++)
			seen = seen || shown[j] == p;
		if (p == NULL || seen)
			continue;
		shown[nshown++] = p;
		fprintf(f, "%s %s $%g per vCPU-hour, $%g per GB-hour (%s)", nshown > 1 ? ";" : "",
			p->arch, p->vcpu_hour, p->gb_hour,
			x->prices.n > 0 && p >= x->prices.v && p < x->prices.v + x->prices.n
				? "--prices" : "built-in");
	}
	if (upper)
		fprintf(f, "; no FARGATE_SPOT price given (--prices), so on-demand: an upper bound");
	fprintf(f, ", 1-minute minimum");
}

/* The plan and the estimated cost, before anything is launched. */
static double
print_plan(const struct xrun *x, FILE *f)
{
	const struct cli_experiment *e = &x->o->experiment;
	bool fargate = x->launch_type ? strcmp(x->launch_type, "FARGATE") == 0
				      : e->capacity_provider != NULL &&
					strncmp(e->capacity_provider, "FARGATE", 7) == 0;
	bool spot = e->capacity_provider != NULL && strcmp(e->capacity_provider, "FARGATE_SPOT") == 0;
	double worst_s = (double)x->wait_timeout_ms / 1000.0 + 60, cost_max = 0, cost_typ = 0;
	char wait[32];
	bool sizes = true, priced = true, upper = false;

	fprintf(f, "experiment %s on cluster %s (%s): %zu arm%s x %ld task%s = %ld tasks, ",
		x->id, x->cluster ? x->cluster : "default", x->region ? x->region : "?",
		x->narms, x->narms == 1 ? "" : "s", e->per_arm, e->per_arm == 1 ? "" : "s",
		x->plan.total);
	if (e->sequential)
		fprintf(f, "arm after arm%s", e->pause ? ", pausing between arms" : "");
	else
		fprintf(f, "interleaved in %zu round%s of %ld per arm", x->plan.nrounds,
			x->plan.nrounds == 1 ? "" : "s", e->round_size);
	fprintf(f, " (%zu RunTask call%s, at most %d tasks each; --max-tasks %ld)\n",
		x->plan.ncalls, x->plan.ncalls == 1 ? "" : "s", EXP_RUNTASK_MAX, e->max_tasks);
	for (size_t i = 0; i < x->narms; i++) {
		const struct xarm *a = &x->arms[i];

		fprintf(f, "  arm %-12s %s:%ld", a->arm.name, a->td.family ? a->td.family : a->arm.taskdef,
			a->td.revision);
		if (a->vcpu > 0 && a->gb > 0)
			fprintf(f, "  %g vCPU, %g GB%s", a->vcpu, a->gb, a->arm64 ? ", ARM64" : "");
		else
			sizes = false;
		fprintf(f, "  x %ld\n", a->planned);
		const struct cost_price *price = arm_price(x, a, spot, &upper);

		priced = priced && price != NULL;
		if (price != NULL && a->vcpu > 0 && a->gb > 0) {
			cost_max += (double)a->planned * exp_fargate_cost(price, a->vcpu, a->gb,
									  worst_s);
			cost_typ += (double)a->planned * exp_fargate_cost(price, a->vcpu, a->gb,
									  TYPICAL_TASK_S);
		}
	}
	fprintf(f, "  launch: %s%s%s", x->launch_type ? x->launch_type : "capacity provider ",
		x->launch_type ? "" : e->capacity_provider,
		e->platform_version ? "" : "");
	if (e->platform_version)
		fprintf(f, ", platform %s", e->platform_version);
	if (x->net.nsubnets > 0) {
		print_ids(f, "; subnets ", x->net.subnets, x->net.nsubnets);
		if (x->net.nsecurity_groups > 0)
			print_ids(f, "; security groups ", x->net.security_groups,
				  x->net.nsecurity_groups);
		fprintf(f, "; public IP %s", x->net.assign_public_ip == 1 ? "yes" : "no");
	}
	fprintf(f, "\n  tags %s=%s, %s=ARM; startedBy %s\n", EXP_TAG_EXPERIMENT, x->id,
		EXP_TAG_ARM, x->started_by);
	if (x->wait_timeout_ms % 60000 == 0)
		snprintf(wait, sizeof wait, "%lldm", (long long)(x->wait_timeout_ms / 60000));
	else
		snprintf(wait, sizeof wait, "%.0fs", (double)x->wait_timeout_ms / 1000);
	fprintf(f, "  wait: each task until %s or STOPPED, at most %s (--timeout); then StopTask "
		"of every task\n", x->until_healthy ? "HEALTHY" : "RUNNING", wait);
	if (fargate && sizes && priced) {
		fprintf(f, "  estimated cost: about $%.4f (%ld tasks for about %.0f min each), at "
			"most $%.4f (each billed until --timeout and its stop); ", cost_typ,
			x->plan.total, TYPICAL_TASK_S / 60, cost_max);
		print_prices(x, f, spot);
		fprintf(f, "\n");
	} else if (fargate && sizes)
		fprintf(f, "  estimated cost: unknown (no Fargate price for region %s and these "
			"architectures: give one with --prices FILE)\n", x->region ? x->region : "?");
	else if (fargate)
		fprintf(f, "  estimated cost: unknown (a task definition has no task-level cpu and "
			"memory)\n");
	else
		fprintf(f, "  estimated cost: no Fargate charge (EC2 capacity is billed by its "
			"instances)\n");
	if (x->recording != NULL)
		fprintf(f, "  recording: %s (also the journal: after a crash, "
			"ecsprof experiment --cleanup %s -o %s)\n", x->recording, x->id,
			x->recording);
	return cost_max;
}

static void
print_requests(const struct xrun *x, FILE *f)
{
	for (size_t i = 0; i < x->plan.ncalls; i++) {
		const struct exp_call *c = &x->plan.calls[i];
		struct ecs_run_request req;
		struct ecs_tag_kv tags[2];
		char token[96], *body;

		snprintf(token, sizeof token, "%.40s-%zu-0", x->id, i);
		xrun_fill_request(x, c->arm, c->count, token, tags, &req);
		body = ecs_run_request_json(&req, false);
		fprintf(f, "# RunTask %zu/%zu (%s %zu, arm %s)\n%s\n", i + 1, x->plan.ncalls,
			x->o->experiment.sequential ? "arm" : "round", c->round + 1,
			x->arms[c->arm].arm.name, body);
		free(body);
	}
}

/* --yes, or a terminal that says yes. */
static int
confirm(const struct xrun *x, struct err *err)
{
	char line[32];

	if (x->o->experiment.yes)
		return 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return err_set(err, ERR_USAGE, "experiment: not on a terminal, so nobody can confirm "
			       "launching %ld tasks: add --yes (or --dry-run to see the plan)",
			       x->plan.total);
	fprintf(stderr, "Launch these %ld tasks? [y/N] ", x->plan.total);
	fflush(stderr);
	if (fgets(line, sizeof line, stdin) == NULL ||
	    (strcmp(line, "y\n") != 0 && strcmp(line, "yes\n") != 0 && strcmp(line, "Y\n") != 0))
		return err_set(err, ERR_USAGE, "experiment: not confirmed; nothing launched");
	return 0;
}

static int
setup(struct xrun *x, const struct cli_opts *o, struct err *err)
{
	const struct cli_experiment *e = &o->experiment;
	struct exp_plan_options po = { 0 };

	/* what the run does logs through the held log (straight to stderr until a view is
	 * up); x->warned (zeroed) says its warnings there too */
	held_log_init(&x->held, o->log);
	x->vo = *o;
	x->vo.log = &x->held.log;
	o = x->o = &x->vo;
	x->warned.log = o->log;
	x->cluster = o->cluster;
	x->recording = o->output;
	x->until_healthy = e->until != NULL && strcmp(e->until, "healthy") == 0;
	x->interval_ms = o->interval_ms;
	x->wait_timeout_ms = e->wait_timeout_ms > 0 ? e->wait_timeout_ms : DEFAULT_WAIT_MS;
	x->launch_type = e->capacity_provider ? NULL : e->launch_type ? e->launch_type : "FARGATE";
	if (e->id != NULL)
		snprintf(x->id, sizeof x->id, "%s", e->id);
	else
		make_id(x->id, sizeof x->id);
	snprintf(x->started_by, sizeof x->started_by, "%s%s", EXP_STARTED_BY_PREFIX, x->id);
	/* the recording is the journal of every task launched: a file it cannot be is refused
	 * now, not after the first RunTask (which would launch a task only to stop it) */
	if (!e->dry_run && x->recording != NULL && record_check_file(o->log, x->recording, err) != 0)
		return -1;
	if (setup_arms(x, err) != 0 || setup_network(x, err) != 0)
		return -1;
	po.narms = x->narms;
	po.per_arm = e->per_arm;
	po.round_size = e->round_size;
	po.sequential = e->sequential;
	po.max_tasks = e->max_tasks;
	if (exp_plan_build(&po, &x->plan, err) != 0)
		return -1;
	if (o->prices != NULL && cost_prices_load(&x->prices, o->prices, err) != 0)
		return -1;
	struct live_options lo = app_live_options(o);
	if (live_session_new(&lo, &x->session, err) != 0)
		return -1;
	x->ecs = live_session_ecs(x->session);
	x->region = live_session_region(x->session);
	return check_taskdefs(x, err);
}

int
cmd_experiment(const struct cli_opts *o, struct err *err)
{
	struct xrun x;
	int rc = -1, stop_rc;

	if (o->experiment.cleanup != NULL)
		return xrun_cleanup_command_run(o, err);
	memset(&x, 0, sizeof x);
	if (setup(&x, o, err) != 0)
		goto out;
	if (o->experiment.dry_run) {
		print_plan(&x, stdout);
		printf("\n");
		print_requests(&x, stdout);
		printf("dry run: nothing launched\n");
		rc = fflush(stdout) == 0 ? 0 : err_set(err, ERR_IO, "cannot write the plan: %s",
						       err_strerror(errno));
		goto out;
	}
	print_plan(&x, stderr);
	if (confirm(&x, err) != 0)
		goto out;
	xrun_signals_install(&x);
	rc = xrun_launch_and_wait(&x, err);
	/* whatever happened above, nothing is left running */
	{
		struct err e2;
		err_clear(&e2);
		stop_rc = xrun_stop_all(&x, x.interrupted ? "interrupted" : rc == 0 ? "done"
										   : "failed", &e2);
		if (stop_rc != 0 && rc == 0) {
			*err = e2;
			rc = -1;
		} else if (stop_rc != 0) {
			fprintf(stderr, "ecsprof: %s\n", e2.msg);
		}
	}
	xrun_signals_restore();
	if (x.ntasks > 0) {
		struct err e3;
		err_clear(&e3);
		if (xrun_report(&x, rc == 0 ? err : &e3) != 0 && rc == 0)
			rc = -1;
	}
	if (rc == 0 && x.interrupted) {
		rc = err_set(err, ERR_INTERNAL, "experiment %s interrupted: every task it started "
			     "was stopped; the recording %s has what was seen", x.id, x.recording);
	}
out:
	xrun_cleanup(&x);
	return rc;
}
