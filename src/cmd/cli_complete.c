/* cli_complete: `ecsprof __complete`, the one source of the bash and zsh completions
 * (completion/ecsprof.bash, completion/_ecsprof). They keep no list of their own: the
 * commands, each command's options (cli_options[] and cli_scope.c) and the values an
 * option takes come from here, so a new option or command completes by itself.
 *   __complete commands          the commands, "NAME<TAB>FILE" a line for one that takes
 *                                file arguments, "NAME<TAB>-" for the others; then help
 *   __complete options           every option, "NAME<TAB>VALUES" a line: VALUES is "-"
 *                                (a flag), "FILE" (a file name), the choices separated
 *                                by blanks, or "?" (anything)
 *   __complete options COMMAND   the same, of the options COMMAND takes (an unknown or
 *                                empty COMMAND: those every command takes) */
#include <stdio.h>
#include <string.h>

#include "cli_int.h"
#include "ecsprof/cli.h"
#include "ecsprof/group.h"

/* What an option's value completes to, from its argument name in the table: "FILE",
 * "iso|spreadsheet|epoch" (choices, lower-case as the parser takes them too), the
 * grouping keys, or nothing to offer. */
static void
print_values(FILE *f, const struct cli_option_def *d)
{
	const char *a = d->arg;

	if (a == NULL) {
		fputs("-", f);
	} else if (strcmp(a, "FILE") == 0) {
		fputs("FILE", f);
	} else if (strcmp(d->name, "--group-by") == 0) {
		for (size_t i = 0; group_key_name(i) != NULL; i++) {
			const char *k = group_key_name(i);
			const char *name = strstr(k, "NAME");

			/* "tag:NAME": the user types the name after "tag:" */
			fprintf(f, "%s%.*s", i ? " " : "",
				(int)(name != NULL ? (size_t)(name - k) : strlen(k)), k);
		}
	} else if (strchr(a, '|') != NULL && strspn(a, "abcdefghijklmnopqrstuvwxyz"
						  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-|") == strlen(a)) {
		for (const char *p = a; *p != '\0'; p++)
			fputc(*p == '|' ? ' ' : *p, f);
	} else {
		fputs("?", f);
	}
}

int
cli_complete(FILE *f, int argc, char **argv)
{
	enum cli_command cmd = CMD_NONE;

	if (argc == 1 && strcmp(argv[0], "commands") == 0) {
		for (size_t i = 0; cli_command_at(i, &cmd) != NULL; i++)
			fprintf(f, "%s\t%s\n", cli_command_at(i, NULL),
				strstr(cli_command_usage(cmd), "FILE...") != NULL ? "FILE" : "-");
		fputs("help\t-\n", f);
		return 0;
	}
	if (argc < 1 || argc > 2 || strcmp(argv[0], "options") != 0)
		return 2;
	for (size_t i = 0; argc == 2 && cli_command_at(i, NULL) != NULL; i++) {
		enum cli_command c;

		if (strcmp(cli_command_at(i, &c), argv[1]) == 0)
			cmd = c;
	}
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct cli_option_def *d = &cli_options[i];

		/* no command yet (or an unknown one): the options every command takes */
		if (argc == 2 && (cmd == CMD_NONE ? strcmp(d->section, "GENERAL") != 0 :
				  !cli_option_applies(d, cmd)))
			continue;
		fprintf(f, "%s\t", d->name);
		print_values(f, d);
		fputc('\n', f);
		if (d->short_name) {
			fprintf(f, "-%c\t", d->short_name);
			print_values(f, d);
			fputc('\n', f);
		}
	}
	return 0;
}
