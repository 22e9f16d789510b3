/* Tests for input.c: every input shape from tests/fixtures/input, every class of bad
 * input, and the threaded JSON Lines path against the single-threaded one. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <jansson.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ecsprof/buf.h"
#include "ecsprof/image.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/xalloc.h"
#include "../src/in/input_gzip.h"
#include "fixtures/task_text.h"

#define FX(name) FIXTURE_DIR "/input/" name

static char *warnings[128];
static size_t nwarnings;

static void
collect(void *ctx, const char *line)
{
	(void)ctx;
	if (nwarnings < sizeof warnings / sizeof warnings[0])
		warnings[nwarnings++] = xstrdup(line);
}

/* log.c's warnings (input_parse_task_json has no sink of its own) into the same list */
static void
log_collect(enum log_level level, const char *line, void *ctx)
{
	if (level == LOG_WARN)
		collect(ctx, line);
}

static struct task_set set;
static struct input_stats st;
static struct err err;
static struct input_options opts;   /* per call: warnings to collect(), tuning per test */
static struct log lg;               /* log.c's warnings to log_collect() */
static struct input_options to_log; /* no warn function: the warnings go to lg */

static void
setup(void)
{
	task_set_init(&set);
	memset(&st, 0, sizeof st);
	err_clear(&err);
	nwarnings = 0;
	opts = (struct input_options){ .warn = collect };
	log_init(&lg, 0, log_collect, NULL);
	to_log = (struct input_options){ .log = &lg };
}

static void
teardown(void)
{
	task_set_cleanup(&set);
	for (size_t i = 0; i < nwarnings; i++)
		free(warnings[i]);
	log_cleanup(&lg);
}

static struct task *
find_id(const char *id)
{
	for (size_t i = 0; i < set.len; i++)
		if (strcmp(task_id(&set.tasks[i]), id) == 0)
			return &set.tasks[i];
	cr_assert_fail("task %s not found", id);
	return NULL;
}

/* the index of the first warning containing all of a, b (NULL = any), or -1 */
static int
warning_with(const char *a, const char *b)
{
	for (size_t i = 0; i < nwarnings; i++)
		if (strstr(warnings[i], a) && (b == NULL || strstr(warnings[i], b)))
			return (int)i;
	return -1;
}

static int
read_fx(const char *path)
{
	return input_read_file_with(path, &opts, &set, &st, &err);
}

TestSuite(input, .init = setup, .fini = teardown);

