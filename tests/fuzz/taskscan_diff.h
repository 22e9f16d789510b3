/* taskscan_diff: one chunk of JSON Lines read twice by input_parse_lines(), once as
 * ecsprof reads it (task state change events through taskscan.c) and once with every line
 * through jansson (pctx.dom_only), and the two results compared field by field: the same
 * items (tasks, warnings, failures) in the same order, the same document error.
 * taskscan_diff() returns NULL when they agree, else what differs first (static text);
 * taskscan_task_diff() does the same for one task's JSON (input_parse_task_json, live).
 * Used by tests/test_taskscan.c and tests/fuzz/fuzz_taskscan.c. */
#ifndef TASKSCAN_DIFF_H
#define TASKSCAN_DIFF_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/in/input_int.h"
#include "../../src/in/taskscan.h"
#include "../fixtures/task_text.h"

static char taskscan_diff_why[400];

static int
taskscan_str_differ(const char *what, const char *a, const char *b)
{
	if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0)) {
		snprintf(taskscan_diff_why, sizeof taskscan_diff_why, "%s: \"%.150s\" vs \"%.150s\"",
			 what, a ? a : "(null)", b ? b : "(null)");
		return 1;
	}
	return 0;
}

static int
taskscan_num_differ(const char *what, long long a, long long b)
{
	if (a != b) {
		snprintf(taskscan_diff_why, sizeof taskscan_diff_why, "%s: %lld vs %lld", what, a, b);
		return 1;
	}
	return 0;
}

static int
taskscan_task_differ(const struct task *a, const struct task *b)
{
#define S(f) taskscan_str_differ(#f, a->prof->f, b->prof->f)
#define N(f) taskscan_num_differ(#f, (long long)a->f, (long long)b->f)
	if (taskscan_str_differ("arn", ARN_OF(a), ARN_OF(b)) || S(cluster_arn) || S(taskdef_arn) || S(group) || S(started_by) ||
	    S(launch_type) || S(platform_version) || S(platform_family) || S(capacity_provider) ||
	    S(availability_zone) || S(cpu) || S(memory) || S(last_status) || S(desired_status) ||
	    S(stop_code) || S(stopped_reason) || S(health_status) || S(cpu_arch) || S(source) ||
	    N(has_version) || N(version) || N(ncontainers) || taskscan_num_differ("ntags", (long long)a->prof->ntags, (long long)b->prof->ntags) || N(awsvpc) ||
	    N(public_ip) || N(healthy_observed) || N(healthy_resolution_ms) ||
	    N(from_metadata) || N(soci) || N(soci_evidence))
		return 1;
	for (int i = 0; i < TS_SLOTS; i++)
		if (taskscan_num_differ(i < TS_COUNT ? ts_defs[i].csv_name : "fetched_at",
					(long long)task_ts(a, i), (long long)task_ts(b, i)))
			return 1;
	for (size_t i = 0; i < a->ncontainers; i++) {
		const struct container *x = &a->containers[i], *y = &b->containers[i];
#define CS(f) taskscan_str_differ("containers." #f, x->prof->f, y->prof->f)
#define CN(f) taskscan_num_differ("containers." #f, (long long)x->f, (long long)y->f)
		if (CS(name) || CS(image) ||
		    taskscan_str_differ("containers.image_digest", DIGEST_OF(x), DIGEST_OF(y)) || CS(last_status) || CS(reason) ||
		    CS(snapshotter) || CS(health_status) || CN(has_exit_code) || CN(exit_code) ||
		    CN(has_health_since) || CN(health_since_ms) || CN(essential))
			return 1;
#undef CS
#undef CN
	}
	for (size_t i = 0; i < a->prof->ntags; i++)
		if (taskscan_str_differ("tags.key", a->prof->tags[i].key, b->prof->tags[i].key) ||
		    taskscan_str_differ("tags.value", a->prof->tags[i].value, b->prof->tags[i].value))
			return 1;
#undef S
#undef N
	return 0;
}

/* *scanned: how many lines taskscan took */
static const char *
taskscan_diff(const char *data, size_t len, size_t *scanned)
{
	struct pctx fast, slow;
	const char *why = NULL;

	input_pctx_init(&fast, "in.jsonl");
	input_pctx_init(&slow, "in.jsonl");
	slow.dom_only = true;
	input_parse_lines(&fast, data, len, 1);
	input_parse_lines(&slow, data, len, 1);
	*scanned = fast.scanned;
	if (slow.scanned != 0)
		why = "dom_only still scanned";
	else if (fast.failed != slow.failed ||
		 (fast.failed && strcmp(fast.err.msg, slow.err.msg) != 0))
		why = "document error";
	else if (fast.out.n != slow.out.n)
		why = "number of items";
	else if (fast.other_events != slow.other_events ||
		 strcmp(fast.other_type, slow.other_type) != 0)
		why = "other events";
	for (size_t i = 0; why == NULL && i < fast.out.n; i++) {
		const struct item *x = &fast.out.v[i], *y = &slow.out.v[i];

		if (x->kind != y->kind || x->origin != y->origin)
			why = "item kind";
		else if (taskscan_str_differ("warning", x->msg, y->msg))
			why = taskscan_diff_why;
		else if (x->kind == ITEM_TASK && taskscan_task_differ(&x->task, &y->task))
			why = taskscan_diff_why;
	}
	input_pctx_cleanup(&fast);
	input_pctx_cleanup(&slow);
	return why;
}

/* input_parse_task_json() (taskscan_task first) against input_parse_task_json_dom()
 * (jansson alone) on one task's JSON: the same result, error and task. *taken: taskscan
 * read it. NULL when they agree. */
static const char *
taskscan_task_diff(const char *json, size_t len, bool *taken)
{
	struct task_set a, b;
	struct err ea, eb;
	struct task t;
	char *buf = malloc(len + 1);
	const char *why = NULL;
	int ra, rb;

	if (buf == NULL)
		return "out of memory";
	task_init(&t);
	*taken = taskscan_task(json, len, buf, &t) == 0;
	task_cleanup(&t);
	free(buf);
	task_set_init(&a);
	task_set_init(&b);
	err_clear(&ea);
	err_clear(&eb);
	ra = input_parse_task_json(json, len, "live", 1714557600000LL, &a, &ea);
	rb = input_parse_task_json_dom(json, len, "live", 1714557600000LL, NULL, &b, &eb);
	if (ra != rb || ea.code != eb.code || strcmp(ea.msg, eb.msg) != 0)
		why = "result or error";
	else if (a.len != b.len)
		why = "number of tasks";
	else if (a.len == 1 && taskscan_task_differ(&a.tasks[0], &b.tasks[0]))
		why = taskscan_diff_why;
	task_set_cleanup(&a);
	task_set_cleanup(&b);
	return why;
}

#endif
