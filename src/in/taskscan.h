/* taskscan: a line of JSON Lines that is an EventBridge "ECS Task State Change" event or
 * a recording's task line (record/1) read straight into a struct task, without building a jansson DOM: only the fields input_parse_task() and
 * input_serving_task() read are kept, everything else (overrides, attachment ids,
 * networkInterfaces...) is checked as JSON and skipped. Only ever an accelerator: on any
 * line it is not sure of (another shape, a field of an unexpected type, a \u escape, a
 * repeated key, a time it cannot read, anything jansson might word an error about) it
 * gives up and the caller parses the line with jansson from the start, so every task and
 * every warning is the one the jansson path gives (tests/test_taskscan.c and
 * tests/fuzz/fuzz_taskscan.c check both ways agree).
 * Ownership: t is the caller's (task_init'ed, with a pool or not); its strings, containers
 * and tags go to its pool (task.h). buf is scratch of at least len bytes. */
#ifndef ECSPROF_TASKSCAN_H
#define ECSPROF_TASKSCAN_H

#include <stddef.h>

#include "ecsprof/task.h"
#include "input_int.h"

struct jsonscan;   /* ecsprof/jsonscan.h */

/* 0: the line was such an event (*origin ORIGIN_EVENT) or recording line (ORIGIN_RECORD)
 * and t holds its task, fetched_at and healthy_at as one_task() sets them; -1: not sure,
 * t was initialised again with the same pool (task_reset: what was read stays there). */
int taskscan_line(const char *line, size_t len, char *buf, struct task *t,
		  enum origin *origin);
/* One task object alone (a DescribeTasks task as ecs_fetch.c dumps it for
 * input_parse_task_json()), into t as input_parse_task() reads it, serving fields included;
 * 0, or -1 as taskscan_line(). */
int taskscan_task(const char *json, size_t len, char *buf, struct task *t);
/* The same for a text known to name no key twice in an object (json_dumps' of a DOM, or
 * what aws/ecs_scan.c passed, which gives answers with repeated keys to jansson): the
 * repeated-key check is not made again. */
int taskscan_task_unique(const char *json, size_t len, char *buf, struct task *t);
/* The task object at sc->p (its '{') read into t, sc left after it (a DescribeTasks
 * answer's task, read in the scan of the answer: aws/ecs_scan.c); 0, or -1 as
 * taskscan_line() with sc anywhere in the object (the caller goes back). prev (may be
 * NULL): a task read before into t's pool, whose strings t takes where they are the same
 * text (no lookup in the pool). */
int taskscan_task_at(struct jsonscan *sc, struct task *t, const struct task *prev);
/* 0 when the reader's table of task keys by hash matches its list of keys, one key a slot
 * (for tests). */
int taskscan_keys_check(void);

#endif
