/* ecs_scan: a DescribeTasks answer read in one pass without a DOM (ecs_int.h). Each task
 * comes out as the very text json_dumps(task, JSON_COMPACT | JSON_REAL_PRECISION(16))
 * gives for it after json_loadb(answer) (what the fetch handed over before, and what a
 * recording keeps): whitespace dropped, escapes written as jansson writes them, numbers as
 * jansson prints them. Anything jsonscan is not sure of (a \u escape, a key named twice,
 * an integer of 19 digits, a failures[] entry, a task that is not an object) gives the
 * whole answer up to jansson, so the tasks and the warnings are the DOM path's.
 * ListTasks pages are read the same way (their ARNs and nextToken).
 * tests/test_ecs_scan.c checks the texts against json_dumps. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_int.h"
#include "ecsprof/jsonscan.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

struct out {
	char *p;
	size_t n, cap;
	double num;     /* the value of the last number walked, when num_set */
	bool num_set;
};

static void
out_put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->p = xrealloc(o->p, o->cap);
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
}

static void
out_c(struct out *o, char c)
{
	if (o->n + 2 > o->cap) {
		o->cap = (o->n + 2) * 2;
		o->p = xrealloc(o->p, o->cap);
	}
	o->p[o->n++] = c;
}

/* A string's decoded bytes as jansson's dump writes them (only the escapes jsonscan
 * decodes can be there: no control character but these, no \u). */
static void
out_escaped(struct out *o, const char *s, size_t n)
{
	out_c(o, '"');
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '"': out_put(o, "\\\"", 2); break;
		case '\\': out_put(o, "\\\\", 2); break;
		case '\b': out_put(o, "\\b", 2); break;
		case '\f': out_put(o, "\\f", 2); break;
		case '\n': out_put(o, "\\n", 2); break;
		case '\r': out_put(o, "\\r", 2); break;
		case '\t': out_put(o, "\\t", 2); break;
		default: out_c(o, s[i]); break;
		}
	}
	out_c(o, '"');
}

/* A real at sc->p of the form -?D.F (D of 1 to 16 digits not starting with 0, F not
 * ending with 0 unless it is just "0", at most 16 digits in all) that jansson prints back
 * as written with 16 digits: its spacing (one ulp, at most 2^(bits of D - 52), as the
 * value is below 2^bits) is below a unit of its 16th digit, so %.16g rounds it back to
 * D.F exactly. Read without strtod (epoch seconds with milliseconds are all such);
 * sc->p is moved past it. false (sc->p unmoved): another form, for jsonscan_number. */
static bool
real_as_written(struct jsonscan *sc)
{
	static const double unit[16] = { 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9,
		1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1 };
	const char *p = sc->p, *end = sc->end, *ds, *fs;
	uint64_t d = 0;
	size_t nd, nf;
	int bits;

	if (p < end && *p == '-')
		p++;
	if (p >= end || *p < '1' || *p > '9')
		return false;
	for (ds = p; p < end && *p >= '0' && *p <= '9' && p - ds < 17; p++)
		d = d * 10 + (uint64_t)(*p - '0');
	nd = (size_t)(p - ds);
	if (p >= end || *p != '.' || nd > 16)
		return false;
	for (fs = ++p; p < end && *p >= '0' && *p <= '9' && p - fs < 17; p++)
		;
	nf = (size_t)(p - fs);
	if (nf == 0 || nd + nf > 16 || (p < end && (*p == 'e' || *p == 'E' ||
						    (*p >= '0' && *p <= '9'))))
		return false;
	if (p[-1] == '0' && nf != 1)
		return false;
	bits = 64 - __builtin_clzll(d);   /* d >= 1: D starts with 1 to 9 */
	if (ldexp(1.0, bits - 52) >= unit[nd - 1])
		return false;
	sc->p = p;
	return true;
}

/* jansson's jsonp_dtostr with precision 16 (dump.c): %.16g, ".0" when it reads as an
 * integer, the exponent without '+' or leading zeros. false when it cannot be sure (a
 * locale's decimal comma). */
static bool
out_real(struct out *o, double v)
{
	char b[64], *start, *end;
	int len = snprintf(b, sizeof b, "%.16g", v);

	if (len < 0 || (size_t)len >= sizeof b - 3 || strchr(b, ',') != NULL)
		return false;
	if (strchr(b, '.') == NULL && strchr(b, 'e') == NULL) {
		memcpy(b + len, ".0", 3);
		len += 2;
	}
	start = strchr(b, 'e');
	if (start != NULL) {
		start++;
		end = start + 1;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, (size_t)len - (size_t)(end - b) + 1);
			len -= (int)(end - start);
		}
	}
	out_put(o, b, (size_t)len);
	return true;
}

