/* cli_scope: which commands each option belongs to, and the words a command's help uses
 * for an option that means something else there. From it: `ecsprof COMMAND --help`
 * lists only that command's options, in that command's words, an option given to a command it does not belong to
 * is refused (exit 2, naming the commands it is for), and -o's extension picks the output
 * format when --format is absent. An option not in the table belongs to every command. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli_int.h"
#include "ecsprof/cli.h"
#include "ecsprof/sink.h"

#define T (1u << CMD_TASKS)
#define W (1u << CMD_WATCH)
#define R (1u << CMD_RECORD)
#define P (1u << CMD_REPORT)
#define I (1u << CMD_IMAGES)
#define X (1u << CMD_EXPERIMENT)
#define C (1u << CMD_CHECK)
#define D (1u << CMD_DIFF)
#define S (1u << CMD_SCALEOUT)

/* Options that belong to some commands only, by name. The AWS options are accepted by
 * report too, as aws(1) takes --region everywhere: an alias with --profile must not break
 * the offline command. */
static const struct {
	const char *name;
	unsigned cmds;
} scope[] = {
	/* experiment selects exactly the tasks it started, and groups them by arm */
	{ "--service", T | W | R | P | I | D | C | S },
	{ "--family", T | W | R | P | I | D | S },
	{ "--started-by", T | W | R | P | I | D | S },
	{ "--status", T | W | R | P | I | D | S },
	{ "--task", T | W | R | P | I | D | S },
	{ "--since", T | W | R | P | I | D | S },
	{ "--image", I },
	/* check judges a task definition for the network experiment runs it in */
	{ "--platform-version", X | C },
	{ "--subnets", X | C },
	{ "--security-groups", X | C },
	{ "--assign-public-ip", X | C },
	{ "--task-definition", C },
	{ "--history", C },
	/* check makes a handful of calls and looks no image up */
	{ "--concurrency", ~C },
	{ "--no-images", ~C },
	{ "--format", T | W | P | I | X | C | D | S },
	{ "--time-format", T | W | P | X | S },
	{ "--summary", T | W | P },
	{ "--group-by", T | W | P },
	{ "--baseline", T | W | P },
	{ "--soci-if", T | W | P | X | D },
	{ "--sort", T | W | P },
	{ "--deployments", T | P },
	{ "--scaleout", P },
	{ "--changes", P },
	{ "--changes-by", P },
	{ "--prices", T | W | P | X | C },
	{ "--no-color", T | W | P | I | X | D },
	{ "--interval", W | X },
	{ "--record", W },
	{ "--count", W },
	{ "--baseline-file", D },
	{ "--split", D },
	{ "--fail-on", D },
};

static const struct {
	enum cli_command cmd;
	const char *name;
	const char *what;
} about[] = {
	{ CMD_TASKS, "tasks", "Lists the cluster's tasks (ListTasks, DescribeTasks) and profiles their start: provision, image pull, container start, per task and per group." },
	{ CMD_WATCH, "watch", "Polls the cluster and shows each task as it starts, until q, Ctrl-C or --count polls: a scale-out as it happens." },
	{ CMD_RECORD, "record", "Saves the raw tasks as JSON Lines (appending to FILE), for 'ecsprof report' later." },
	{ CMD_REPORT, "report", "Profiles saved data, offline: recordings, aws ecs describe-tasks output, EventBridge events, task metadata; '-' reads stdin." },
	{ CMD_IMAGES, "images", "One row per image the tasks pulled (ECR): size, layers, compression, SOCI index, pull times and advice." },
	{ CMD_EXPERIMENT, "experiment", "Runs N tasks per arm (RunTask) in interleaved rounds, records them, compares the arms and stops every task it started." },
	{ CMD_SCALEOUT, "scaleout", "Tells where the minutes of a service's scale-outs went, live: from the alarm's first breaching datapoint to the new tasks serving traffic (detect, react, schedule, launch, the per-task stages, register), one row each, and which stage to shorten and how." },
	{ CMD_CHECK, "check", "Judges a task definition (register-task-definition JSON, or DescribeTaskDefinition's answer) before anyone deploys it: what Fargate rejects, what holds the start back, and the price; --format table, csv, json or markdown." },
	{ CMD_DIFF, "diff", "Compares two windows of saved tasks (any input report reads): per phase the two sides, the change with its 95% CI and Holm-corrected p-value, what changed between the windows (image digest, task definition, platform version, capacity, AZ, architecture, SOCI, registry) and which change explains each significant one. Windows: BASELINE NEW (two files); --baseline-file FILE (repeatable) with the new window's FILEs; or --split WHEN FILE... (one history, tasks created at or after WHEN are new; 'deployment': at its newest deployment's first task)." },
};

