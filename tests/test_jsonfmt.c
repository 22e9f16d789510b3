/* jsonfmt: every function against jansson itself, the writer jsonout used before (the
 * value built with json_string/json_real/json_integer and dumped with jsonout's flags),
 * over millions of values and the edges; and a task line whose tags repeat a key or carry
 * invalid UTF-8, against the jansson object jsonout used to build for them. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../src/out/jsonfmt.h"
#include "ecsprof/jsonout.h"
#include "ecsprof/report.h"
#include "ecsprof/task.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/xalloc.h"

#define FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* jansson's text of j (released), "null" for a NULL j; caller frees */
static char *
oracle(json_t *j)
{
	char *s;

	if (j == NULL)
		return xstrdup("null");
	s = json_dumps(j, FLAGS);
	json_decref(j);
	cr_assert_not_null(s);
	/* and escaped as jsonout's jansson path escapes it: DEL, C1, bidi (termsafe) */
	{
		char *out = NULL;
		size_t len;
		FILE *f = open_memstream(&out, &len);

		cr_assert_not_null(f);
		cr_assert_eq(termsafe_put_json(f, s), 0);
		fclose(f);
		free(s);
		s = out;
	}
	return s;
}

static void
expect_same(char *want, struct buf *b, const char *what)
{
	cr_assert_str_eq(buf_str(b), want, "%s: jansson wrote %s, jsonfmt %s", what, want,
			 buf_str(b));
	free(want);
	buf_reset(b);
}

/* jsonout's utf8_fix before jsonfmt: each byte jansson refuses as U+FFFD */
static char *
fix(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = xmalloc(n * 3 + 1);

	for (size_t i = 0; i < n;) {
		json_t *one = NULL;
		size_t len;

		/* the longest prefix jansson accepts as one character */
		for (len = 4; len >= 1; len--)
			if (i + len <= n && (one = json_stringn(s + i, len)) != NULL &&
			    json_string_length(one) == len)
				break;
		json_decref(one);
		if (len == 0 || (len > 1 && (unsigned char)s[i] < 0x80))
			len = (unsigned char)s[i] < 0x80 ? 1 : 0;
		if (len == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		}
	}
	out[o] = '\0';
	return out;
}

Test(jsonfmt, strings_match_jansson)
{
	struct buf b;
	static const unsigned char alphabet[] = "a\"\\/\b\f\n\r\t\x01\x1f\x7f\xc2\xa9\xe2\x82\xac"
		"\xf0\x9f\x98\x80\xed\xa0\x80\xc0\xaf\xf4\x90\x80\x80\xe0\x80\xff\x80 "
		"\xe2\x80\xae\xe2\x81\xa6\xc2\x9b\xc2\x85";   /* bidi, C1: escaped */

	buf_init(&b, BUF_MAX_DEFAULT);
	for (int i = 0; i < 100000; i++) {
		char s[24];
		size_t n = next() % (sizeof s - 1);
		json_t *j;

		for (size_t k = 0; k < n; k++)
			s[k] = (char)alphabet[next() % (sizeof alphabet - 1)];
		s[n] = '\0';
		if (n == 0) {
			cr_assert_eq(jsonfmt_string(&b, s), 0);
			expect_same(xstrdup("null"), &b, "empty");
			continue;
		}
		cr_assert_eq(jsonfmt_string(&b, s), 0);
		if ((j = json_string(s)) == NULL) {
			char *fixed = fix(s);

			j = json_string(fixed);
			free(fixed);
			cr_assert_not_null(j, "the fixed string is still refused");
		}
		expect_same(oracle(j), &b, "string");
	}
	cr_assert_eq(jsonfmt_string(&b, NULL), 0);
	expect_same(xstrdup("null"), &b, "NULL");
	cr_assert_eq(jsonfmt_key(&b, ""), 0);
	expect_same(xstrdup("\"\":"), &b, "empty key");
	buf_cleanup(&b);
}

