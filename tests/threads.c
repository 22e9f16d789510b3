/* The threaded code driven hard, without Criterion (whose process arena ThreadSanitizer
 * breaks: Snaipe/Criterion#274), so that .ci/run can run it under -fsanitize=thread:
 * the fetch pool (many workers, delivery on the calling thread, a failure cancelling
 * the rest, progress read while it runs), the threaded JSON Lines reader (in turns and
 * at offsets: what one thread reads) and the task CSV formatted on two threads (the same
 * bytes as on one; a write error stopping both). Prints TAP; in an ordinary build it is
 * one more test of the same code. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "ecsprof/buf.h"
#include "ecsprof/csv.h"
#include "ecsprof/ecs.h"
#include "ecsprof/input.h"
#include "ecsprof/jsonout.h"
#include "ecsprof/log.h"
#include "ecsprof/report.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

static int ntests, nfailed;

static void
ok(int cond, const char *what)
{
	ntests++;
	if (!cond)
		nfailed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", ntests, what);
}

/* ---- a fake ECS behind the transport: N running tasks, optional failure ---- */

static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t fake_tasks;
static bool fake_fail_describe;   /* the 3rd DescribeTasks answers AccessDenied */
static size_t fake_describes;

static const char *
hdr(const struct http_request *req, const char *name)
{
	for (size_t i = 0; i < req->nheaders; i++)
		if (strcasecmp(req->headers[i].name, name) == 0)
			return req->headers[i].value;
	return NULL;
}

static int
fake_send(void *ctx, const struct http_request *req, struct http_response *resp,
	  struct err *err)
{
	const char *target = hdr(req, "X-Amz-Target");
	json_t *body = json_loadb(req->body, req->body_len, 0, NULL), *out = json_object();
	struct timespec ts = { 0, 1000 * 1000 };
	char *text;

	(void)ctx, (void)err;
	nanosleep(&ts, NULL);   /* let requests overlap */
	resp->status = 200;
	resp->headers = xstrdup("");
	if (target != NULL && strstr(target, ".ListTasks") != NULL) {
		const char *tok = json_string_value(json_object_get(body, "nextToken"));
		size_t start = tok ? strtoul(tok, NULL, 10) : 0;
		json_t *arr = json_array();

		for (size_t i = start; i < fake_tasks && i < start + 100; i++) {
			char arn[96];
			snprintf(arn, sizeof arn, "arn:aws:ecs:us-east-1:1:task/c/t%05zu", i);
			json_array_append_new(arr, json_string(arn));
		}
		json_object_set_new(out, "taskArns", arr);
		if (start + 100 < fake_tasks) {
			char t[32];
			snprintf(t, sizeof t, "%zu", start + 100);
			json_object_set_new(out, "nextToken", json_string(t));
		}
	} else {
		json_t *arr = json_array(), *v;
		size_t i, n;

		pthread_mutex_lock(&fake_lock);
		n = ++fake_describes;
		pthread_mutex_unlock(&fake_lock);
		if (fake_fail_describe && n == 3) {
			resp->status = 400;
			json_object_set_new(out, "__type", json_string("AccessDeniedException"));
		}
		/* as ECS: a task asked by its id is named by its ARN */
		json_array_foreach(json_object_get(body, "tasks"), i, v) {
			const char *a = json_string_value(v);
			char arn[96];

			snprintf(arn, sizeof arn, "%s%s", strncmp(a, "arn:", 4) == 0 ? "" :
				 "arn:aws:ecs:us-east-1:1:task/c/", a);
			json_array_append_new(arr, json_pack("{s:s,s:f,s:s,s:s}", "taskArn", arn,
				"createdAt", 1714557600.0 + (double)i, "lastStatus", "RUNNING",
				"desiredStatus", "RUNNING"));
		}
		json_object_set_new(out, "tasks", arr);
		json_object_set_new(out, "failures", json_array());
	}
	text = json_dumps(out, JSON_COMPACT);
	buf_adds(&resp->body, text);
	free(text);
	json_decref(out);
	json_decref(body);
	return 0;
}

static int
fake_transport_new(void *arg, struct http_transport *out, struct err *err)
{
	(void)arg, (void)err;
	out->send = fake_send;
	out->ctx = NULL;
	return 0;
}

