/* taskscan: the DOM-less reader of task state change events against the jansson path it
 * stands in for (taskscan_diff.h: same tasks, warnings and errors, field by field): every
 * input fixture and fuzz seed, whole and line by line, an event and a recording line that
 * use every field taskscan reads, each of their values swapped for values of every type,
 * and tens of thousands of random mutations of such lines. It must also really
 * take the plain lines (a reader that always gave up would agree too). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/jsonscan.h"
#include "ecsprof/xalloc.h"
#include "fuzz/taskscan_diff.h"
#include "fixtures/task_text.h"

/* uses every field taskscan reads, with escapes, UTF-8, nulls and numbers of each kind */
static const char rich[] =
	"{\"version\":\"0\",\"id\":\"x\",\"detail-type\":\"ECS Task State Change\",\"source\":\"aws.ecs\","
	"\"resources\":[\"arn:aws:ecs:us-east-1:1:task/c/abc\"],\"detail\":{"
	"\"attachments\":[{\"id\":\"a1\",\"type\":\"eni\",\"status\":\"ATTACHED\",\"details\":["
	"{\"name\":\"subnetId\",\"value\":\"subnet-1\"},{\"name\":\"PUBLICipv4Address\",\"value\":\"1.2.3.4\"}]},"
	"{\"type\":\"other\",\"details\":[{\"name\":\"publicIp\",\"value\":\"9.9.9.9\"}]},7,[]],"
	"\"attributes\":[{\"name\":\"ecs.cpu-architecture\",\"value\":5},{\"value\":\"arm64\",\"name\":\"ecs.cpu-architecture\"},"
	"{\"name\":\"ecs.cpu-architecture\",\"value\":\"x86_64\"}],"
	"\"availabilityZone\":\"us-east-1a\",\"clusterArn\":\"arn:aws:ecs:us-east-1:1:cluster/c\","
	"\"containers\":[{\"name\":\"web\",\"image\":\"r/web:v1\",\"imageDigest\":\"sha256:00\",\"lastStatus\":\"STOPPED\","
	"\"reason\":\"Essential \\\"container\\\" exited\\n\\ttab \\/ caf\xc3\xa9 \xf0\x9f\x98\x80\",\"exitCode\":-137,"
	"\"healthStatus\":\"UNHEALTHY\",\"networkInterfaces\":[{\"a\":null}]},"
	"{\"name\":\"side\",\"image\":null,\"exitCode\":null,\"healthStatus\":3,\"cpu\":\"0\"}],"
	"\"cpu\":\"256\",\"createdAt\":\"2024-05-01T10:00:00.123Z\",\"connectivityAt\":1714557601,"
	"\"pullStartedAt\":1714557602.5,\"pullStoppedAt\":1.7145576035e9,\"startedAt\":\"2024-05-01T10:00:09+02:00\","
	"\"stoppingAt\":null,\"stoppedAt\":\"2024-05-01T10:05:00Z\",\"desiredStatus\":\"STOPPED\","
	"\"enableExecuteCommand\":false,\"ephemeralStorage\":{\"sizeInGiB\":20},\"group\":\"service:web\","
	"\"launchType\":\"FARGATE\",\"lastStatus\":\"STOPPED\",\"memory\":\"512\",\"overrides\":{\"containerOverrides\":[{\"name\":\"web\",\"x\":[1,-2.5e-3,true,null,{}]}]},"
	"\"platformVersion\":\"1.4.0\",\"startedBy\":\"ecs-svc/1\",\"stopCode\":\"EssentialContainerExited\","
	"\"stoppedReason\":\"Task failed \\u00e9 health\",\"tags\":[{\"key\":\"team\",\"value\":\"pay\"},{\"key\":\"k\",\"value\":null}],"
	"\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/abc\",\"taskDefinitionArn\":\"arn:aws:ecs:us-east-1:1:task-definition/web:7\","
	"\"updatedAt\":\"2024-05-01T10:05:00Z\",\"version\":4,\"healthStatus\":\"UNKNOWN\"}}";

/* rich (without its \u escape) as an event, or its detail as a recording's task line */
static char *
rich_line(bool record)
{
	char *plain = xstrdup(rich), *line;
	const char *detail;

	memcpy(strstr(plain, "\\u00e9"), "  e   ", 6);
	if (!record)
		return plain;
	detail = strstr(plain, "\"detail\":{") + 9;
	line = xasprintf("{\"ecsprof\":\"record/1\",\"fetched_at\":\"2024-05-01T10:06:00Z\","
			 "\"healthy_at\":\"2024-05-01T10:00:20.5Z\",\"healthy_resolution_ms\":2500,"
			 "\"task\":%.*s}", (int)(strlen(detail) - 1), detail);
	free(plain);
	return line;
}

