/* ecr: the Amazon ECR API calls ecsprof makes (DescribeImages, BatchGetImage,
 * ListImageReferrers, GetDownloadUrlForLayer), sent through the one AWS JSON-protocol
 * client (src/aws/awsjson.c), plus the plain GET of a layer download URL, which carries no
 * AWS credentials. One client per registry region; answers are JSON text, which the image
 * reader (src/in/image_parse.c) turns into facts.
 * Ownership: a client borrows its options' callbacks for its lifetime and owns its copies
 * of region and endpoint; every char ** answer is the caller's to free. */
#ifndef ECSPROF_ECR_H
#define ECSPROF_ECR_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/creds.h"
#include "ecsprof/err.h"
#include "ecsprof/http.h"

struct ecr_client_options {
	struct aws_client_common common;   /* region: the registry's (from its host) */
	const char *endpoint;          /* ecr_endpoint(); required */
};

struct ecr_client;

/* The ECR API endpoint for region as the AWS CLI resolves it: AWS_ENDPOINT_URL_ECR >
 * AWS_ENDPOINT_URL > the profile's services section (key "ecr") > the profile's
 * endpoint_url > https://api.ecr.REGION.amazonaws.com (FIPS / dual-stack applied).
 * --endpoint-url is ECS's and does not apply. The caller frees *url. */
int ecr_endpoint(struct aws_context *ctx, const char *region, char **url, struct err *err);

int ecr_client_new(const struct ecr_client_options *o, struct ecr_client **out,
    struct err *err);
void ecr_client_free(struct ecr_client *c);
const char *ecr_client_region(const struct ecr_client *c);
/* HTTP attempts made through c (retries included), and throttled answers. */
void ecr_client_counts(struct ecr_client *c, size_t *requests, size_t *throttled);

/* The media types BatchGetImage is asked to accept: OCI and Docker, index and manifest. */
extern const char *const ecr_accepted_media_types[4];

/* Each call sends one operation for one image and returns the answer as compact JSON
 * text in *json. registry_id (the 12-digit account) may be NULL. Exactly one of digest
 * and tag is used by ecr_describe_image (digest when both). On failure err is one line
 * ("CODE: message — what to do"), err->aws_type the AWS code (AccessDeniedException,
 * RepositoryNotFoundException, ImageNotFoundException, ...). Safe from several threads,
 * each with its own transport. */
int ecr_describe_image(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *digest, const char *tag,
    char **json, struct err *err);
int ecr_batch_get_image(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *digest, char **json,
    struct err *err);
/* BatchGetImage of up to ECR_BATCH_MAX digests of one repository in one call (the API's
 * limit on imageIds); the answer holds images[] and failures[] for them all. */
#define ECR_BATCH_MAX 100
int ecr_batch_get_images(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *const *digests, size_t n,
    char **json, struct err *err);
/* DescribeImages of up to ECR_BATCH_MAX digests of one repository in one call (the API's
 * limit on imageIds). ECR fails the whole call (ImageNotFoundException) when one of them
 * is not there. */
int ecr_describe_images(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *const *digests, size_t n,
    char **json, struct err *err);
/* Every page of ListImageReferrers for subject digest, filtered on artifact_type: the
 * answers' referrers concatenated into one {"referrers":[...]} object. */
int ecr_list_referrers(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *digest,
    const char *artifact_type, char **json, struct err *err);
/* GetDownloadUrlForLayer: the pre-signed URL in *url. */
int ecr_download_url(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *layer_digest, char **url,
    struct err *err);
/* A plain GET of a pre-signed URL: no Authorization header, no AWS credentials (the URL
 * is its own signature); redirects are the transport's. At most max bytes. cancel (may
 * be NULL) gives it up as ecr_client_options.cancel does; lg says its retries (NULL: log.h). */
int ecr_get_url(const struct log *lg, const struct http_transport *t, const char *url, size_t max,
    const int *cancel, char **body, size_t *len, struct err *err);

#endif
