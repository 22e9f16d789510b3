/* fuzz_input: libFuzzer entry point for the input parser (every shape, both the
 * single-threaded and the threaded JSON Lines path) and for recording lines. Beyond "no
 * crash, no leak", it checks that every task in the set was counted, and that a task that
 * record_line_new() records reads back as exactly one task. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
quiet(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct task_set set;
	struct input_stats st;
	struct err err;
	char *line;
	bool task_ok;
	struct input_options o = { .warn = quiet, .threads = 1 };

	/* the first byte picks the reader: one thread, or three with tiny chunks */
	if (size > 0 && (data[0] & 1)) {
		o.threads = 3;
		o.chunk_bytes = 1 + data[0] % 64;
	}
	task_set_init(&set);
	memset(&st, 0, sizeof st);
	err_clear(&err);
	(void)input_read_mem_with("fuzz", s, size, &o, &set, &st, &err);
	if (st.tasks < set.len)
		abort();
	task_set_cleanup(&set);

	err_clear(&err);
	task_set_init(&set);
	task_ok = input_parse_task_json(s, size, "live", 1000, &set, &err) == 0;
	task_set_cleanup(&set);

	err_clear(&err);
	line = record_line_new(s, size, "us-east-1", "c", 1714557600000LL, &err);
	if (line != NULL) {
		task_set_init(&set);
		memset(&st, 0, sizeof st);
		/* recorded raw even when a field is odd; what parses as a task must read back */
		if (input_read_mem_with("rec", line, strlen(line), &o, &set, &st, &err) != 0 &&
		    task_ok)
			abort();
		if (task_ok && (set.len != 1 || st.records != 1))
			abort();
		task_set_cleanup(&set);
		free(line);
	}
	return 0;
}
