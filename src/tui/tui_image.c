/* tui_image: what the details pane says about a task's images, from the ECR facts: the
 * manifest pulled for its platform, compressed size, layers and compression, the SOCI
 * index, the advice in words, and the largest layers with the build step that made them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/image.h"
#include "ecsprof/report.h"
#include "tui_int.h"

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
	add(l, "    compressed   %s in %zu layers, %s", sz, f->nlayers,
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
