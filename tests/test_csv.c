/* csv: quoting and neutralisation of single cells, the task and summary CSV against hand-
 * checked golden files, and both outputs against the shared contract checker. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "ecsprof/cost.h"
#include "ecsprof/csv.h"
#include "fixtures/output/fixture_tasks.h"
#include "fixtures/output/golden.h"

static void
expect_cell(const char *in, bool text, const char *want)
{
	struct buf b;

	buf_init(&b, 0);
	cr_assert_eq(csv_add_cell(&b, in, text), 0);
	cr_expect_str_eq(buf_str(&b), want, "cell [%s] gave [%s], want [%s]", in, buf_str(&b),
			 want);
	buf_cleanup(&b);
}

Test(csv, plain_cells_stay_bare)
{
	expect_cell("", true, "");
	expect_cell("web:7", true, "web:7");
	expect_cell("caf\xc3\xa9", true, "caf\xc3\xa9");
	expect_cell("a b'c", true, "a b'c");
	/* a sign inside a cell is harmless; only the first character matters */
	expect_cell("1-2+3=4", true, "1-2+3=4");
}

Test(csv, rfc4180_quoting)
{
	expect_cell("a,b", true, "\"a,b\"");
	expect_cell("say \"hi\"", true, "\"say \"\"hi\"\"\"");
	expect_cell("\"", true, "\"\"\"\"");
	expect_cell("two\nlines", true, "\"two\nlines\"");
	expect_cell("cr\rhere", true, "\"cr\rhere\"");
	expect_cell("crlf\r\n", true, "\"crlf\r\n\"");
	/* line breaks that Python's splitlines() and editors honour */
	expect_cell("a\xe2\x80\xa8" "b", true, "\"a\xe2\x80\xa8" "b\"");
	expect_cell("a\xe2\x80\xa9" "b", true, "\"a\xe2\x80\xa9" "b\"");
	expect_cell("a\xc2\x85" "b", true, "\"a\xc2\x85" "b\"");
	/* other characters of those ranges are not line breaks */
	expect_cell("\xe2\x80\xa6", true, "\xe2\x80\xa6");
	expect_cell("\xc2\xa9", true, "\xc2\xa9");
}

/* item 5 of issue 10: a catted CSV must not drive the terminal; each control that is not
 * a tab or a line break becomes one '?', so the rest of the cell survives as it was */
