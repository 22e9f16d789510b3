/* Unit tests for ecs_scan.c: every task it reads from a DescribeTasks answer must be the
 * task's bytes as the answer holds them (what the fetch hands over and recordings keep),
 * which jansson reads as the same task as json_loadb(answer) gives, with the taskArn and
 * createdAt ecs_json_time() reads; and every answer it is not sure of it gives up (1),
 * never reading one jansson refuses. Handwritten answers, then random ones. Each answer is
 * scanned again with a reader (ecs_task_reader) that reads every other task and gives up
 * the others part way in: the same answer comes out, the tasks it gave up as text. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/jsonscan.h"
#include "ecsprof/timeutil.h"
#include "src/aws/ecs_int.h"

/* A reader that reads every other task (skipped whole, so checked as the scan checks it)
 * and gives the others up inside them, one member in (one object deeper). */
static int
toy_read(void *arg, void *batch, struct jsonscan *sc, size_t *slot, const char **arn,
	 int64_t *created_ms)
{
	size_t *count = batch;
	struct jsonscan_str key;

	(void)arg;
	if ((*count)++ % 2 == 1) {
		if (jsonscan_member(sc, true, &key) == 1)
			(void)jsonscan_skip(sc);
		return -1;
	}
	if (jsonscan_skip(sc) != 0)
		return -1;
	*slot = *count - 1;
	*arn = "read";
	*created_ms = 42;
	return 0;
}

static const struct ecs_task_reader toy_reader = { NULL, NULL, toy_read, NULL, NULL };

/* The scan of body[0..len) with toy_reader gives what the scan without one gave (rc, v and
 * n, over body0): the same tasks at the same places, those not read with their own
 * taskArn and createdAt. */
static void
check_read(const char *body0, size_t len, int rc0, const struct ecs_scanned_task *v0, size_t n0)
{
	struct ecs_scanned_task *v;
	size_t n, count = 0, nread = 0;
	char *body = malloc(len + 1);
	int rc;

	memcpy(body, body0, len);
	body[len] = '\0';
	rc = ecs_scan_describe_read(body, len, &toy_reader, &count, &v, &n);
	cr_assert_eq(rc, rc0, "with a reader %d, without %d", rc, rc0);
	if (rc == 1) {
		free(body);
		return;
	}
	cr_assert_eq(n, n0);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(v[i].json - body, v0[i].json - body0, "task %zu", i);
		cr_assert_eq(v[i].len, v0[i].len, "task %zu", i);
		cr_assert_eq(v[i].read, i % 2 == 0, "task %zu", i);
		if (v[i].read) {
			cr_assert_eq(v[i].slot, i);
			cr_assert_str_eq(v[i].arn, "read");
			cr_assert_eq(v[i].created_ms, 42);
			continue;
		}
		nread++;
		if (v0[i].arn == NULL)
			cr_assert_null(v[i].arn);
		else
			cr_assert_str_eq(v[i].arn, v0[i].arn);
		cr_assert_eq(v[i].created_ms, v0[i].created_ms);
	}
	cr_assert_eq(nread, n / 2);
	ecs_scanned_free(v, n);
	free(body);
}

/* The scan of answer agrees with jansson's DOM: 0 when it read it (and then task by task),
 * 2 when it read its tasks but left failures[] to jansson, 1 when it gave up. Returns what
 * ecs_scan_describe returned. */
