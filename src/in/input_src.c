/* input_src: the bytes of one input (input_src.h): a file, stdin or memory, through
 * zlib's inflate when they start as gzip does. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ecsprof/err.h"
#include "input_src.h"

/* The bytes as stored: the file, stdin or memory. */
static size_t
raw_read(void *ctx, char *dst, size_t n)
{
	struct src *s = ctx;
	size_t got = 0;

	while (s->nback > 0 && got < n) {
		dst[got++] = (char)s->back[0];
		s->back[0] = s->back[1];
		s->nback--;
	}
	if (got == n || s->raw_eof)
		return got;
	if (s->f == NULL) {
		size_t k = s->len - s->pos < n - got ? s->len - s->pos : n - got;

		memcpy(dst + got, s->mem + s->pos, k);
		s->pos += k;
		got += k;
	} else {
		size_t want = n - got, k = fread(dst + got, 1, want, s->f);

		if (k < want && ferror(s->f))
			s->error = errno ? errno : EIO;
		got += k;
		s->done += k;
		if (s->o != NULL && s->o->progress != NULL)
			s->o->progress(s->o->progress_ctx, s->done, s->total);
	}
	if (got < n)
		s->raw_eof = true;
	return got;
}

const char *
src_error(const struct src *s)
{
	return s->why[0] ? s->why : err_strerror(s->error);
}

/* Decompressed when the input starts as gzip does (input_gzip.c), else as stored. */
size_t
src_read(struct src *s, char *dst, size_t n)
{
	size_t got;

	if (s->eof)
		return 0;
	if (!s->probed) {
		s->probed = true;
		s->nback = raw_read(s, (char *)s->back, 2);
		if (input_gz_magic(s->back, s->nback)) {
			s->gz = input_gz_new(raw_read, s, &s->gz_alloc);
			if (s->gz == NULL) {
				snprintf(s->why, sizeof s->why, "out of memory: cannot start zlib's "
				    "inflate");
				s->error = ENOMEM;
				s->eof = true;
				return 0;
			}
		}
	}
	if (s->gz != NULL) {
		long k = input_gz_read(s->gz, dst, n, s->why, sizeof s->why);

		got = k > 0 ? (size_t)k : 0;
		if (s->error == 0 && input_gz_failed(s->gz))
			s->error = input_gz_oom(s->gz) ? ENOMEM : EILSEQ;
	} else {
		got = raw_read(s, dst, n);
	}
	if (got < n)
		s->eof = true;
	return got;
}

/* Memory that is not compressed is parsed where it is, without a copy. */
bool
src_in_place(const struct src *s)
{
	return s->f == NULL && s->gz == NULL && !s->copy;
}