static size_t
check(const char *what, const char *data, size_t len)
{
	size_t scanned;
	/* exactly len bytes of heap, so the sanitizer run sees a read past the end */
	char *copy = xmalloc(len ? len : 1);
	const char *why;

	memcpy(copy, data, len);
	why = taskscan_diff(copy, len, &scanned);
	cr_assert_null(why, "%s: taskscan and jansson differ: %s\n  input: %.*s", what, why,
		       (int)(len < 600 ? len : 600), data);
	free(copy);
	return scanned;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = xmalloc((size_t)n + 1);
	cr_assert_eq(fread(data, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return data;
}

/* each file whole and each of its lines; returns the lines taskscan took */
static size_t
check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t scanned = 0, files = 0;

	cr_assert_not_null(d, "%s", dir);
	while ((e = readdir(d)) != NULL) {
		char path[1024];
		size_t len;
		char *data;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		data = slurp(path, &len);
		files++;
		scanned += check(path, data, len);
		for (const char *p = data, *end = data + len; p < end;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

			check(path, p, n);
			p += n + 1;
		}
		free(data);
	}
	closedir(d);
	cr_assert_gt(files, 0, "%s: no files", dir);
	return scanned;
}

/* the task keys' table by hash, written out by hand, is the list of keys', one a slot */
Test(taskscan, task_keys_by_hash_match_the_keys)
{
	cr_expect_eq(taskscan_keys_check(), 0);
}

Test(taskscan, fixtures_and_fuzz_seeds_agree_with_jansson)
{
	size_t scanned = check_dir(FIXTURE_DIR "/input") + check_dir(TESTS_DIR "/fuzz/corpus/input") +
			 check_dir(FIXTURE_DIR "/live");

	cr_expect_gt(scanned, 10, "taskscan took only %zu lines of the fixtures", scanned);
}

Test(taskscan, every_field_agrees_with_jansson_and_is_taken)
{
	char *two = xasprintf("%s\n\n  %s \r\n", rich, rich);

	cr_assert_eq(check("rich", rich, strlen(rich)), 0,
		     "a \\u escape must send the line to jansson");
	/* without the \u escape taskscan takes it (and still agrees) */
	char *plain = xstrdup(rich), *u = strstr(plain, "\\u00e9");

	memcpy(u, "  e   ", 6);
	cr_assert_eq(check("rich without \\u", plain, strlen(plain)), 1);
	free(two);
	two = xasprintf("%s\n\n  %s \r\n", plain, plain);
	cr_assert_eq(check("two rich lines", two, strlen(two)), 2);
	free(two);
	free(plain);
	plain = rich_line(true);
	cr_assert_eq(check("rich recording line", plain, strlen(plain)), 1);
	free(plain);
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One random edit of s (in place, within cap): a byte changed to one JSON cares about, a
 * byte deleted or inserted, or a span copied elsewhere (repeated keys, nested values). */
static size_t
mutate(char *s, size_t n, size_t cap)
{
	static const char alphabet[] = "{}[]\":,\\ntrue0-1.5e9Z\xc3\xa9\xff\x01 \"detail\"\"version\":"
		"null\"taskArn\":\"x\",";
	size_t at = n ? next() % n : 0;

	switch (next() % 4) {
	case 0:
		if (n > 0)
			s[at] = alphabet[next() % (sizeof alphabet - 1)];
		break;
	case 1:
		if (n > 0) {
			memmove(s + at, s + at + 1, n - at - 1);
			n--;
		}
		break;
	case 2:
		if (n + 1 < cap) {
			memmove(s + at + 1, s + at, n - at);
			s[at] = alphabet[next() % (sizeof alphabet - 1)];
			n++;
		}
		break;
	default: {
		size_t from = n ? next() % n : 0, len = 1 + next() % 40, to = n ? next() % n : 0;

		if (from + len > n)
			len = n - from;
		if (n + len < cap && len > 0) {
			char tmp[64];

			memcpy(tmp, s + from, len);
			memmove(s + to + len, s + to, n - to);
			memcpy(s + to, tmp, len);
			n += len;
		}
		break;
	}
	}
	return n;
}

Test(taskscan, mutated_events_agree_with_jansson)
{
	size_t len, cap = 16384, scanned = 0;
	char *events = slurp(FIXTURE_DIR "/input/events.jsonl", &len), *plain = rich_line(false);
	char *record = rich_line(true);
	const char *seeds[8];
	size_t nseeds = 0;
	char *buf = xmalloc(cap);

	seeds[nseeds++] = plain;
	seeds[nseeds++] = record;
	for (char *p = events; nseeds < 8 && p < events + len;) {
		char *nl = memchr(p, '\n', (size_t)(events + len - p));

		if (nl == NULL)
			break;
		*nl = '\0';
		seeds[nseeds++] = p;
		p = nl + 1;
	}
	for (int i = 0; i < 40000; i++) {
		const char *seed = seeds[(size_t)i % nseeds];
		size_t n = strlen(seed), edits = 1 + next() % 3;

		cr_assert_lt(n, cap / 2);
		memcpy(buf, seed, n);
		for (size_t k = 0; k < edits; k++)
			n = mutate(buf, n, cap / 2);
		scanned += check("mutation", buf, n);
	}
	/* most single edits of a line still leave a valid event that taskscan takes */
	cr_expect_gt(scanned, 4000, "taskscan took only %zu of 40000 mutated lines", scanned);
	free(buf);
	free(plain);
	free(record);
	free(events);
}

/* the end of the JSON value at s (strings, nesting; enough for the lines above) */
static const char *
value_end(const char *s)
{
	int depth = 0;

	do {
		if (*s == '"') {
			for (s++; *s != '"'; s++)
				if (*s == '\\')
					s++;
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if (*s == '}' || *s == ']') {
			depth--;
		}
		s++;
	} while (depth > 0 || (*s != ',' && *s != '}' && *s != ']' && depth == 0 &&
			       s[-1] != '"' && s[-1] != '}' && s[-1] != ']'));
	return s;
}

/* every value of the line (each "key": in it) swapped for values of every type */
Test(taskscan, every_value_of_every_type_agrees_with_jansson)
{
	static const char *values[] = { "null", "0", "-1", "7", "1.5", "-0.0", "1e3", "2147483648",
		"-2147483649", "123456789012345678", "1234567890123456789", "1e400", "true",
		"false", "\"\"", "\"s\"", "\"eni\"", "\"ElasticNetworkInterface\"",
		"\"2024-05-01T10:00:00Z\"", "\"1714557600\"", "\"ecs.cpu-architecture\"",
		"\"publicIp\"", "\"ECS Task State Change\"", "\"a\\u0041\"", "\"\\ttab\"", "[]",
		"{}", "[{}]", "[1]", "[null]", "{\"name\":\"x\"}", "[{\"name\":\"publicIp\",\"value\":\"1\"}]",
		"[{\"type\":\"eni\",\"details\":[{\"name\":\"publicIp\",\"value\":\"\"}]}]" };
	size_t scanned = 0, cases = 0;

	for (int record = 0; record < 2; record++) {
		char *plain = rich_line(record);

		for (const char *k = strstr(plain, "\":"); k != NULL; k = strstr(k + 2, "\":")) {
			const char *v = k + 2, *e = value_end(v);

			for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
				char *line = xasprintf("%.*s%s%s", (int)(v - plain), plain,
						       values[i], e);

				scanned += check("swapped value", line, strlen(line));
				cases++;
				free(line);
			}
		}
		free(plain);
	}
	cr_expect_gt(cases, 4000);
	cr_expect_gt(scanned, cases / 4, "taskscan took %zu of %zu", scanned, cases);
}

static size_t
check_task(const char *what, const char *json, size_t len)
{
	char *copy = xmalloc(len ? len : 1);
	const char *why;
	bool taken;

	memcpy(copy, json, len);
	why = taskscan_task_diff(copy, len, &taken);
	cr_assert_null(why, "%s: taskscan_task and jansson differ: %s\n  input: %.*s", what, why,
		       (int)(len < 600 ? len : 600), json);
	free(copy);
	return taken;
}

/* each task object of a file as ecs_fetch.c hands it to input_parse_task_json() */
static size_t
check_tasks_of(const char *path)
{
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e), *tasks, *task;
	size_t i, taken = 0;

	if (root == NULL)
		return 0;
	tasks = json_is_array(root) ? root : json_object_get(root, "tasks");
	json_array_foreach(tasks, i, task) {
		char *text = json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16) | JSON_ENCODE_ANY);

		taken += check_task(path, text, strlen(text));
		free(text);
	}
	if (json_object_get(root, "taskArn") != NULL) {
		char *text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(16));

		taken += check_task(path, text, strlen(text));
		free(text);
	}
	json_decref(root);
	return taken;
}

