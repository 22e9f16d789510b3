/* buf: a growable, always NUL-terminated byte buffer with a hard size cap (curl's dynbuf).
 * Ownership: the struct buf owns data; buf_cleanup() frees it, buf_cleanup_secure() wipes
 * it first (for secrets). buf_take() hands the bytes to the caller and resets the buf.
 * A buf made by buf_init_secret() holds a secret whose size is not known in advance (an
 * STS or container credentials answer): it grows by copy and wipe instead of realloc, so
 * no unwiped copy is left in freed memory, and it is wiped by buf_reset() and
 * buf_cleanup() too. */
#ifndef ECSPROF_BUF_H
#define ECSPROF_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
	char *data;   /* NULL until the first add; buf_str() never returns NULL */
	size_t len;
	size_t cap;
	size_t max;   /* adds that would make len exceed max fail with -1 */
	bool secret;  /* buf_init_secret(): wiped on growth, reset and cleanup */
};

#define BUF_MAX_DEFAULT ((size_t)64 << 20)

void buf_init(struct buf *b, size_t max);
void buf_init_secret(struct buf *b, size_t max);
/* Makes room for extra more bytes and the NUL after them, so that a writer may fill
 * data + len directly (then sets len and the NUL itself); len is unchanged. -1 when len
 * would pass max. */
int buf_reserve(struct buf *b, size_t extra);
int buf_add(struct buf *b, const void *data, size_t len);
int buf_adds(struct buf *b, const char *s);
int buf_addc(struct buf *b, char c);
int buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *buf_str(const struct buf *b);
void buf_reset(struct buf *b);          /* len = 0, keeps memory */
char *buf_take(struct buf *b);          /* caller frees; never NULL */
void buf_cleanup(struct buf *b);
void buf_cleanup_secure(struct buf *b);

#endif