/* What an option is called in one command's help when the shared text (cli_options[]) is
 * another command's: its argument, its help and its section (NULL: the shared one). */
static const struct {
	enum cli_command cmd;
	const char *name, *arg, *help, *section;
} wording[] = {
	{ CMD_CHECK, "--task-definition", NULL, "judge the registered task definition (DescribeTaskDefinition; FAMILY alone: its latest revision) instead of a file", "CHECK" },
	{ CMD_CHECK, "--history", NULL, "recorded pulls (any input report reads; repeatable): the expected pull time, its spread, and the price per 1,000 starts", "CHECK" },
	{ CMD_CHECK, "--platform-version", NULL, "the Fargate platform version judged (default LATEST, i.e. 1.4.0)", "CHECK" },
	{ CMD_CHECK, "--subnets", NULL, "the task's awsvpc subnets (repeatable): the image path is looked up in EC2 (routes, NAT gateways, VPC endpoints)", "NETWORK" },
	{ CMD_CHECK, "--security-groups", NULL, "the task's awsvpc security groups (repeatable)", "NETWORK" },
	{ CMD_CHECK, "--assign-public-ip", NULL, "the task gets a public IP (assignPublicIp ENABLED)", "NETWORK" },
	{ CMD_CHECK, "--service", NULL, "judge as this service runs it: its subnets, assignPublicIp, platform version, task definition and target groups (DescribeServices)", "NETWORK" },
	{ CMD_CHECK, "--cluster", NULL, "the cluster of --service (default: ECS's \"default\")", "NETWORK" },
	{ CMD_CHECK, "--endpoint-url", NULL, "ECS endpoint only (default: AWS_ENDPOINT_URL_ECS, AWS_ENDPOINT_URL, profile, standard); EC2 and ELB keep theirs: AWS_ENDPOINT_URL_EC2, AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2", NULL },
	{ CMD_CHECK, "--format", "table|csv|json|markdown", "output format (default table)", NULL },
	{ CMD_CHECK, "--output", NULL, "write to FILE instead of stdout", NULL },
	{ CMD_CHECK, "--prices", NULL, "Fargate prices per region and architecture (default: the built-in on-demand prices; see ecsprof(1))", NULL },
};

/* d as cmd's help shows it: a copy in *out with cmd's words, or d itself */
static const struct cli_option_def *
option_for(const struct cli_option_def *d, enum cli_command cmd, struct cli_option_def *out)
{
	for (size_t i = 0; i < sizeof wording / sizeof wording[0]; i++) {
		if (wording[i].cmd != cmd || strcmp(wording[i].name, d->name) != 0)
			continue;
		*out = *d;
		if (wording[i].arg != NULL)
			out->arg = wording[i].arg;
		out->help = wording[i].help;
		if (wording[i].section != NULL)
			out->section = wording[i].section;
		return out;
	}
	return d;
}

static const char *
command_name(enum cli_command cmd)
{
	for (size_t i = 0; i < sizeof about / sizeof about[0]; i++)
		if (about[i].cmd == cmd)
			return about[i].name;
	return "?";
}

static unsigned
option_cmds(const struct cli_option_def *d)
{
	for (size_t i = 0; i < sizeof scope / sizeof scope[0]; i++)
		if (strcmp(scope[i].name, d->name) == 0)
			return scope[i].cmds;
	if (strcmp(d->section, "EXPERIMENT") == 0)
		return X;
	return ~0u;
}

bool
cli_option_applies(const struct cli_option_def *d, enum cli_command cmd)
{
	return (option_cmds(d) & (1u << cmd)) != 0;
}

int
cli_scope_check(enum cli_command cmd, const bool *seen, struct err *err)
{
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct cli_option_def *d = &cli_options[i];
		unsigned cmds = option_cmds(d);
		char list[128] = "";
		int n = 0;

		if (!seen[i] || cli_option_applies(d, cmd))
			continue;
		for (size_t c = 0; c < sizeof about / sizeof about[0]; c++)
			if (cmds & (1u << about[c].cmd))
				snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
					 n++ ? ", " : "", about[c].name);
		return err_set(err, ERR_USAGE, "%s does not apply to %s: it is for %s (see 'ecsprof %s --help')",
			       d->name, command_name(cmd), list, command_name(cmd));
	}
	return 0;
}