/* the live path: DescribeTasks tasks dumped by ecs_fetch.c, read by input_parse_task_json */
Test(taskscan, live_task_json_agrees_with_jansson)
{
	static const char *files[] = { FIXTURE_DIR "/input/describe_epoch.json",
		FIXTURE_DIR "/input/describe_cli_iso.json", FIXTURE_DIR "/input/single_task.json",
		FIXTURE_DIR "/input/bare_array.json", FIXTURE_DIR "/live/big.json",
		FIXTURE_DIR "/live/small.json", TESTS_DIR "/fuzz/corpus/input/describe_epoch_numbers.json",
		TESTS_DIR "/fuzz/corpus/input/describe_cli_iso_offsets.json",
		TESTS_DIR "/fuzz/corpus/input/bad_fields.json" };
	char *line = rich_line(false), *detail = strstr(line, "\"detail\":{") + 9;
	size_t taken = 0, n = strlen(detail) - 1;

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		taken += check_tasks_of(files[i]);
	cr_expect_gt(taken, 3, "taskscan_task took %zu fixture tasks", taken);
	cr_assert_eq(check_task("rich task", detail, n), 1);
	for (int i = 0; i < 20000; i++) {
		char buf[8192];
		size_t m = n, edits = 1 + next() % 3;

		memcpy(buf, detail, n);
		for (size_t k = 0; k < edits; k++)
			m = mutate(buf, m, sizeof buf);
		check_task("mutated task", buf, m);
	}
	free(line);
}

