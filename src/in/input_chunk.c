/* input_chunk: JSON Lines bytes (input_src.c) cut into chunks of whole lines: the
 * unfinished last line carried into the next chunk, each chunk numbered by its first
 * line. Only the reading; input_pool.c parses the chunks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_chunk.h"

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
			return err_set(err, ERR_PARSE, "%s:%ld: a line longer than %zu MiB: a JSON "
			    "Lines line is held whole while it is parsed, so one after the first may be "
			    "at most %zu MiB (the first line, read as one document, may be %zu MiB)",
			    r->name, r->next_line, INPUT_MAX_LINE >> 20, INPUT_MAX_LINE >> 20,
			    INPUT_MAX_DOC >> 20);
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
	k->len = len;
	k->first_line = r->next_line;
	for (const char *p = data; !r->partial && (p = memchr(p, '\n', len - (size_t)(p - data))) != NULL; p++)
		r->next_line++;
	return 1;
}
