/* check_pull: the pull forecast of `ecsprof check --history FILE`: how long the task
 * definition's images will take to pull, from the pulls a history recorded (any input
 * `report` reads). The pulls that fit are those of the same platform (linux/arm64 for an
 * ARM64 task) whose images are of a similar size, half to twice the task definition's:
 * their throughput (compressed bytes / pull seconds) applied to its size. When the history
 * has no size for its images, the pull seconds of the recorded pulls of the very same
 * images stand in. With neither the forecast says so: no figure is made up. The spread is
 * the 10th to 90th percentile of those pulls, linearly interpolated (stats.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "ecsprof/image.h"
#include "ecsprof/phase.h"
#include "ecsprof/stats.h"
#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"

/* the image platform a task of td pulls, as image_task_platform() names a task's */
static const char *
td_platform(const struct taskdef *td)
{
	if (taskdef_is_windows(td))
		return "windows/amd64";
	return strcmp(taskdef_arch(td), "ARM64") == 0 ? "linux/arm64" : "linux/amd64";
}

static bool
tag_listed(const char *tags, const char *tag)
{
	size_t n = strlen(tag);

	for (const char *p = tags; p != NULL && *p != '\0';) {
		const char *comma = strchr(p, ',');
		size_t k = comma != NULL ? (size_t)(comma - p) : strlen(p);

		while (k > 0 && *p == ' ') {
			p++;
			k--;
		}
		if (k == n && strncmp(p, tag, n) == 0)
			return true;
		p = comma != NULL ? comma + 1 : NULL;
	}
	return false;
}

/* The facts the history has for image on platform: through a recorded task that ran the
 * same reference (its digest), else the facts' own reference, repository and tags. */
static const struct image_facts *
facts_for(const struct task_set *h, const char *image, const char *platform)
{
	const struct image_facts *f = NULL;
	struct image_ref r;

	for (size_t i = 0; f == NULL && i < h->len; i++) {
		const struct task *t = &h->tasks[i];

		if (strcmp(image_task_platform(t), platform) != 0)
			continue;
		for (size_t k = 0; f == NULL && k < t->ncontainers; k++)
			if (t->containers[k].prof->image != NULL &&
			    strcmp(t->containers[k].prof->image, image) == 0)
				f = image_set_find_container(h->images, &t->containers[k], platform);
	}
	if (f != NULL && f->status == IMAGE_OK && f->size_bytes >= 0)
		return f;
	if (image_ref_parse(image, &r) != 0)
		return NULL;
	f = NULL;
	for (size_t i = 0; f == NULL && i < image_set_len(h->images); i++) {
		const struct image_facts *x = image_set_at(h->images, i);
		bool same;

		if (x->status != IMAGE_OK || x->size_bytes < 0 || x->platform == NULL ||
		    strcmp(x->platform, platform) != 0)
			continue;
		same = x->image != NULL && strcmp(x->image, image) == 0;
		if (!same && x->registry != NULL && x->repository != NULL &&
		    strcasecmp(x->registry, r.registry) == 0 && strcmp(x->repository, r.repository) == 0)
			same = r.digest != NULL ?
			       (x->digest != NULL && strcmp(x->digest, r.digest) == 0) ||
			       (x->manifest_digest != NULL && strcmp(x->manifest_digest, r.digest) == 0) :
			       tag_listed(x->tags, r.tag != NULL ? r.tag : "latest");
		if (same)
			f = x;
	}
	image_ref_cleanup(&r);
	return f;
}

/* t ran every image of td (by reference) */
static bool
same_images(const struct task *t, const struct taskdef *td)
{
	for (size_t i = 0; i < td->ncontainers; i++) {
		const char *image = td->containers[i].image;
		bool found = false;

		for (size_t k = 0; image != NULL && !found && k < t->ncontainers; k++)
			found = t->containers[k].prof->image != NULL &&
				strcmp(t->containers[k].prof->image, image) == 0;
		if (image != NULL && !found)
			return false;
	}
	return td->ncontainers > 0;
}

/* the distinct images' compressed size, the largest image's facts in *largest; -1 when
 * the history lacks the size of any of them */
static int64_t
td_size(const struct task_set *h, const struct taskdef *td, const char *platform,
	const struct image_facts **largest)
{
	const struct image_facts *seen[16];
	size_t nseen = 0;
	int64_t sum = 0;

	*largest = NULL;
	for (size_t i = 0; i < td->ncontainers; i++) {
		const struct image_facts *f;
		bool dup = false;

		if (td->containers[i].image == NULL)
			continue;
		f = facts_for(h, td->containers[i].image, platform);
		if (f == NULL)
			return -1;
		for (size_t k = 0; k < nseen; k++)
			dup |= seen[k] == f;
		if (dup || nseen == sizeof seen / sizeof seen[0])
			continue;
		seen[nseen++] = f;
		sum += f->size_bytes;
		if (*largest == NULL || f->size_bytes > (*largest)->size_bytes)
			*largest = f;
	}
	return nseen > 0 ? sum : -1;
}