static int
fake_creds(void *arg, struct aws_creds *out, struct err *err)
{
	(void)arg, (void)err;
	memset(out, 0, sizeof *out);
	out->access_key_id = xstrdup("AKIDTEST");
	out->secret_access_key = xstrdup("secret");
	out->expires_ms = TS_NONE;
	out->source = xstrdup("test");
	return 0;
}

struct got {
	pthread_t thread;
	size_t n;
	bool in_order, same_thread;
	struct task_set set;
};

static int
take(void *arg, const char *json, size_t len, int64_t fetched_at_ms, struct err *err)
{
	struct got *g = arg;
	char want[96];

	snprintf(want, sizeof want, "t%05zu\"", g->n);
	if (strstr(json, want) == NULL)
		g->in_order = false;
	if (!pthread_equal(pthread_self(), g->thread))
		g->same_thread = false;
	g->n++;
	return input_parse_task_json(json, len, "live", fetched_at_ms, &g->set, err);
}

static struct ecs_client *
client(long concurrency)
{
	struct ecs_client_options o = { 0 };
	struct ecs_client *c = NULL;
	struct err err;

	o.common.region = "us-east-1";
	o.endpoint = "https://ecs.example.test";
	o.concurrency = concurrency;
	o.common.creds = fake_creds;
	o.transport_new = fake_transport_new;
	err_clear(&err);
	if (ecs_client_new(&o, &c, &err) != 0)
		fprintf(stderr, "%s\n", err.msg);
	return c;
}

static void
fetch_pool(void)
{
	struct ecs_client *c = client(8);
	struct ecs_query q = { .running = true, .since_ms = TS_NONE };
	struct ecs_fetch_stats st;
	struct ecs_fetch *f;
	struct got g = { pthread_self(), 0, true, true, { 0 } };
	struct err err;
	int rc;

	fake_tasks = 2500;
	fake_fail_describe = false;
	task_set_init(&g.set);
	err_clear(&err);
	rc = ecs_fetch_start(c, &q, &f, &err);
	if (rc == 0) {
		while ((rc = ecs_fetch_poll(f, 2, take, &g, &err)) == 1)
			ecs_fetch_progress(f, &st);
		ecs_fetch_free(f);
	}
	if (rc != 0)
		printf("# %s\n", err.msg);
	ok(rc == 0 && g.n == 2500 && g.set.len == 2500, "8 workers: every task, once");
	ok(g.in_order, "... in ListTasks order");
	ok(g.same_thread, "... each handed over on the polling thread");
	task_set_cleanup(&g.set);

	/* a failure while the others run: cancelled, reported once, nothing leaks */
	fake_describes = 0;
	fake_fail_describe = true;
	memset(&g, 0, sizeof g);
	g.thread = pthread_self();
	task_set_init(&g.set);
	err_clear(&err);
	rc = ecs_fetch_tasks(c, &q, take, &g, &st, &err);
	ok(rc == -1 && strstr(err.msg, "AccessDeniedException") != NULL,
	   "a failed DescribeTasks stops the fetch with its own error");
	task_set_cleanup(&g.set);
	ecs_client_free(c);
}

static void
threaded_reader(void)
{
	struct buf b;
	struct task_set set;
	struct input_stats st = { 0 };
	struct err err;
	int rc;

	buf_init(&b, 0);
	for (int i = 0; i < 4000; i++)
		buf_addf(&b, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/r%05d\",\"lastStatus\":"
			 "\"RUNNING\",\"createdAt\":%d.5,\"startedAt\":%d.75,\"version\":%d}\n", i,
			 1714557600 + i, 1714557610 + i, 1 + i % 3);
	task_set_init(&set);
	err_clear(&err);
	/* many small chunks over 4 threads */
	rc = input_read_mem_with("threads.jsonl", buf_str(&b), b.len,
	    &(struct input_options){ .threads = 4, .chunk_bytes = 4096 }, &set, &st, &err);
	ok(rc == 0 && set.len == 4000 && st.tasks == 4000, "JSON Lines over 4 threads: every task");
	task_set_cleanup(&set);
	buf_cleanup(&b);
}

static char *csv_on(const struct report *r, unsigned threads, size_t *len);

