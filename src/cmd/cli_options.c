/* cli_options: the tables every reader of the command line shares: the options
 * (cli_options[]: --help, the man-page test, the completions and getopt_long all read it,
 * so an option cannot exist in one place and not the others) and the commands, and how a
 * row of them prints in help. It calls nothing else of the command line: the parser
 * (cli.c) and the per-command help (cli_scope.c) both read it. */
#include <stdio.h>

#include "cli_int.h"
#include "ecsprof/cli.h"
#include "ecsprof/utf8.h"

const struct cli_option_def cli_options[] = {
	{ "--cluster", 0, "NAME", "cluster name or ARN (default: ECS's \"default\")", "SELECT", OPT_CLUSTER },
	{ "--service", 0, "NAME", "only tasks of this service (repeatable)", "SELECT", OPT_SERVICE },
	{ "--family", 0, "NAME", "only tasks of this task-definition family", "SELECT", OPT_FAMILY },
	{ "--started-by", 0, "STRING", "only tasks started by this (e.g. a deployment id)", "SELECT", OPT_STARTED_BY },
	{ "--status", 0, "running|stopped|all", "desired status of the tasks (default all)", "SELECT", OPT_STATUS },
	{ "--task", 0, "ARN_OR_ID", "only this task (repeatable)", "SELECT", OPT_TASK },
	{ "--since", 0, "WHEN", "only tasks created since WHEN: 30m, 2h, 1d or an ISO 8601 time", "SELECT", OPT_SINCE },
	{ "--image", 0, "REPO[:TAG|@DIGEST]", "images: this image, without any task (repeatable)", "SELECT", OPT_IMAGE },
	{ "--profile", 0, "NAME", "AWS profile (default: AWS_PROFILE, else \"default\")", "AWS", OPT_PROFILE },
	{ "--region", 0, "REGION", "AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, profile)", "AWS", OPT_REGION },
	{ "--endpoint-url", 0, "URL", "ECS endpoint only (default: AWS_ENDPOINT_URL_ECS, AWS_ENDPOINT_URL, profile, standard); ECR, STS and SSO keep theirs: AWS_ENDPOINT_URL_ECR etc.", "AWS", OPT_ENDPOINT_URL },
	{ "--concurrency", 0, "N", "DescribeTasks requests in flight (default 4)", "AWS", OPT_CONCURRENCY },
	{ "--connect-timeout", 0, "SECONDS", "connect timeout per request (default 5)", "AWS", OPT_CONNECT_TIMEOUT },
	{ "--request-timeout", 0, "SECONDS", "timeout of each request (default 30)", "AWS", OPT_REQUEST_TIMEOUT },
	{ "--no-images", 0, NULL, "no ECR lookups of the tasks' images (image columns empty)", "AWS", OPT_NO_IMAGES },
	{ "--format", 0, "tui|table|csv|json|markdown|html|xlsx", "output format (default: tui on a terminal, else table)", "OUTPUT", OPT_FORMAT },
	{ "--time-format", 0, "iso|spreadsheet|epoch", "CSV times: ISO 8601 Z (default), YYYY-MM-DD HH:MM:SS.mmm UTC, or epoch seconds", "OUTPUT", OPT_TIME_FORMAT },
	{ "--output", 'o', "FILE", "write to FILE instead of stdout (record, experiment: the recording)", "OUTPUT", 'o' },
	{ "--summary", 0, NULL, "one row per group and phase instead of one per task", "OUTPUT", OPT_SUMMARY },
	{ "--group-by", 0, "KEY", "group tasks by KEY (family, taskdef, service, soci, tag:NAME, ...)", "OUTPUT", OPT_GROUP_BY },
	{ "--baseline", 0, "GROUP", "group the others are compared with (default: the first)", "OUTPUT", OPT_BASELINE },
	{ "--soci-if", 0, "KEY=GLOB", "label tasks matching as SOCI, the others as no-soci (repeatable)", "OUTPUT", OPT_SOCI_IF },
	{ "--sort", 0, "COLUMN[:desc]", "sort tasks by a column (default created_at)", "OUTPUT", OPT_SORT },
	{ "--deployments", 0, NULL, "one row per service deployment (report; tasks with --service)", "OUTPUT", OPT_DEPLOYMENTS },
	{ "--scaleout", 0, NULL, "report: one row per scale-out, from the trigger to serving traffic (see SCALE-OUT)", "OUTPUT", OPT_SCALEOUT },
	{ "--changes", 0, NULL, "report: the change points of one history: the windows where a phase shifted, and the attribute that changed then", "OUTPUT", OPT_CHANGES },
	{ "--changes-by", 0, "day|deployment", "report --changes: the windows compared, each with the one before (default day: UTC days of createdAt)", "OUTPUT", OPT_CHANGES_BY },
	{ "--prices", 0, "FILE", "Fargate prices per region/architecture/capacity: startup_cost_usd, experiment's estimate (see ecsprof(1))", "OUTPUT", OPT_PRICES },
	{ "--no-color", 0, NULL, "no colours (also when NO_COLOR is set)", "OUTPUT", OPT_NO_COLOR },
	{ "--interval", 0, "SECONDS", "watch: seconds between polls (default 5)", "WATCH", OPT_INTERVAL },
	{ "--record", 0, "FILE", "watch: also save every task seen to FILE", "WATCH", OPT_RECORD },
	{ "--count", 0, "N", "watch: stop polling after N polls (default: until q or Ctrl-C)", "WATCH", OPT_COUNT },
	{ "--baseline-file", 0, "FILE", "diff: a file of the baseline window (repeatable); every FILE argument is then the new window", "DIFF", OPT_BASELINE_FILE },
	{ "--split", 0, "WHEN|deployment", "diff: one history cut at WHEN (as --since reads it; a task created at WHEN is new), or at its newest deployment", "DIFF", OPT_SPLIT },
	{ "--fail-on", 0, "EXPR", "diff: exit 3 when a significant change crosses EXPR: PHASE.STAT>+N% or >+Ns, < for improvements; STAT p50, p90 or mean (repeatable)", "DIFF", OPT_FAIL_ON },
	{ "--arm", 0, "NAME=TASKDEF", "experiment: an arm and its task definition (repeat: 2 or more)", "EXPERIMENT", OPT_EXP_ARM },
	{ "--tasks-per-arm", 'n', "N", "experiment: tasks per arm (default 10)", "EXPERIMENT", OPT_EXP_N },
	{ "--launch-type", 0, "FARGATE|EC2", "experiment: launch type (default FARGATE)", "EXPERIMENT", OPT_EXP_LAUNCH_TYPE },
	{ "--capacity-provider", 0, "NAME", "experiment: a capacity provider instead of a launch type", "EXPERIMENT", OPT_EXP_CAPACITY_PROVIDER },
	{ "--platform-version", 0, "V", "experiment, check: Fargate platform version (default LATEST)", "EXPERIMENT", OPT_EXP_PLATFORM_VERSION },
	{ "--subnets", 0, "ID,...", "experiment, check: awsvpc subnets (repeatable)", "EXPERIMENT", OPT_EXP_SUBNETS },
	{ "--security-groups", 0, "ID,...", "experiment, check: awsvpc security groups (repeatable)", "EXPERIMENT", OPT_EXP_SECURITY_GROUPS },
	{ "--assign-public-ip", 0, NULL, "experiment, check: give each task a public IP", "EXPERIMENT", OPT_EXP_ASSIGN_PUBLIC_IP },
	{ "--task-definition", 0, "FAMILY[:REV]", "check: the registered task definition (DescribeTaskDefinition) instead of a file", "EXPERIMENT", OPT_CHECK_TASK_DEFINITION },
	{ "--history", 0, "FILE", "check: recorded pulls (any input report reads) for the pull forecast (repeatable)", "EXPERIMENT", OPT_CHECK_HISTORY },
	{ "--network-configuration", 0, "SPEC", "experiment: as aws ecs run-task takes it (shorthand, JSON or file://)", "EXPERIMENT", OPT_EXP_NETWORK },
	{ "--max-tasks", 0, "M", "experiment: never launch more than M tasks in all (default 50)", "EXPERIMENT", OPT_EXP_MAX_TASKS },
	{ "--round-size", 0, "K", "experiment: tasks per arm in each interleaved round (default 1)", "EXPERIMENT", OPT_EXP_ROUND_SIZE },
	{ "--sequential", 0, NULL, "experiment: arm after arm instead of interleaved rounds", "EXPERIMENT", OPT_EXP_SEQUENTIAL },
	{ "--pause", 0, NULL, "experiment: with --sequential, wait for Enter before each next arm", "EXPERIMENT", OPT_EXP_PAUSE },
	{ "--timeout", 0, "DURATION", "experiment: the longest wait for each task, from its launch: 90s, 10m, 1h (default 10m)", "EXPERIMENT", OPT_EXP_TIMEOUT },
	{ "--until", 0, "running|healthy", "experiment: what each task is waited for (default running)", "EXPERIMENT", OPT_EXP_UNTIL },
	{ "--id", 0, "ID", "experiment: name the experiment (default: the time and a random suffix)", "EXPERIMENT", OPT_EXP_ID },
	{ "--dry-run", 0, NULL, "experiment: print the plan and the RunTask requests, launch nothing", "EXPERIMENT", OPT_EXP_DRY_RUN },
	{ "--yes", 'y', NULL, "experiment: launch without asking", "EXPERIMENT", OPT_EXP_YES },
	{ "--cleanup", 0, "ID", "experiment: stop what the run ID left (its journal in -o FILE, and startedBy)", "EXPERIMENT", OPT_EXP_CLEANUP },
	{ "--verbose", 'v', NULL, "say more on stderr (requests, retries, counts)", "GENERAL", 'v' },
	{ "--debug", 0, NULL, "trace HTTP exchanges and canonical requests (secrets redacted)", "GENERAL", OPT_DEBUG },
	{ "--quiet", 0, NULL, "no progress line on stderr during long work", "GENERAL", OPT_QUIET },
	{ "--help", 'h', NULL, "show this help", "GENERAL", 'h' },
	{ "--version", 'V', NULL, "show the version", "GENERAL", 'V' },
};

