/* input_chunk: JSON Lines bytes (input_src.c) cut into chunks of whole lines, each with
 * its first line's number: in order, the unfinished last line carried into the next
 * chunk (any input); or at offsets, a range's lines read by whichever worker claims it
 * (a regular file). Only the reading; input_pool.c parses the chunks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ecsprof/xalloc.h"
#include "input_chunk.h"

int
input_chunk_too_long(const struct reader *r, long line, struct err *err)
{
	return err_set(err, ERR_PARSE, "%s:%ld: a line longer than %zu MiB: a JSON Lines line "
	    "is held whole while it is parsed, so one after the first may be at most %zu MiB "
	    "(the first line, read as one document, may be %zu MiB)", r->name, line,
	    INPUT_MAX_LINE >> 20, INPUT_MAX_LINE >> 20, INPUT_MAX_DOC >> 20);
}

/* The offset of the first byte from `from` on that is neither white space nor (at the
 * start) a UTF-8 byte order mark; len when there is none. */
static size_t
first_nonblank(const char *p, size_t from, size_t len)
{
	if (from == 0 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		from = 3;
	while (from < len && (p[from] == ' ' || p[from] == '\t' || p[from] == '\r' ||
	    p[from] == '\n'))
		from++;
	return from;
}

static const char *
last_nl(const char *p, size_t n)
{
	while (n > 0) {
		if (p[n - 1] == '\n')
			return p + n - 1;
		n--;
	}
	return NULL;
}

int
input_chunk_read(struct reader *r, struct chunk *k, struct err *err)
{
	size_t want = r->chunk_bytes > r->carry_len ? r->chunk_bytes : r->carry_len * 2;
	size_t cap = k->cap, len = r->carry_len, scanned = 0, blank = 0;
	char *data = k->data;
	const char *nl;

	/* the slot's last buffer when it fits (not more than twice the size: one long line
	 * does not hold its room for good): a chunk buffer freed and allocated again a chunk
	 * at a time, on the workers, left holes between the string pools' blocks in their
	 * arenas, 53 MB of them at the end of a 1M-task read */
	k->data = NULL;
	k->cap = 0;
	if (data == NULL || cap < want || cap > 2 * want) {
		free(data);
		cap = want;
		data = xmalloc(cap);
	}
	bool first = r->max_line >= INPUT_MAX_DOC;

	if (r->carry_len)
		memcpy(data, r->carry, r->carry_len);
	r->carry_len = 0;
	for (;;) {
		len += src_read(r->src, data + len, cap - len);
		if (r->src->error) {
			free(data);
			return err_set(err, r->src->error == ENOMEM ? ERR_INTERNAL : ERR_IO, "%s: %s",
			    r->name, src_error(r->src));
		}
		nl = last_nl(data + scanned, len - scanned);
		if (first && nl != NULL) {
			/* the first chunk ends after a line that is not blank: blank lines before a
			 * one-line document leave it the first line, read whole, not a line 2 held
			 * to INPUT_MAX_LINE */
			blank = first_nonblank(data, blank, len);
			if (data + blank > nl)
				nl = NULL;
		}
		if (nl != NULL || r->src->eof)
			break;
		scanned = len;
		if (first && r->probe > 0 && len >= r->probe &&
		    first_nonblank(data, 0, len) + 64 <= len) {   /* enough to tell its shape */
			r->partial = true;   /* no line count yet: the document's reader counts */
			break;
		}
		if (cap >= r->max_line) {
			free(data);
			if (r->max_line >= INPUT_MAX_DOC)
				return err_set(err, ERR_PARSE, "%s: a document larger than %zu MiB is not "
				    "supported; write it as JSON Lines (one task or event per line)",
				    r->name, INPUT_MAX_DOC >> 20);
			return input_chunk_too_long(r, r->next_line, err);
		}
		cap *= 2;
		data = xrealloc(data, cap);
	}
	if (len == 0) {
		free(data);
		return 0;
	}
	if (nl != NULL && !r->src->eof) {
		size_t keep = (size_t)(nl + 1 - data);

		if (len - keep > 0) {
			r->carry = xrealloc(r->carry, len - keep);
			memcpy(r->carry, nl + 1, len - keep);
		}
		r->carry_len = len - keep;
		len = keep;
	}
	k->data = data;
	k->cap = cap;
	k->off = 0;
	k->len = len;
	k->first_line = r->next_line;
	for (const char *p = data; !r->partial && (p = memchr(p, '\n', len - (size_t)(p - data))) != NULL; p++)
		r->next_line++;
	return 1;
}

bool
input_chunk_can_read_at(const struct reader *r, uint64_t *at)
{
	const struct src *s = r->src;

	if (!s->probed || s->gz != NULL || s->nback > 0 || s->error != 0 || s->eof ||
	    (s->o != NULL && s->o->progress != NULL))
		return false;
	if (s->f != NULL && s->total > 0 && s->done >= r->carry_len) {
		*at = s->done - r->carry_len;   /* a regular file, read from its start */
		return true;
	}
	if (s->f == NULL && s->copy && s->pos >= r->carry_len) {
		*at = s->pos - r->carry_len;    /* memory read as a file is (tests) */
		return true;
	}
	return false;
}

/* Up to n bytes as stored from offset off: fewer only at the end; -1 (errno set) on a
 * read error. */
static long
raw_at(const struct src *s, char *dst, size_t n, uint64_t off)
{
	size_t got = 0;

	if (s->f == NULL) {
		if (off >= s->len)
			return 0;
		got = s->len - off < n ? s->len - off : n;
		memcpy(dst, s->mem + off, got);
		return (long)got;
	}
	while (got < n) {
		ssize_t k = pread(fileno(s->f), dst + got, n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (long)got;
}

static int
read_at_failed(const struct reader *r, char *data, struct err *err)
{
	int e = errno ? errno : EIO;

	free(data);
	return err_set(err, ERR_IO, "%s: %s", r->name, err_strerror(e));
}

int
input_chunk_at(const struct reader *r, struct chunk *k, uint64_t rs, bool lead,
    struct err *err)
{
	size_t b = r->chunk_bytes, want = b + (lead ? 1 : 0), cap = k->cap, n, start = 0;
	/* the line that goes on past the range is read a step at a time: read whole ranges
	 * on, 1M tasks read 1.6x their bytes */
	size_t step = b < ((size_t)64 << 10) ? b : (size_t)64 << 10;
	size_t end, ls;
	uint64_t from = rs - (lead ? 1 : 0);
	char *data = k->data;
	long got;

	k->data = NULL;
	k->cap = 0;
	k->off = 0;
	k->len = 0;
	k->nl = 0;
	k->too_long = false;
	/* the slot's last buffer when it fits, as input_chunk_read() keeps it */
	if (data != NULL && cap < want + step && 2 * cap >= want) {
		/* the first chunk's buffer (input_chunk_read()'s, a little short): grown where
		 * it is, not freed. glibc maps a block this large on its own, and freeing one
		 * raises the size from which it maps blocks to that block's: the read's later
		 * blocks of up to 1 MiB (the other workers' buffers, the set's index of 1 MiB
		 * at 100k tasks) then came from the arenas, where freed they stay resident
		 * under the peak (2 cores, 200k tasks: the old index's 1 MiB) */
		cap = want + step;
		data = xrealloc(data, cap);
	} else if (data == NULL || cap < want + step || cap > 2 * want) {
		free(data);
		cap = want + step;
		data = xmalloc(cap);
	}
	if ((got = raw_at(r->src, data, want, from)) < 0)
		return read_at_failed(r, data, err);
	n = (size_t)got;
	if (n <= (lead ? 1u : 0u)) {
		free(data);
		return 0;   /* nothing at rs: the input ended */
	}
	if (lead) {
		/* the first line that starts in the range: after the first line end from rs - 1
		 * on; a line end at rs + b - 1 starts the next range's first line */
		const char *nl = memchr(data, '\n', n < b ? n : b);

		start = nl != NULL ? (size_t)(nl - data) + 1 : n;
	}
	if (start >= n) {
		end = start = n;   /* no line starts here (a long line goes through) */
	} else if (n < want || data[want - 1] == '\n') {
		end = n;           /* the input ends in the range, or the range ends a line */
	} else {
		/* the line holding the range's last byte goes on past it: read on to its end */
		bool eof = false;
		size_t scanned = want;
		const char *nl;

		ls = start;
		for (size_t i = want - 1; i > start; i--)
			if (data[i - 1] == '\n') {
				ls = i;
				break;
			}
		for (;;) {
			nl = memchr(data + scanned, '\n', n - scanned);
			if (nl != NULL && (size_t)(nl - data) - ls < r->max_line) {
				end = (size_t)(nl - data) + 1;
				break;
			}
			if (nl != NULL || n - ls >= r->max_line) {
				end = ls;   /* the lines before it; the pool says the line is too long */
				k->too_long = true;
				break;
			}
			if (eof) {
				end = n;
				break;
			}
			scanned = n;
			if (cap - n < step) {
				cap *= 2;
				data = xrealloc(data, cap);
			}
			if ((got = raw_at(r->src, data + n, step, from + n)) < 0)
				return read_at_failed(r, data, err);
			eof = (size_t)got < step;
			n += (size_t)got;
		}
	}
	for (const char *p = data + start; (p = memchr(p, '\n', end - (size_t)(p - data))) != NULL;
	    p++)
		k->nl++;
	k->data = data;
	k->cap = cap;
	k->off = start;
	k->len = end - start;
	return 1;
}
