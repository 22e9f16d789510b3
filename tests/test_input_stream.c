/* Tests for input_stream.c: a whole document read element by element gives the very
 * tasks, warnings, counts and errors of the one-DOM reader (every shape, every fallback),
 * and a large one is read in memory bounded by the text and the tasks (issue 10 item 11). */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/xalloc.h"
#include "fixtures/task_text.h"

/* ---- one read, kept as text to compare ------------------------------------------------ */

struct result {
	int rc;
	struct err err;
	struct input_stats st;
	struct buf out;   /* the warnings, then one line per task */
};

static void
collect(void *ctx, const char *line)
{
	struct result *r = ctx;

	buf_addf(&r->out, "warn %s\n", line);
}

static void
add_str(struct buf *b, const char *name, const char *s)
{
	buf_addf(b, " %s=%s", name, s != NULL ? s : "(null)");
}

static void
add_task(struct buf *b, const struct task *t)
{
	buf_adds(b, "task");
	add_str(b, "arn", ARN_OF(t));
	add_str(b, "cluster", t->prof->cluster_arn);
	add_str(b, "taskdef", t->prof->taskdef_arn);
	add_str(b, "group", t->prof->group);
	add_str(b, "started_by", t->prof->started_by);
	add_str(b, "launch", t->prof->launch_type);
	add_str(b, "pv", t->prof->platform_version);
	add_str(b, "pf", t->prof->platform_family);
	add_str(b, "cp", t->prof->capacity_provider);
	add_str(b, "az", t->prof->availability_zone);
	add_str(b, "cpu", t->prof->cpu);
	add_str(b, "mem", t->prof->memory);
	add_str(b, "last", t->prof->last_status);
	add_str(b, "desired", t->prof->desired_status);
	add_str(b, "stop", t->prof->stop_code);
	add_str(b, "reason", t->prof->stopped_reason);
	add_str(b, "health", t->prof->health_status);
	add_str(b, "arch", t->prof->cpu_arch);
	add_str(b, "source", t->prof->source);
	buf_addf(b, " v=%d/%lld", t->has_version, (long long)t->version);
	for (int i = 0; i < TS_COUNT; i++)
		buf_addf(b, " ts%d=%lld", i, (long long)task_ts(t, i));
	buf_addf(b, " fetched=%lld awsvpc=%d ip=%d healthy=%d/%lld meta=%d",
	    (long long)task_ts(t, TS_FETCHED), (int)t->awsvpc, (int)t->public_ip, t->healthy_observed,
	    (long long)t->healthy_resolution_ms, t->from_metadata);
	for (size_t i = 0; i < t->ncontainers; i++) {
		const struct container *c = &t->containers[i];

		buf_addf(b, " [c%zu", i);
		add_str(b, "name", c->prof->name);
		add_str(b, "image", c->prof->image);
		add_str(b, "digest", DIGEST_OF(c));
		add_str(b, "last", c->prof->last_status);
		add_str(b, "reason", c->prof->reason);
		add_str(b, "snap", c->prof->snapshotter);
		add_str(b, "health", c->prof->health_status);
		buf_addf(b, " exit=%d/%d ess=%d]", c->has_exit_code, c->exit_code,
		    (int)c->essential);
	}
	for (size_t i = 0; i < t->prof->ntags; i++)
		buf_addf(b, " [tag %s=%s]", t->prof->tags[i].key, t->prof->tags[i].value);
	buf_addc(b, '\n');
}

/* stream_bytes 1: every document element by element, chunk_bytes 1: a batch merged after
 * each element; SIZE_MAX: never, the one-DOM reader */
static void
read_doc(const char *doc, size_t len, size_t stream_bytes, struct result *r)
{
	struct input_options o = { .warn = collect, .stream_bytes = stream_bytes,
		.chunk_bytes = 1 };
	struct task_set set;

	o.warn_ctx = r;
	memset(r, 0, sizeof *r);
	err_clear(&r->err);
	buf_init(&r->out, 0);
	task_set_init(&set);
	r->rc = input_read_mem_with("doc.json", doc, len, &o, &set, &r->st, &r->err);
	for (size_t i = 0; i < set.len; i++)
		add_task(&r->out, &set.tasks[i]);
	task_set_cleanup(&set);
}

