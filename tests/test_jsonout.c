/* jsonout: the --format json document and the JSON Lines task line, against hand-checked
 * golden files, plus properties a consumer relies on (it parses, null for missing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "../src/out/jsontask.h"
#include "ecsprof/jsonout.h"
#include "fixtures/output/fixture_tasks.h"
#include "fixtures/output/golden.h"

typedef int writer_fn(FILE *, const struct report *, struct err *);

static char *
capture(writer_fn *w, size_t *len)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	FILE *f;

	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "report_build: %s", err.msg);
	f = open_memstream(&out, len);
	cr_assert_not_null(f);
	cr_assert_eq(w(f, &r, &err), 0, "writer failed: %s", err.msg);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
	return out;
}

static json_t *
parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	cr_assert_not_null(j, "not JSON: %d:%d: %s", e.line, e.column, e.text);
	return j;
}

Test(jsonout, tasks_golden)
{
	size_t len;
	char *out = capture(jsonout_write_tasks, &len);

	fx_expect_golden(out, len, "tasks.json");
	free(out);
}

Test(jsonout, summary_golden)
{
	size_t len;
	char *out = capture(jsonout_write_summary, &len);

	fx_expect_golden(out, len, "summary.json");
	free(out);
}

/* what a jq user relies on, independent of the golden's bytes */
Test(jsonout, document_shape)
{
	size_t len;
	char *out = capture(jsonout_write_tasks, &len);
	json_t *doc = parse(out), *tasks = json_object_get(doc, "tasks");

	cr_assert(json_is_array(tasks));
	cr_assert_eq(json_array_size(tasks), FX_NTASKS);
	for (size_t i = 0; i < json_array_size(tasks); i++) {
		json_t *t = json_array_get(tasks, i);

		for (int c = 0; c < COL_COUNT; c++) {
			json_t *v = json_object_get(t, report_columns[c].name);

			cr_assert_not_null(v, "task %zu lacks %s", i, report_columns[c].name);
			if (report_columns[c].kind == COL_DURATION ||
			    report_columns[c].kind == COL_NUMBER)
				cr_expect(json_is_null(v) || (json_is_number(v) &&
							      json_number_value(v) >= 0));
			else
				cr_expect(json_is_null(v) || json_is_string(v));
			/* missing is null, never the empty string */
			cr_expect(!json_is_string(v) || json_string_length(v) > 0);
		}
		cr_expect(json_is_object(json_object_get(t, "phases")));
		cr_expect(json_is_array(json_object_get(t, "containers")));
		cr_expect(json_is_object(json_object_get(t, "tags")));
	}
	cr_expect(json_is_array(json_object_get(doc, "groups")));
	cr_expect_str_eq(json_string_value(json_object_get(doc, "baseline")), "web:7");
	json_decref(doc);
	free(out);
}

/* the skewed task: provision would be -0.5 s, so it is null, and pull stays 3.5 */
Test(jsonout, clock_skew_is_null_not_negative)
{
	size_t len;
	char *out = capture(jsonout_write_tasks, &len);
	json_t *doc = parse(out), *tasks = json_object_get(doc, "tasks"), *skew = NULL;

	for (size_t i = 0; i < json_array_size(tasks); i++) {
		json_t *t = json_array_get(tasks, i);

		if (strcmp(json_string_value(json_object_get(t, "task_id")),
			   "b1c2d3e4f5a60718293a4b5c6d7e8f90") == 0)
			skew = t;
	}
	cr_assert_not_null(skew);
	cr_expect(json_is_null(json_object_get(skew, "provision_s")));
	cr_expect(json_is_null(json_object_get(json_object_get(skew, "phases"), "provision")));
	cr_expect_float_eq(json_number_value(json_object_get(skew, "pull_s")), 3.5, 1e-9);
	json_decref(doc);
	free(out);
}

Test(jsonout, task_line_is_one_line_of_json)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;

	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	for (size_t i = 0; i < r.nrows; i++)
		cr_assert_eq(jsonout_write_task_line(f, &r, &r.rows[i]), 0);
	fclose(f);
	fx_expect_golden(out, len, "tasks.jsonl");
	/* one task per line: the newline in t7's image is escaped, not literal */
	size_t lines = 0;

	for (char *p = out, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		*nl = '\0';
		json_decref(parse(p));
		lines++;
	}
	cr_expect_eq(lines, FX_NTASKS);
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(jsonout, write_error_is_reported)
{
	struct task_set s;
	struct report r;
	struct err err;
	FILE *f = fopen("/dev/full", "w");

	cr_assert_not_null(f, "/dev/full is needed for this test");
	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	cr_expect_eq(jsonout_write_tasks(f, &r, &err), -1);
	cr_expect_eq(err.code, ERR_IO);
	fclose(f);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

Test(jsonout, no_tasks_is_still_a_document)
{
	struct task_set s;
	struct report r;
	struct err err;
	char *out = NULL;
	size_t len;
	FILE *f;
	json_t *doc;

	err_clear(&err);
	task_set_init(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(jsonout_write_tasks(f, &r, &err), 0);
	fclose(f);
	doc = parse(out);
	cr_expect_eq(json_array_size(json_object_get(doc, "tasks")), 0);
	cr_expect(json_is_array(json_object_get(doc, "groups")));
	cr_expect(json_is_null(json_object_get(doc, "baseline")));
	json_decref(doc);
	free(out);
	report_cleanup(&r);
	task_set_cleanup(&s);
}

/* jsontask writes a line at a pointer after reserving its worst case (6 bytes a byte);
 * where that cannot be had (a buf capped at the line's own length), its checked writes
 * (columns_checked, container_checked, a tag at a time): the same bytes, each task */
Test(jsonout, task_line_same_without_room_to_reserve)
{
	struct task_set s;
	struct report r;
	struct err err;
	void *scratch = jsontask_scratch_new();

	err_clear(&err);
	fx_build_set(&s);
	cr_assert_eq(fx_build_report(&r, &s, "taskdef", &err), 0, "%s", err.msg);
	cr_assert_gt(r.nrows, 0);
	for (size_t i = 0; i < r.nrows; i++) {
		struct buf roomy, tight;

		buf_init(&roomy, BUF_MAX_DEFAULT);
		cr_assert_eq(jsontask_write(&roomy, &r, &r.rows[i], scratch), 0);
		buf_init(&tight, roomy.len);
		cr_assert_eq(jsontask_write(&tight, &r, &r.rows[i], scratch), 0,
			     "row %zu: refused under a cap that fits it", i);
		cr_expect_str_eq(buf_str(&tight), buf_str(&roomy), "row %zu", i);
		/* and one byte less is refused, not cut */
		buf_cleanup(&tight);
		buf_init(&tight, roomy.len - 1);
		cr_expect_neq(jsontask_write(&tight, &r, &r.rows[i], scratch), 0, "row %zu", i);
		buf_cleanup(&tight);
		buf_cleanup(&roomy);
	}
	jsontask_scratch_free(scratch);
	report_cleanup(&r);
	task_set_cleanup(&s);
}