/* One value at sc->p, written compactly to o. 0, or -1: give the answer up. */
static int
walk(struct jsonscan *sc, struct out *o)
{
	struct jsonscan_str s;
	const char *at = sc->p;
	bool is_int;
	int64_t iv;
	double dv;
	int r;

	if (sc->p >= sc->end)
		return -1;
	switch (*sc->p) {
	case '{':
		out_c(o, '{');
		for (bool first = true;; first = false) {
			if ((r = jsonscan_member(sc, first, &s)) < 0)
				return -1;
			if (r == 0)
				break;
			if (!first)
				out_c(o, ',');
			out_c(o, '"');
			out_put(o, s.s, s.n);
			out_put(o, "\":", 2);
			if (walk(sc, o) != 0)
				return -1;
		}
		out_c(o, '}');
		return 0;
	case '[':
		out_c(o, '[');
		for (bool first = true;; first = false) {
			if ((r = jsonscan_element(sc, first)) < 0)
				return -1;
			if (r == 0)
				break;
			if (!first)
				out_c(o, ',');
			if (walk(sc, o) != 0)
				return -1;
		}
		out_c(o, ']');
		return 0;
	case '"':
		if (jsonscan_string(sc, true, &s) != 0)
			return -1;
		if (s.s == sc->buf) {
			out_escaped(o, s.s, s.n);
		} else {
			out_c(o, '"');
			out_put(o, s.s, s.n);
			out_c(o, '"');
		}
		return 0;
	case 't':
		r = jsonscan_word(sc, "true", 4);
		break;
	case 'f':
		r = jsonscan_word(sc, "false", 5);
		break;
	case 'n':
		r = jsonscan_word(sc, "null", 4);
		break;
	default:
		if (real_as_written(sc)) {
			o->num_set = false;   /* its value, if wanted, is strtod of the text */
			out_put(o, at, (size_t)(sc->p - at));
			return 0;
		}
		if (jsonscan_number(sc, &is_int, &iv, &dv) != 0)
			return -1;
		o->num = is_int ? (double)iv : dv;
		o->num_set = true;
		if (is_int) {
			if (iv == 0 && *at == '-')
				out_c(o, '0');   /* -0: the integer 0 */
			else
				out_put(o, at, (size_t)(sc->p - at));
			return 0;
		}
		return out_real(o, dv) ? 0 : -1;
	}
	if (r != 0)
		return -1;
	out_put(o, at, (size_t)(sc->p - at));
	return 0;
}

/* The value of createdAt as ecs_json_time() reads it: o's last value, written at v. */
static int64_t
created_of(const struct out *o, const char *v, size_t n)
{
	int64_t ms;
	char *tmp;
	int rc;

	if (n > 0 && (*v == '-' || (*v >= '0' && *v <= '9'))) {
		/* a number: the last walked; written as it came when its value is not set */
		double d = o->num;

		if (!o->num_set) {
			tmp = xstrndup(v, n);
			d = strtod(tmp, NULL);
			free(tmp);
		}
		return timeutil_epoch_seconds_to_ms(d, &ms) == 0 ? ms : TS_NONE;
	}
	/* an ISO 8601 time; one with escapes (\" \\ or a control) is never a valid one */
	if (n < 2 || *v != '"' || memchr(v, '\\', n) != NULL)
		return TS_NONE;
	tmp = xstrndup(v + 1, n - 2);
	rc = timeutil_parse_iso8601(tmp, &ms);
	free(tmp);
	return rc == 0 && ms >= 0 ? ms : TS_NONE;
}

/* One task object of tasks[] into t; its taskArn and createdAt read at its top level. */
static int
task_of(struct jsonscan *sc, struct ecs_scanned_task *t)
{
	static const char arn_key[] = "taskArn", created_key[] = "createdAt";
	struct jsonscan_str s;
	struct out o = { 0 };
	int r;

	memset(t, 0, sizeof *t);
	t->created_ms = TS_NONE;
	o.cap = 4096;
	o.p = xmalloc(o.cap);
	out_c(&o, '{');
	for (bool first = true;; first = false) {
		size_t from;
		int which = 0;

		if ((r = jsonscan_member(sc, first, &s)) < 0)
			goto fail;
		if (r == 0)
			break;
		if (!first)
			out_c(&o, ',');
		if (s.n == sizeof arn_key - 1 && memcmp(s.s, arn_key, s.n) == 0)
			which = 1;
		else if (s.n == sizeof created_key - 1 && memcmp(s.s, created_key, s.n) == 0)
			which = 2;
		out_c(&o, '"');
		out_put(&o, s.s, s.n);
		out_put(&o, "\":", 2);
		from = o.n;
		if (which == 1 && jsonscan_at(sc, '"')) {
			if (jsonscan_string(sc, true, &s) != 0)
				goto fail;
			t->arn = xstrndup(s.s, s.n);
			if (s.s == sc->buf) {
				out_escaped(&o, s.s, s.n);
			} else {
				out_c(&o, '"');
				out_put(&o, s.s, s.n);
				out_c(&o, '"');
			}
			continue;
		}
		if (walk(sc, &o) != 0)
			goto fail;
		if (which == 2)
			t->created_ms = created_of(&o, o.p + from, o.n - from);
	}
	out_c(&o, '}');
	o.p[o.n] = '\0';
	t->json = o.p;
	t->len = o.n;
	return 0;
fail:
	free(o.p);
	free(t->arn);
	t->arn = NULL;
	return -1;
}