static void
expect_same(const char *what, const char *doc, size_t len)
{
	struct result dom, stream;

	read_doc(doc, len, SIZE_MAX, &dom);
	read_doc(doc, len, 1, &stream);
	cr_expect_eq(stream.rc, dom.rc, "%s: rc %d, DOM %d (%s)", what, stream.rc, dom.rc,
	    stream.err.msg);
	cr_expect_str_eq(stream.err.msg, dom.err.msg, "%s: error", what);
	cr_expect_eq(stream.err.code, dom.err.code, "%s: error code", what);
	cr_expect(memcmp(&stream.st, &dom.st, sizeof dom.st) == 0, "%s: counts differ", what);
	cr_expect_str_eq(buf_str(&stream.out), buf_str(&dom.out), "%s", what);
	buf_cleanup(&dom.out);
	buf_cleanup(&stream.out);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b;
	char tmp[4096];
	size_t n;

	cr_assert(f != NULL, "%s", path);
	buf_init(&b, 0);
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	fclose(f);
	*len = b.len;
	return buf_take(&b);
}

Test(input_stream, fixtures_read_as_the_dom_reads_them)
{
	static const char *const names[] = { "describe_epoch.json", "describe_cli_iso.json",
		"bare_array.json", "event_array.json", "bad_only_task.json",
		"bad_tasks_not_array.json", "bad_timestamp.json", "bad_timestamp_hex_1969.json",
		"unknown_array.json", "two_vs_twelve_ties.json", "bad_json.json",
		"not_object.json", "metadata_task.json", "single_task.json",
		"unknown_shape.json", "event_single.json" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[512];
		size_t len;
		char *doc;

		snprintf(path, sizeof path, FIXTURE_DIR "/input/%s", names[i]);
		doc = slurp(path, &len);
		expect_same(names[i], doc, len);
		free(doc);
	}
}

#define T(id) "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/" id "\",\"version\":1,"
#define EV(id) "{\"detail-type\":\"ECS Task State Change\",\"detail\":" T(id) \
	"\"createdAt\":\"2024-05-01T10:00:00Z\"}}"

Test(input_stream, every_shape_and_fallback_as_the_dom)
{
	static const char *const docs[] = {
		/* DescribeTasks: plain, failures first, nulls, odd elements, a task skipped,
		 * a time dropped with a warning, escapes taskscan leaves to jansson */
		"{\"tasks\":[" T("a") "\"createdAt\":1714557600},"
		    T("b") "\"createdAt\":\"2024-05-01T10:00:00+02:00\"}],\"failures\":[]}",
		"{\"failures\":[{\"arn\":\"x\",\"reason\":\"MISSING\",\"detail\":\"d\"},7],"
		    "\"tasks\":[" T("a") "\"createdAt\":1}]}",
		"{\"tasks\":null,\"failures\":[{\"arn\":\"x\"}]}",
		"{\"tasks\":[" T("a") "\"createdAt\":1}],\"failures\":null}",
		"{\"tasks\":[1,\"two\",null,[]," T("a") "\"createdAt\":\"soon\"},"
		    "{\"version\":1}," T("c") "\"stoppedReason\":\"caf\\u00e9 \\ud83d\\ude00\","
		    "\"containers\":[{\"name\":\"w\\n\",\"image\":\"i\"}]}]}",
		"{\"tasks\":[],\"failures\":[]}",
		"{\"tasks\":[" T("a") "\"createdAt\":\"0x10\"}," T("b") "\"createdAt\":"
		    "\"1969-12-31T23:59:59Z\"}]}",
		/* left to the DOM reader: keys twice (here and inside a task), another member,
		 * \u0000, a lone surrogate, bad JSON, values after it, not an array */
		"{\"tasks\":[],\"tasks\":[" T("a") "\"createdAt\":1}]}",
		"{\"tasks\":[" T("a") "\"createdAt\":1,\"createdAt\":2}]}",
		"{\"tasks\":[" T("a") "\"createdAt\":1}],\"nextToken\":\"t\"}",
		"{\"tasks\":[" T("a") "\"stoppedReason\":\"a\\u0000b\"}]}",
		"{\"tasks\":[" T("a") "\"stoppedReason\":\"\\udc00\"}]}",
		"{\"tasks\":[" T("a") "\"createdAt\":1},]}",
		"{\"tasks\":[" T("a") "\"createdAt\":1}]}\n{\"tasks\":[" T("b") "\"version\":2}]}",
		"{\"tasks\":{\"a\":1}}",
		"{\"tasks\":[" T("a") "\"createdAt\":01}]}",
		"{\"tasks\":[" T("a") "\"createdAt\":1}]",
		/* bare arrays: tasks, events (and other events), recordings, metadata, unknowns */
		"[" T("a") "\"createdAt\":1}," EV("b") ",{\"detail-type\":\"ECS Service Action\","
		    "\"detail\":{}},{\"detail-type\":\"Other\",\"detail\":{}},{\"x\":1},5,"
		    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-01-02T03:04:05Z\",\"task\":"
		    T("c") "\"createdAt\":1}},{\"ecsprof\":\"record/1\",\"fetched_at\":\"soon\","
		    "\"task\":" T("d") "\"createdAt\":1}},{\"TaskARN\":\"arn:aws:ecs:r:1:task/c/e\","
		    "\"Containers\":[]}]",
		"[" T("a") "\"detail-type\":\"x\",\"detail\":{}}," T("b") "\"ecsprof\":1}]",
		"[" T("a") "\"createdAt\":1},{\"ecsprof\":\"record/9\",\"task\":{}}," T("b")
		    "\"createdAt\":1}]",
		"[" EV("a") "," EV("a") "]",
		"[1,2,{\"x\":1}]",
		"[{\"tasks\":[]}," T("a") "\"createdAt\":1}]",
		"[]",
		/* indented, as aws ecs describe-tasks prints it */
		"{\n  \"tasks\": [\n    {\n      \"taskArn\": \"arn:aws:ecs:r:1:task/c/a\",\n"
		    "      \"createdAt\": \"2024-05-01T10:00:00.000000+00:00\"\n    }\n  ],\n"
		    "  \"failures\": []\n}\n",
	};

	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		size_t n = strlen(docs[i]);
		char what[40], *d = xmalloc(n + 2), *lines;

		/* on one line: a JSON Lines line that is a document, alone and between others
		 * (warnings then name the line) */
		snprintf(what, sizeof what, "line docs[%zu]", i);
		expect_same(what, docs[i], n);
		lines = xasprintf(T("x") "\"createdAt\":1}\n\n%s\n" EV("y") "\n", docs[i]);
		snprintf(what, sizeof what, "lines docs[%zu]", i);
		expect_same(what, lines, strlen(lines));
		free(lines);

		/* a line break after the first byte: a document, not a JSON Lines line */
		d[0] = docs[i][0];
		d[1] = '\n';
		memcpy(d + 2, docs[i] + 1, n - 1);
		snprintf(what, sizeof what, "docs[%zu]", i);
		expect_same(what, d, n + 1);
		free(d);
	}
}

