/* scaleout: the burst of createdAt the user is looking at (scaleout.h). */
#include <stdlib.h>

#include "ecsprof/scaleout.h"
#include "ecsprof/xalloc.h"

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

bool
scaleout_find(const int64_t *created, size_t n, enum scaleout_pick pick, struct scaleout *out)
{
	int64_t *v = xcalloc(n ? n : 1, sizeof *v);
	size_t m = 0, best_from = 0, best_n = 0, from = 0;

	for (size_t i = 0; i < n; i++)
		if (created[i] != TS_NONE)
			v[m++] = created[i];
	out->first_ms = out->last_ms = TS_NONE;
	out->n = out->nbursts = 0;
	if (m == 0) {
		free(v);
		return false;
	}
	qsort(v, m, sizeof *v, cmp_i64);
	for (size_t i = 1; i <= m; i++) {
		if (i < m && v[i] - v[i - 1] <= SCALEOUT_GAP_MS)
			continue;
		/* [from, i) is one burst; >= keeps the later of equals */
		out->nbursts++;
		if (pick == SCALEOUT_LATEST || i - from >= best_n) {
			best_from = from;
			best_n = i - from;
		}
		from = i;
	}
	out->first_ms = v[best_from];
	out->last_ms = v[best_from + best_n - 1];
	out->n = best_n;
	free(v);
	return true;
}

bool
scaleout_of_set(const struct task_set *set, enum scaleout_pick pick, struct scaleout *out)
{
	int64_t *c = xcalloc(set->len ? set->len : 1, sizeof *c);
	bool ok;

	for (size_t i = 0; i < set->len; i++)
		c[i] = task_ts(&set->tasks[i], TS_CREATED);
	ok = scaleout_find(c, set->len, pick, out);
	free(c);
	return ok;
}

bool
scaleout_span_of(const int64_t *created, const int64_t *end, size_t n, enum scaleout_pick pick,
		 int64_t since_ms, struct scaleout_span *out)
{
	struct scaleout so;
	int64_t lo, hi;

	out->from_ms = out->to_ms = TS_NONE;
	out->n = out->outside = out->nbursts = 0;
	if (!scaleout_find(created, n, pick, &so))
		return false;
	out->nbursts = so.nbursts;
	lo = since_ms != TS_NONE ? since_ms : so.first_ms;
	hi = since_ms != TS_NONE ? INT64_MAX : so.last_ms;
	out->from_ms = lo;
	out->to_ms = lo;
	for (size_t i = 0; i < n; i++) {
		int64_t c = created[i], e;
		if (c == TS_NONE)
			continue;
		if (c < lo || c > hi) {
			out->outside++;
			continue;
		}
		out->n++;
		e = end != NULL && end[i] != TS_NONE && end[i] > c ? end[i] : c;
		if (e > out->to_ms)
			out->to_ms = e;
	}
	if (out->n == 0) {
		out->from_ms = out->to_ms = TS_NONE;
		return false;
	}
	if (out->to_ms <= out->from_ms)
		out->to_ms = out->from_ms + 1;
	return true;
}