static void
warn_into(void *ctx, const char *line)
{
	buf_addf(ctx, "%s\n", line);
}

/* What a read gives: its return, error, warnings and the tasks' CSV, as one text; of
 * the file at path, else of the memory named name. */
static char *
read_named(const char *name, const char *path, const char *text, size_t len,
    struct input_options o)
{
	struct buf out, warns;
	struct task_set set;
	struct input_stats st = { 0 };
	struct report r;
	struct report_options ro = { .sort_col = -1 };
	struct err err;
	char *csv = NULL;
	size_t n = 0;
	int rc;

	buf_init(&out, 0);
	buf_init(&warns, 0);
	o.warn = warn_into;
	o.warn_ctx = &warns;
	task_set_init(&set);
	err_clear(&err);
	rc = path != NULL ? input_read_file_with(path, &o, &set, &st, &err) :
	    input_read_mem_with(name, text, len, &o, &set, &st, &err);
	buf_addf(&out, "rc %d: %s\n%zu tasks, %zu skipped\n%s", rc, rc ? err.msg : "", st.tasks,
	    st.skipped, buf_str(&warns));
	err_clear(&err);
	if (report_build(&r, &set, &ro, &err) == 0) {
		csv = csv_on(&r, 1, &n);
		report_cleanup(&r);
	}
	buf_addf(&out, "%s", csv != NULL ? csv : "(no CSV)");
	free(csv);
	task_set_cleanup(&set);
	buf_cleanup(&warns);
	return buf_take(&out);
}

static char *
read_all(const char *path, const char *text, size_t len, struct input_options o)
{
	return read_named("at.jsonl", path, text, len, o);
}

/* JSON Lines read at offsets by the workers (input_chunk_at(): a regular file, memory
 * read as one) give what one thread reading in order gives: lines across the ranges'
 * edges and over several of them, blank and CRLF lines, warnings and errors with their
 * line numbers, a last line without its line end. */
static void
read_at_offsets(void)
{
	struct buf b;
	char path[] = "/tmp/ecsprof-threads.XXXXXX";
	char *one, *two, *four, *file, *turns;
	int fd;
	static char pad[9001];   /* every 13th line over several ranges */

	memset(pad, 'x', 9000);
	buf_init(&b, INPUT_MAX_LINE * 2);
	for (int i = 0; i < 3000; i++) {
		if (i % 97 == 0)
			buf_addf(&b, "\n   \n");
		if (i % 101 == 0)   /* a warning, with its line number */
			buf_addf(&b, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/w%05d\","
				 "\"lastStatus\":\"RUNNING\",\"createdAt\":\"soon\"}\n", i);
		buf_addf(&b, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/r%05d\",\"lastStatus\":"
			 "\"STOPPED\",\"stoppedReason\":\"%.*s\",\"createdAt\":%d.5,"
			 "\"startedAt\":%d.75}%s", i, i % 13 == 0 ? 9000 : i % 50, pad, 1714557600 + i,
			 1714557610 + i, i % 7 == 0 ? "\r\n" : "\n");
	}
	buf_addf(&b, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/last\",\"lastStatus\":"
		 "\"RUNNING\",\"createdAt\":1714560000}");
	one = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 1,
	    .chunk_bytes = 4096 });
	two = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 2,
	    .chunk_bytes = 4096, .mem_as_file = true });
	four = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 4,
	    .chunk_bytes = 1000, .mem_as_file = true });
	turns = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 2,
	    .chunk_bytes = 1000 });
	ok(strstr(one, "rc 0") == one && strstr(one, "at.jsonl:") != NULL &&
	   strcmp(one, two) == 0 && strcmp(one, four) == 0 && strcmp(one, turns) == 0,
	   "JSON Lines read at offsets by 2 and 4 workers: what one thread reads");
	free(turns);
	fd = mkstemp(path);
	file = NULL;
	if (fd >= 0 && write(fd, buf_str(&b), b.len) == (ssize_t)b.len)
		file = read_named(path, path, NULL, 0, (struct input_options){ .threads = 2,
		    .chunk_bytes = 4096 });
	turns = read_named(path, NULL, buf_str(&b), b.len, (struct input_options){
	    .threads = 1, .chunk_bytes = 4096 });
	ok(file != NULL && strstr(file, path) != NULL && strcmp(turns, file) == 0,
	   "... from a regular file too");
	free(one);
	free(two);
	free(four);
	free(turns);
	free(file);
	/* a malformed line, and a line longer than INPUT_MAX_LINE: the same error, the same
	 * tasks before it */
	b.len -= strlen(strrchr(buf_str(&b), '\n')) - 1;
	buf_addf(&b, "{\"taskArn\": 3,,}\n");
	one = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 1,
	    .chunk_bytes = 4096 });
	two = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 2,
	    .chunk_bytes = 4096, .mem_as_file = true });
	ok(strstr(one, "rc -1: at.jsonl:") == one && strcmp(one, two) == 0,
	   "read at offsets: a malformed line stops it as on one thread");
	free(one);
	free(two);
	b.len -= strlen("{\"taskArn\": 3,,}\n");
	buf_addf(&b, "{\"taskArn\":\"");
	for (size_t n = 0; n <= INPUT_MAX_LINE; n += 64)
		buf_addf(&b, "%064d", 0);
	buf_addf(&b, "\"}\n{}\n");
	one = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 1,
	    .chunk_bytes = 4096 });
	two = read_all(NULL, buf_str(&b), b.len, (struct input_options){ .threads = 2,
	    .chunk_bytes = 4096, .mem_as_file = true });
	ok(strstr(one, "a line longer than") != NULL && strcmp(one, two) == 0,
	   "read at offsets: a line too long stops it as on one thread");
	free(one);
	free(two);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	buf_cleanup(&b);
}