Test(input, describe_response_epoch_numbers)
{
	cr_assert_eq(read_fx(FX("describe_epoch.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 2);
	struct task *t = find_id("0a1b2c3d4e5f40718293a4b5c6d7e8f9");
	/* fraction, exponent with fraction, exponent, integer, half second */
	cr_expect_eq(task_ts(t, TS_CREATED), 1557134011644LL);
	cr_expect_eq(task_ts(t, TS_CONNECTIVITY), 1557134017000LL);
	cr_expect_eq(task_ts(t, TS_PULL_STARTED), 1557134021644LL);
	cr_expect_eq(task_ts(t, TS_PULL_STOPPED), 1557134049000LL);
	cr_expect_eq(task_ts(t, TS_STARTED), 1557134052500LL);
	cr_expect_eq(task_ts(t, TS_STOPPED), TS_NONE);
	cr_expect(t->has_version);
	cr_expect_eq(t->version, 4);
	cr_expect_str_eq(t->prof->service, "web");
	cr_expect_str_eq(t->prof->taskdef, "web:7");
	cr_expect_str_eq(t->prof->cluster, "prod");
	cr_expect_str_eq(t->prof->cpu, "512");
	cr_expect_str_eq(t->prof->platform_version, "1.4.0");
	cr_expect_str_eq(t->prof->source, FX("describe_epoch.json"));
	cr_expect_eq(task_ts(t, TS_FETCHED), TS_NONE);
	cr_assert_eq(t->ncontainers, 2);
	cr_expect_str_eq(DIGEST_OF(&t->containers[0]),
	    "sha256:1111111111111111111111111111111111111111111111111111111111111111");
	cr_expect_not(t->containers[0].has_exit_code);
	cr_expect(t->containers[1].has_exit_code);
	cr_expect_eq(t->containers[1].exit_code, 0);
	cr_expect_str_eq(task_tag(t, "team"), "payments");

	struct task *f = find_id("ffff2c3d4e5f40718293a4b5c6d7e8f9");
	cr_expect_eq(task_ts(f, TS_STOPPING), 1557134190001LL);
	cr_expect_eq(task_ts(f, TS_STOPPED), 1557134200999LL);
	cr_expect_eq(task_ts(f, TS_EXECUTION_STOPPED), TS_NONE); /* null */
	cr_expect_eq(task_ts(f, TS_STARTED), TS_NONE);
	cr_expect_str_eq(f->prof->stop_code, "TaskFailedToStart");
	cr_expect_str_eq(f->containers[0].prof->reason, "CannotPullContainerError: ref pull has been retried");

	cr_expect_eq(st.tasks, 2);
	cr_expect_eq(st.failures, 1);
	cr_expect_eq(st.skipped, 0);
	cr_assert_eq(nwarnings, 1);
	cr_expect(strstr(warnings[0], "describe_epoch.json: DescribeTasks failure:") != NULL,
	    "%s", warnings[0]);
	cr_expect(strstr(warnings[0], "deadbeefdeadbeefdeadbeefdeadbeef") != NULL);
	cr_expect(strstr(warnings[0], "MISSING") != NULL);
}

Test(input, describe_response_cli_iso_offsets)
{
	cr_assert_eq(read_fx(FX("describe_cli_iso.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	struct task *t = &set.tasks[0];
	/* +05:30 with microseconds, +05:30 with one digit, Z with microseconds, -07:00 */
	cr_expect_eq(task_ts(t, TS_CREATED), 1714557600123LL);
	cr_expect_eq(task_ts(t, TS_PULL_STARTED), 1714557604500LL);
	cr_expect_eq(task_ts(t, TS_PULL_STOPPED), 1714557631999LL);
	cr_expect_eq(task_ts(t, TS_STARTED), 1714557633000LL);
	cr_expect_str_eq(t->prof->family, "job");
	cr_expect_str_eq(t->prof->service, "");
	cr_expect_eq(t->prof->ntags, 0);
	cr_expect_eq(nwarnings, 0);
}

Test(input, bare_array_of_tasks)
{
	cr_assert_eq(read_fx(FX("bare_array.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 2);
	cr_expect_eq(task_ts(find_id("99990000999900009999000099990000"), TS_PULL_STARTED),
	    1714560005500LL);
	cr_expect_eq(task_ts(find_id("hhhh0000hhhh0000hhhh0000hhhh0000"), TS_CREATED), 1714560000000LL);
}

Test(input, single_task_object)
{
	cr_assert_eq(read_fx(FX("single_task.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	cr_expect_eq(task_ts(&set.tasks[0], TS_CREATED), 1714560000000LL);
	cr_expect_str_eq(set.tasks[0].prof->last_status, "PROVISIONING");
	cr_expect_str_eq(set.tasks[0].prof->family, "tool");
}

Test(input, single_event)
{
	cr_assert_eq(read_fx(FX("event_single.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	cr_expect_eq(task_ts(&set.tasks[0], TS_STARTED), 1714636816250LL);
	cr_expect_str_eq(set.tasks[0].prof->cluster, "ci");
	cr_expect_eq(st.events, 1);
}

Test(input, event_array_keeps_newest_version)
{
	cr_assert_eq(read_fx(FX("event_array.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	struct task *t = &set.tasks[0];
	cr_expect_eq(t->version, 2);
	cr_expect_str_eq(t->prof->last_status, "STOPPED");
	cr_expect_str_eq(t->prof->stop_code, "TaskFailedToStart");
	cr_expect_eq(task_ts(t, TS_STOPPED), 1714640520000LL);
	cr_expect_eq(st.events, 2);
	cr_expect_eq(st.duplicates, 0);
}

static void
check_events_jsonl(void)
{
	cr_assert_eq(set.len, 2);
	struct task *a = &set.tasks[0], *b = &set.tasks[1];
	cr_expect_str_eq(task_id(a), "aaaa0000aaaa0000aaaa0000aaaa0000");
	cr_expect_str_eq(task_id(b), "bbbb0000bbbb0000bbbb0000bbbb0000");
	/* v3 came first, then v1, v2 and a repeat of v3: v3 stays */
	cr_expect_eq(a->version, 3);
	cr_expect_str_eq(a->prof->last_status, "RUNNING");
	cr_expect_eq(task_ts(a, TS_CREATED), 1714557600100LL);
	cr_expect_eq(task_ts(a, TS_PULL_STARTED), 1714557612200LL);
	cr_expect_eq(task_ts(a, TS_PULL_STOPPED), 1714557662700LL);
	cr_expect_eq(task_ts(a, TS_STARTED), 1714557664000LL);
	cr_expect_eq(b->version, 2);
	cr_expect_eq(st.tasks, 6);
	cr_expect_eq(st.events, 6);
	cr_expect_eq(st.duplicates, 2);
	cr_expect_eq(st.skipped, 1);
	cr_assert_eq(nwarnings, 1);
	cr_expect(strstr(warnings[0], "skipped 1 EventBridge event") != NULL, "%s", warnings[0]);
	cr_expect(strstr(warnings[0], "ECS Container Instance State Change") != NULL);
}

Test(input, json_lines_events_dedup_out_of_order)
{
	cr_assert_eq(read_fx(FX("events.jsonl")), 0, "%s", err.msg);
	check_events_jsonl();
}

Test(input, json_lines_threads_give_the_same_result)
{
	/* tiny chunks: every line a chunk of its own, parsed on 3 threads */
	opts.threads = 3;
	opts.chunk_bytes = 16;
	cr_assert_eq(read_fx(FX("events.jsonl")), 0, "%s", err.msg);
	check_events_jsonl();
}

Test(input, json_lines_one_thread)
{
	opts.threads = 1;
	opts.chunk_bytes = 64;
	cr_assert_eq(read_fx(FX("events.jsonl")), 0, "%s", err.msg);
	check_events_jsonl();
}

Test(input, recording_lines)
{
	cr_assert_eq(read_fx(FX("recording.jsonl")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 2);
	struct task *f = find_id("ffff0000ffff0000ffff0000ffff0000");
	cr_expect_eq(task_ts(f, TS_FETCHED), 1714557750500LL);
	cr_expect_eq(task_ts(f, TS_PULL_STOPPED), 1714557720250LL);
	struct task *a = find_id("aaaa0000aaaa0000aaaa0000aaaa0000");
	cr_expect_eq(task_ts(a, TS_PULL_STARTED), 1714557612200LL); /* 1.7145576122E9 */
	cr_expect_eq(st.records, 2);
}

Test(input, metadata_document)
{
	cr_assert_eq(read_fx(FX("metadata_task.json")), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	struct task *t = &set.tasks[0];
	cr_expect(t->from_metadata);
	cr_expect_str_eq(task_id(t), "aaaa0000aaaa0000aaaa0000aaaa0000");
	cr_expect_str_eq(t->prof->taskdef, "web:8");
	cr_expect_str_eq(t->prof->service, "web");
	cr_expect_str_eq(t->prof->cluster, "prod");
	cr_expect_str_eq(t->prof->last_status, "RUNNING");
	/* nanoseconds truncated to ms */
	cr_expect_eq(task_ts(t, TS_PULL_STARTED), 1714557612200LL);
	cr_expect_eq(task_ts(t, TS_PULL_STOPPED), 1714557662700LL);
	cr_assert_eq(t->ncontainers, 1);
	cr_expect_str_eq(t->containers[0].prof->snapshotter, "soci");
	cr_expect_null(DIGEST_OF(&t->containers[0])); /* ImageID is not the registry digest */
	cr_expect_eq(st.metadata, 1);
}

Test(input, mixed_files_merge_by_arn)
{
	const char *files[] = { FX("events.jsonl"), FX("recording.jsonl"), FX("metadata_task.json"),
		FX("describe_epoch.json") };

	for (size_t i = 0; i < 4; i++)
		cr_assert_eq(read_fx(files[i]), 0, "%s", err.msg);
	cr_expect_eq(set.len, 5);
	struct task *a = find_id("aaaa0000aaaa0000aaaa0000aaaa0000");
	cr_expect_eq(a->version, 3);          /* events v3 beat the recording's v2 */
	cr_expect_str_eq(a->prof->source, FX("events.jsonl"));
	cr_expect(a->from_metadata);
	cr_assert_eq(a->ncontainers, 1);
	cr_expect_str_eq(a->containers[0].prof->snapshotter, "soci");
	cr_expect_eq(task_ts(a, TS_STARTED), 1714557664000LL);
	cr_expect_eq(st.tasks, 6 + 2 + 1 + 2);
	cr_expect_eq(st.records, 2);
	cr_expect_eq(st.metadata, 1);
}

Test(input, stdin_is_dash)
{
	cr_assert_not_null(freopen(FX("event_array.json"), "r", stdin));
	cr_assert_eq(input_read_file_with("-", &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	cr_expect_str_eq(set.tasks[0].prof->source, "-");
}

Test(input, memory_and_byte_order_mark)
{
	const char doc[] = "\xef\xbb\xbf{\"taskArn\":\"arn:aws:ecs:r:1:task/c/m1\",\"createdAt\":1}";
	const char pretty[] = "\xef\xbb\xbf[\n{\"taskArn\":\"arn:aws:ecs:r:1:task/c/m2\"}\n]\n";

	cr_assert_eq(input_read_mem_with("mem", doc, sizeof doc - 1, &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(input_read_mem_with("mem", pretty, sizeof pretty - 1, &opts, &set, &st, &err), 0, "%s",
	    err.msg);
	cr_expect_eq(set.len, 2);
	cr_expect_eq(task_ts(find_id("m1"), TS_CREATED), 1000);
}

Test(input, live_task_json)
{
	const char raw[] = "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/live1\",\"version\":9,"
		"\"createdAt\":1.557134011644E9}";

	cr_assert_eq(input_parse_task_json(raw, sizeof raw - 1, "live", 1714557600000LL, &set, &err),
	    0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	cr_expect_str_eq(set.tasks[0].prof->source, "live");
	cr_expect_eq(task_ts(&set.tasks[0], TS_FETCHED), 1714557600000LL);
	cr_expect_eq(task_ts(&set.tasks[0], TS_CREATED), 1557134011644LL);

	const char bad[] = "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/live2\",\"version\":\"now\"}";
	cr_expect_eq(input_parse_task_json(bad, sizeof bad - 1, "live", TS_NONE, &set, &err), -1);
	cr_expect(strstr(err.msg, "live2") && strstr(err.msg, "version"), "%s", err.msg);
	cr_expect_eq(set.len, 1);

	/* a bad time is left out with a warning; the task is kept */
	const char odd[] = "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/live3\",\"createdAt\":1.5e9,"
		"\"startedAt\":\"now\"}";
	cr_expect_eq(input_parse_task_json_with(odd, sizeof odd - 1, "live", TS_NONE, &to_log, &set,
	    &err), 0,
	    "%s", err.msg);
	cr_assert_eq(set.len, 2);
	cr_expect_eq(task_ts(find_id("live3"), TS_STARTED), TS_NONE);
	cr_expect_eq(task_ts(find_id("live3"), TS_CREATED), 1500000000000LL);
	cr_expect(warning_with("DescribeTasks: task arn:aws:ecs:r:1:task/c/live3: ignored startedAt: "
	    "expected a time", NULL) >= 0);
}

Test(input, peek_keys)
{
	struct input_key k;
	const char rec[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2024-05-01T10:00:20.000Z\","
		"\"task\":{\"taskArn\":\"arn:x\",\"version\":12}}";

	cr_assert_eq(input_peek_record(rec, sizeof rec - 1, &k, &err), 0, "%s", err.msg);
	cr_expect_str_eq(k.arn, "arn:x");
	cr_expect_eq(k.version, 12);
	cr_expect_eq(k.fetched_at_ms, 1714557620000LL);
	input_key_cleanup(&k);
	cr_expect_eq(input_peek_record("{\"tasks\":[]}", 12, &k, &err), -1);
	cr_expect_eq(input_peek_task("{\"version\":1}", 13, &k, &err), -1);
	cr_expect(strstr(err.msg, "taskArn") != NULL, "%s", err.msg);
}

/* ---- bad input --------------------------------------------------------------------- */

Test(input, malformed_json_document_has_line_and_column)
{
	cr_assert_eq(read_fx(FX("bad_json.json")), -1);
	cr_expect_eq(err.code, ERR_PARSE);
	cr_expect(strstr(err.msg, FX("bad_json.json") ":5:") == err.msg, "%s", err.msg);
	cr_expect(strstr(err.msg, "malformed JSON") != NULL, "%s", err.msg);
	cr_expect_eq(err_exit_status(err.code), 1);
}

Test(input, malformed_json_line_names_the_file_line)
{
	cr_assert_eq(read_fx(FX("bad_line.jsonl")), -1);
	/* line 3, the column just past the second comma */
	cr_expect(strstr(err.msg, FX("bad_line.jsonl") ":3:74: malformed JSON") == err.msg, "%s",
	    err.msg);
	cr_expect_eq(set.len, 2); /* lines before the error were read */
}

Test(input, malformed_json_line_threaded)
{
	opts.threads = 2;
	opts.chunk_bytes = 8;
	cr_assert_eq(read_fx(FX("bad_line.jsonl")), -1);
	cr_expect(strstr(err.msg, FX("bad_line.jsonl") ":3:74: malformed JSON") == err.msg, "%s",
	    err.msg);
}

Test(input, tasks_not_an_array)
{
	cr_assert_eq(read_fx(FX("bad_tasks_not_array.json")), -1);
	cr_expect(strstr(err.msg, "\"tasks\": expected an array of tasks, got an object"), "%s",
	    err.msg);
}

/* a bad time drops that field, with a warning naming the task and the field; the task is
 * kept (issue 10 items 3 and 10: one odd timestamp cost the whole task) */
Test(input, bad_tasks_skipped_with_warnings)
{
	cr_assert_eq(read_fx(FX("bad_timestamp.json")), 0, "%s", err.msg);
	cr_expect_eq(set.len, 5);
	find_id("t1");
	cr_expect_eq(task_ts(find_id("t7"), TS_STARTED), 1714557605250LL); /* a numeric string */
	cr_expect_eq(task_ts(find_id("t2"), TS_CREATED), TS_NONE);
	cr_expect_eq(task_ts(find_id("t6"), TS_STARTED), TS_NONE);
	cr_expect_eq(st.skipped, 2);
	cr_expect_eq(nwarnings, 5);
	cr_expect(warning_with("task/prod/t2", ": ignored createdAt: expected a time") >= 0);
	cr_expect(warning_with("\"yesterday\"", NULL) >= 0);
	cr_expect(warning_with("tasks[2]: ignored pullStartedAt", NULL) >= 0);
	cr_expect(warning_with("task/prod/t4", "skipped") >= 0);
	cr_expect(warning_with("task/prod/t4", "version: expected a whole number") >= 0);
	cr_expect(warning_with("task/prod/t5", "containers[1].name: expected a string") >= 0);
	cr_expect(warning_with("task/prod/t6", "ignored startedAt") >= 0); /* ms given as seconds */
	cr_expect(strncmp(warnings[0], FX("bad_timestamp.json") ": task ", strlen(FX(
	    "bad_timestamp.json") ": task ")) == 0, "%s", warnings[0]);
}

Test(input, only_bad_task_is_an_error)
{
	cr_assert_eq(read_fx(FX("bad_only_task.json")), -1);
	cr_expect(strstr(err.msg, "no usable task") != NULL, "%s", err.msg);
	cr_expect_eq(nwarnings, 1);
	cr_expect(warning_with("version", "\"soon\"") >= 0);
}

Test(input, unknown_shapes_are_errors)
{
	cr_expect_eq(read_fx(FX("unknown_shape.json")), -1);
	cr_expect(strstr(err.msg, "unknown_shape.json:1: not a known input") != NULL, "%s", err.msg);
	cr_expect_eq(read_fx(FX("unknown_array.json")), -1);
	cr_expect(strstr(err.msg, "not a known input") != NULL, "%s", err.msg);
	cr_expect_eq(nwarnings, 0);
	cr_expect_eq(read_fx(FX("not_object.json")), -1);
	cr_expect(strstr(err.msg, "not_object.json:1:") != NULL, "%s", err.msg);
}

Test(input, unknown_recording_version)
{
	cr_assert_eq(read_fx(FX("bad_record_version.jsonl")), -1);
	cr_expect(strstr(err.msg, "bad_record_version.jsonl:2: recording format \"record/9\"") != NULL,
	    "%s", err.msg);
	cr_expect_eq(set.len, 1);
}

Test(input, missing_file)
{
	cr_assert_eq(read_fx(FX("does-not-exist.json")), -1);
	cr_expect_eq(err.code, ERR_IO);
	cr_expect(strstr(err.msg, "cannot open") != NULL, "%s", err.msg);
}

Test(input, empty_input_warns)
{
	cr_assert_eq(input_read_mem_with("empty", " \n\n", 3, &opts, &set, &st, &err), 0);
	cr_expect_eq(set.len, 0);
	cr_expect(warning_with("empty: empty input", NULL) == 0);
}

static void
expect_parse_error(const char *data, size_t len, const char *what)
{
	err_clear(&err);
	cr_expect_eq(input_read_mem_with("m", data, len, &opts, &set, &st, &err), -1, "accepted: %s", what);
	cr_expect_eq(err.code, ERR_PARSE, "%s", what);
	cr_expect(strncmp(err.msg, "m:1:", 4) == 0, "%s: %s", what, err.msg);
	for (const char *p = err.msg; *p; p++)
		cr_expect((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f, "%s", what);
}

Test(input, hostile_bytes)
{
	static const char nul[] = "{\"taskArn\":\"a\0b\"}";
	static const char nul_escape[] = "{\"taskArn\":\"a\\u0000b\"}";
	static const char utf8[] = "{\"taskArn\":\"a\xff\xfe\x1b[31m\"}";
	static const char overflow[] = "{\"taskArn\":\"x\",\"createdAt\":1e400}";

	expect_parse_error(nul, sizeof nul - 1, "raw NUL");
	expect_parse_error(nul_escape, sizeof nul_escape - 1, "\\u0000");
	expect_parse_error(utf8, sizeof utf8 - 1, "invalid UTF-8");
	expect_parse_error(overflow, sizeof overflow - 1, "1e400");
	cr_expect(strstr(err.msg, "overflow") != NULL, "%s", err.msg);
	cr_expect_eq(set.len, 0);
}

Test(input, deep_nesting)
{
	size_t n = 200000;
	char *s = xmalloc(2 * n);

	memset(s, '[', n);
	memset(s + n, ']', n);
	expect_parse_error(s, 2 * n, "deep nesting");
	/* the same across lines: a whole-document parse */
	for (size_t i = 1; i < n; i += 1000)
		s[i] = '\n';
	err_clear(&err);
	cr_expect_eq(input_read_mem_with("m", s, 2 * n, &opts, &set, &st, &err), -1);
	free(s);
}

Test(input, huge_string_field)
{
	size_t n = INPUT_MAX_STRING + 10;
	char *s = xmalloc(n + 200);
	int off = snprintf(s, 200, "{\"taskArn\":\"arn:big\",\"stoppedReason\":\"");

	memset(s + off, 'x', n);
	memcpy(s + off + n, "\"}\n{\"taskArn\":\"arn:small\"}\n", 28);
	cr_assert_eq(input_read_mem_with("m", s, (size_t)off + n + 27, &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(set.len, 1);
	cr_expect(warning_with("m:1: skipped task arn:big: stoppedReason: a string of", "limit") == 0);
	free(s);
}

Test(input, line_too_long)
{
	size_t n = INPUT_MAX_LINE + 100;
	char *s = xmalloc(n);
	const char first[] = "{\"taskArn\":\"arn:ok\"}\n[";

	memset(s, ' ', n);
	memcpy(s, first, sizeof first - 1);
	s[n - 1] = ']';
	cr_assert_eq(input_read_mem_with("m", s, n, &opts, &set, &st, &err), -1);
	cr_expect(strstr(err.msg, "m:2: a line longer than 64 MiB") != NULL, "%s", err.msg);
	free(s);
}

/* issue 10 item 10: `aws ecs describe-tasks --output json | jq -c` over 64 MiB is one
 * document on one line, read whole (up to INPUT_MAX_DOC), not refused as a long line */
static char *
one_line_doc(size_t pad, size_t *len)
{
	static const char head[] = "{\"tasks\":[{\"taskArn\":\"arn:a\"}";
	static const char tail[] = ",{\"taskArn\":\"arn:b\"}],\"failures\":[]}\n";
	char *s = xmalloc(sizeof head + pad + sizeof tail);

	memcpy(s, head, sizeof head - 1);
	memset(s + sizeof head - 1, ' ', pad);   /* JSON allows any white space there */
	memcpy(s + sizeof head - 1 + pad, tail, sizeof tail - 1);
	*len = sizeof head - 1 + pad + sizeof tail - 1;
	return s;
}

Test(input, one_line_document_over_line_limit)
{
	size_t len;
	char *s = one_line_doc(INPUT_MAX_LINE + 100, &len);

	cr_assert_eq(input_read_mem_with("m", s, len, &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(set.len, 2);
	cr_expect_eq(st.tasks, 2);
	free(s);
}

Test(input, one_line_document_over_line_limit_file)
{
	size_t len;
	char *s = one_line_doc(INPUT_MAX_LINE + 100, &len);
	char path[] = "/tmp/ecsprof-test-input-XXXXXX";
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, s, len), (ssize_t)len);
	close(fd);
	/* from a file: streamed through the reader, then read whole */
	cr_expect_eq(input_read_file_with(path, &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(set.len, 2);
	unlink(path);
	free(s);
}

/* issue 10: blank lines (and a byte order mark) before such a document leave it the first
 * line, not a line 2 over 64 MiB ('m:3: a line longer than 64 MiB') */
Test(input, blank_lines_before_a_one_line_document)
{
	size_t len;
	char *s = one_line_doc(INPUT_MAX_LINE + 100, &len);
	char *t = xmalloc(len + 8);

	memcpy(t, "\xef\xbb\xbf \n\r\n", 7);
	memcpy(t + 7, s, len);
	cr_assert_eq(input_read_mem_with("m", t, len + 7, &opts, &set, &st, &err), 0, "%s",
	    err.msg);
	cr_expect_eq(set.len, 2);
	free(t);
	free(s);
}

Test(input, long_later_line_says_the_limit_and_why)
{
	size_t n = INPUT_MAX_LINE + 100;
	char *s = xmalloc(n);
	const char first[] = "{\"taskArn\":\"arn:ok\"}\n{\"taskArn\":\"arn:x\"";

	memset(s, ' ', n);
	memcpy(s, first, sizeof first - 1);
	s[n - 1] = '}';
	cr_assert_eq(input_read_mem_with("m", s, n, &opts, &set, &st, &err), -1);
	cr_expect(strstr(err.msg, "m:2: a line longer than 64 MiB") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "held whole") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "not JSON Lines") == NULL, "%s", err.msg);
	free(s);
}

/* issue 10 item 10: a bad fetched_at in a recording line drops that field with a warning
 * and keeps the task, as a bad time in the task does since a3bdc71 (it skipped the line) */
Test(input, bad_fetched_at_drops_the_field_not_the_task)
{
	static const char doc[] =
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"soon\",\"task\":{\"taskArn\":"
	    "\"arn:aws:ecs:r:1:task/c/t1\",\"createdAt\":1714557600}}\n"
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"1969-12-31T23:59:59Z\",\"task\":"
	    "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/t2\"}}\n"
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-01-02T03:04:05.678Z\",\"task\":"
	    "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/t3\"}}\n";

	cr_assert_eq(input_read_mem_with("m", doc, sizeof doc - 1, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
	cr_expect_eq(set.len, 3);
	cr_expect_eq(st.records, 3);
	cr_expect_eq(st.skipped, 0);
	cr_expect_eq(task_ts(find_id("t1"), TS_FETCHED), TS_NONE);
	cr_expect_eq(task_ts(find_id("t1"), TS_CREATED), 1714557600000LL);
	cr_expect_eq(task_ts(find_id("t2"), TS_FETCHED), TS_NONE);
	cr_expect_eq(task_ts(find_id("t3"), TS_FETCHED), 1767323045678LL);
	cr_expect(warning_with("m:1: task arn:aws:ecs:r:1:task/c/t1: ignored fetched_at:",
	    "\"soon\"") >= 0);
	cr_expect(warning_with("m:2: task arn:aws:ecs:r:1:task/c/t2: ignored fetched_at:",
	    "before 1970") >= 0);
}

Test(input, warnings_default_to_log_c)
{
	/* no warn function: the warning goes through log_warn to the options' log */
	cr_assert_eq(input_read_mem_with("empty", " \n", 2, &to_log, &set, &st, &err), 0);
	cr_expect_eq(nwarnings, 1);
	cr_expect(warning_with("empty: empty input", NULL) == 0);
}

Test(input, options_are_per_call)
{
	static const char doc[] = "\n";
	struct input_options quiet = { .warn = collect, .threads = 2, .chunk_bytes = 8 };

	cr_assert_eq(input_read_mem_with("one", doc, 1, &quiet, &set, &st, &err), 0);
	cr_expect_eq(nwarnings, 1);
	/* the next call with other options is not affected by the last one's */
	cr_assert_eq(input_read_mem_with("two", doc, 1, &to_log, &set, &st, &err), 0);
	cr_expect_eq(nwarnings, 2);
	cr_expect(warning_with("one: empty input", NULL) == 0);
	cr_expect(warning_with("two: empty input", NULL) == 1);
}

/* issue 10 item 10: hex strings and ISO times before 1970 are no timestamps (strtod read
 * "0x6631f8a0" as 1714551968 s; "1969-12-31T23:59:59Z" became -1000 ms). timeutil still
 * parses such years (test_numfmt round-trips 1900); the readers refuse them, and drop the
 * field, not the task. */
static void
check_hex_1969(void)
{
	cr_expect_eq(set.len, 5);
	cr_expect_eq(task_ts(find_id("t1"), TS_CREATED), 1714557600000LL);
	cr_expect_eq(task_ts(find_id("t2"), TS_CREATED), TS_NONE);
	cr_expect_eq(task_ts(find_id("t3"), TS_CREATED), TS_NONE);
	cr_expect_eq(task_ts(find_id("t4"), TS_STARTED), TS_NONE);
	cr_expect_eq(task_ts(find_id("t5"), TS_STARTED), 1714557600000LL); /* decimal exponent */
	cr_expect_eq(st.skipped, 0);
	cr_expect_eq(nwarnings, 3);
	cr_expect(warning_with("task/prod/t2", "ignored createdAt: expected a time") >= 0);
	cr_expect(warning_with("\"0x6631f8a0\"", NULL) >= 0);
	cr_expect(warning_with("task/prod/t3",
	    "ignored createdAt: \"1969-12-31T23:59:59Z\" is before 1970, not an ECS time") >= 0);
	cr_expect(warning_with("task/prod/t4", "ignored startedAt: \"1970-01-01T05:00:00+06:00\" is before 1970") >= 0);
}

Test(input, hex_and_pre_1970_times_refused)
{
	cr_assert_eq(read_fx(FX("bad_timestamp_hex_1969.json")), 0, "%s", err.msg);
	check_hex_1969();
}

/* the same tasks as JSON Lines go through taskscan.c first: it must not take 1969 */
Test(input, hex_and_pre_1970_times_refused_in_json_lines)
{
	static const char lines[] =
	    "{\"taskArn\": \"arn:aws:ecs:us-east-1:111122223333:task/prod/t1\", \"version\": 2, \"createdAt\": 1714557600}\n"
	    "{\"taskArn\": \"arn:aws:ecs:us-east-1:111122223333:task/prod/t2\", \"version\": 2, \"createdAt\": \"0x6631f8a0\"}\n"
	    "{\"taskArn\": \"arn:aws:ecs:us-east-1:111122223333:task/prod/t3\", \"version\": 2, \"createdAt\": \"1969-12-31T23:59:59Z\"}\n"
	    "{\"taskArn\": \"arn:aws:ecs:us-east-1:111122223333:task/prod/t4\", \"version\": 2, \"startedAt\": \"1970-01-01T05:00:00+06:00\"}\n"
	    "{\"taskArn\": \"arn:aws:ecs:us-east-1:111122223333:task/prod/t5\", \"version\": 1, \"startedAt\": \"1.7145576e9\"}\n";

	cr_assert_eq(input_read_mem_with("mem", lines, sizeof lines - 1, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
	check_hex_1969();
	cr_expect(warning_with("mem:3: task ", "task/prod/t3") >= 0);
}

/* a recording's healthy_at before 1970 is no observation (input_serving.c, taskscan.c) */
Test(input, healthy_at_before_1970_is_not_observed)
{
	static const char lines[] =
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2024-05-01T10:00:20.000Z\","
	    "\"healthy_at\":\"1969-12-31T00:00:00Z\",\"task\":{\"taskArn\":"
	    "\"arn:aws:ecs:us-east-1:111122223333:task/prod/h1\",\"version\":3,"
	    "\"createdAt\":1714557600}}\n"
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2024-05-01T10:00:20.000Z\","
	    "\"healthy_at\":\"2024-05-01T10:00:10Z\",\"task\":{\"taskArn\":"
	    "\"arn:aws:ecs:us-east-1:111122223333:task/prod/h2\",\"version\":3,"
	    "\"createdAt\":1714557600}}\n";

	cr_assert_eq(input_read_mem_with("mem", lines, sizeof lines - 1, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
	cr_expect_eq(task_ts(find_id("h1"), TS_HEALTHY), TS_NONE);
	cr_expect_not(find_id("h1")->healthy_observed);
	cr_expect_eq(task_ts(find_id("h2"), TS_HEALTHY), 1714557610000LL);
}

/* issue 10 item 10: saved aws ecr describe-images with imagePushedAt before 1970 (image_parse.c) */
Test(input, image_pushed_before_1970_is_unknown)
{
	static const char doc[] = "{\"imageDetails\":["
	    "{\"repositoryName\":\"web\",\"imageDigest\":\"sha256:aaaa\",\"imagePushedAt\":\"1969-07-20T20:17:40Z\"},"
	    "{\"repositoryName\":\"web\",\"imageDigest\":\"sha256:bbbb\",\"imagePushedAt\":\"2024-05-01T10:00:00Z\"}]}";
	const struct image_facts *a, *b;

	cr_assert_eq(input_read_mem_with("ecr.json", doc, sizeof doc - 1, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
	cr_assert_not_null(set.images);
	a = image_set_find(set.images, "sha256:aaaa", "");
	b = image_set_find(set.images, "sha256:bbbb", "");
	cr_assert_not_null(a);
	cr_assert_not_null(b);
	cr_expect_eq(a->pushed_ms, TS_NONE);
	cr_expect_eq(b->pushed_ms, 1714557600000LL);
}

/* issue 10 item 10: a member named twice in one object is warned about with the file,
 * line, task and member (jansson keeps the last value, silently until now) */
Test(input, duplicate_keys_warned_with_file_and_task)
{
	static const char doc[] = "{\"tasks\": [\n"
	    " {\"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/a\", \"createdAt\": 1714557600, \"createdAt\": 1714557700},\n"
	    " {\"containers\": [{\"name\": \"x\"}, {\"name\": \"y\", \"name\": \"z\"}], \"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/b\"},\n"
	    " {\"version\": 1, \"version\": 2}\n"
	    "], \"failures\": [], \"failures\": []}\n";

	cr_assert_eq(input_read_mem_with("doc.json", doc, sizeof doc - 1, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
	cr_expect_eq(set.len, 3);
	cr_expect_eq(task_ts(find_id("a"), TS_CREATED), 1714557700000LL, "the last value is used");
	cr_expect_str_eq(find_id("b")->containers[1].prof->name, "z");
	cr_expect_eq(st.skipped, 0);
	cr_expect_eq(nwarnings, 4);
	cr_expect(warning_with("doc.json:2: task arn:aws:ecs:us-east-1:1:task/c/a: duplicate key "
	    "\"createdAt\": the last value is used", NULL) == 0, "%s", nwarnings ? warnings[0] : "");
	cr_expect(warning_with("doc.json:3: task arn:aws:ecs:us-east-1:1:task/c/b: duplicate key "
	    "\"containers[1].name\"", NULL) == 1);
	cr_expect(warning_with("doc.json:4: duplicate key \"tasks[2].version\"", NULL) == 2);
	cr_expect(warning_with("doc.json:5: duplicate key \"failures\"", NULL) == 3);
}

/* a NUL byte after a number in a line with a repeated key (found by fuzz_taskscan): the
 * search for duplicates read the NUL as the end of the number without stepping over it,
 * and looped for ever; now it steps over it, warns of the key and the read goes on (what
 * becomes of a line with a NUL in it is the readers' own question, not asked here) */
Test(input, a_nul_byte_in_a_line_with_a_repeated_key_ends, .timeout = 10)
{
	static const char lines[] =
	    "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/n1\",\"cpu\":\"1\",\"cpu\":\"2\","
	    "\"createdAt\":1714557600\0,\"version\":1}\n"
	    "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/n2\",\"createdAt\":1714557600}\n";

	cr_assert_eq(input_read_mem_with("n.jsonl", lines, sizeof lines - 1, &opts, &set, &st, &err),
	    0, "%s", err.msg);
	cr_expect_not_null(find_id("n2"));
	cr_expect(warning_with("n.jsonl:1: task arn:aws:ecs:us-east-1:1:task/c/n1: duplicate key "
	    "\"cpu\"", NULL) >= 0, "%s", nwarnings ? warnings[0] : "(no warning)");
}

/* the same through every JSON Lines path: taskscan.c and fastjson.c give such lines up
 * to jansson, which must not keep one value silently; concatenated values; live */
Test(input, duplicate_keys_in_json_lines_and_live)
{
	static const char lines[] =
	    "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/l1\",\"createdAt\":1714557600,\"createdAt\":1714557601}\n"
	    "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2024-05-01T10:00:20.000Z\",\"task\":{\"taskArn\":"
	    "\"arn:aws:ecs:us-east-1:1:task/c/l2\",\"lastStatus\":\"A\",\"lastStatus\":\"B\"}}\n"
	    "{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/l3\","
	    "\"group\":\"service:x\\u0041\",\"group\":\"service:y\"}}\n";
	static const char concat[] = "{\n \"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/p1\"\n}\n"
	    "{\n \"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/p2\",\n \"cpu\": \"256\",\n \"cpu\": \"512\"\n}\n";
	static const char live[] = "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/v1\",\"cpu\":\"1\",\"cpu\":\"2\"}";

	cr_assert_eq(input_read_mem_with("l.jsonl", lines, sizeof lines - 1, &opts, &set, &st, &err),
	    0, "%s", err.msg);
	cr_expect_eq(set.len, 3);
	cr_expect_eq(task_ts(find_id("l1"), TS_CREATED), 1714557601000LL);
	cr_expect_str_eq(find_id("l2")->prof->last_status, "B");
	cr_expect_str_eq(find_id("l3")->prof->group, "service:y");
	cr_expect(warning_with("l.jsonl:1: task arn:aws:ecs:us-east-1:1:task/c/l1: duplicate key \"createdAt\"", NULL) >= 0);
	cr_expect(warning_with("l.jsonl:2: task arn:aws:ecs:us-east-1:1:task/c/l2: duplicate key \"lastStatus\"", NULL) >= 0);
	cr_expect(warning_with("l.jsonl:3: task arn:aws:ecs:us-east-1:1:task/c/l3: duplicate key \"group\"", NULL) >= 0);
	cr_expect_eq(nwarnings, 3);

	cr_assert_eq(input_read_mem_with("p.json", concat, sizeof concat - 1, &opts, &set, &st, &err),
	    0, "%s", err.msg);
	cr_expect_str_eq(find_id("p2")->prof->cpu, "512");
	cr_expect(warning_with("p.json:7: task arn:aws:ecs:us-east-1:1:task/c/p2: duplicate key \"cpu\"", NULL) >= 0,
	    "%s", warnings[nwarnings - 1]);
	cr_expect_eq(nwarnings, 4);

	cr_assert_eq(input_parse_task_json_with(live, sizeof live - 1, "live", TS_NONE, &to_log, &set,
	    &err), 0,
	    "%s", err.msg);
	cr_expect_str_eq(find_id("v1")->prof->cpu, "2");
	cr_expect(warning_with("DescribeTasks: task arn:aws:ecs:r:1:task/c/v1: duplicate key \"cpu\": the last value is used", NULL) >= 0);
}

/* an object of many members (the hash table past 16) and many duplicates (the first 64
 * said, the rest counted); hostile keys stay one printable line */
Test(input, duplicate_keys_many)
{
	struct buf_like { char *s; size_t n; } b = { xmalloc(1 << 20), 0 };
	size_t cap = 1 << 20;

	b.n += (size_t)snprintf(b.s + b.n, cap - b.n, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/m1\"");
	for (int i = 0; i < 200; i++)
		b.n += (size_t)snprintf(b.s + b.n, cap - b.n, ",\"k%d\":%d", i, i);
	b.n += (size_t)snprintf(b.s + b.n, cap - b.n, ",\"k150\":0,\"k3\":0,\"\\u001b]0;x\\u0007\":1,\"\\u001b]0;x\\u0007\":2}\n");
	cr_assert_eq(input_read_mem_with("m.json", b.s, b.n, &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(nwarnings, 3);
	cr_expect(warning_with("task/c/m1: duplicate key \"k150\"", NULL) == 0);
	cr_expect(warning_with("task/c/m1: duplicate key \"k3\"", NULL) == 1);
	cr_expect(warning_with("duplicate key \"\\u001b]0;x\\u0007\"", NULL) == 2, "%s", warnings[2]);
	for (size_t i = 0; i < nwarnings; i++)
		for (const char *p = warnings[i]; *p; p++)
			cr_assert(*p >= 0x20 && *p < 0x7f, "%s", warnings[i]);

	b.n = (size_t)snprintf(b.s, cap, "{\"tasks\":[");
	for (int i = 0; i < 100; i++)
		b.n += (size_t)snprintf(b.s + b.n, cap - b.n, "%s{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/d%d\",\"cpu\":\"1\",\"cpu\":\"2\"}",
		    i ? "," : "", i);
	b.n += (size_t)snprintf(b.s + b.n, cap - b.n, "]}");
	task_set_cleanup(&set);
	task_set_init(&set);
	for (size_t i = 0; i < nwarnings; i++)
		free(warnings[i]);
	nwarnings = 0;
	cr_assert_eq(input_read_mem_with("d.json", b.s, b.n, &opts, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(set.len, 100);
	cr_expect_eq(nwarnings, 65);
	cr_expect(warning_with("task/c/d63: duplicate key \"cpu\"", NULL) == 63);
	cr_expect(warning_with("d.json:1: 36 more duplicate keys not listed", NULL) == 64, "%s", warnings[64]);
	free(b.s);
}

/* issue 10 item 10: jansson failing to allocate was reported as "malformed JSON" */
static int fail_after;

static void *
failing_malloc(size_t n)
{
	return fail_after-- > 0 ? malloc(n) : NULL;
}

Test(input, out_of_memory_is_not_malformed_json)
{
	static const char doc[] = "{\n \"tasks\": [\n  {\"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/a\","
	    " \"createdAt\": 1714557600, \"containers\": [{\"name\": \"web\"}]}\n ]\n}\n";
	json_malloc_t m;
	json_free_t f;
	int rc;

	json_get_alloc_funcs(&m, &f);
	fail_after = 5;
	json_set_alloc_funcs(failing_malloc, free);
	rc = input_read_mem_with("big.json", doc, sizeof doc - 1, &opts, &set, &st, &err);
	json_set_alloc_funcs(m, f);
	cr_assert_eq(rc, -1);
	cr_expect_str_eq(err.msg, "big.json: out of memory parsing the JSON");
	cr_expect_eq(err.code, ERR_INTERNAL);
	cr_assert_eq(input_read_mem_with("big.json", doc, sizeof doc - 1, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
}

/* ... nor where jansson's lexer, short of memory, drops the bytes it could not keep and
 * then calls the text malformed ('big.json:3:106: malformed JSON: string or '}' expected
 * near "createdAt"', at 11 of the first 40 allocations): a valid document reads, or says
 * out of memory. Left: the first line alone ('{'), which decides whether the input is a
 * document or JSON Lines, is still jansson's to read, and there it says big.json:1:1. */
Test(input, out_of_memory_anywhere_is_not_malformed_json)
{
	static const char doc[] = "{\n \"tasks\": [\n  {\"taskArn\": \"arn:aws:ecs:us-east-1:1:"
	    "task/c/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"createdAt\": 1714557600, "
	    "\"stoppedReason\": \"a long reason, a long reason, a long reason\", \"containers\": "
	    "[{\"name\": \"web\"}]}\n ]\n}\n";
	json_malloc_t m;
	json_free_t f;
	int oom = 0, ok = 0;

	json_get_alloc_funcs(&m, &f);
	for (int k = 0; k < 60; k++) {
		int rc;

		task_set_cleanup(&set);
		task_set_init(&set);
		err_clear(&err);
		fail_after = k;
		json_set_alloc_funcs(failing_malloc, free);
		rc = input_read_mem_with("big.json", doc, sizeof doc - 1, &opts, &set, &st, &err);
		json_set_alloc_funcs(m, f);
		if (rc == 0) {
			ok++;
			continue;
		}
		if (strncmp(err.msg, "big.json:1:1: ", 14) == 0)
			continue;   /* the first line's own parse (see above) */
		/* the first line's parse short of memory names its line (its allocations went to
		 * the jansson arena that issue 32 removed, so they never failed here before) */
		if (strcmp(err.msg, "big.json:1: out of memory parsing the JSON") != 0)
			cr_expect_str_eq(err.msg, "big.json: out of memory parsing the JSON", "at %d: %s",
			    k, err.msg);
		cr_expect_eq(err.code, ERR_INTERNAL, "at %d", k);
		oom++;
	}
	cr_expect(oom >= 10 && ok >= 10, "%d out of memory, %d read", oom, ok);
}

/* issue 10 item 10: EMFILE names its cause and its cure */
Test(input, too_many_open_files_says_raise_ulimit)
{
	struct rlimit rl;

	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = 32;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	while (open("/dev/null", O_RDONLY) >= 0)
		;
	cr_assert_eq(read_fx(FX("describe_epoch.json")), -1);
	cr_expect(strstr(err.msg, "describe_epoch.json: cannot open: too many open files") != NULL &&
	    strstr(err.msg, "raise ulimit -n") != NULL, "%s", err.msg);
}

/* issue 10 item 10: zlib out of memory read "corrupt gzip data: insufficient memory"; the
 * data is fine, so it says out of memory, as jansson's does (ERR_INTERNAL) */
static unsigned gz_allocs;

static voidpf
gz_fail_after_one(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	if (gz_allocs++ >= 1)   /* inflate's state, then no window */
		return Z_NULL;
	return calloc(items, size);
}

static void
gz_plain_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

Test(input, gzip_out_of_memory_says_so)
{
	static const char doc[] = "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/t1\"}\n";
	unsigned char gz[512];
	z_stream z;
	size_t n;
	int rc;

	memset(&z, 0, sizeof z);
	cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)doc;
	z.avail_in = sizeof doc - 1;
	z.next_out = gz;
	z.avail_out = sizeof gz;
	cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	n = sizeof gz - z.avail_out;
	deflateEnd(&z);
	opts.chunk_bytes = 16;   /* output fills before the stream ends: zlib needs a window */
	/* the allocator is this call's option (issue 9: no process-wide test hook) */
	opts.gz_alloc = gz_fail_after_one;
	opts.gz_free = gz_plain_free;
	rc = input_read_mem_with("m.gz", (const char *)gz, n, &opts, &set, &st, &err);
	cr_assert_eq(rc, -1, "%s", err.msg);
	cr_expect_str_eq(err.msg, "m.gz: out of memory inflating gzip data");
	cr_expect_eq(err.code, ERR_INTERNAL);
	/* ... so a call without it, even a later one, has zlib's own */
	opts.gz_alloc = NULL;
	opts.gz_free = NULL;
	cr_assert_eq(input_read_mem_with("m.gz", (const char *)gz, n, &opts, &set, &st, &err), 0,
	    "%s", err.msg);
	cr_expect_eq(set.len, 1);
	/* and a call that has it fails while another one's options do not (per call) */
	opts.gz_alloc = gz_fail_after_one;
	opts.gz_free = gz_plain_free;
	gz_allocs = 0;
	cr_expect_eq(input_read_mem_with("m2.gz", (const char *)gz, n, &opts, &set, &st, &err),
	    -1);
	cr_expect_eq(input_read_mem("m3.gz", (const char *)gz, n, &set, &st, &err), 0, "%s",
	    err.msg);
}

/* issue 30 item 11: the reading of a file says how far it has got, up to its whole size
 * (what `report` turns into its progress line on a terminal) */
struct read_seen {
	size_t calls;
	uint64_t read, total;
	bool grows;
};

static void
seen_progress(void *ctx, uint64_t read, uint64_t total)
{
	struct read_seen *s = ctx;

	s->grows = s->grows && read >= s->read;
	s->calls++;
	s->read = read;
	s->total = total;
}

Test(input, reading_reports_its_progress)
{
	struct read_seen seen = { .grows = true };
	struct input_options o = { .progress = seen_progress, .progress_ctx = &seen,
				   .chunk_bytes = 256 };
	const char *path = FIXTURE_DIR "/input/recording.jsonl";
	FILE *f = fopen(path, "rb");
	long size;

	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	cr_assert_eq(input_read_file_with(path, &o, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_gt(seen.calls, 0);
	cr_expect(seen.grows);
	cr_expect_eq(seen.read, (uint64_t)size, "read %llu of %ld", (unsigned long long)seen.read,
		     size);
	cr_expect_eq(seen.total, (uint64_t)size);
}

/* A task keeps at most TASK_MAX_CONTAINERS containers (a 16-bit count; ECS allows 10 a
 * task definition): one with more is refused with its reason, the tasks beside it kept,
 * whether the line is an event (taskscan.c) or a DescribeTasks task (jansson). */
static char *
many_containers_line(const char *arn, size_t n, bool event)
{
	struct buf b;

	buf_init(&b, BUF_MAX_DEFAULT);
	buf_addf(&b, "%s{\"taskArn\":\"%s\",\"lastStatus\":\"RUNNING\",\"containers\":[",
		   event ? "{\"detail-type\":\"ECS Task State Change\",\"source\":\"aws.ecs\",\"detail\":" : "",
		   arn);
	for (size_t i = 0; i < n; i++)
		buf_addf(&b, "%s{\"name\":\"c\"}", i ? "," : "");
	buf_addf(&b, "]}%s\n", event ? "}" : "");
	return buf_take(&b);
}

Test(input, a_task_with_more_containers_than_kept_is_refused)
{
	for (int event = 0; event < 2; event++) {
		char *over = many_containers_line("arn:aws:ecs:r:1:task/c/over", TASK_MAX_CONTAINERS + 1, event);
		char *full = many_containers_line("arn:aws:ecs:r:1:task/c/full", TASK_MAX_CONTAINERS, event);
		struct buf all;

		buf_init(&all, BUF_MAX_DEFAULT);
		buf_addf(&all, "%s%s", over, full);
		task_set_cleanup(&set);
		task_set_init(&set);
		for (size_t i = 0; i < nwarnings; i++)
			free(warnings[i]);
		nwarnings = 0;
		input_read_mem_with("m", all.data, all.len, &opts, &set, &st, &err);
		cr_assert_eq(set.len, 1, "event %d", event);
		cr_expect_eq(set.tasks[0].ncontainers, TASK_MAX_CONTAINERS);
		cr_expect_str_eq(task_id(&set.tasks[0]), "full");
		cr_expect_geq(warning_with("65536 containers, more than the 65535 a task may have", NULL),
			      0, "event %d: %zu warnings, %s", event, nwarnings,
			      nwarnings ? warnings[0] : err.msg);
		buf_cleanup(&all);
		free(over);
		free(full);
	}
}

Test(input, a_health_resolution_is_kept_in_32_bits)
{
	cr_expect_eq(task_resolution_ms(-5), 0u);
	cr_expect_eq(task_resolution_ms(0), 0u);
	cr_expect_eq(task_resolution_ms(30000), 30000u);
	cr_expect_eq(task_resolution_ms((int64_t)UINT32_MAX + 1), UINT32_MAX);
	cr_expect_eq(task_resolution_ms(INT64_MAX), UINT32_MAX);
}