static void
spread(double *v, size_t n, struct check_forecast *out)
{
	stats_sort(v, n);
	out->n = n;
	out->p10_s = stats_percentile_sorted(v, n, 0.10);
	out->p50_s = stats_percentile_sorted(v, n, 0.50);
	out->p90_s = stats_percentile_sorted(v, n, 0.90);
}

bool
check_pull_forecast(const struct check_input *in, struct check_forecast *out)
{
	const struct task_set *h = in->history;
	const char *platform = td_platform(in->td);
	double *secs, *mbps, *start;
	size_t n = 0, ns = 0;

	memset(out, 0, sizeof *out);
	out->p10_s = out->p50_s = out->p90_s = out->mbps_p50 = out->start_s = NAN;
	out->size_bytes = -1;
	snprintf(out->platform, sizeof out->platform, "%s", platform);
	if (h == NULL)
		return false;
	secs = xcalloc(h->len + 1, sizeof *secs);
	mbps = xcalloc(h->len + 1, sizeof *mbps);
	start = xcalloc(h->len + 1, sizeof *start);
	out->size_bytes = td_size(h, in->td, platform, &out->largest);
	out->class_lo = out->size_bytes / 2;
	out->class_hi = out->size_bytes * 2;
	for (size_t i = 0; i < h->len; i++) {
		int64_t pull = phase_ms(&h->tasks[i], PHASE_PULL);

		out->recorded += pull != TS_NONE && pull > 0;
	}
	/* the throughput of pulls of a similar size when the size is known, else (or when
	 * none is of that size) the pull times of the same images */
	for (int pass = out->size_bytes > 0 ? 0 : 1; pass < 2 && n == 0; pass++) {
		ns = 0;
		for (size_t i = 0; i < h->len; i++) {
			const struct task *t = &h->tasks[i];
			int64_t pull = phase_ms(t, PHASE_PULL), st = phase_ms(t, PHASE_START);
			struct image_task_info info;

			if (pull == TS_NONE || pull <= 0 ||
			    strcmp(image_task_platform(t), platform) != 0)
				continue;
			if (pass == 0) {
				double rate;

				image_task_info(h->images, t, &info);
				if (info.size_bytes <= 0 || info.size_bytes < out->class_lo ||
				    info.size_bytes > out->class_hi)
					continue;
				/* this pull's throughput, applied to the task definition's size */
				rate = (double)info.size_bytes / 1e6 / ((double)pull / 1000.0);
				mbps[n] = rate;
				secs[n] = (double)out->size_bytes / 1e6 / rate;
			} else if (same_images(t, in->td)) {
				secs[n] = (double)pull / 1000.0;
			} else {
				continue;
			}
			n++;
			if (st != TS_NONE)
				start[ns++] = (double)st / 1000.0;
		}
		out->how = n == 0 ? FORECAST_NONE : pass == 0 ? FORECAST_THROUGHPUT :
			   FORECAST_SAME_IMAGE;
	}
	if (n > 0) {
		spread(secs, n, out);
		if (out->how == FORECAST_THROUGHPUT) {
			stats_sort(mbps, n);
			out->mbps_p50 = stats_percentile_sorted(mbps, n, 0.50);
		}
	}
	if (ns > 0) {
		stats_sort(start, ns);
		out->start_s = stats_percentile_sorted(start, ns, 0.50);
	}
	free(secs);
	free(mbps);
	free(start);
	return n > 0;
}

/* "1.20 GB", "850 MB" (decimal, as the pull_mbps column counts) */
static void
bytes_text(int64_t b, char *out, size_t size)
{
	if (b >= 1000000000)
		snprintf(out, size, "%.2f GB", (double)b / 1e9);
	else
		snprintf(out, size, "%.0f MB", (double)b / 1e6);
}

static const char *
arch_of(const char *platform)
{
	return strstr(platform, "arm64") != NULL ? "ARM64" : "X86_64";
}

void
check_pull(const struct check_rule *r, const struct check_input *in,
	   struct check_findings *out)
{
	struct check_forecast fc;
	char size[32], lo[32], hi[32];
	const char *name = in->history_name != NULL ? in->history_name : "the history";