static int
check_answer(const char *answer, size_t len)
{
	struct ecs_scanned_task *v;
	size_t n;
	json_error_t e;
	json_t *root = json_loadb(answer, len, 0, &e);
	char *body = malloc(len + 1);
	int rc;

	memcpy(body, answer, len);
	body[len] = '\0';
	rc = ecs_scan_describe_open(body, len, &v, &n);
	check_read(body, len, rc, v, n);
	if (rc != 1)
		ecs_scanned_end(body, v, n);
	if (rc == 2)
		cr_assert_gt(json_array_size(json_object_get(root, "failures")), 0);
	if (rc != 0 && rc != 2) {
		cr_assert_eq(rc, 1);
		cr_assert_eq(memcmp(body, answer, len), 0, "given up, yet written over");
		free(body);
		json_decref(root);
		return rc;
	}
	cr_assert_not_null(root, "scanned an answer jansson refuses (%s): %.300s", e.text, answer);
	json_t *tasks = json_object_get(root, "tasks");
	cr_assert_eq(n, json_array_size(tasks), "%zu tasks, jansson %zu", n, json_array_size(tasks));
	for (size_t i = 0; i < n; i++) {
		json_t *t = json_array_get(tasks, i);
		char *want = json_dumps(t, JSON_COMPACT | JSON_REAL_PRECISION(16));
		const char *arn = json_string_value(json_object_get(t, "taskArn"));
		size_t at = (size_t)(v[i].json - body);
		json_t *got;

		/* the task's own bytes, in place, ended by a NUL, and the same task to jansson */
		cr_assert(v[i].json >= body && at + v[i].len < len, "task %zu outside", i);
		cr_assert_eq(v[i].json[0], '{');
		cr_assert_eq(answer[at + v[i].len - 1], '}');
		cr_assert_eq(memcmp(v[i].json, answer + at, v[i].len), 0, "task %zu", i);
		cr_assert_eq(v[i].json[v[i].len], '\0');
		got = json_loadb(v[i].json, v[i].len, JSON_REJECT_DUPLICATES, &e);
		cr_assert_not_null(got, "task %zu of %.300s: %s", i, answer, e.text);
		cr_assert(json_equal(got, t), "task %zu of %.300s is not %s", i, answer, want);
		json_decref(got);
		if (arn == NULL)
			cr_assert_null(v[i].arn);
		else
			cr_assert_str_eq(v[i].arn, arn);
		cr_assert_eq(v[i].created_ms, ecs_json_time(t, "createdAt"), "createdAt of %s",
			     want);
		free(want);
	}
	/* in order, none overlapping */
	for (size_t i = 1; i < n; i++)
		cr_assert_gt(v[i].json, v[i - 1].json + v[i - 1].len);
	ecs_scanned_free(v, n);
	free(body);
	json_decref(root);
	return rc;
}

static int
check(const char *answer)
{
	return check_answer(answer, strlen(answer));
}

Test(ecs_scan, plain_tasks_read_as_sent)
{
	cr_assert_eq(check("{\"tasks\":[],\"failures\":[]}"), 0);
	cr_assert_eq(check(" {\"failures\": [], \"tasks\": [ ] } \n"), 0);
	cr_assert_eq(check("{}"), 0);
	/* Python's json.dumps spacing (the fake server), an AWS-style compact answer */
	cr_assert_eq(check("{\"tasks\": [{\"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/abc\", "
			   "\"createdAt\": 1764871234.123, \"containers\": [{\"name\": \"web\", "
			   "\"exitCode\": 0, \"networkBindings\": []}], \"tags\": [], "
			   "\"overrides\": {\"containerOverrides\": [{}]}, \"cpu\": \"256\", "
			   "\"enableExecuteCommand\": false, \"x\": null, \"y\": true}], "
			   "\"failures\": []}"), 0);
	cr_assert_eq(check("{\"tasks\":[{\"taskArn\":\"a\",\"createdAt\":1.587658593386E9,"
			   "\"startedAt\":1.587658600E9,\"version\":3}],\"failures\":[]}"), 0);
	/* a createdAt as ISO 8601, as a string of another kind, absent */
	cr_assert_eq(check("{\"tasks\":[{\"taskArn\":\"a\",\"createdAt\":\"2026-12-04T10:00:00Z\"},"
			   "{\"taskArn\":\"b\",\"createdAt\":\"yesterday\"},{\"taskArn\":7},"
			   "{\"createdAt\":true},{\"createdAt\":-5}]}"), 0);
}

