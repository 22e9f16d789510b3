/* rowchunks: chunks of rows formatted on two threads, taken in order by whichever is free,
 * and written in order by the calling one (rowchunks.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rowchunks.h"

/* rows formatted (and written) at once: about 500 KiB of EventBridge tasks as CSV */
#define ROWCHUNKS_ROWS 1024

static void
part_init(struct rowchunks_part *part)
{
	/* no cap of its own: the format function holds each row to its writer's cap */
	buf_init(&part->out, SIZE_MAX / 4);
	part->good = 0;
	part->overflow = false;
}

/* The file's pages go to the disk while the rows are made: the output is fsync'ed when
 * it is published (atomicfile.c), and that wait, the same on one core as on two, was
 * 0.22-0.44 s at 200k tasks (100 MB of CSV) against ~0.9 s for all the rest on 2 cores
 * (issue 35 item 2). Every WRITEBACK_BYTES the written pages are handed to the kernel's
 * writeback (sync_file_range, which neither waits nor makes them durable: the fsync
 * still does), so that the fsync finds little left to write: 0.06-0.16 s (8 MiB at a
 * time left it 0.15-0.19 s). fd -1: not a regular file (a pipe, a terminal, a memory
 * stream), nothing to do. */
#define WRITEBACK_BYTES ((size_t)2 << 20)

struct writer {
	FILE *f;
	int fd;
	size_t since;   /* bytes written since the last writeback */
};

static void
writer_init(struct writer *w, FILE *f)
{
	struct stat st;

	w->f = f;
	w->fd = fileno(f);
	w->since = 0;
	if (w->fd >= 0 && (fstat(w->fd, &st) != 0 || !S_ISREG(st.st_mode)))
		w->fd = -1;
}

/* writes the part's good rows; 1 when it ended in a row too large, -1 on a write error */
static int
part_write(struct writer *w, struct rowchunks_part *part, const char *what, struct err *err)
{
	size_t len = part->good;

	if (fwrite(part->out.data, 1, len, w->f) != len)
		return err_set(err, ERR_IO, "%s: write failed: %s", what, err_strerror(errno));
	buf_reset(&part->out);
	w->since += len;
	if (w->fd >= 0 && w->since >= WRITEBACK_BYTES) {
		w->since = 0;
		/* a failed flush shows again at the sink's own flush, with its message */
#ifdef SYNC_FILE_RANGE_WRITE
		if (fflush(w->f) == 0)
			(void)sync_file_range(w->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
	}
	return part->overflow ? 1 : 0;
}

static size_t
chunk_end(size_t nrows, size_t chunk)
{
	size_t end = (chunk + 1) * ROWCHUNKS_ROWS;

	return end < nrows ? end : nrows;
}

/* Both threads take chunks in order, each formatted into part[c % NPARTS] once that part
 * is written; the caller writes every chunk in order, and formats the next chunk nobody
 * has taken only while the one it is to write is not ready, so it formats what its write
 * calls leave it time for (issue 35: it formatted every other chunk and made every write
 * call, and its extra share of the CPU time was the serial part of the output). next is
 * the first chunk nobody has taken; ready[s] is the chunk part[s] holds for writing
 * (SIZE_MAX: none), busy[s] that one thread is formatting into it. */
#define NPARTS 4

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct rowchunks *rc;
	size_t nchunks;
	size_t next;
	struct rowchunks_part part[NPARTS];
	size_t ready[NPARTS];
	bool busy[NPARTS];
	bool stop;
};

static void *
worker(void *arg)
{
	struct pool *p = arg;
	const struct rowchunks *rc = p->rc;
	void *scratch = rc->scratch_new();

	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t c = p->next, s = c % NPARTS;

		if (p->stop || c >= p->nchunks)
			break;
		if (p->ready[s] != SIZE_MAX || p->busy[s]) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		p->next++;
		p->busy[s] = true;
		pthread_mutex_unlock(&p->mu);
		rc->format(rc->ctx, scratch, c * ROWCHUNKS_ROWS, chunk_end(rc->nrows, c),
			   &p->part[s]);
		pthread_mutex_lock(&p->mu);
		p->busy[s] = false;
		p->ready[s] = c;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	rc->scratch_free(scratch);
	return NULL;
}

static void
pool_cleanup(struct pool *p)
{
	for (int s = 0; s < NPARTS; s++)
		buf_cleanup(&p->part[s].out);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
}

static unsigned
default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n >= 2 ? 2 : 1;
}

int
rowchunks_write(FILE *f, const struct rowchunks *rc, struct err *err)
{
	size_t nchunks = (rc->nrows + ROWCHUNKS_ROWS - 1) / ROWCHUNKS_ROWS;
	unsigned threads = rc->threads > 0 ? rc->threads : default_threads();
	void *scratch = rc->scratch_new();
	struct rowchunks_part mine;
	struct writer wr;
	struct pool p;
	pthread_t tid;
	bool pool = threads > 1 && nchunks >= 4;
	int ret = 0;

	part_init(&mine);
	writer_init(&wr, f);
	if (pool) {
		memset(&p, 0, sizeof p);
		pthread_mutex_init(&p.mu, NULL);
		pthread_cond_init(&p.cv, NULL);
		p.rc = rc;
		p.nchunks = nchunks;
		for (int s = 0; s < NPARTS; s++) {
			part_init(&p.part[s]);
			p.ready[s] = SIZE_MAX;
		}
		if (pthread_create(&tid, NULL, worker, &p) != 0) {
			pool = false;   /* no thread to be had: all on this one, same bytes */
			pool_cleanup(&p);
		}
	}
	for (size_t c = 0; !pool && c < nchunks && ret == 0; c++) {
		rc->format(rc->ctx, scratch, c * ROWCHUNKS_ROWS, chunk_end(rc->nrows, c), &mine);
		ret = part_write(&wr, &mine, rc->what, err);
	}
	/* with the pool: write chunk w when it is ready, else format the next one nobody has
	 * taken, else wait */
	for (size_t w = 0; pool && w < nchunks && ret == 0;) {
		size_t s = w % NPARTS, c, cs;

		pthread_mutex_lock(&p.mu);
		if (p.ready[s] == w) {
			pthread_mutex_unlock(&p.mu);
			ret = part_write(&wr, &p.part[s], rc->what, err);
			pthread_mutex_lock(&p.mu);
			p.ready[s] = SIZE_MAX;
			pthread_cond_broadcast(&p.cv);
			pthread_mutex_unlock(&p.mu);
			w++;
			continue;
		}
		c = p.next;
		cs = c % NPARTS;
		if (c < nchunks && p.ready[cs] == SIZE_MAX && !p.busy[cs]) {
			p.next++;
			p.busy[cs] = true;
			pthread_mutex_unlock(&p.mu);
			rc->format(rc->ctx, scratch, c * ROWCHUNKS_ROWS, chunk_end(rc->nrows, c),
				   &p.part[cs]);
			pthread_mutex_lock(&p.mu);
			p.busy[cs] = false;
			p.ready[cs] = c;
			pthread_cond_broadcast(&p.cv);
		} else {
			pthread_cond_wait(&p.cv, &p.mu);
		}
		pthread_mutex_unlock(&p.mu);
	}
	if (pool) {
		pthread_mutex_lock(&p.mu);
		p.stop = true;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		pthread_join(tid, NULL);
		pool_cleanup(&p);
	}
	buf_cleanup(&mine.out);
	rc->scratch_free(scratch);
	return ret;
}
