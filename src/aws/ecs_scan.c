/* ecs_scan: a DescribeTasks answer read in one pass without a DOM (ecs_int.h). Each task
 * comes out as the bytes ECS sent for it, checked as jansson would check them, with its
 * taskArn and createdAt: nothing is written back out, so the task reader (in/) parses each
 * task once, and a recording keeps what ECS said. Anything jsonscan is not sure of (a \u
 * escape, a key named twice, an integer of 19 digits, a task that is not an object) gives
 * the whole answer up to jansson, so the tasks and the warnings are the DOM path's; a
 * failures[] entry leaves only the failures to jansson, which words them. With a reader
 * (ecs_task_reader, ecs.h) each task is read into the reader's batch in the same pass, so
 * that no task is read twice (issue 35); a task the reader is not sure of is scanned as
 * before and handed on as text.
 * ListTasks pages are read the same way (their ARNs and nextToken).
 * tests/test_ecs_scan.c checks the tasks against jansson's DOM of the answer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecs_int.h"
#include "ecsprof/jsonscan.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* createdAt at sc->p as ecs_json_time() reads it from jansson's DOM: epoch seconds as a
 * number, or an ISO 8601 string (one with escapes is never a valid one); anything else
 * TS_NONE. The value is checked and skipped either way. -1: give the answer up. */
static int
created_at(struct jsonscan *sc, int64_t *out)
{
	struct jsonscan_str s;
	bool is_int;
	int64_t iv, ms;
	double dv;
	char iso[64];

	*out = TS_NONE;
	if (jsonscan_at(sc, '"')) {
		if (jsonscan_string(sc, true, &s) != 0)
			return -1;
		if (s.s == sc->buf || s.n >= sizeof iso || memchr(s.s, '\0', s.n) != NULL)
			return 0;
		memcpy(iso, s.s, s.n);
		iso[s.n] = '\0';
		if (timeutil_parse_iso8601(iso, &ms) == 0 && ms >= 0)
			*out = ms;
		return 0;
	}
	if (jsonscan_at(sc, '-') || (sc->p < sc->end && *sc->p >= '0' && *sc->p <= '9')) {
		if (jsonscan_number(sc, &is_int, &iv, &dv) != 0)
			return -1;
		if (timeutil_epoch_seconds_to_ms(is_int ? (double)iv : dv, &ms) == 0)
			*out = ms;
		return 0;
	}
	return jsonscan_skip(sc);
}

/* One task object of tasks[] into t: its bytes as they came (checked as jansson checks
 * them, no key twice in any object), its taskArn and createdAt read at its top level. */
static int
task_of(struct jsonscan *sc, struct ecs_scanned_task *t)
{
	static const char arn_key[] = "taskArn", created_key[] = "createdAt";
	struct jsonscan_str s;
	const char *from = sc->p;
	int r;

	memset(t, 0, sizeof *t);
	t->created_ms = TS_NONE;
	for (bool first = true;; first = false) {
		if ((r = jsonscan_member(sc, first, &s)) < 0)
			goto fail;
		if (r == 0)
			break;
		if (s.n == sizeof arn_key - 1 && memcmp(s.s, arn_key, s.n) == 0 &&
		    jsonscan_at(sc, '"')) {
			if (jsonscan_string(sc, true, &s) != 0)
				goto fail;
			free(t->own);   /* a key twice gave the answer up already; kept safe */
			t->arn = t->own = xstrndup(s.s, s.n);
		} else if (s.n == sizeof created_key - 1 && memcmp(s.s, created_key, s.n) == 0) {
			if (created_at(sc, &t->created_ms) != 0)
				goto fail;
		} else if (jsonscan_skip(sc) != 0) {
			goto fail;
		}
	}
	t->json = from;
	t->len = (size_t)(sc->p - from);
	return 0;
fail:
	free(t->own);
	t->arn = t->own = NULL;
	return -1;
}

