/* fastjson: plain JSON Lines lines read without jansson's lexer, into jansson's values.
 * Only ever an accelerator: whatever it gives up on, json_loadb() reads from the start,
 * so tests/test_fastjson.c and tests/fuzz/fuzz_fastjson.c check it against json_loadb(). */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ecsprof/jsonscan.h"
#include "fastjson.h"

/* jansson's lexer takes a byte at a time through a callback and copies each into a buffer:
 * two thirds of the time of a run. Lines that are plainly valid (ASCII strings with the
 * short escapes, integers, objects and arrays up to FASTJSON_DEPTH deep: what ECS and
 * EventBridge write) are read here instead, into the very values json_loadb() builds
 * (jansson's object, array, string and integer constructors, in the same order). On
 * anything else fastjson_load() gives up, and json_loadb() reads the line from the start,
 * so jansson alone still decides what is malformed and how to say so. */
#define FASTJSON_DEPTH 64

struct fastjson {
	const char *p, *end;
	char *buf;          /* strings with escapes, decoded; as long as the line */
	int depth;
};

static json_t *fastjson_value(struct fastjson *f);

static void
fastjson_ws(struct fastjson *f)
{
	while (f->p < f->end && (*f->p == ' ' || *f->p == '\t' || *f->p == '\n' || *f->p == '\r'))
		f->p++;
}

static bool
fastjson_at(const struct fastjson *f, char c)
{
	return f->p < f->end && *f->p == c;
}

/* The string whose opening quote was just passed: its text in the line, or decoded in
 * f->buf when it has escapes (only when may_escape, since keys must outlive their value).
 * -1: not a plain string. */
static int
fastjson_string(struct fastjson *f, bool may_escape, const char **out, size_t *n)
{
	const char *q = f->p;
	size_t o;

	for (; q < f->end; q++) {
		unsigned char c = (unsigned char)*q;

		if (c == '"') {
			*out = f->p;
			*n = (size_t)(q - f->p);
			f->p = q + 1;
			return 0;
		}
		if (c == '\\')
			break;
		if (c < 0x20 || c >= 0x80)
			return -1;
	}
	if (q >= f->end || !may_escape)
		return -1;
	o = (size_t)(q - f->p);
	memcpy(f->buf, f->p, o);
	while (q < f->end) {
		unsigned char c = (unsigned char)*q++;

		if (c == '"') {
			*out = f->buf;
			*n = o;
			f->p = q;
			return 0;
		}
		if (c < 0x20 || c >= 0x80)
			return -1;
		if (c == '\\') {
			if (q >= f->end)
				return -1;
			int e = jsonscan_unescape((char)*q++);

			if (e < 0)
				return -1;     /* \u and anything wrong: jansson's */
			c = (unsigned char)e;
		}
		f->buf[o++] = (char)c;
	}
	return -1;
}

/* An integer of up to 18 digits, which cannot overflow; reals are jansson's. */
static json_t *
fastjson_integer(struct fastjson *f)
{
	const char *q = f->p;
	bool neg = false;
	json_int_t v = 0;
	int digits = 0;

	if (q < f->end && *q == '-') {
		neg = true;
		q++;
	}
	if (q >= f->end || *q < '0' || *q > '9')
		return NULL;
	if (*q == '0') {
		q++;
	} else {
		for (; q < f->end && *q >= '0' && *q <= '9'; q++) {
			if (++digits > 18)
				return NULL;
			v = v * 10 + (*q - '0');
		}
	}
	if (q < f->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E'))
		return NULL;
	f->p = q;
	return json_integer(neg ? -v : v);
}

static json_t *
fastjson_word(struct fastjson *f, const char *word, json_t *value)
{
	size_t n = strlen(word);

	if ((size_t)(f->end - f->p) < n || memcmp(f->p, word, n) != 0)
		return NULL;
	/* jansson reads a whole run of letters as one word: "truex" is no "true" */
	if (f->p + n < f->end && ((f->p[n] >= 'a' && f->p[n] <= 'z') ||
	    (f->p[n] >= 'A' && f->p[n] <= 'Z')))
		return NULL;
	f->p += n;
	return value;
}

static json_t *
fastjson_object(struct fastjson *f)
{
	json_t *o = json_object();

	f->p++;
	fastjson_ws(f);
	if (o == NULL)
		return NULL;
	if (fastjson_at(f, '}')) {
		f->p++;
		return o;
	}
	for (;;) {
		const char *key;
		size_t len, n;
		json_t *v;

		if (!fastjson_at(f, '"'))
			goto fail;
		f->p++;
		if (fastjson_string(f, false, &key, &len) != 0)
			goto fail;
		fastjson_ws(f);
		if (!fastjson_at(f, ':'))
			goto fail;
		f->p++;
		fastjson_ws(f);
		n = json_object_size(o);
		if ((v = fastjson_value(f)) == NULL || json_object_setn_new_nocheck(o, key, len, v) != 0)
			goto fail;
		if (json_object_size(o) == n)
			goto fail;   /* a key twice: json_loadb() and the reader warn about it */
		fastjson_ws(f);
		if (fastjson_at(f, '}')) {
			f->p++;
			return o;
		}
		if (!fastjson_at(f, ','))
			goto fail;
		f->p++;
		fastjson_ws(f);
	}
fail:
	json_decref(o);
	return NULL;
}

static json_t *
fastjson_array(struct fastjson *f)
{
	json_t *a = json_array();

	f->p++;
	fastjson_ws(f);
	if (a == NULL)
		return NULL;
	if (fastjson_at(f, ']')) {
		f->p++;
		return a;
	}
	for (;;) {
		json_t *v = fastjson_value(f);

		if (v == NULL || json_array_append_new(a, v) != 0)
			goto fail;
		fastjson_ws(f);
		if (fastjson_at(f, ']')) {
			f->p++;
			return a;
		}
		if (!fastjson_at(f, ','))
			goto fail;
		f->p++;
		fastjson_ws(f);
	}
fail:
	json_decref(a);
	return NULL;
}

static json_t *
fastjson_value(struct fastjson *f)
{
	const char *s;
	size_t n;
	json_t *v;

	if (f->p >= f->end)
		return NULL;
	switch (*f->p) {
	case '{':
	case '[':
		if (++f->depth > FASTJSON_DEPTH)
			return NULL;
		v = *f->p == '{' ? fastjson_object(f) : fastjson_array(f);
		f->depth--;
		return v;
	case '"':
		f->p++;
		return fastjson_string(f, true, &s, &n) == 0 ? json_stringn_nocheck(s, n) : NULL;
	case 't':
		return fastjson_word(f, "true", json_true());
	case 'f':
		return fastjson_word(f, "false", json_false());
	case 'n':
		return fastjson_word(f, "null", json_null());
	default:
		return fastjson_integer(f);
	}
}

json_t *
fastjson_load(const char *line, size_t n, char *buf)
{
	struct fastjson f = { line, line + n, buf, 0 };
	json_t *root;

	fastjson_ws(&f);
	if (!fastjson_at(&f, '{') && !fastjson_at(&f, '['))
		return NULL;
	root = fastjson_value(&f);
	if (root == NULL)
		return NULL;
	fastjson_ws(&f);
	if (f.p != f.end) {
		json_decref(root);
		return NULL;
	}
	return root;
}

