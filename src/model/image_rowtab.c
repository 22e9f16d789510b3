/* image_rowtab: the images rows as a row table (image_rowtab.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/image_rowtab.h"
#include "ecsprof/xalloc.h"

enum { I_REPO, I_TAG, I_DIGEST, I_PLATFORM, I_SIZE, I_LAYERS, I_COMPRESS, I_INDEX, I_TASKS,
       I_P50, I_P90, I_MBPS, I_ADVICE, I_NCOLS };

static const struct row_column cols[I_NCOLS] = {
	[I_REPO] = { "repository", "REPOSITORY", CELL_TEXT, 0, 0 },
	[I_TAG] = { "tag", "TAG", CELL_TEXT, 0, 0 },
	[I_DIGEST] = { "digest", "DIGEST", CELL_TEXT, 0, 0 },
	[I_PLATFORM] = { "platform", "PLATFORM", CELL_TEXT, 0, 0 },
	[I_SIZE] = { "image_size", "SIZE", CELL_TEXT, 0, 0 },
	[I_LAYERS] = { "image_layers", "LAYERS", CELL_COUNT, 0, 0 },
	[I_COMPRESS] = { "image_compression", "COMPRESS", CELL_TEXT, 0, 0 },
	[I_INDEX] = { "soci_index", "INDEX", CELL_TEXT, 0, 0 },
	[I_TASKS] = { "tasks", "TASKS", CELL_COUNT, 0, 0 },
	[I_P50] = { "pull_p50_s", "PULL50", CELL_SECS, 0, 0 },
	[I_P90] = { "pull_p90_s", "PULL90", CELL_SECS, 0, 0 },
	[I_MBPS] = { "pull_mbps", "MB/S", CELL_NUMBER, 2, 0 },
	[I_ADVICE] = { "soci_advice", "ADVICE", CELL_TEXT, 0, 0 },
};

void
image_size_text(int64_t b, char *out, size_t size)
{
	if (b < 0)
		snprintf(out, size, "-");
	else if (b >= (int64_t)1 << 30)
		snprintf(out, size, "%.1f GiB", (double)b / (double)(1 << 30));
	else
		snprintf(out, size, "%.1f MiB", (double)b / (double)(1 << 20));
}

static void
text(struct cell_value *v, const char *s)
{
	v->text = s;
	v->present = s != NULL && *s != '\0';
}

static void
num(struct cell_value *v, double x)
{
	v->num = x;
	v->present = !isnan(x);
}

static void
image_cell(const void *ctx, size_t row, size_t col, struct cell_value *v, char *scratch,
	   size_t size)
{
	const struct image_rowtab *it = ctx;
	const struct image_row *w = &it->rows->v[row];
	const struct image_facts *x = w->facts;
	const char *dg = x->digest != NULL ? x->digest : "";

	switch (col) {
	case I_REPO: text(v, x->repository); break;
	case I_TAG: text(v, w->tag); break;
	case I_DIGEST:
		/* the table's 14 hex digits: enough to tell images apart, short enough to read */
		snprintf(scratch, size, "%.14s", dg + (strncmp(dg, "sha256:", 7) == 0 ? 7 : 0));
		text(v, scratch);
		break;
	case I_PLATFORM: text(v, x->platform); break;
	case I_SIZE:
		if (x->size_bytes >= 0) {
			image_size_text(x->size_bytes, scratch, size);
			text(v, scratch);
		}
		break;
	case I_LAYERS: v->count = (int64_t)x->nlayers; v->present = true; break;
	case I_COMPRESS: text(v, image_facts_compression(x)); break;
	case I_INDEX: text(v, image_soci_name(x->soci)); break;
	case I_TASKS: v->count = (int64_t)w->ntasks; v->present = true; break;
	case I_P50: num(v, w->pull_p50_s); break;
	case I_P90: num(v, w->pull_p90_s); break;
	case I_MBPS: num(v, w->pull_mbps); break;
	case I_ADVICE: text(v, soci_advice_name(w->advice)); break;
	}
}

/* "web:1.2 largest layers: 312.0 MiB RUN apt-get ...; 40.1 MiB ADD rootfs", as the table's
 * line under each image */
static char *
largest_note(const struct image_row *w)
{
	struct buf b;

	buf_init(&b, 1 << 20);
	buf_addf(&b, "%s%s%s largest layers: ", w->facts->repository ? w->facts->repository : "?",
		 w->tag ? ":" : "", w->tag ? w->tag : "");
	for (size_t i = 0; i < w->ntop; i++) {
		const struct image_layer *l = &w->facts->layers[w->top[i]];
		char sz[32];

		image_size_text(l->size, sz, sizeof sz);
		buf_addf(&b, "%s%s %s", i ? "; " : "", sz, l->created_by ? l->created_by : "?");
	}
	return buf_take(&b);
}

void
image_rowtab_build(struct image_rowtab *it, const struct image_rows *rows)
{
	memset(it, 0, sizeof *it);
	it->rows = rows;
	it->notes = xcalloc(rows->n ? rows->n : 1, sizeof *it->notes);
	for (size_t i = 0; i < rows->n; i++)
		if (rows->v[i].ntop > 0)
			it->notes[it->nnotes++] = largest_note(&rows->v[i]);
	it->t = (struct row_table){ .name = "images", .cols = cols, .ncols = I_NCOLS,
				    .nrows = rows->n, .cell = image_cell, .ctx = it,
				    .notes = (const char *const *)it->notes,
				    .nnotes = it->nnotes };
}

void
image_rowtab_cleanup(struct image_rowtab *it)
{
	for (size_t i = 0; i < it->nnotes; i++)
		free(it->notes[i]);
	free(it->notes);
	memset(it, 0, sizeof *it);
}
