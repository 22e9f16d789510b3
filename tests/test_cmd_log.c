/* The commands' own output files say what they say through the command's log (cli_opts'
 * log: a held view keeps the lines, --verbose is the log's), not straight on stderr: the
 * sink_open calls of check, diff, report --scaleout and --changes, which name their format
 * themselves (app_sink_open sets it for the others). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "ecsprof/cli.h"
#include "ecsprof/log.h"
#include "src/cmd/cmd_int.h"

struct heard {
	const char *want;   /* the warnings counted: those that hold it */
	char line[512];
	int n;
	int rc;             /* the command's */
};

static void
hear(enum log_level level, const char *line, void *ctx)
{
	struct heard *h = ctx;

	if (level == LOG_WARN && strstr(line, h->want) != NULL) {
		snprintf(h->line, sizeof h->line, "%s", line);
		h->n++;
	}
}

static char dir[] = "/tmp/ecsprof-cmdlog-XXXXXX";

static void
setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(cmd_log, .init = setup, .fini = teardown);

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

/* runs ecsprof ARGS... -o DIR/out.weird with a log that hears the warnings that hold
 * want */
static struct heard
hear_run(int (*command)(const struct cli_opts *, struct err *), const char *const *args,
	 const char *want)
{
	char out[256], *argv[16];
	int argc = 0;
	struct cli_opts o;
	struct err err;
	struct heard h = { .want = want };
	struct log lg;

	snprintf(out, sizeof out, "%s/out.weird", dir);
	argv[argc++] = (char *)"ecsprof";
	for (; *args != NULL; args++)
		argv[argc++] = (char *)*args;
	argv[argc++] = (char *)"-o";
	argv[argc++] = out;
	argv[argc] = NULL;
	err_clear(&err);
	cr_assert_eq(cli_parse(argc, argv, &o, &err), 0, "%s", err.msg);
	log_init(&lg, 0, hear, &h);
	o.log = &lg;
	h.rc = command(&o, &err);
	log_cleanup(&lg);
	cli_opts_cleanup(&o);
	return h;
}

#define NO_FORMAT "names no format"

static struct heard
run(int (*command)(const struct cli_opts *, struct err *), const char *const *args)
{
	struct heard h = hear_run(command, args, NO_FORMAT);
	char out[256];

	snprintf(out, sizeof out, "%s/out.weird", dir);
	cr_expect_geq(h.rc, 0);
	cr_expect_eq(access(out, F_OK), 0, "the output was written");
	return h;
}

Test(cmd_log, check)
{
	char def[256];
	struct heard h;

	snprintf(def, sizeof def, "%s/def.json", dir);
	write_file(def, "{\"family\":\"web\",\"containerDefinitions\":[{\"name\":\"a\","
			"\"image\":\"x\",\"essential\":true,\"memory\":512}]}\n");
	h = run(cmd_check, (const char *const[]){ "check", def, NULL });
	cr_expect_eq(h.n, 1, "the sink's warning reached the command's log");
}

Test(cmd_log, report_scaleout)
{
	char doc[256];
	struct heard h;

	snprintf(doc, sizeof doc, "%s/activities.json", dir);
	write_file(doc, "{\"ScalingActivities\":[]}\n");
	h = run(cmd_report, (const char *const[]){ "report", "--scaleout", doc, NULL });
	cr_expect_eq(h.n, 1, "the sink's warning reached the command's log");
}

Test(cmd_log, diff)
{
	const char *tasks = FIXTURE_DIR "/input/describe_cli_iso.json";
	struct heard h;

	h = run(cmd_diff, (const char *const[]){ "diff", tasks, tasks, NULL });
	cr_expect_eq(h.n, 1, "the sink's warning reached the command's log");
}

Test(cmd_log, report_changes)
{
	const char *history = FIXTURE_DIR "/diff/history/history.json";
	struct heard h;

	h = run(cmd_report, (const char *const[]){ "report", "--changes", history, NULL });
	cr_expect_eq(h.n, 1, "the sink's warning reached the command's log");
}

/* The task reader's warnings (a field ignored) through the command's log too: each
 * command that reads task files (the others pass it in input_options) */
#define BAD_TIME FIXTURE_DIR "/input/bad_timestamp.json"
#define IGNORED "ignored createdAt"

Test(cmd_log, report_reads_through_the_log)
{
	struct heard h;

	h = hear_run(cmd_report, (const char *const[]){ "report", BAD_TIME, NULL }, IGNORED);
	cr_expect_eq(h.n, 1, "%d", h.rc);
	h = hear_run(cmd_report, (const char *const[]){ "report", "--deployments", BAD_TIME,
							NULL }, IGNORED);
	cr_expect_eq(h.n, 1, "--deployments %d", h.rc);
	h = hear_run(cmd_report, (const char *const[]){ "report", "--changes", BAD_TIME,
							NULL }, IGNORED);
	cr_expect_eq(h.n, 1, "--changes %d", h.rc);
}

Test(cmd_log, diff_reads_through_the_log)
{
	struct heard h;

	h = hear_run(cmd_diff, (const char *const[]){ "diff", BAD_TIME, BAD_TIME, NULL }, IGNORED);
	cr_expect_eq(h.n, 2, "each file's: %d", h.rc);
}

Test(cmd_log, check_history_reads_through_the_log)
{
	char def[256];
	struct heard h;

	snprintf(def, sizeof def, "%s/def.json", dir);
	write_file(def, "{\"family\":\"web\",\"containerDefinitions\":[{\"name\":\"a\","
			"\"image\":\"x\",\"essential\":true,\"memory\":512}]}\n");
	h = hear_run(cmd_check, (const char *const[]){ "check", def, "--history", BAD_TIME,
						       NULL }, IGNORED);
	cr_expect_eq(h.n, 1, "%d", h.rc);
}
