/* The man page against the code: every option of cli_options[] in its OPTIONS section,
 * no option there that the code lacks, the CSV columns in REPORT_COLUMNS order, every
 * phase formula from phase_defs[], every TUI key from tui_keys[], every grouping key, and
 * every AWS_* environment variable that src/ reads. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/cli.h"
#include "ecsprof/group.h"
#include "ecsprof/phase.h"
#include "ecsprof/report.h"
#include "ecsprof/task.h"
#include "ecsprof/tui.h"

#define MAN_PATH TESTS_DIR "/../man/ecsprof.1"
#define SRC_DIR TESTS_DIR "/../src"

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_geq(n, 0);
	rewind(f);
	s = malloc((size_t)n + 1);
	cr_assert_not_null(s);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

/* A copy of the text from the line `start` (e.g. ".SH OPTIONS") up to the next line that
 * begins with one of the stop prefixes, or the end. */
static char *
section(const char *man, const char *start, const char *stop1, const char *stop2)
{
	char needle[128];
	const char *b, *e, *p;
	char *out;

	snprintf(needle, sizeof needle, "\n%s\n", start);
	b = strstr(man, needle);
	cr_assert_not_null(b, "the man page has no '%s' line", start);
	b += 1;
	e = b + strlen(needle) - 1;
	for (p = e; *p != '\0'; p++) {
		if (p[-1] != '\n')
			continue;
		if ((stop1 && strncmp(p, stop1, strlen(stop1)) == 0) ||
		    (stop2 && strncmp(p, stop2, strlen(stop2)) == 0))
			break;
	}
	out = malloc((size_t)(p - b) + 1);
	cr_assert_not_null(out);
	memcpy(out, b, (size_t)(p - b));
	out[p - b] = '\0';
	return out;
}

/* Roff to plain words: escapes and font changes dropped, macro names and quotes removed. */
static char *
plain(const char *roff)
{
	size_t n = strlen(roff);
	char *out = malloc(n + 1), *o = out;
	const char *p = roff;
	int bol = 1;

	cr_assert_not_null(out);
	while (*p != '\0') {
		if (bol && *p == '.') {          /* ".B ", ".BR ", ".TP": drop the macro name */
			while (*p != '\0' && *p != ' ' && *p != '\n')
				p++;
			bol = 0;
			continue;
		}
		bol = 0;
		if (p[0] == '\\' && p[1] == 'f' && p[2] != '\0') {
			p += 3;
		} else if (p[0] == '\\' && p[1] == '(' && p[2] && p[3]) {
			*o++ = strncmp(p + 2, "aq", 2) == 0 ? '\'' : ' ';
			p += 4;
		} else if (p[0] == '\\' && p[1] == '&') {
			p += 2;
		} else if (p[0] == '\\' && p[1] == 'e') {
			*o++ = '\\';
			p += 2;
		} else if (p[0] == '\\' && p[1] != '\0') {
			*o++ = p[1];
			p += 2;
		} else if (*p == '"') {
			p++;
		} else {
			if (*p == '\n')
				bol = 1;
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* True when word occurs in text as a whole token (separated by space or punctuation). */
static bool
has_token(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); p != NULL; p = strstr(p + 1, word)) {
		bool left = p == text || isspace((unsigned char)p[-1]) || p[-1] == ',' || p[-1] == '(';
		bool right = p[n] == '\0' || isspace((unsigned char)p[n]) || p[n] == ',' ||
			     p[n] == ')' || p[n] == '.' || p[n] == ';' || p[n] == ':';

		if (left && right)
			return true;
	}
	return false;
}

/* want occurs in sec followed by a space or a line end (so --count is not --counts). */
static bool
has_item(const char *sec, const char *want)
{
	size_t n = strlen(want);

	for (const char *p = strstr(sec, want); p != NULL; p = strstr(p + 1, want))
		if (p[n] == ' ' || p[n] == '\n' || want[n - 1] == ' ')
			return true;
	return false;
}

/* "--started-by" -> "\-\-started\-by" */
static void
roff_dash(const char *s, char *out, size_t size)
{
	size_t o = 0;

	for (; *s != '\0' && o + 3 < size; s++) {
		if (*s == '-')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o] = '\0';
}

Test(manpage, every_option_in_its_options_section)
{
	char *man = slurp(MAN_PATH);
	char *opts = section(man, ".SH OPTIONS", ".SH ", NULL);

	cr_assert_gt(cli_noptions, 20, "cli_options[] looks empty");
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct cli_option_def *d = &cli_options[i];
		char start[64], name[96], want[160];
		char *sec;

		snprintf(start, sizeof start, ".SS %s", d->section);
		sec = section(opts, start, ".SS ", ".SH ");
		roff_dash(d->name, name, sizeof name);
		/* the option heads an item: ".TP" then a line naming it */
		snprintf(want, sizeof want, "\n.TP\n.B%s %s", d->arg ? "I" : "", name);
		if (d->short_name) {
			snprintf(want, sizeof want, "\n.TP\n.BR \\-%c \", \" %s", d->short_name, name);
		} else if (d->arg && strchr(d->arg, '|') != NULL) {
			snprintf(want, sizeof want, "\n.TP\n.BR %s \" \" ", name);
		}
		cr_expect(has_item(sec, want),
			  "%s (%s) is not documented as an item of OPTIONS/%s: expected '%s'",
			  d->name, d->help, d->section, want + 1);
		if (d->arg && d->short_name == 0 && strchr(d->arg, '|') == NULL) {
			char arg[128];

			snprintf(arg, sizeof arg, "%s \"", name);
			cr_expect_not_null(strstr(sec, arg), "%s: its value %s is not shown", d->name, d->arg);
		}
		free(sec);
	}
	free(opts);
	free(man);
}

