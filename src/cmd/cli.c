/* cli: the parser (getopt_long over cli_options.c's table) and the global help. An
 * option's row is in cli_options.c, its id in cli_int.h and its meaning in the switch
 * below (or in cli_experiment.c). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_int.h"
#include "ecsprof/cli.h"

static void
print_command(FILE *f, size_t i)
{
	cli_wrap(f, fprintf(f, "  %s", cli_commands[i].usage), 28, CLI_HELP_WIDTH, cli_commands[i].about);
}

/* The global help stays short: the commands and the options every command takes; a
 * command's own options are in its help (cli_usage_command), read from the same tables. */
void
cli_usage(FILE *f)
{
	fprintf(f, "usage: ecsprof COMMAND [OPTIONS] [FILE...]\n\n"
		   "Where the time goes when ECS / Fargate tasks start: provision, image pull,\n"
		   "container start, per task and per group.\n\ncommands:\n");
	for (size_t i = 0; i < cli_ncommands; i++)
		print_command(f, i);
	cli_wrap(f, fprintf(f, "  help [COMMAND]"), 28, CLI_HELP_WIDTH,
		 "this help, or a command's usage and its options");
	fprintf(f, "\nGENERAL:\n");
	for (size_t i = 0; i < cli_noptions; i++)
		if (strcmp(cli_options[i].section, "GENERAL") == 0)
			cli_print_option(f, &cli_options[i]);
	fprintf(f, "\nA command's options: 'ecsprof help COMMAND' or 'ecsprof COMMAND --help'.\n"
		   "Exit status: 0 success, 1 runtime failure, 2 usage error. See ecsprof(1).\n");
}

/* Seconds, possibly fractional ("0.5"), to ms. */
static int
parse_seconds(const char *opt, const char *s, long *out_ms, struct err *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v > 0) || v > 86400)
		return err_set(err, ERR_USAGE, "%s: expected seconds between 0 and 86400, got '%s'",
			       opt, s);
	*out_ms = (long)(v * 1000 + 0.5);
	if (*out_ms < 1)
		*out_ms = 1;
	return 0;
}

static int
parse_choice(const char *opt, const char *s, const char *const *names, int n, int *out,
	     struct err *err)
{
	char list[128] = "";

	for (int i = 0; i < n; i++) {
		if (strcasecmp(s, names[i]) == 0) {   /* STOPPED as ECS spells it, as --sort */
			*out = i;
			return 0;
		}
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
			 names[i]);
	}
	return err_set(err, ERR_USAGE, "%s: '%s' is not one of %s", opt, s, list);
}

static const char *
option_name(int val)
{
	for (size_t i = 0; i < cli_noptions; i++)
		if (cli_options[i].id == val)
			return cli_options[i].name;
	return "?";
}

/* The command word of argv, found before getopt has permuted it: the first argument that
 * is neither an option nor the value of one. */
static const struct cli_command_def *
command_in(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
			return NULL;
		if (a[0] == '-') {
			for (size_t k = 0; k < cli_noptions; k++)
				if (cli_options[k].arg != NULL && strchr(a, '=') == NULL &&
				    (strcmp(a, cli_options[k].name) == 0 ||
				     (a[1] == cli_options[k].short_name && a[1] != '\0' && a[2] == '\0')))
					i++;
			continue;
		}
		for (size_t c = 0; c < cli_ncommands; c++)
			if (strcmp(a, cli_commands[c].name) == 0)
				return &cli_commands[c];
		return NULL;
	}
	return NULL;
}

/* Where a usage error points: the command's own help when the command is known. */
static void
help_for(int argc, char **argv, char *buf, size_t size)
{
	const struct cli_command_def *cmd = command_in(argc, argv);

	if (cmd != NULL)
		snprintf(buf, size, "ecsprof %s --help", cmd->name);
	else
		snprintf(buf, size, "ecsprof --help");
}

/* Levenshtein distance, capped: only small ones matter for a suggestion. */
static size_t
edit_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b), row[64];

	if (na >= 63 || nb >= 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[nb];
}

/* A typo's suggestion: name becomes *near when it is closer to arg[0..n) than *best edits
 * (start *best at 3: two edits at most). For options and commands alike. */
