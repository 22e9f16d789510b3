/* image_parse: image facts from and to JSON: ECR's answers, manifests and the image
 * config, the facts line of recordings and of the cache, and saved `aws ecr` output. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ecsprof/buf.h"
#include "ecsprof/image_io.h"
#include "ecsprof/record.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "image_int.h"
#include "input_int.h"

static const char *
jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static char *
jdup(const json_t *o, const char *key)
{
	return xstrdup_or_null(jstr(o, key));
}

static int64_t
jint(const json_t *o, const char *key, int64_t dflt)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (int64_t)json_integer_value(v);
	if (json_is_real(v))
		return (int64_t)json_real_value(v);
	return dflt;
}

static json_t *
load(const char *text, size_t len, const char *what, struct err *err)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, 0, &je);

	if (root == NULL && input_json_oom(&je)) {
		err_set(err, ERR_INTERNAL, "%s: out of memory parsing the JSON", what);
		return NULL;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		err_set(err, ERR_PARSE, "%s: not a JSON object (%s)", what,
		    root == NULL ? je.text : "another value");
		return NULL;
	}
	return root;
}

void
image_manifest_info_cleanup(struct image_manifest_info *m)
{
	for (size_t i = 0; i < m->nlayers; i++) {
		free(m->layers[i].digest);
		free(m->layers[i].media_type);
		free(m->layers[i].created_by);
	}
	free(m->layers);
	free(m->manifest_digest);
	free(m->soci_v2_digest);
	free(m->config_digest);
	free(m->platforms);
	memset(m, 0, sizeof *m);
}

static bool
is_index_type(const char *mt)
{
	return mt != NULL && (strcmp(mt, "application/vnd.oci.image.index.v1+json") == 0 ||
	    strcmp(mt, "application/vnd.docker.distribution.manifest.list.v2+json") == 0);
}

static void
entry_platform(const json_t *e, char *out, size_t size)
{
	const json_t *p = json_object_get(e, "platform");
	const char *os = jstr(p, "os"), *arch = jstr(p, "architecture");

	snprintf(out, size, "%s/%s", os ? os : "?", arch ? arch : "?");
}

static void
parse_index(const json_t *root, const char *platform, struct image_manifest_info *out)
{
	const json_t *ms = json_object_get(root, "manifests"), *e;
	struct buf names;
	size_t i;

	out->is_index = true;
	buf_init(&names, 4096);
	json_array_foreach(ms, i, e) {
		char p[64];
		const char *at = jstr(e, "artifactType");

		if (at != NULL && strcmp(at, IMAGE_SOCI_V2_TYPE) == 0)
			continue;
		if (json_object_get(e, "platform") == NULL)
			continue;
		entry_platform(e, p, sizeof p);
		if (strcmp(p, "unknown/unknown") == 0)   /* buildkit attestations */
			continue;
		buf_addf(&names, "%s%s", names.len ? ", " : "", p);
		if (out->manifest_digest == NULL && (platform == NULL || strcmp(p, platform) == 0))
			out->manifest_digest = jdup(e, "digest");
	}
	out->platforms = buf_take(&names);
	if (out->manifest_digest == NULL)
		return;
	json_array_foreach(ms, i, e) {
		const char *at = jstr(e, "artifactType");
		const json_t *ann = json_object_get(e, "annotations");
		const char *names_it = jstr(ann, IMAGE_SOCI_MANIFEST_ANNOTATION);

		if (at != NULL && strcmp(at, IMAGE_SOCI_V2_TYPE) == 0 && names_it != NULL &&
		    strcmp(names_it, out->manifest_digest) == 0) {
			out->soci_v2_digest = jdup(e, "digest");
			break;
		}
	}
}

static void
parse_image_manifest(const json_t *root, struct image_manifest_info *out)
{
	const json_t *layers = json_object_get(root, "layers"), *l;
	size_t i;

	out->config_digest = jdup(json_object_get(root, "config"), "digest");
	out->soci_v2_digest = jdup(json_object_get(root, "annotations"), IMAGE_SOCI_INDEX_ANNOTATION);
	if (json_array_size(layers) > 0)
		out->layers = xcalloc(json_array_size(layers), sizeof *out->layers);
	json_array_foreach(layers, i, l) {
		struct image_layer *y = &out->layers[out->nlayers++];

		y->digest = jdup(l, "digest");
		y->media_type = jdup(l, "mediaType");
		y->size = jint(l, "size", 0);
		y->comp = image_comp_of(y->media_type);
	}
}

