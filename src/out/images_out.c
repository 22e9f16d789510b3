/* images_out: `ecsprof images` as a table, CSV or JSON: what was pulled, per image. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ecsprof/buf.h"
#include "ecsprof/csv.h"
#include "ecsprof/image_rowtab.h"
#include "ecsprof/images_out.h"
#include "ecsprof/termsafe.h"

static const char *
s_or(const char *s)
{
	return s != NULL ? s : "";
}

/* A copy of s for the terminal: ESC, BEL, C1 and bidi controls (from ECR: tags,
 * repository names, layer commands) become '?' (termsafe). */
static const char *
tclean(const char *s, char *out, size_t size)
{
	snprintf(out, size, "%s", s_or(s));
	termsafe_scrub(out, NULL);
	return out;
}

static void
fmt_secs(double v, char *out, size_t size)
{
	if (isnan(v))
		out[0] = '\0';
	else
		snprintf(out, size, "%.3f", v);
}

/* "312.0 MiB RUN apt-get install ...; 40.1 MiB ADD rootfs..." */
static void
largest(const struct image_row *r, bool bytes, struct buf *b)
{
	for (size_t i = 0; i < r->ntop; i++) {
		const struct image_layer *l = &r->facts->layers[r->top[i]];
		char sz[32];

		if (bytes)
			snprintf(sz, sizeof sz, "%" PRId64, l->size);
		else
			image_size_text(l->size, sz, sizeof sz);
		buf_addf(b, "%s%s %s", i ? "; " : "", sz, l->created_by ? l->created_by : "?");
	}
}

int
images_write_table(FILE *f, const struct image_rows *r, struct err *err)
{
	fprintf(f, "%-28s %-10s %-14s %-11s %9s %6s %-8s %-5s %5s %7s %7s %7s  %s\n",
		"REPOSITORY", "TAG", "DIGEST", "PLATFORM", "SIZE", "LAYERS", "COMPRESS", "INDEX",
		"TASKS", "PULL50", "PULL90", "MB/S", "ADVICE");
	for (size_t i = 0; i < r->n; i++) {
		const struct image_row *w = &r->v[i];
		const struct image_facts *x = w->facts;
		char sz[32], p50[32], p90[32], mb[32], dg[16], repo[256], tag[256], plat[64];
		struct buf b;

		image_size_text(x->size_bytes, sz, sizeof sz);
		fmt_secs(w->pull_p50_s, p50, sizeof p50);
		fmt_secs(w->pull_p90_s, p90, sizeof p90);
		if (isnan(w->pull_mbps))
			mb[0] = '\0';
		else
			snprintf(mb, sizeof mb, "%.2f", w->pull_mbps);
		snprintf(dg, sizeof dg, "%.14s", s_or(x->digest) + (strncmp(s_or(x->digest),
		    "sha256:", 7) == 0 ? 7 : 0));
		termsafe_scrub(dg, NULL);
		fprintf(f, "%-28.28s %-10.10s %-14s %-11s %9s %6zu %-8s %-5s %5zu %7s %7s %7s  %s\n",
			tclean(x->repository, repo, sizeof repo), tclean(w->tag, tag, sizeof tag), dg,
			tclean(x->platform, plat, sizeof plat), sz, x->nlayers,
			image_facts_compression(x), image_soci_name(x->soci), w->ntasks, p50, p90, mb,
			soci_advice_name(w->advice));
		buf_init(&b, 4096);
		largest(w, false, &b);
		if (b.len > 0) {
			char top[256];

			fprintf(f, "    largest layers: %.200s\n", tclean(buf_str(&b), top, sizeof top));
		}
		buf_cleanup(&b);
	}
	return err_check_write(f, 0, "images table", err);
}