Test(ecs_scan, numbers_read_as_sent)
{
	static const char *nums[] = {
		"0", "-0", "7", "-12", "123456789012345678", "0.5", "-0.0", "0.0", "1.0", "1.50",
		"1.5", "2.25", "1e5", "1E5", "1e+05", "1e-05", "1.5e-7", "-2.5E+300", "5e-324",
		"1.7976931348623157e308", "1764871234.1", "1764871234.12", "1764871234.123",
		"1764871234.1234", "1764871234.123456", "1764871234.1234567", "9999999999999999.5",
		"999999999999999.9", "9007199254740993.0", "0.1", "0.30000000000000004",
		"123456789.123456789", "1.587658593386E9", "100", "100.0", "1e16", "1e15",
		"12345678901234567.0", "4503599627370497.5", "9.999999999999999", "99.99999999999999",
		"1.2345678901234567", "0.000123", "-0.000001", "1e-7", "3.14159",
		/* the edges of the copy without strtod (a former real_as_written) */
		"9999999999.999999", "1796420898.957", "-1796420898.957", "4294967295.5",
		"4294967296.25", "12345.0", "123456789012345.6", "999999999999999.9",
		"9007199254740991.0", "1.000000000000001", "9.999999999999999", "10.0",
	};
	char answer[256];

	for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
		snprintf(answer, sizeof answer,
			 "{\"tasks\":[{\"taskArn\":\"a\",\"createdAt\":%s,\"v\":[%s,{\"n\":%s}]}]}",
			 nums[i], nums[i], nums[i]);
		cr_assert_eq(check(answer), 0, "%s", nums[i]);
	}
}

Test(ecs_scan, escapes_read_as_sent)
{
	cr_assert_eq(check("{\"tasks\":[{\"taskArn\":\"a\\/b\",\"reason\":\"say \\\"no\\\" \\\\ "
			   "\\b\\f\\n\\r\\t end\",\"path\":\"\\/x\\/y\",\"u\":\"caf\xc3\xa9 \xe2\x82\xac "
			   "\xf0\x9f\x98\x80\"}]}"), 0);
}

Test(ecs_scan, tasks_read_failures_left_to_jansson)
{
	cr_assert_eq(check("{\"tasks\":[],\"failures\":[{\"arn\":\"a\",\"reason\":\"MISSING\"}]}"),
		     2);
	cr_assert_eq(check("{\"failures\": [{\"arn\": \"b\", \"reason\": \"MISSING\"}, {}], "
			   "\"tasks\": [{\"taskArn\": \"a\", \"createdAt\": 1764871234.5}, "
			   "{\"taskArn\": \"c\"}]}"), 2);
	/* failures[] still checked as jansson checks it */
	cr_assert_eq(check("{\"tasks\":[],\"failures\":[{\"arn\":\"\\u0041\"}]}"), 1);
	cr_assert_eq(check("{\"tasks\":[],\"failures\":[1,]}"), 1);
	cr_assert_eq(check("{\"tasks\":[],\"failures\":{}}"), 1);
}

Test(ecs_scan, gives_up_what_it_is_not_sure_of)
{
	static const char *odd[] = {
		"{\"tasks\":[{\"taskArn\":\"\\u0041\"}]}",                  /* \u escape */
		"{\"tasks\":[{\"taskArn\":\"a\",\"taskArn\":\"b\"}]}",       /* a key twice */
		"{\"tasks\":[],\"tasks\":[]}",
		"{\"tasks\":[7]}",                                          /* not a task */
		"{\"tasks\":{}}",
		"{\"tasks\":[{\"n\":1234567890123456789}]}",               /* 19 digits */
		"{\"tasks\":[]} x", "{\"tasks\":[]", "[]", "", "{\"tasks\":[{\"a\":01}]}",
		"{\"tasks\":[{\"a\":1e999}]}", "{\"tasks\":[{\"a\":\"\x01\"}]}",
		"{\"tasks\":[{\"a\":\"\xc3\"}]}", "{\"tasks\":[{\"a\":tru}]}",
	};

	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
		cr_assert_eq(check(odd[i]), 1, "%s", odd[i]);
	/* a NUL byte inside the answer */
	cr_assert_eq(check_answer("{\"tasks\":[{\"a\":\"x\0y\"}]}", 22), 1);
}