int
image_parse_manifest(const char *text, size_t len, const char *platform,
    struct image_manifest_info *out, struct err *err)
{
	json_t *root = load(text, len, "image manifest", err);
	const char *mt;

	memset(out, 0, sizeof *out);
	if (root == NULL)
		return -1;
	mt = jstr(root, "mediaType");
	if (is_index_type(mt) || (mt == NULL && json_is_array(json_object_get(root, "manifests")))) {
		parse_index(root, platform, out);
	} else if (!json_is_array(json_object_get(root, "layers")) ||
		   jstr(json_object_get(root, "config"), "digest") == NULL) {
		/* {} or another document: no layers to count, no size to judge it by */
		json_decref(root);
		return err_set(err, ERR_PARSE, "image manifest: neither an image index nor an "
			       "image manifest (no \"layers\" list and config digest)");
	} else {
		parse_image_manifest(root, out);
	}
	json_decref(root);
	return 0;
}

int
image_parse_batch_answer(const char *json, size_t len, const char *digest, char **manifest,
    char **media_type, struct err *err)
{
	json_t *root = load(json, len, "BatchGetImage answer", err);
	const json_t *img = NULL, *fail = NULL, *v;
	size_t i;

	*manifest = *media_type = NULL;
	if (root == NULL)
		return -1;
	/* a batched answer: the entry of this digest */
	json_array_foreach(json_object_get(root, "images"), i, v)
		if (digest == NULL || (jstr(json_object_get(v, "imageId"), "imageDigest") != NULL &&
		    strcmp(jstr(json_object_get(v, "imageId"), "imageDigest"), digest) == 0)) {
			img = v;
			break;
		}
	json_array_foreach(json_object_get(root, "failures"), i, v)
		if (fail == NULL || (digest != NULL &&
		    jstr(json_object_get(v, "imageId"), "imageDigest") != NULL &&
		    strcmp(jstr(json_object_get(v, "imageId"), "imageDigest"), digest) == 0))
			fail = v;
	if (jstr(img, "imageManifest") != NULL) {
		*manifest = jdup(img, "imageManifest");
		*media_type = jdup(img, "imageManifestMediaType");
		json_decref(root);
		return 0;
	}
	fail = json_array_get(json_object_get(root, "failures"), 0);
	err_set(err, ERR_AWS, "%s: %s", jstr(fail, "failureCode") ? jstr(fail, "failureCode")
	    : "ImageNotFound", jstr(fail, "failureReason") ? jstr(fail, "failureReason")
	    : "no such image");
	snprintf(err->aws_type, sizeof err->aws_type, "%s",
	    jstr(fail, "failureCode") ? jstr(fail, "failureCode") : "ImageNotFound");
	json_decref(root);
	return -1;
}

static char *
join_tags(const json_t *tags)
{
	struct buf b;
	const json_t *v;
	size_t i;

	if (json_array_size(tags) == 0)
		return NULL;
	buf_init(&b, 4096);
	json_array_foreach(tags, i, v)
		if (json_is_string(v))
			buf_addf(&b, "%s%s", b.len ? "," : "", json_string_value(v));
	return buf_take(&b);
}

static void
detail_into(const json_t *d, struct image_facts *f)
{
	free(f->tags);
	f->tags = join_tags(json_object_get(d, "imageTags"));
	f->pushed_ms = input_aws_time(d, "imagePushedAt");
	if (f->media_type == NULL)
		f->media_type = jdup(d, "imageManifestMediaType");
	if (f->nlayers == 0 && json_is_integer(json_object_get(d, "imageSizeInBytes")))
		f->size_bytes = jint(d, "imageSizeInBytes", -1);
	if (f->repository == NULL)
		f->repository = jdup(d, "repositoryName");
	if (f->digest == NULL)
		f->digest = jdup(d, "imageDigest");
}

int
image_parse_describe_answer(const char *json, size_t len, const char *digest,
    struct image_facts *f, struct err *err)
{
	json_t *root = load(json, len, "DescribeImages answer", err);
	const json_t *d = NULL, *v;
	size_t i;

