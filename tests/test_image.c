/* image: references, compression names and the SOCI advice at its edges (250 MiB,
 * platform 1.4.0), with facts built in memory. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/image.h"
#include "ecsprof/image_rows.h"
#include "ecsprof/task.h"
#include "ecsprof/xalloc.h"

#define DIG "sha256:aaaa"

static struct image_set *
one_image(int64_t size, enum image_comp comp, enum image_soci soci)
{
	struct image_set *s = image_set_new();
	struct image_facts f;

	image_facts_init(&f);
	f.digest = xstrdup(DIG);
	f.platform = xstrdup("linux/amd64");
	f.status = IMAGE_OK;
	f.soci = soci;
	f.size_bytes = size;
	f.nlayers = 1;
	f.layers = xcalloc(1, sizeof *f.layers);
	f.layers[0].size = size;
	f.layers[0].comp = comp;
	image_set_put(s, &f);
	return s;
}

static enum soci_advice
advice(struct image_set *s, const char *pv, const char *snap)
{
	struct task t;
	struct container_profile p = { .image = "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:1",
				       .snapshotter = snap };
	struct container c = { .prof = &p };
	struct image_task_info in;

	task_init(&t);
	c.digest_raw = DIG;
	t.containers = &c;
	t.ncontainers = 1;
	task_edit_profile(&t)->launch_type = (char *)"FARGATE";
	task_edit_profile(&t)->platform_version = (char *)pv;
	image_task_info(s, &t, &in);
	task_cleanup(&t);
	return in.advice;
}

Test(image, size_edge_250_mib)
{
	struct image_set *a = one_image(IMAGE_SOCI_MIN_BYTES, IMAGE_COMP_GZIP, IMAGE_SOCI_NONE);
	struct image_set *b = one_image(IMAGE_SOCI_MIN_BYTES - 1, IMAGE_COMP_GZIP, IMAGE_SOCI_NONE);

	cr_expect_eq(advice(a, "1.4.0", NULL), ADVICE_WORTH_INDEXING);
	cr_expect_eq(advice(b, "1.4.0", NULL), ADVICE_TOO_SMALL);
	image_set_free(a);
	image_set_free(b);
}

Test(image, platform_edge_1_4_0)
{
	struct image_set *a = one_image(IMAGE_SOCI_MIN_BYTES, IMAGE_COMP_GZIP, IMAGE_SOCI_NONE);

	cr_expect_eq(advice(a, "1.3.0", NULL), ADVICE_PLATFORM);
	cr_expect_eq(advice(a, "1.4.0", NULL), ADVICE_WORTH_INDEXING);
	cr_expect_eq(advice(a, "LATEST", NULL), ADVICE_WORTH_INDEXING);
	cr_expect(image_platform_too_old("1.3.9"));
	cr_expect(!image_platform_too_old("1.10.0"));
	image_set_free(a);
}

Test(image, every_advice)
{
	struct image_set *v2 = one_image(1 << 30, IMAGE_COMP_GZIP, IMAGE_SOCI_V2);
	struct image_set *v1 = one_image(1 << 30, IMAGE_COMP_GZIP, IMAGE_SOCI_V1);
	struct image_set *zs = one_image(1 << 30, IMAGE_COMP_ZSTD, IMAGE_SOCI_NONE);

	cr_expect_eq(advice(v2, "1.4.0", "soci"), ADVICE_LAZY_LOADED);
	cr_expect_eq(advice(v2, "1.4.0", "overlayfs"), ADVICE_INDEX_NOT_USED);
	cr_expect_eq(advice(v2, "1.4.0", NULL), ADVICE_INDEX_V2);
	cr_expect_eq(advice(v1, "1.4.0", NULL), ADVICE_INDEX_V1_ONLY);
	cr_expect_eq(advice(zs, "1.4.0", NULL), ADVICE_ZSTD);
	cr_expect_eq(advice(NULL, "1.4.0", NULL), ADVICE_NONE);
	cr_expect_str_eq(soci_advice_name(ADVICE_INDEX_V1_ONLY), "index-v1-only");
	image_set_free(v2);
	image_set_free(v1);
	image_set_free(zs);
}

Test(image, references)
{
	struct image_ref r;

	cr_assert_eq(image_ref_parse("123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/web:1.2", &r), 0);
	cr_expect(r.private_ecr);
	cr_expect_str_eq(r.account, "123456789012");
	cr_expect_str_eq(r.region, "eu-west-1");
	cr_expect_str_eq(r.repository, "team/web");
	cr_expect_str_eq(r.tag, "1.2");
	image_ref_cleanup(&r);
	cr_assert_eq(image_ref_parse("nginx", &r), 0);
	cr_expect(!r.private_ecr);
	cr_expect_str_eq(r.repository, "library/nginx");
	image_ref_cleanup(&r);
	cr_assert_eq(image_ref_parse("public.ecr.aws/docker/library/busybox@sha256:ab", &r), 0);
	cr_expect(!r.private_ecr);
	cr_expect_str_eq(r.digest, "sha256:ab");
	image_ref_cleanup(&r);
	cr_expect_eq(image_comp_of("application/vnd.docker.image.rootfs.diff.tar.gzip"), IMAGE_COMP_GZIP);
	cr_expect_eq(image_comp_of("application/vnd.oci.image.layer.v1.tar+zstd"), IMAGE_COMP_ZSTD);
	cr_expect_eq(image_comp_of("application/vnd.oci.image.layer.v1.tar"), IMAGE_COMP_NONE);
}

/* a task not pulled yet has no imageDigest: its reference, as resolved in this run */
Test(image, container_without_digest_by_reference)
{
	struct image_set *s = one_image(IMAGE_SOCI_MIN_BYTES, IMAGE_COMP_GZIP, IMAGE_SOCI_NONE);
	struct image_facts f;
	struct container_profile p = { 0 };
	struct container c = { .prof = &p };

	image_facts_init(&f);
	f.digest = xstrdup("sha256:bbbb");
	f.platform = xstrdup("linux/arm64");
	f.image = xstrdup("123456789012.dkr.ecr.us-east-1.amazonaws.com/web:1");
	f.status = IMAGE_OK;
	image_set_put(s, &f);
	p.image = "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:1";
	cr_expect_null(image_set_find_container(s, &c, "linux/amd64"));
	cr_expect_str_eq(image_set_find_container(s, &c, "linux/arm64")->digest, "sha256:bbbb");
	p.image = "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:2";
	cr_expect_null(image_set_find_container(s, &c, "linux/arm64"));
	c.digest_raw = DIG;
	cr_expect_str_eq(image_set_find_container(s, &c, "linux/amd64")->digest, DIG);
	image_set_free(s);
}