static void
nearer(const char *arg, size_t n, const char *name, size_t *best, const char **near)
{
	size_t d = edit_distance(arg, n, name);

	if (d < *best) {
		*best = d;
		*near = name;
	}
}

/* The usage error for an option getopt did not know: the nearest option name of the
 * command (a typo, two edits at most), and that command's own help. */
static int
unknown_option(int argc, char **argv, const char *arg, struct err *err)
{
	const struct cli_command_def *cmd = command_in(argc, argv);
	size_t n = strcspn(arg, "="), best = 3;
	const char *near = NULL;
	char help[48], hint[96] = "";

	help_for(argc, argv, help, sizeof help);
	for (size_t i = 0; n > 3 && strncmp(arg, "--", 2) == 0 && i < cli_noptions; i++)
		if (cmd == NULL || cli_option_applies(&cli_options[i], cmd->cmd))
			nearer(arg, n, cli_options[i].name, &best, &near);
	if (near != NULL)
		snprintf(hint, sizeof hint, " (did you mean '%s'?)", near);
	return err_set(err, ERR_USAGE, "unknown option '%.*s'%s; see '%s'", (int)n, arg, hint,
		       help);
}

/* The command named word, or a usage error listing the commands (and the nearest one to
 * a typo); `what` says where the word was ("command", "help"). */
static int
command_named(const char *word, const char *what, enum cli_command *out, struct err *err)
{
	size_t best = 3;
	const char *near = NULL;
	char list[256] = "", hint[96] = "";
	size_t nc = cli_ncommands;

	for (size_t i = 0; i < nc; i++) {
		if (strcmp(word, cli_commands[i].name) == 0) {
			*out = cli_commands[i].cmd;
			return 0;
		}
		nearer(word, strlen(word), cli_commands[i].name, &best, &near);
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			 i == 0 ? "" : i + 1 == nc ? " or " : ", ", cli_commands[i].name);
	}
	if (near != NULL)
		snprintf(hint, sizeof hint, " (did you mean '%s'?)", near);
	return err_set(err, ERR_USAGE, "unknown %s '%s'%s: use %s (see 'ecsprof help')", what,
		       word, hint, list);
}