/* issue 10 item 10: a key twice anywhere in a line (known to taskscan or not, read or
 * skipped) gives the line to jansson, so that the reader warns about it; the same line
 * without the repeat is taken */
Test(taskscan, duplicate_keys_give_the_line_up)
{
	static const char *dups[] = {
		"{\"detail-type\":\"ECS Task State Change\",\"source\":\"a\",\"source\":\"b\","
		"\"detail\":{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/x\"}}",
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"overrides\":{\"a\":1,\"a\":2}}}",
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"enableExecuteCommand\":true,"
		"\"enableExecuteCommand\":false}}",
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"containers\":[{\"name\":\"a\",\"cpu\":\"1\",\"cpu\":\"2\"}]}}",
		/* the readers' own keys (their seen bits), and other keys of each reader's
		 * objects (jsonscan_key_other), compact and with spaces */
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"lastStatus\":\"A\",\"lastStatus\":\"B\"}}",
		"{\"detail-type\": \"ECS Task State Change\", \"detail\": {\"taskArn\": "
		"\"arn:aws:ecs:us-east-1:1:task/c/x\", \"startedAt\": 1.5, \"startedAt\": 2.5}}",
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"tags\":[{\"key\":\"a\",\"x\":1,\"x\":2}]}}",
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"attachments\":[{\"type\":\"eni\",\"id\":\"1\","
		"\"id\":\"2\"}]}}",
		"{\"detail-type\":\"ECS Task State Change\",\"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\"attributes\":[{\"name\":\"a\",\"q\":1,\"q\":1}]}}",
		"{\"detail-type\": \"ECS Task State Change\", \"detail\": {\"taskArn\": "
		"\"arn:aws:ecs:us-east-1:1:task/c/x\", \"containers\": [{\"name\": \"a\", "
		"\"networkInterfaces\": [], \"networkInterfaces\": []}]}}",
		"{\"detail-type\":\"ECS Task State Change\",\t \"detail\":{\"taskArn\":"
		"\"arn:aws:ecs:us-east-1:1:task/c/x\",\t  \"aVeryLongKeyOfMoreThan16\":1,\t"
		"  \"aVeryLongKeyOfMoreThan16\" : 2}}",
	};
	static const char ok[] = "{\"detail-type\":\"ECS Task State Change\",\"source\":\"a\","
		"\"detail\":{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/x\",\"overrides\":{\"a\":1,"
		"\"b\":{\"a\":1}},\"containers\":[{\"name\":\"a\",\"cpu\":\"1\"},{\"name\":\"b\",\"cpu\":\"1\"}]}}";
	/* the same members compact, with a space after each ',' and ':' (as Python's
	 * json.dumps writes them), and with more white space (no newline: one line each):
	 * taken alike */
	static const char *spaced[] = {
		"{\"detail-type\": \"ECS Task State Change\", \"source\": \"a\", \"detail\": "
		"{\"taskArn\": \"arn:aws:ecs:us-east-1:1:task/c/x\", \"overrides\": {\"a\": 1, "
		"\"b\": {\"a\": 1}}, \"containers\": [{\"name\": \"a\", \"cpu\": \"1\"}, "
		"{\"name\": \"b\", \"cpu\": \"1\"}], \"lastStatus\": \"RUNNING\", "
		"\"aVeryLongKeyOfMoreThan16\": 1, \"tags\": [{\"key\": \"k\", \"value\": \"v\"}]}}",
		"{\"detail-type\":\"ECS Task State Change\",\t  \"source\" :\"a\",  \t\"detail\":\t"
		"{ \"taskArn\":  \"arn:aws:ecs:us-east-1:1:task/c/x\" ,\"overrides\":{ \"a\":1 ,\t  "
		"\"b\":{\"a\":1}},  \"lastStatus\":\"RUNNING\",\t\"tags\":[ {\"key\":\"k\",\"value\":\"v\"}]}}",
	};

	for (size_t i = 0; i < sizeof dups / sizeof dups[0]; i++)
		cr_expect_eq(check("dup", dups[i], strlen(dups[i])), 0, "taken: %s", dups[i]);
	cr_expect_eq(check("no dup", ok, sizeof ok - 1), 1);
	for (size_t i = 0; i < sizeof spaced / sizeof spaced[0]; i++)
		cr_expect_eq(check("spaced", spaced[i], strlen(spaced[i])), 1, "given up: %s",
			     spaced[i]);
}

