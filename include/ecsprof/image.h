/* image: what was pulled. The facts ECR gives about one image digest (platform manifest,
 * compressed size, layers and their compression, SOCI indexes, the build step of each
 * layer), a set of them keyed by (digest, platform), the image reference parser (which
 * registry, account and region), and the per-task answers the columns show (size, layers,
 * compression, soci_index, pull_mbps, soci_advice).
 * Ownership: an image_facts owns every string and its layers (image_facts_cleanup); an
 * image_set owns its facts (image_set_free); image_set_put() takes the facts it is given
 * (zeroing them); a struct image_ref owns its strings (image_ref_cleanup); answers about a
 * task borrow from the set. The facts and the set are image.c's, which knows no task; what
 * concerns a task (its containers' facts, its platform, the per-task answers) is
 * image_task.c's, so the task set (task.c) can own its image set without a cycle. */
#ifndef ECSPROF_IMAGE_H
#define ECSPROF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct task;
struct container;

/* AWS's threshold for SOCI: below it lazy loading gains little (~250 MiB compressed). */
#define IMAGE_SOCI_MIN_BYTES ((int64_t)250 << 20)

#define IMAGE_SOCI_V2_TYPE "application/vnd.amazon.soci.index.v2+json"
#define IMAGE_SOCI_V1_TYPE "application/vnd.amazon.soci.index.v1+json"
#define IMAGE_SOCI_MANIFEST_ANNOTATION "com.amazon.soci.image-manifest-digest"
#define IMAGE_SOCI_INDEX_ANNOTATION "com.amazon.soci.index-digest"

enum image_comp { IMAGE_COMP_UNKNOWN, IMAGE_COMP_GZIP, IMAGE_COMP_ZSTD, IMAGE_COMP_NONE };
enum image_soci { IMAGE_SOCI_UNKNOWN, IMAGE_SOCI_NONE, IMAGE_SOCI_V1, IMAGE_SOCI_V2 };
/* What the lookup found: facts (OK); not in private ECR; the repository or the image is
 * not there; or it failed (permission, network): error says why. */
enum image_status { IMAGE_OK, IMAGE_NOT_ECR, IMAGE_NOT_FOUND, IMAGE_ERROR };

struct image_layer {
	char *digest;
	char *media_type;
	int64_t size;                /* compressed bytes, as the manifest says */
	enum image_comp comp;
	char *created_by;            /* the config history step that made it; NULL unknown */
};

struct image_facts {
	char *digest;                /* key: the digest the task ran (index or manifest) */
	char *platform;              /* key: "linux/amd64" or "linux/arm64" */
	char *image;                 /* a reference it is known by ("HOST/REPO:TAG") */
	char *registry;              /* host: ACCOUNT.dkr.ecr.REGION.amazonaws.com */
	char *repository;
	char *tags;                  /* DescribeImages imageTags, comma-separated; NULL none */
	char *media_type;            /* of the digest's manifest (index or image manifest) */
	char *manifest_digest;       /* the platform manifest the task pulled */
	char *config_digest;
	char *soci_index_digest;     /* the SOCI index found (v2 or v1) */
	int64_t pushed_ms;           /* TS_NONE unknown */
	int64_t size_bytes;          /* compressed: the manifest's layers; -1 unknown */
	struct image_layer *layers;
	size_t nlayers;
	enum image_soci soci;
	enum image_status status;
	char *error;                 /* IMAGE_NOT_FOUND / IMAGE_ERROR: one line */
	bool history;                /* created_by filled from the image config */
	bool v1_checked;             /* ListImageReferrers answered */
	int64_t fetched_ms;          /* when ECR answered; TS_NONE unknown */
};

struct image_set;

void image_facts_init(struct image_facts *f);
void image_facts_cleanup(struct image_facts *f);
void image_facts_copy(struct image_facts *dst, const struct image_facts *src);

struct image_set *image_set_new(void);
void image_set_free(struct image_set *s);
/* Adds f (taken: f is zeroed). An entry with the same key is replaced when f knows more
 * (IMAGE_OK beats a failure; with equal status the later fetched_ms). Returns the entry. */
const struct image_facts *image_set_put(struct image_set *s, struct image_facts *f);
/* The facts for (digest, platform); platform NULL matches any. NULL when absent. Also
 * finds facts whose manifest_digest is digest (a task that ran the platform manifest of
 * an index the set knows). */