/* jsonfmt_quoted skips runs of plain bytes 8 at a time: every byte value at every place
 * of such a run, and long plain strings with a special byte here and there */
static void
expect_as_jansson(struct buf *b, const char *s)
{
	json_t *j = json_string(s);
	struct buf tight;
	char *want;

	cr_assert_eq(jsonfmt_string(b, s), 0);
	if (j == NULL) {
		char *fixed = fix(s);

		j = json_string(fixed);
		free(fixed);
		cr_assert_not_null(j, "the fixed string is still refused");
	}
	want = oracle(j);
	/* a buf capped at the text's own length: written a piece at a time, the same bytes */
	buf_init(&tight, strlen(want));
	cr_assert_eq(jsonfmt_string(&tight, s), 0, "%s: refused under a cap that fits it", want);
	cr_assert_str_eq(buf_str(&tight), want);
	buf_cleanup(&tight);
	expect_same(want, b, "string");
}

Test(jsonfmt, plain_runs_match_jansson)
{
	struct buf b;
	static const unsigned char special[] = "\"\\\b\n\x01\x1f\x7f\xc2\xa9\xe2\x82\xac\xe2\x80\xae"
		"\xc2\x9b\xff\x80~ ";

	buf_init(&b, BUF_MAX_DEFAULT);
	for (int v = 1; v < 256; v++)
		for (int at = 0; at < 24; at++) {
			char s[25];

			memset(s, 'x', 24);
			s[24] = '\0';
			s[at] = (char)v;
			expect_as_jansson(&b, s);
		}
	/* a run's last 1-7 bytes are copied as the 8 that end it: a special byte at each
	 * place of strings of every length with such a tail */
	for (size_t len = 9; len < 24; len++)
		for (size_t k = 0; k < sizeof special - 1; k++)
			for (size_t at = 0; at < len; at++) {
				char s[25];

				memset(s, 'x', len);
				s[len] = '\0';
				s[at] = (char)special[k];
				expect_as_jansson(&b, s);
			}
	for (int i = 0; i < 20000; i++) {
		char s[80];
		size_t n = 1 + next() % (sizeof s - 2);

		for (size_t k = 0; k < n; k++)
			s[k] = next() % 8 ? (char)('a' + next() % 26) :
			       (char)special[next() % (sizeof special - 1)];
		s[n] = '\0';
		expect_as_jansson(&b, s);
	}
	buf_cleanup(&b);
}

/* item 5 of issue 10: no control reaches a terminal raw, and the string decodes the same */
Test(jsonfmt, terminal_controls_are_escaped)
{
	struct buf b;

	buf_init(&b, BUF_MAX_DEFAULT);
	cr_assert_eq(jsonfmt_string(&b, "\x1b]0;x\x07r\xe2\x80\xae" "e\xe2\x81\xa9" "d\xc2\x9b\x7f\xc3\xa9"),
		     0);
	cr_expect_str_eq(buf_str(&b), "\"\\u001B]0;x\\u0007r\\u202Ee\\u2069d\\u009B\\u007F\xc3\xa9\"");
	buf_cleanup(&b);
}

Test(jsonfmt, reals_match_jansson)
{
	static const double edges[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 1e15, 1e16, 1e-4, 9.9995e-5,
		1e-5, 123456789012345.0, 1234567890123456.0, 1e300, -1e-300, 5e-324,
		1.7976931348623157e308, 9.9995, 0.5, 2.5e-7, 1e21, 1e100 };
	struct buf b;

	buf_init(&b, BUF_MAX_DEFAULT);
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		cr_assert_eq(jsonfmt_real(&b, edges[i]), 0);
		expect_same(oracle(json_real(edges[i])), &b, "edge real");
	}
	for (int i = 0; i < 300000; i++) {
		uint64_t bits = next();
		double v;

		memcpy(&v, &bits, sizeof v);
		if (!isfinite(v))
			continue;
		if (i % 2)
			v = (double)(int64_t)(next() % 2000000000) / 1000.0 * (i % 3 ? 1 : 1e-6);
		cr_assert_eq(jsonfmt_real(&b, v), 0);
		expect_same(oracle(json_real(v)), &b, "real");
	}
	buf_cleanup(&b);
}