/* jsonscan_number's reals without strtod (fast_real: at most 15 digits, no exponent) are
 * strtod's bit for bit; the others still go to strtod */
Test(taskscan, reals_read_without_strtod_are_strtods)
{
	static const char *fixed[] = { "0.0", "-0.0", "0.5", "1.1", "9.9995", "0.1",
		"1733350000.123", "1733350000.1", "999999999999.999", "123456789012345.0",
		"0.000000000000001", "-1733350000.999", "1234567890123456.7", "1.5e3",
		"4102444800.000", "2.0E-3", "0.30000000000000004" };
	uint64_t x = 88172645463325252ULL;

	for (int i = 0; i < (int)(sizeof fixed / sizeof fixed[0]) + 2000000; i++) {
		char text[64];
		const char *s = text;
		struct jsonscan sc;
		bool is_int;
		int64_t iv;
		double dv, want;

		if (i < (int)(sizeof fixed / sizeof fixed[0])) {
			s = fixed[i];
		} else {
			int nd, nf;

			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			nd = 1 + (int)(x % 12);
			nf = 1 + (int)((x >> 8) % 6);
			snprintf(text, sizeof text, "%s%.*llu.%0*llu", (x >> 20) & 1 ? "-" : "",
			    nd, (unsigned long long)((x >> 24) % 1000000000000ULL), nf,
			    (unsigned long long)((x >> 40) % 1000000ULL) % 1000000ULL);
			if (text[(x >> 20) & 1] == '0' && text[((x >> 20) & 1) + 1] != '.')
				continue;   /* "01.5": not JSON */
			if ((int)strlen(text) - ((x >> 20) & 1 ? 2 : 1) > 16)
				continue;
		}
		sc = (struct jsonscan){ s, s + strlen(s), NULL, 0, NULL };
		want = strtod(s, NULL);
		cr_assert_eq(jsonscan_number(&sc, &is_int, &iv, &dv), 0, "%s", s);
		cr_assert(!is_int, "%s", s);
		cr_assert(memcmp(&dv, &want, sizeof dv) == 0, "%s: %.17g, strtod %.17g", s, dv, want);
		cr_assert_eq(sc.p, s + strlen(s), "%s", s);
	}
}

/* the filter before the compare of repeated keys: an object of up to JSONSCAN_DUP_KEYS
 * members with one key repeated anywhere is refused, the same without it taken */
