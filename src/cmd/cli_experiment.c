/* cli_experiment: the options of `ecsprof experiment` (their rows are in cli_options.c's
 * table, so --help and the man-page test see them; their meaning is here). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "ecsprof/experiment.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

void
cli_experiment_defaults(struct cli_experiment *e)
{
	memset(e, 0, sizeof *e);
	e->per_arm = EXP_DEFAULT_PER_ARM;
	e->round_size = 1;
	e->max_tasks = EXP_DEFAULT_MAX_TASKS;
}

bool
cli_experiment_owns(int id)
{
	return (id >= OPT_EXP_FIRST && id < OPT_EXP_END) || id == OPT_EXP_N || id == OPT_EXP_YES;
}

/* --timeout DURATION: "90s", "10m", "1h30m", or plain seconds ("90", "2.5"); at most a
 * day, as a task that has not started by then will not. */
static int
parse_wait(const char *name, const char *arg, int64_t *out_ms, struct err *err)
{
	int64_t ms;

	if (timeutil_parse_duration(arg, &ms) != 0) {
		char *end;
		double s;

		errno = 0;
		s = strtod(arg, &end);
		if (errno != 0 || end == arg || *end != '\0' || !(s > 0) || s > 86400)
			ms = -1;
		else
			ms = (int64_t)(s * 1000 + 0.5);
	}
	if (ms < 1000 || ms > 86400000)
		return err_set(err, ERR_USAGE, "%s: '%s' is not a wait from 1s to 1d (a duration "
			       "such as 90s, 10m, 1h, or seconds): the longest wait for each task; "
			       "the timeout of each request is --request-timeout", name, arg);
	*out_ms = ms;
	return 0;
}

int
cli_experiment_option(struct cli_opts *o, int id, const char *name, const char *arg,
		      struct err *err)
{
	struct cli_experiment *e = &o->experiment;

	switch (id) {
	case OPT_EXP_ARM: cli_list_add(&e->arms, arg); return 0;
	case OPT_EXP_N: return cli_parse_long(name, arg, 1, 1000, &e->per_arm, err);
	case OPT_EXP_LAUNCH_TYPE:
		if (strcmp(arg, "FARGATE") != 0 && strcmp(arg, "EC2") != 0)
			return err_set(err, ERR_USAGE, "%s: '%s' is not FARGATE or EC2", name, arg);
		e->launch_type = arg;
		return 0;
	case OPT_EXP_CAPACITY_PROVIDER: e->capacity_provider = arg; return 0;
	case OPT_EXP_PLATFORM_VERSION: e->platform_version = arg; return 0;
	case OPT_EXP_SUBNETS: cli_list_add(&e->subnets, arg); return 0;
	case OPT_EXP_SECURITY_GROUPS: cli_list_add(&e->security_groups, arg); return 0;
	case OPT_EXP_ASSIGN_PUBLIC_IP: e->assign_public_ip = true; return 0;
	case OPT_EXP_NETWORK: e->network_configuration = arg; return 0;
	case OPT_CHECK_TASK_DEFINITION: e->task_definition = arg; return 0;
	case OPT_CHECK_HISTORY: cli_list_add(&e->history, arg); return 0;
	case OPT_EXP_MAX_TASKS: return cli_parse_long(name, arg, 1, 100000, &e->max_tasks, err);
	case OPT_EXP_ROUND_SIZE:
		return cli_parse_long(name, arg, 1, EXP_RUNTASK_MAX, &e->round_size, err);
	case OPT_EXP_SEQUENTIAL: e->sequential = true; return 0;
	case OPT_EXP_PAUSE: e->pause = true; return 0;
	case OPT_EXP_UNTIL:
		if (strcmp(arg, "running") != 0 && strcmp(arg, "healthy") != 0)
			return err_set(err, ERR_USAGE, "%s: '%s' is not running or healthy", name, arg);
		e->until = arg;
		return 0;
	case OPT_EXP_ID:
		if (!exp_id_valid(arg))
			return err_set(err, ERR_USAGE, "%s: '%s': an id is 1 to 64 letters, digits, "
				       "'-' and '_'", name, arg);
		e->id = arg;
		return 0;
	case OPT_EXP_DRY_RUN: e->dry_run = true; return 0;
	case OPT_EXP_YES: e->yes = true; return 0;
	case OPT_EXP_TIMEOUT: return parse_wait(name, arg, &e->wait_timeout_ms, err);
	case OPT_EXP_CLEANUP:
		if (!exp_id_valid(arg))
			return err_set(err, ERR_USAGE, "%s: '%s' is not an experiment id", name, arg);
		e->cleanup = arg;
		return 0;
	default:
		return err_set(err, ERR_INTERNAL, "option %s has no parser", name);
	}
}

/* network: also the platform and network options, which check shares (cli_scope.c) */
static bool
any_set(const struct cli_experiment *e, bool network)
{
	struct cli_experiment d;

	cli_experiment_defaults(&d);
	return e->arms.n || e->per_arm != d.per_arm || e->round_size != d.round_size ||
	       e->max_tasks != d.max_tasks || e->launch_type || e->capacity_provider ||
	       (network && (e->platform_version || e->subnets.n || e->security_groups.n ||
			    e->assign_public_ip)) || e->network_configuration || e->until || e->cleanup ||
	       e->wait_timeout_ms ||
	       e->id || e->sequential || e->pause || e->dry_run || e->yes;
}

int
cli_experiment_check(const struct cli_opts *o, struct err *err)
{
	const struct cli_experiment *e = &o->experiment;

	if (o->command != CMD_EXPERIMENT) {
		if (e->wait_timeout_ms != 0)
			return err_set(err, ERR_USAGE, "--timeout is experiment's wait for its tasks; "
				       "the timeout of each request is --request-timeout SECONDS");
		if (any_set(e, o->command != CMD_CHECK))
			return err_set(err, ERR_USAGE, "--arm, -n, --dry-run, --cleanup and the other "
				       "experiment options are for 'ecsprof experiment'");
		return 0;
	}
	if (e->cleanup != NULL) {
		if (e->arms.n > 0)
			return err_set(err, ERR_USAGE, "--cleanup ID stops a past run; it takes no --arm");
		return 0;
	}
	if (e->arms.n == 0)
		return err_set(err, ERR_USAGE, "experiment needs its arms: --arm NAME=TASKDEF "
			       "--arm NAME=TASKDEF (e.g. --arm no-soci=web:7 --arm soci=web:8)");
	if (e->launch_type != NULL && e->capacity_provider != NULL)
		return err_set(err, ERR_USAGE, "--launch-type and --capacity-provider exclude each "
			       "other (as in RunTask)");
	if (e->pause && !e->sequential)
		return err_set(err, ERR_USAGE, "--pause is for --sequential (it waits between arms)");
	if (e->network_configuration != NULL && (e->subnets.n || e->security_groups.n ||
						 e->assign_public_ip))
		return err_set(err, ERR_USAGE, "--network-configuration or --subnets/"
			       "--security-groups/--assign-public-ip, not both");
	if (!e->dry_run && (o->output == NULL || strcmp(o->output, "-") == 0))
		return err_set(err, ERR_USAGE, "experiment needs -o FILE: the recording every task "
			       "goes into (and the journal --cleanup reads)");
	return 0;
}

void
cli_experiment_cleanup(struct cli_experiment *e)
{
	free(e->arms.v);
	free(e->subnets.v);
	free(e->security_groups.v);
	free(e->history.v);
	memset(e, 0, sizeof *e);
}
