/* input_stream_scan: the first pass of a large document read element by element
 * (input_stream.c has the design): the text checked as jansson's parser would, its arrays
 * found, and the shape keys of an element. It reads nothing into results, so a reader
 * that only wants the arrays (input_deploy.c) uses it without the shape dispatch. */
#include <stdlib.h>
#include <string.h>

#include "ecsprof/jsonscan.h"
#include "ecsprof/xalloc.h"
#include "input_stream.h"

static const struct jsonscan_key shape_keys[] = { JSONSCAN_KEY("ecsprof"),
	JSONSCAN_KEY("detail-type"), JSONSCAN_KEY("detail"), JSONSCAN_KEY("TaskARN"),
	JSONSCAN_KEY("taskArn") };

int
input_stream_shape_members(struct jsonscan *sc, unsigned *flags)
{
	struct jsonscan_str key;
	uint64_t seen = 0;
	int m;

	for (bool first = true; (m = jsonscan_member(sc, first, &key)) == 1; first = false) {
		int i = jsonscan_lookup(&key, shape_keys, 5, &seen);

		if (i == -2)
			return -1;   /* named twice: the DOM reader warns */
		if (i >= 0)
			*flags |= 1u << i;
		if (jsonscan_skip(sc) != 0)
			return -1;
	}
	return m;
}

/* one_object() returns 0 (known) for these shapes */
static bool
known_shape(unsigned f)
{
	return (f & (HAS_ECSPROF | HAS_TASKARN_META | HAS_TASKARN)) ||
	    (f & (HAS_DETAIL_TYPE | HAS_DETAIL)) == (HAS_DETAIL_TYPE | HAS_DETAIL);
}

/* The elements of the array at sc->p, checked; *known: one of them has a known shape. */
static int
check_array(struct jsonscan *sc, bool shapes, bool *known)
{
	int e;

	for (bool first = true; (e = jsonscan_element(sc, first)) == 1; first = false) {
		unsigned f = 0;

		if (shapes && jsonscan_at(sc, '{')) {
			if (input_stream_shape_members(sc, &f) != 0)
				return -1;
			*known = *known || known_shape(f);
		} else if (jsonscan_skip(sc) != 0) {
			return -1;
		}
	}
	return e;
}

static const struct jsonscan_key describe_keys[] = { JSONSCAN_KEY("tasks"),
	JSONSCAN_KEY("failures") };

int
input_stream_open(struct input_stream *s, const char *data, size_t len)
{
	struct jsonscan_dup *dup = xmalloc(sizeof *dup);
	struct jsonscan sc = { data, data + len, NULL, 0, dup };
	bool known = false;
	int rc = -1;

	memset(s, 0, sizeof *s);
	jsonscan_ws(&sc);
	if (jsonscan_at(&sc, '[')) {
		/* a bare array: one with no element of a known shape is a document error */
		s->array = true;
		s->tasks = sc.p;
		if (check_array(&sc, true, &known) != 0 || !known)
			goto out;
	} else if (jsonscan_at(&sc, '{')) {
		/* a DescribeTasks answer and nothing else: other members are other shapes */
		struct jsonscan_str key;
		uint64_t seen = 0;
		int m;

		for (bool first = true; (m = jsonscan_member(&sc, first, &key)) == 1;
		    first = false) {
			int i = jsonscan_lookup(&key, describe_keys, 2, &seen);

			if (i < 0)
				goto out;
			if (jsonscan_at(&sc, 'n')) {
				if (jsonscan_word(&sc, "null", 4) != 0)
					goto out;
				continue;
			}
			if (!jsonscan_at(&sc, '['))
				goto out;   /* not an array: the DOM reader says so */
			if (i == 0)
				s->tasks = sc.p;
			else
				s->failures = sc.p;
			if (check_array(&sc, false, &known) != 0)
				goto out;
		}
		if (m != 0 || seen == 0)
			goto out;
	} else {
		goto out;
	}
	jsonscan_ws(&sc);
	if (sc.p != sc.end)
		goto out;   /* more values after it: input_parse_concat's */
	s->end = data + len;
	s->phase = s->tasks != NULL ? 0 : 1;
	if (s->phase == 1 && s->failures == NULL)
		s->phase = 2;
	s->sc.p = s->phase == 0 ? s->tasks : s->failures;
	s->sc.end = s->end;
	s->first = true;
	rc = 0;
out:
	free(dup);
	return rc;
}

const char *
input_stream_read_upto(const struct input_stream *s)
{
	if (s->phase >= 2)
		return s->end;
	if (s->phase == 0 && s->failures != NULL && s->failures < s->sc.p)
		return s->failures;   /* failures[] came first: read after the tasks */
	return s->sc.p;
}

void
input_stream_close(struct input_stream *s)
{
	free(s->buf);
	memset(s, 0, sizeof *s);
}
