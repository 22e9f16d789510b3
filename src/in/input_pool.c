/* input_pool: chunks of JSON Lines (input_chunk.c) parsed into results and merged into
 * the set in input order: by a pool of worker threads that read (one at a time, in
 * order) and parse while the calling thread merges, so memory follows the number of
 * tasks, not the file size, and the output never depends on thread timing; or, with one
 * thread, all on the calling thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "input_chunk.h"

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
	return rc;   /* k->data stays the slot's, for its next chunk */
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
 * caller to tell the input's shape, starts READY (read, not parsed). */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct fstate *f;
	struct reader *r;      /* read by the worker that set reading, else by none */
	struct chunk *slots;
	size_t nslots;
	size_t next_read;      /* the chunk to read next, into slots[next_read % nslots] */
	bool reading;          /* a worker reads r */
	bool ended;            /* the input ended: a slot says END */
	struct err rerr;       /* the reading's error, when END came from one */
	bool stop;
};

static void
parse_chunk(struct pool *p, struct chunk *k)
{
	input_parse_lines(&k->c, k->data, k->len, k->first_line);
	pthread_mutex_lock(&p->mu);
	k->state = SLOT_DONE;
	pthread_cond_broadcast(&p->cv);
}

static void *
worker(void *arg)
{
	struct pool *p = arg;

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
			parse_chunk(p, k);
			continue;
		}
		if (p->ended)
			break;
		k = &p->slots[p->next_read % p->nslots];
		if (p->reading || k->state != SLOT_FREE) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		p->reading = true;
		k->state = SLOT_BUSY;
		k->seq = p->next_read++;
		pthread_mutex_unlock(&p->mu);
		err_clear(&e);
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
		parse_chunk(p, k);
	}
	pthread_mutex_unlock(&p->mu);
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
	p.slots[0].state = SLOT_READY;
	memset(first, 0, sizeof *first);
	p.next_read = 1;
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

		/* merged in order: only this thread touches a DONE slot */
		pthread_mutex_lock(&p.mu);
		while (k->state != SLOT_DONE && k->state != SLOT_END)
			pthread_cond_wait(&p.cv, &p.mu);
		end = k->state == SLOT_END;
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
