/* test_fastjson: fastjson_load() against json_loadb(), the reader it stands in for. Whenever
 * the fast path accepts a line, jansson must accept it too and build an equal value that
 * dumps to the same bytes (sorted, and in insertion order); giving up is always allowed.
 * Counts of accepted lines are checked too, so a fast path that always gives up fails. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/in/fastjson.h"
#include "ecsprof/xalloc.h"

#define DUMP_SORTED (JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY)
#define DUMP_ORDER (JSON_COMPACT | JSON_ENCODE_ANY)

/* at most 160 bytes of s, printable, for failure messages */
static void
show(char *out, size_t size, const char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && i < 160 && o + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
	}
	out[o] = '\0';
}

static void
same_dump(const json_t *fast, const json_t *slow, size_t flags, const char *what,
    const char *text)
{
	char *a = json_dumps(fast, flags), *b = json_dumps(slow, flags);

	cr_assert_not_null(a, "%s: json_dumps of the fast value failed: %s", what, text);
	cr_assert_not_null(b, "%s: json_dumps of jansson's value failed: %s", what, text);
	cr_assert_str_eq(a, b, "%s: dumps differ for %s", what, text);
	free(a);
	free(b);
}

/* Checks one input; true when the fast path accepted it. The input and the scratch buffer
 * are copied to exactly n bytes of heap, so ASan sees any read past the end of the line. */
static bool
check(const char *s, size_t n, const char *what)
{
	char *in = xmalloc(n ? n : 1), *buf = xmalloc(n ? n : 1), text[1024];
	json_error_t e;
	json_t *fast, *slow;

	memcpy(in, s, n);
	show(text, sizeof text, s, n);
	fast = fastjson_load(in, n, buf);
	slow = json_loadb(in, n, 0, &e);
	if (fast != NULL) {
		cr_assert_not_null(slow, "%s: fast path accepted what jansson rejects (%s): %s",
		    what, e.text, text);
		cr_assert(json_equal(fast, slow), "%s: values differ: %s", what, text);
		same_dump(fast, slow, DUMP_SORTED, what, text);
		same_dump(fast, slow, DUMP_ORDER, what, text);
	}
	json_decref(fast);
	json_decref(slow);
	free(in);
	free(buf);
	return fast != NULL;
}

/* ---- hand-written edge cases ------------------------------------------------------- */

enum want { ANY, FAST };    /* FAST: plainly valid, the fast path must take it */

struct edge {
	const char *name;
	const char *text;
	size_t len;
	enum want want;
};

#define E(name, lit, want) { name, lit, sizeof(lit) - 1, want }