/* A multi-arch image: some tasks report the index digest, others the platform manifest's
 * (issue 30 item 9). To a user that is one image: one row per repository and platform
 * manifest, each task counted once, the tags of the index on the row. */
static void
add_facts(struct image_set *s, const char *digest, const char *manifest, const char *tags)
{
	struct image_facts f;

	image_facts_init(&f);
	f.digest = xstrdup(digest);
	f.manifest_digest = manifest ? xstrdup(manifest) : NULL;
	f.platform = xstrdup("linux/amd64");
	f.registry = xstrdup("123456789012.dkr.ecr.us-east-1.amazonaws.com");
	f.repository = xstrdup("rerank-api");
	f.tags = tags ? xstrdup(tags) : NULL;
	f.status = IMAGE_OK;
	f.size_bytes = 300 << 20;
	image_set_put(s, &f);
}

static void
add_task(struct task_set *set, const char *arn, const char *digest)
{
	struct task t;
	struct container *c;

	task_init(&t);
	task_set_arn(&t, arn, strlen(arn));
	c = task_containers(&t, 1);
	task_str(&t, &container_edit_profile(&t, c)->image, "123456789012.dkr.ecr.us-east-1.amazonaws.com/rerank-api:v3");
	container_set_digest(&t, c, digest, digest != NULL ? strlen(digest) : 0);
	task_derive(&t);
	task_set_take(set, &t);
}

