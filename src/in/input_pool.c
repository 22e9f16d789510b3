/* input_pool: chunks of JSON Lines (input_chunk.c) parsed into results and merged into
 * the set in input order: by a pool of worker threads that read (in turns, or at
 * offsets all at once) and parse while the calling thread merges, so memory follows the
 * number of tasks, not the file size, and the output never depends on thread timing;
 * or, with one thread, all on the calling thread. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_chunk.h"
#ifdef __GLIBC__
#include <malloc.h>   /* malloc_trim */
#endif

enum { SLOT_FREE, SLOT_READY, SLOT_BUSY, SLOT_DONE, SLOT_END };

/* A JSON Lines line this long (by default) is read element by element when of a shape
 * input_stream.c reads: a DescribeTasks answer per line holds a DOM of every task at once,
 * node by node malloc'd and freed, while the stream holds one task's (measured, 50 tasks a
 * line: 0.8x the CPU time of the DOM that a bump arena for jansson made cheap before, and
 * 1.4x without that arena, which swapped jansson's allocator for the whole process). */
#define LINE_STREAM_MIN ((size_t)4 << 10)

/* A chunk of JSON Lines' results; its lines as long as stream_bytes (LINE_STREAM_MIN by
 * default) read as streams. */
static void
lines_pctx_init(struct pctx *c, const struct fstate *f)
{
	input_pctx_init(c, f->name);
	c->stream_bytes = f->opts->stream_bytes ? f->opts->stream_bytes : LINE_STREAM_MIN;
}

/* Merges a finished chunk; returns -1 (err filled) if it ended in a document error. */
static int
finish_chunk(struct fstate *f, struct chunk *k, struct task_set *set, struct err *err)
{
	int rc = 0;

	input_merge(f, &k->c, set);
	if (k->c.failed) {
		*err = k->c.err;
		rc = -1;
	}
	return rc;   /* k->data (lines_serial()'s) stays for the next chunk */
}

/* k (when its data is not NULL: read, its results started) and every chunk after it,
 * read, parsed and merged on this thread; k's buffer freed at the end. */
static int
lines_serial(struct fstate *f, struct reader *r, struct chunk *k, struct task_set *set,
    struct err *err)
{
	int rc = 0, more = 1;

	if (k->data != NULL) {
		input_parse_lines(&k->c, k->data, k->len, k->first_line);
		rc = finish_chunk(f, k, set, err);
	}
	while (rc == 0 && (more = input_chunk_read(r, k, err)) == 1) {
		lines_pctx_init(&k->c, f);
		input_parse_lines(&k->c, k->data, k->len, k->first_line);
		rc = finish_chunk(f, k, set, err);
	}
	if (more < 0)
		rc = -1;
	free(k->data);   /* the last chunk's, when a merge failed (else input_chunk_read()
	                  * freed it at the end) */
	k->data = NULL;
	return rc;
}

/* The worker pool for JSON Lines. Each worker reads its next chunk itself, one reader at a
 * time (so chunks are cut, numbered and read in input order), and parses it; the calling
 * thread only merges the parsed chunks, in order, and frees each slot for the read of the
 * chunk nslots later. The reading was the calling thread's, the serial part of the read
 * with the merge (issue 35 item 2a): a worker done with a chunk waited for it to read the
 * next. A slot goes FREE -> BUSY (read and parsed by one worker) -> DONE -> FREE (merged),
 * or END where the input ended (or its reading failed); the first chunk, read by the
 * caller to tell the input's shape, starts READY (read, not parsed). From a regular file
 * the turns go: each worker claims the next range of bytes and reads it at its offset
 * (read_at), the reads overlapping, and the line numbers are handed on in order as each
 * range's line ends are counted. */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct fstate *f;
	struct reader *r;      /* read by the worker that set reading, else by none */
	struct chunk *slots;
	size_t nslots;
	size_t next_read;      /* the chunk to read next, into slots[next_read % nslots] */
	bool reading;          /* a worker reads r */
	bool at_mode;          /* the workers read at offsets (input_chunk_at()), no turns */
	uint64_t at;           /* ... the next chunk's range starts here */
	size_t line_seq;       /* ... the first chunk whose first line is not known yet */
	long line_at;          /* ... its first line */
	bool ended;            /* the input ended: a slot says END */
	struct err rerr;       /* the reading's error, when END came from one */
	bool stop;
};

/* A worker's chunk buffer, lent to the slot it reads into and taken back once the chunk
 * is parsed: the results hold no pointer into the text (their strings are in their pool,
 * their warnings copied), so a slot waiting for its merge holds results alone, and the
 * read holds a buffer of chunk_bytes a worker rather than one a slot (issue 35: 8 slots of
 * 1 MiB on 2 cores were 7 MB of the 2-core run's peak above the 1-core run's). */
struct wbuf {
	char *data;
	size_t cap;
};

