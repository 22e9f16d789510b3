/* ecr: the ECR operations ecsprof calls, each a request built here and sent through
 * awsjson.c (signing, retries, error lines), and the credential-free GET of a pre-signed
 * layer URL. Kept to the wire: what the answers mean is src/in/image_parse.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "awsjson.h"
#include "creds_int.h"
#include "ecsprof/ecr.h"
#include "ecsprof/log.h"
#include "ecsprof/xalloc.h"

struct ecr_client {
	struct awsjson_client *api;
	const int *cancel;
};

const char *const ecr_accepted_media_types[4] = {
	"application/vnd.oci.image.index.v1+json",
	"application/vnd.docker.distribution.manifest.list.v2+json",
	"application/vnd.oci.image.manifest.v1+json",
	"application/vnd.docker.distribution.manifest.v2+json",
};

int
ecr_endpoint(struct aws_context *ctx, const char *region, char **url, struct err *err)
{
	if (creds_service_endpoint(ctx, NULL, awsjson_ecr.service_id, "ecr",
	    awsjson_ecr.host_prefix, region, true, url, err) != 0)
		return -1;
	creds_endpoint_warn_aws(ctx, awsjson_ecr.service_id, "ecr", *url);
	return 0;
}

int
ecr_client_new(const struct ecr_client_options *o, struct ecr_client **out, struct err *err)
{
	struct awsjson_options ao = { 0 };
	struct ecr_client *c;

	*out = NULL;
	ao.service = &awsjson_ecr;
	ao.endpoint = o->endpoint;
	ao.common = o->common;
	c = xcalloc(1, sizeof *c);
	c->cancel = o->common.cancel;
	if (awsjson_client_new(&ao, &c->api, err) != 0) {
		free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void
ecr_client_free(struct ecr_client *c)
{
	if (c == NULL)
		return;
	awsjson_client_free(c->api);
	free(c);
}

const char *
ecr_client_region(const struct ecr_client *c)
{
	return awsjson_region(c->api);
}

void
ecr_client_counts(struct ecr_client *c, size_t *requests, size_t *throttled)
{
	struct awsjson_counts n;

	awsjson_counts(c->api, &n);
	*requests = n.requests;
	*throttled = n.throttled;
}

/* One operation through the JSON client, given up at once when the client's cancel flag
 * is set. */
static int
send_op(struct ecr_client *c, const struct http_transport *t, const char *op, json_t *req,
    json_t **resp, struct err *err)
{
	struct awsjson_call_options o = { .cancel = c->cancel };

	return awsjson_call_opt(c->api, t, op, req, &o, resp, err);
}

/* Sends req (consumed) and hands back the answer as text. */
static int
call(struct ecr_client *c, const struct http_transport *t, const char *op, json_t *req,
    char **json, struct err *err)
{
	json_t *resp = NULL;
	int rc = send_op(c, t, op, req, &resp, err);

	json_decref(req);
	*json = NULL;
	if (rc != 0)
		return -1;
	*json = json_dumps(resp, JSON_COMPACT);
	json_decref(resp);
	if (*json == NULL)
		return err_set(err, ERR_INTERNAL, "%s: cannot encode the answer", op);
	return 0;
}

static json_t *
request(const char *registry_id, const char *repo)
{
	json_t *req = json_object();

	if (registry_id != NULL && *registry_id != '\0')
		json_object_set_new(req, "registryId", json_string(registry_id));
	json_object_set_new(req, "repositoryName", json_string(repo));
	return req;
}

static json_t *
image_ids(const char *digest, const char *tag)
{
	json_t *id = json_object(), *arr = json_array();

	if (digest != NULL)
		json_object_set_new(id, "imageDigest", json_string(digest));
	else
		json_object_set_new(id, "imageTag", json_string(tag ? tag : "latest"));
	json_array_append_new(arr, id);
	return arr;
}

int
ecr_describe_image(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *digest, const char *tag,
    char **json, struct err *err)
{
	json_t *req = request(registry_id, repo);

	json_object_set_new(req, "imageIds", image_ids(digest, tag));
	return call(c, t, "DescribeImages", req, json, err);
}

int
ecr_describe_images(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *const *digests, size_t n,
    char **json, struct err *err)
{
	json_t *req = request(registry_id, repo), *ids = json_array();

	for (size_t i = 0; i < n && i < ECR_BATCH_MAX; i++) {
		json_t *id = json_object();

		json_object_set_new(id, "imageDigest", json_string(digests[i]));
		json_array_append_new(ids, id);
	}
	json_object_set_new(req, "imageIds", ids);
	return call(c, t, "DescribeImages", req, json, err);
}