/* One task object of tasks[] read by rd into batch in the same pass (ecs.h), its bytes
 * kept as task_of() keeps them; -1: rd was not sure, sc back at the task's '{'. */
static int
task_read(struct jsonscan *sc, const struct ecs_task_reader *rd, void *batch,
	  struct ecs_scanned_task *t)
{
	const char *from = sc->p;
	int depth = sc->depth;

	memset(t, 0, sizeof *t);
	if (rd->read(rd->arg, batch, sc, &t->slot, &t->arn, &t->created_ms) != 0) {
		/* the repeated-key counts of the objects it had opened start again at the
		 * next member of depth's object (jsonscan_member's first) */
		sc->p = from;
		sc->depth = depth;
		memset(t, 0, sizeof *t);
		return -1;
	}
	t->read = true;
	t->json = from;
	t->len = (size_t)(sc->p - from);
	return 0;
}

void
ecs_scanned_free(struct ecs_scanned_task *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].own);
	free(v);
}

/* A scanner over a whole answer, with the buffer its escaped strings decode into (never
 * longer than the answer) and repeated keys checked in *dup (the caller's, on its stack:
 * 25 kB that a malloc and free per answer would map and fault in again at the top of a
 * thread's arena); freed with scanner_free(). */
static void
scanner_init(struct jsonscan *sc, struct jsonscan_dup *dup, const char *body, size_t len)
{
	*sc = (struct jsonscan){ body, body + len, xmalloc(len + 1), 0, dup };
	jsonscan_ws(sc);
}

static void
scanner_free(struct jsonscan *sc)
{
	free(sc->buf);
}

int
ecs_scan_describe_open(const char *body, size_t len, struct ecs_scanned_task **out,
		       size_t *nout)
{
	return ecs_scan_describe_read(body, len, NULL, NULL, out, nout);
}

int
ecs_scan_describe_read(const char *body, size_t len, const struct ecs_task_reader *rd,
		       void *batch, struct ecs_scanned_task **out, size_t *nout)
{
	struct jsonscan sc;
	struct jsonscan_dup dup;   /* only the counts of open objects are set */
	struct ecs_scanned_task *v = NULL;
	struct jsonscan_str key;
	size_t n = 0, cap = 0;
	bool failures = false;
	int r;

	*out = NULL;
	*nout = 0;
	scanner_init(&sc, &dup, body, len);
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
				if (rd != NULL && task_read(&sc, rd, batch, &v[n]) == 0) {
					n++;
					continue;
				}
				if (task_of(&sc, &v[n]) != 0)
					goto give_up;
				n++;
			}
		} else if (key.n == 8 && memcmp(key.s, "failures", 8) == 0) {
			/* failures are rare and worded from the DOM: only whether there are any */
			if (!jsonscan_at(&sc, '['))
				goto give_up;
			for (bool f1 = true;; f1 = false) {
				if ((r = jsonscan_element(&sc, f1)) < 0)
					goto give_up;
				if (r == 0)
					break;
				failures = true;
				if (jsonscan_skip(&sc) != 0)
					goto give_up;
			}
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
	return failures ? 2 : 0;
give_up:
	ecs_scanned_free(v, n);
	scanner_free(&sc);
	return 1;
}

void
ecs_scanned_end(char *body, const struct ecs_scanned_task *v, size_t n)
{
	/* each task a string of its own: the byte after it (',', ']' or a space) is read */
	for (size_t i = 0; i < n; i++)
		body[v[i].json + v[i].len - body] = '\0';
}

int
ecs_scan_describe(char *body, size_t len, struct ecs_scanned_task **out, size_t *nout)
{
	int rc = ecs_scan_describe_open(body, len, out, nout);

	if (rc != 1)
		ecs_scanned_end(body, *out, *nout);
	return rc;
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
	struct jsonscan_dup dup;   /* only the counts of open objects are set */
	struct jsonscan_str key, s;
	size_t cap = 0;
	int r;

	memset(pg, 0, sizeof *pg);
	scanner_init(&sc, &dup, body, len);
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