Test(image_rows, an_index_and_its_platform_manifest_are_one_row)
{
	struct task_set set;
	struct image_rows rows;

	task_set_init(&set);
	set.images = image_set_new();
	add_facts(set.images, "sha256:1111", "sha256:2222", "v3");   /* the index */
	add_facts(set.images, "sha256:2222", NULL, NULL);            /* its amd64 manifest */
	add_facts(set.images, "sha256:9999", NULL, "v2");            /* another image */
	add_task(&set, "arn:aws:ecs:us-east-1:123456789012:task/c/a1", "sha256:1111");
	add_task(&set, "arn:aws:ecs:us-east-1:123456789012:task/c/a2", "sha256:1111");
	add_task(&set, "arn:aws:ecs:us-east-1:123456789012:task/c/b1", "sha256:2222");
	add_task(&set, "arn:aws:ecs:us-east-1:123456789012:task/c/c1", "sha256:9999");
	image_rows_build(&set, &rows);
	cr_assert_eq(rows.n, 2, "got %zu rows", rows.n);
	for (size_t i = 0; i < rows.n; i++) {
		if (strcmp(rows.v[i].facts->digest, "sha256:9999") == 0) {
			cr_expect_eq(rows.v[i].ntasks, 1);
			continue;
		}
		cr_expect_str_eq(rows.v[i].facts->digest, "sha256:1111", "the index speaks for it");
		cr_expect_eq(rows.v[i].ntasks, 3, "every task once: %zu", rows.v[i].ntasks);
		cr_expect_str_eq(rows.v[i].tag, "v3");
	}
	image_rows_cleanup(&rows);
	task_set_cleanup(&set);
}

/* image_task_info asks image_ref_is_private_ecr, which must say what image_ref_parse says:
 * references of each shape, and random ones from their pieces */
Test(image, private_ecr_without_copies)
{
	static const char *const refs[] = {
		"123456789012.dkr.ecr.us-east-1.amazonaws.com/web:1",
		"123456789012.dkr.ecr-fips.us-east-1.amazonaws.com/web@sha256:ab",
		"123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/team/web",
		"123456789012.dkr.ecr.us-east-1.amazonaws.com.evil/web",
		"12345678901.dkr.ecr.us-east-1.amazonaws.com/web", "nginx", "nginx:1.25",
		"library/nginx@sha256:00", "public.ecr.aws/a/b:c", "localhost/x", "localhost:5000/x",
		"host:5000/a:b/c", "a@", "a:", ":", "@x", "/", "a b", "", "x/y@", "x/:t",
		"123456789012.dkr.ecr.us-east-1.amazonaws.com/", "h.io/a@b@c", "h.io/a:b@c:d",
	};
	static const char *const pieces[] = { "123456789012", ".dkr.ecr", "-fips", ".us-east-1",
		".amazonaws.com", ".cn", "/", ":", "@", "web", "localhost", "sha256:ab", ".", "x" };
	unsigned seed = 7;

	for (size_t i = 0; i < sizeof refs / sizeof refs[0] + 20000; i++) {
		char buf[200] = "";
		const char *s = buf;
		struct image_ref r;
		int want, got;

		if (i < sizeof refs / sizeof refs[0]) {
			s = refs[i];
		} else {
			size_t k = 1 + (seed = seed * 1103515245u + 12345u) / 65536 % 8;

			while (k-- > 0) {
				seed = seed * 1103515245u + 12345u;
				strcat(buf, pieces[seed / 65536 % (sizeof pieces / sizeof pieces[0])]);
			}
		}
		want = image_ref_parse(s, &r);
		if (want == 0) {
			want = r.private_ecr;
			image_ref_cleanup(&r);
		}
		got = image_ref_is_private_ecr(s);
		cr_assert_eq(got, want, "%s: image_ref_parse says %d, image_ref_is_private_ecr %d",
			     s, want, got);
	}
}
