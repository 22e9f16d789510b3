#include <criterion/criterion.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/cli.h"
#include "ecsprof/sink.h"
#include "src/cmd/cli_int.h"

static int
parse(struct cli_opts *o, struct err *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"ecsprof";
	for (; args[argc - 1] != NULL; argc++)
		argv[argc] = (char *)args[argc - 1];
	argv[argc] = NULL;
	err_clear(err);
	return cli_parse(argc, argv, o, err);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

Test(cli, report_with_options_anywhere)
{
	struct cli_opts o;
	struct err err;

	cr_assert_eq(parse(&o, &err, ARGS("report", "a.json", "--format", "csv", "-", "--group-by",
					  "soci", "--soci-if", "taskdef=x:8", "--soci-if",
					  "source=after.jsonl", "--summary")), 0, "%s", err.msg);
	cr_expect_eq(o.command, CMD_REPORT);
	cr_expect_eq(o.format, FMT_CSV);
	cr_assert_eq(o.files.n, 2);
	cr_expect_str_eq(o.files.v[0], "a.json");
	cr_expect_str_eq(o.files.v[1], "-");
	cr_assert_eq(o.soci_if.n, 2);
	cr_expect_str_eq(o.soci_if.v[1], "source=after.jsonl");
	cr_expect(o.summary);
	cli_opts_cleanup(&o);
}

Test(cli, live_selection)
{
	struct cli_opts o;
	struct err err;

	cr_assert_eq(parse(&o, &err, ARGS("tasks", "--cluster", "prod", "--service", "a",
					  "--service", "b", "--status", "stopped", "--since", "2h",
					  "--concurrency", "8", "--request-timeout", "2.5")), 0, "%s", err.msg);
	cr_expect_eq(o.command, CMD_TASKS);
	cr_expect_str_eq(o.cluster, "prod");
	cr_expect_eq(o.services.n, 2);
	cr_expect_eq(o.status, STATUS_STOPPED);
	cr_expect_eq(o.concurrency, 8);
	cr_expect_eq(o.timeout_ms, 2500);
	cli_opts_cleanup(&o);
}

/* --timeout has one meaning, the contract's: experiment's longest wait for each task (a
 * duration). The timeout of each request is --request-timeout, for every command. */
Test(cli, timeout_is_the_experiment_wait_and_request_timeout_the_request)
{
	struct cli_opts o;
	struct err err;

	cr_assert_eq(parse(&o, &err, ARGS("experiment", "--arm", "a=web:7", "--timeout", "90s",
					  "--request-timeout", "4", "-o", "x.jsonl")), 0, "%s",
		     err.msg);
	cr_expect_eq(o.experiment.wait_timeout_ms, 90000);
	cr_expect_eq(o.timeout_ms, 4000);
	cli_opts_cleanup(&o);
	cr_assert_eq(parse(&o, &err, ARGS("experiment", "--arm", "a=web:7", "--timeout", "1h30m",
					  "-o", "x.jsonl")), 0, "%s", err.msg);
	cr_expect_eq(o.experiment.wait_timeout_ms, 5400000);
	cr_expect_eq(o.timeout_ms, 30000, "the request timeout keeps its default");
	cli_opts_cleanup(&o);
	cr_assert_eq(parse(&o, &err, ARGS("experiment", "--arm", "a=web:7", "--timeout", "150",
					  "-o", "x.jsonl")), 0, "%s", err.msg);
	cr_expect_eq(o.experiment.wait_timeout_ms, 150000, "plain seconds");
	cli_opts_cleanup(&o);
	cr_assert_eq(parse(&o, &err, ARGS("experiment", "--arm", "a=web:7", "-o", "x.jsonl")), 0);
	cr_expect_eq(o.experiment.wait_timeout_ms, 0, "0: the command's default (10 min)");
	cli_opts_cleanup(&o);

	cr_expect_eq(parse(&o, &err, ARGS("tasks", "--timeout", "5")), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect(strstr(err.msg, "--request-timeout") != NULL, "%s", err.msg);
	cli_opts_cleanup(&o);
	cr_expect_eq(parse(&o, &err, ARGS("watch", "--timeout", "5m")), -1);
	cr_expect(strstr(err.msg, "experiment's wait") != NULL, "%s", err.msg);
	cli_opts_cleanup(&o);
	cr_expect_eq(parse(&o, &err, ARGS("experiment", "--arm", "a=web:7", "--timeout", "0s",
					  "-o", "x.jsonl")), -1);
	cr_expect(strstr(err.msg, "from 1s to 1d") != NULL, "%s", err.msg);
	cli_opts_cleanup(&o);
	cr_expect_eq(parse(&o, &err, ARGS("experiment", "--arm", "a=web:7", "--timeout", "soon",
					  "-o", "x.jsonl")), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cli_opts_cleanup(&o);
	cr_assert_eq(parse(&o, &err, ARGS("record", "--request-timeout", "0.5", "-o", "r.jsonl")),
		     0, "%s", err.msg);
	cr_expect_eq(o.timeout_ms, 500);
	cli_opts_cleanup(&o);
}

Test(cli, usage_errors_say_what_is_wrong)
{
	const struct {
		const char *const *args;
		const char *needle;
	} cases[] = {
		{ ARGS("report"), "at least one FILE" },
		{ ARGS("frobnicate"), "unknown command 'frobnicate'" },
		{ ARGS("report", "x", "--bogus"), "unknown option '--bogus'" },
		{ ARGS("report", "x", "--format"), "needs a value" },
		{ ARGS("report", "x", "--format", "xml"), "'xml' is not one of" },
		{ ARGS("tasks", "--status", "pending"), "'pending' is not one of" },
		{ ARGS("tasks", "--concurrency", "0"), "--concurrency" },
		{ ARGS("tasks", "--interval", "abc"), "--interval" },
		{ ARGS("record"), "-o FILE" },
		{ ARGS("tasks", "extra.json"), "only report and check take files" },
		{ ARGS("report", "x", "--baseline", "a"), "--baseline needs --group-by" },
		{ ARGS("--verbose"), "no command" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct cli_opts o;
		struct err err;

		cr_expect_eq(parse(&o, &err, cases[i].args), -1, "case %zu should fail", i);
		cr_expect_eq(err.code, ERR_USAGE);
		cr_expect(strstr(err.msg, cases[i].needle) != NULL, "case %zu: '%s' lacks '%s'", i,
			  err.msg, cases[i].needle);
		cli_opts_cleanup(&o);
	}
}

/* That every option is in the man page is tests/test_manpage.c's job. The global help
 * is short (issue 30 item 6): the commands and the options of all; every other option is
 * in the help of each command it belongs to, and only there. */
Test(cli, help_lists_every_option)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	size_t lines = 0;

	cli_usage(f);
	fclose(f);
	for (const char *p = text; *p != '\0'; p++)
		lines += *p == '\n';
	cr_expect_leq(lines, 40, "the global help has %zu lines", lines);
	for (const char *c = "tasks watch record report images experiment"; *c != '\0';) {
		size_t n = strcspn(c, " ");
		cr_expect(memmem(text, len, c, n) != NULL, "--help lacks the command %.*s", (int)n, c);
		c += n + (c[n] == ' ');
	}
	free(text);
	for (int cmd = CMD_TASKS; cmd <= CMD_EXPERIMENT; cmd++) {
		text = NULL;
		f = open_memstream(&text, &len);
		cli_usage_command(f, (enum cli_command)cmd);
		fclose(f);
		for (size_t i = 0; i < cli_noptions; i++) {
			char name[64];
			bool in = cli_option_applies(&cli_options[i], (enum cli_command)cmd);

			/* "--cluster NAME" or "--summary" at the end of the line */
			snprintf(name, sizeof name, " %s", cli_options[i].name);
			const char *at = strstr(text, name);
			while (at != NULL && at[strlen(name)] != ' ' && at[strlen(name)] != '\n')
				at = strstr(at + 1, name);
			cr_expect_eq(at != NULL, in, "help of command %d: %s %s", cmd,
				     cli_options[i].name, in ? "missing" : "listed but not taken");
		}
		free(text);
	}
}

/* Every help screen fits 80 columns (issue 11 item 7: lines ran to 142), with no
 * trailing blanks, and no option's description is lost by the wrapping. */
static void
check_help(const char *what, const char *text)
{
	size_t line = 1;

	for (const char *p = text; *p != '\0'; line++) {
		size_t n = strcspn(p, "\n"), cols = 0;

		for (size_t i = 0; i < n; i++)
			cols += ((unsigned char)p[i] & 0xc0) != 0x80;
		cr_expect_leq(cols, 80, "%s line %zu has %zu columns: %.*s", what, line, cols,
			      (int)n, p);
		cr_expect(n == 0 || p[n - 1] != ' ', "%s line %zu ends in a blank", what, line);
		p += n + (p[n] == '\n');
	}
}

static char *
help_of(int cmd)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	cr_assert_not_null(f);
	if (cmd == CMD_NONE)
		cli_usage(f);
	else
		cli_usage_command(f, (enum cli_command)cmd);
	fclose(f);
	return text;
}

/* The words of s with all runs of blanks and newlines made one space. */
static char *
squeeze(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	for (; *s != '\0'; s++) {
		bool blank = *s == ' ' || *s == '\n';

		if (blank && (o == out || o[-1] == ' '))
			continue;
		*o++ = blank ? ' ' : *s;
	}
	*o = '\0';
	return out;
}

Test(cli, help_fits_80_columns)
{
	const int cmds[] = { CMD_NONE, CMD_TASKS, CMD_WATCH, CMD_RECORD, CMD_REPORT, CMD_IMAGES,
			     CMD_EXPERIMENT };

	for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
		char *text = help_of(cmds[c]), *flat = squeeze(text);
		char what[32];

		snprintf(what, sizeof what, "help of command %d", cmds[c]);
		check_help(what, text);
		/* an option in a help is shown whole: the global help has the GENERAL ones,
		 * a command's help those it takes */
		for (size_t i = 0; i < cli_noptions; i++)
			if (cmds[c] == CMD_NONE ? strcmp(cli_options[i].section, "GENERAL") == 0 :
			    cli_option_applies(&cli_options[i], (enum cli_command)cmds[c]))
				cr_expect_not_null(strstr(flat, cli_options[i].help),
					   "%s: the help of %s is not shown whole", what,
					   cli_options[i].name);
		free(flat);
		free(text);
	}
}

/* One list of formats: --format's values in --help are the sink's table (plus tui), every
 * format there parses and maps back to its own name, and -o's extensions follow it. */
Test(cli, formats_are_the_sinks)
{
	size_t n;
	const struct sink_format *f = sink_formats(&n);
	char want[256] = "tui";
	const char *arg = NULL;

	for (size_t i = 0; i < n; i++) {
		struct cli_opts o;
		struct err err;
		char out[64];

		snprintf(want + strlen(want), sizeof want - strlen(want), "|%s", f[i].name);
		cr_assert_eq(parse(&o, &err, ARGS("report", "x", "--format", f[i].name)), 0, "%s",
			     err.msg);
		cr_expect_str_eq(cli_format_name(o.format), f[i].name);
		cli_opts_cleanup(&o);
		snprintf(out, sizeof out, "r%s", f[i].exts[0]);
		cr_assert_eq(parse(&o, &err, ARGS("report", "x", "-o", out)), 0, "%s", err.msg);
		cr_expect_str_eq(cli_format_name(o.format), f[i].name, "-o %s", out);
		cli_opts_cleanup(&o);
	}
	for (size_t i = 0; i < cli_noptions; i++)
		if (strcmp(cli_options[i].name, "--format") == 0)
			arg = cli_options[i].arg;
	cr_assert_not_null(arg);
	cr_expect_str_eq(arg, want, "--help's --format values are not the sink's formats");
}
