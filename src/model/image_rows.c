/* image_rows: one row per image of a run, joined with the tasks that pulled it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/image_rows.h"
#include "ecsprof/phase.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"

/* The facts one row stands for: an index digest and its platform manifest's digest are
 * the same image to a user (some tasks report one, some the other), so they share a row
 * and a task is counted once whichever it reported. */
struct row_members {
	const struct image_facts **v;
	size_t n;
};

static bool
task_uses(const struct task *t, const struct image_set *s, const struct row_members *m)
{
	for (size_t i = 0; i < t->ncontainers; i++) {
		const struct image_facts *f =
			image_set_find_container(s, &t->containers[i], image_task_platform(t));

		for (size_t j = 0; f != NULL && j < m->n; j++)
			if (m->v[j] == f)
				return true;
	}
	return false;
}

static bool
str_eq(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The platform manifest a fact ends at: its own digest unless it is an index. */
static const char *
platform_manifest(const struct image_facts *f)
{
	return f->manifest_digest != NULL ? f->manifest_digest : f->digest;
}

static bool
same_image(const struct image_facts *a, const struct image_facts *b)
{
	return str_eq(a->registry, b->registry) && str_eq(a->repository, b->repository) &&
	       str_eq(a->platform, b->platform) && str_eq(platform_manifest(a), platform_manifest(b));
}

static int
by_size(const void *a, const void *b)
{
	const struct image_row *x = a, *y = b;

	if (x->facts->size_bytes != y->facts->size_bytes)
		return x->facts->size_bytes < y->facts->size_bytes ? 1 : -1;
	return strcmp(x->facts->digest, y->facts->digest);
}

static void
top_layers(struct image_row *r)
{
	const struct image_facts *f = r->facts;

	for (size_t k = 0; k < IMAGE_ROWS_TOP_LAYERS; k++) {
		size_t best = (size_t)-1;

		for (size_t i = 0; i < f->nlayers; i++) {
			bool taken = false;

			for (size_t j = 0; j < r->ntop; j++)
				taken |= r->top[j] == i;
			if (!taken && (best == (size_t)-1 || f->layers[i].size > f->layers[best].size))
				best = i;
		}
		if (best == (size_t)-1)
			break;
		r->top[r->ntop++] = best;
	}
}

void
image_rows_build(const struct task_set *set, struct image_rows *out)
{
	const struct image_set *s = set->images;
	size_t n = image_set_len(s);
	double *pulls = xcalloc(set->len ? set->len : 1, sizeof *pulls);
	struct row_members *members = xcalloc(n ? n : 1, sizeof *members);

	memset(out, 0, sizeof *out);
	out->v = xcalloc(n ? n : 1, sizeof *out->v);
	/* one row per repository and platform manifest; the facts that name the tags (the
	 * index DescribeImages knows) speak for the row */
	for (size_t i = 0; i < n; i++) {
		const struct image_facts *f = image_set_at(s, i);
		size_t r = 0;

		if (f->status != IMAGE_OK)
			continue;
		while (r < out->n && !same_image(out->v[r].facts, f))
			r++;
		if (r == out->n) {
			out->v[out->n++].facts = f;
			members[r].v = xcalloc(n, sizeof *members[r].v);
		} else if (out->v[r].facts->tags == NULL && f->tags != NULL) {
			out->v[r].facts = f;
		}
		members[r].v[members[r].n++] = f;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct image_row *r = &out->v[i];
		const struct image_facts *f = r->facts;
		struct stats_summary sum;
		const struct task *first = NULL;
		size_t np = 0;

		r->pull_p50_s = r->pull_p90_s = r->pull_mbps = NAN;
		for (size_t k = 0; k < set->len; k++) {
			const struct task *t = &set->tasks[k];
			int64_t p;

			if (!task_uses(t, s, &members[i]))
				continue;
			r->ntasks++;
			first = first ? first : t;
			if ((p = phase_ms(t, PHASE_PULL)) != TS_NONE && p > 0)
				pulls[np++] = (double)p / 1000.0;
		}
		if (np > 0) {
			stats_summarize(pulls, np, &sum);
			r->pull_p50_s = sum.p50;
			r->pull_p90_s = sum.p90;
			if (f->size_bytes >= 0 && sum.p50 > 0)
				r->pull_mbps = (double)f->size_bytes / 1e6 / sum.p50;
		}
		if (first != NULL) {
			struct image_task_info in;

			image_task_info(s, first, &in);
			r->advice = in.advice;
		} else {
			/* asked for by --image: advise as for a Linux task on Fargate 1.4.0 */
			struct task t;
			/* a probe: its strings and profiles on the stack, no pool */
			struct container_profile cp = { .image = f->image };
			struct container c = { .prof = &cp, .digest_raw = f->digest };
			struct task_profile p = {
				.launch_type = "FARGATE", .platform_version = "1.4.0",
				.cpu_arch = f->platform != NULL && strstr(f->platform, "arm64") ?
					    "arm64" : NULL,
			};
			struct image_task_info in;

			task_init(&t);
			t.containers = &c;
			t.ncontainers = 1;
			t.prof = &p;

			image_task_info(s, &t, &in);
			r->advice = in.advice;
		}
		if (f->image != NULL) {
			struct image_ref ref;

			if (image_ref_parse(f->image, &ref) == 0) {
				/* borrowed from the facts: find the tag in f->image's text */
				const char *colon = ref.tag ? strrchr(f->image, ':') : NULL;

				r->tag = colon ? colon + 1 : NULL;
				image_ref_cleanup(&ref);
			}
		}
		if (r->tag == NULL)
			r->tag = f->tags;
		top_layers(r);
	}
	for (size_t i = 0; i < out->n; i++)
		free(members[i].v);
	free(members);
	free(pulls);
	qsort(out->v, out->n, sizeof *out->v, by_size);
}

void
image_rows_cleanup(struct image_rows *r)
{
	free(r->v);
	memset(r, 0, sizeof *r);
}
