/* sink: each generic writer (table, CSV, JSON, JSON Lines, Markdown) on a small row table
 * that holds every cell kind, empty cells, an estimated value and a text with a pipe, a
 * comma, a quote, a newline and a formula, compared byte for byte; the format from -o's
 * extension; the atomic commit (the old file until sink_commit, kept by sink_abort); the
 * errors for an unknown format and for a format that has no such writer. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecsprof/csv.h"
#include "ecsprof/log.h"
#include "ecsprof/report_rowtab.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/sink.h"
#include "ecsprof/xalloc.h"
#include "fixtures/output/fixture_tasks.h"

enum { C_NAME, C_SECS, C_AT, C_N, C_RATIO, C_OK, C_ARN, C_NOTE, NCOLS };

static const struct row_column cols[NCOLS] = {
	[C_NAME] = { "name", "NAME", CELL_TEXT, 0, 0 },
	[C_SECS] = { "secs", "SECS", CELL_SECS, 0, 0 },
	[C_AT] = { "at", "AT", CELL_TIME, 0, 0 },
	[C_N] = { "n", "N", CELL_COUNT, 0, 0 },
	[C_RATIO] = { "ratio", "RATIO", CELL_NUMBER, 2, 0 },
	[C_OK] = { "ok", "OK", CELL_BOOL, 0, 0 },
	[C_ARN] = { "arn", "ARN", CELL_TEXT, 0, ROWCOL_NOT_IN_TABLE },
	[C_NOTE] = { "note", "NOTE", CELL_TEXT, 0, ROWCOL_WRAP },
};

/* row 0 has every cell (its text the hard one, its seconds estimated); row 1 has a
 * formula for a name and nothing else; row 2's note is long enough to wrap, its 1.25 s
 * rounded half up (1.3) as report's table does */
static void
cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
     size_t size)
{
	(void)ctx;
	if (row == 1) {
		if (col == C_NAME) {
			v->present = true;
			v->text = "=cmd";
		}
		return;
	}
	v->present = true;
	switch (col) {
	case C_NAME: v->text = row == 0 ? "a|b,c\"d\ne\\f" : "<b>plain<2"; break;
	case C_SECS: v->num = row == 0 ? 12.345 : 1.25; v->estimated = row == 0; break;
	case C_AT: v->ms = 1714557603123; break;
	case C_N: v->count = row == 0 ? 3 : 12345; break;
	case C_RATIO: v->num = 0.5; break;
	case C_OK: v->flag = row == 0; break;
	case C_ARN:
		snprintf(scratch, size, "arn:row:%zu", row);
		v->text = scratch;
		break;
	case C_NOTE:
		v->text = row == 0 ? "short" : "a longer note that will not fit in the narrow "
					       "table and so wraps under its column";
		break;
	}
}

static const char *const notes[] = { "first note", "second | note" };

static struct row_table
things(size_t nrows)
{
	return (struct row_table){ .name = "things", .cols = cols, .ncols = NCOLS,
				   .nrows = nrows, .cell = cell, .notes = notes, .nnotes = 2 };
}

static char dir[64];