static const struct edge edges[] = {
	/* escapes */
	E("short escapes", "{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}", FAST),
	E("escape mid string", "[\"x\\\"y\", \"a\\nb\"]", FAST),
	E("escape in key", "{\"a\\n\":\"x\"}", ANY),
	E("escaped quote key", "{\"\\\"\":1}", ANY),
	E("unknown escape", "{\"a\":\"\\q\"}", ANY),
	E("escape at end", "{\"a\":\"x\\", ANY),
	E("escape then end", "[\"\\\"]", ANY),
	E("raw tab in string", "{\"a\":\"x\ty\"}", ANY),
	E("raw newline in string", "[\"a\nb\"]", ANY),
	E("DEL in string", "[\"a\x7f" "b\"]", FAST),
	/* \u sequences */
	E("u ascii", "[\"\\u0041\"]", ANY),
	E("u latin", "[\"\\u00e9\"]", ANY),
	E("u euro upper", "[\"\\u20AC\"]", ANY),
	E("u surrogate pair", "[\"\\ud83d\\ude00\"]", ANY),
	E("u lone high", "[\"\\ud83d\"]", ANY),
	E("u lone low", "[\"\\ude00\"]", ANY),
	E("u high then ascii", "[\"\\ud83d\\u0041\"]", ANY),
	E("u high then text", "[\"\\ud83dx\"]", ANY),
	E("u nul", "[\"\\u0000\"]", ANY),
	E("u short", "[\"\\u12\"]", ANY),
	E("u not hex", "[\"\\uZZZZ\"]", ANY),
	E("u upper U", "[\"\\U0041\"]", ANY),
	E("u in key", "{\"\\u0061\":1}", ANY),
	/* numbers */
	E("zero", "[0]", FAST),
	E("minus zero", "[-0]", FAST),
	E("small ints", "[1,-1,42,-42,7]", FAST),
	E("18 digits", "[123456789012345678]", FAST),
	E("18 digits negative", "[-999999999999999999]", FAST),
	E("19 digits", "[1234567890123456789]", ANY),
	E("19 digits negative", "[-1234567890123456789]", ANY),
	E("int64 max", "[9223372036854775807]", ANY),
	E("int64 max + 1", "[9223372036854775808]", ANY),
	E("int64 min", "[-9223372036854775808]", ANY),
	E("int64 min - 1", "[-9223372036854775809]", ANY),
	E("huge int", "[99999999999999999999999999]", ANY),
	E("float", "[1.5]", ANY),
	E("negative float", "[-0.25]", ANY),
	E("minus zero float", "[-0.0]", ANY),
	E("exponent", "[1e10]", ANY),
	E("exponent plus upper", "[1E+2]", ANY),
	E("exponent minus", "[1e-2]", ANY),
	E("float exponent", "[1.5e3]", ANY),
	E("exponent overflow", "[1e400]", ANY),
	E("exponent underflow", "[1e-400]", ANY),
	E("18 digits then .0", "[123456789012345678.0]", ANY),
	E("dot no digits", "[1.]", ANY),
	E("leading dot", "[.5]", ANY),
	E("leading zero", "[01]", ANY),
	E("double zero", "[00]", ANY),
	E("minus leading zero", "[-01]", ANY),
	E("lone minus", "[-]", ANY),
	E("plus", "[+1]", ANY),
	E("exponent no digits", "[1e]", ANY),
	E("hex", "[0x10]", ANY),
	E("NaN", "[NaN]", ANY),
	E("Infinity", "[-Infinity]", ANY),
	E("minus inside", "[1-2]", ANY),
	E("number then letter", "[1a]", ANY),
	/* words */
	E("words", "[true,false,null]", FAST),
	E("word value", "{\"a\":true,\"b\":null}", FAST),
	E("word run", "[truex]", ANY),
	E("word upper", "[True]", ANY),
	E("word long", "[nulll]", ANY),
	E("word digit", "[true1]", ANY),
	E("word split", "[tru e]", ANY),
	E("word short", "[fals]", ANY),
	/* duplicate keys: jansson keeps the first position and the last value; the fast
	 * path gives them up, so that input_load() finds them and the reader warns */
	E("duplicate", "{\"a\":1,\"a\":2}", ANY),
	E("duplicate apart", "{\"a\":1,\"b\":2,\"a\":3}", ANY),
	E("duplicate containers", "{\"a\":{\"x\":1},\"b\":[],\"a\":[1]}", ANY),
	/* empty containers */
	E("empty object", "{}", FAST),
	E("empty array", "[]", FAST),
	E("empties nested", "[{},[],{\"\":\"\"},[[]]]", FAST),
	E("empty key", "{\"\":1}", FAST),
	E("empty string", "[\"\"]", FAST),
	/* whitespace */
	E("all whitespace", " \t\r\n{ \"a\" :\t[ 1 , 2 ]\r}\r\n ", FAST),
	E("space before colon", "{\"a\" :1 ,\"b\": 2}", FAST),
	E("form feed", "\f{}", ANY),
	E("vertical tab", "{}\v", ANY),
	E("no-break space", "\xc2\xa0{}", ANY),
	E("only whitespace", " \t ", ANY),
	E("empty", "", ANY),
	/* trailing garbage */
	E("garbage letter", "{}x", ANY),
	E("two documents", "{} {}", ANY),
	E("extra bracket", "[]]", ANY),
	E("extra brace", "{}}", ANY),
	E("trailing comma after", "[1],", ANY),
	E("comment", "{\"a\":1}//", ANY),
	E("garbage byte", "[1]\xff", ANY),
	/* truncated and malformed */
	E("open brace", "{", ANY),
	E("open bracket", "[", ANY),
	E("key only", "{\"a\"", ANY),
	E("key colon", "{\"a\":", ANY),
	E("no close", "{\"a\":1", ANY),
	E("comma end", "{\"a\":1,", ANY),
	E("array comma end", "[1,", ANY),
	E("open string", "[\"abc", ANY),
	E("trailing comma", "{\"a\":1,}", ANY),
	E("array trailing comma", "[1,]", ANY),
	E("double comma", "[1,,2]", ANY),
	E("comma only", "{,}", ANY),
	E("key no value", "{\"a\"}", ANY),
	E("number key", "{1:2}", ANY),
	E("single quotes", "{'a':1}", ANY),
	E("missing comma", "{\"a\":1 \"b\":2}", ANY),
	E("double colon", "{\"a\"::1}", ANY),
	E("mismatched close", "[1}", ANY),
	E("top string", "\"a\"", ANY),
	E("top number", "1", ANY),
	E("top true", "true", ANY),
	E("top null", "null", ANY),
	/* NUL bytes */
	E("nul in string", "{\"a\":\"x\0y\"}", ANY),
	E("nul in key", "{\"a\0\":1}", ANY),
	E("nul before", "\0{}", ANY),
	E("nul after", "{}\0", ANY),
	E("nul in array", "[1\0]", ANY),
	/* non-ASCII UTF-8 */
	E("utf8 value", "{\"a\":\"\xc3\xa9t\xc3\xa9\"}", ANY),
	E("utf8 key", "{\"\xc3\xa9\":1}", ANY),
	E("utf8 euro", "[\"\xe2\x82\xac\"]", ANY),
	E("utf8 emoji", "[\"\xf0\x9f\x98\x80\"]", ANY),
	/* invalid UTF-8 */
	E("bad byte ff", "[\"\xff\"]", ANY),
	E("cut sequence", "[\"\xc3\"]", ANY),
	E("overlong slash", "[\"\xc0\xaf\"]", ANY),
	E("utf8 surrogate", "[\"\xed\xa0\x80\"]", ANY),
	E("above U+10FFFF", "[\"\xf4\x90\x80\x80\"]", ANY),
	E("bad key byte", "{\"\xfe\":1}", ANY),
	E("continuation only", "[\"\x80\"]", ANY),
	/* what ECS writes */
	E("task-like", "{\"taskArn\":\"arn:aws:ecs:us-east-1:1:task/c/abc\",\"createdAt\":"
	    "\"2024-05-01T10:00:00.123Z\",\"containers\":[{\"name\":\"app\",\"exitCode\":0}],"
	    "\"tags\":[],\"cpu\":\"256\",\"version\":3}", FAST),
};

