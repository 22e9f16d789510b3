/* input_gzip: gzip input, since EventBridge archives, S3 exports and CloudWatch Logs
 * exports are gzipped: recognised from its magic bytes (never from the file name),
 * inflated as a stream (memory does not follow the file size), members one after another
 * as `cat a.gz b.gz` makes them. The compressed bytes come from a callback, so files,
 * stdin and memory read alike.
 * Ownership: input_gz_new() returns a reader the caller frees with input_gz_free(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ecsprof/xalloc.h"
#include "input_gzip.h"

struct input_gz {
	z_stream z;
	input_raw_fn *raw;
	void *ctx;
	unsigned char in[65536];
	bool raw_eof;
	bool member_done;   /* the last member ended; more may follow */
	bool done;
	bool failed;
	bool oom;           /* failed for want of memory, not for bad data */
};

bool
input_gz_magic(const unsigned char *p, size_t n)
{
	return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

struct input_gz *
input_gz_new(input_raw_fn *raw, void *ctx, const struct input_gz_alloc *a)
{
	struct input_gz *g = xcalloc(1, sizeof *g);

	g->raw = raw;
	g->ctx = ctx;
	if (a != NULL) {   /* else Z_NULL: zlib's own malloc and free */
		g->z.zalloc = a->zalloc;
		g->z.zfree = a->zfree;
		g->z.opaque = a->opaque;
	}
	/* 15 + 16: a gzip header and trailer (not zlib's, not raw deflate) */
	if (inflateInit2(&g->z, 15 + 16) != Z_OK) {
		free(g);
		return NULL;
	}
	return g;
}

static void
refill(struct input_gz *g)
{
	if (g->z.avail_in > 0 || g->raw_eof)
		return;
	g->z.next_in = g->in;
	g->z.avail_in = (uInt)g->raw(g->ctx, (char *)g->in, sizeof g->in);
	if (g->z.avail_in < sizeof g->in)
		g->raw_eof = true;
}

long
input_gz_read(struct input_gz *g, char *dst, size_t n, char *why, size_t whysize)
{
	size_t got = 0;

	while (got < n && !g->done && !g->failed) {
		int zr;

		refill(g);
		if (g->member_done) {
			/* padding of zeros after a member is tolerated, as gzip(1) does */
			while (g->z.avail_in > 0 && g->z.next_in[0] == 0) {
				g->z.next_in++;
				g->z.avail_in--;
				if (g->z.avail_in == 0)
					refill(g);
			}
			if (g->z.avail_in == 0) {
				g->done = true;
				break;
			}
			inflateReset(&g->z);
			g->member_done = false;
		}
		if (g->z.avail_in == 0 && g->raw_eof) {
			snprintf(why, whysize, "gzip data cut short (the file ends inside a "
			    "compressed stream)");
			g->failed = true;
			break;
		}
		g->z.next_out = (unsigned char *)dst + got;
		g->z.avail_out = (uInt)(n - got > 1u << 30 ? 1u << 30 : n - got);
		zr = inflate(&g->z, Z_NO_FLUSH);
		got = (size_t)((char *)g->z.next_out - dst);
		if (zr == Z_STREAM_END) {
			g->member_done = true;
		} else if (zr == Z_MEM_ERROR) {
			/* zlib could not allocate its window: the data may well be fine */
			snprintf(why, whysize, "out of memory inflating gzip data");
			g->failed = true;
			g->oom = true;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			snprintf(why, whysize, "corrupt gzip data: %s",
			    g->z.msg ? g->z.msg : "inflate failed");
			g->failed = true;
		}
	}
	if (g->failed && got == 0)
		return -1;
	return (long)got;
}

bool
input_gz_failed(const struct input_gz *g)
{
	return g->failed;
}

bool
input_gz_oom(const struct input_gz *g)
{
	return g->oom;
}

void
input_gz_free(struct input_gz *g)
{
	if (g == NULL)
		return;
	inflateEnd(&g->z);
	free(g);
}