static void
check_secs(struct buf *b, int64_t ms)
{
	cr_assert_eq(jsonfmt_secs(b, ms), 0);
	expect_same(oracle(ms == TS_NONE || ms < 0 ? json_null() : json_real((double)ms / 1000.0)),
		    b, "secs");
}

Test(jsonfmt, seconds_match_jansson)
{
	static const int64_t edges[] = { TS_NONE, -1, 0, 1, 999, 1000, 1001, 999999999999999LL,
		1000000000000000LL, 1000000000000001LL, 9007199254740993LL, INT64_MAX,
		1714557603123LL, 4102444800000LL };
	struct buf b;

	buf_init(&b, BUF_MAX_DEFAULT);
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		check_secs(&b, edges[i]);
	for (int64_t ms = 0; ms < 300000; ms++)
		check_secs(&b, ms);
	for (int i = 0; i < 400000; i++) {
		int scale = (int)(next() % 19);
		int64_t m = 1;

		for (int k = 0; k < scale; k++)
			m *= 10;
		check_secs(&b, (int64_t)(next() % (uint64_t)m) - (i % 50 == 0 ? m / 2 : 0));
	}
	buf_cleanup(&b);
}

static void
check_decimal(struct buf *b, const char *text)
{
	int rc = 0;
	double v = strtod(text, NULL);
	bool wrote = jsonfmt_decimal(b, text, &rc);

	cr_assert_eq(rc, 0);
	cr_assert_eq(wrote, isfinite(v) != 0, "\"%s\": written %d", text, wrote);
	if (wrote)
		expect_same(oracle(json_real(v)), b, text);
	else
		cr_assert_eq(b->len, 0, "\"%s\": wrote %s", text, buf_str(b));
}

/* the startup-cost cell is "%.6f" of dollars; anything else goes through strtod */
Test(jsonfmt, decimal_cells_match_jansson)
{
	static const char *edges[] = { "0", "-0", "0.000000", "-0.000000", "12", "0.000100",
		"0.000099", "0.0001", "0.00001", "123456789012345", "1234567890123456",
		"12345678901234.5", "1234567890123.45", "0.123456789012345", "0.1234567890123456",
		"0.000123456789012345", "0.0001234567890123456", "007.5", "1e5", "1.", ".5", "-",
		"nan", "inf", "-inf", "1e999", "abc", "12abc", "+1.5", " 1", "0x10", "9.9995" };
	struct buf b;
	char text[400];

	buf_init(&b, BUF_MAX_DEFAULT);
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		check_decimal(&b, edges[i]);
	/* below 10^-4, e notation: each exponent to the subnormals, 1 to 15 digits */
	for (int zeros = 4; zeros < 330; zeros++)
		for (int nd = 1; nd <= 16; nd += 3) {
			int n = snprintf(text, sizeof text, "%s0.%0*d%.*s", zeros % 2 ? "-" : "",
					 zeros, 0, nd, "1234567890123456");

			cr_assert_lt(n, (int)sizeof text);
			check_decimal(&b, text);
			strcat(text, "00");   /* trailing zeros */
			check_decimal(&b, text);
		}
	for (int i = 0; i < 300000; i++) {
		double v = (double)(next() % 10000000000ULL) / 1e6;

		v *= pow(10.0, (double)((int)(next() % 24) - 12));
		if (i % 7 == 0)
			v = -v;
		snprintf(text, sizeof text, i % 5 == 0 ? "%.3f" : "%.6f", v);
		check_decimal(&b, text);
	}
	snprintf(text, sizeof text, "%.6f", 1.7976931348623157e308);
	check_decimal(&b, text);
	buf_cleanup(&b);
}

