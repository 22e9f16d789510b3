/* cli_int: what the command line's files share: the getopt ids and the tables
 * (cli_options.c), the value parsers (cli_value.c) and the per-command option parsers.
 * Ownership: the options borrow argv; lists are freed by the _cleanup(). */
#ifndef ECSPROF_CLI_INT_H
#define ECSPROF_CLI_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "ecsprof/cli.h"
#include "ecsprof/err.h"

/* getopt ids of the options cli.c parses itself (cli_options.c's table names them) */
enum {
	OPT_CLUSTER = 256, OPT_SERVICE, OPT_FAMILY, OPT_STARTED_BY, OPT_STATUS, OPT_TASK,
	OPT_SINCE, OPT_PROFILE, OPT_REGION, OPT_ENDPOINT_URL, OPT_CONCURRENCY,
	OPT_CONNECT_TIMEOUT, OPT_REQUEST_TIMEOUT, OPT_FORMAT, OPT_SUMMARY, OPT_GROUP_BY,
	OPT_BASELINE, OPT_SOCI_IF, OPT_SORT, OPT_NO_COLOR, OPT_INTERVAL, OPT_RECORD,
	OPT_COUNT, OPT_DEBUG, OPT_TIME_FORMAT, OPT_PRICES, OPT_DEPLOYMENTS, OPT_NO_IMAGES,
	OPT_IMAGE, OPT_BASELINE_FILE, OPT_SPLIT, OPT_FAIL_ON, OPT_SCALEOUT, OPT_QUIET,
	OPT_CHANGES, OPT_CHANGES_BY,
	/* experiment: the ids are below, parsed by cli_experiment.c */
};

/* the most rows cli_options[] may have: the size of cli.c's per-option arrays */
#define CLI_OPTIONS_MAX 96

/* above cli.c's own ids (256...); the short options are their own letter, as getopt
 * returns them */
enum {
	OPT_EXP_N = 'n',
	OPT_EXP_YES = 'y',
	OPT_EXP_FIRST = 512,
	OPT_EXP_ARM = OPT_EXP_FIRST, OPT_EXP_LAUNCH_TYPE, OPT_EXP_CAPACITY_PROVIDER,
	OPT_EXP_PLATFORM_VERSION, OPT_EXP_SUBNETS, OPT_EXP_SECURITY_GROUPS,
	OPT_EXP_ASSIGN_PUBLIC_IP, OPT_EXP_NETWORK, OPT_EXP_MAX_TASKS, OPT_EXP_ROUND_SIZE,
	OPT_EXP_SEQUENTIAL, OPT_EXP_PAUSE, OPT_EXP_UNTIL, OPT_EXP_ID, OPT_EXP_DRY_RUN,
	OPT_EXP_CLEANUP, OPT_EXP_TIMEOUT, OPT_CHECK_TASK_DEFINITION, OPT_CHECK_HISTORY,
	OPT_EXP_END
};

/* cli_value.c, shared by cli.c and cli_experiment.c: append a borrowed argv string to a
 * list; parse a whole number in [min, max] for option OPT (a usage error naming it
 * otherwise). */
void cli_list_add(struct cli_list *l, const char *v);
int cli_parse_long(const char *opt, const char *s, long min, long max, long *out,
		   struct err *err);

void cli_experiment_defaults(struct cli_experiment *e);
/* True for a getopt id that cli_experiment_option() parses. */
bool cli_experiment_owns(int id);
/* One experiment option (id from the enum above, name for messages, arg or NULL). */
int cli_experiment_option(struct cli_opts *o, int id, const char *name, const char *arg,
			  struct err *err);
/* After the command is known: experiment options only with `experiment`, and what the
 * command needs (arms or --cleanup; -o FILE unless --dry-run). */
int cli_experiment_check(const struct cli_opts *o, struct err *err);
void cli_experiment_cleanup(struct cli_experiment *e);

/* cli_diff.c: after the command is known to be diff, its files and windows make sense */
int cli_diff_check(const struct cli_opts *o, struct err *err);

/* Help fits a standard terminal whatever the one on hand, so transcripts and the man
 * page's copy look the same everywhere. */
#define CLI_HELP_WIDTH 80

/* cli_options.c: the commands, in help order (cli_ncommands of them). */
struct cli_command_def {
	const char *name;
	enum cli_command cmd;
	const char *usage;
	const char *about;
};
extern const struct cli_command_def cli_commands[];
extern const size_t cli_ncommands;

/* cli_options.c: text printed from column col (0 at the start of a line), wrapped at word
 * boundaries so no line passes width columns, every line after the first (and the first,
 * when col leaves no gap before indent) indented to column indent. */
void cli_wrap(FILE *f, int col, int indent, int width, const char *text);
/* cli_options.c: one option's help line; the usage line of a command. */
void cli_print_option(FILE *f, const struct cli_option_def *d);
const char *cli_command_usage(enum cli_command cmd);
/* cli_options.c: the commands, in help order: the name of the i-th (its id in *cmd when not
 * NULL), NULL past the last. */
size_t cli_command_count(void);
const char *cli_command_at(size_t i, enum cli_command *cmd);

/* cli_complete.c: `ecsprof __complete WHAT [COMMAND]` (argv after the word): what the
 * shell completions ask; 0, or 2 for a question it does not know. */
int cli_complete(FILE *f, int argc, char **argv);

/* cli_scope.c: whether option d belongs to command cmd; after parsing, a usage error for
 * the first option given (seen[i] for cli_options[i]) that does not; the format an output
 * file's extension names (FMT_AUTO for none known). */
bool cli_option_applies(const struct cli_option_def *d, enum cli_command cmd);
int cli_scope_check(enum cli_command cmd, const bool *seen, struct err *err);
enum cli_format cli_format_from_path(const char *path);
/* --format NAME: auto, tui or one of the sink's formats (any case); a usage error for
 * opt naming them all otherwise. */
int cli_format_parse(const char *opt, const char *name, enum cli_format *out,
		     struct err *err);

#endif
