/* tui_image: the images view (key i) and what the details pane says about a task's
 * images, from the ECR facts: the manifest pulled for its platform, compressed size,
 * layers and compression, the SOCI index, the advice in words, and the largest layers with
 * the build step that made them. */
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/image.h"
#include "ecsprof/phase.h"
#include "ecsprof/report.h"
#include "ecsprof/stats.h"
#include "ecsprof/xalloc.h"
#include "tui_int.h"

/* the images view's own line list (tui_draw.c's details pane has the same shape) */
struct lines {
	char **v;
	size_t n, cap;
};

#define TOP_LAYERS 3

/* one line per soci_advice value: what it means for this task */
static const char *const advice_words[ADVICE_COUNT] = {
	[ADVICE_NONE] = "",
	[ADVICE_LAZY_LOADED] = "lazy-loaded: task metadata says the soci snapshotter ran it",
	[ADVICE_INDEX_NOT_USED] = "index-not-used: an index exists, but it pulled with overlayfs",
	[ADVICE_INDEX_V2] = "index-v2: a SOCI index v2 exists for this digest (no proof of use)",
	[ADVICE_INDEX_V1_ONLY] = "index-v1-only: only a v1 index, which Fargate ignores now",
	[ADVICE_WORTH_INDEXING] = "worth-indexing: >= 250 MiB, no zstd, no index: try SOCI",
	[ADVICE_ZSTD] = "zstd: a zstd layer, which SOCI cannot index",
	[ADVICE_TOO_SMALL] = "too-small: under 250 MiB compressed, little to gain",
	[ADVICE_NOT_ECR] = "not-ecr: not in private ECR, where Fargate lazy-loads from",
	[ADVICE_PLATFORM] = "platform: Windows or Fargate before 1.4.0: no lazy loading",
};