int
images_write_csv(FILE *f, const struct image_rows *r, struct err *err)
{
	int rc = 0;

	fprintf(f, "%s\r\n", IMAGES_CSV_COLUMNS);
	for (size_t i = 0; i < r->n && rc == 0; i++) {
		const struct image_row *w = &r->v[i];
		const struct image_facts *x = w->facts;
		char sz[32] = "", ly[32], p50[32], p90[32], mb[32] = "", nt[32];
		struct buf row, lay;
		const char *cells[14];

		if (x->size_bytes >= 0)
			snprintf(sz, sizeof sz, "%" PRId64, x->size_bytes);
		snprintf(ly, sizeof ly, "%zu", x->nlayers);
		snprintf(nt, sizeof nt, "%zu", w->ntasks);
		fmt_secs(w->pull_p50_s, p50, sizeof p50);
		fmt_secs(w->pull_p90_s, p90, sizeof p90);
		if (!isnan(w->pull_mbps))
			snprintf(mb, sizeof mb, "%.2f", w->pull_mbps);
		buf_init(&lay, 0);
		largest(w, true, &lay);
		cells[0] = s_or(x->repository);
		cells[1] = s_or(w->tag);
		cells[2] = s_or(x->digest);
		cells[3] = s_or(x->platform);
		cells[4] = sz;
		cells[5] = ly;
		cells[6] = image_facts_compression(x);
		cells[7] = image_soci_name(x->soci);
		cells[8] = nt;
		cells[9] = p50;
		cells[10] = p90;
		cells[11] = mb;
		cells[12] = soci_advice_name(w->advice);
		cells[13] = buf_str(&lay);
		buf_init(&row, 0);
		for (size_t c = 0; c < 14 && rc == 0; c++)
			if ((c > 0 && buf_addc(&row, ',') != 0) ||
			    csv_add_cell(&row, cells[c], c < 4 || c == 13) != 0)
				rc = -1;
		if (rc == 0 && fprintf(f, "%s\r\n", buf_str(&row)) < 0)
			rc = -1;
		buf_cleanup(&row);
		buf_cleanup(&lay);
	}
	return err_check_write(f, rc, "images csv", err);
}

static json_t *
jnum(double v)
{
	return isnan(v) ? json_null() : json_real(round(v * 1000.0) / 1000.0);
}

static json_t *
jstr(const char *s)
{
	return s != NULL && *s != '\0' ? json_string(s) : json_null();
}

int
images_write_json(FILE *f, const struct image_rows *r, struct err *err)
{
	json_t *arr = json_array();
	int rc;

	for (size_t i = 0; i < r->n; i++) {
		const struct image_row *w = &r->v[i];
		const struct image_facts *x = w->facts;
		json_t *o = json_object(), *ls = json_array();

		json_object_set_new(o, "repository", jstr(x->repository));
		json_object_set_new(o, "tag", jstr(w->tag));
		json_object_set_new(o, "digest", jstr(x->digest));
		json_object_set_new(o, "manifest_digest", jstr(x->manifest_digest));
		json_object_set_new(o, "platform", jstr(x->platform));
		json_object_set_new(o, "image_size_bytes",
		    x->size_bytes >= 0 ? json_integer(x->size_bytes) : json_null());
		json_object_set_new(o, "image_layers", json_integer((json_int_t)x->nlayers));
		json_object_set_new(o, "image_compression", jstr(image_facts_compression(x)));
		json_object_set_new(o, "soci_index", jstr(image_soci_name(x->soci)));
		json_object_set_new(o, "soci_index_digest", jstr(x->soci_index_digest));
		json_object_set_new(o, "tasks", json_integer((json_int_t)w->ntasks));
		json_object_set_new(o, "pull_p50_s", jnum(w->pull_p50_s));
		json_object_set_new(o, "pull_p90_s", jnum(w->pull_p90_s));
		json_object_set_new(o, "pull_mbps", isnan(w->pull_mbps) ? json_null()
		    : json_real(round(w->pull_mbps * 100.0) / 100.0));
		json_object_set_new(o, "soci_advice", jstr(soci_advice_name(w->advice)));
		for (size_t k = 0; k < w->ntop; k++) {
			const struct image_layer *l = &x->layers[w->top[k]];

			json_array_append_new(ls, json_pack("{s:s?,s:I,s:s,s:s?}", "digest", l->digest,
			    "size", (json_int_t)l->size, "compression", image_comp_name(l->comp),
			    "created_by", l->created_by));
		}
		json_object_set_new(o, "largest_layers", ls);
		json_array_append_new(arr, o);
	}
	/* jansson escapes C0; DEL, C1 and bidi controls as \uXXXX too (termsafe) */
	char *text = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	rc = text != NULL && termsafe_put_json(f, text) == 0 && fputc('\n', f) != EOF ? 0 : -1;
	free(text);
	json_decref(arr);
	return err_check_write(f, rc, "images json", err);
}