	if (root == NULL)
		return -1;
	/* a batched answer: the detail of this digest */
	json_array_foreach(json_object_get(root, "imageDetails"), i, v)
		if (digest == NULL || (jstr(v, "imageDigest") != NULL &&
		    strcmp(jstr(v, "imageDigest"), digest) == 0)) {
			d = v;
			break;
		}
	if (d != NULL)
		detail_into(d, f);
	json_decref(root);
	return 0;
}

int
image_parse_referrers(const char *json, size_t len, char **digest, struct err *err)
{
	json_t *root = load(json, len, "ListImageReferrers answer", err);
	const json_t *r;

	*digest = NULL;
	if (root == NULL)
		return -1;
	r = json_array_get(json_object_get(root, "referrers"), 0);
	*digest = jdup(r, "digest");
	json_decref(root);
	return 0;
}

int
image_parse_config(const char *json, size_t len, struct image_facts *f, struct err *err)
{
	json_t *root = load(json, len, "image config", err);
	const json_t *h, *e;
	size_t i, layer = 0;

	if (root == NULL)
		return -1;
	h = json_object_get(root, "history");
	json_array_foreach(h, i, e) {
		const char *by = jstr(e, "created_by");

		if (json_is_true(json_object_get(e, "empty_layer")))
			continue;
		if (layer < f->nlayers) {
			free(f->layers[layer].created_by);
			f->layers[layer].created_by = xstrdup_or_null(by);
		}
		layer++;
	}
	f->history = layer == f->nlayers && layer > 0;
	json_decref(root);
	return 0;
}

/* ---- the facts object ----------------------------------------------------------------- */

static void
set_str(json_t *o, const char *key, const char *v)
{
	if (v != NULL)
		json_object_set_new(o, key, json_string(v));
}

static json_t *
facts_jobj(const struct image_facts *f)
{
	json_t *o = json_object(), *layers = json_array();
	char iso[TIMEUTIL_ISO_LEN];

	set_str(o, "digest", f->digest);
	set_str(o, "platform", f->platform);
	set_str(o, "status", image_status_name(f->status));
	set_str(o, "image", f->image);
	set_str(o, "registry", f->registry);
	set_str(o, "repository", f->repository);
	set_str(o, "tags", f->tags);
	set_str(o, "media_type", f->media_type);
	set_str(o, "manifest_digest", f->manifest_digest);
	set_str(o, "config_digest", f->config_digest);
	set_str(o, "soci_index", image_soci_name(f->soci));
	set_str(o, "soci_index_digest", f->soci_index_digest);
	set_str(o, "error", f->error);
	if (f->pushed_ms != TS_NONE) {
		timeutil_format_iso(f->pushed_ms, iso);
		set_str(o, "pushed_at", iso);
	}
	if (f->fetched_ms != TS_NONE) {
		timeutil_format_iso(f->fetched_ms, iso);
		set_str(o, "fetched_at", iso);
	}
	if (f->size_bytes >= 0)
		json_object_set_new(o, "size_bytes", json_integer(f->size_bytes));
	json_object_set_new(o, "history", json_boolean(f->history));
	json_object_set_new(o, "v1_checked", json_boolean(f->v1_checked));
	for (size_t i = 0; i < f->nlayers; i++) {
		const struct image_layer *y = &f->layers[i];
		json_t *l = json_object();

		set_str(l, "digest", y->digest);
		set_str(l, "media_type", y->media_type);
		json_object_set_new(l, "size", json_integer(y->size));
		set_str(l, "created_by", y->created_by);
		json_array_append_new(layers, l);
	}
	json_object_set_new(o, "layers", layers);
	return o;
}

char *
image_facts_to_json(const struct image_facts *f)
{
	json_t *o = facts_jobj(f);
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	json_decref(o);
	return s != NULL ? s : xstrdup("{}");
}

char *
image_record_line(const struct image_facts *f, const char *region)
{
	json_t *o = json_object();
	char iso[TIMEUTIL_ISO_LEN], *s;

	timeutil_format_iso(f->fetched_ms != TS_NONE ? f->fetched_ms : timeutil_now_ms(), iso);
	json_object_set_new(o, "ecsprof", json_string(RECORD_FORMAT));
	json_object_set_new(o, "fetched_at", json_string(iso));
	json_object_set_new(o, "region", json_string(region ? region : ""));
	json_object_set_new(o, "source", json_string("live"));
	json_object_set_new(o, "image", facts_jobj(f));
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s != NULL ? s : xstrdup("{}");
}

