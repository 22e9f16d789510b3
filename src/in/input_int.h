/* input_int: what the files of the input reader share (input.c: the shape dispatch;
 * input_pctx.c: a document's results; input_lines.c: bytes to results; input_fields.c:
 * the field readers; input_read.c: bytes to documents; input_chunk.c, input_pool.c: JSON
 * Lines chunks, read and parsed on threads; input_key.c: record keys). jansson stays
 * inside these files and fastjson.c.
 * Ownership: a pctx owns its results and the string pool of their tasks until
 * input_merge() moves the tasks into the set. */
#ifndef ECSPROF_INPUT_INT_H
#define ECSPROF_INPUT_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecsprof/err.h"
#include "ecsprof/input.h"
#include "ecsprof/task.h"

#define RECORD_TAG "record/1"
#define TASK_EVENT "ECS Task State Change"

/* ---- results of parsing one document (input_pctx.c) ---- */

enum origin { ORIGIN_TASK, ORIGIN_EVENT, ORIGIN_RECORD, ORIGIN_METADATA };

/* ITEM_WARN: a warning about a task that is kept (a field of it left out) */
enum item_kind { ITEM_TASK, ITEM_SKIP, ITEM_FAILURE, ITEM_IMAGES, ITEM_WARN };

struct item {
	enum item_kind kind;
	enum origin origin;
	struct task task;   /* ITEM_TASK */
	struct image_set *images;   /* ITEM_IMAGES: image facts (image_int.h), owned */
	char *msg;          /* warnings: the whole line, "FILE:LINE: ..." */
};

struct items {
	struct item *v;
	size_t n, cap;
};

/* What parsing one document needs and produces; one per worker chunk. */
struct pctx {
	const char *name;
	long line;             /* line of the document in the file; 0 for a whole document */
	struct items out;
	size_t other_events;   /* EventBridge events that are not task state changes */
	char other_type[80];
	size_t insights_other; /* Container Insights events that are not Type "Task" */
	bool failed;           /* document-level error in err */
	struct err err;
	struct task_strpool *strings;   /* batch pool (task.h) of the tasks in out */
	bool dom_only;         /* tests: every line through jansson, none through taskscan */
	size_t stream_bytes;   /* a line this long or longer that is a document input_stream.c
	                        * reads is read so, element by element; 0: never */
	size_t scanned;        /* lines taskscan.c read */
};

struct fstate {
	const char *name;
	const struct input_options *opts;   /* the caller's, never NULL */
	struct input_stats st;
	size_t other_events;
	char other_type[80];
	size_t insights_other;
};

/* ---- input_pctx.c: results, a document's errors, merging ---- */

/* A finished warning line, to f's warning sink (from the calling thread only). */
void input_warn(const struct fstate *f, const char *line);
void input_pctx_init(struct pctx *c, const char *name);
/* The results, and what the set did not take of their strings' pool. */
void input_pctx_cleanup(struct pctx *c);
/* Moves c's tasks into set (counting them in f) and delivers its warnings, in order. */
void input_merge(struct fstate *f, struct pctx *c, struct task_set *set);
/* A new result (zeroed) at the end of c's; a warning item of kind (ITEM_WARN, ITEM_SKIP,
 * ITEM_FAILURE) "NAME[:LINE]: ..."; the document's error (c->failed), returned as
 * err_set() does. */