Test(manpage, no_option_the_code_lacks)
{
	char *man = slurp(MAN_PATH);
	char *opts = section(man, ".SH OPTIONS", ".SH ", NULL);
	size_t seen = 0;

	for (const char *p = strstr(opts, "\n.TP\n"); p != NULL; p = strstr(p + 1, "\n.TP\n")) {
		const char *line = p + 5, *d = strstr(line, "\\-\\-");
		const char *eol = strchr(line, '\n');
		char name[64] = "--";
		size_t n = 2;
		bool found = false;

		if (d == NULL || (eol != NULL && d > eol))
			continue;
		for (d += 4; (isalnum((unsigned char)*d) || *d == '\\' || *d == '-') && n + 1 < sizeof name; d++)
			if (*d != '\\')
				name[n++] = *d;
		name[n] = '\0';
		for (size_t i = 0; i < cli_noptions && !found; i++)
			found = strcmp(cli_options[i].name, name) == 0;
		cr_expect(found, "the man page documents %s, which cli_options[] does not have", name);
		seen++;
	}
	cr_expect_eq(seen, cli_noptions, "OPTIONS has %zu items, cli_options[] %zu options", seen,
		     cli_noptions);
	free(opts);
	free(man);
}

Test(manpage, csv_columns_in_report_order)
{
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SS Task CSV", ".SS ", ".SH ");
	char *text = plain(sec);
	const char *at = text;

	for (size_t i = 0; i < COL_COUNT; i++) {
		const char *name = report_columns[i].name, *p;
		size_t n = strlen(name);
		bool found = false;

		for (p = strstr(at, name); p != NULL; p = strstr(p + 1, name))
			if ((p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
			    !(isalnum((unsigned char)p[n]) || p[n] == '_')) {
				found = true;
				break;
			}
		cr_expect(found, "CSV column %s is missing from OUTPUT/Task CSV, or out of order",
			  name);
		if (found)
			at = p + n;
	}
	free(text);
	free(sec);
	free(man);
}

Test(manpage, summary_columns_in_order)
{
	static const char *const cols[] = { "group", "phase", "n", "min_s", "p50_s", "p90_s",
		"p99_s", "max_s", "mean_s", "baseline", "p50_delta_s", "p50_ratio", "p90_delta_s",
		"p90_ratio", "p_value", "pull_share" };
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SS Summary CSV", ".SS ", ".SH ");
	char *text = plain(sec);
	const char *at = text;

	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		char item[64];
		const char *p;

		/* each column heads (or shares) an item line */
		snprintf(item, sizeof item, "%s", cols[i]);
		p = at;
		while ((p = strstr(p, item)) != NULL) {
			size_t n = strlen(item);
			bool left = p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == ',';
			bool right = p[n] == ',' || p[n] == '\n' || p[n] == ' ';

			if (left && right)
				break;
			p++;
		}
		cr_expect_not_null(p, "summary column %s missing or out of order", cols[i]);
		if (p != NULL)
			at = p + strlen(item);
	}
	free(text);
	free(sec);
	free(man);
}

