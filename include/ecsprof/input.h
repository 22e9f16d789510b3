/* input: the only reader of task JSON. Turns saved data (DescribeTasks responses, bare
 * tasks, EventBridge task events, ecsprof recordings, task metadata v4 documents) into
 * tasks in a task_set, recognising each shape from its content, never from a flag.
 * Ownership: parsed tasks are handed to the caller's task_set (task_set_take); nothing
 * else outlives a call except struct input_key, freed by input_key_cleanup(). */
#ifndef ECSPROF_INPUT_H
#define ECSPROF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/task.h"

/* Counts over one or more calls (the functions add to it; zero it first). */
struct input_stats {
	size_t tasks;       /* task states accepted (each event, record line, array item) */
	size_t events;      /* ... of which EventBridge "ECS Task State Change" events */
	size_t records;     /* ... of which ecsprof recording lines */
	size_t metadata;    /* ... of which task metadata v4 documents */
	size_t duplicates;  /* dropped: same (taskArn, version) as a state already read */
	size_t skipped;     /* bad tasks and other events left out, each with a warning */
	size_t failures;    /* DescribeTasks failures[] entries, each with a warning */
};

/* Limits: beyond them input is refused with a clear error rather than exhausting memory. */
#define INPUT_MAX_LINE   ((size_t)64 << 20)   /* one JSON Lines line */
#define INPUT_MAX_DOC    ((size_t)1 << 30)    /* one whole (non-JSON-Lines) document held
                                               * whole: any but a DescribeTasks answer or an
                                               * array from a file, read as it comes, whose
                                               * limit is INPUT_MAX_LINE per element */
#define INPUT_MAX_STRING ((size_t)1 << 20)    /* one string field kept in a task */

/* Where warnings go: one line each, "FILE:LINE: what" without a trailing newline.
 * Warnings are delivered from the calling thread, in input order. */
typedef void input_warn_fn(void *ctx, const char *line);

struct log;

/* How one read call behaves; a NULL options pointer (or a zeroed struct) means the
 * defaults. Nothing here outlives the call: no process-wide state is set. */
struct input_options {
	input_warn_fn *warn;    /* NULL: log_warn() ("ecsprof: warning: <line>" on stderr) */
	void *warn_ctx;
	const struct log *log;  /* without warn: where the warnings go (NULL: stderr) */
	/* tuning, for tests and the benchmark; results do not depend on either */
	unsigned threads;       /* JSON Lines parser threads: 0 = one per CPU, at most 4 */
	size_t chunk_bytes;     /* the chunk handed to each: 0 = 1 MiB */
	size_t stream_bytes;    /* a whole document from this size on is read element by
	                         * element, not as one DOM: 0 = 1 MiB (tests: 1, every one) */
	bool whole_doc;         /* a file's large document held whole before it is read, as
	                         * before issue 31 (the benchmark's baseline), not read as it
	                         * comes */
	bool mem_as_file;       /* test seam (fuzz_input): memory read as a file is, copied a
	                         * chunk at a time, never parsed in place */
	/* test seam: the allocator zlib uses for this call's gzip reader (a failing one shows
	 * what running out of memory says); NULL: zlib's own. zlib's alloc_func and free_func
	 * (voidpf is void *, uInt unsigned int), so this header needs no zlib.h. */
	void *(*gz_alloc)(void *opaque, unsigned items, unsigned size);
	void (*gz_free)(void *opaque, void *p);
	void *gz_opaque;
	/* input_parse_task_json_with: the text names no key twice in an object (the live
	 * fetch's texts: json_dumps' of a DOM, or ecs_scan's, which checked), so the scan
	 * does not check it again */
	bool keys_unique;
	/* How far the reading has got, as the bytes come: read of total bytes as stored
	 * (total 0: not known, stdin or a pipe). NULL: not asked. Called by the thread that
	 * reads, one call at a time: for JSON Lines a worker of the read, else the caller. */
	void (*progress)(void *ctx, uint64_t read, uint64_t total);
	void *progress_ctx;
};

/* Reads one file; path "-" is stdin. task->source is path as given. Returns -1 with
 * "FILE:LINE:COLUMN: ..." in err for malformed JSON, an unknown shape, a file without any
 * usable task (when some were skipped), or a read error. Tasks read before the error stay
 * in the set. */
int input_read_file(const char *path, struct task_set *set, struct input_stats *st,
    struct err *err);
/* The same on bytes in memory; name is used as the source and in messages. */
int input_read_mem(const char *name, const char *data, size_t len, struct task_set *set,
    struct input_stats *st, struct err *err);
/* The same two with options o (NULL: the defaults). */
int input_read_file_with(const char *path, const struct input_options *o,
    struct task_set *set, struct input_stats *st, struct err *err);
int input_read_mem_with(const char *name, const char *data, size_t len,
    const struct input_options *o, struct task_set *set, struct input_stats *st,
    struct err *err);
/* One raw DescribeTasks task object (as the live client receives it): parsed, stamped
 * with source and fetched_at_ms (TS_NONE if unknown) and taken into the set. */
int input_parse_task_json(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, struct task_set *set, struct err *err);
/* The same with options o (NULL: the defaults): its warn function gets the warnings about
 * the task (a field ignored, a key named twice), so that a poll can say each once. */
int input_parse_task_json_with(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, const struct input_options *o, struct task_set *set,
    struct err *err);

/* The identity of a task state, read without building a struct task (record.c uses it). */
struct input_key {
	char *arn;               /* owned */
	bool has_version;
	int64_t version;
	int64_t fetched_at_ms;   /* TS_NONE for a raw task */
};
/* A raw task object: its taskArn (required) and version. */
int input_peek_task(const char *json, size_t len, struct input_key *k, struct err *err);
/* A recording line (see record.h): refuses anything that is not one (-1). 1: a recording
 * line that report reads but that names no task it could be merged by (a task without a
 * readable taskArn or version: report skips that task with a warning), k->arn NULL and
 * why in err; 0: k is its key. */
int input_peek_record(const char *line, size_t len, struct input_key *k, struct err *err);
/* input_peek_record() of a line record_line_new() has just built around the raw task
 * (task[0..task_len), fetched at fetched_at_ms): the same answer, with the key read from
 * the raw task without a DOM when it is plain (a taskArn string, an integer version), and
 * report's reader run on the line as input_peek_record() runs it. */
int input_peek_built_record(const char *line, size_t len, const char *task, size_t task_len,
    int64_t fetched_at_ms, struct input_key *k, struct err *err);
void input_key_cleanup(struct input_key *k);

#endif
