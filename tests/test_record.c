/* Tests for record.c: the recording line, and merging into a file without losing,
 * duplicating or corrupting anything. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/xalloc.h"

static char dir[64];
static char path[128];
static struct err err;

static void
setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/ecsprof-record-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/rec.jsonl", dir);
	err_clear(&err);
}

static void
teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[400];

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

TestSuite(record, .init = setup, .fini = teardown);

static char *
slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	char *s;
	long n;

	cr_assert_not_null(f, "%s", p);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = xmalloc((size_t)n + 1);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return s;
}

static void
spit(const char *p, const char *s)
{
	FILE *f = fopen(p, "wb");

	cr_assert_not_null(f);
	fputs(s, f);
	fclose(f);
}

static size_t
files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

/* a recording line for task ID at version v (v < 0: no version), fetched at ms */
static char *
line_for(const char *id, int v, int64_t fetched_ms)
{
	char raw[300];
	char *l;

	if (v >= 0)
		snprintf(raw, sizeof raw, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/%s\","
		    "\"version\":%d,\"createdAt\":1.7145576E9,\"lastStatus\":\"S%d\"}", id, v, v);
	else
		snprintf(raw, sizeof raw, "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/%s\","
		    "\"createdAt\":1714557600}", id);
	l = record_line_new(raw, strlen(raw), "us-east-1", "c", fetched_ms, &err);
	cr_assert_not_null(l, "%s", err.msg);
	return l;
}

static void
free_lines(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
}