struct item *input_items_push(struct items *it);
void input_emit_warn(struct pctx *c, enum item_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int input_doc_error(struct pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* input_json_fail() for text p (n bytes) that jsonscan.c may find valid: then jansson ran
 * out of memory, and the error says so. */
void input_json_fail_text(struct pctx *c, json_error_t *e, long line_base, const char *p,
    size_t n);

/* ---- input_lines.c: bytes to results ---- */

/* Every line of a chunk of JSON Lines; stops at the first document error, whose earlier
 * results stay valid. Thread-safe: one pctx per thread. */
void input_parse_lines(struct pctx *c, const char *data, size_t len, long first_line);
/* The one decision on whether a line may be in a recording, record's and report's alike:
 * 0 when report reads it (a task it skips with a warning is read: the raw JSON stays as
 * evidence), -1 with report's reason when report would stop on it (too long, malformed,
 * an unknown format version...). input_peek_record() asks it before taking the key. */
int input_record_line_check(const char *line, size_t len, struct err *err);
/* One whole document. */
void input_parse_doc(struct pctx *c, const char *data, size_t len);
/* Two or more JSON values back to back ("}{", "}\n{"), as Firehose writes them: each
 * dispatched; -1 (nothing done) when p does not start with one whole value followed by
 * another. */
int input_parse_concat(struct pctx *c, const char *p, size_t n, long line);
/* input_parse_task_json() with jansson alone (the oracle of tests/test_taskscan.c) */
int input_parse_task_json_dom(const char *json, size_t len, const char *source,
    int64_t fetched_at_ms, const struct input_options *o, struct task_set *set,
    struct err *err);
/* input_pctx.c: only spaces, tabs and line ends */
bool input_blank(const char *s, size_t n);

/* ---- input.c: the shape dispatch (input_emit_task, input_pctx_pool and
 * input_json_fail are input_pctx.c's) ---- */

/* The pieces of a whole document's reading that input_stream.c uses element by element,
 * so both ways give the same tasks and warnings: a task read by taskscan.c into the
 * results (t's strings in c->strings); tasks[i] / a failures[] entry of a DescribeTasks
 * answer; element i of a top-level array: 1 known, 0 skipped with a warning, -1 a
 * document error (c->failed). */
void input_emit_task(struct pctx *c, struct task *t, enum origin o);
/* The batch pool of c's tasks (task.h), made on first use: build a task there with
 * task_init_pool(). */
struct task_strpool *input_pctx_pool(struct pctx *c);
void input_describe_task(struct pctx *c, const json_t *t, size_t i);
void input_describe_failure(struct pctx *c, const json_t *f);
int input_array_element(struct pctx *c, const json_t *el, size_t i);
/* One parsed document or line into results (shape dispatch); a jansson error as the
 * document's error, lines counted from line_base (0: a whole document). */
int input_dispatch(struct pctx *c, const json_t *root);
void input_json_fail(struct pctx *c, const json_error_t *e, long line_base);


/* json_loadb() failed for want of memory, not for bad JSON: jansson says so with
 * json_error_out_of_memory, or (when its lexer cannot even start) with no text at all. */
static inline bool
input_json_oom(const json_error_t *e)
{
	return json_error_code(e) == json_error_out_of_memory || e->text[0] == '\0';
}

/* ---- members named twice (input_dupkeys.c) ---- */

#define INPUT_DUP_PATH 160   /* a path such as "containers[1].name", cut to fit */
#define INPUT_DUP_MAX 64     /* warnings kept per text; the rest are counted */
/* One member named again in its object: the line of the text it is on (from 1), the
 * raw taskArn/TaskARN of the nearest object around it that has one ("" if none), and its
 * raw path from that object. Untrusted text: sanitize before printing. */
typedef void input_dup_fn(void *ctx, long line, const char *arn, const char *path);
/* Every duplicate member of the first JSON value of valid JSON text p: fn for at most
 * INPUT_DUP_MAX of them (*said); returns how many there are. */
size_t input_dup_keys(const char *p, size_t n, input_dup_fn *fn, void *ctx, size_t *said);
/* json_loadb() with flags, and, when the text names a member twice in one object (which
 * jansson reads keeping the last value), a warning for each, naming the task and the
 * member: "FILE:LINE: task ARN: duplicate key \"createdAt\": the last value is used".
 * line: the text's first line in the file (0: a whole document, counted from 1). */
json_t *input_load(struct pctx *c, const char *p, size_t n, size_t flags, long line,
    json_error_t *e);

/* ---- field readers (input_fields.c) ---- */

/* Field problems are collected as "FIELD: what" so the caller can name the task first.
 * msg: the problem that refuses the task; dropped[]: problems with a time field that was
 * left out (TS_NONE) while the task is kept, each to be warned about. */
#define WHY_MAX_DROPPED 12
struct why {
	char msg[320];
	unsigned ndropped;
	char dropped[WHY_MAX_DROPPED][200];
};

int input_why_set(struct why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The problem in w->msg becomes a dropped field's (w->dropped), and msg is cleared. */
void input_why_drop(struct why *w);
/* Untrusted text inside a message: printable ASCII only, so a message stays one line and
 * never carries terminal escapes; long values are cut. */
void input_quote(char *out, size_t size, const char *s, size_t len);
/* Control and non-ASCII bytes to '?', in place. */
void input_sanitize(char *s);
/* "task arn:aws:..." or "tasks[3]" (where, when given): how a warning names a task. */
void input_task_label(const json_t *o, const char *where, char *out, size_t size);
/* "the number 3", "an array", a quoted string...: what a value is, for messages. */
void input_describe(const json_t *v, char *out, size_t size);
/* A string member (NULL when absent or null), a whole number, an ECS time: 0, or -1 with
 * the problem in w. */
int input_get_str(const json_t *obj, const char *key, char **dst, struct why *w);
/* input_get_str() into a string field of t (or of its containers or tags): t's pool's copy */
int input_task_str(struct task *t, const json_t *obj, const char *key, const char **dst,
    struct why *w);
int input_get_int(const json_t *obj, const char *key, bool *has, int64_t *out, struct why *w);
int input_get_time(const json_t *obj, const char *key, int64_t *out, struct why *w);
/* The same leniently, for the extras beside the tasks (deployments, image facts, a
 * scale-out's sources): epoch seconds or ISO 8601, TS_NONE for anything else */
int64_t input_aws_time(const json_t *obj, const char *key);
/* A DescribeTasks task object / a task metadata v4 document into t (strings into t's
 * pool). */
int input_parse_task(const json_t *o, struct task *t, struct why *w);
int input_parse_metadata(const json_t *o, struct task *t, struct why *w);

/* A scale-out source document (input_scaleout.c): {"ScalingActivities":[...]}, ... */
bool input_scaleout_doc(const json_t *o);
/* A recording line holding one (its "scaleout"): its merge key, "scaleout:KIND/IDS" (the
 * items' identities; a target health observation's target group and time), in *key
 * (the caller's); -1 when the line holds none. */
int input_scaleout_record_key(const json_t *rec, char **key);

/* ---- shapes from exports and archives (input_export.c) ---- */

/* A Container Insights performance-log event; of those, a "Type": "Task" one. */
bool input_is_insights(const json_t *o);
bool input_insights_is_task(const json_t *o);
/* A "Type": "Task" event into t (strings into t's pool), or -1 with the problem in w. */
int input_parse_insights(const json_t *o, struct task *t, struct why *w);
/* Length of a CloudWatch Logs export prefix ("2026-11-30T14:03:00.123Z ") before a JSON
 * message, 0 when the line has none. */
size_t input_log_prefix(const char *p, size_t n);
/* What to run instead, for a JSON document without tasks / a line of aws CLI text,
 * table or yaml output; NULL when there is nothing to say. */
const char *input_unknown_hint(const json_t *root);
const char *input_text_hint(const char *p, size_t n);

#endif