#define NOPTIONS (sizeof cli_options / sizeof cli_options[0])
const size_t cli_noptions = NOPTIONS;
/* the parser's arrays are sized by the bound (cli_noptions is no constant elsewhere) */
_Static_assert(NOPTIONS <= CLI_OPTIONS_MAX, "raise CLI_OPTIONS_MAX in cli_int.h");

const struct cli_command_def cli_commands[] = {
	{ "tasks", CMD_TASKS, "tasks  [SELECT] [OUTPUT]", "live: ListTasks + DescribeTasks, profile the tasks" },
	{ "watch", CMD_WATCH, "watch  [SELECT] [OUTPUT]", "live, polling: follow a scale-out as it happens" },
	{ "record", CMD_RECORD, "record [SELECT] -o FILE", "live: save the raw tasks (JSON Lines) for later" },
	{ "report", CMD_REPORT, "report [OUTPUT] FILE...", "offline: profile saved data ('-' reads stdin)" },
	{ "images", CMD_IMAGES, "images [SELECT] [OUTPUT]", "live: what was pulled (ECR): size, layers, SOCI, advice" },
	{ "experiment", CMD_EXPERIMENT, "experiment --cluster C --arm A=TD --arm B=TD [-n N] -o FILE",
	  "live: run N tasks per arm (RunTask), record, compare, stop them" },
	{ "scaleout", CMD_SCALEOUT, "scaleout --cluster C --service S [--since WHEN] [OUTPUT]",
	  "live: where a scale-out's minutes go, alarm to serving" },
	{ "check", CMD_CHECK, "check  [NETWORK] [OUTPUT] TASKDEF.json",
	  "offline: will this task definition start on Fargate, and how fast" },
	{ "diff", CMD_DIFF, "diff [OPTIONS] BASELINE NEW | --split WHEN FILE...",
	  "offline: what changed between two windows, and why; --fail-on gates CI (exit 3)" },
};