	if (in->history == NULL || in->td->ncontainers == 0)
		return;
	check_pull_forecast(in, &fc);
	bytes_text(fc.size_bytes, size, sizeof size);
	bytes_text(fc.class_lo, lo, sizeof lo);
	bytes_text(fc.class_hi, hi, sizeof hi);
	switch (fc.how) {
	case FORECAST_THROUGHPUT:
		check_emit(out, r, r->path, "", "expected pull %.0f s (p10 %.0f s, p90 %.0f s) for "
			   "%s compressed: the throughput of %zu of the %zu recorded pulls in %s (%s, "
			   "images of %s-%s; median %.1f MB/s)", fc.p50_s, fc.p10_s, fc.p90_s,
			   size, fc.n, fc.recorded, name, arch_of(fc.platform), lo, hi,
			   fc.mbps_p50);
		break;
	case FORECAST_SAME_IMAGE:
		check_emit(out, r, r->path, "", "expected pull %.0f s (p10 %.0f s, p90 %.0f s): the "
			   "pull times of %zu of the %zu recorded pulls in %s, those of the same image%s "
			   "(%s)%s", fc.p50_s, fc.p10_s, fc.p90_s, fc.n, fc.recorded, name,
			   in->td->ncontainers > 1 ? "s" : "", arch_of(fc.platform), fc.size_bytes < 0 ? " (no throughput: the history has no size for "
			   "the image)" : "");
		break;
	default:
		if (fc.size_bytes > 0)
			check_emit(out, r, r->path, NULL, "no pull forecast: none of the %zu recorded "
				   "pulls in %s is %s with images of %s-%s (the task definition's: "
				   "%s compressed)", fc.recorded, name, arch_of(fc.platform), lo, hi,
				   size);
		else
			check_emit(out, r, r->path, NULL, "no pull forecast: %s has no size for the "
				   "image%s and none of its %zu recorded pulls is of the same image%s "
				   "on %s", name, in->td->ncontainers > 1 ? "s" : "", fc.recorded,
				   in->td->ncontainers > 1 ? "s" : "", arch_of(fc.platform));
		break;
	}
	/* the figures the message gives, for scripts (check_rows.c's columns) */
	out->v[out->n - 1].fig = (struct check_figures){
		.pull_p10_s = fc.p10_s, .pull_p50_s = fc.p50_s, .pull_p90_s = fc.p90_s,
		.pulls_used = (long)fc.n, .pulls_recorded = (long)fc.recorded,
		.basis = fc.how == FORECAST_THROUGHPUT ? "throughput" :
			 fc.how == FORECAST_SAME_IMAGE ? "same-image" : "none",
		.usd_per_hour = NAN, .usd_per_1000_starts = NAN, .start_s = NAN,
	};
}

/* the two largest layers, "600 MB RUN pip install ...; 300 MB ADD ..." */
static void
largest_layers(const struct image_facts *f, char *out, size_t size)
{
	size_t top[2] = { SIZE_MAX, SIZE_MAX }, n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < f->nlayers; i++) {
		if (top[0] == SIZE_MAX || f->layers[i].size > f->layers[top[0]].size) {
			top[1] = top[0];
			top[0] = i;
		} else if (top[1] == SIZE_MAX || f->layers[i].size > f->layers[top[1]].size) {
			top[1] = i;
		}
	}
	for (size_t k = 0; k < 2 && top[k] != SIZE_MAX; k++) {
		const struct image_layer *l = &f->layers[top[k]];
		char b[32];

		bytes_text(l->size, b, sizeof b);
		n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s %s", k ? "; " : "", b,
				      l->created_by ? l->created_by : "(build step not known)");
		if (n >= size)
			break;
	}
}

void
check_image_size(const struct check_rule *r, const struct check_input *in,
		 struct check_findings *out)
{
	const char *platform = td_platform(in->td);

	if (in->history == NULL)
		return;
	for (size_t i = 0; i < in->td->ncontainers; i++) {
		const char *image = in->td->containers[i].image;
		const struct image_facts *f;
		const char *comp, *soci, *fix = "";
		char size[32], layers[400], *path;

		if (image == NULL || (f = facts_for(in->history, image, platform)) == NULL)
			continue;
		comp = image_facts_compression(f);
		bytes_text(f->size_bytes, size, sizeof size);
		largest_layers(f, layers, sizeof layers);
		if (f->soci == IMAGE_SOCI_V2 || f->soci == IMAGE_SOCI_V1)
			soci = f->soci == IMAGE_SOCI_V2 ? "a SOCI index (v2): lazy loaded" :
			       "a SOCI index (v1 only: Fargate no longer uses v1)";
		else if (strcmp(comp, "zstd") == 0 || strcmp(comp, "mixed") == 0)
			soci = "zstd layers, which SOCI does not index";
		else if (f->soci == IMAGE_SOCI_NONE && f->size_bytes >= IMAGE_SOCI_MIN_BYTES &&
			 strcmp(comp, "gzip") == 0) {
			soci = "no SOCI index, and worth one (over 250 MiB: lazy loading starts the "
			       "container before the whole image is pulled)";
			fix = "build a SOCI index (v2) for the image and push it beside it";
		} else if (f->soci == IMAGE_SOCI_NONE) {
			soci = "no SOCI index (under 250 MiB: little to gain)";
		} else {
			soci = "SOCI index not known";
		}
		path = xasprintf("containerDefinitions[%zu].image", i);
		check_emit(out, r, path, fix, "%s: %s compressed in %zu layer%s%s%s; %s; largest: %s",
			   image, size, f->nlayers, f->nlayers == 1 ? "" : "s", comp[0] ? ", " : "",
			   comp, soci, layers[0] ? layers : "(no layers known)");
		free(path);
	}
}