/* ---- memory ---------------------------------------------------------------------------- */

#if defined(__SANITIZE_ADDRESS__)
#define NO_RLIMIT_AS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define NO_RLIMIT_AS 1
#endif
#endif

#ifndef NO_RLIMIT_AS
static size_t
vm_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	cr_assert(f != NULL);
	cr_assert_eq(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}
#endif

/* issue 10 item 11: a 40 MB DescribeTasks answer (120,000 tasks, indented one task a line)
 * read under an address-space limit of 5x the text beyond what the process has: the
 * whole-document DOM (about 8x the text) could not be built ('out of memory parsing the
 * JSON'), element by element it is the text and the tasks */
static void large_document(bool one_line);

Test(input_stream, large_document_in_bounded_memory)
{
	large_document(false);
}

/* the same on one line (jq -c's), under 64 MiB: a JSON Lines line, checked without a DOM
 * (it was parsed twice: to tell a line from a document, then as the line) */
Test(input_stream, large_one_line_document_in_bounded_memory)
{
	large_document(true);
}

static void
large_document(bool one_line)
{
#ifdef NO_RLIMIT_AS
	(void)one_line;
	cr_skip_test("address-space limits and sanitizers' shadow memory do not mix");
#else
	enum { N = 120000 };
	char path[] = "/tmp/ecsprof-test-stream-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	size_t len;
	struct rlimit rl;
	struct task_set set;
	struct input_stats st = { 0 };
	struct err err;
	struct input_options o = { 0 };
	int rc;

	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	cr_assert(f != NULL);
	fputs(one_line ? "{\"tasks\":[" : "{\n\"tasks\": [\n", f);
	for (int i = 0; i < N; i++)
		fprintf(f, "%s{\"taskArn\":\"arn:aws:ecs:us-east-1:111122223333:task/prod/"
		    "%032x\",\"group\":\"service:web\",\"lastStatus\":\"RUNNING\",\"createdAt\":"
		    "\"2024-05-01T10:00:00.%03dZ\",\"pullStartedAt\":\"2024-05-01T10:00:10.000Z\","
		    "\"pullStoppedAt\":\"2024-05-01T10:00:40.000Z\",\"startedAt\":"
		    "\"2024-05-01T10:00:41.000Z\",\"version\":3}%s", i ? "," : "", i, i % 1000,
		    one_line ? "" : "\n");
	fputs(one_line ? "],\"failures\":[]}\n" : "],\n\"failures\": []\n}\n", f);
	len = (size_t)ftell(f);
	cr_assert_eq(fclose(f), 0);
	task_set_init(&set);
	err_clear(&err);
	cr_assert_eq(getrlimit(RLIMIT_AS, &rl), 0);
	rl.rlim_cur = vm_bytes() + 5 * len;
	cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
	rc = input_read_file_with(path, &o, &set, &st, &err);
	unlink(path);
	cr_assert_eq(rc, 0, "%s (%zu bytes of text)", err.msg, len);
	cr_expect_eq(set.len, N);
	cr_expect_eq(st.tasks, N);
	task_set_cleanup(&set);
#endif
}