Test(taskscan, repeated_keys_found_past_the_filter)
{
	static struct jsonscan_dup dup;
	char obj[8192];

	for (int n = 1; n <= 60; n++)
		for (int rep = -1; rep < n; rep++) {
			size_t o = 0;
			struct jsonscan sc;

			obj[o++] = '{';
			for (int i = 0; i < n; i++)
				o += (size_t)snprintf(obj + o, sizeof obj - o, "%s\"k%dAt%d\":{\"x\":%d}",
				    i ? "," : "", i * 7919 % 101, i, i);
			if (rep >= 0)
				o += (size_t)snprintf(obj + o, sizeof obj - o, ",\"k%dAt%d\":0",
				    rep * 7919 % 101, rep);
			obj[o++] = '}';
			sc = (struct jsonscan){ obj, obj + o, NULL, 0, &dup };
			cr_assert_eq(jsonscan_skip(&sc), rep >= 0 ? -1 : 0, "n %d rep %d", n, rep);
		}
	/* keys near the end of the text (read byte by byte) against the same keys read
	 * with one load further from it: {"K":1,"K":1} and {"K":1,"L":1} for keys of 0..9
	 * bytes, L differing from K in one byte */
	for (int len = 0; len <= 9; len++)
		for (int diff = -1; diff < len; diff++) {
			char key[16], other[16];
			struct jsonscan sc;
			int o;

			for (int i = 0; i < len; i++)
				key[i] = other[i] = (char)('a' + i);
			key[len] = other[len] = '\0';
			if (diff >= 0)
				other[diff] = 'z';
			o = snprintf(obj, sizeof obj, "{\"%s\":1,\"%s\":1}", key, other);
			sc = (struct jsonscan){ obj, obj + o, NULL, 0, &dup };
			cr_assert_eq(jsonscan_skip(&sc), diff < 0 ? -1 : 0, "len %d diff %d", len, diff);
		}
}

/* the plain-run scan (16 then 8 bytes at a time, then byte by byte): a quote, backslash,
 * control or non-ASCII byte at every position of strings of every length up to 70 is
 * where the string ends, is decoded or is refused, as a byte-by-byte reading says */
Test(taskscan, strings_stop_at_every_position)
{
	static const char specials[] = { '"', '\\', '\n', 0x1f, (char)0xc3, (char)0x80, 0x7f };
	char text[128], buf[128];

	for (int len = 0; len <= 70; len++)
		for (int at = 0; at <= len; at++)
			for (size_t k = 0; k < sizeof specials; k++) {
				struct jsonscan sc;
				struct jsonscan_str out;
				int rc, want;

				text[0] = '"';
				for (int i = 0; i < len; i++)
					text[1 + i] = (char)('a' + i % 26);
				if (at < len)
					text[1 + at] = specials[k];
				text[1 + len] = '"';
				sc = (struct jsonscan){ text, text + len + 2, buf, 0, NULL };
				rc = jsonscan_string(&sc, true, &out);
				if (at == len || specials[k] == 0x7f) {
					want = 0;   /* plain (DEL is plain JSON) */
					cr_assert_eq(rc, want, "len %d", len);
					cr_assert_eq(out.n, (size_t)len);
					cr_assert_eq(out.s, text + 1);
				} else if (specials[k] == '"') {
					cr_assert_eq(rc, 0, "len %d at %d", len, at);
					cr_assert_eq(out.n, (size_t)at, "len %d at %d", len, at);
					cr_assert_eq(sc.p, text + at + 2);
				} else {
					/* a lone backslash before a letter, a control, broken UTF-8 */
					bool ok = specials[k] == '\\' && at + 1 < len &&
					    strchr("bfnrt", text[2 + at]) != NULL;

					cr_assert_eq(rc, ok ? 0 : -1, "len %d at %d byte %d", len, at,
					    specials[k]);
				}
			}
}

/* taskscan_task_unique (the live fetch's texts, which name no key twice) reads what
 * taskscan_task reads from json_dumps' text of any task: the same result and task */
static void
check_unique(const char *json, size_t len)
{
	json_t *root = json_loadb(json, len, 0, NULL);
	char *text, *buf;
	struct task a, b;
	int ra, rb;

	if (root == NULL)
		return;
	text = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(16) | JSON_ENCODE_ANY);
	json_decref(root);
	if (text == NULL)
		return;
	buf = xmalloc(strlen(text) + 1);
	task_init(&a);
	task_init(&b);
	ra = taskscan_task(text, strlen(text), buf, &a);
	rb = taskscan_task_unique(text, strlen(text), buf, &b);
	cr_assert_eq(ra, rb, "%s", text);
	cr_assert(ra != 0 || !taskscan_task_differ(&a, &b), "%s: %s", text, taskscan_diff_why);
	task_cleanup(&a);
	task_cleanup(&b);
	free(buf);
	free(text);
}