static void
lend(struct wbuf *b, struct chunk *k)
{
	free(k->data);   /* NULL: a slot's buffer is only ever lent */
	k->data = b->data;
	k->cap = b->cap;
	b->data = NULL;
	b->cap = 0;
}

static void
take_back(struct wbuf *b, struct chunk *k)
{
	free(b->data);   /* the worker's own, when k was the first chunk (the caller's) */
	b->data = k->data;
	b->cap = k->cap;
	k->data = NULL;
	k->cap = 0;
}

static void
parse_chunk(struct pool *p, struct chunk *k, struct wbuf *b)
{
	input_parse_lines(&k->c, k->data + k->off, k->len, k->first_line);
	take_back(b, k);
	pthread_mutex_lock(&p->mu);
	k->state = SLOT_DONE;
	pthread_cond_broadcast(&p->cv);
}

/* Reads the next chunk at its offset into b's buffer (p->mu held, and held again on
 * return): the range claimed under the lock, read and its line ends counted outside it, while the other
 * workers read theirs; then the first lines known so far handed on in order. true: a
 * chunk to parse (SLOT_BUSY); false: SLOT_END. */
static bool
read_at(struct pool *p, struct chunk *k, struct wbuf *b)
{
	uint64_t rs = p->at;
	struct err e;
	int more;

	lend(b, k);
	k->state = SLOT_BUSY;
	k->seq = p->next_read++;
	k->counted = false;
	p->at += p->r->chunk_bytes;
	pthread_mutex_unlock(&p->mu);
	err_clear(&e);
	/* the first range starts at the line the reader was at; the others wherever */
	more = input_chunk_at(p->r, k, rs, k->seq > 1, &e);
	if (more == 1)
		lines_pctx_init(&k->c, p->f);
	pthread_mutex_lock(&p->mu);
	if (more <= 0)
		k->nl = 0;
	k->counted = true;
	while (p->line_seq < p->next_read) {
		struct chunk *q = &p->slots[p->line_seq % p->nslots];

		if (q->seq != p->line_seq || !q->counted)
			break;
		q->first_line = p->line_at;
		p->line_at += q->nl;
		p->line_seq++;
	}
	pthread_cond_broadcast(&p->cv);
	if (more <= 0 || k->too_long)
		p->ended = true;   /* no more chunks to read: the input ends at this one */
	if (more <= 0) {
		k->state = SLOT_END;
		if (more < 0)
			p->rerr = e;
		return false;
	}
	return true;
}

/* Whether c's results would differ with other line numbers: a line number is only ever
 * in a warning or the error. */
static bool
says_lines(const struct pctx *c)
{
	if (c->failed)
		return true;
	for (size_t i = 0; i < c->out.n; i++)
		if (c->out.v[i].msg != NULL)
			return true;
	return false;
}

/* Parses a chunk read at its offset (p->mu held, released, held again on return). When
 * its first line is not known yet (the chunk before it still being read, or its worker
 * waiting for a CPU: under load 40-55 of 240 chunks, whose workers then waited 1-2 ms
 * each), parsed at once all the same, and again once it is known only when the results
 * name a line (a warning, an error), which tasks without warnings never do. */
static void
parse_at(struct pool *p, struct chunk *k, struct wbuf *b)
{
	bool known = k->seq < p->line_seq;

	pthread_mutex_unlock(&p->mu);
	input_parse_lines(&k->c, k->data + k->off, k->len, known ? k->first_line : 1);
	pthread_mutex_lock(&p->mu);
	if (!known && says_lines(&k->c)) {
		while (k->seq >= p->line_seq && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->stop) {   /* else never merged */
			pthread_mutex_unlock(&p->mu);
			input_pctx_cleanup(&k->c);
			lines_pctx_init(&k->c, p->f);
			input_parse_lines(&k->c, k->data + k->off, k->len, k->first_line);
			pthread_mutex_lock(&p->mu);
		}
	}
	take_back(b, k);
	k->state = SLOT_DONE;
	pthread_cond_broadcast(&p->cv);
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	struct wbuf b = { NULL, 0 };

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct chunk *k = NULL;
		struct err e;
		int more;

		if (p->stop)
			break;
		for (size_t i = 0; i < p->nslots && k == NULL; i++)
			if (p->slots[i].state == SLOT_READY)
				k = &p->slots[i];
		if (k != NULL) {
			k->state = SLOT_BUSY;
			pthread_mutex_unlock(&p->mu);
			parse_chunk(p, k, &b);
			continue;
		}
		if (p->ended)
			break;
		k = &p->slots[p->next_read % p->nslots];
		if (p->reading || k->state != SLOT_FREE) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		if (p->at_mode) {
			if (read_at(p, k, &b))
				parse_at(p, k, &b);
			continue;
		}
		p->reading = true;
		k->state = SLOT_BUSY;
		k->seq = p->next_read++;
		pthread_mutex_unlock(&p->mu);
		err_clear(&e);
		lend(&b, k);
		more = input_chunk_read(p->r, k, &e);
		if (more == 1)
			lines_pctx_init(&k->c, p->f);
		pthread_mutex_lock(&p->mu);
		p->reading = false;
		pthread_cond_broadcast(&p->cv);
		if (more <= 0) {
			p->ended = true;
			k->state = SLOT_END;
			if (more < 0)
				p->rerr = e;
			continue;
		}
		pthread_mutex_unlock(&p->mu);
		parse_chunk(p, k, &b);
	}
	pthread_mutex_unlock(&p->mu);
	free(b.data);
	return NULL;
}

