/* Tests for input_export.c and input_gzip.c: the shapes people have (gzip, back-to-back
 * values, CloudWatch Logs export lines, Container Insights events) read into the same
 * tasks as the plain files, through the threaded reader with chunks small enough that
 * every boundary falls inside a compressed block or a value. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/xalloc.h"
#include "fixtures/task_text.h"

#define FX(name) FIXTURE_DIR "/export/" name
#define EXAMPLES FIXTURE_DIR "/../../examples/"

static struct err err;
static size_t nwarn;
static char lastwarn[512];
static struct input_options opts;   /* per call: warnings to collect(), tuning per test */

static void
collect(void *ctx, const char *line)
{
	(void)ctx;
	nwarn++;
	snprintf(lastwarn, sizeof lastwarn, "%s", line);
}

static void
setup(void)
{
	err_clear(&err);
	nwarn = 0;
	lastwarn[0] = '\0';
	opts = (struct input_options){ .warn = collect };
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = xmalloc((size_t)n + 1);
	cr_assert_eq(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* Every task of a equal in b: the same ARN, status and timestamps. */
static void
assert_same_tasks(const struct task_set *a, const struct task_set *b)
{
	cr_assert_eq(a->len, b->len, "%zu tasks vs %zu", a->len, b->len);
	for (size_t i = 0; i < a->len; i++) {
		const struct task *x = &a->tasks[i], *y = &b->tasks[i];

		cr_assert_str_eq(ARN_OF(x), ARN_OF(y));
		cr_assert_str_eq(x->prof->last_status ? x->prof->last_status : "",
		    y->prof->last_status ? y->prof->last_status : "");
		for (int k = 0; k < TS_COUNT; k++)
			cr_assert_eq(task_ts(x, k), task_ts(y, k), "%s ts %d", task_id(x), k);
	}
}

static void
read_into(const char *path, struct task_set *s)
{
	struct input_stats st;

	memset(&st, 0, sizeof st);
	task_set_init(s);
	cr_assert_eq(input_read_file_with(path, &opts, s, &st, &err), 0, "%s: %s", path, err.msg);
}

TestSuite(input_export, .init = setup);

Test(input_export, gzip_file_reads_as_the_plain_file_with_small_chunks_on_threads)
{
	struct task_set plain, gz, two;

	read_into(EXAMPLES "events.jsonl", &plain);
	opts.threads = 3;   /* chunk edges inside lines and inside deflate blocks */
	opts.chunk_bytes = 97;
	read_into(FX("events.jsonl.gz"), &gz);
	read_into(FX("events-2members.gz"), &two);
	cr_assert_eq(plain.len, 5);
	assert_same_tasks(&plain, &gz);
	assert_same_tasks(&plain, &two);
	task_set_cleanup(&plain);
	task_set_cleanup(&gz);
	task_set_cleanup(&two);
}

Test(input_export, gzip_in_memory_and_a_flipped_byte_is_an_error)
{
	struct task_set plain, s;
	struct input_stats st;
	size_t len;
	char *data = slurp(FX("events.jsonl.gz"), &len);

	memset(&st, 0, sizeof st);
	read_into(EXAMPLES "events.jsonl", &plain);
	task_set_init(&s);
	cr_assert_eq(input_read_mem_with("mem.gz", data, len, &opts, &s, &st, &err), 0, "%s", err.msg);
	assert_same_tasks(&plain, &s);
	task_set_cleanup(&s);
	/* a byte of the compressed data changed: the CRC or the inflater notices */
	data[len / 2] ^= 0x55;
	task_set_init(&s);
	cr_assert_eq(input_read_mem_with("bad.gz", data, len, &opts, &s, &st, &err), -1);
	cr_assert(strstr(err.msg, "bad.gz") != NULL && strstr(err.msg, "gzip") != NULL,
	    "%s", err.msg);
	task_set_cleanup(&s);
	task_set_cleanup(&plain);
	free(data);
}

Test(input_export, truncated_gzip_says_so)
{
	struct task_set s;
	struct input_stats st;

	memset(&st, 0, sizeof st);
	task_set_init(&s);
	cr_assert_eq(input_read_file_with(FX("events-truncated.gz"), &opts, &s, &st, &err), -1);
	cr_assert(strstr(err.msg, "cut short") != NULL, "%s", err.msg);
	task_set_cleanup(&s);
}

Test(input_export, firehose_back_to_back_and_cloudwatch_export_lines)
{
	struct task_set plain, fh, cw;

	read_into(EXAMPLES "events.jsonl", &plain);
	read_into(FX("firehose-events"), &fh);
	read_into(FX("cwlogs-export.gz"), &cw);
	assert_same_tasks(&plain, &fh);
	assert_same_tasks(&plain, &cw);
	task_set_cleanup(&plain);
	task_set_cleanup(&fh);
	task_set_cleanup(&cw);
}

Test(input_export, back_to_back_then_garbage_names_the_line)
{
	static const char doc[] = "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/a\"}"
	    "{\"taskArn\":\"arn:aws:ecs:r:1:task/c/b\"} nonsense\n";
	struct task_set s;
	struct input_stats st;

	memset(&st, 0, sizeof st);
	task_set_init(&s);
	cr_assert_eq(input_read_mem_with("fh", doc, sizeof doc - 1, &opts, &s, &st, &err), -1);
	cr_assert(strncmp(err.msg, "fh:1:", 5) == 0, "%s", err.msg);
	cr_assert_eq(s.len, 2);
	task_set_cleanup(&s);
}

Test(input_export, container_insights_task_events_merge_into_one_task_each)
{
	static const char ev[] =
	    "{\"Version\":\"0\",\"Type\":\"Task\",\"TaskId\":\"abc123\",\"ClusterName\":\"prod\","
	    "\"AccountID\":\"1\",\"Region\":\"eu-west-1\",\"TaskDefinitionFamily\":\"web\","
	    "\"TaskDefinitionRevision\":\"4\",\"ServiceName\":\"web\",\"KnownStatus\":\"RUNNING\","
	    "\"CreatedAt\":1700000000000,\"PullStartedAt\":1700000010000,"
	    "\"PullStoppedAt\":1700000015500,\"StartedAt\":1700000020000,"
	    "\"Timestamp\":1700000060000,\"CpuReserved\":256.0,\"MemoryReserved\":512}\n"
	    "{\"Version\":\"0\",\"Type\":\"Container\",\"TaskId\":\"abc123\",\"ClusterName\":\"prod\"}\n"
	    "{\"Version\":\"0\",\"Type\":\"Task\",\"TaskId\":\"abc123\",\"ClusterName\":\"prod\","
	    "\"AccountID\":\"1\",\"Region\":\"eu-west-1\",\"TaskDefinitionFamily\":\"web\","
	    "\"TaskDefinitionRevision\":\"4\",\"ServiceName\":\"web\",\"KnownStatus\":\"RUNNING\","
	    "\"CreatedAt\":1700000000000,\"PullStartedAt\":1700000010000,"
	    "\"PullStoppedAt\":1700000015500,\"StartedAt\":1700000020000,"
	    "\"Timestamp\":1700000120000}\n"
	    "{\"Version\":\"0\",\"Type\":\"Task\",\"TaskId\":\"bad\",\"ClusterName\":\"prod\","
	    "\"CreatedAt\":\"yesterday\"}\n";
	struct task_set s;
	struct input_stats st;
	const struct task *t;

	memset(&st, 0, sizeof st);
	task_set_init(&s);
	cr_assert_eq(input_read_mem_with("perf", ev, sizeof ev - 1, &opts, &s, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(s.len, 2);
	t = task_set_find(&s, "arn:aws:ecs:eu-west-1:1:task/prod/abc123");
	cr_assert_not_null(t);
	cr_assert_str_eq(ARN_OF(t), "arn:aws:ecs:eu-west-1:1:task/prod/abc123");
	cr_assert_str_eq(t->prof->taskdef, "web:4");
	cr_assert_str_eq(t->prof->service, "web");
	cr_assert_str_eq(t->prof->cpu, "256");
	cr_assert_eq(task_ts(t, TS_CREATED), 1700000000000);
	cr_assert_eq(task_ts(t, TS_PULL_STOPPED), 1700000015500);
	cr_assert_eq(task_ts(t, TS_STARTED), 1700000020000);
	/* the bad time is left out with a warning naming the field; the task is kept
	 * (issue 10: one bad time costs that field, not the task) */
	cr_assert_eq(st.skipped, 0);
	for (size_t i = 0; i < s.len; i++)
		if (strcmp(task_id(&s.tasks[i]), "bad") == 0)
			t = &s.tasks[i];
	cr_assert_str_eq(task_id(t), "bad", "%s", ARN_OF(t));
	cr_assert_eq(task_ts(t, TS_CREATED), TS_NONE);
	cr_assert(strstr(lastwarn, "perf:4: task prod/bad: ignored CreatedAt: ") != NULL &&
	    strstr(lastwarn, ": ignored CreatedAt: "
	    "expected a time in epoch milliseconds, got \"yesterday\"") != NULL, "%s", lastwarn);
	task_set_cleanup(&s);
}