int
ecr_batch_get_images(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *const *digests, size_t n,
    char **json, struct err *err)
{
	json_t *req = request(registry_id, repo), *types = json_array(), *ids = json_array();

	for (size_t i = 0; i < n && i < ECR_BATCH_MAX; i++) {
		json_t *id = json_object();

		json_object_set_new(id, "imageDigest", json_string(digests[i]));
		json_array_append_new(ids, id);
	}
	json_object_set_new(req, "imageIds", ids);
	for (size_t i = 0; i < 4; i++)
		json_array_append_new(types, json_string(ecr_accepted_media_types[i]));
	json_object_set_new(req, "acceptedMediaTypes", types);
	return call(c, t, "BatchGetImage", req, json, err);
}

int
ecr_batch_get_image(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *digest, char **json,
    struct err *err)
{
	return ecr_batch_get_images(c, t, registry_id, repo, &digest, 1, json, err);
}

int
ecr_list_referrers(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *digest,
    const char *artifact_type, char **json, struct err *err)
{
	json_t *all = json_array(), *wrap;
	char *token = NULL;
	int pages = 0;

	*json = NULL;
	do {
		json_t *req = request(registry_id, repo), *resp = NULL, *filter = json_object();
		json_t *subject = json_object(), *types = json_array(), *v;
		size_t i;
		int rc;

		json_object_set_new(subject, "imageDigest", json_string(digest));
		json_object_set_new(req, "subjectId", subject);
		json_array_append_new(types, json_string(artifact_type));
		json_object_set_new(filter, "artifactTypes", types);
		json_object_set_new(req, "filter", filter);
		if (token != NULL)
			json_object_set_new(req, "nextToken", json_string(token));
		rc = send_op(c, t, "ListImageReferrers", req, &resp, err);
		json_decref(req);
		free(token);
		token = NULL;
		if (rc != 0) {
			json_decref(all);
			return -1;
		}
		json_array_foreach(json_object_get(resp, "referrers"), i, v)
			json_array_append(all, v);
		if (json_is_string(json_object_get(resp, "nextToken")))
			token = xstrdup(json_string_value(json_object_get(resp, "nextToken")));
		json_decref(resp);
	} while (token != NULL && ++pages < 100);
	free(token);
	wrap = json_pack("{s:o}", "referrers", all);
	*json = json_dumps(wrap, JSON_COMPACT);
	json_decref(wrap);
	return *json != NULL ? 0 : err_set(err, ERR_INTERNAL, "ListImageReferrers: cannot encode");
}

int
ecr_download_url(struct ecr_client *c, const struct http_transport *t,
    const char *registry_id, const char *repo, const char *layer_digest, char **url,
    struct err *err)
{
	json_t *req = request(registry_id, repo), *resp = NULL;
	const char *u;
	int rc;

	*url = NULL;
	json_object_set_new(req, "layerDigest", json_string(layer_digest));
	rc = send_op(c, t, "GetDownloadUrlForLayer", req, &resp, err);
	json_decref(req);
	if (rc != 0)
		return -1;
	u = json_string_value(json_object_get(resp, "downloadUrl"));
	if (u == NULL || (strncmp(u, "https://", 8) != 0 && strncmp(u, "http://", 7) != 0)) {
		json_decref(resp);
		return err_set(err, ERR_AWS, "GetDownloadUrlForLayer: the answer has no download URL");
	}
	*url = xstrdup(u);
	json_decref(resp);
	return 0;
}

struct get {
	const char *url;
};

static int
get_prepare(void *ctx, int64_t now_ms, struct http_request *req, struct err *err)
{
	struct get *g = ctx;

	memset(req, 0, sizeof *req);
	req->method = "GET";
	req->url = g->url;
	return 0;
}

int
ecr_get_url(const struct log *lg, const struct http_transport *t, const char *url, size_t max,
    const int *cancel, char **body, size_t *len, struct err *err)
{
	struct get g = { url };
	struct http_retry r = { .cancel = cancel, .log = lg };
	struct http_response resp;
	const char *host = strstr(url, "://") ? strstr(url, "://") + 3 : url;
	int host_len = (int)strcspn(host, "/?");

	*body = NULL;
	*len = 0;
	http_response_init(&resp);
	if (http_send_retry(t, &r, get_prepare, &g, &resp, err) != 0) {
		http_response_cleanup(&resp);
		/* never print the query: it is the URL's signature */
		return err_prefix(err, "layer download (%.*s)", host_len, host);
	}
	if (resp.status != 200) {
		err_set(err, ERR_AWS, "layer download: HTTP %ld from %.*s", resp.status, host_len,
		    host);
		http_response_cleanup(&resp);
		return -1;
	}
	if (resp.body.len > max) {
		http_response_cleanup(&resp);
		return err_set(err, ERR_IO, "layer download: more than %zu bytes", max);
	}
	*len = resp.body.len;
	*body = buf_take(&resp.body);
	http_response_cleanup(&resp);
	return 0;
}