static void
mib(int64_t bytes, char *out, size_t size)
{
	if (bytes < 0)
		snprintf(out, size, "-");
	else
		snprintf(out, size, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
}

static void
one_image(const struct image_facts *f, struct lines *l,
	  void (*add)(struct lines *, const char *, ...))
{
	size_t top[TOP_LAYERS], ntop = 0;
	char sz[32];

	add(l, "  %s  %s", f->image ? f->image : f->repository ? f->repository : "-",
	    f->platform && *f->platform ? f->platform : "-");
	if (f->manifest_digest != NULL && f->digest != NULL &&
	    strcmp(f->manifest_digest, f->digest) != 0)
		add(l, "    manifest     %s (of the index %s)", f->manifest_digest, f->digest);
	mib(f->size_bytes, sz, sizeof sz);
	add(l, "    compressed   %s in %zu layer%s, %s", sz, f->nlayers,
	    f->nlayers == 1 ? "" : "s",
	    *image_facts_compression(f) ? image_facts_compression(f) : "compression unknown");
	add(l, "    SOCI index   %s%s%s",
	    *image_soci_name(f->soci) ? image_soci_name(f->soci) : "unknown",
	    f->soci_index_digest ? " " : "", f->soci_index_digest ? f->soci_index_digest : "");
	for (size_t k = 0; k < TOP_LAYERS; k++) {
		size_t best = (size_t)-1;

		for (size_t i = 0; i < f->nlayers; i++) {
			bool taken = false;

			for (size_t j = 0; j < ntop; j++)
				taken |= top[j] == i;
			if (!taken && (best == (size_t)-1 || f->layers[i].size > f->layers[best].size))
				best = i;
		}
		if (best == (size_t)-1)
			break;
		top[ntop++] = best;
	}
	for (size_t k = 0; k < ntop; k++) {
		const struct image_layer *ly = &f->layers[top[k]];

		mib(ly->size, sz, sizeof sz);
		add(l, "    %-12s %10s  %s", k == 0 ? "largest" : "", sz,
		    ly->created_by ? ly->created_by : "(build step unknown)");
	}
}

void
tui_image_details(const struct report *r, const struct report_row *row, struct lines *l,
		  void (*add)(struct lines *, const char *, ...))
{
	const struct task *t = row->task;
	const struct image_facts *seen[8];
	size_t nseen = 0;
	struct image_task_info in;

	if (r->images == NULL)
		return;
	image_task_info(r->images, t, &in);
	if (!in.known && in.advice == ADVICE_NONE)
		return;
	add(l, "%s", "");
	add(l, "Images (ECR)");
	if (in.advice != ADVICE_NONE)
		add(l, "  advice %s", advice_words[in.advice]);
	for (size_t i = 0; i < t->ncontainers && nseen < sizeof seen / sizeof seen[0]; i++) {
		const struct image_facts *f = image_set_find_container(r->images,
		    &t->containers[i], image_task_platform(t));
		bool dup = false;

		if (f == NULL || f->status != IMAGE_OK)
			continue;
		for (size_t j = 0; j < nseen; j++)
			dup |= seen[j] == f;
		if (dup)
			continue;
		seen[nseen++] = f;
		one_image(f, l, add);
	}
}

/* ---- the images view ---------------------------------------------------------------- */

struct image_entry {
	const struct image_facts *f;
	size_t ntasks;
	enum soci_advice advice;
	double pull_p50_s;
};

static int
by_size_desc(const void *a, const void *b)
{
	const struct image_entry *x = a, *y = b;

	if (x->f->size_bytes != y->f->size_bytes)
		return x->f->size_bytes < y->f->size_bytes ? 1 : -1;
	return strcmp(x->f->digest ? x->f->digest : "", y->f->digest ? y->f->digest : "");
}

static bool
uses(const struct image_set *s, const struct task *t, const struct image_facts *f)
{
	for (size_t i = 0; i < t->ncontainers; i++)
		if (image_set_find_container(s, &t->containers[i], image_task_platform(t)) == f)
			return true;
	return false;
}

/* the lines of the view, for the visible tasks */
static void
build_images(const struct view *v, struct lines *l,
	     void (*add)(struct lines *, const char *, ...))
{
	const struct report *r = tui_rep(v);
	const struct image_set *s = r->images;
	size_t n = image_set_len(s), ne = 0;
	struct image_entry *e = xcalloc(n ? n : 1, sizeof *e);
	double *pulls = xcalloc(v->nvis ? v->nvis : 1, sizeof *pulls);

	for (size_t i = 0; i < n; i++) {
		const struct image_facts *f = image_set_at(s, i);
		const struct task *first = NULL;
		size_t np = 0;

		if (f->status != IMAGE_OK)
			continue;
		e[ne].f = f;
		e[ne].pull_p50_s = NAN;
		for (size_t k = 0; k < v->nvis; k++) {
			const struct task *t = tui_vis_task(v, k);
			int64_t p;

			if (!uses(s, t, f))
				continue;
			first = first ? first : t;
			e[ne].ntasks++;
			if ((p = phase_ms(t, PHASE_PULL)) != TS_NONE && p > 0)
				pulls[np++] = (double)p / 1000.0;
		}
		if (first == NULL && r->nrows > 0)
			continue;      /* not an image of the tasks shown (images --image: all) */
		if (np > 0) {
			struct stats_summary sum;

			stats_summarize(pulls, np, &sum);
			e[ne].pull_p50_s = sum.p50;
		}
		struct image_task_info in;

		if (first != NULL)
			image_task_info(s, first, &in);
		e[ne++].advice = first != NULL ? in.advice : ADVICE_NONE;
	}
	qsort(e, ne, sizeof *e, by_size_desc);
	add(l, "Images of %zu tasks (ECR): %zu, largest first", v->nvis, ne);
	if (ne == 0)
		add(l, "  no image facts (--no-images, images outside private ECR, or saved data "
		    "without image lines)");
	for (size_t i = 0; i < ne; i++) {
		char p50[32];

		if (isnan(e[i].pull_p50_s))
			snprintf(p50, sizeof p50, "-");
		else
			snprintf(p50, sizeof p50, "%.1f s", e[i].pull_p50_s);
		add(l, "%s", "");
		one_image(e[i].f, l, add);
		add(l, "    tasks        %zu, pull p50 %s; advice %s", e[i].ntasks, p50,
		    soci_advice_name(e[i].advice)[0] ? soci_advice_name(e[i].advice) : "-");
	}
	free(pulls);
	free(e);
}

static void
lines_collect(struct lines *l, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = xstrdup(buf);
}

void
tui_draw_images(struct view *v)
{
	struct lines l = { 0 };
	int y = 2, bottom = v->lines - 1;

	build_images(v, &l, lines_collect);
	if (v->detail_top >= l.n)
		v->detail_top = l.n > 0 ? l.n - 1 : 0;
	for (size_t i = v->detail_top; i < l.n && y < bottom; i++, y++) {
		bool heading = l.v[i][0] != ' ' && l.v[i][0] != '\0';

		if (heading)
			attrset(A_BOLD);
		put_fit_text(v, y, 0, v->cols, l.v[i]);
		attrset(A_NORMAL);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
}