static int
lines_threaded(struct fstate *f, struct reader *r, struct chunk *first, unsigned nthreads,
    struct task_set *set, struct err *err)
{
	struct pool p;
	pthread_t *tids = xcalloc(nthreads, sizeof *tids);
	unsigned started = 0;
	int rc = 0;

	memset(&p, 0, sizeof p);
	err_clear(&p.rerr);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	p.f = f;
	p.r = r;
	/* four chunks a worker: two read ahead of each one busy, so that a main thread late
	 * to merge (another thread has its CPU) leaves the workers work: with two a worker,
	 * 200k tasks on 2 loaded cores left them 0.4-1.5 s waiting for work, with four
	 * 0.15-0.65 s (bench/cores.py), for ~5 MB more at the peak */
	p.nslots = (size_t)nthreads * 4;
	p.slots = xcalloc(p.nslots, sizeof *p.slots);
	/* the first chunk, read to tell the shape: slot 0, to parse */
	p.slots[0].data = first->data;
	p.slots[0].cap = first->cap;
	p.slots[0].len = first->len;
	p.slots[0].first_line = first->first_line;
	p.slots[0].c = first->c;
	p.slots[0].off = first->off;
	p.slots[0].state = SLOT_READY;
	memset(first, 0, sizeof *first);
	p.next_read = 1;
	/* the rest read at offsets when the input allows it: the reads of the workers then
	 * overlap, where in turns one waited for the other's (and on a loaded machine for
	 * the other's time slice: 0.1-0.2 s a worker at 200k tasks) */
	p.at_mode = input_chunk_can_read_at(r, &p.at);
	p.line_seq = 1;
	p.line_at = r->next_line;
	for (unsigned i = 0; i < nthreads; i++)
		if (pthread_create(&tids[started], NULL, worker, &p) == 0)
			started++;
	if (started == 0) {
		/* no threads to be had: read and parse on this one, same results */
		rc = lines_serial(f, r, &p.slots[0], set, err);
		goto out;
	}
	for (size_t seq = 0;; seq++) {
		struct chunk *k = &p.slots[seq % p.nslots];
		bool end;
		long line;

		/* merged in order: only this thread touches a DONE slot */
		pthread_mutex_lock(&p.mu);
		while (k->state != SLOT_DONE && k->state != SLOT_END)
			pthread_cond_wait(&p.cv, &p.mu);
		end = k->state == SLOT_END;
		line = k->first_line;   /* known: every chunk before it was read and counted */
		pthread_mutex_unlock(&p.mu);
		if (end) {
			if (p.rerr.code != 0) {
				*err = p.rerr;
				rc = -1;
			}
			break;
		}
		if (finish_chunk(f, k, set, err) != 0) {
			rc = -1;
			break;
		}
		if (k->too_long) {
			/* the input ends after this chunk, at a line too long */
			input_chunk_too_long(r, line + k->nl, err);
			rc = -1;
			break;
		}
		pthread_mutex_lock(&p.mu);
		k->state = SLOT_FREE;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
	}
	/* stop: workers finish the chunk they hold; then free whatever was not merged */
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
out:
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	for (size_t i = 0; i < p.nslots; i++) {
		input_pctx_cleanup(&p.slots[i].c);
		free(p.slots[i].data);
	}
	free(p.slots);
	free(tids);
#ifdef __GLIBC__
	/* What the read freed stays resident in the arenas (the workers' chunk buffers, the
	 * chunks' item arrays and intern tables, 5.5 MB at 200k tasks on 2 cores), and the
	 * report and the output come after it: given back now, in ~1 ms. A one-off call,
	 * no setting: issue 35 goal (2), 1.8 MiB off the peak at 200k tasks. */
	malloc_trim(0);
#endif
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return rc;
}

int
input_lines_parse(struct fstate *f, struct reader *r, struct chunk *first,
    unsigned nthreads, struct task_set *set, struct err *err)
{
	if (first->data != NULL)
		lines_pctx_init(&first->c, f);
	if (nthreads <= 1 || first->data == NULL)
		return lines_serial(f, r, first, set, err);
	return lines_threaded(f, r, first, nthreads, set, err);
}