/* ---- a document read as it comes (input_docstream.c, issue 31) ------------------------ */

/* text written to a file and read from it with chunk and probe bytes (reads of `chunk`
 * bytes, a document read as it comes once its first `chunk` bytes end no line) */
static void
read_file_as(const char *text, size_t len, size_t chunk, struct result *r,
    struct task_set *keep)
{
	char path[64];
	int fd;
	struct input_options o = { .warn = collect, .chunk_bytes = chunk, .stream_bytes = chunk,
		.threads = 1 };
	struct task_set set;

	/* one name for every read of a test: it is each task's source */
	snprintf(path, sizeof path, "/tmp/ecsprof-test-docstream-%ld", (long)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	o.warn_ctx = r;
	memset(r, 0, sizeof *r);
	err_clear(&r->err);
	buf_init(&r->out, 0);
	task_set_init(&set);
	r->rc = input_read_file_with(path, &o, &set, &r->st, &r->err);
	unlink(path);
	for (size_t i = 0; i < set.len; i++)
		add_task(&r->out, &set.tasks[i]);
	if (keep != NULL)
		*keep = set;
	else
		task_set_cleanup(&set);
}

/* tasks whose strings hold escapes, quotes and brackets, a \u escape (jansson's), one
 * nested deeper than a plain task: the elements' ends are found in every chunk size */
static const char *const tasks_json[] = {
	"{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/0a\",\"group\":\"service:web\","
	"\"lastStatus\":\"RUNNING\",\"createdAt\":\"2024-05-01T10:00:00.000Z\",\"pullStartedAt\":"
	"\"2024-05-01T10:00:10.000Z\",\"pullStoppedAt\":\"2024-05-01T10:00:40.000Z\",\"startedAt\":"
	"\"2024-05-01T10:00:41.000Z\",\"version\":3}",
	"{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/0b\",\"group\":\"service:a]b}c\\\"d\\\\\","
	"\"stoppedReason\":\"x\\\\\\\"],[{\",\"createdAt\":\"2024-05-01T10:00:01.000Z\","
	"\"containers\":[{\"name\":\"app\",\"image\":\"nginx\",\"lastStatus\":\"RUNNING\"}]}",
	"{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/0c\",\"group\":\"service:\\u00e9t\\u00e9\","
	"\"createdAt\":1714557602.5,\"overrides\":{\"a\":[[[{\"b\":[1,2,{\"c\":null}]}]]]}}",
	"{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/0d\",\"createdAt\":\"2024-05-01T10:00:03Z\","
	"\"tags\":[{\"key\":\"k\",\"value\":\"v, ] }\"}],\"version\":1}",
};
#define NTASKS (sizeof tasks_json / sizeof *tasks_json)

/* the tasks as a document (sep between elements, pre before, post after) or JSON Lines */
static char *
doc_of(const char *pre, const char *sep, const char *post, size_t upto)
{
	struct buf b;

	buf_init(&b, 0);
	buf_adds(&b, pre);
	for (size_t i = 0; i < upto; i++) {
		if (i > 0)
			buf_adds(&b, sep);
		buf_adds(&b, tasks_json[i]);
	}
	buf_adds(&b, post);
	return buf_take(&b);
}

static void
expect_as_lines(const char *what, const char *doc)
{
	char *lines = doc_of("", "\n", "\n", NTASKS);
	struct result l, d;
	static const size_t chunks[] = { 1, 2, 3, 7, 64, 1000 };

	read_file_as(lines, strlen(lines), 0, &l, NULL);
	cr_assert_eq(l.rc, 0, "JSON Lines: %s", l.err.msg);
	cr_assert_eq(l.st.tasks, NTASKS);
	for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
		read_file_as(doc, strlen(doc), chunks[i], &d, NULL);
		cr_expect_eq(d.rc, 0, "%s, chunk %zu: %s", what, chunks[i], d.err.msg);
		cr_expect_str_eq(buf_str(&d.out), buf_str(&l.out), "%s, chunk %zu", what, chunks[i]);
		cr_expect_eq(d.st.tasks, NTASKS, "%s, chunk %zu", what, chunks[i]);
		buf_cleanup(&d.out);
	}
	buf_cleanup(&l.out);
	free(lines);
}

