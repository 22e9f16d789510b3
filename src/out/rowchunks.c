/* rowchunks: chunks of rows formatted on two threads, taken in order by whichever is free,
 * and written in order: by the calling thread with fwrite into a pipe, a terminal or a
 * memory stream; into a regular file by whichever thread formatted a chunk, with pwrite
 * at its offset (rowchunks.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecsprof/ncpu.h"
#include "rowchunks.h"

/* rows formatted (and written) at once: about 65 KiB of EventBridge tasks as CSV. With
 * 1024 rows the NPARTS parts of ~0.5 MiB each were 1.5 MiB of the output's peak, the
 * peak of the whole run once the read gave its memory back (issue 35, 200k tasks); 256
 * rows left 0.4 MiB of it */
#define ROWCHUNKS_ROWS 128

static void
part_init(struct rowchunks_part *part)
{
	/* no cap of its own: the format function holds each row to its writer's cap */
	buf_init(&part->out, SIZE_MAX / 4);
	part->good = 0;
	part->overflow = false;
}

/* The file's pages go to the disk while the rows are made: the output is fsync'ed when
 * it is published (atomicfile.c), and that wait is the same on one core as on two, so it
 * was much of what kept the second core from its 1.7x (issue 35 item 2). Every
 * WRITEBACK_BYTES the written pages are handed to the kernel's writeback
 * (sync_file_range, which neither waits nor makes them durable), which took the fsync of
 * 100 MB (200k tasks as CSV) from 0.22-0.44 s to 0.06-0.16 s. What stayed was not the
 * data: an fsync here still took 0.14 s after every page was written and waited for,
 * growing with the bytes written since the last one (a virtual disk's flush makes its
 * host write them out). So a syncer thread also fdatasyncs the file as it grows, one
 * call after the other while there is more, off the writer's path: the fsync at the end
 * finds one sync's worth left (measured, 100 MB: 0.14 s -> 0.015 s). It waits on the
 * disk, not for a CPU, on one core as on two.
 * fd -1: not a regular file (a pipe, a terminal, a memory stream), nothing to do; no
 * syncer for standard output, which nobody fsyncs (only -o files are published through
 * atomicfile, sink.c). A failed fdatasync is the output's write error: the fsync after
 * it on the same file would not report it again. */
#define WRITEBACK_BYTES ((size_t)2 << 20)

struct syncer {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int fd;
	bool want;      /* written since the last fdatasync began */
	bool stop;
	int error;      /* the first fdatasync's errno, 0 while they succeed */
};

struct writer {
	FILE *f;
	int fd;
	size_t since;   /* bytes written since the last writeback */
	bool may_sync;  /* a file we publish, its syncer not started yet */
	bool syncing;   /* sy runs (not: not such a file, too short so far, no thread) */
	struct syncer sy;
	pthread_t tid;
};

static void *
syncer_run(void *arg)
{
	struct syncer *sy = arg;

	pthread_mutex_lock(&sy->mu);
	for (;;) {
		if (sy->want && sy->error == 0) {
			int rc, e;

			sy->want = false;
			pthread_mutex_unlock(&sy->mu);
			rc = fdatasync(sy->fd);
			e = errno;
			pthread_mutex_lock(&sy->mu);
			if (rc != 0 && e != EINTR && sy->error == 0)
				sy->error = e;
			continue;
		}
		if (sy->stop)
			break;
		pthread_cond_wait(&sy->cv, &sy->mu);
	}
	pthread_mutex_unlock(&sy->mu);
	return NULL;
}

static void
writer_init(struct writer *w, FILE *f)
{
	struct stat st;

	w->f = f;
	w->fd = fileno(f);
	w->since = 0;
	w->syncing = false;
	if (w->fd >= 0 && (fstat(w->fd, &st) != 0 || !S_ISREG(st.st_mode)))
		w->fd = -1;
	w->may_sync = w->fd >= 0 && w->fd != STDOUT_FILENO;
}

/* The syncer started, at the first WRITEBACK_BYTES (a short output has none); without a
 * thread to be had, the fsync at the end does it all, as before. */
static void
syncer_start(struct writer *w)
{
	struct syncer *sy = &w->sy;

	w->may_sync = false;
	memset(sy, 0, sizeof *sy);
	pthread_mutex_init(&sy->mu, NULL);
	pthread_cond_init(&sy->cv, NULL);
	sy->fd = w->fd;
	w->syncing = pthread_create(&w->tid, NULL, syncer_run, sy) == 0;
	if (!w->syncing) {
		pthread_cond_destroy(&sy->cv);
		pthread_mutex_destroy(&sy->mu);
	}
}