Test(record, line_format_and_read_back)
{
	const char raw[] = "  {\n  \"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/abc\",\n"
		"  \"version\": 3,\r\n  \"createdAt\": 1.557134011644E9\n}\n";
	char *l = record_line_new(raw, sizeof raw - 1, "us-east-1", "prod", 1714557620500LL, &err);

	cr_assert_not_null(l, "%s", err.msg);
	cr_expect_str_eq(l, "{\"ecsprof\":\"record/1\",\"fetched_at\":\"2024-05-01T10:00:20.500Z\","
	    "\"region\":\"us-east-1\",\"cluster\":\"prod\",\"source\":\"live\",\"task\":{   "
	    "\"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/abc\",   \"version\": 3,    "
	    "\"createdAt\": 1.557134011644E9 }}");

	struct task_set set;
	struct input_stats st = { 0 };

	task_set_init(&set);
	cr_assert_eq(input_read_mem("rec", l, strlen(l), &set, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(set.len, 1);
	cr_expect_eq(task_ts(&set.tasks[0], TS_FETCHED), 1714557620500LL);
	cr_expect_eq(task_ts(&set.tasks[0], TS_CREATED), 1557134011644LL);
	cr_expect_eq(st.records, 1);
	task_set_cleanup(&set);
	free(l);
}

Test(record, line_escapes_names)
{
	const char raw[] = "{\"taskArn\":\"arn:x\"}";
	char *l = record_line_new(raw, sizeof raw - 1, NULL, "we\"ird\n\\name", 1000, &err);
	struct input_key k;

	cr_assert_not_null(l, "%s", err.msg);
	cr_expect(strstr(l, "\"region\":\"\",\"cluster\":\"we\\\"ird\\u000a\\\\name\"") != NULL, "%s",
	    l);
	cr_expect_eq(input_peek_record(l, strlen(l), &k, &err), 0, "%s", err.msg);
	input_key_cleanup(&k);
	free(l);
}

Test(record, line_refuses_bad_tasks)
{
	cr_expect_null(record_line_new("[1]", 3, "r", "c", 1000, &err));
	cr_expect_null(record_line_new("{\"version\":1}", 13, "r", "c", 1000, &err));
	cr_expect(strstr(err.msg, "taskArn") != NULL, "%s", err.msg);
	cr_expect_null(record_line_new("{\"taskArn\":\"a\"", 14, "r", "c", 1000, &err));
	cr_expect_null(record_line_new("{\"taskArn\":\"a\"}", 15, "r", "c", TS_NONE, &err));
}

/* record_line_new_key gives the key input_peek_record reads from its line, so
 * record_merge_keyed, which does not read the line again, merges as record_merge_file
 * does; a key it lacks (arn NULL) is read from the line; bad tasks word the same error. */
Test(record, keyed_lines_merge_as_read_ones)
{
	const char raw[] = "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/k\",\"version\":4}";
	struct input_key k, want;
	char *l = record_line_new_key(raw, sizeof raw - 1, "r", "c", 2000, &k, &err);
	char path2[160];

	cr_assert_not_null(l, "%s", err.msg);
	cr_assert_eq(input_peek_record(l, strlen(l), &want, &err), 0, "%s", err.msg);
	cr_expect_str_eq(k.arn, want.arn);
	cr_expect_eq(k.has_version, want.has_version);
	cr_expect_eq(k.version, 4);
	cr_expect_eq(k.fetched_at_ms, want.fetched_at_ms);
	input_key_cleanup(&want);

	/* lines a and the keyed one, then b unkeyed: the same file as the plain merge */
	char *lines[3] = { line_for("a", 1, 1000), l, line_for("b", 2, 1000) };
	struct input_key keys[3] = { { 0 }, k, { 0 } };
	size_t added = 0, updated = 0, n1, n2;

	cr_assert_eq(record_merge_keyed(NULL, path, lines, keys, 3, &added, &updated, &err), 0, "%s",
	    err.msg);
	cr_expect_eq(added, 3);
	cr_expect_null(keys[1].arn, "the key is taken");
	snprintf(path2, sizeof path2, "%s/plain.jsonl", dir);
	cr_assert_eq(record_merge_file(NULL, path2, lines, 3, NULL, NULL, &err), 0, "%s", err.msg);
	char *a = slurp(path, &n1), *b = slurp(path2, &n2);
	cr_expect_eq(n1, n2);
	cr_expect_eq(memcmp(a, b, n1), 0);
	free(a);
	free(b);
	free_lines(lines, 3);

	/* a task without taskArn: the raw task's own error, as record_line_new gave it */
	cr_expect_null(record_line_new_key("{\"version\":1}", 13, "r", "c", 1000, &k, &err));
	cr_expect_str_eq(err.msg, "task: taskArn: missing");
	cr_expect_null(k.arn);
}

/* input_peek_built_record() (the key read from the raw task without a DOM) answers as
 * input_peek_record() of the built line does, plain or odd. */
Test(record, built_line_key_is_the_read_key)
{
	static const char *raws[] = {
		"{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/a\",\"version\":3,\"x\":[1.5,{\"y\":null}]}",
		"{\"version\":-0,\"taskArn\":\"arn:a\"}",
		"{\"taskArn\":\"arn:\\/a\",\"version\":1}",
		"{\"taskArn\":\"arn:a\",\"version\":\"3\"}",
		"{\"taskArn\":\"arn:a\",\"version\":null}",
		"{\"taskArn\":\"arn:a\",\"version\":2.0}",
		"{\"taskArn\":\"arn:a\",\"taskArn\":\"arn:b\"}",
		"{\"taskArn\":\"arn:a\",\"version\":1,\"version\":2}",
		"{\"taskArn\":7}",
		"{\"version\":1}",
		"{\"taskArn\":\"arn:a\",\"o\":{\"k\":1,\"k\":2}}",
		"  {\"taskArn\" : \"arn:a\" , \"version\" : 9 }  ",
	};

	for (size_t i = 0; i < sizeof raws / sizeof *raws; i++) {
		const char *raw = raws[i];
		struct input_key a, b;
		struct err ea, eb;
		char line[600];
		int ra, rb;

		/* the line record_line_new builds (trimmed; no line breaks here) */
		size_t s = strspn(raw, " "), n = strlen(raw);

		while (n > s && raw[n - 1] == ' ')
			n--;
		snprintf(line, sizeof line, "{\"ecsprof\":\"record/1\",\"fetched_at\":"
		    "\"2024-05-01T10:00:20.500Z\",\"region\":\"r\",\"cluster\":\"c\",\"source\":"
		    "\"live\",\"task\":%.*s}", (int)(n - s), raw + s);
		err_clear(&ea);
		err_clear(&eb);
		ra = input_peek_built_record(line, strlen(line), raw + s, n - s, 1714557620500LL,
		    &a, &ea);
		rb = input_peek_record(line, strlen(line), &b, &eb);
		cr_expect_eq(ra, rb, "%s: %d, read %d (%s)", raw, ra, rb, eb.msg);
		if (ra == 0 && rb == 0) {
			cr_expect_str_eq(a.arn, b.arn, "%s", raw);
			cr_expect_eq(a.has_version, b.has_version, "%s", raw);
			cr_expect_eq(a.version, b.version, "%s", raw);
			cr_expect_eq(a.fetched_at_ms, b.fetched_at_ms, "%s", raw);
		} else {
			cr_expect_str_eq(ea.msg, eb.msg, "%s", raw);
		}
		input_key_cleanup(&a);
		input_key_cleanup(&b);
	}
}

Test(record, create_then_same_again_is_byte_identical)
{
	char *l[3] = { line_for("a", 1, 1000), line_for("b", 2, 1000), line_for("c", 1, 1000) };
	size_t added = 99, updated = 99, n1, n2;
	struct stat s1, s2;

	cr_assert_eq(record_merge_file(NULL, path, l, 3, &added, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(added, 3);
	cr_expect_eq(updated, 0);
	char *first = slurp(path, &n1);
	char expect[2048];
	snprintf(expect, sizeof expect, "%s\n%s\n%s\n", l[0], l[1], l[2]);
	cr_expect_str_eq(first, expect);
	cr_assert_eq(stat(path, &s1), 0);

	/* the same tasks fetched again later: same versions, so nothing changes */
	char *again[3] = { line_for("c", 1, 5000), line_for("a", 1, 5000), line_for("b", 2, 5000) };
	cr_assert_eq(record_merge_file(NULL, path, again, 3, &added, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(added, 0);
	cr_expect_eq(updated, 0);
	char *second = slurp(path, &n2);
	cr_expect_eq(n1, n2);
	cr_expect_eq(memcmp(first, second, n1), 0);
	cr_assert_eq(stat(path, &s2), 0);
	cr_expect_eq(s1.st_ino, s2.st_ino, "an unchanged recording must not be rewritten");
	cr_expect_eq(files_in_dir(), 1);
	free(first);
	free(second);
	free_lines(l, 3);
	free_lines(again, 3);
}

Test(record, newer_versions_replace_in_place_and_new_tasks_append)
{
	char *l[2] = { line_for("a", 1, 1000), line_for("b", 5, 1000) };
	char *m[4] = { line_for("b", 4, 9000), line_for("a", 3, 2000), line_for("d", 1, 2000),
		line_for("a", 2, 3000) };
	size_t added, updated;

	cr_assert_eq(record_merge_file(NULL, path, l, 2, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(record_merge_file(NULL, path, m, 4, &added, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(added, 1);
	cr_expect_eq(updated, 1);
	char *got = slurp(path, NULL);
	char expect[2048];
	/* a: v3 replaces v1 where it was (v2 came later but is older); b: v5 stays; d appended */
	snprintf(expect, sizeof expect, "%s\n%s\n%s\n", m[1], l[1], m[2]);
	cr_expect_str_eq(got, expect);
	cr_expect_eq(files_in_dir(), 1);
	free(got);
	free_lines(l, 2);
	free_lines(m, 4);
}

Test(record, without_versions_later_fetch_wins)
{
	char *l[1] = { line_for("n", -1, 1000) };
	char *m[1] = { line_for("n", -1, 2000) };
	char *o[1] = { line_for("n", -1, 1500) };
	size_t updated;

	cr_assert_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(record_merge_file(NULL, path, m, 1, NULL, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(updated, 1);
	cr_assert_eq(record_merge_file(NULL, path, o, 1, NULL, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(updated, 0);
	char *got = slurp(path, NULL);
	char expect[1024];
	snprintf(expect, sizeof expect, "%s\n", m[0]);
	cr_expect_str_eq(got, expect);
	free(got);
	free_lines(l, 1);
	free_lines(m, 1);
	free_lines(o, 1);
}

Test(record, refuses_a_file_that_is_not_a_recording)
{
	const char *others[] = {
		"{\"tasks\":[{\"taskArn\":\"arn:x\"}],\"failures\":[]}\n",
		"{\n  \"tasks\": []\n}\n",
		"hello world\n",
		"{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:x\"}}\nnot json\n",
	};
	char *l[1] = { line_for("a", 1, 1000) };

	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		spit(path, others[i]);
		err_clear(&err);
		cr_expect_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), -1, "case %zu", i);
		cr_expect(strstr(err.msg, "refusing to overwrite") != NULL, "%s", err.msg);
		cr_expect(strncmp(err.msg, path, strlen(path)) == 0, "%s", err.msg);
		char *after = slurp(path, NULL);
		cr_expect_str_eq(after, others[i], "the file must be left alone");
		free(after);
		cr_expect_eq(files_in_dir(), 1);
	}
	free_lines(l, 1);
}

Test(record, keeps_mode_and_reads_back_as_newest)
{
	char *l[2] = { line_for("a", 1, 1000), line_for("b", 1, 1000) };
	char *m[1] = { line_for("a", 2, 2000) };
	struct stat sb;

	cr_assert_eq(record_merge_file(NULL, path, l, 2, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(chmod(path, 0600), 0);
	cr_assert_eq(record_merge_file(NULL, path, m, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(path, &sb), 0);
	cr_expect_eq(sb.st_mode & 0777, 0600);

	struct task_set set;
	struct input_stats st = { 0 };

	task_set_init(&set);
	cr_assert_eq(input_read_file(path, &set, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(set.len, 2);
	cr_expect_str_eq(task_id(&set.tasks[0]), "a");
	cr_expect_eq(set.tasks[0].version, 2);
	cr_expect_str_eq(set.tasks[0].prof->last_status, "S2");
	cr_expect_eq(task_ts(&set.tasks[0], TS_FETCHED), 2000);
	task_set_cleanup(&set);
	free_lines(l, 2);
	free_lines(m, 1);
}

Test(record, refuses_bad_lines_and_missing_directory)
{
	char *bad[1] = { xstrdup("{\"not\":\"a record\"}") };
	char *l[1] = { line_for("a", 1, 1000) };

	cr_expect_eq(record_merge_file(NULL, path, bad, 1, NULL, NULL, &err), -1);
	cr_expect_eq(access(path, F_OK), -1, "nothing written");
	cr_expect_eq(record_merge_file(NULL, "/nonexistent-dir-ecsprof/x.jsonl", l, 1, NULL, NULL, &err),
	    -1);
	cr_expect_eq(err.code, ERR_IO);
	free_lines(bad, 1);
	free_lines(l, 1);
}

Test(record, empty_recording_created)
{
	cr_assert_eq(record_merge_file(NULL, path, NULL, 0, NULL, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(access(path, F_OK), 0);
	struct stat sb;
	cr_assert_eq(stat(path, &sb), 0);
	cr_expect_eq(sb.st_size, 0);
}

/* A rename over /dev/null or a FIFO would replace the device with a regular file. */
Test(record, refuses_a_fifo_and_leaves_it)
{
	struct stat sb;
	char *l[1] = { line_for("a", 1, 1000) };

	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_expect_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), -1);
	cr_expect(strstr(err.msg, "not a regular file") != NULL, "%s", err.msg);
	cr_assert_eq(stat(path, &sb), 0);
	cr_expect(S_ISFIFO(sb.st_mode), "the FIFO must still be a FIFO");
	free_lines(l, 1);
}

/* Two record runs appending to one file at once: neither may lose the other's tasks. */
Test(record, concurrent_writers_lose_nothing)
{
	enum { WRITERS = 3, EACH = 25 };
	pid_t pids[WRITERS];

	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		cr_assert_neq(pids[w], -1);
		if (pids[w] == 0) {
			for (int i = 0; i < EACH; i++) {
				char id[32];
				struct err e;

				snprintf(id, sizeof id, "w%d-%02d", w, i);
				char *l[1] = { line_for(id, 1, 1000) };
				err_clear(&e);
				if (record_merge_file(NULL, path, l, 1, NULL, NULL, &e) != 0)
					_exit(1);
				free_lines(l, 1);
			}
			_exit(0);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		int st;

		cr_assert_eq(waitpid(pids[w], &st, 0), pids[w]);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer %d failed", w);
	}
	size_t len;
	char *all = slurp(path, &len);
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += all[i] == '\n';
	cr_expect_eq(lines, (size_t)WRITERS * EACH, "%zu of %d tasks survived", lines,
		     WRITERS * EACH);
	free(all);
}

/* issue 10, item 6: a recording holds container environment overrides; a new one follows
 * the umask and is never wider than 0600 (it was 0644 whatever the umask) */
Test(record, new_recording_is_private)
{
	char *l[1] = { line_for("a", 1, 1000) };
	struct stat sb;
	mode_t old = umask(022);

	cr_assert_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(path, &sb), 0);
	cr_expect_eq(sb.st_mode & 07777, 0600, "mode %o", sb.st_mode & 07777);
	unlink(path);
	umask(0277);
	cr_assert_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(path, &sb), 0);
	cr_expect_eq(sb.st_mode & 07777, 0400, "the umask counts: mode %o", sb.st_mode & 07777);
	umask(old);
	chmod(path, 0600);
	free_lines(l, 1);
}

/* issue 10, item 1: record -o LINK updated the link's name (the rename replaced the link
 * with a new file, so the recording forked in two). It must update the real file, and
 * take its turn on the real file's directory. */
Test(record, symlink_updates_the_real_file_under_its_directory_lock)
{
	char other[192], link[256], real_lines[2048];
	char *l[1] = { line_for("a", 1, 1000) }, *m[1] = { line_for("b", 1, 1000) };
	struct stat sb;
	int lock_fd, st;
	pid_t pid;

	snprintf(other, sizeof other, "%s/other", dir);
	cr_assert_eq(mkdir(other, 0700), 0);
	snprintf(link, sizeof link, "%s/link.jsonl", other);
	cr_assert_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(symlink(path, link), 0);

	/* hold the lock of the real file's directory: a writer through the link must wait */
	lock_fd = open(dir, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(lock_fd, 0);
	cr_assert_eq(flock(lock_fd, LOCK_EX), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct err e;
		err_clear(&e);
		_exit(record_merge_file(NULL, link, m, 1, NULL, NULL, &e) == 0 ? 0 : 1);
	}
	usleep(300 * 1000);
	cr_expect_eq(waitpid(pid, &st, WNOHANG), 0,
		     "a writer through the link did not wait for the real directory's lock");
	flock(lock_fd, LOCK_UN);
	close(lock_fd);
	waitpid(pid, &st, 0);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	cr_assert_eq(lstat(link, &sb), 0);
	cr_expect(S_ISLNK(sb.st_mode), "the link is still a link");
	char *got = slurp(path, NULL);
	snprintf(real_lines, sizeof real_lines, "%s\n%s\n", l[0], m[0]);
	cr_expect_str_eq(got, real_lines, "the real file holds both tasks");
	free(got);
	unlink(link);
	rmdir(other);
	free_lines(l, 1);
	free_lines(m, 1);
}

/* A poll saw the task turn HEALTHY (watch --record, experiment --until healthy); a later
 * line of it without healthy_at (StopTask's answer, a later `record`) replaces the state
 * but keeps what the poll saw, and the reader still finds it. */
Test(record, newer_line_keeps_the_observed_healthy_at)
{
	char *l[1] = { record_line_add_healthy(line_for("h", 1, 1000), 1714557700000, 1500) };
	char *m[1] = { line_for("h", 2, 2000) };
	char *got, *want;
	size_t updated, len;

	cr_assert_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(record_merge_file(NULL, path, m, 1, NULL, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(updated, 1);
	got = slurp(path, NULL);
	len = strlen(m[0]);
	want = record_line_keep_healthy(xstrdup(m[0]), &len, l[0], strlen(l[0]));
	cr_expect(strstr(want, "\"lastStatus\":\"S2\"") != NULL, "%s", want);
	cr_expect(strstr(want, ",\"healthy_at\":\"2024-05-01T10:01:40.000Z\","
			       "\"healthy_resolution_ms\":1500,\"task\":") != NULL, "%s", want);
	cr_expect_eq(len, strlen(want));
	cr_expect_eq(strncmp(got, want, len), 0, "file: %s\nwant: %s", got, want);
	/* read back: observed, with its resolution */
	struct task_set s;
	task_set_init(&s);
	cr_assert_eq(input_read_file(path, &s, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(s.len, 1);
	cr_expect_eq(task_ts(&s.tasks[0], TS_HEALTHY), 1714557700000);
	cr_expect(s.tasks[0].healthy_observed);
	cr_expect_eq(s.tasks[0].healthy_resolution_ms, 1500);
	/* a newer line that has its own healthy_at keeps its own */
	char *n = record_line_add_healthy(line_for("h", 3, 3000), 1714557800000, 10);
	size_t nlen = strlen(n);
	char *kept = record_line_keep_healthy(xstrdup(n), &nlen, l[0], strlen(l[0]));
	cr_expect_str_eq(kept, n);
	task_set_cleanup(&s);
	free(kept);
	free(n);
	free(want);
	free(got);
	free_lines(l, 1);
	free_lines(m, 1);
}

static void
drop_warn(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
}

/* issue 10 item 10, "record accepts lines report refuses": one validator decides for both
 * (input_record_line_check, report's own line reader). A line over INPUT_MAX_LINE in a
 * recording was kept by record (getline has no limit) while report stopped on it. */
Test(record, keeps_no_line_report_cannot_read)
{
	static const char head[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":"
	    "\"2026-01-02T03:04:05.678Z\",\"task\":{\"taskArn\":\"arn:big\"";
	size_t n = INPUT_MAX_LINE + 10, len;
	char *big = xmalloc(n + 4);
	char *l[1] = { line_for("a", 1, 1000) };
	char *before, *after;
	FILE *f;
	struct task_set set;
	struct input_stats st;
	struct input_options quiet = { .warn = drop_warn };

	memcpy(big, head, sizeof head - 1);
	memset(big + sizeof head - 1, ' ', n - (sizeof head - 1));
	memcpy(big + n, "}}\n", 4);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	fprintf(f, "%s\n", l[0]);
	fputs(big, f);
	fclose(f);
	/* report refuses it ... */
	task_set_init(&set);
	memset(&st, 0, sizeof st);
	cr_expect_eq(input_read_file_with(path, &quiet, &set, &st, &err), -1);
	cr_expect(strstr(err.msg, "a line longer than 64 MiB") != NULL, "%s", err.msg);
	task_set_cleanup(&set);
	/* ... so record refuses to keep it, and leaves the file as it was */
	before = slurp(path, &len);
	err_clear(&err);
	cr_expect_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), -1);
	cr_expect(strstr(err.msg, ":2: recording line: longer than 64 MiB, which report cannot "
	    "read") != NULL, "%s", err.msg);
	after = slurp(path, NULL);
	cr_expect(memcmp(before, after, len) == 0, "the file must be left alone");
	/* and never writes one either */
	big[n + 2] = '\0';
	err_clear(&err);
	cr_expect_eq(input_peek_record(big, n + 2, &(struct input_key){ 0 }, &err), -1);
	cr_expect(strstr(err.msg, "longer than 64 MiB") != NULL, "%s", err.msg);
	free(before);
	free(after);
	free(big);
	free_lines(l, 1);
}

/* Every line record takes is one report reads without stopping (a task it skips is still
 * read, with a warning: the raw JSON stays in the recording as evidence). */
Test(record, what_record_takes_report_reads)
{
	static const char *const lines[] = {
		"{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-01-02T03:04:05.678Z\",\"task\":{\"taskArn\":\"arn:1\"}}",
		"{\"ecsprof\":\"record/1\",\"fetched_at\":12,\"task\":{\"taskArn\":\"arn:2\",\"lastStatus\":5}}",
		"{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:3\",\"containers\":5}}",
		"{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:4\",\"taskArn\":\"arn:5\"}}",
		"{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:6\"},\"healthy_at\":\"zz\"}",
		("{\"ecsprof\":\"record/1\",\"fetched_at\":\"2026-01-02T03:04:05.678Z\",\"image\":"
		 "{\"digest\":\"sha256:a\",\"platform\":\"linux/amd64\"}}"),
		"{\"ecsprof\":\"record/2\",\"task\":{\"taskArn\":\"arn:7\"}}",
		"{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:8\"},\"task\":5}",
		"[{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:9\"}}]",
		"{\"ecsprof\":\"record/1\",\"task\":{\"lastStatus\":\"RUNNING\"}}",
		"{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":\"arn:10\",\"version\":\"x\"}}",
		"{\"ecsprof\":\"record/1\",\"task\":5}",
		"{\"ecsprof\":\"record/1\"}",
		"{\"ecsprof\":\"record/2\",\"task\":{}}",
	};
	static const char ok[] = "{\"taskArn\":\"arn:ok\"}\n";

	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct input_key k;
		struct task_set set;
		struct input_stats st;
		struct input_options quiet = { .warn = drop_warn };
		char *doc = xasprintf("%s%s\n", ok, lines[i]);

		int rc;

		err_clear(&err);
		/* 1: kept in the file as it is (a line naming no task it could merge by) */
		if ((rc = input_peek_record(lines[i], strlen(lines[i]), &k, &err)) < 0) {
			free(doc);
			continue;
		}
		if (rc == 0)
			input_key_cleanup(&k);
		task_set_init(&set);
		memset(&st, 0, sizeof st);
		cr_expect_eq(input_read_mem_with("m", doc, strlen(doc), &quiet, &set, &st, &err), 0,
		    "line %zu: record takes it, report refuses it: %s", i, err.msg);
		task_set_cleanup(&set);
		free(doc);
	}
}

/* A bad fetched_at in a line of the file: dropped (the line kept, as report keeps its
 * task), where record refused to overwrite the file before */
Test(record, bad_fetched_at_in_the_file_is_kept)
{
	static const char old[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":\"soon\","
	    "\"task\":{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/z\"}}\n";
	char *l[1] = { line_for("a", 1, 1000) };
	size_t added = 0;
	char *after;
	struct input_key k;

	spit(path, old);
	cr_assert_eq(record_merge_file(NULL, path, l, 1, &added, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(added, 1);
	after = slurp(path, NULL);
	cr_expect(strncmp(after, old, sizeof old - 1) == 0, "%s", after);
	free(after);
	cr_assert_eq(input_peek_record(old, sizeof old - 2, &k, &err), 0, "%s", err.msg);
	cr_expect_eq(k.fetched_at_ms, TS_NONE);
	input_key_cleanup(&k);
	free_lines(l, 1);
}

/* issue 10: a line whose task has no readable identity (no taskArn, a version that is no
 * number, no task object) made record refuse to rewrite the whole file ('refusing to
 * overwrite a file that is not an ecsprof recording'), though report reads the file (and
 * skips such a task, or keeps it without an ARN): record keeps such a line where it is, as
 * it is, says so once, and merges the rest */
static char *warned[8];
static size_t nwarned;

static void
warn_sink(enum log_level level, const char *line, void *ctx)
{
	(void)ctx;
	if (level == LOG_WARN && nwarned < 8)
		warned[nwarned++] = xstrdup(line);
}

Test(record, a_line_naming_no_task_is_kept_as_it_is)
{
	static const char noarn[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":"
	    "\"2026-01-02T03:04:05.678Z\",\"task\":{\"lastStatus\":\"RUNNING\"}}";
	static const char badver[] = "{\"ecsprof\":\"record/1\",\"task\":{\"taskArn\":"
	    "\"arn:aws:ecs:us-east-1:1:task/c/v\",\"version\":\"x\"}}";
	static const char notask[] = "{\"ecsprof\":\"record/1\",\"task\":5}";
	char *old = line_for("a", 1, 1000), *doc, *after, *want;
	char *l[2] = { line_for("a", 2, 2000), line_for("b", 1, 2000) };
	size_t added = 0, updated = 0;
	struct task_set set;
	struct input_stats st = { 0 };
	struct input_options quiet = { .warn = drop_warn };

	doc = xasprintf("%s\n%s\n%s\n%s\n", noarn, old, badver, notask);
	spit(path, doc);
	/* report reads the file: task a, the task without a taskArn (as it is), the other
	 * two skipped with warnings */
	task_set_init(&set);
	cr_expect_eq(input_read_file_with(path, &quiet, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(set.len, 2);
	cr_expect_eq(st.skipped, 2);
	task_set_cleanup(&set);
	/* so record merges into it, keeping every line it cannot merge by, in place */
	struct log lg;

	log_init(&lg, 0, warn_sink, NULL);
	cr_assert_eq(record_merge_file(&lg, path, l, 2, &added, &updated, &err), 0, "%s", err.msg);
	log_cleanup(&lg);
	cr_expect_eq(added, 1);
	cr_expect_eq(updated, 1);
	after = slurp(path, NULL);
	want = xasprintf("%s\n%s\n%s\n%s\n%s\n", noarn, l[0], badver, notask, l[1]);
	cr_expect_str_eq(after, want);
	cr_assert_eq(nwarned, 1);
	cr_expect(strstr(warned[0], "rec.jsonl:1: recording line: taskArn: missing: the line is "
	    "kept as it is, merged with nothing") != NULL, "%s", warned[0]);
	cr_expect(strstr(warned[0], "and so are 2 more such lines") != NULL, "%s", warned[0]);
	/* a line of the file that report stops on still stops record */
	spit(path, "{\"ecsprof\":\"record/2\",\"task\":{}}\n");
	cr_expect_eq(record_merge_file(NULL, path, l, 2, NULL, NULL, &err), -1);
	cr_expect(strstr(err.msg, "refusing to overwrite") != NULL, "%s", err.msg);
	for (size_t i = 0; i < nwarned; i++)
		free(warned[i]);
	free(doc);
	free(after);
	free(want);
	free(old);
	free_lines(l, 2);
}

/* issue 31: record refused to rewrite a file holding a line that report only skips (an
 * EventBridge event of another kind, a Container Insights event that is not a task's, an
 * answer with only a failure): such a line is kept as it is, as report reads past it; a
 * line report takes a task from without being a recording line still stops record (a
 * data file, not a recording) */
Test(record, a_line_report_only_skips_is_kept)
{
	static const char other_event[] = "{\"version\":\"0\",\"detail-type\":\"ECS Container "
	    "Instance State Change\",\"source\":\"aws.ecs\",\"detail\":{\"status\":\"ACTIVE\"}}";
	static const char insights[] = "{\"Type\":\"Container\",\"Version\":\"0\","
	    "\"ClusterName\":\"c\",\"TaskId\":\"t\",\"Timestamp\":1714557600000}";
	static const char only_failure[] = "{\"tasks\":[],\"failures\":[{\"arn\":\"arn:x\","
	    "\"reason\":\"MISSING\"}]}";
	char *old = line_for("a", 1, 1000), *doc, *after, *want;
	char *l[1] = { line_for("b", 1, 2000) };
	struct task_set set;
	struct input_stats st = { 0 };
	struct input_options quiet = { .warn = drop_warn };

	doc = xasprintf("%s\n%s\n%s\n%s\n", other_event, old, insights, only_failure);
	spit(path, doc);
	task_set_init(&set);
	cr_expect_eq(input_read_file_with(path, &quiet, &set, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(set.len, 1, "report reads the file, task a");
	task_set_cleanup(&set);
	struct log lg;

	log_init(&lg, 0, warn_sink, NULL);
	nwarned = 0;
	cr_assert_eq(record_merge_file(&lg, path, l, 1, NULL, NULL, &err), 0, "%s", err.msg);
	log_cleanup(&lg);
	after = slurp(path, NULL);
	want = xasprintf("%s%s\n", doc, l[0]);
	cr_expect_str_eq(after, want);
	cr_expect_eq(nwarned, 1);
	if (nwarned > 0)
		cr_expect(strstr(warned[0], "rec.jsonl:1: not a recording line, which report skips")
		    != NULL, "%s", warned[0]);
	for (size_t i = 0; i < nwarned; i++)
		free(warned[i]);
	nwarned = 0;
	free(after);
	free(want);
	/* a task line is data, not a recording: refused, the file left alone */
	free(doc);
	doc = xasprintf("%s\n{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/z\",\"createdAt\":1}\n",
	    old);
	spit(path, doc);
	cr_expect_eq(record_merge_file(NULL, path, l, 1, NULL, NULL, &err), -1);
	cr_expect(strstr(err.msg, "refusing to overwrite") != NULL, "%s", err.msg);
	after = slurp(path, NULL);
	cr_expect_str_eq(after, doc);
	free(after);
	free(doc);
	free(old);
	free_lines(l, 1);
}

/* issue 31: a deployment or service-event line whose fetched_at is no time keeps the line
 * (report reads it, warning that the field is left out, as for a task line); record merges
 * into the file, and a fresh observation of the same deployment, with a time, replaces the
 * one whose time was dropped (it was kept for ever: no time is never older) */
Test(record, deployment_and_event_lines_with_a_bad_fetched_at)
{
	static const char dep_bad[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":\"soon\","
	    "\"service\":\"web\",\"deployment\":{\"id\":\"ecs-svc/1\",\"status\":\"PRIMARY\","
	    "\"rolloutState\":\"IN_PROGRESS\",\"createdAt\":\"2026-11-30T14:00:00Z\"}}";
	static const char ev_bad[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":17,"
	    "\"service\":\"web\",\"event\":{\"id\":\"e-1\",\"createdAt\":"
	    "\"2026-11-30T14:01:00Z\",\"message\":\"(service web) has reached a steady state.\"}}";
	static const char dep_new[] = "{\"ecsprof\":\"record/1\",\"fetched_at\":"
	    "\"2026-11-30T14:05:00.000Z\",\"service\":\"web\",\"deployment\":{\"id\":\"ecs-svc/1\","
	    "\"status\":\"PRIMARY\",\"rolloutState\":\"COMPLETED\",\"createdAt\":"
	    "\"2026-11-30T14:00:00Z\"}}";
	char *doc = xasprintf("%s\n%s\n", dep_bad, ev_bad), *after, *want;
	char *l[1] = { xstrdup(dep_new) };
	size_t added = 0, updated = 0;

	spit(path, doc);
	cr_assert_eq(record_merge_file(NULL, path, l, 1, &added, &updated, &err), 0, "%s", err.msg);
	cr_expect_eq(added, 0);
	cr_expect_eq(updated, 1);
	after = slurp(path, NULL);
	want = xasprintf("%s\n%s\n", dep_new, ev_bad);
	cr_expect_str_eq(after, want);
	free(after);
	free(want);
	free(doc);
	free_lines(l, 1);
}