Test(taskscan, unique_keys_read_as_checked)
{
	char *line = rich_line(false), *detail = strstr(line, "\"detail\":{") + 9;
	size_t n = strlen(detail) - 1;

	check_unique(detail, n);
	for (int i = 0; i < 20000; i++) {
		char buf[8192];
		size_t m = n, edits = 1 + next() % 3;

		memcpy(buf, detail, n);
		for (size_t k = 0; k < edits; k++)
			m = mutate(buf, m, sizeof buf);
		check_unique(buf, m);
	}
	free(line);
}

/* taskscan_task_at (a DescribeTasks answer's tasks, live.c): a task read after another of
 * the same pool takes its strings where they are the same text, and only there (a prefix
 * of one, or one with more, is another string). */
Test(taskscan, task_at_takes_the_previous_tasks_strings)
{
	static const char text[] =
		"[{\"taskArn\":\"arn:t/1\",\"clusterArn\":\"arn:c\",\"launchType\":\"FARGATE\","
		"\"cpu\":\"256\",\"memory\":\"512\",\"group\":\"service:web\"},"
		" {\"taskArn\":\"arn:t/2\",\"clusterArn\":\"arn:c\",\"launchType\":\"FARGAT\","
		"\"cpu\":\"2560\",\"memory\":\"512\",\"group\":null,\"lastStatus\":\"RUNNING\"}]";
	const char *second = strstr(text, " {") + 1;
	struct task_strpool *pool = task_strpool_new();
	struct jsonscan_dup dup;
	char buf[sizeof text];
	struct jsonscan sc = { text, text + sizeof text - 1, buf, 0, &dup };
	struct task a, b, alone;

	task_init_pool(&a, pool);
	task_init_pool(&b, pool);
	task_init_pool(&alone, pool);
	cr_assert_eq(jsonscan_element(&sc, true), 1);
	cr_assert_eq(taskscan_task_at(&sc, &a, NULL), 0);
	cr_assert_eq(jsonscan_element(&sc, false), 1);
	cr_assert_eq(taskscan_task_at(&sc, &b, &a), 0);
	cr_assert_eq(jsonscan_element(&sc, false), 0);
	cr_assert_eq(taskscan_task(second, strlen(second) - 1, buf, &alone), 0);
	cr_assert_eq(b.prof->cluster_arn, a.prof->cluster_arn, "the same text: the same string");
	cr_assert_eq(b.prof->memory, a.prof->memory);
	cr_assert_str_eq(ARN_OF(&b), "arn:t/2");
	cr_assert_str_eq(b.prof->launch_type, "FARGAT");
	cr_assert_str_eq(b.prof->cpu, "2560");
	cr_assert_null(b.prof->group);
	cr_assert_str_eq(b.prof->last_status, "RUNNING");
	cr_assert_str_eq(alone.prof->cluster_arn, b.prof->cluster_arn);
	cr_assert_str_eq(alone.prof->launch_type, b.prof->launch_type);
	cr_assert_str_eq(alone.prof->cpu, b.prof->cpu);
	cr_assert_str_eq(alone.prof->memory, b.prof->memory);
	task_strpool_free(pool);
}

/* epoch times read 8 digits at once (fast_epoch): every number of 1 to 14 digits, with
 * and without a fraction of 0 to 4 digits or an exponent, a non-digit anywhere among the
 * first 8 bytes, reads as jansson's path reads it */