Test(fastjson, edge_cases)
{
	size_t fast = 0, must = 0;

	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		bool took = check(edges[i].text, edges[i].len, edges[i].name);

		if (edges[i].want == FAST) {
			must++;
			cr_expect(took, "%s: the fast path gave up on a plain line", edges[i].name);
		}
		fast += took;
	}
	cr_log_info("edge cases: %zu, fast path took %zu (%zu required)",
	    sizeof edges / sizeof edges[0], fast, must);
	cr_assert_geq(fast, must);
}

/* depth levels of arrays (or of {"k": objects) around a 1 */
static char *
nested(int depth, bool objects, size_t *n)
{
	const char *open = objects ? "{\"k\":" : "[";
	char close = objects ? '}' : ']';
	size_t size = (size_t)depth * (strlen(open) + 1) + 2, o = 0;
	char *s = xmalloc(size);

	for (int i = 0; i < depth; i++)
		o += (size_t)snprintf(s + o, size - o, "%s", open);
	s[o++] = '1';
	for (int i = 0; i < depth; i++)
		s[o++] = close;
	s[o] = '\0';
	*n = o;
	return s;
}

Test(fastjson, nesting)
{
	/* 64 is the fast path's limit; 2048 is jansson's */
	static const int depths[] = { 1, 63, 64, 65, 200, 2048, 2049 };

	for (int objects = 0; objects < 2; objects++) {
		for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
			char what[64];
			size_t n;
			char *s = nested(depths[i], objects, &n);
			bool took;

			snprintf(what, sizeof what, "%s nested %d deep", objects ? "objects" : "arrays",
			    depths[i]);
			took = check(s, n, what);
			if (depths[i] <= 64)
				cr_expect(took, "%s: the fast path gave up", what);
			free(s);
		}
	}
}