static void
mkdir_tmp(void)
{
	snprintf(dir, sizeof dir, "/tmp/test_sink.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void
rm_tmp(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char p[512];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

TestSuite(sink, .init = mkdir_tmp, .fini = rm_tmp);

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = xmalloc((size_t)n + 1);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static char *
path_of(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

/* the document of tables written as format through a file sink of width 60 */
static char *
written(const char *format, const struct row_table *const *tables, size_t n, bool verbose)
{
	struct sink_options o = { .width = 60, .verbose = verbose };
	struct sink s;
	struct err err;
	char *p = path_of("out"), *text;

	cr_assert_eq(sink_open(&s, p, format, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_write(&s, tables, n, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
	text = slurp(p);
	free(p);
	return text;
}

static void
expect(const char *got, const char *want)
{
	cr_expect_str_eq(got, want, "got:\n%s\nwant:\n%s", got, want);
}

Test(sink, table_aligns_marks_wraps_and_cleans)
{
	struct row_table t = things(3);
	const struct row_table *ts[] = { &t };
	char *got = written("table", ts, 1, false);

	expect(got,
	       "NAME          SECS  AT                       N  RATIO  OK     NOTE\n"
	       "a|b,c\"d e\\f  ~12.3  2024-05-01 10:00:03      3   0.50  true   short\n"
	       "=cmd\n"
	       "<b>plain<2     1.3  2024-05-01 10:00:03  12345   0.50  false  a longer note that\n"
	       "                                                              will not fit in the\n"
	       "                                                              narrow table and so\n"
	       "                                                              wraps under its\n"
	       "                                                              column\n"
	       "\n"
	       "first note\n"
	       "second | note\n");
	free(got);
}

Test(sink, table_verbose_shows_every_column_and_no_rows_says_so)
{
	struct row_table t = things(1), empty = things(0);
	const struct row_table *ts[] = { &t, &empty };
	char *got;

	empty.nnotes = 0;
	got = written("table", ts, 2, true);
	cr_expect(strstr(got, "  ARN ") != NULL, "%s", got);
	cr_expect(strstr(got, "arn:row:0") != NULL, "%s", got);
	cr_expect(strstr(got, "\n\n(no things)\n") != NULL, "%s", got);
	free(got);
}

Test(sink, csv_quotes_neutralises_and_leaves_empty_cells_empty)
{
	struct row_table t = things(3);
	const struct row_table *ts[] = { &t };
	char *got = written("csv", ts, 1, false);

	expect(got,
	       "name,secs,at,n,ratio,ok,arn,note\n"
	       "\"a|b,c\"\"d\ne\\f\",12.345,2024-05-01T10:00:03.123Z,3,0.50,true,arn:row:0,short\n"
	       "'=cmd,,,,,,,\n"
	       "<b>plain<2,1.250,2024-05-01T10:00:03.123Z,12345,0.50,false,arn:row:2,"
	       "a longer note that will not fit in the narrow table and so wraps under its "
	       "column\n");
	free(got);
}

Test(sink, csv_time_format_is_the_options)
{
	struct sink_options o = { .time_format = TIME_FORMAT_EPOCH };
	struct row_table t = things(1);
	const struct row_table *ts[] = { &t };
	struct sink s;
	struct err err;
	char *p = path_of("t.csv"), *got;

	cr_assert_eq(sink_open(&s, p, NULL, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_write(&s, ts, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
	got = slurp(p);
	cr_expect(strstr(got, ",1714557603.123,") != NULL, "%s", got);
	free(got);
	free(p);
}

Test(sink, json_one_table_rows_a_line_nulls_and_notes)
{
	struct row_table t = things(2);
	const struct row_table *ts[] = { &t };
	char *got = written("json", ts, 1, false);

	expect(got,
	       "{\"things\":[\n"
	       "{\"name\":\"a|b,c\\\"d\\ne\\\\f\",\"secs\":12.345,"
	       "\"at\":\"2024-05-01T10:00:03.123Z\",\"n\":3,\"ratio\":0.5,\"ok\":true,"
	       "\"arn\":\"arn:row:0\",\"note\":\"short\"},\n"
	       "{\"name\":\"=cmd\",\"secs\":null,\"at\":null,\"n\":null,\"ratio\":null,"
	       "\"ok\":null,\"arn\":null,\"note\":null}\n"
	       "],\"things_notes\":[\"first note\",\"second | note\"]}\n");
	free(got);
}

Test(sink, json_several_tables_in_one_object)
{
	struct row_table a = things(0), b = things(0);
	const struct row_table *ts[] = { &a, &b };
	char *got;

	a.nnotes = 0;
	b.name = "others";
	b.nnotes = 1;
	got = written("json", ts, 2, false);
	expect(got, "{\"things\":[],\n\"others\":[],\"others_notes\":[\"first note\"]}\n");
	free(got);
}

Test(sink, markdown_escapes_aligns_and_lists_notes)
{
	struct row_table t = things(3);
	const struct row_table *ts[] = { &t };
	char *got = written("markdown", ts, 1, false);

	expect(got,
	       "| NAME | SECS | AT | N | RATIO | OK | NOTE |\n"
	       "|---|---:|---|---:|---:|---|---|\n"
	       "| a\\|b,c\"d<br>e\\\\f | ~12.3 | 2024-05-01T10:00:03.123Z | 3 | 0.50 | true | "
	       "short |\n"
	       "| =cmd |  |  |  |  |  |  |\n"
	       "| &lt;b>plain<2 | 1.3 | 2024-05-01T10:00:03.123Z | 12345 | 0.50 | false | "
	       "a longer note that will not fit in the narrow table and so wraps under its "
	       "column |\n"
	       "\n"
	       "- first note\n"
	       "- second \\| note\n");
	free(got);
}

static const char *const mentions[] = {
	"@octocat, @org/team-a and cc:@b_c-d", "user@example.com, a@ alone, @-x", "see #123, o/r#45, #x",
	"a `@x` ping", "(@Bob)",
};

static void
mention_cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
	     size_t size)
{
	(void)ctx;
	(void)col;
	(void)scratch;
	(void)size;
	v->present = true;
	v->text = mentions[row];
}

/* An @mention or an issue reference from the data would ping or link from a step
 * summary: each is a code span; an email is not a mention; a backtick of the data is
 * escaped, so that it cannot close a span early and let a mention out. */
Test(sink, markdown_quotes_mentions_and_issue_references)
{
	static const struct row_column col[1] = { { "reason", "REASON", CELL_TEXT, 0, 0 } };
	static const char *const note[] = { "stopped by @ops-bot, fixes #9" };
	struct row_table t = { .name = "m", .cols = col, .ncols = 1, .nrows = 5,
			       .cell = mention_cell, .notes = note, .nnotes = 1 };
	const struct row_table *ts[] = { &t };
	char *got = written("markdown", ts, 1, false);

	expect(got,
	       "| REASON |\n"
	       "|---|\n"
	       "| `@octocat`, `@org/team-a` and cc:`@b_c-d` |\n"
	       "| user@example.com, a@ alone, @-x |\n"
	       "| see `#123`, o/r`#45`, #x |\n"
	       "| a \\``@x`\\` ping |\n"
	       "| (`@Bob`) |\n"
	       "\n"
	       "- stopped by `@ops-bot`, fixes `#9`\n");
	free(got);
}

Test(sink, markdown_headings_only_for_several_tables)
{
	struct row_table a = things(1), b = things(0);
	const struct row_table *ts[] = { &a, &b };
	char *got;

	a.nnotes = 0;
	b.nnotes = 0;
	b.name = "others";
	b.title = "other | things";
	got = written("markdown", ts, 2, false);
	cr_expect(strncmp(got, "### things\n\n| NAME |", 20) == 0, "%s", got);
	cr_expect(strstr(got, "\n\n### others\n\nother \\| things\n\n(no others)\n") != NULL,
		  "%s", got);
	free(got);
	got = written("markdown", ts, 1, true);
	cr_expect(strncmp(got, "| NAME |", 8) == 0, "%s", got);
	cr_expect(strstr(got, " | ARN | NOTE |\n") != NULL, "verbose shows every column: %s", got);
	cr_expect(strstr(got, " | arn:row:0 | ") != NULL, "%s", got);
	free(got);
}

Test(sink, rows_stream_with_one_header)
{
	struct row_table t = things(3);
	struct sink s;
	struct err err;
	char *p = path_of("w.csv"), *got;

	cr_assert_eq(sink_open(&s, p, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(s.format->id, SINK_CSV);
	cr_assert_eq(sink_row(&s, &t, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_row(&s, &t, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(s.rows, 2);
	cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
	got = slurp(p);
	expect(got, "name,secs,at,n,ratio,ok,arn,note\n'=cmd,,,,,,,\n"
		    "\"a|b,c\"\"d\ne\\f\",12.345,2024-05-01T10:00:03.123Z,3,0.50,true,arn:row:0,"
		    "short\n");
	free(got);
	free(p);
}

Test(sink, json_lines_one_object_a_line)
{
	struct row_table t = things(3);
	struct sink s;
	struct err err;
	char *p = path_of("w.jsonl"), *got;

	cr_assert_eq(sink_open(&s, p, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(s.format->id, SINK_JSON);
	cr_assert_eq(sink_row(&s, &t, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_row(&s, &t, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
	got = slurp(p);
	expect(got, "{\"name\":\"=cmd\",\"secs\":null,\"at\":null,\"n\":null,\"ratio\":null,"
		    "\"ok\":null,\"arn\":null,\"note\":null}\n"
		    "{\"name\":\"=cmd\",\"secs\":null,\"at\":null,\"n\":null,\"ratio\":null,"
		    "\"ok\":null,\"arn\":null,\"note\":null}\n");
	free(got);
	free(p);
}

Test(sink, formats_by_name_and_extension)
{
	size_t n;
	const struct sink_format *f = sink_formats(&n);

	cr_assert_eq(n, SINK_FORMAT_COUNT);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(f[i].id, (enum sink_format_id)i, "%s", f[i].name);
	cr_expect_eq(sink_format_by_name("markdown")->id, SINK_MARKDOWN);
	cr_expect_null(sink_format_by_name("md"));
	cr_expect_eq(sink_format_by_path("dir.x/out.MD")->id, SINK_MARKDOWN);
	cr_expect_eq(sink_format_by_path("out.markdown")->id, SINK_MARKDOWN);
	cr_expect_eq(sink_format_by_path("out.jsonl")->id, SINK_JSON);
	cr_expect_eq(sink_format_by_path("out.txt")->id, SINK_TABLE);
	cr_expect_eq(sink_format_by_path("out.xlsx")->id, SINK_XLSX);
	cr_expect_eq(sink_format_by_path("a.b.html")->id, SINK_HTML);
	cr_expect_null(sink_format_by_path("dir.csv/out"));
	cr_expect_null(sink_format_by_path(".csv"));
	cr_expect_null(sink_format_by_path("out."));
}

struct warned {
	int n;
	char line[512];
};

static void
catch_warning(enum log_level level, const char *line, void *ctx)
{
	struct warned *w = ctx;

	if (level == LOG_WARN) {
		w->n++;
		snprintf(w->line, sizeof w->line, "%s", line);
	}
}

static const struct sink_format *
opened(const char *name, const char *format, struct warned *w)
{
	struct sink s;
	struct err err;
	char *p = path_of(name);
	const struct sink_format *f;
	struct log lg;
	struct sink_options so = { .log = &lg };   /* its warning to catch_warning() */

	memset(w, 0, sizeof *w);
	log_init(&lg, 0, catch_warning, w);
	cr_assert_eq(sink_open(&s, p, format, &so, &err), 0, "%s", err.msg);
	log_cleanup(&lg);
	f = s.format;
	cr_expect_eq(s.o.width, 100);
	sink_abort(&s);
	free(p);
	return f;
}

Test(sink, open_infers_the_format_and_warns_once_for_an_unknown_extension)
{
	struct warned w;

	cr_expect_eq(opened("r.md", NULL, &w)->id, SINK_MARKDOWN);
	cr_expect_eq(w.n, 0);
	cr_expect_eq(opened("r.csv", "json", &w)->id, SINK_JSON, "--format wins");
	cr_expect_eq(opened("r", NULL, &w)->id, SINK_TABLE);
	cr_expect_eq(w.n, 0, "no extension: no warning");
	cr_expect_eq(opened("r.weird", NULL, &w)->id, SINK_TABLE);
	cr_expect_eq(w.n, 1);
	cr_expect(strstr(w.line, ".weird") != NULL && strstr(w.line, "table") != NULL, "%s",
		  w.line);
}

Test(sink, unknown_format_name_is_an_error_naming_the_formats)
{
	struct sink s;
	struct err err;

	cr_assert_eq(sink_open(&s, NULL, "yaml", NULL, &err), -1);
	cr_expect_eq(err.code, ERR_USAGE);
	cr_expect(strstr(err.msg, "'yaml'") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "table, csv, json, markdown, html, xlsx") != NULL, "%s",
		  err.msg);
}

static int
custom(FILE *f, void *ctx, struct err *err)
{
	(void)err;
	return fputs(ctx, f) == EOF ? -1 : 0;
}

Test(sink, file_replaced_only_at_commit_and_kept_by_abort)
{
	struct row_table t = things(1);
	const struct row_table *ts[] = { &t };
	struct sink s;
	struct err err;
	char *p = path_of("keep.csv"), *got;
	FILE *f = fopen(p, "w");

	cr_assert_not_null(f);
	fputs("old\n", f);
	fclose(f);
	cr_assert_eq(sink_open(&s, p, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_write(&s, ts, 1, &err), 0, "%s", err.msg);
	fflush(s.f);
	got = slurp(p);
	expect(got, "old\n");
	free(got);
	sink_abort(&s);
	got = slurp(p);
	expect(got, "old\n");
	free(got);

	cr_assert_eq(sink_open(&s, p, "html", NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_write_custom(&s, custom, "<p>new</p>\n", &err), 0, "%s", err.msg);
	got = slurp(p);
	expect(got, "old\n");
	free(got);
	cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
	got = slurp(p);
	expect(got, "<p>new</p>\n");
	free(got);
	free(p);
}

Test(sink, a_format_without_the_writer_is_an_error)
{
	struct row_table t = things(1);
	const struct row_table *ts[] = { &t };
	struct sink s;
	struct err err;
	char *p = path_of("x.html");

	cr_assert_eq(sink_open(&s, p, NULL, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(sink_write(&s, ts, 1, &err), -1);
	cr_expect(strstr(err.msg, "html") != NULL, "%s", err.msg);
	sink_abort(&s);
	cr_assert_eq(sink_open(&s, p, "markdown", NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(sink_row(&s, &t, 0, &err), -1);
	cr_expect(strstr(err.msg, "markdown") != NULL, "%s", err.msg);
	sink_abort(&s);
	free(p);
}

Test(sink, rowtab_cell_guards_the_table)
{
	struct row_table t = things(1);
	struct cell_value v;
	char scratch[64];

	rowtab_cell(&t, 5, 0, &v, scratch, sizeof scratch);
	cr_expect(!v.present);
	rowtab_cell(&t, 0, NCOLS, &v, scratch, sizeof scratch);
	cr_expect(!v.present);
	rowtab_cell(&t, 0, C_ARN, &v, scratch, sizeof scratch);
	cr_expect(v.present);
	cr_expect_str_eq(v.text, "arn:row:0");
}

/* the report's tasks through the sink's CSV writer (a row at a time, as watch streams
 * them, and the whole table) are csv_write_tasks_as' bytes, in every time format, on the
 * output fixture's hostile cells (commas, quotes, line breaks, formulas, a skewed phase) */
Test(sink, report_tasks_csv_is_the_report_csv)
{
	static const enum time_format tfs[] = { TIME_FORMAT_ISO, TIME_FORMAT_SPREADSHEET,
						TIME_FORMAT_EPOCH };
	struct task_set set;
	struct report r;
	struct report_rowtab rt;
	struct err err;

	task_set_init(&set);
	fx_build_set(&set);
	cr_assert_eq(fx_build_report(&r, &set, "taskdef", &err), 0, "%s", err.msg);
	report_rowtab_tasks(&rt, &r, true);
	for (size_t k = 0; k < 3; k++) {
		struct sink_options o = { .time_format = tfs[k] };
		const struct row_table *ts[] = { &rt.t };
		char *want = NULL, *p = path_of("rows.csv"), *rows, *whole;
		size_t len;
		FILE *f = open_memstream(&want, &len);
		struct sink s;

		cr_assert_eq(csv_write_tasks_as(f, &r, tfs[k], &err), 0, "%s", err.msg);
		fclose(f);
		cr_assert_eq(sink_open(&s, p, NULL, &o, &err), 0, "%s", err.msg);
		for (size_t i = 0; i < r.nrows; i++)
			cr_assert_eq(sink_row(&s, &rt.t, i, &err), 0, "%s", err.msg);
		cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
		rows = slurp(p);
		expect(rows, want);
		whole = written("csv", ts, 1, false);
		if (tfs[k] == TIME_FORMAT_ISO)
			expect(whole, want);
		free(rows);
		free(whole);
		free(want);
		free(p);
	}
	report_rowtab_cleanup(&rt);
	report_cleanup(&r);
	task_set_cleanup(&set);
}

/* Markdown of the report: the table's columns, the failed start as a note with its
 * reason and the rule's next step, a hostile cell still one row */
Test(sink, report_tasks_markdown)
{
	static const char head[] = "| TASK | TASKDEF | AZ | STATUS | GROUP | CREATED | "
				   "PROVISION | PULL | START | TOTAL | CONNECT |\n"
				   "|---|---|---|---|---|---|---:|---:|---:|---:|---:|\n";
	struct task_set set;
	struct report r;
	struct report_rowtab rt;
	struct err err;
	const struct row_table *ts[] = { &rt.t };
	char *got;
	size_t lines = 0;

	task_set_init(&set);
	fx_build_set(&set);
	cr_assert_eq(fx_build_report(&r, &set, "taskdef", &err), 0, "%s", err.msg);
	report_rowtab_tasks(&rt, &r, true);
	got = written("markdown", ts, 1, false);
	cr_expect(strncmp(got, head, sizeof head - 1) == 0, "%s", got);
	cr_expect(strstr(got, "| 10.0 | 60.5 | 4.8 | 75.3 | 8.1 |") != NULL, "%s", got);
	cr_expect(strstr(got, "stopped before RUNNING (TaskFailedToStart): CannotPullContainer")
		  != NULL, "%s", got);
	for (const char *p = got; *p != '\0'; p++)
		lines += *p == '\n';
	cr_expect_eq(lines, 2 + r.nrows + 1 + rt.t.nnotes, "%s", got);
	free(got);
	report_rowtab_cleanup(&rt);
	report_cleanup(&r);
	task_set_cleanup(&set);
}

/* A full disk is an error at the commit, never a silent success: stdout (flushed there)
 * and a device written in place alike. */
Test(sink, a_failed_write_is_an_error_at_commit)
{
	struct row_table t = things(3);
	const struct row_table *ts[] = { &t };
	struct sink s;
	struct err err;

	cr_assert_not_null(freopen("/dev/full", "w", stdout));
	cr_assert_eq(sink_open(&s, "-", "csv", NULL, &err), 0, "%s", err.msg);
	cr_assert(s.to_stdout);
	cr_assert_eq(sink_write(&s, ts, 1, &err), 0, "buffered: %s", err.msg);
	cr_expect_eq(sink_commit(&s, &err), -1);
	cr_expect_eq(err.code, ERR_IO);
	cr_expect(strstr(err.msg, "standard output") != NULL, "%s", err.msg);

	cr_assert_eq(sink_open(&s, "/dev/full", "markdown", NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_write(&s, ts, 1, &err), 0, "buffered: %s", err.msg);
	cr_expect_eq(sink_finish(&s, 0, &err), -1);
	cr_expect_eq(err.code, ERR_IO, "%s", err.msg);
}

/* watch -o: nothing replaces the file before sink_publish; after it the file holds what
 * was written, and the commit adds the rest */
Test(sink, publish_replaces_the_file_before_the_commit)
{
	struct row_table t = things(3);
	struct sink s;
	struct err err;
	char *p = path_of("w.csv"), *got;
	FILE *f = fopen(p, "w");

	cr_assert_not_null(f);
	fputs("old\n", f);
	fclose(f);
	cr_assert_eq(sink_open(&s, p, NULL, NULL, &err), 0, "%s", err.msg);
	cr_expect(!sink_published(&s));
	cr_assert_eq(sink_row(&s, &t, 1, &err), 0, "%s", err.msg);
	got = slurp(p);
	expect(got, "old\n");
	free(got);
	cr_assert_eq(sink_publish(&s, &err), 0, "%s", err.msg);
	cr_expect(sink_published(&s));
	got = slurp(p);
	expect(got, "name,secs,at,n,ratio,ok,arn,note\n'=cmd,,,,,,,\n");
	free(got);
	cr_assert_eq(sink_row(&s, &t, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sink_commit(&s, &err), 0, "%s", err.msg);
	got = slurp(p);
	expect(got, "name,secs,at,n,ratio,ok,arn,note\n'=cmd,,,,,,,\n'=cmd,,,,,,,\n");
	free(got);
	free(p);
}

/* a p-value column (-3: three significant digits) keeps a tiny value's magnitude in every
 * format, where "%.6f" printed 0.000000 */
static void
p_cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
       size_t size)
{
	static const double p[] = { 4.2137e-13, 0.0123456, 1.0 };

	(void)ctx;
	(void)col;
	(void)scratch;
	(void)size;
	v->present = true;
	v->num = p[row];
}

Test(sink, significant_digits_keep_a_tiny_p_value)
{
	static const struct row_column pcol[1] = { { "p_value", "P", CELL_NUMBER, -3, 0 } };
	struct row_table t = { .name = "p", .cols = pcol, .ncols = 1, .nrows = 3, .cell = p_cell };
	const struct row_table *ts[] = { &t };
	char *csv = written("csv", ts, 1, false), *json = written("json", ts, 1, false);

	expect(csv, "p_value\n4.21e-13\n0.0123\n1\n");
	expect(json, "{\"p\":[\n{\"p_value\":4.21e-13},\n{\"p_value\":0.0123},\n{\"p_value\":1.0}\n]}\n");
	free(csv);
	free(json);
}