static enum image_status
status_of(const char *s)
{
	for (int i = IMAGE_OK; i <= IMAGE_ERROR; i++)
		if (s != NULL && strcmp(s, image_status_name((enum image_status)i)) == 0)
			return (enum image_status)i;
	return IMAGE_ERROR;
}

static enum image_soci
soci_of(const char *s)
{
	for (int i = IMAGE_SOCI_NONE; i <= IMAGE_SOCI_V2; i++)
		if (s != NULL && strcmp(s, image_soci_name((enum image_soci)i)) == 0)
			return (enum image_soci)i;
	return IMAGE_SOCI_UNKNOWN;
}

int
image_facts_from_jobj(const json_t *o, struct image_facts *f, char *why, size_t size)
{
	const json_t *layers = json_object_get(o, "layers"), *l;
	size_t i;

	image_facts_init(f);
	if (!json_is_object(o) || jstr(o, "digest") == NULL) {
		snprintf(why, size, "image: expected an object with a \"digest\"");
		return -1;
	}
	f->digest = jdup(o, "digest");
	f->platform = xstrdup(jstr(o, "platform") ? jstr(o, "platform") : "");
	f->status = status_of(jstr(o, "status"));
	f->image = jdup(o, "image");
	f->registry = jdup(o, "registry");
	f->repository = jdup(o, "repository");
	f->tags = jdup(o, "tags");
	f->media_type = jdup(o, "media_type");
	f->manifest_digest = jdup(o, "manifest_digest");
	f->config_digest = jdup(o, "config_digest");
	f->soci = soci_of(jstr(o, "soci_index"));
	f->soci_index_digest = jdup(o, "soci_index_digest");
	f->error = jdup(o, "error");
	f->pushed_ms = input_aws_time(o, "pushed_at");
	f->fetched_ms = input_aws_time(o, "fetched_at");
	f->size_bytes = jint(o, "size_bytes", -1);
	f->history = json_is_true(json_object_get(o, "history"));
	f->v1_checked = json_is_true(json_object_get(o, "v1_checked"));
	if (json_array_size(layers) > 0)
		f->layers = xcalloc(json_array_size(layers), sizeof *f->layers);
	json_array_foreach(layers, i, l) {
		struct image_layer *y = &f->layers[f->nlayers++];

		y->digest = jdup(l, "digest");
		y->media_type = jdup(l, "media_type");
		y->size = jint(l, "size", 0);
		y->comp = image_comp_of(y->media_type);
		y->created_by = jdup(l, "created_by");
	}
	return 0;
}

int
image_facts_from_json(const char *json, size_t len, struct image_facts *out, struct err *err)
{
	json_t *root = load(json, len, "image facts", err);
	char why[200];
	int rc;

	image_facts_init(out);
	if (root == NULL)
		return -1;
	rc = image_facts_from_jobj(root, out, why, sizeof why);
	json_decref(root);
	if (rc != 0)
		return err_set(err, ERR_PARSE, "%s", why);
	return 0;
}

/* ---- saved aws ecr output -------------------------------------------------------------- */

static char *
registry_of(const json_t *o)
{
	const char *id = jstr(o, "registryId");
	return id != NULL ? xasprintf("%s.dkr.ecr", id) : NULL;
}

long
image_read_describe_images(const json_t *root, struct image_set *out)
{
	const json_t *ds = json_object_get(root, "imageDetails"), *d;
	size_t i;
	long n = 0;

	if (!json_is_array(ds))
		return -1;
	json_array_foreach(ds, i, d) {
		struct image_facts f;

		if (jstr(d, "imageDigest") == NULL)
			continue;
		image_facts_init(&f);
		f.digest = jdup(d, "imageDigest");
		f.platform = xstrdup("");
		f.registry = registry_of(d);
		f.status = IMAGE_OK;
		detail_into(d, &f);
		image_set_put(out, &f);
		n++;
	}
	return n;
}

