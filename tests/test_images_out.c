/* images_out: what reaches the terminal and JSON readers from ECR strings (issue 10
 * item 5): ESC, BEL, C1 and bidi controls in a tag, repository or layer command are '?'
 * in the table and \uXXXX in JSON (which decodes to the same string). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/images_out.h"
#include "ecsprof/xalloc.h"

#define EVIL "\x1b]0;pwned\x07\x1b[31m\xe2\x80\xae\xc2\x9b" "2J"

static bool
clean(const char *s)
{
	return strchr(s, 0x1b) == NULL && strchr(s, 0x07) == NULL &&
	       strstr(s, "\xe2\x80\xae") == NULL && strstr(s, "\xc2\x9b") == NULL;
}

static char *
write_with(int (*fn)(FILE *, const struct image_rows *, struct err *),
	   const struct image_rows *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct err e;

	cr_assert_not_null(f);
	cr_assert_eq(fn(f, r, &e), 0, "%s", e.msg);
	fclose(f);
	return text;
}

Test(images_out, escapes_in_ecr_strings)
{
	struct image_facts x;
	struct image_layer l = { 0 };
	struct image_row row = { 0 };
	struct image_rows r = { &row, 1 };
	json_error_t je;

	image_facts_init(&x);
	x.digest = xstrdup("sha256:0123456789abcdef0123456789abcdef");
	x.platform = xstrdup("linux/amd64");
	x.repository = xstrdup("web" EVIL);
	x.size_bytes = 1 << 20;
	l.size = 1 << 20;
	l.created_by = xstrdup("RUN echo " EVIL);
	x.layers = xcalloc(1, sizeof *x.layers);
	x.layers[0] = l;
	x.nlayers = 1;
	row.facts = &x;
	row.tag = "v1" EVIL;
	row.pull_p50_s = row.pull_p90_s = row.pull_mbps = NAN;
	row.top[0] = 0;
	row.ntop = 1;

	char *table = write_with(images_write_table, &r);
	cr_expect(clean(table), "table: %s", table);
	cr_expect(strstr(table, "v1?]0;pwne ") != NULL, "table: %s", table);
	cr_expect(strstr(table, "RUN echo ?]0;pwned") != NULL, "table: %s", table);
	free(table);

	char *csv = write_with(images_write_csv, &r);
	cr_expect(clean(csv), "csv: %s", csv);
	free(csv);

	char *js = write_with(images_write_json, &r);
	cr_expect(clean(js), "json: %s", js);
	cr_expect(strstr(js, "\\u202E") != NULL && strstr(js, "\\u009B") != NULL &&
		  strstr(js, "\\u001B") != NULL, "json: %s", js);
	json_t *root = json_loads(js, 0, &je);
	cr_assert_not_null(root, "json: %s: %s", je.text, js);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(root, 0), "tag")),
			 "v1" EVIL);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(root, 0),
							   "repository")), "web" EVIL);
	json_decref(root);
	free(js);
	image_facts_cleanup(&x);
}