const struct image_facts *image_set_find(const struct image_set *s, const char *digest,
    const char *platform);
/* The facts for container c of a task on platform: by its imageDigest, or, when it has
 * none (not pulled yet), by its image reference as this run resolved it. NULL absent. */
const struct image_facts *image_set_find_container(const struct image_set *s,
    const struct container *c, const char *platform);
size_t image_set_len(const struct image_set *s);
const struct image_facts *image_set_at(const struct image_set *s, size_t i);
/* Moves every entry of src into dst (as image_set_put); src is left empty. */
void image_set_merge(struct image_set *dst, struct image_set *src);

/* ---- image references -------------------------------------------------------------- */

struct image_ref {
	char *registry;              /* "123.dkr.ecr.us-east-1.amazonaws.com", "docker.io" */
	char *repository;            /* "team/web" (Docker Hub: "library/nginx") */
	char *tag;                   /* NULL when absent */
	char *digest;                /* "sha256:..." when the reference has @digest */
	char *account;               /* private ECR only */
	char *region;                /* private ECR only */
	bool private_ecr;
};
/* "HOST/REPO[:TAG][@DIGEST]", "REPO[:TAG]" (Docker Hub). -1 when it cannot be one. */
int image_ref_parse(const char *s, struct image_ref *out);
void image_ref_cleanup(struct image_ref *r);
/* image_ref_parse(s)'s private_ecr without its copies: 1 or 0, -1 when s cannot be one */
int image_ref_is_private_ecr(const char *s);

/* The media type's compression: "...tar+gzip", "...tar.gzip", "...diff.tar.gzip" gzip,
 * "+zstd" zstd, plain "...tar" none, anything else unknown. */
enum image_comp image_comp_of(const char *media_type);
const char *image_comp_name(enum image_comp c);     /* "gzip", "zstd", "none", "" */
const char *image_soci_name(enum image_soci s);     /* "v2", "v1", "none", "" */
const char *image_status_name(enum image_status s); /* "ok", "not-ecr", "not-found", "error" */
/* "linux/arm64" for a task whose cpu architecture is arm64 (any case, "aarch64" too),
 * else "linux/amd64"; Windows tasks "windows/amd64". */
const char *image_task_platform(const struct task *t);
/* The image's compression over its layers: gzip, zstd, mixed, none, "" unknown. */
const char *image_facts_compression(const struct image_facts *f);

/* ---- per task ------------------------------------------------------------------------ */

enum soci_advice {
	ADVICE_NONE,            /* no image facts */
	ADVICE_LAZY_LOADED,
	ADVICE_INDEX_NOT_USED,
	ADVICE_INDEX_V2,
	ADVICE_INDEX_V1_ONLY,
	ADVICE_WORTH_INDEXING,
	ADVICE_ZSTD,
	ADVICE_TOO_SMALL,
	ADVICE_NOT_ECR,
	ADVICE_PLATFORM,
	ADVICE_COUNT
};
const char *soci_advice_name(enum soci_advice a);   /* "lazy-loaded", ..., "" */

/* What the columns show for one task: over its containers' distinct images. */
struct image_task_info {
	bool known;                 /* at least one image has facts (IMAGE_OK) */
	bool any_not_ecr;
	int64_t size_bytes;         /* sum of the distinct images' compressed sizes; -1 */
	long layers;                /* sum of their layers; -1 */
	char compression[8];        /* gzip, zstd, mixed, none, "" */
	enum image_soci soci;       /* of the largest image (the one that costs the pull) */
	enum soci_advice advice;
	const struct image_facts *largest;   /* borrowed; NULL */
};
/* Computes the answers for t from the set (NULL: no facts). The advice, first that holds:
 * lazy-loaded (metadata Snapshotter soci), index-not-used (an index and metadata
 * overlayfs), empty (no facts), not-ecr, platform (Windows, or Fargate platform version
 * before 1.4.0), index-v2, index-v1-only, zstd, too-small (< 250 MiB), worth-indexing. */
void image_task_info(const struct image_set *s, const struct task *t,
    struct image_task_info *out);
/* True when the Fargate platform version is before 1.4.0 ("1.3.0"); LATEST and empty are
 * taken as current. */
bool image_platform_too_old(const char *platform_version);

#endif