Test(input_docstream, one_line_document_as_json_lines)
{
	char *doc = doc_of("{\"tasks\":[", ",", "],\"failures\":[]}\n", NTASKS);

	expect_as_lines("DescribeTasks answer", doc);
	free(doc);
	doc = doc_of("[", ",", "]", NTASKS);
	expect_as_lines("array, no newline", doc);
	free(doc);
}

Test(input_docstream, white_space_and_newlines_inside)
{
	char *doc = doc_of("{ \"tasks\" :\n [\n  ", " ,\n\n  ", "\n ]\r\n , \"failures\": null\n}\n\n",
	    NTASKS);

	expect_as_lines("indented", doc);
	free(doc);
	doc = doc_of("\t[ ", "\t,\t", " ]  \n", NTASKS);
	expect_as_lines("tabs", doc);
	free(doc);
}

/* blank lines before a one-line document: still the document's line in warnings */
Test(input_docstream, blank_lines_before_a_one_line_document)
{
	char *doc = doc_of("\n  \n\r\n{\"tasks\":[", ",", ",42],\"failures\":[{\"arn\":\"x\","
	    "\"reason\":\"MISSING\"}]}\n\n", NTASKS);

	for (size_t chunk = 1; chunk <= 9; chunk += 4) {
		struct result r;

		read_file_as(doc, strlen(doc), chunk, &r, NULL);
		cr_expect_eq(r.rc, 0, "chunk %zu: %s", chunk, r.err.msg);
		cr_expect_eq(r.st.tasks, NTASKS);
		cr_expect_eq(r.st.failures, 1);
		cr_expect(strstr(buf_str(&r.out), "warn doc") == NULL);
		cr_expect(strstr(buf_str(&r.out), ":4: skipped tasks[4]: expected a task object, "
		    "got the number 42\nwarn ") != NULL, "chunk %zu: %s", chunk, buf_str(&r.out));
		cr_expect(strstr(buf_str(&r.out), ":4: DescribeTasks failure: \"x\": \"MISSING\"\n")
		    != NULL, "%s", buf_str(&r.out));
		buf_cleanup(&r.out);
	}
	free(doc);
}

/* a document cut short: one line naming the byte, the tasks before it kept */
Test(input_docstream, truncated_document)
{
	char *doc = doc_of("{\"tasks\":[", ",", "],\"failures\":[]}", NTASKS);
	size_t cut = strstr(doc, "task/c/0c") - doc;
	struct task_set set;
	struct result r;
	char want[120];

	read_file_as(doc, cut, 7, &r, &set);
	cr_expect_eq(r.rc, -1);
	snprintf(want, sizeof want, ": truncated JSON: the input ends at byte %zu, inside "
	    "tasks[2] (from byte ", cut);
	cr_expect(strstr(r.err.msg, want) != NULL, "%s", r.err.msg);
	cr_expect(strstr(r.err.msg, "the tasks before it are kept") != NULL);
	cr_expect(strchr(r.err.msg, '\n') == NULL);
	cr_expect_eq(set.len, 2, "%zu tasks kept", set.len);
	task_set_cleanup(&set);
	buf_cleanup(&r.out);
	/* cut between elements, and inside the answer after its tasks */
	read_file_as(doc, strstr(doc, ",{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/0d") - doc,
	    3, &r, NULL);
	cr_expect(strstr(r.err.msg, "truncated JSON") != NULL, "%s", r.err.msg);
	cr_expect_eq(r.st.tasks, 3);
	buf_cleanup(&r.out);
	read_file_as(doc, strlen(doc) - 2, 5, &r, NULL);
	cr_expect(strstr(r.err.msg, "truncated JSON: the input ends at byte") != NULL, "%s",
	    r.err.msg);
	cr_expect_eq(r.st.tasks, NTASKS);
	buf_cleanup(&r.out);
	free(doc);
}