Test(csv, terminal_controls_become_question_marks)
{
	expect_cell("\x1b]0;pwned\x07title", true, "?]0;pwned?title");
	expect_cell("\x1b[31mred", true, "?[31mred");
	expect_cell("back\bspace\x7f", true, "back?space?");
	expect_cell("a\xc2\x9b" "31m", true, "a?31m");   /* C1 CSI */
	expect_cell("abc\xe2\x80\xae" "fdp.exe", true, "abc?fdp.exe");   /* U+202E */
	expect_cell("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", true, "????");
	expect_cell("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", true, "????");
	expect_cell("bad\xff" "byte", true, "bad?byte");
	/* quoting still applies around what is left */
	expect_cell("a,\x1b" "b", true, "\"a,?b\"");
	/* neighbours of the bidi controls are ordinary text */
	expect_cell("\xe2\x80\xa9", true, "\"\xe2\x80\xa9\"");
	expect_cell("\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa", true, "\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
}

/* issue 31 items 4 and 5: VT and FF (and FS, GS, RS) are controls like the other C0 ones,
 * not kept line breaks; the rest of termsafe_cp_unsafe's set (ALM, LRM, RLM, the
 * noncharacters) becomes '?' too */
Test(csv, vt_ff_bidi_marks_and_noncharacters_become_question_marks)
{
	expect_cell("a\vb", true, "a?b");
	expect_cell("a\fb", true, "a?b");
	expect_cell("a\x1c\x1d\x1e" "b", true, "a???b");
	expect_cell("a\xe2\x80\x8e" "b\xe2\x80\x8f" "c\xd8\x9c" "d", true, "a?b?c?d");
	expect_cell("a\xef\xbf\xbe" "b\xef\xbf\xbf" "c\xef\xb7\x90" "d\xf0\x9f\xbf\xbf", true,
		    "a?b?c?d?");
	/* their neighbours stay */
	expect_cell("\xef\xbf\xbd\xef\xb7\xb0\xe2\x80\x8d", true, "\xef\xbf\xbd\xef\xb7\xb0\xe2\x80\x8d");
}

Test(csv, formula_cells_are_neutralised)
{
	expect_cell("=1+2", true, "'=1+2");
	expect_cell("+1", true, "'+1");
	expect_cell("-2", true, "'-2");
	expect_cell("-", true, "'-");
	expect_cell("@SUM(A1)", true, "'@SUM(A1)");
	expect_cell("\tLATEST", true, "'\tLATEST");
	/* neutralised and quoted: the apostrophe goes inside the quotes */
	expect_cell("\rx", true, "\"'\rx\"");
	expect_cell("=HYPERLINK(\"http://x\",\"y\")", true,
		    "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	/* numbers the writer itself prints are not text: left alone */
	expect_cell("-0.500", false, "-0.500");
}

Test(csv, cap_is_reported)
{
	struct buf b;

	buf_init(&b, 4);
	cr_expect_eq(csv_add_cell(&b, "abcdef", true), -1);
	buf_cleanup(&b);
	buf_init(&b, 4);
	cr_expect_eq(csv_add_cell(&b, "a,bc", true), -1);
	buf_cleanup(&b);
}

typedef int writer_fn(FILE *, const struct report *, struct err *);

static char *
capture(writer_fn *w, const char *group_by, size_t *len)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	FILE *f;

	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, group_by, &err), 0, "report_build: %s", err.msg);
	f = open_memstream(&out, len);
	cr_assert_not_null(f);
	cr_assert_eq(w(f, &r, &err), 0, "writer failed: %s", err.msg);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
	return out;
}

/* runs the shared contract checker; a missing checker or python3 fails the test */
static void
expect_contract(const char *text, size_t len, bool summary)
{
	char path[] = "/tmp/ecsprof-csv-XXXXXX", cmd[2048];
	int fd = mkstemp(path), rc;

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	snprintf(cmd, sizeof cmd, "python3 '%s/tools/check-csv-contract' '%s' %s >&2", SHARED_DIR,
		 path, summary ? "--summary" : "");
	rc = system(cmd);
	unlink(path);
	cr_expect_eq(rc, 0, "check-csv-contract rejected the %s CSV (status %d)",
		     summary ? "summary" : "task", rc);
}

Test(csv, tasks_golden)
{
	size_t len;
	char *out = capture(csv_write_tasks, "taskdef", &len);

	fx_expect_golden(out, len, "tasks.csv");
	expect_contract(out, len, false);
	free(out);
}

Test(csv, summary_golden)
{
	size_t len;
	char *out = capture(csv_write_summary, "taskdef", &len);

	fx_expect_golden(out, len, "summary.csv");
	expect_contract(out, len, true);
	free(out);
}

Test(csv, every_row_has_every_column)
{
	size_t len;
	char *out = capture(csv_write_tasks, "taskdef", &len);
	size_t rows = 0, commas = 0;
	bool quoted = false;

	/* count records and separators outside quotes: the parser a spreadsheet runs */
	for (size_t i = 0; i < len; i++) {
		if (out[i] == '"')
			quoted = !quoted;
		else if (!quoted && out[i] == ',')
			commas++;
		else if (!quoted && out[i] == '\n')
			rows++;
	}
	cr_expect(!quoted, "unbalanced quotes");
	cr_expect_eq(rows, 1 + FX_NTASKS);
	cr_expect_eq(commas, rows * (COL_COUNT - 1));
	free(out);
}