void
ecs_scanned_free(struct ecs_scanned_task *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].json);
		free(v[i].arn);
	}
	free(v);
}

/* A scanner over a whole answer, with the buffer its escaped strings decode into (never
 * longer than the answer) and repeated keys checked; freed with scanner_free(). */
static void
scanner_init(struct jsonscan *sc, const char *body, size_t len)
{
	*sc = (struct jsonscan){ body, body + len, xmalloc(len + 1), 0, xmalloc(sizeof *sc->dup) };
	jsonscan_ws(sc);
}

static void
scanner_free(struct jsonscan *sc)
{
	free(sc->buf);
	free(sc->dup);
}

int
ecs_scan_describe(const char *body, size_t len, struct ecs_scanned_task **out, size_t *nout)
{
	struct jsonscan sc;
	struct ecs_scanned_task *v = NULL;
	struct jsonscan_str key;
	size_t n = 0, cap = 0;
	int r;

	*out = NULL;
	*nout = 0;
	scanner_init(&sc, body, len);
	for (bool first = true;; first = false) {
		if ((r = jsonscan_member(&sc, first, &key)) < 0)
			goto give_up;
		if (r == 0)
			break;
		if (key.n == 5 && memcmp(key.s, "tasks", 5) == 0) {
			if (!jsonscan_at(&sc, '['))
				goto give_up;
			for (bool f1 = true;; f1 = false) {
				if ((r = jsonscan_element(&sc, f1)) < 0)
					goto give_up;
				if (r == 0)
					break;
				if (!jsonscan_at(&sc, '{'))
					goto give_up;   /* the DOM path words the warning */
				v = xgrow(v, n + 1, &cap, sizeof *v);
				if (task_of(&sc, &v[n]) != 0)
					goto give_up;
				n++;
			}
		} else if (key.n == 8 && memcmp(key.s, "failures", 8) == 0) {
			/* failures are rare and worded from the DOM: only an empty list here */
			if (jsonscan_element(&sc, true) != 0)
				goto give_up;
		} else if (jsonscan_skip(&sc) != 0) {
			goto give_up;
		}
	}
	jsonscan_ws(&sc);
	if (sc.p != sc.end)
		goto give_up;   /* more after the object: jansson's error */
	scanner_free(&sc);
	*out = v;
	*nout = n;
	return 0;
give_up:
	ecs_scanned_free(v, n);
	scanner_free(&sc);
	return 1;
}

void
ecs_page_cleanup(struct ecs_page *pg)
{
	for (size_t i = 0; i < pg->n; i++)
		free(pg->arns[i]);
	free(pg->arns);
	free(pg->token);
	memset(pg, 0, sizeof *pg);
}

int
ecs_scan_list(const char *body, size_t len, struct ecs_page *pg)
{
	struct jsonscan sc;
	struct jsonscan_str key, s;
	size_t cap = 0;
	int r;

	memset(pg, 0, sizeof *pg);
	scanner_init(&sc, body, len);
	for (bool first = true;; first = false) {
		if ((r = jsonscan_member(&sc, first, &key)) < 0)
			goto give_up;
		if (r == 0)
			break;
		if (key.n == 8 && memcmp(key.s, "taskArns", 8) == 0) {
			for (bool f1 = true;; f1 = false) {
				if ((r = jsonscan_element(&sc, f1)) < 0)
					goto give_up;
				if (r == 0)
					break;
				if (!jsonscan_at(&sc, '"') || jsonscan_string(&sc, true, &s) != 0)
					goto give_up;   /* not a string: jansson's path skips it */
				pg->arns = xgrow(pg->arns, pg->n + 1, &cap, sizeof *pg->arns);
				pg->arns[pg->n++] = xstrndup(s.s, s.n);
			}
		} else if (key.n == 9 && memcmp(key.s, "nextToken", 9) == 0 &&
			   jsonscan_at(&sc, '"')) {
			if (jsonscan_string(&sc, true, &s) != 0)
				goto give_up;
			pg->token = xstrndup(s.s, s.n);
		} else if (jsonscan_skip(&sc) != 0) {
			goto give_up;
		}
	}
	jsonscan_ws(&sc);
	if (sc.p != sc.end)
		goto give_up;
	scanner_free(&sc);
	return 0;
give_up:
	ecs_page_cleanup(pg);
	scanner_free(&sc);
	return 1;
}
