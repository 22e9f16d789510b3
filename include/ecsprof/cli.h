/* cli: the command line, parsed from one option table that --help, the man-page test and
 * the parser all read.
 * Ownership: struct cli_opts borrows every string from argv; its arrays are owned and
 * freed by cli_opts_cleanup(). */
#ifndef ECSPROF_CLI_H
#define ECSPROF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "ecsprof/err.h"
#include "ecsprof/timeutil.h"

enum cli_command { CMD_NONE, CMD_TASKS, CMD_WATCH, CMD_RECORD, CMD_REPORT, CMD_IMAGES,
		   CMD_EXPERIMENT, CMD_CHECK, CMD_DIFF, CMD_SCALEOUT };
/* FMT_AUTO and FMT_TUI are the command line's own; the others are the sink's formats
 * (sink.h), mapped in one place (cli_scope.c: cli_format_name, cli_format_parse). */
enum cli_format { FMT_AUTO, FMT_TUI, FMT_TABLE, FMT_CSV, FMT_JSON, FMT_HTML, FMT_XLSX,
		  FMT_MARKDOWN };
enum cli_status { STATUS_ALL, STATUS_RUNNING, STATUS_STOPPED };

struct cli_list {
	const char **v;
	size_t n;
};

/* `ecsprof experiment`'s options; strings borrowed from argv like the rest. */
struct cli_experiment {
	struct cli_list arms;             /* --arm NAME=TASKDEF */
	long per_arm;                     /* -n, default 10 */
	long round_size;                  /* --round-size, default 1 */
	long max_tasks;                   /* --max-tasks, default 50 */
	const char *launch_type;          /* FARGATE, EC2; NULL: FARGATE unless a provider */
	const char *capacity_provider;
	const char *platform_version;
	struct cli_list subnets;          /* --subnets ID,... (repeatable) */
	struct cli_list security_groups;
	bool assign_public_ip;
	const char *network_configuration;
	const char *task_definition;      /* check --task-definition FAMILY[:REV] */
	struct cli_list history;          /* check --history FILE (repeatable) */
	int64_t wait_timeout_ms;          /* --timeout DURATION: the longest wait for each task
					   * from its launch; 0 = the default (10 min) */
	const char *until;                /* running (default) or healthy */
	const char *cleanup;              /* --cleanup ID */
	const char *id;                   /* --id ID: name the experiment */
	bool sequential, pause, dry_run, yes;
};

struct cli_opts {
	enum cli_command command;
	/* SELECT */
	const char *cluster;
	struct cli_list services;
	const char *family;
	const char *started_by;
	enum cli_status status;
	struct cli_list tasks;
	const char *since;            /* raw; resolved by the command */
	/* AWS */
	const char *profile;
	const char *region;
	const char *endpoint_url;
	long concurrency;             /* requests in flight, default 4 */
	long connect_timeout_ms;
	long timeout_ms;              /* --request-timeout: each HTTP request as a whole */
	/* OUTPUT */
	enum cli_format format;
	const char *output;           /* --output / -o */
	bool summary;
	const char *group_by;
	const char *baseline;
	struct cli_list soci_if;
	const char *sort;
	const char *prices;           /* --prices FILE (cost.h) */
	bool deployments;             /* --deployments (deploy.h) */
	bool scaleout;                /* report --scaleout (scaleout_story.h) */
	bool changes;                 /* report --changes (diff_changes.h) */
	const char *changes_by;       /* --changes-by day|deployment, parsed by the command */
	bool no_color;
	enum time_format time_format; /* CSV times, --time-format (default ISO 8601) */
	bool time_format_set;
	/* watch */
	long interval_ms;
	const char *record;           /* watch --record FILE */
	long once;                    /* watch: stop after N polls (tests; 0 = forever) */
	/* images (image.h) */
	bool no_images;               /* --no-images: no ECR lookups */
	struct cli_list images;       /* images --image REF (repeatable) */
	/* diff (diff.h) */
	struct cli_list baseline_files;   /* --baseline-file FILE (repeatable) */
	const char *split;                /* --split WHEN|deployment */
	struct cli_list fail_on;          /* --fail-on EXPR (repeatable), parsed by cmd_diff */
	/* experiment (src/cmd/cli_experiment.c parses them) */
	struct cli_experiment experiment;
	/* misc */
	int verbose;
	bool debug;
	const struct log *log;        /* app_main's, from verbose and debug (log.h); borrowed */
	bool quiet;                   /* --quiet: no progress line (progress.h) */
	bool help;
	bool version;
	/* report FILE... */
	struct cli_list files;
};

struct cli_option_def {
	const char *name;             /* "--cluster" */
	char short_name;              /* 'o' or 0 */
	const char *arg;              /* "NAME", NULL for a flag */
	const char *help;
	const char *section;          /* "SELECT", "AWS", "OUTPUT", "WATCH", "GENERAL" */
	int id;                       /* getopt_long's val */
};
extern const struct cli_option_def cli_options[];
extern const size_t cli_noptions;

int cli_parse(int argc, char **argv, struct cli_opts *o, struct err *err);
void cli_opts_cleanup(struct cli_opts *o);
void cli_usage(FILE *f);
/* `ecsprof COMMAND --help`: that command's usage and only the options it takes
 * (cli_scope.c). */
void cli_usage_command(FILE *f, enum cli_command cmd);

/* The sink's name of a format ("markdown"), NULL for FMT_AUTO and FMT_TUI. */
const char *cli_format_name(enum cli_format fmt);

#endif
