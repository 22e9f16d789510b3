/* image_cache: image facts by digest and platform in DIR/images/ (digests are immutable,
 * so an entry never goes stale): one JSON file each, written through atomicfile, so a
 * reader sees the old file or the whole new one. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecsprof/atomicfile.h"
#include "ecsprof/image_io.h"
#include "ecsprof/xalloc.h"
#include "image_cache.h"

static char *
cache_path(const char *dir, const char *digest, const char *platform)
{
	char name[300];
	size_t j = 0;

	for (const char *p = digest; *p && j + 1 < 200; p++)
		name[j++] = (*p == ':' || *p == '/') ? '-' : *p;
	name[j++] = '_';
	for (const char *p = platform; *p && j + 1 < sizeof name - 8; p++)
		name[j++] = *p == '/' ? '-' : *p;
	name[j] = '\0';
	return xasprintf("%s/images/%s.json", dir, name);
}

bool
image_cache_read(const char *dir, const char *digest, const char *platform,
    struct image_facts *out)
{
	char *path, *data;
	FILE *fp;
	long n;
	struct err e;
	bool ok = false;

	if (dir == NULL || digest == NULL)
		return false;
	path = cache_path(dir, digest, platform);
	fp = fopen(path, "rb");
	free(path);
	if (fp == NULL)
		return false;
	data = xmalloc(1 << 22);
	n = (long)fread(data, 1, (1 << 22) - 1, fp);
	fclose(fp);
	if (n > 0 && image_facts_from_json(data, (size_t)n, out, &e) == 0 &&
	    out->status == IMAGE_OK && strcmp(out->digest, digest) == 0)
		ok = true;
	else if (n > 0)
		image_facts_cleanup(out);
	free(data);
	return ok;
}

static int
mkdirs(const char *dir)
{
	char *p = xstrdup(dir);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
	free(p);
	return rc;
}

int
image_cache_write(const char *dir, const struct image_facts *facts, char *why, size_t size)
{
	struct atomicfile af;
	struct err err;
	char *sub, *path, *json;
	int rc;

	if (dir == NULL || facts->status != IMAGE_OK)
		return 0;
	sub = xasprintf("%s/images", dir);
	if (mkdirs(sub) != 0) {
		snprintf(why, size, "cannot create %s: %s", sub, err_strerror(errno));
		free(sub);
		return -1;
	}
	free(sub);
	/* the one atomic writer: an unpredictable O_EXCL | O_NOFOLLOW temporary name, so a
	 * link planted in a shared cache directory is never written through, and only a
	 * regular file is ever replaced */
	path = cache_path(dir, facts->digest, facts->platform);
	json = image_facts_to_json(facts);
	err_clear(&err);
	rc = atomicfile_open(&af, path, ATOMICFILE_REGULAR, &err);
	if (rc == 0) {
		if (fputs(json, af.f) < 0 || fputc('\n', af.f) == EOF) {
			err_set(&err, ERR_IO, "cannot write %s: %s", path, err_strerror(errno));
			atomicfile_abort(&af);
			rc = -1;
		} else {
			rc = atomicfile_commit(&af, &err);
		}
	}
	if (rc != 0)
		snprintf(why, size, "%s", err.msg);
	free(json);
	free(path);
	return rc;
}