static void
manifest_into(struct image_facts *f, struct image_manifest_info *m)
{
	f->layers = m->layers;
	f->nlayers = m->nlayers;
	m->layers = NULL;
	m->nlayers = 0;
	f->size_bytes = 0;
	for (size_t i = 0; i < f->nlayers; i++)
		f->size_bytes += f->layers[i].size;
	f->config_digest = m->config_digest;
	m->config_digest = NULL;
	if (m->soci_v2_digest != NULL && f->soci_index_digest == NULL) {
		f->soci = IMAGE_SOCI_V2;
		f->soci_index_digest = m->soci_v2_digest;
		m->soci_v2_digest = NULL;
	}
}

long
image_read_batch_get_image(const json_t *root, struct image_set *out)
{
	const json_t *imgs = json_object_get(root, "images"), *img, *img2;
	size_t i, j;
	long n = 0;

	if (!json_is_array(imgs))
		return -1;
	json_array_foreach(imgs, i, img) {
		const char *text = jstr(img, "imageManifest");
		const char *digest = jstr(json_object_get(img, "imageId"), "imageDigest");
		struct image_manifest_info m;
		struct err e;

		if (text == NULL || digest == NULL ||
		    image_parse_manifest(text, strlen(text), NULL, &m, &e) != 0)
			continue;
		if (!m.is_index) {
			struct image_facts f;

			image_facts_init(&f);
			f.digest = xstrdup(digest);
			f.platform = xstrdup("");
			f.manifest_digest = xstrdup(digest);
			f.repository = jdup(img, "repositoryName");
			f.registry = registry_of(img);
			f.media_type = jdup(img, "imageManifestMediaType");
			f.status = IMAGE_OK;
			manifest_into(&f, &m);
			image_set_put(out, &f);
			n++;
		}
		image_manifest_info_cleanup(&m);
	}
	/* an index: one entry per platform whose manifest the same answer holds */
	json_array_foreach(imgs, i, img) {
		const char *text = jstr(img, "imageManifest");
		const char *digest = jstr(json_object_get(img, "imageId"), "imageDigest");
		const json_t *root2, *e;
		json_error_t je;
		size_t k;

		if (text == NULL || digest == NULL)
			continue;
		root2 = json_loads(text, 0, &je);
		if (!json_is_array(json_object_get(root2, "manifests"))) {
			json_decref((json_t *)root2);
			continue;
		}
		json_array_foreach(json_object_get(root2, "manifests"), k, e) {
			char p[64];
			const char *child = jstr(e, "digest");

			if (json_object_get(e, "platform") == NULL || child == NULL)
				continue;
			entry_platform(e, p, sizeof p);
			json_array_foreach(imgs, j, img2) {
				const char *t2 = jstr(img2, "imageManifest");
				struct image_manifest_info m;
				struct image_facts f;
				struct err er;

				if (t2 == NULL || !json_is_string(json_object_get(json_object_get(img2,
				    "imageId"), "imageDigest")) || strcmp(jstr(json_object_get(img2,
				    "imageId"), "imageDigest"), child) != 0)
					continue;
				if (image_parse_manifest(text, strlen(text), p, &m, &er) != 0)
					continue;
				image_facts_init(&f);
				f.digest = xstrdup(digest);
				f.platform = xstrdup(p);
				f.manifest_digest = xstrdup(child);
				f.repository = jdup(img, "repositoryName");
				f.registry = registry_of(img);
				f.media_type = jdup(img, "imageManifestMediaType");
				f.status = IMAGE_OK;
				if (m.soci_v2_digest != NULL) {
					f.soci = IMAGE_SOCI_V2;
					f.soci_index_digest = m.soci_v2_digest;
					m.soci_v2_digest = NULL;
				}
				image_manifest_info_cleanup(&m);
				if (image_parse_manifest(t2, strlen(t2), NULL, &m, &er) == 0 && !m.is_index) {
					manifest_into(&f, &m);
				} else {
					/* unknown, with the reason: never 0 layers of 0 bytes */
					f.status = IMAGE_ERROR;
					f.error = m.is_index ? xstrdup("the platform manifest is an "
								       "image index again")
							     : xstrdup(er.msg);
				}
				image_manifest_info_cleanup(&m);
				image_set_put(out, &f);
				n++;
				break;
			}
		}
		json_decref((json_t *)root2);
	}
	return n;
}
