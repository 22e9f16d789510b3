/* fuzz_input: libFuzzer entry point for the input parser (every shape, both the
 * single-threaded and the threaded JSON Lines path) and for recording lines. Beyond "no
 * crash, no leak", it checks that every task in the set was counted, and that a task that
 * record_line_new() records reads back as exactly one task, that every document reads
 * the same element by element (input_stream.c) as with one DOM, and reads as a file's
 * bytes a chunk at a time (input_docstream.c) without a crash. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/record.h"
#include "../fixtures/task_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
quiet(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

/* FNV-1a over what a read gave: its warnings (in order) and its tasks */
static void
fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ULL;
}

static void
fnv_str(uint64_t *h, const char *s)
{
	fnv(h, s != NULL ? s : "\1", s != NULL ? strlen(s) + 1 : 1);
}

static void
hash_warning(void *ctx, const char *line)
{
	fnv_str(ctx, line);
}

/* One read with stream_bytes (1: every document element by element; SIZE_MAX: as one
 * DOM): a hash of its result, error, counts, warnings and tasks. */
static uint64_t
read_hash(const char *s, size_t size, struct input_options o, size_t stream_bytes)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct task_set set;
	struct input_stats st;
	struct err err;
	int rc;

	o.warn = hash_warning;
	o.warn_ctx = &h;
	o.stream_bytes = stream_bytes;
	task_set_init(&set);
	memset(&st, 0, sizeof st);
	err_clear(&err);
	rc = input_read_mem_with("fuzz", s, size, &o, &set, &st, &err);
	fnv(&h, &rc, sizeof rc);
	fnv_str(&h, err.msg);
	fnv(&h, &st, sizeof st);
	for (size_t i = 0; i < set.len; i++) {
		const struct task *t = &set.tasks[i];

		fnv_str(&h, ARN_OF(t));
		fnv_str(&h, t->prof->last_status);
		fnv_str(&h, t->prof->stopped_reason);
		fnv_str(&h, t->prof->group);
		fnv(&h, &t->version, sizeof t->version);
		for (int f = 0; f < TS_SLOTS; f++) {
			int64_t ms = task_ts(t, f);

			fnv(&h, &ms, sizeof ms);
		}
		fnv(&h, &t->ncontainers, sizeof t->ncontainers);
	}
	task_set_cleanup(&set);
	return h;
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
	/* a document read element by element gives what the one-DOM reader gives */
	if (read_hash(s, size, o, 1) != read_hash(s, size, o, SIZE_MAX))
		abort();
	/* read as a file is, a few bytes at a time (a document as it comes, issue 31's
	 * input_docstream.c): every task counted, any error said */
	{
		struct input_options f = o;

		f.mem_as_file = true;
		f.threads = 1;
		f.chunk_bytes = 1 + (size > 1 ? data[1] % 96 : 0);
		f.stream_bytes = f.chunk_bytes;
		task_set_init(&set);
		memset(&st, 0, sizeof st);
		err_clear(&err);
		if (input_read_mem_with("fuzz", s, size, &f, &set, &st, &err) != 0 &&
		    err.msg[0] == '\0')
			abort();
		if (st.tasks < set.len)
			abort();
		task_set_cleanup(&set);
	}

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