Test(manpage, every_phase_with_its_formula)
{
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SS Phases", ".SS ", ".SH ");

	for (size_t p = 0; p < PHASE_COUNT; p++) {
		char want[160];

		snprintf(want, sizeof want, ".B %s = %s \\- %s\n", phase_defs[p].name,
			 ts_defs[phase_defs[p].to].json_name, ts_defs[phase_defs[p].from].json_name);
		cr_expect_not_null(strstr(sec, want), "phase formula missing: %s", want);
	}
	free(sec);
	free(man);
}

Test(manpage, every_tui_key)
{
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SH KEYS", ".SH ", NULL);
	char *text = plain(sec);

	cr_assert_gt(tui_nkeys, 5);
	for (size_t i = 0; i < tui_nkeys; i++) {
		const char *s = tui_keys[i].keys;

		while (*s != '\0') {
			char k[32];
			size_t n = strcspn(s, " ");

			snprintf(k, sizeof k, "%.*s", (int)n, s);
			s += n;
			s += strspn(s, " ");
			if (n == 0 || (strcmp(k, "/") == 0 && strstr(tui_keys[i].keys, " / ") != NULL))
				continue;   /* "g Home / G End": the slash separates, it is no key */
			cr_expect(has_token(text, k), "KEYS does not mention key '%s' (%s)", k,
				  tui_keys[i].what);
		}
	}
	free(text);
	free(sec);
	free(man);
}

Test(manpage, every_grouping_key)
{
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SH GROUPING AND SOCI", ".SH ", NULL);
	bool kinds[GK_SOCI + 1] = { false };
	size_t n = 0;

	for (const char *p = strstr(sec, "\n.TP\n"); p != NULL; p = strstr(p + 1, "\n.TP\n")) {
		char line[128], key[64], *t = line;
		const char *eol = strchr(p + 5, '\n');
		size_t len = eol ? (size_t)(eol - (p + 5)) : strlen(p + 5);
		struct group_key k;
		struct err err;
		size_t o = 0;

		snprintf(line, sizeof line, "%.*s", (int)len, p + 5);
		t = strchr(line, ' ');       /* ".B family", ".BI tag: NAME" */
		cr_assert_not_null(t, "odd item line '%s'", line);
		for (t++; *t != '\0' && *t != ' ' && o + 1 < sizeof key; t++)
			if (*t != '\\')
				key[o++] = *t;
		key[o] = '\0';
		if (strcmp(key, "tag:") == 0)
			snprintf(key, sizeof key, "tag:team");
		err_clear(&err);
		cr_expect_eq(group_key_parse(key, &k, &err), 0, "man page key '%s': %s", key, err.msg);
		if (err.code == ERR_OK) {
			kinds[k.kind] = true;
			group_key_cleanup(&k);
		}
		n++;
	}
	for (int kind = GK_FAMILY; kind <= GK_SOCI; kind++)
		cr_expect(kinds[kind], "grouping key kind %d is not documented", kind);
	cr_expect_geq(n, (size_t)(GK_SOCI - GK_FAMILY + 1));
	free(sec);
	free(man);
}