/* ---- random answers -------------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void
ws(struct buf *b)
{
	static const char *w[] = { "", "", "", " ", "\n", "  ", "\t", "\r\n " };

	buf_adds(b, w[rnd(8)]);
}

static void
rand_number(struct buf *b)
{
	double d;

	switch (rnd(8)) {
	case 0:
		buf_addf(b, "%d", (int)rnd(2000000) - 1000000);
		break;
	case 1:   /* an epoch time with milliseconds, as ECS and Python write it */
		buf_addf(b, "%.3f", 1.7e9 + rnd(100000000) + rnd(1000) / 1000.0);
		break;
	case 2:
		buf_addf(b, "%.12E", 1.7e9 + rnd(100000000) + rnd(1000) / 1000.0);
		break;
	case 3:
		d = (double)rnd(1u << 30) * (double)rnd(1u << 30) / (double)(rnd(1000) + 1);
		buf_addf(b, "%.17g", rnd(2) ? d : -d);
		break;
	case 4:
		buf_addf(b, "%.*f", (int)rnd(8), rnd(100000) / 7.0);
		break;
	case 5:
		buf_addf(b, "%de%s%d", (int)rnd(100), rnd(2) ? "-" : "", (int)rnd(40));
		break;
	case 6:
		buf_addf(b, "%.*g", (int)rnd(17) + 1, rnd(1000000) / 1024.0);
		break;
	default:
		buf_adds(b, rnd(2) ? "-0" : "0.0");
		break;
	}
}

static void
rand_string(struct buf *b)
{
	static const char *bits[] = { "a", "web", "arn:aws:ecs:", "/", "\\\"", "\\\\", "\\/",
		"\\n", "\\t", "\\b", "\\f", "\\r", " ", "\xc3\xa9", "\xe2\x82\xac", ":", "-", "1" };
	unsigned n = rnd(6);

	buf_addc(b, '"');
	for (unsigned i = 0; i < n; i++)
		buf_adds(b, bits[rnd(sizeof bits / sizeof *bits)]);
	buf_addc(b, '"');
}

static void rand_value(struct buf *b, int depth);

static void
rand_object(struct buf *b, int depth, bool task)
{
	static const char *keys[] = { "taskArn", "createdAt", "containers", "lastStatus",
		"startedAt", "tags", "k1", "k2", "k3", "k4", "version", "overrides" };
	unsigned n = rnd(task ? 10 : 5), used = 0;

	buf_addc(b, '{');
	ws(b);
	for (unsigned i = 0; i < n; i++) {
		unsigned k = rnd(sizeof keys / sizeof *keys);

		if (used & (1u << k))
			continue;   /* each key once: jansson would keep the last */
		if (used != 0) {
			buf_addc(b, ',');
			ws(b);
		}
		used |= 1u << k;
		buf_addf(b, "\"%s\"", keys[k]);
		ws(b);
		buf_addc(b, ':');
		ws(b);
		if (task && k == 0 && rnd(4) != 0)
			buf_addf(b, "\"arn:aws:ecs:us-east-1:1:task/c/%u\"", rnd(1000));
		else if (task && k == 1 && rnd(3) != 0)
			rand_number(b);
		else
			rand_value(b, depth + 1);
		ws(b);
	}
	buf_addc(b, '}');
}

static void
rand_value(struct buf *b, int depth)
{
	unsigned kind = rnd(depth > 4 ? 5 : 7);

	switch (kind) {
	case 0: rand_number(b); break;
	case 1: case 2: rand_string(b); break;
	case 3: buf_adds(b, rnd(2) ? "true" : "false"); break;
	case 4: buf_adds(b, "null"); break;
	case 5: rand_object(b, depth, false); break;
	default: {
		unsigned n = rnd(4);

		buf_addc(b, '[');
		ws(b);
		for (unsigned i = 0; i < n; i++) {
			if (i > 0) {
				buf_addc(b, ',');
				ws(b);
			}
			rand_value(b, depth + 1);
			ws(b);
		}
		buf_addc(b, ']');
	}
	}
}

