/* diff_window: the two windows a diff compares, from task sets: a whole set, or one
 * history cut at an instant (createdAt, as --since cuts), and the instant of the newest
 * deployment in a history. */
#include <stdlib.h>
#include <string.h>

#include "ecsprof/diff.h"
#include "ecsprof/group.h"
#include "ecsprof/xalloc.h"

void
diff_window_all(const struct task_set *s, struct diff_window *w)
{
	const struct task **v = xmalloc((s->len ? s->len : 1) * sizeof *v);

	for (size_t i = 0; i < s->len; i++)
		v[i] = &s->tasks[i];
	w->v = v;
	w->n = s->len;
	w->images = s->images;
}

size_t
diff_window_split(const struct task_set *s, int64_t cut_ms, struct diff_window *base,
		  struct diff_window *cur)
{
	const struct task **a = xmalloc((s->len ? s->len : 1) * sizeof *a);
	const struct task **b = xmalloc((s->len ? s->len : 1) * sizeof *b);
	size_t na = 0, nb = 0, undated = 0;

	for (size_t i = 0; i < s->len; i++) {
		const struct task *t = &s->tasks[i];

		if (task_ts(t, TS_CREATED) == TS_NONE)
			undated++;
		else if (task_ts(t, TS_CREATED) < cut_ms)
			a[na++] = t;
		else
			b[nb++] = t;
	}
	*base = (struct diff_window){ a, na, s->images };
	*cur = (struct diff_window){ b, nb, s->images };
	return undated;
}

void
diff_window_free(struct diff_window *w)
{
	free((void *)w->v);
	w->v = NULL;
	w->n = 0;
}

int
diff_history_span(const struct task_set *s, int64_t *first_ms, int64_t *last_ms)
{
	*first_ms = *last_ms = TS_NONE;
	for (size_t i = 0; i < s->len; i++) {
		int64_t c = task_ts(&s->tasks[i], TS_CREATED);

		if (c == TS_NONE)
			continue;
		if (*first_ms == TS_NONE || c < *first_ms)
			*first_ms = c;
		if (*last_ms == TS_NONE || c > *last_ms)
			*last_ms = c;
	}
	return *first_ms == TS_NONE ? -1 : 0;
}

int64_t
diff_newest_deployment(const struct task_set *s, const char **id, size_t *ndeployments)
{
	struct group_key k = { .kind = GK_DEPLOYMENT };
	const char **ids = xmalloc((s->len ? s->len : 1) * sizeof *ids);
	int64_t *first = xmalloc((s->len ? s->len : 1) * sizeof *first), best = TS_NONE;
	size_t n = 0;
	char buf[8];

	*id = NULL;
	for (size_t i = 0; i < s->len; i++) {
		const struct task *t = &s->tasks[i];
		const char *d = group_value(t, &k, buf, sizeof buf);
		size_t j = 0;

		if (strcmp(d, GROUP_NONE) == 0 || task_ts(t, TS_CREATED) == TS_NONE)
			continue;
		while (j < n && strcmp(ids[j], d) != 0)
			j++;
		if (j == n) {
			ids[n] = d;
			first[n++] = task_ts(t, TS_CREATED);
		} else if (task_ts(t, TS_CREATED) < first[j]) {
			first[j] = task_ts(t, TS_CREATED);
		}
	}
	for (size_t j = 0; j < n; j++)
		if (best == TS_NONE || first[j] > best) {
			best = first[j];
			*id = ids[j];
		}
	*ndeployments = n;
	free(ids);
	free(first);
	return best;
}
