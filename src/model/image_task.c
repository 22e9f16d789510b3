/* image_task: what a task's images are, from the set's facts (image.c, which knows no
 * task): the facts of a container, a task's platform, and the per-task answers the report
 * columns show (size, layers, compression, SOCI and its advice). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/image.h"
#include "ecsprof/task.h"

static bool
str_eq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

const struct image_facts *
image_set_find_container(const struct image_set *s, const struct container *c,
    const char *platform)
{
	if (s == NULL)
		return NULL;
	struct digest_buf b;
	const char *digest = container_digest(c, &b);

	if (digest != NULL && *digest != '\0')
		return image_set_find(s, digest, platform);
	if (c->prof->image == NULL)
		return NULL;
	/* not pulled yet (or an emulator that gives no digest): the reference, as
	 * DescribeImages resolved it in this run */
	for (size_t i = 0; i < image_set_len(s); i++) {
		const struct image_facts *f = image_set_at(s, i);

		if (str_eq(f->image, c->prof->image) && (platform == NULL || str_eq(f->platform, platform)))
			return f;
	}
	return NULL;
}

static bool
is_windows(const struct task *t)
{
	return t->prof->platform_family != NULL && strncasecmp(t->prof->platform_family, "windows", 7) == 0;
}

const char *
image_task_platform(const struct task *t)
{
	const char *a = t->prof->cpu_arch;

	if (is_windows(t))
		return "windows/amd64";
	if (a != NULL && (strcasecmp(a, "arm64") == 0 || strcasecmp(a, "aarch64") == 0))
		return "linux/arm64";
	return "linux/amd64";
}

/* ---- per task ------------------------------------------------------------------------ */

static enum soci_advice
advice_for(const struct task *t, const struct image_task_info *in, bool meta_soci,
    bool meta_overlay)
{
	const struct image_facts *f = in->largest;
	bool fargate = t->prof->launch_type != NULL && strcasecmp(t->prof->launch_type, "FARGATE") == 0;

	if (meta_soci)
		return ADVICE_LAZY_LOADED;
	if (meta_overlay && f != NULL && (f->soci == IMAGE_SOCI_V2 || f->soci == IMAGE_SOCI_V1))
		return ADVICE_INDEX_NOT_USED;
	if (f == NULL)
		return in->any_not_ecr ? ADVICE_NOT_ECR : ADVICE_NONE;
	if (is_windows(t) || (fargate && image_platform_too_old(t->prof->platform_version)))
		return ADVICE_PLATFORM;
	if (f->soci == IMAGE_SOCI_V2)
		return ADVICE_INDEX_V2;
	if (f->soci == IMAGE_SOCI_V1)
		return ADVICE_INDEX_V1_ONLY;
	for (size_t i = 0; i < f->nlayers; i++)
		if (f->layers[i].comp == IMAGE_COMP_ZSTD)
			return ADVICE_ZSTD;
	if (f->size_bytes >= 0 && f->size_bytes < IMAGE_SOCI_MIN_BYTES)
		return ADVICE_TOO_SMALL;
	/* "no index, no zstd layer" needs the manifest: a DescribeImages size alone is not it */
	if (f->size_bytes < 0 || f->soci == IMAGE_SOCI_UNKNOWN)
		return ADVICE_NONE;
	return ADVICE_WORTH_INDEXING;
}

void
image_task_info(const struct image_set *s, const struct task *t, struct image_task_info *out)
{
	const struct image_facts *seen[16];
	size_t nseen = 0;
	unsigned comp = 0;
	bool meta_soci = false, meta_overlay = false;
	/* asked once a task, and not without facts to look up (--no-images) */
	const char *platform = s != NULL ? image_task_platform(t) : NULL;

	memset(out, 0, sizeof *out);
	out->size_bytes = -1;
	out->layers = -1;
	for (size_t i = 0; i < t->ncontainers; i++) {
		const struct container *c = &t->containers[i];
		const struct image_facts *f;
		bool dup = false;

		if (c->prof->snapshotter != NULL) {
			meta_soci |= strcasecmp(c->prof->snapshotter, "soci") == 0;
			meta_overlay |= strcasecmp(c->prof->snapshotter, "overlayfs") == 0;
		}
		/* no copies of the reference a task (it is asked for each row written) */
		if (c->prof->image != NULL && image_ref_is_private_ecr(c->prof->image) == 0)
			out->any_not_ecr = true;
		f = image_set_find_container(s, c, platform);
		if (f == NULL || f->status != IMAGE_OK)
			continue;
		for (size_t j = 0; j < nseen; j++)
			dup |= seen[j] == f;
		if (dup || nseen == sizeof seen / sizeof seen[0])
			continue;
		seen[nseen++] = f;
		out->known = true;
		if (f->size_bytes >= 0)
			out->size_bytes = (out->size_bytes < 0 ? 0 : out->size_bytes) + f->size_bytes;
		out->layers = (out->layers < 0 ? 0 : out->layers) + (long)f->nlayers;
		for (size_t j = 0; j < f->nlayers; j++)
			comp |= 1u << f->layers[j].comp;
		if (out->largest == NULL || f->size_bytes > out->largest->size_bytes)
			out->largest = f;
	}
	if (out->known && !(comp & (1u << IMAGE_COMP_UNKNOWN)) && comp != 0)
		snprintf(out->compression, sizeof out->compression, "%s",
		    comp == (1u << IMAGE_COMP_GZIP) ? "gzip" :
		    comp == (1u << IMAGE_COMP_ZSTD) ? "zstd" :
		    comp == (1u << IMAGE_COMP_NONE) ? "none" : "mixed");
	out->soci = out->largest != NULL ? out->largest->soci : IMAGE_SOCI_UNKNOWN;
	out->advice = advice_for(t, out, meta_soci, meta_overlay);
}
