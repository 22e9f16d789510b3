/* image_io: image facts to and from JSON: the answers of ECR (DescribeImages,
 * BatchGetImage, ListImageReferrers, the image config), the facts line of recordings and
 * of the cache ($XDG_CACHE_HOME/ecsprof/), and saved `aws ecr describe-images` /
 * `aws ecr batch-get-image` output. The only JSON reader of image data.
 * Ownership: every char * returned is the caller's; facts filled are the caller's
 * (image_facts_cleanup); the JSON texts passed in are borrowed. */
#ifndef ECSPROF_IMAGE_IO_H
#define ECSPROF_IMAGE_IO_H

#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/image.h"

/* What one manifest says. An image index: which entry is the platform manifest and
 * whether a SOCI v2 index entry names it. An image manifest: its layers and config, and
 * the com.amazon.soci.index-digest annotation. */
struct image_manifest_info {
	bool is_index;
	char *manifest_digest;     /* index: the entry for the platform; NULL if none */
	char *soci_v2_digest;      /* index: the SOCI v2 entry naming that manifest; manifest:
				    * its com.amazon.soci.index-digest annotation */
	char *config_digest;       /* manifest */
	struct image_layer *layers;
	size_t nlayers;
	char *platforms;           /* index: the platforms it has, "linux/amd64, linux/arm64" */
};
void image_manifest_info_cleanup(struct image_manifest_info *m);
/* Parses a manifest (the text of BatchGetImage's imageManifest); platform picks the index
 * entry ("linux/amd64"; NULL: the first image entry). */
int image_parse_manifest(const char *text, size_t len, const char *platform,
    struct image_manifest_info *out, struct err *err);

/* BatchGetImage's answer (perhaps batched) for digest (NULL: the first image): the
 * manifest text and media type (*manifest and *media_type, caller frees), or the failure: -1 with err->aws_type "ImageNotFound" or
 * the failureCode. */
int image_parse_batch_answer(const char *json, size_t len, const char *digest, char **manifest,
    char **media_type, struct err *err);
/* DescribeImages's answer (perhaps batched) for digest (NULL: the first detail): tags,
 * push time, media type and imageSizeInBytes (used as the size only while f has no
 * layers) into f. */
int image_parse_describe_answer(const char *json, size_t len, const char *digest,
    struct image_facts *f, struct err *err);
/* ListImageReferrers's answer: the digest of the first referrer (*digest, NULL if none). */
int image_parse_referrers(const char *json, size_t len, char **digest, struct err *err);
/* The image config: history entries without empty_layer, in order, give each layer of
 * f its created_by. Sets f->history when the counts agree. */
int image_parse_config(const char *json, size_t len, struct image_facts *f, struct err *err);

/* The facts as one compact JSON object (the "image" member of a recording line and the
 * content of a cache file); caller frees. */
char *image_facts_to_json(const struct image_facts *f);
int image_facts_from_json(const char *json, size_t len, struct image_facts *out,
    struct err *err);
/* A recording line for f (record.h's format with "image" in place of "task"). */
char *image_record_line(const struct image_facts *f, const char *region);

#endif