/* The one mapping between the sink's formats (its table is the list of formats) and the
 * command line's enum. */
static const enum cli_format of_sink[SINK_FORMAT_COUNT] = {
	[SINK_TABLE] = FMT_TABLE, [SINK_CSV] = FMT_CSV, [SINK_JSON] = FMT_JSON,
	[SINK_MARKDOWN] = FMT_MARKDOWN, [SINK_HTML] = FMT_HTML, [SINK_XLSX] = FMT_XLSX,
};

const char *
cli_format_name(enum cli_format fmt)
{
	size_t n;
	const struct sink_format *f = sink_formats(&n);

	for (size_t i = 0; i < n; i++)
		if (of_sink[f[i].id] == fmt)
			return f[i].name;
	return NULL;
}

enum cli_format
cli_format_from_path(const char *path)
{
	const struct sink_format *f = sink_format_by_path(path);

	return f != NULL ? of_sink[f->id] : FMT_AUTO;
}

int
cli_format_parse(const char *opt, const char *name, enum cli_format *out, struct err *err)
{
	size_t n;
	const struct sink_format *f = sink_formats(&n);
	char list[160] = "auto, tui";

	if (strcasecmp(name, "auto") == 0 || strcasecmp(name, "tui") == 0) {
		*out = strcasecmp(name, "auto") == 0 ? FMT_AUTO : FMT_TUI;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcasecmp(name, f[i].name) == 0) {
			*out = of_sink[f[i].id];
			return 0;
		}
		snprintf(list + strlen(list), sizeof list - strlen(list), ", %s", f[i].name);
	}
	return err_set(err, ERR_USAGE, "%s: '%s' is not one of %s", opt, name, list);
}

void
cli_usage_command(FILE *f, enum cli_command cmd)
{
	/* CHECK and NETWORK hold check's own options (wording[] puts them there) */
	static const char *const sections[] = { "CHECK", "NETWORK", "SELECT", "AWS", "OUTPUT", "WATCH",
					  "EXPERIMENT", "DIFF", "GENERAL" };

	fprintf(f, "usage: ecsprof %s\n", cli_command_usage(cmd));
	if (cmd == CMD_CHECK)
		fprintf(f, "       ecsprof check  [NETWORK] [OUTPUT] --task-definition FAMILY[:REV]\n"
			   "       ecsprof check  --service S [--cluster C] [OUTPUT]\n");
	fputc('\n', f);
	for (size_t i = 0; i < sizeof about / sizeof about[0]; i++)
		if (about[i].cmd == cmd)
			cli_wrap(f, 0, 2, CLI_HELP_WIDTH - 2, about[i].what);
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
		bool any = false;

		for (size_t i = 0; i < cli_noptions; i++) {
			struct cli_option_def own;
			const struct cli_option_def *d = option_for(&cli_options[i], cmd, &own);

			if (strcmp(d->section, sections[s]) != 0 || !cli_option_applies(d, cmd))
				continue;
			if (!any)
				fprintf(f, "\n%s:\n", sections[s]);
			any = true;
			cli_print_option(f, d);
		}
	}
	if (cmd == CMD_TASKS || cmd == CMD_WATCH || cmd == CMD_REPORT || cmd == CMD_IMAGES ||
	    cmd == CMD_SCALEOUT)
		fprintf(f, "\nWith -o FILE and no --format, FILE's extension picks the format (.csv, .json,\n"
			   ".md, .html, .xlsx; else a table).\n");
	if (cmd == CMD_CHECK) {
		fprintf(f, "\nWith -o FILE and no --format, FILE's extension picks the format (.csv, .json,\n"
			   ".md; else a table).\n"
			   "\nAll commands: 'ecsprof --help'. Exit status: 0 no error finding, 1 one or\n"
			   "more error findings, 2 usage error, 4 no verdict (a file unreadable, an AWS\n"
			   "call failed: named on stderr). See ecsprof(1), CHECK.\n");
		return;
	}
	if (cmd == CMD_DIFF)
		fprintf(f, "\nExit status 3: a --fail-on threshold was crossed by a significant change.\n");
	fprintf(f, "\nAll commands: 'ecsprof --help'. Exit status: 0 success, 1 runtime failure,\n"
		   "2 usage error. See ecsprof(1).\n");
}