static char *
csv_on(const struct report *r, unsigned threads, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	struct err err;

	err_clear(&err);
	if (f == NULL || csv_write_tasks_threads(f, r, TIME_FORMAT_ISO, threads, &err) != 0) {
		if (f != NULL)
			fclose(f);
		free(out);
		return NULL;
	}
	fclose(f);
	return out;
}

/* The task JSON, formatted in chunks on two threads when there are two CPUs, holds the
 * task lines jsonout_write_task_line writes one at a time, in order; a write that fails
 * at once stops both threads. */
static void
threaded_json(const struct report *r)
{
	char *doc = NULL, *want = NULL;
	size_t doc_len = 0, want_len = 0;
	FILE *f = open_memstream(&doc, &doc_len), *w = open_memstream(&want, &want_len);
	FILE *full;
	char *back = NULL;
	struct err err;
	int rc;

	err_clear(&err);
	rc = f != NULL && w != NULL ? jsonout_write_tasks(f, r, &err) : -1;
	if (w != NULL) {
		fputs("{\"tasks\":[", w);
		for (size_t i = 0; i < r->nrows; i++) {
			fputs(i ? ",\n" : "\n", w);
			jsonout_write_task_line(w, r, &r->rows[i]);
			fseek(w, -1, SEEK_CUR);   /* the line's own newline */
		}
		fputs("\n],\n", w);
		fclose(w);
	}
	if (f != NULL)
		fclose(f);
	ok(rc == 0 && want != NULL && doc != NULL && want_len > r->nrows * 100 &&
	   doc_len > want_len && memcmp(doc, want, want_len) == 0,
	   "task JSON on two threads: the task lines of one thread, in order");
	full = fopen("/dev/full", "w");
	err_clear(&err);
	ok(full != NULL && jsonout_write_tasks(full, r, &err) == -1 && err.code == ERR_IO,
	   "task JSON on two threads: a write error stops both");
	if (full != NULL)
		fclose(full);
	/* into a regular file each thread writes the chunks it formats at their offsets
	 * (rowchunks.c): the same document, the groups after the tasks */
	full = tmpfile();
	err_clear(&err);
	rc = full != NULL ? jsonout_write_tasks(full, r, &err) : -1;
	ok(rc == 0 && fflush(full) == 0 && ftell(full) == (long)doc_len && fseek(full, 0,
	   SEEK_SET) == 0 && (back = malloc(doc_len)) != NULL &&
	   fread(back, 1, doc_len, full) == doc_len && memcmp(back, doc, doc_len) == 0,
	   "task JSON on two threads into a file: the same document");
	free(back);
	if (full != NULL)
		fclose(full);
	free(doc);
	free(want);
}