/* Stops the syncer (after the fdatasync it is in, if any): the errno of one that failed,
 * else 0. */
static int
writer_finish(struct writer *w)
{
	struct syncer *sy = &w->sy;

	if (!w->syncing)
		return 0;
	w->syncing = false;
	pthread_mutex_lock(&sy->mu);
	sy->stop = true;
	sy->want = false;   /* what is left, the fsync at the end does */
	pthread_cond_signal(&sy->cv);
	pthread_mutex_unlock(&sy->mu);
	pthread_join(w->tid, NULL);
	pthread_cond_destroy(&sy->cv);
	pthread_mutex_destroy(&sy->mu);
	return sy->error;
}

/* the written pages handed to the kernel's writeback (which may wait for the disk's
 * queue: outside any lock) */
static void
writeback(int fd)
{
#ifdef SYNC_FILE_RANGE_WRITE
	(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
	(void)fd;
#endif
}

/* the syncer told there is more to sync (started at the first time), by one thread at a
 * time */
static void
syncer_wake(struct writer *w)
{
	if (w->may_sync)
		syncer_start(w);
	if (w->syncing) {
		pthread_mutex_lock(&w->sy.mu);
		w->sy.want = true;
		pthread_cond_signal(&w->sy.cv);
		pthread_mutex_unlock(&w->sy.mu);
	}
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
		if (fflush(w->f) == 0) {
			writeback(w->fd);
			syncer_wake(w);
		}
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
 * (SIZE_MAX: none), busy[s] that one thread is formatting into it.
 *
 * Into a regular file (direct), no thread writes in order: a chunk's offset in the file
 * is the sum of the lengths of the chunks before it, known once they are all formatted,
 * so offsets are given out in chunk order under the lock (placed) and each placed chunk
 * written with pwrite, outside it, by whichever thread is free, first the one that has
 * just formatted it. The kernel's copy into the page cache (on this VM each fresh page a
 * host fault: ~20% of the samples of a JSON, 3.3x the CSV's bytes) was all on the
 * writing thread, the serial part of the output; now both threads share it (issue 35).
 * A chunk ending in a row too large is placed last: nothing after it is. The first
 * write error stops both threads. */
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
	/* direct: */
	bool direct;
	struct writer *wr;
	size_t unplaced;        /* the first chunk without an offset */
	off_t end;              /* where it goes: the end of the chunks placed */
	off_t at[NPARTS];       /* part[s]'s offset, when placed[s] */
	bool placed[NPARTS];
	bool writing[NPARTS];
	bool overflow;          /* a chunk ended in a row too large: placed last */
	int error;              /* the first failed write's errno, 0 while they succeed */
};

/* Direct: offsets given to the formatted chunks next in order (mu held). */
static void
place(struct pool *p)
{
	while (!p->overflow && p->unplaced < p->nchunks) {
		size_t s = p->unplaced % NPARTS;

		if (p->ready[s] != p->unplaced || p->placed[s])
			break;
		p->at[s] = p->end;
		p->end += (off_t)p->part[s].good;
		p->placed[s] = true;
		p->unplaced++;
		if (p->part[s].overflow) {
			p->overflow = true;
			p->stop = true;   /* nothing after it is formatted */
		}
	}
}

/* all of data at off, or the errno of the write that failed (ENOSPC for none written) */
static int
pwrite_all(int fd, const char *data, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, data, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return ENOSPC;
		data += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* Direct: writes part[s] (placed, and now marked writing) outside the lock (mu held on
 * entry and on return), then frees it for the chunk NPARTS after. */
static void
direct_write(struct pool *p, size_t s)
{
	struct rowchunks_part *part = &p->part[s];
	size_t len = part->good;
	off_t at = p->at[s];
	int fd = p->wr->fd;
	bool sync = false;
	int e;

	p->writing[s] = true;
	pthread_mutex_unlock(&p->mu);
	e = pwrite_all(fd, part->out.data, len, at);
	pthread_mutex_lock(&p->mu);
	if (e != 0 && p->error == 0) {
		p->error = e;
		p->stop = true;
	}
	p->writing[s] = false;
	p->placed[s] = false;
	p->ready[s] = SIZE_MAX;
	p->wr->since += len;
	if (e == 0 && p->wr->since >= WRITEBACK_BYTES) {
		p->wr->since = 0;
		sync = true;
	}
	pthread_cond_broadcast(&p->cv);
	if (sync) {
		pthread_mutex_unlock(&p->mu);
		writeback(fd);
		pthread_mutex_lock(&p->mu);
		syncer_wake(p->wr);
	}
}

/* A placed chunk to write, mine first; NPARTS when none, or while the other thread writes
 * one: the kernel takes the file's lock for a write (ext4, tmpfs), so a second write
 * would wait there, where this thread can format the next chunk instead (mu held). */
static size_t
writable(const struct pool *p, size_t mine)
{
	size_t found = NPARTS;

	for (size_t s = 0; s < NPARTS; s++) {
		if (p->writing[s])
			return NPARTS;
		if (p->placed[s] && (found == NPARTS || s == mine))
			found = s;
	}
	return found;
}

/* Takes chunk c (the next nobody has taken, part[s] free for it) and formats it outside
 * the lock: then ready for writing (mu held on entry and on return). */
static void
format_taken(struct pool *p, void *scratch, size_t c, size_t s)
{
	const struct rowchunks *rc = p->rc;

	p->next++;
	p->busy[s] = true;
	pthread_mutex_unlock(&p->mu);
	rc->format(rc->ctx, scratch, c * ROWCHUNKS_ROWS, chunk_end(rc->nrows, c), &p->part[s]);
	pthread_mutex_lock(&p->mu);
	p->busy[s] = false;
	p->ready[s] = c;
}

/* Direct: what each thread does until every chunk is written or a write failed: write a
 * placed chunk, else format the next one, else wait (mu held on entry and on return). */
static void
direct_run(struct pool *p, void *scratch)
{
	size_t mine = NPARTS;

	for (;;) {
		size_t s = p->error == 0 ? writable(p, mine) : NPARTS, c = p->next;

		mine = NPARTS;
		if (s < NPARTS) {
			direct_write(p, s);
			continue;
		}
		if (p->stop || c >= p->nchunks)
			break;   /* what is left placed, the thread that placed it writes */
		s = c % NPARTS;
		if (p->ready[s] != SIZE_MAX || p->busy[s]) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		format_taken(p, scratch, c, s);
		place(p);
		mine = s;
	}
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	const struct rowchunks *rc = p->rc;
	void *scratch = rc->scratch_new();

	pthread_mutex_lock(&p->mu);
	if (p->direct)
		direct_run(p, scratch);
	for (;;) {
		size_t c = p->next, s = c % NPARTS;

		if (p->direct || p->stop || c >= p->nchunks)
			break;
		if (p->ready[s] != SIZE_MAX || p->busy[s]) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		format_taken(p, scratch, c, s);
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
	return ncpu_usable() >= 2 ? 2 : 1;
}

/* Direct writes need the file's own position, with what the FILE holds written first:
 * not O_APPEND (where Linux's pwrite appends whatever the offset). The offset of the
 * first row; -1 to write with fwrite. */
static off_t
direct_start(struct writer *w)
{
	int fl;

	if (w->fd < 0 || (fl = fcntl(w->fd, F_GETFL)) < 0 || (fl & O_APPEND) != 0 ||
	    fflush(w->f) != 0)
		return -1;
	return lseek(w->fd, 0, SEEK_CUR);
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
	int ret = 0, synced;

	part_init(&mine);
	writer_init(&wr, f);
	if (pool) {
		memset(&p, 0, sizeof p);
		pthread_mutex_init(&p.mu, NULL);
		pthread_cond_init(&p.cv, NULL);
		p.rc = rc;
		p.nchunks = nchunks;
		p.wr = &wr;
		p.end = direct_start(&wr);
		p.direct = p.end >= 0;
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
	if (pool && p.direct) {
		pthread_mutex_lock(&p.mu);
		direct_run(&p, scratch);
		pthread_mutex_unlock(&p.mu);
	}
	/* with the pool: write chunk w when it is ready, else format the next one nobody has
	 * taken, else wait */
	for (size_t w = 0; pool && !p.direct && w < nchunks && ret == 0;) {
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
			format_taken(&p, scratch, c, cs);
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
		if (p.direct) {
			/* both threads are done: what the FILE writes next goes after the rows */
			if (p.error != 0)
				ret = err_set(err, ERR_IO, "%s: write failed: %s", rc->what,
					      err_strerror(p.error));
			else if (fseeko(f, p.end, SEEK_SET) != 0)
				ret = err_set(err, ERR_IO, "%s: write failed: %s", rc->what,
					      err_strerror(errno));
			else if (p.overflow)
				ret = 1;
		}
		pool_cleanup(&p);
	}
	synced = writer_finish(&wr);
	if (synced != 0 && ret >= 0)
		ret = err_set(err, ERR_IO, "%s: write failed: %s", rc->what, err_strerror(synced));
	buf_cleanup(&mine.out);
	rc->scratch_free(scratch);
	return ret;
}