const size_t cli_ncommands = sizeof cli_commands / sizeof cli_commands[0];

void
cli_wrap(FILE *f, int col, int indent, int width, const char *text)
{
	const char *p = text;

	if (col >= indent) {
		fputc('\n', f);
		col = 0;
	}
	/* the longest run of whole words that fits; a word longer than the room gets a
	 * line of its own rather than being cut */
	while (*p != '\0') {
		size_t next, n = utf8_line_break(p, width - indent, false, NULL, &next);

		fprintf(f, "%*s%.*s\n", indent - col, "", (int)n, p);
		col = 0;
		p += next;
	}
}

size_t
cli_command_count(void)
{
	return cli_ncommands;
}

const char *
cli_command_at(size_t i, enum cli_command *cmd)
{
	if (i >= cli_ncommands)
		return NULL;
	if (cmd != NULL)
		*cmd = cli_commands[i].cmd;
	return cli_commands[i].name;
}

void
cli_print_option(FILE *f, const struct cli_option_def *d)
{
	char left[64];

	if (d->short_name)
		snprintf(left, sizeof left, "-%c, %s%s%s", d->short_name, d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
	else
		snprintf(left, sizeof left, "    %s%s%s", d->name, d->arg ? " " : "",
			 d->arg ? d->arg : "");
	cli_wrap(f, fprintf(f, "  %s", left), 37, CLI_HELP_WIDTH, d->help);
}

const char *
cli_command_usage(enum cli_command cmd)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].cmd == cmd)
			return cli_commands[i].usage;
	return "COMMAND [OPTIONS] [FILE...]";
}