Test(jsonfmt, integers_match_jansson)
{
	struct buf b;

	buf_init(&b, BUF_MAX_DEFAULT);
	for (int i = 0; i < 100000; i++) {
		int64_t v = (int64_t)next() >> (next() % 64);

		if (i == 0)
			v = INT64_MIN;
		cr_assert_eq(jsonfmt_int(&b, v), 0);
		expect_same(oracle(json_integer(v)), &b, "integer");
	}
	buf_cleanup(&b);
}

/* tags as jansson's object held them: a repeated key keeps its first place and takes the
 * last value, invalid UTF-8 in a key is fixed (so two keys can become one), a NULL key is
 * left out and a NULL value is null */
/* the tags repeated reps times: a key set twice keeps its first place and its last value,
 * as many tags as ECS allows sorted on the stack and more in an allocation (jsonout) */
static void
tags_as_jansson(size_t reps)
{
	static const char *kv[][2] = { { "team", "a" }, { "env", "prod" }, { "team", "b" },
		{ "bad\xff", "x" }, { "", NULL }, { "bad\xfe", "y" }, { NULL, "z" },
		{ "quote\"d", "\x01" }, { "env", "" } };
	size_t nkv = sizeof kv / sizeof kv[0], n = nkv * reps;
	struct task_set s;
	struct report r;
	struct report_options o = { .sort_col = -1 };
	struct err err;
	struct task t;
	json_t *tags = json_object();
	char *out = NULL, *want, *at;
	size_t len;
	FILE *f;

	task_set_init(&s);
	task_init(&t);
	task_set_arn(&t, "arn:aws:ecs:us-east-1:1:task/c/0123456789abcdef0123456789abcdef", strlen("arn:aws:ecs:us-east-1:1:task/c/0123456789abcdef0123456789abcdef"));
	struct tag *tg = task_tags(&t, n);
	for (size_t i = 0; i < n; i++) {
		const char *k = kv[i % nkv][0], *v = kv[i % nkv][1];

		task_str(&t, &tg[i].key, k);
		task_str(&t, &tg[i].value, v);
		if (k != NULL) {
			char *key = fix(k);

			json_object_set_new(tags, key, v && *v ? json_string(v) : json_null());
			free(key);
		}
	}
	task_derive(&t);
	task_set_take(&s, &t);
	err_clear(&err);
	cr_assert_eq(group_key_parse("taskdef", &o.group_by, &err), 0);
	cr_assert_eq(report_build(&r, &s, &o, &err), 0, "%s", err.msg);
	f = open_memstream(&out, &len);
	cr_assert_eq(jsonout_write_task_line(f, &r, &r.rows[0]), 0);
	fclose(f);
	want = oracle(tags);
	at = strstr(out, "\"tags\":");
	cr_assert_not_null(at, "%s", out);
	cr_expect_eq(strncmp(at + 7, want, strlen(want)), 0, "want %s, got %s", want, at + 7);
	cr_expect_str_eq(at + 7 + strlen(want), "}\n");
	free(want);
	free(out);
	report_cleanup(&r);
	group_key_cleanup(&o.group_by);
	task_set_cleanup(&s);
}

Test(jsonfmt, task_tags_match_a_jansson_object)
{
	tags_as_jansson(1);
	tags_as_jansson(10);
}

/* jsonfmt_put's fast path (no call when the bytes fit in what the buf holds) keeps the
 * buf's cap: with room allocated past max, a string that would cross max is refused, the
 * buf never holds more than max bytes and stays NUL-terminated (jsonout drops a refused
 * line whole) */