int
cli_parse(int argc, char **argv, struct cli_opts *o, struct err *err)
{
	static const char *const time_formats[] = { "iso", "spreadsheet", "epoch" };
	static const char *const statuses[] = { "all", "running", "stopped" };
	struct option longopts[CLI_OPTIONS_MAX + 1];
	bool seen[CLI_OPTIONS_MAX] = { false };   /* which were given: cli_scope_check() */
	char shortopts[32] = "";
	int c, idx, choice;

	memset(o, 0, sizeof *o);
	o->concurrency = 4;
	cli_experiment_defaults(&o->experiment);
	o->connect_timeout_ms = 5000;
	o->timeout_ms = 30000;
	o->interval_ms = 5000;

	for (size_t i = 0; i < cli_noptions; i++) {
		const struct cli_option_def *d = &cli_options[i];

		longopts[i] = (struct option){ d->name + 2, d->arg ? required_argument : no_argument,
					       NULL, cli_options[i].id };
		if (d->short_name) {
			size_t n = strlen(shortopts);
			shortopts[n] = d->short_name;
			shortopts[n + 1] = '\0';
			if (d->arg)
				snprintf(shortopts + n + 1, sizeof shortopts - n - 1, ":");
		}
	}
	longopts[cli_noptions] = (struct option){ 0 };

	/* "+" would stop at the first non-option; we want options anywhere, as git does,
	 * so use GNU permutation with a leading ':' to report missing arguments ourselves. */
	char spec[40];
	snprintf(spec, sizeof spec, ":%s", shortopts);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, spec, longopts, &idx)) != -1) {
		const char *name = option_name(c);

		for (size_t i = 0; i < cli_noptions; i++)
			if (cli_options[i].id == c)
				seen[i] = true;

		switch (c) {
		case OPT_CLUSTER: o->cluster = optarg; break;
		case OPT_SERVICE: cli_list_add(&o->services, optarg); break;
		case OPT_FAMILY: o->family = optarg; break;
		case OPT_STARTED_BY: o->started_by = optarg; break;
		case OPT_STATUS:
			if (parse_choice(name, optarg, statuses, 3, &choice, err))
				return -1;
			o->status = (enum cli_status)choice;
			break;
		case OPT_TASK: cli_list_add(&o->tasks, optarg); break;
		case OPT_SINCE: o->since = optarg; break;
		case OPT_PROFILE: o->profile = optarg; break;
		case OPT_REGION: o->region = optarg; break;
		case OPT_ENDPOINT_URL: o->endpoint_url = optarg; break;
		case OPT_CONCURRENCY:
			if (cli_parse_long(name, optarg, 1, 64, &o->concurrency, err))
				return -1;
			break;
		case OPT_CONNECT_TIMEOUT:
			if (parse_seconds(name, optarg, &o->connect_timeout_ms, err))
				return -1;
			break;
		case OPT_REQUEST_TIMEOUT:
			if (parse_seconds(name, optarg, &o->timeout_ms, err))
				return -1;
			break;
		case OPT_FORMAT:
			if (cli_format_parse(name, optarg, &o->format, err))   /* cli_scope.c */
				return -1;
			break;
		case OPT_TIME_FORMAT:
			if (parse_choice(name, optarg, time_formats, 3, &choice, err))
				return -1;
			o->time_format = (enum time_format)choice;
			o->time_format_set = true;
			break;
		case 'o': o->output = optarg; break;
		case OPT_SUMMARY: o->summary = true; break;
		case OPT_GROUP_BY: o->group_by = optarg; break;
		case OPT_BASELINE: o->baseline = optarg; break;
		case OPT_SOCI_IF: cli_list_add(&o->soci_if, optarg); break;
		case OPT_SORT: o->sort = optarg; break;
		case OPT_PRICES: o->prices = optarg; break;
		case OPT_DEPLOYMENTS: o->deployments = true; break;
		case OPT_SCALEOUT: o->scaleout = true; break;
		case OPT_CHANGES: o->changes = true; break;
		case OPT_CHANGES_BY: o->changes_by = optarg; break;
		case OPT_NO_COLOR: o->no_color = true; break;
		case OPT_INTERVAL:
			if (parse_seconds(name, optarg, &o->interval_ms, err))
				return -1;
			break;
		case OPT_RECORD: o->record = optarg; break;
		case OPT_COUNT:
			if (cli_parse_long(name, optarg, 1, LONG_MAX, &o->once, err))
				return -1;
			break;
		case 'v': o->verbose++; break;
		case OPT_DEBUG: o->debug = true; break;
		case OPT_QUIET: o->quiet = true; break;
		case OPT_NO_IMAGES: o->no_images = true; break;
		case OPT_IMAGE: cli_list_add(&o->images, optarg); break;
		case OPT_BASELINE_FILE: cli_list_add(&o->baseline_files, optarg); break;
		case OPT_SPLIT: o->split = optarg; break;
		case OPT_FAIL_ON: cli_list_add(&o->fail_on, optarg); break;
		case 'h': o->help = true; break;
		case 'V': o->version = true; break;
		case ':': {
			char help[48];

			help_for(argc, argv, help, sizeof help);
			return err_set(err, ERR_USAGE, "option '%s' needs a value; see '%s'",
				       argv[optind - 1], help);
		}
		default:
			if (cli_experiment_owns(c)) {
				if (cli_experiment_option(o, c, name, optarg, err) != 0)
					return -1;
				break;
			}
			return unknown_option(argc, argv, argv[optind - 1], err);
		}
	}
	/* `ecsprof help [COMMAND]`: the help, of one command when named */
	if (optind < argc && strcmp(argv[optind], "help") == 0) {
		o->help = true;
		if (optind + 2 < argc)
			return err_set(err, ERR_USAGE, "help takes one COMMAND, got '%s' too",
				       argv[optind + 2]);
		return optind + 1 < argc ? command_named(argv[optind + 1], "command", &o->command, err)
					 : 0;
	}
	/* `ecsprof report --help`: the command is known for the help of its own */
	for (size_t i = 0; optind < argc && i < cli_ncommands; i++)
		if (strcmp(argv[optind], cli_commands[i].name) == 0)
			o->command = cli_commands[i].cmd;
	if (o->help || o->version)
		return 0;

	if (optind >= argc)
		return err_set(err, ERR_USAGE, "no command given; see 'ecsprof help'");
	if (o->command == CMD_NONE && command_named(argv[optind], "command", &o->command, err) != 0)
		return -1;
	for (int i = optind + 1; i < argc; i++)
		cli_list_add(&o->files, argv[i]);
	if (cli_experiment_check(o, err) != 0)
		return -1;
	/* -o report.csv without --format: the extension says it (a recording's or an
	 * experiment's -o is data, not a report) */
	if (o->format == FMT_AUTO && o->output != NULL && o->command != CMD_RECORD &&
	    o->command != CMD_EXPERIMENT)
		o->format = cli_format_from_path(o->output);

	if (o->command == CMD_REPORT && o->files.n == 0)
		return err_set(err, ERR_USAGE, "report needs at least one FILE ('-' reads stdin)");
	if (o->command == CMD_CHECK && o->experiment.task_definition != NULL && o->files.n > 0)
		return err_set(err, ERR_USAGE, "check judges --task-definition or a file, not both");
	if (o->command == CMD_CHECK && o->files.n != 1 && o->experiment.task_definition == NULL &&
	    o->services.n == 0)
		return err_set(err, ERR_USAGE, o->files.n == 0 ?
			       "check needs the task definition: ecsprof check TASKDEF.json ('-' reads stdin) or --task-definition FAMILY[:REV]" :
			       "check takes one task definition, not %zu files", o->files.n);
	if (o->command == CMD_DIFF && cli_diff_check(o, err) != 0)
		return -1;
	if (o->command != CMD_REPORT && o->command != CMD_CHECK && o->command != CMD_DIFF &&
	    o->files.n > 0)
		return err_set(err, ERR_USAGE, "unexpected argument '%s': only report, check and diff take files",
			       o->files.v[0]);
	if (o->command == CMD_CHECK && (o->format == FMT_TUI || o->format == FMT_HTML ||
					o->format == FMT_XLSX))
		return err_set(err, ERR_USAGE, "check writes table, csv, json or markdown");
	if (o->command == CMD_RECORD && o->output == NULL)
		return err_set(err, ERR_USAGE, "record needs -o FILE (the recording to append to)");
	if (o->baseline != NULL && o->group_by == NULL)
		return err_set(err, ERR_USAGE, "--baseline needs --group-by (groups to compare)");
	if (o->images.n > 0 && o->command != CMD_IMAGES)
		return err_set(err, ERR_USAGE, "--image is for 'ecsprof images'");
	if (o->no_images && o->command == CMD_IMAGES)
		return err_set(err, ERR_USAGE, "--no-images: 'ecsprof images' is the image lookup");
	if (o->time_format_set && o->format != FMT_AUTO && o->format != FMT_CSV)
		return err_set(err, ERR_USAGE, "--time-format is for --format csv (xlsx has typed dates)");
	if (o->command == CMD_WATCH && (o->format == FMT_HTML || o->format == FMT_XLSX))
		return err_set(err, ERR_USAGE,
			       "watch prints line by line (csv, json) or the UI; for %s, record the tasks and run 'ecsprof report --format %s'",
			       o->format == FMT_HTML ? "html" : "xlsx", o->format == FMT_HTML ? "html" : "xlsx");
	if (o->command == CMD_SCALEOUT && o->services.n != 1)
		return err_set(err, ERR_USAGE, "scaleout needs one --service S (the service whose scale-outs to tell)");
	if (o->record != NULL && o->command != CMD_WATCH)
		return err_set(err, ERR_USAGE, "--record is for watch; use 'ecsprof record -o FILE'");
	return cli_scope_check(o->command, seen, err);   /* cli_scope.c */
}

void
cli_opts_cleanup(struct cli_opts *o)
{
	free(o->services.v);
	free(o->tasks.v);
	free(o->soci_if.v);
	free(o->files.v);
	free(o->images.v);
	free(o->baseline_files.v);
	free(o->fail_on.v);
	cli_experiment_cleanup(&o->experiment);
	memset(o, 0, sizeof *o);
}