Test(ecs_scan, random_answers_agree_with_jansson)
{
	size_t read = 0;

	for (int round = 0; round < 3000; round++) {
		struct buf b;
		unsigned n = rnd(6);

		buf_init(&b, 0);
		ws(&b);
		buf_adds(&b, "{");
		ws(&b);
		buf_adds(&b, "\"failures\":[],\"tasks\":");
		ws(&b);
		buf_addc(&b, '[');
		for (unsigned i = 0; i < n; i++) {
			if (i > 0)
				buf_addc(&b, ',');
			ws(&b);
			rand_object(&b, 2, true);
			ws(&b);
		}
		buf_addc(&b, ']');
		ws(&b);
		buf_addc(&b, '}');
		ws(&b);
		if (check_answer(b.data, b.len) == 0)
			read++;
		buf_cleanup(&b);
	}
	/* only the 19-digit integers and such are given up: most are read */
	cr_assert_gt(read, 2500, "read %zu of 3000", read);
}

/* A ListTasks page: the same ARNs and nextToken as jansson's DOM gives, or given up. */
static int
check_page(const char *page)
{
	struct ecs_page pg;
	json_error_t e;
	json_t *root = json_loads(page, 0, &e), *a;
	int rc = ecs_scan_list(page, strlen(page), &pg);
	size_t i;

	if (rc != 0) {
		cr_assert_eq(rc, 1);
		json_decref(root);
		return rc;
	}
	cr_assert_not_null(root, "read a page jansson refuses: %s", page);
	cr_assert_eq(pg.n, json_array_size(json_object_get(root, "taskArns")), "%s", page);
	json_array_foreach(json_object_get(root, "taskArns"), i, a)
		cr_assert_str_eq(pg.arns[i], json_string_value(a));
	a = json_object_get(root, "nextToken");
	if (json_is_string(a))
		cr_assert_str_eq(pg.token, json_string_value(a));
	else
		cr_assert_null(pg.token);
	ecs_page_cleanup(&pg);
	json_decref(root);
	return 0;
}

Test(ecs_scan, list_pages_read_as_jansson_reads_them)
{
	cr_assert_eq(check_page("{\"taskArns\": [\"arn:a/1\", \"arn:a\\/2\"], \"nextToken\": \"t1\"}"),
		     0);
	cr_assert_eq(check_page("{\"taskArns\":[],\"nextToken\":null}"), 0);
	cr_assert_eq(check_page("{\"nextToken\":\"\",\"taskArns\":[\"x\"],\"other\":{\"a\":[1]}}"), 0);
	cr_assert_eq(check_page("{}"), 0);
	cr_assert_eq(check_page("{\"taskArns\":[1,\"x\"]}"), 1);
	cr_assert_eq(check_page("{\"taskArns\":[\"\\u0041\"]}"), 1);
	cr_assert_eq(check_page("{\"nextToken\":\"a\",\"nextToken\":\"b\"}"), 1);
	cr_assert_eq(check_page("{\"taskArns\":[\"x\"]"), 1);
	cr_assert_eq(check_page("{\"taskArns\":[\"x\"]} {}"), 1);
}

/* Random answers cut short or with a byte changed: what the reader takes, jansson takes
 * and reads the same (check_answer); the rest it gives up. */
Test(ecs_scan, damaged_answers_never_read_otherwise)
{
	static const char bytes[] = "{}[]\",:\\ 0.-eE\x01\x80\xc3\xa9tnu";

	for (int round = 0; round < 3000; round++) {
		struct buf b;

		buf_init(&b, 0);
		buf_adds(&b, "{\"tasks\":[");
		rand_object(&b, 2, true);
		buf_adds(&b, ",");
		rand_object(&b, 2, true);
		buf_adds(&b, "],\"failures\":[]}");
		if (rnd(3) == 0)
			b.len = rnd((unsigned)b.len);          /* cut short */
		else
			b.data[rnd((unsigned)b.len)] = bytes[rnd(sizeof bytes - 1)];
		(void)check_answer(b.data, b.len);
		buf_cleanup(&b);
	}
}