Test(jsonfmt, put_keeps_the_cap)
{
	struct buf b;

	buf_init(&b, 10);
	cr_assert_eq(jsonfmt_put(&b, "ab", 2), 0);   /* buf_add: 64 bytes allocated */
	cr_assert_gt(b.cap, 20);
	cr_assert_eq(jsonfmt_string(&b, "cdef"), 0);   /* "cdef" fits: 8 bytes */
	cr_expect_str_eq(buf_str(&b), "ab\"cdef\"");
	cr_expect_neq(jsonfmt_string(&b, "gh"), 0);   /* 12 > 10 */
	cr_expect_leq(b.len, 10);
	cr_expect_eq(b.data[b.len], '\0');
	cr_expect_neq(jsonfmt_int(&b, 123456), 0);
	cr_expect_leq(b.len, 10);
	while (b.len < 10)   /* a refused value may leave a part, as buf_add did */
		cr_assert_eq(jsonfmt_putc(&b, 'x'), 0);
	cr_expect_neq(jsonfmt_putc(&b, 'z'), 0);
	cr_expect_eq(b.len, 10);
	cr_expect_eq(b.data[10], '\0');
	buf_cleanup(&b);
}

/* jsonfmt_at_string of the text at s, against jsonfmt_string of it: the same bytes, and
 * nothing written past the end it returns (the words it copies overlap inside the text) */
static void
at_as_string(struct buf *b, const char *s, size_t n)
{
	char out[6 * 96 + 2 + 4 + 64];
	char *end;
	size_t len;

	cr_assert_lt(n, 96);
	memset(out, '#', sizeof out);
	end = jsonfmt_at_string(out, s, n);
	len = (size_t)(end - out);
	cr_assert_eq(jsonfmt_string(b, s), 0);
	cr_assert_eq(len, b->len, "at %zu bytes: %.*s, jsonfmt_string %s", n, (int)len, out,
		     buf_str(b));
	cr_assert_eq(memcmp(out, b->data, len), 0, "at: %.*s, jsonfmt_string %s", (int)len, out,
		     buf_str(b));
	for (size_t i = len; i < sizeof out; i++)
		cr_assert_eq(out[i], '#', "written past the end at %zu of %zu", i, len);
	buf_reset(b);
}

/* A task line's cells written at a pointer (jsontask.c): every length 0-95 with each
 * special byte at each place, every byte value at each place of the lengths where the
 * copied words change (3/4, 7/8, 15/16/17, 31/32/33), and each text placed so that its
 * NUL is the last byte before an unreadable page: a byte read past the text faults. */
Test(jsonfmt, at_string_matches_string)
{
	static const unsigned char special[] = "\"\\\b\n\x01\x1f\x7f\xc2\xa9\xe2\x82\xac\xe2\x80\xae"
		"\xc2\x9b\xff\x80~ ";
	static const size_t edges[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63 };
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *guard;
	struct buf b;

	cr_assert_neq(map, MAP_FAILED);
	cr_assert_eq(mprotect(map + page, (size_t)page, PROT_NONE), 0);
	guard = map + page;
	buf_init(&b, BUF_MAX_DEFAULT);
	for (size_t n = 0; n < 96; n++) {
		char *s = guard - n - 1;

		memset(s, 'x', n);
		s[n] = '\0';
		at_as_string(&b, s, n);
		for (size_t k = 0; k < sizeof special - 1; k++)
			for (size_t at = 0; at < n; at++) {
				memset(s, 'x', n);
				s[at] = (char)special[k];
				at_as_string(&b, s, n);
			}
	}
	for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
		for (int v = 1; v < 256; v++)
			for (size_t at = 0; at < edges[e]; at++) {
				char *s = guard - edges[e] - 1;

				memset(s, 'y', edges[e]);
				s[edges[e]] = '\0';
				s[at] = (char)v;
				at_as_string(&b, s, edges[e]);
			}
	for (int i = 0; i < 20000; i++) {
		size_t n = next() % 96;
		char *s = guard - n - 1;

		for (size_t k = 0; k < n; k++)
			s[k] = next() % 8 ? (char)('a' + next() % 26) :
			       (char)special[next() % (sizeof special - 1)];
		s[n] = '\0';
		at_as_string(&b, s, n);
	}
	buf_cleanup(&b);
	munmap(map, (size_t)page * 2);
}