Test(taskscan, epoch_digits_agree_with_jansson)
{
	static const char *tails[] = { "", ".5", ".12", ".123", ".1234", "e3", ".5E+2", "." };
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	int taken = 0;

	for (int i = 0; i < 40000; i++) {
		char num[40], json[128];
		int nd, n;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		nd = 1 + (int)(x % 14);
		for (int k = 0; k < nd; k++)
			num[k] = (char)('0' + (x >> (8 + 3 * k % 50)) % 10);
		if (num[0] == '0' && nd > 1)
			num[0] = '1' + (char)(x % 9);
		if ((x >> 30) % 7 == 0)   /* a byte that is no digit in the 8-byte window */
			num[(x >> 33) % (uint64_t)nd] = "x:/ .-+"[(x >> 40) % 7];
		snprintf(num + nd, sizeof num - (size_t)nd, "%s", tails[(x >> 50) % 8]);
		/* the number last in the object or before others */
		if ((x >> 60) & 1)
			n = snprintf(json, sizeof json, "{\"taskArn\":\"a\",\"createdAt\":%s}", num);
		else
			n = snprintf(json, sizeof json, "{\"createdAt\":%s,\"startedAt\":%s,"
				     "\"taskArn\":\"a\"}", num, num);
		taken += check_task("epoch digits", json, (size_t)n);
	}
	cr_expect_gt(taken, 10000, "only %d taken", taken);
}

/* the same for a task's containers and tags (their place in the task before): the same
 * text, the same string, and the digest's bytes shared after the same image; any other
 * text (a prefix, another digest) its own, as a task read alone has it */
Test(taskscan, task_at_takes_the_previous_tasks_container_strings)
{
	static const char text[] =
		"[{\"taskArn\":\"arn:t/1\",\"containers\":[{\"name\":\"web\",\"image\":\"img:1\","
		"\"lastStatus\":\"RUNNING\",\"imageDigest\":\"sha256:"
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"},"
		"{\"name\":\"side\",\"image\":\"img:2\",\"imageDigest\":\"x\"}],"
		"\"tags\":[{\"key\":\"team\",\"value\":\"a\"}]},"
		" {\"taskArn\":\"arn:t/2\",\"containers\":[{\"name\":\"we\",\"image\":\"img:1\","
		"\"lastStatus\":\"RUNNING\",\"imageDigest\":\"sha256:"
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"},"
		"{\"name\":\"side\",\"image\":\"img:2\",\"imageDigest\":\"y\"}],"
		"\"tags\":[{\"key\":\"team\",\"value\":\"ab\"}]},"
		" {\"taskArn\":\"arn:t/3\",\"containers\":[{\"name\":\"we\",\"image\":\"img:1\","
		"\"imageDigest\":\"sha256:"
		"1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"}]}]";
	struct task_strpool *pool = task_strpool_new();
	struct jsonscan_dup dup;
	char buf[sizeof text];
	struct jsonscan sc = { text, text + sizeof text - 1, buf, 0, &dup };
	struct task a, b, c;
	struct digest_buf da, db;

	task_init_pool(&a, pool);
	task_init_pool(&b, pool);
	task_init_pool(&c, pool);
	cr_assert_eq(jsonscan_element(&sc, true), 1);
	cr_assert_eq(taskscan_task_at(&sc, &a, NULL), 0);
	cr_assert_eq(jsonscan_element(&sc, false), 1);
	cr_assert_eq(taskscan_task_at(&sc, &b, &a), 0);
	cr_assert_eq(jsonscan_element(&sc, false), 1);
	cr_assert_eq(taskscan_task_at(&sc, &c, &b), 0);
	cr_assert_eq(jsonscan_element(&sc, false), 0);
	cr_assert_eq(b.ncontainers, 2);
	cr_assert_str_eq(b.containers[0].prof->name, "we");
	cr_assert_eq(b.containers[0].prof->image, a.containers[0].prof->image);
	cr_assert_eq(b.containers[0].prof->last_status, a.containers[0].prof->last_status);
	cr_assert_eq(b.containers[0].digest_raw, a.containers[0].digest_raw,
		     "the same digest after the same image: the same bytes");
	cr_assert_str_eq(container_digest(&b.containers[0], &db),
			 container_digest(&a.containers[0], &da));
	cr_assert_eq(b.containers[1].prof->name, a.containers[1].prof->name);
	cr_assert_str_eq(container_digest(&b.containers[1], &db), "y");
	cr_assert_str_eq(container_digest(&a.containers[1], &da), "x");
	cr_assert_str_eq(container_digest(&c.containers[0], &db), "sha256:"
			 "1123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	cr_assert_null(c.containers[0].prof->last_status);
	cr_assert_eq(b.prof->ntags, 1);
	cr_assert_eq(b.prof->tags[0].key, a.prof->tags[0].key);
	cr_assert_str_eq(b.prof->tags[0].value, "ab");
	cr_assert_str_eq(a.prof->tags[0].value, "a");
	task_strpool_free(pool);
}