/* A write that fails in a regular file (past RLIMIT_FSIZE, SIGXFSZ ignored: EFBIG), on
 * either thread as each writes its own chunks there: one error, the write's own. */
static void
file_too_large(const struct report *r)
{
	struct rlimit was, lim;
	void (*old)(int) = signal(SIGXFSZ, SIG_IGN);
	FILE *file = tmpfile();
	struct err err;
	int rc = 0;

	err_clear(&err);
	if (getrlimit(RLIMIT_FSIZE, &was) == 0) {
		lim = was;
		lim.rlim_cur = (rlim_t)1 << 20;   /* some chunks in, on either thread */
		if (file != NULL && setrlimit(RLIMIT_FSIZE, &lim) == 0) {
			rc = csv_write_tasks_threads(file, r, TIME_FORMAT_ISO, 2, &err);
			setrlimit(RLIMIT_FSIZE, &was);
		}
	}
	ok(rc == -1 && err.code == ERR_IO && strstr(err.msg, "csv: write failed: ") == err.msg &&
	   strstr(err.msg, "large") != NULL, "task CSV on two threads into a file past its size "
	   "limit: the write's error");
	if (file != NULL)
		fclose(file);
	signal(SIGXFSZ, old);
}

static void
threaded_csv(void)
{
	struct buf b;
	struct task_set set;
	struct input_stats st = { 0 };
	struct report r;
	struct report_options o = { .sort_col = -1 };
	struct err err;
	/* rows long enough for a CSV past 2 MiB */
	static const char pad[] = "Essential container in task exited: the container ran out of "
				  "memory while it started, and was stopped by the agent";
	char *one, *two, *back = NULL;
	size_t len1 = 0, len2 = 0;
	FILE *full, *file;

	buf_init(&b, 0);
	for (int i = 0; i < 9000; i++)
		buf_addf(&b, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/r%05d\",\"lastStatus\":"
			 "\"STOPPED\",\"stoppedReason\":\"=a, \\\"b\\\"\\n%d %s\",\"createdAt\":%d.5,"
			 "\"startedAt\":%d.75}\n", i, i, pad, 1714557600 + i * 7 % 9000, 1714557610 + i);
	task_set_init(&set);
	err_clear(&err);
	input_read_mem_with("csv.jsonl", buf_str(&b), b.len,
	    &(struct input_options){ .threads = 2 }, &set, &st, &err);
	report_build(&r, &set, &o, &err);
	one = csv_on(&r, 1, &len1);
	two = csv_on(&r, 2, &len2);
	ok(set.len == 9000 && one != NULL && two != NULL && len1 == len2 && len1 > 9000 * 100 &&
	   memcmp(one, two, len1) == 0, "task CSV on two threads: the bytes of one thread");
	/* a regular file: past 2 MiB a syncer thread fdatasyncs it while rows are written
	 * (rowchunks.c); the same bytes */
	file = tmpfile();
	err_clear(&err);
	ok(file != NULL && len2 > ((size_t)2 << 20) &&
	   csv_write_tasks_threads(file, &r, TIME_FORMAT_ISO, 2, &err) == 0 &&
	   fflush(file) == 0 && (size_t)ftell(file) == len2 && fseek(file, 0, SEEK_SET) == 0 &&
	   (back = malloc(len2)) != NULL && fread(back, 1, len2, file) == len2 &&
	   memcmp(back, two, len2) == 0, "task CSV on two threads into a file synced as it "
	   "grows: the same bytes");
	if (file != NULL)
		fclose(file);
	free(back);
	/* a write that fails at once stops the second thread wherever it is */
	full = fopen("/dev/full", "w");
	err_clear(&err);
	ok(full != NULL && csv_write_tasks_threads(full, &r, TIME_FORMAT_ISO, 2, &err) == -1 &&
	   err.code == ERR_IO, "task CSV on two threads: a write error stops both");
	if (full != NULL)
		fclose(full);
	file_too_large(&r);
	threaded_json(&r);
	free(one);
	free(two);
	report_cleanup(&r);
	task_set_cleanup(&set);
	buf_cleanup(&b);
}

int
main(void)
{
	printf("1..16\n");
	fetch_pool();
	threaded_reader();
	read_at_offsets();
	threaded_csv();
	return nfailed > 0;
}
