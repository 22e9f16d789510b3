/* input_stream: one large whole document read element by element, without a DOM of it:
 * a DescribeTasks answer ({"tasks":[...],"failures":[...]}, as `aws ecs describe-tasks`
 * prints it, indented or through `jq -c`) or a top-level array of tasks, events or
 * recording lines. A first pass checks the whole text as jansson's parser would
 * (jsonscan.c, strings checked and not decoded, keys named twice found) and finds the
 * arrays (input_stream_scan.c); then each element (here) is read on its own, by taskscan.c when it is plain, else by
 * jansson, and becomes what the whole-document reader makes of it through the same code
 * (input.c), in batches that input_read.c merges as it goes. So memory is the text plus
 * the tasks, not the text plus a DOM of it (8x). Whatever the first pass is not sure of
 * (another shape, a key named twice, a \u0000, nesting past JSONSCAN_DEPTH, bad JSON) is
 * left to the DOM reader, which words every error: the same tasks, warnings and errors
 * either way. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_stream.h"
#include "ecsprof/jsonscan.h"
#include "taskscan.h"


/* shape_of()'s SHAPE_TASK: read by taskscan_task() as one_task() would */
static bool
plain_task(unsigned f)
{
	return (f & HAS_TASKARN) && !(f & (HAS_ECSPROF | HAS_TASKARN_META)) &&
	    (f & (HAS_DETAIL_TYPE | HAS_DETAIL)) != (HAS_DETAIL_TYPE | HAS_DETAIL);
}

/* One element as jansson reads it alone, NULL with the document's error set. Checked by
 * the first pass (only memory can fail); read as it comes (input_docstream.c: s->at set),
 * unchecked: keys named twice warned about as the DOM reader warns, and an error named
 * by its byte in the text. */
static json_t *
load(struct input_stream *s, struct pctx *c, const char *p, size_t n)
{
	json_error_t e;
	json_t *v;

	if (!s->chunked) {
		v = json_loadb(p, n, JSON_DECODE_ANY, &e);
	} else {
		v = input_load(c, p, n, JSON_DECODE_ANY, c->line, &e);
		if (v == NULL && !input_json_oom(&e)) {
			char text[JSON_ERROR_TEXT_LENGTH + 1];
			/* jansson's position is past the byte it stopped at */
			uint64_t bad = s->at + (uint64_t)(e.position > 0 ? e.position - 1 : 0);

			snprintf(text, sizeof text, "%s", e.text);
			input_sanitize(text);
			c->failed = true;
			err_set(&c->err, ERR_PARSE, "%s: malformed JSON at byte %llu (%s[%zu]): %s",
			    c->name, (unsigned long long)bad,
			    s->phase == 1 ? "failures" : s->array ? "" : "tasks", s->index - 1, text);
			return NULL;
		}
	}
	if (v == NULL) {
		e.line = 0;   /* the document's line (a JSON Lines line), or none */
		input_json_fail(c, &e, c->line);
	}
	return v;
}

/* A plain task or line read without a DOM into c: true when taskscan took it. */
static bool
scan(struct input_stream *s, struct pctx *c, const char *p, size_t n, bool line)
{
	struct task t;
	enum origin origin = ORIGIN_TASK;
	int rc;

	if (s->bufcap < n + 1) {
		free(s->buf);
		s->bufcap = n + 1 > 4096 ? n + 1 : 4096;
		s->buf = xmalloc(s->bufcap);
	}
	task_init_pool(&t, input_pctx_pool(c));
	if (line) {
		rc = taskscan_line(p, n, s->buf, &t, &origin);
	} else {
		rc = taskscan_task(p, n, s->buf, &t);
		task_set_ts(&t, TS_FETCHED, TS_NONE);   /* as one_task() sets it for a task */
	}
	if (rc != 0)
		return false;
	c->scanned++;
	input_emit_task(c, &t, origin);
	return true;
}

/* One element, p (n bytes), of the array being read; flags: its shape keys (an element
 * of a top-level array) */
static void
one_element(struct input_stream *s, struct pctx *c, const char *p, size_t n, unsigned flags)
{
	size_t i = s->index - 1;
	json_t *v;

	if (s->phase == 0 && *p == '{') {
		/* events and recording lines as taskscan reads lines; tasks as it reads one */
		if (s->array && (flags & (HAS_ECSPROF | HAS_DETAIL)) && scan(s, c, p, n, true))
			return;
		if ((!s->array || plain_task(flags)) && scan(s, c, p, n, false))
			return;
	}
	if ((v = load(s, c, p, n)) == NULL)
		return;
	if (s->phase == 1)
		input_describe_failure(c, v);
	else if (s->array)
		input_array_element(c, v, i);
	else
		input_describe_task(c, v, i);
	json_decref(v);
}

/* One element of the array being read: 1, or 0 at its end. */
static int
element(struct input_stream *s, struct pctx *c)
{
	struct jsonscan *sc = &s->sc;
	const char *p;
	unsigned flags = 0;

	if (jsonscan_element(sc, s->first) != 1)
		return 0;   /* checked: the array's end */
	s->first = false;
	s->index++;
	p = sc->p;
	if (s->phase == 0 && s->array && jsonscan_at(sc, '{'))
		input_stream_shape_members(sc, &flags);
	else
		jsonscan_skip(sc);
	one_element(s, c, p, (size_t)(sc->p - p), flags);
	return 1;
}

void
input_stream_element(struct input_stream *s, struct pctx *c, const char *p, size_t n,
    uint64_t at)
{
	unsigned flags = 0;

	s->chunked = true;
	s->at = at;
	s->index++;
	if (s->phase == 0 && s->array && *p == '{') {
		struct jsonscan sc = { p, p + n, NULL, 0, NULL };

		if (input_stream_shape_members(&sc, &flags) != 0)
			flags = 0;   /* not plain: jansson reads it and words any error */
	}
	one_element(s, c, p, n, flags);
}

int
input_stream_next(struct input_stream *s, struct pctx *c, size_t bytes)
{
	const char *start = s->sc.p;

	while (s->phase < 2 && !c->failed && (size_t)(s->sc.p - start) < bytes) {
		if (element(s, c) == 1)
			continue;
		/* the tasks are all read: then failures[], as one_describe() orders them */
		s->phase++;
		if (s->phase == 1 && s->failures == NULL)
			s->phase = 2;
		if (s->phase == 1) {
			memset(&s->sc, 0, sizeof s->sc);
			s->sc.p = s->failures;
			s->sc.end = s->end;
			s->first = true;
			s->index = 0;
			start = s->sc.p;
		}
	}
	return s->phase < 2 && !c->failed;
}