/* ---- generated lines: mutations of real events -------------------------------------- */

struct lines {
	char **v;
	size_t *len;
	size_t n, cap;
};

static void
lines_add_file(struct lines *l, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;

	cr_assert_not_null(f, "cannot open %s", path);
	while ((got = getline(&line, &cap, f)) > 0) {
		size_t n = (size_t)got;

		if (line[n - 1] == '\n')
			n--;
		if (n == 0)
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 32;
			l->v = xrealloc(l->v, l->cap * sizeof *l->v);
			l->len = xrealloc(l->len, l->cap * sizeof *l->len);
		}
		l->v[l->n] = xmalloc(n);
		memcpy(l->v[l->n], line, n);
		l->len[l->n++] = n;
	}
	free(line);
	fclose(f);
}

static void
lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->len);
}

/* xorshift64*: the same lines on every run and machine */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static size_t
below(uint64_t *s, size_t n)
{
	return n ? (size_t)(rnd(s) % n) : 0;
}

/* tokens worth splicing in: each one sits near a decision of the fast path */
static const char *const tokens[] = {
	"\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\udc00",
	"\\u0000", "\\x", "\\", "\"", "1e5", "-0", "0.5", "-", "12345678901234567890",
	"123456789012345678", "1234567890123456789", "9223372036854775808", "true", "null",
	"false", "tru", " ", "\t", "\r", "\n", ",", ":", "{}", "[]", "{", "}", "[", "]",
	"\"x\":1,", "\xc3\xa9", "\xff", "\xc3", "\xed\xa0\x80", "\x01", "\x7f",
};
static const char bytes[] = "\"\\{}[],:0123456789-+.eEtfnu \t\r\n/\x00\x80\xc3\xff\x7f";

static size_t
mutate(uint64_t *s, const char *src, size_t n, char *out, size_t cap)
{
	size_t len = n, rounds = 1 + below(s, 3);

	memcpy(out, src, n);
	for (size_t r = 0; r < rounds; r++) {
		size_t at = below(s, len + 1);

		/* half of the time next to a structural byte, where the grammar decides */
		if (rnd(s) & 1) {
			for (size_t k = at; k < len; k++) {
				if (strchr("\":,[]{}\\", out[k]) != NULL && out[k] != '\0') {
					at = k + (rnd(s) & 1);
					break;
				}
			}
		}
		switch (below(s, 6)) {
		case 0:     /* flip one bit */
			if (at < len)
				out[at] = (char)(out[at] ^ (1 << below(s, 8)));
			break;
		case 1:     /* replace a byte */
			if (at < len)
				out[at] = bytes[below(s, sizeof bytes - 1)];
			break;
		case 2:     /* truncate */
			len = at;
			break;
		case 3: {   /* insert a token */
			const char *t = tokens[below(s, sizeof tokens / sizeof tokens[0])];
			size_t tn = strlen(t);

			if (len + tn > cap)
				break;
			memmove(out + at + tn, out + at, len - at);
			memcpy(out + at, t, tn);
			len += tn;
			break;
		}
		case 4: {   /* delete a short range */
			size_t dn = 1 + below(s, 8);

			if (dn > len - at)
				dn = len - at;
			memmove(out + at, out + at + dn, len - at - dn);
			len -= dn;
			break;
		}
		default: {  /* copy a short range of the line to here */
			size_t from = below(s, len), cn = 1 + below(s, 24);

			if (cn > len - from)
				cn = len - from;
			if (len + cn > cap)
				break;
			memmove(out + at + cn, out + at, len - at);
			memmove(out + at, out + (from < at ? from : from + cn), cn);
			len += cn;
			break;
		}
		}
	}
	return len;
}

