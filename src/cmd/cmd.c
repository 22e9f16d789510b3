/* cmd: the dispatcher: parses the command line and hands the options to one command
 * file (cmd_report.c, cmd_tasks.c, cmd_watch.c, cmd_images.c, cmd_experiment.c, cmd_check.c,
 * cmd_diff.c; record
 * is live.c's). Every error ends here as one "ecsprof: ..." line and its exit status. */
#include <stdio.h>
#include <string.h>

#include "cmd_images.h"
#include "cli_int.h"
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/cli.h"
#include "ecsprof/cmd_experiment.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof_version.h"

int
app_main(int argc, char **argv)
{
	struct cli_opts o;
	struct log lg;
	struct err err;
	int rc = 0;

	err_clear(&err);
	/* the shell completions' questions (completion/): before the parser, which would
	 * take the word for an unknown command */
	if (argc > 1 && strcmp(argv[1], "__complete") == 0)
		return cli_complete(stdout, argc - 2, argv + 2);
	if (cli_parse(argc, argv, &o, &err) != 0) {
		fprintf(stderr, "ecsprof: %s\n", err.msg);
		cli_opts_cleanup(&o);
		return err_exit_status(ERR_USAGE);
	}
	/* the program's one log, passed down with the options (log.h) */
	log_init(&lg, o.debug ? 2 : o.verbose, NULL, NULL);
	if (o.help) {
		if (o.command != CMD_NONE)
			cli_usage_command(stdout, o.command);
		else
			cli_usage(stdout);
		goto out;
	}
	if (o.version) {
		printf("ecsprof %s\n", ECSPROF_VERSION);
		goto out;
	}
	o.log = &lg;
	switch (o.command) {
	case CMD_REPORT: rc = cmd_report(&o, &err); break;
	case CMD_TASKS: rc = cmd_tasks(&o, &err); break;
	case CMD_RECORD: rc = cmd_record(&o, &err); break;
	case CMD_WATCH: rc = cmd_watch(&o, &err); break;
	case CMD_IMAGES: rc = cmd_images(&o, &err); break;   /* cmd_images.c */
	case CMD_EXPERIMENT: rc = cmd_experiment(&o, &err); break;
	case CMD_SCALEOUT: rc = cmd_scaleout(&o, &err); break;   /* cmd_scaleout.c */
	case CMD_CHECK:
		/* errors found are its verdict, on the output already: exit 1, no message; no
		 * verdict at all is a status of its own, the one line saying which source
		 * failed (the call, or the file) and why */
		if ((rc = cmd_check(&o, &err)) > 0)
			goto out;
		if (rc != 0 && err.code != ERR_USAGE) {
			fprintf(stderr, "ecsprof: check: no verdict: %s\n", err.msg);
			rc = CHECK_EXIT_NOT_JUDGED;
			goto out;
		}
		break;
	case CMD_DIFF:
		rc = cmd_diff(&o, &err);   /* cmd_diff.c */
		if (rc > 0)
			goto out;   /* a --fail-on gate: its exit status, its lines already said */
		break;
	default: rc = err_set(&err, ERR_USAGE, "no command"); break;
	}
	if (rc != 0) {
		fprintf(stderr, "ecsprof: %s\n", err.msg);
		rc = err_exit_status(err.code == ERR_OK ? ERR_INTERNAL : err.code);
	}
out:
	log_cleanup(&lg);
	cli_opts_cleanup(&o);
	return rc;
}