/* a writer must say so when the output cannot be written (a full disk, a closed pipe) */
Test(csv, write_error_is_reported)
{
	struct task_set s;
	struct report r;
	struct err err;
	FILE *f = fopen("/dev/full", "w");

	cr_assert_not_null(f, "/dev/full is needed for this test");
	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	cr_expect_eq(csv_write_tasks(f, &r, &err), -1);
	cr_expect_eq(err.code, ERR_IO);
	cr_expect_neq(strstr(err.msg, "write"), NULL, "message: %s", err.msg);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* no tasks: the header alone (a CSV always has it), and the contract still holds */
Test(csv, no_tasks_is_header_only)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;

	err_clear(&err);
	task_set_init(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(csv_write_summary(f, &r, &err), 0);
	fclose(f);
	cr_expect_str_eq(out, "group,phase,n,min_s,p50_s,p90_s,p99_s,max_s,mean_s,baseline,"
			      "p50_delta_s,p50_ratio,p90_delta_s,p90_ratio,p_value,pull_share,"
			      "startup_cost_per_1000_usd,baseline_startup_cost_per_1000_usd,"
			      "startup_cost_unpriced_n,startup_cost_unpriced,diagnosis_counts\n");
	expect_contract(out, len, true);
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* ---- the one-pass cell scan against the cell writer it replaced ---- */

#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"

/* csv_add_cell() as it was before the fused scan (utf8_len, termsafe_bad_len and a quote
 * scan per cell, buf_add per sequence): the oracle the new one must match byte for byte */
static bool
ref_needs_quotes(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case ',': case '"': case '\r': case '\n':
			return true;
		case 0xc2:
			if (p[1] == 0x85)
				return true;
			break;
		case 0xe2:
			if (p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

static int
ref_add_cell(struct buf *b, const char *cell, bool is_text)
{
	bool neutralise = is_text && cell[0] != '\0' && strchr("=+-@\t\r", cell[0]) != NULL;
	bool quote = ref_needs_quotes(cell);

	if ((quote && buf_addc(b, '"') != 0) || (neutralise && buf_addc(b, '\'') != 0))
		return -1;
	for (const unsigned char *p = (const unsigned char *)cell; *p != '\0';) {
		size_t bad = p[0] == 0xc2 && p[1] == 0x85 ? 0 :
			     termsafe_bad_len((const char *)p, "\t\n\r");

		if (bad > 0) {
			if (buf_addc(b, '?') != 0)
				return -1;
			p += bad;
			continue;
		}
		size_t len = utf8_len(p);

		if (quote && *p == '"' && buf_addc(b, '"') != 0)
			return -1;
		if (buf_add(b, p, len) != 0)
			return -1;
		p += len;
	}
	return quote ? buf_addc(b, '"') : 0;
}

/* the pieces random cells are made of: every class the scan tells apart, and the bytes
 * next to each boundary */
static const char *const cell_pieces[] = {
	"a", "Z", "0", " ", "~", "abcdefgh", "0123456789abcdef", "arn:aws:ecs:us-east-1:1:task/x",
	",", "\"", "\n", "\r", "\t", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x1f", "\x1b", "\x07",
	"\x01", "\x7f", "=", "+", "-", "@", "'",
	"\xc2\x85", "\xc2\x80", "\xc2\x9b", "\xc2\x9f", "\xc2\xa0", "\xc2\xa9", "\xc3\xa9",
	"\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xa7", "\xe2\x80\xaa", "\xe2\x80\xae",
	"\xe2\x80\xaf", "\xe2\x81\xa5", "\xe2\x81\xa6", "\xe2\x81\xa9", "\xe2\x81\xaa",
	"\xe2\x80\xa6", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf",
	"\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c", "\xef\xbf\xbe", "\xef\xbf\xbf",
	"\xef\xb7\x90", "\xef\xb7\xaf", "\xef\xb7\xb0", "\xef\xbf\xbd", "\xf0\x9f\xbf\xbe",
	/* invalid: stray and lead bytes, overlong, surrogate, above U+10FFFF, cut short */
	"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	"\xf5", "\xff", "\xe2\x80", "\xe2", "\xc2", "\xf0\x9f\x98",
};

static void
expect_same_cell(const char *cell, bool text)
{
	struct buf want, got;
	size_t n;

	buf_init(&want, 0);
	buf_init(&got, 0);
	/* something before the cell, as in a row */
	buf_adds(&want, "x,");
	buf_adds(&got, "x,");
	cr_assert_eq(ref_add_cell(&want, cell, text), 0);
	cr_assert_eq(csv_add_cell(&got, cell, text), 0);
	cr_assert_eq(got.len, want.len, "cell [%s]: %zu bytes, want %zu", cell, got.len, want.len);
	cr_assert_eq(memcmp(got.data, want.data, want.len + 1), 0, "cell [%s] gave [%s], want [%s]",
		     cell, got.data, want.data);
	n = want.len;
	buf_cleanup(&got);
	/* under a cap: exactly fitting works (though the worst case would not), one less fails */
	buf_init(&got, n);
	buf_adds(&got, "x,");
	cr_assert_eq(csv_add_cell(&got, cell, text), 0, "cell [%s] under a cap of %zu", cell, n);
	cr_assert_eq(memcmp(got.data, want.data, n + 1), 0);
	buf_cleanup(&got);
	buf_init(&got, n - 1);
	buf_adds(&got, "x,");
	cr_assert_eq(csv_add_cell(&got, cell, text), n > 2 ? -1 : 0);
	buf_cleanup(&got);
	buf_cleanup(&want);
}

Test(csv, fused_scan_matches_the_reference_on_edges)
{
	char cell[64];
	const size_t npieces = sizeof cell_pieces / sizeof cell_pieces[0];

	/* each piece alone, and at every offset of a plain run (the 8-byte steps' edges,
	 * and the run's last 1-7 bytes copied as the 8 that end it) */
	for (size_t i = 0; i < npieces; i++) {
		for (size_t off = 0; off <= 17; off++) {
			for (size_t tail = 0; tail <= 9; tail++) {   /* every 1-7 end */
				int n = snprintf(cell, sizeof cell, "%.*s%s%.*s", (int)off,
						 "abcdefghijklmnopqrstuvwxyz", cell_pieces[i], (int)tail,
						 "ABCDEFGHIJ");

				cr_assert_lt(n, (int)sizeof cell);
				expect_same_cell(cell, true);
				expect_same_cell(cell, false);
			}
		}
	}
}

Test(csv, fused_scan_matches_the_reference_on_random_cells)
{
	const size_t npieces = sizeof cell_pieces / sizeof cell_pieces[0];
	unsigned seed = 16;
	char cell[512];

	for (int iter = 0; iter < 100000; iter++) {
		size_t len = 0, parts = (size_t)(rand_r(&seed) % 24);

		for (size_t k = 0; k < parts; k++) {
			if (rand_r(&seed) % 5 == 0) {
				/* any byte at all */
				cell[len] = (char)(1 + rand_r(&seed) % 255);
				len++;
			} else {
				const char *p = cell_pieces[rand_r(&seed) % npieces];
				size_t pl = strlen(p);

				memcpy(cell + len, p, pl);
				len += pl;
			}
		}
		cell[len] = '\0';
		expect_same_cell(cell, iter % 2 == 0);
	}
}

/* ---- a row's cells at once (report_row_cells) against report_cell() ---- */

#include "ecsprof/image.h"
#include "fixtures/failed_start.h"

/* one task that pulled an image with known facts (the image columns), one that failed to
 * pull (the diagnosis columns), both on Fargate (the cost columns), one healthy */
static void
cells_set(struct task_set *s, char *reason)
{
	struct task t;
	struct image_facts x;
	const char *digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

	task_set_init(s);
	fs_pulling_task(&t, "arn:aws:ecs:us-east-1:123456789012:task/prod/aaaa1111");
	task_set_ts(&t, TS_PULL_STOPPED, FS_T0 + 52000);
	task_set_ts(&t, TS_STARTED, FS_T0 + 55000);
	task_set_ts(&t, TS_HEALTHY, FS_T0 + 61000);
	task_str(&t, &task_edit_profile(&t)->launch_type, "FARGATE");
	task_str(&t, &task_edit_profile(&t)->platform_version, "1.4.0");
	task_str(&t, &task_edit_profile(&t)->availability_zone, "us-east-1a");
	task_str(&t, &task_edit_profile(&t)->cpu, "256");
	task_str(&t, &task_edit_profile(&t)->memory, "512");
	task_containers(&t, 1);
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->name, "web");
	task_str(&t, &container_edit_profile(&t, &t.containers[0])->image, "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:v1");
	container_set_digest(&t, &t.containers[0], digest, digest != NULL ? strlen(digest) : 0);
	task_derive(&t);
	task_set_take(s, &t);
	fs_failed_task(&t, true);
	if (reason != NULL) {
		task_str(&t, &task_edit_profile(&t)->stopped_reason, reason);
		free(reason);
	}
	task_derive(&t);
	task_set_take(s, &t);
	image_facts_init(&x);
	x.digest = xstrdup(digest);
	x.platform = xstrdup("linux/amd64");
	x.image = xstrdup("123456789012.dkr.ecr.us-east-1.amazonaws.com/web:v1");
	x.repository = xstrdup("web");
	x.status = IMAGE_OK;
	x.soci = IMAGE_SOCI_NONE;
	x.size_bytes = (int64_t)600 << 20;
	x.nlayers = 2;
	x.layers = xcalloc(2, sizeof *x.layers);
	x.layers[0].size = (int64_t)500 << 20;
	x.layers[0].comp = IMAGE_COMP_GZIP;
	x.layers[1].size = (int64_t)100 << 20;
	x.layers[1].comp = IMAGE_COMP_ZSTD;
	s->images = image_set_new();
	image_set_put(s->images, &x);
}

static void
expect_row_cells_match(const struct report *r, size_t *nonempty)
{
	static const enum time_format tfs[] = {
		TIME_FORMAT_ISO, TIME_FORMAT_SPREADSHEET, TIME_FORMAT_EPOCH,
	};
	struct report_cells *cells = xmalloc(sizeof *cells);
	char want[8192];

	for (size_t i = 0; i < r->nrows; i++) {
		for (size_t k = 0; k < sizeof tfs / sizeof tfs[0]; k++) {
			size_t total = 0;

			report_row_cells(r, &r->rows[i], tfs[k], cells);
			for (int c = 0; c < COL_COUNT; c++)
				total += cells->len[c];
			cr_assert_eq(cells->total, total, "row %zu: the cells' total", i);
			for (int c = 0; c < COL_COUNT; c++) {
				const char *got = cells->text[c];

				if (report_columns[c].kind == COL_TIME)
					timeutil_format_as(report_cell_ms(&r->rows[i], (enum col_id)c),
							   tfs[k], want);
				else
					report_cell(r, &r->rows[i], (enum col_id)c, want, sizeof want);
				cr_assert_str_eq(got, want, "row %zu column %s", i, report_columns[c].name);
				cr_assert_eq(cells->len[c], strlen(want));
				*nonempty += want[0] != '\0';
				/* a raw cell is what the writer could not have needed to touch */
				cr_assert_eq(cells->raw[c], report_columns[c].kind != COL_TEXT ||
					     c == COL_IMAGE_SIZE || c == COL_IMAGE_LAYERS ||
					     c == COL_PULL_MBPS, "column %s", report_columns[c].name);
				if (cells->raw[c]) {
					struct buf b;

					cr_assert_eq(strspn(got, "0123456789-.:TZ "), strlen(got),
						     "column %s: [%s]", report_columns[c].name, got);
					buf_init(&b, 0);
					csv_add_cell(&b, got, true);
					cr_assert_str_eq(buf_str(&b), got);
					buf_cleanup(&b);
				}
			}
		}
	}
	free(cells);
}

Test(csv, row_cells_match_report_cell)
{
	struct task_set s;
	struct report r;
	struct report_options o;
	struct err err;
	size_t nonempty = 0;

	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	expect_row_cells_match(&r, &nonempty);
	report_cleanup(&r);
	task_set_cleanup(&s);

	cells_set(&s, NULL);
	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	expect_row_cells_match(&r, &nonempty);
	/* the image, diagnosis, health and cost columns had something to compare */
	struct report_cells *cells = xmalloc(sizeof *cells);
	bool seen[COL_COUNT] = { false };

	for (size_t i = 0; i < r.nrows; i++) {
		report_row_cells(&r, &r.rows[i], TIME_FORMAT_ISO, cells);
		for (int c = 0; c < COL_COUNT; c++)
			seen[c] |= cells->text[c][0] != '\0';
	}
	for (int c = 0; c < COL_COUNT; c++)
		cr_expect(seen[c] || c == COL_CAPACITY_PROVIDER || c == COL_CONNECTIVITY_AT ||
			  c == COL_CONNECTIVITY_S || c == COL_STOP_CODE || c == COL_GROUP ||
			  c == COL_SOURCE || c == COL_HEALTHY_RES_S,
			  "column %s is empty in every row", report_columns[c].name);
	free(cells);
	cr_expect_gt(nonempty, 100);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* the short texts of a task row (under 8 bytes) are copied by csv_row_fast itself when
 * plain: each special byte there still gets csv_add_cell's treatment */
Test(csv, short_cells_are_written_as_csv_add_cell_writes_them)
{
	static const char *const shorts[] = {
		"", "a", "256", "FARGATE", "1,2", "\"x", "a\nb", "x\ry", "=1", "-2", "@a", "\tq",
		"\x01", "a\x7f", "\xc3\xa9", "\xc2\x85", "\xff", "a\"b\"", "1234567", "123456,",
	};
	const size_t n = sizeof shorts / sizeof shorts[0];
	struct report_cells *cells = xmalloc(sizeof *cells);
	struct task_set s;
	struct report r;
	struct report_options o;
	struct err err;
	struct buf want;
	char *out = NULL;
	size_t len;
	FILE *f;

	task_set_init(&s);
	for (size_t i = 0; i < n; i++) {
		struct task t;
		char arn[96];

		snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/s%zu", i);
		fs_pulling_task(&t, arn);
		task_str(&t, &task_edit_profile(&t)->launch_type, shorts[i]);
		task_str(&t, &task_edit_profile(&t)->cpu, shorts[(i + 1) % n]);
		task_str(&t, &task_edit_profile(&t)->memory, shorts[(i + 2) % n]);
		task_str(&t, &task_edit_profile(&t)->platform_version, shorts[(i + 3) % n]);
		task_str(&t, &task_edit_profile(&t)->stop_code, shorts[(i + 4) % n]);
		task_derive(&t);
		task_set_take(&s, &t);
	}
	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(csv_write_tasks(f, &r, &err), 0, "%s", err.msg);
	fclose(f);
	buf_init(&want, 0);
	cr_assert_eq(csv_add_header(&want), 0);
	for (size_t i = 0; i < r.nrows; i++) {
		report_row_cells(&r, &r.rows[i], TIME_FORMAT_ISO, cells);
		for (int c = 0; c < COL_COUNT; c++)
			cr_assert_eq((c ? buf_addc(&want, ',') : 0) |
				     csv_add_cell(&want, cells->text[c], !cells->raw[c]), 0);
		cr_assert_eq(buf_addc(&want, '\n'), 0);
	}
	cr_assert_str_eq(out, buf_str(&want));
	buf_cleanup(&want);
	free(out);
	free(cells);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* a row past the cap (16 MiB) fails with the rows before it written whole, and nothing of
 * it; one just under the cap is written whole, never cut */
static char *
write_with_reason(size_t reason_len, int want_rc, size_t *len, struct err *err)
{
	struct task_set s;
	struct report r;
	struct report_options o;
	char *out = NULL;
	FILE *f;

	char *reason = xmalloc(reason_len + 1);

	memset(reason, 'x', reason_len);
	reason[reason_len] = '\0';
	cells_set(&s, reason);
	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	err_clear(err);
	cr_assert_eq(report_build(&r, &s, &o, err), 0, "%s", err->msg);
	cr_assert_not_null(r.rows[1].task->prof->stop_code);
	f = open_memstream(&out, len);
	cr_assert_eq(csv_write_tasks(f, &r, err), want_rc, "%s", err->msg);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
	return out;
}

Test(csv, row_past_the_cap_fails_whole)
{
	struct err err;
	size_t len, nl = 0;
	char *out = write_with_reason((size_t)17 << 20, -1, &len, &err);

	cr_expect_eq(err.code, ERR_IO);
	cr_expect_str_eq(err.msg, "csv: a row is larger than 16777216 bytes");
	for (size_t i = 0; i < len; i++)
		nl += out[i] == '\n';
	cr_expect_eq(nl, 2, "the header and the first row, %zu lines", nl);
	cr_expect_eq(out[len - 1], '\n');
	cr_expect_null(strstr(out, "xxxxxxxx"));
	free(out);

	out = write_with_reason(((size_t)16 << 20) - 4096, 0, &len, &err);
	cr_expect_neq(strstr(out, "STOPPED"), NULL);
	char *x = strstr(out, "xxxx");

	cr_assert_not_null(x);
	cr_expect_eq(strspn(x, "x"), ((size_t)16 << 20) - 4096);
	free(out);
}

/* ---- the task CSV on one thread and on two: the same bytes, the same errors ---- */

/* n tasks with a hostile cell now and then; task `huge` (if < n) with a reason past the
 * row cap */
static void
many_set(struct task_set *s, size_t n, size_t huge)
{
	task_set_init(s);
	for (size_t i = 0; i < n; i++) {
		struct task t;
		char arn[128];

		snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:123456789012:task/prod/%032zx", i);
		fs_pulling_task(&t, arn);
		task_set_ts(&t, TS_CREATED, FS_T0 + (int64_t)(i * 7919 % 100000));
		task_set_ts(&t, TS_PULL_STOPPED, task_ts(&t, TS_PULL_STARTED) + (int64_t)(i % 5000));
		if (i % 3 == 0)
			task_set_ts(&t, TS_STARTED, task_ts(&t, TS_PULL_STOPPED) + 1234);
		if (i % 17 == 0) {
			task_str(&t, &task_edit_profile(&t)->last_status, "STOPPED");
			task_str(&t, &task_edit_profile(&t)->stop_code, "EssentialContainerExited");
			task_strf(&t, &task_edit_profile(&t)->stopped_reason, "=exit %zu, \"quoted\",\nnext \x1b[31m line", i);
		}
		if (i == huge) {
			size_t len = (size_t)17 << 20;

			char *r = xmalloc(len);

			memset(r, 'y', len);
			task_strn(&t, &task_edit_profile(&t)->stopped_reason, r, len);
			free(r);
		}
		task_derive(&t);
		task_set_take(s, &t);
	}
}

static char *
write_threads(const struct report *r, unsigned threads, int want_rc, size_t *len,
	      struct err *err)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	cr_assert_not_null(f);
	err_clear(err);
	cr_assert_eq(csv_write_tasks_threads(f, r, TIME_FORMAT_ISO, threads, err), want_rc,
		     "%u threads: %s", threads, err->msg);
	fclose(f);
	return out;
}

/* the same into a regular file, where each thread writes the chunks it formats at their
 * offsets (rowchunks.c), with a line after the rows as a sink writes its tail */
static char *
write_threads_file(const struct report *r, unsigned threads, int want_rc, size_t *len,
		   struct err *err)
{
	FILE *f = tmpfile();
	char *out;
	long end;

	cr_assert_not_null(f);
	err_clear(err);
	cr_assert_eq(csv_write_tasks_threads(f, r, TIME_FORMAT_ISO, threads, err), want_rc,
		     "%u threads, a file: %s", threads, err->msg);
	cr_assert_eq(fputs("tail\n", f) >= 0 && fflush(f) == 0, true);
	end = ftell(f);
	cr_assert_geq(end, 5);
	*len = (size_t)end - 5;
	out = xmalloc((size_t)end + 1);
	rewind(f);
	cr_assert_eq(fread(out, 1, (size_t)end, f), (size_t)end);
	cr_assert_eq(memcmp(out + *len, "tail\n", 5), 0, "%u threads: the tail after the rows",
		     threads);
	fclose(f);
	return out;
}

static void
expect_same_on_threads(size_t n, size_t huge)
{
	struct task_set s;
	struct report r;
	struct report_options o;
	struct err err, err1;
	size_t len1, len;
	int want = huge < n ? -1 : 0;
	char *one;

	many_set(&s, n, huge);
	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	one = write_threads(&r, 1, want, &len1, &err1);
	for (unsigned threads = 2; threads <= 3; threads++) {
		char *more = write_threads(&r, threads, want, &len, &err);

		cr_assert_eq(len, len1, "%zu tasks, %u threads: %zu bytes, one thread %zu", n,
			     threads, len, len1);
		cr_assert_eq(memcmp(more, one, len), 0, "%zu tasks, %u threads", n, threads);
		cr_expect_str_eq(err.msg, err1.msg);
		free(more);
		more = write_threads_file(&r, threads, want, &len, &err);
		cr_assert_eq(len, len1, "%zu tasks, %u threads, a file: %zu bytes, one thread %zu",
			     n, threads, len, len1);
		cr_assert_eq(memcmp(more, one, len), 0, "%zu tasks, %u threads, a file", n, threads);
		cr_expect_str_eq(err.msg, err1.msg);
		free(more);
	}
	if (huge < n) {
		size_t rows = 0;

		for (size_t i = 0; i < len1; i++)
			rows += one[i] == '\n';   /* each reason holds one newline */
		cr_expect_str_eq(err1.msg, "csv: a row is larger than 16777216 bytes");
		cr_expect_null(strstr(one, "yyyyyyyy"));
		cr_expect_eq(one[len1 - 1], '\n');
		cr_expect_gt(rows, 1);
	} else {
		/* and the same as the CSV the writer always wrote */
		char *as = NULL;
		size_t alen;
		FILE *f = open_memstream(&as, &alen);

		cr_assert_eq(csv_write_tasks(f, &r, &err), 0);
		fclose(f);
		cr_assert_eq(alen, len1);
		cr_assert_eq(memcmp(as, one, alen), 0);
		free(as);
	}
	free(one);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(csv, two_threads_write_the_same_bytes)
{
	/* short of four chunks (one thread), exactly four, and a part chunk at the end */
	expect_same_on_threads(10, SIZE_MAX);
	expect_same_on_threads(3 * 1024 + 1, SIZE_MAX);
	expect_same_on_threads(4 * 1024, SIZE_MAX);
	expect_same_on_threads(9 * 1024 + 77, SIZE_MAX);
}

Test(csv, two_threads_stop_at_the_same_row_too_large)
{
	/* rows are in createdAt order (created = i * 7919 % 100000): task 1's row is row
	 * 476 (chunk 0, the caller's), task 3's row 1426 (chunk 1, the second thread's) and
	 * task 5's 2376 (chunk 2, the caller's while the second thread has chunk 3 ready) */
	expect_same_on_threads(6000, 1);
	expect_same_on_threads(6000, 3);
	expect_same_on_threads(6000, 5);
}

/* the costs report_build keeps are the costs cost_startup_usd gives, for the set's tasks
 * and (computed then) for a task that is not one of them */
Test(csv, kept_costs_are_the_computed_ones)
{
	struct task_set s;
	struct report r;
	struct report_options o;
	struct err err;
	size_t priced = 0;

	cells_set(&s, NULL);
	memset(&o, 0, sizeof o);
	o.sort_col = -1;
	err_clear(&err);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	cr_assert_not_null(r.cost_usd);
	for (size_t i = 0; i < r.nrows; i++) {
		double want = cost_startup_usd(&r.prices, r.rows[i].task);
		double got = report_row_cost_usd(&r, &r.rows[i]);
		struct task copy = *r.rows[i].task;
		struct report_row other = { &copy, r.rows[i].group };

		cr_expect(memcmp(&got, &want, sizeof got) == 0 || (isnan(got) && isnan(want)),
			  "row %zu: %a, want %a", i, got, want);
		got = report_row_cost_usd(&r, &other);
		cr_expect(memcmp(&got, &want, sizeof got) == 0 || (isnan(got) && isnan(want)));
		priced += isfinite(want);
	}
	cr_expect_gt(priced, 0, "a Fargate start with a price");
	report_cleanup(&r);
	task_set_cleanup(&s);
}