#define GENERATED 6000

Test(fastjson, generated)
{
	struct lines l = { 0 };
	size_t examples, fast = 0, slow_only = 0, cap;
	uint64_t seed = 0x5eed2024f457150aULL;
	char *out, path[4096];
	DIR *d;
	struct dirent *e;

	lines_add_file(&l, TESTS_DIR "/../examples/events.jsonl");
	examples = l.n;
	cr_assert_geq(examples, 10, "examples/events.jsonl has %zu lines", examples);
	/* the unmutated example lines are what the fast path is for */
	for (size_t i = 0; i < examples; i++) {
		char what[64];

		snprintf(what, sizeof what, "examples/events.jsonl line %zu", i + 1);
		cr_assert(check(l.v[i], l.len[i], what), "%s: the fast path gave up", what);
	}
	d = opendir(FIXTURE_DIR "/input");
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t nl = strlen(e->d_name);

		if (nl > 6 && strcmp(e->d_name + nl - 6, ".jsonl") == 0) {
			snprintf(path, sizeof path, "%s/%s", FIXTURE_DIR "/input", e->d_name);
			lines_add_file(&l, path);
		}
	}
	closedir(d);
	cr_assert_gt(l.n, examples, "no fixture lines in %s", FIXTURE_DIR "/input");

	cap = 0;
	for (size_t i = 0; i < l.n; i++)
		cap = l.len[i] > cap ? l.len[i] : cap;
	cap = cap * 2 + 256;
	out = xmalloc(cap);
	for (size_t i = 0; i < GENERATED; i++) {
		size_t pick = below(&seed, l.n), n;
		char what[64];
		json_error_t je;
		json_t *slow;
		bool took;

		n = mutate(&seed, l.v[pick], l.len[pick], out, cap);
		snprintf(what, sizeof what, "generated line %zu (from line %zu)", i, pick);
		took = check(out, n, what);
		fast += took;
		if (!took && (slow = json_loadb(out, n, 0, &je)) != NULL) {
			slow_only++;
			json_decref(slow);
		}
	}
	cr_log_info("generated %d lines from %zu: fast path took %zu, jansson alone %zu",
	    GENERATED, l.n, fast, slow_only);
	/* mutations inside string values leave most lines plain; neither side may be empty */
	cr_assert_geq(fast, GENERATED / 10, "the fast path took only %zu of %d", fast, GENERATED);
	cr_assert_gt(slow_only, 0, "no generated line needed jansson; the mutations are too tame");
	free(out);
	lines_free(&l);
}

/* issue 10 item 10: a key twice is never taken silently: jansson reads the line, and
 * input_load() warns */
Test(fastjson, duplicate_keys_are_given_up)
{
	static const char *lines[] = { "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":2,\"a\":3}",
		"[{\"x\":{\"y\":1,\"y\":1}}]" };
	char buf[64];

	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		cr_expect_null(fastjson_load(lines[i], strlen(lines[i]), buf), "%s", lines[i]);
}