Test(input_docstream, malformed_document_named_by_byte)
{
	/* 64 spaces after the first '[' or ':': a document long enough to be read as it
	 * comes (its first 64 bytes tell its shape); bytes counted from 0, the one named is
	 * the first that is wrong */
#define SP64 "                                                                "
	static const struct { const char *doc, *want; } cases[] = {
		{ "{\"tasks\":[" SP64 "{\"taskArn\":\"a\",\"createdAt\":1} {\"taskArn\":\"b\"}]}",
		  "malformed JSON at byte 104: ',' or ']' expected after tasks[0]" },
		{ "{\"tasks\":[" SP64 "{\"taskArn\":\"a\",\"createdAt\":1},{\"taskArn\":\"b\",]}",
		  "malformed JSON at byte 119 (tasks[1]): " },
		{ "[" SP64 "{\"taskArn\":\"a\",\"createdAt\":1},,{}]", "malformed JSON at byte 95: a "
		  "value expected in [1]" },
		{ "{\"tasks\":" SP64 "\"no\"}", "\"tasks\": expected an array of tasks, got " },
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct result r;

		read_file_as(cases[i].doc, strlen(cases[i].doc), 4, &r, NULL);
		cr_expect_eq(r.rc, -1, "%s", cases[i].doc);
		cr_expect(strstr(r.err.msg, cases[i].want) != NULL, "%s: %s", cases[i].doc,
		    r.err.msg);
		buf_cleanup(&r.out);
	}
}

/* A 64 MiB one-line answer whose tasks are small beside their text (each carries 3 KiB
 * the reader passes over) read under an address-space limit of half the text beyond what
 * the process has: it was held whole (up to 1 GiB) before it was read (issue 31) */
Test(input_docstream, one_line_document_in_less_memory_than_its_text)
{
#ifdef NO_RLIMIT_AS
	cr_skip_test("address-space limits and sanitizers' shadow memory do not mix");
#else
	enum { N = 20000 };
	char path[] = "/tmp/ecsprof-test-docstream-XXXXXX";
	char pad[3073];
	int fd = mkstemp(path);
	FILE *f;
	size_t len;
	struct rlimit rl;
	struct task_set set;
	struct input_stats st = { 0 };
	struct err err;
	struct input_options o = { .threads = 1 };
	int rc;

	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	cr_assert(f != NULL);
	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = '\0';
	fputs("{\"tasks\":[", f);
	for (int i = 0; i < N; i++)
		fprintf(f, "%s{\"taskArn\":\"arn:aws:ecs:us-east-1:111122223333:task/prod/%032x\","
		    "\"overrides\":{\"note\":\"%s\"},\"createdAt\":\"2024-05-01T10:00:00.%03dZ\","
		    "\"startedAt\":\"2024-05-01T10:00:41.000Z\",\"version\":3}", i ? "," : "", i,
		    pad, i % 1000);
	fputs("],\"failures\":[]}\n", f);
	len = (size_t)ftell(f);
	cr_assert_eq(fclose(f), 0);
	task_set_init(&set);
	err_clear(&err);
	cr_assert_eq(getrlimit(RLIMIT_AS, &rl), 0);
	rl.rlim_cur = vm_bytes() + len / 2;
	cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
	rc = input_read_file_with(path, &o, &set, &st, &err);
	unlink(path);
	cr_assert_eq(rc, 0, "%s (%zu bytes of text)", err.msg, len);
	cr_expect_eq(set.len, N);
	task_set_cleanup(&set);
#endif
}

/* an indented document's warnings name the element's line, as JSON Lines' do */
Test(input_docstream, indented_warnings_name_the_line)
{
	char *doc = doc_of("{\n \"tasks\": [\n  ", ",\n  ", ",\n  42\n ]\n}\n", 2);
	struct result r;

	for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
		read_file_as(doc, strlen(doc), chunk, &r, NULL);
		cr_expect_eq(r.rc, 0, "%s", r.err.msg);
		cr_expect(strstr(buf_str(&r.out), ":5: skipped tasks[2]: expected a task object")
		    != NULL, "chunk %zu: %s", chunk, buf_str(&r.out));
		buf_cleanup(&r.out);
	}
	free(doc);
}
