/* fuzz_scaleout: libFuzzer entry point for the reader of a scale-out's source documents
 * (input_scaleout.c) and everything downstream of it: the story built from what was read,
 * every cell of its row table and the table writer. Beyond "no crash, no leak": an error
 * is one line that names the input, and reading the same bytes twice keeps one of each
 * item (documents merge by identity). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input_scaleout.h"
#include "ecsprof/scaleout_out.h"
#include "ecsprof/scaleout_story.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_story(const struct so_sources *src)
{
	struct task_set set;
	struct so_story st;
	struct row_table t;
	char scratch[512];
	FILE *null = fopen("/dev/null", "w");
	struct err e = { 0 };

	task_set_init(&set);
	so_story_build(src, &set, TS_NONE, &st);
	so_story_table(&st, &t);
	for (size_t r = 0; r < t.nrows; r++)
		for (size_t c = 0; c < t.ncols; c++) {
			struct cell_value v;

			memset(&v, 0, sizeof v);
			t.cell(t.ctx, r, c, &v, scratch, sizeof scratch);
			if (v.present && t.cols[c].kind == CELL_TEXT && v.text == NULL)
				abort();
		}
	if (null != NULL) {
		struct scaleout_out o = { &st, 80 };

		if (scaleout_out_table(null, &o, &e) != 0)
			abort();
		fclose(null);
	}
	so_story_cleanup(&st);
	task_set_cleanup(&set);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct so_sources s;
	struct err e = { 0 };
	size_t docs = 0, n[3];
	int rc;

	so_sources_init(&s);
	rc = input_scaleout_read_mem(NULL, "fuzz", (const char *)data, size, &s, &docs, &e);
	if (rc != 0 && (strncmp(e.msg, "fuzz", 4) != 0 || strchr(e.msg, '\n') != NULL))
		abort();   /* one line, naming the input */
	if (rc == 0) {
		n[0] = s.nactivities;
		n[1] = s.nalarms;
		n[2] = s.ntarget_groups;
		if (input_scaleout_read_mem(NULL, "fuzz", (const char *)data, size, &s, NULL, &e) != 0 ||
		    s.nactivities != n[0] || s.nalarms != n[1] || s.ntarget_groups != n[2])
			abort();   /* the same documents again: the same items */
	}
	check_story(&s);
	so_sources_cleanup(&s);
	return 0;
}