/* Checks every "AWS_..." (or "ECSPROF_...") string literal of one .c file against the
 * ENVIRONMENT text. */
static size_t check_variables(const char *path, const char *name_for_msg, const char *text,
			      const char *lead)
{
	char *src = slurp(path);
	size_t checked = 0;

	for (const char *p = strstr(src, lead); p != NULL; p = strstr(p + 1, lead)) {
		char name[96];
		size_t n = 0;
		const char *q = p + 1;

		while ((isupper((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '_') &&
		       n + 1 < sizeof name)
			name[n++] = *q++;
		name[n] = '\0';
		if (*q != '"' || name[n - 1] == '_' || strcmp(name, "ECSPROF_VERSION") == 0)
			continue;   /* a prefix such as "AWS_ENDPOINT_URL_" + service */
		cr_expect(has_token(text, name), "%s reads %s; ENVIRONMENT does not list it",
			  name_for_msg, name);
		checked++;
	}
	free(src);
	return checked;
}

/* Every "AWS_..." and "ECSPROF_..." string literal in the .c files under src/ (one folder
 * per layer) is an environment variable the code reads. */
Test(manpage, every_aws_variable_the_code_reads)
{
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SH ENVIRONMENT", ".SH ", NULL);
	char *text = plain(sec);
	DIR *top = opendir(SRC_DIR);
	struct dirent *layer;
	size_t checked = 0, ours = 0;

	cr_assert_not_null(top, "cannot list %s", SRC_DIR);
	while ((layer = readdir(top)) != NULL) {
		char dirpath[1024];
		DIR *dir;
		struct dirent *de;

		if (layer->d_name[0] == '.')
			continue;
		snprintf(dirpath, sizeof dirpath, "%s/%s", SRC_DIR, layer->d_name);
		if ((dir = opendir(dirpath)) == NULL)
			continue;   /* a file such as README.md */
		while ((de = readdir(dir)) != NULL) {
			char path[2048];
			size_t len = strlen(de->d_name);

			if (len < 3 || strcmp(de->d_name + len - 2, ".c") != 0)
				continue;
			snprintf(path, sizeof path, "%s/%s", dirpath, de->d_name);
			checked += check_variables(path, de->d_name, text, "\"AWS_");
			/* issue 9 item 2: ecsprof's own variables, the test hooks among them
			 * (ECSPROF_TUI_SCRIPT, ECSPROF_TUI_DUMP), are documented, not hidden */
			ours += check_variables(path, de->d_name, text, "\"ECSPROF_");
		}
		closedir(dir);
	}
	closedir(top);
	cr_expect_gt(checked, 10, "found only %zu AWS_ variables in src/", checked);
	cr_expect_geq(ours, 4, "found only %zu ECSPROF_ variables in src/", ours);
	free(text);
	free(sec);
	free(man);
}

/* The value of "#define NAME VALUE" in a source file: VALUE as N, N.0, (N * M) or
 * ((size_t)N << S); -1 when the file has no such line. */
static double
define_value(const char *rel, const char *name)
{
	char path[512], *src, *p, needle[96];
	double a = -1, b;

	snprintf(path, sizeof path, "%s/../%s", SRC_DIR, rel);
	src = slurp(path);
	snprintf(needle, sizeof needle, "#define %s ", name);
	p = strstr(src, needle);
	cr_assert_not_null(p, "%s: no #define %s", rel, name);
	p += strlen(needle);
	while (*p == ' ' || *p == '\t')
		p++;
	if (sscanf(p, "((size_t)%lf << %lf)", &a, &b) == 2)
		a *= (double)(1ULL << (int)b);
	else if (sscanf(p, "(%lf * %lf)", &a, &b) == 2)
		a *= b;
	else if (sscanf(p, "%lf", &a) != 1)
		a = -1;
	free(src);
	return a;
}

/* issue 10: LIMITS says what the code enforces. Each entry is a .TP tag and the number
 * its paragraph must say (with the words around it), computed from the code's #define. */
Test(manpage, limits_are_the_codes)
{
	static const struct {
		const char *tag, *file, *name;
		double unit;
		const char *before, *after;   /* around the number */
	} limits[] = {
		{ "One line of JSON Lines input", "include/ecsprof/input.h", "INPUT_MAX_LINE", 1 << 20, "", " MiB" },
		{ "One whole document", "include/ecsprof/input.h", "INPUT_MAX_DOC", 1 << 30, "", " GiB" },
		/* issue 31: an answer or an array read as it comes: no size, one element's limit */
		{ "One whole document", "include/ecsprof/input.h", "INPUT_MAX_LINE", 1 << 20,
		  "one element of it (one task) may be ", " MiB" },
		{ "One string field of a task", "include/ecsprof/input.h", "INPUT_MAX_STRING", 1 << 20, "", " MiB" },
		{ "Warnings about keys named twice", "src/in/input_int.h", "INPUT_DUP_MAX", 1, "", " per" },
		{ "One answer from AWS", "include/ecsprof/buf.h", "BUF_MAX_DEFAULT", 1 << 20, "", " MiB of body" },
		{ "Pages of one listing", "src/aws/ecs_int.h", "ECS_MAX_PAGES", 1, "", " pages" },
		{ "Configuration files", "src/aws/awscfg.c", "AWSCFG_FILE_MAX", 1 << 20, ": ", " MiB each" },
		{ "credential_process", "src/aws/creds_local.c", "PROCESS_MAX_OUTPUT", 1 << 10, "", " KiB of output" },
		{ "credential_process", "src/aws/creds_local.c", "PROCESS_TIMEOUT_S", 1, "killed after ", " s" },
		{ "Time", "src/aws/http.c", "DEFAULT_CAP_MS", 1000, "longer than ", " s" },
		{ "Answers in flight together", "include/ecsprof/live.h", "LIVE_MEMORY_BUDGET", 1 << 20, "", " MiB across" },
	};
	char *man = slurp(MAN_PATH);
	char *sec = section(man, ".SH LIMITS", ".SH ", NULL);

	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		char tag[128], want[64], *at, *end;
		double v = define_value(limits[i].file, limits[i].name);

		cr_assert_gt(v, 0, "%s", limits[i].name);
		snprintf(tag, sizeof tag, ".TP\n.B %s\n", limits[i].tag);
		at = strstr(sec, tag);
		cr_assert_not_null(at, "LIMITS has no entry '%s'", limits[i].tag);
		at += strlen(tag);
		end = strstr(at, ".TP\n");
		if (end != NULL)
			*end = '\0';
		snprintf(want, sizeof want, "%s%.0f%s", limits[i].before, v / limits[i].unit,
		    limits[i].after);
		cr_expect_not_null(strstr(at, want), "LIMITS '%s' does not say '%s' (%s = %.0f)",
		    limits[i].tag, want, limits[i].name, v);
		if (end != NULL)
			*end = '.';
	}
	/* the per-request timeout is --request-timeout since --timeout became experiment's
	 * wait (issue 13); LIMITS said --timeout */
	cr_expect_not_null(strstr(sec, ".B \\-\\-request\\-timeout\nper request"),
			   "LIMITS 'Time' does not name --request-timeout");
	cr_expect_null(strstr(sec, ".B \\-\\-timeout\nper request"));
	/* issue 31: what a document read as it comes says when it is cut short */
	cr_expect_not_null(strstr(sec, "Such a document has no size limit"));
	cr_expect_not_null(strstr(sec, ": truncated JSON: the input ends at byte "));
	/* and SECURITY is there, with what the endpoint code refuses */
	free(sec);
	sec = section(man, ".SH SECURITY", ".SH ", NULL);
	cr_expect_not_null(strstr(sec, "user name or password"));
	cr_expect_not_null(strstr(sec, "not loopback"));
	free(sec);
	free(man);
}
