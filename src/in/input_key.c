/* input_key: the identity of a task state (taskArn, version, fetched_at) read without
 * building a struct task: record.c's merge keys. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/input.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"
#include "input_int.h"
#include "input_serving.h"

void
input_key_cleanup(struct input_key *k)
{
	free(k->arn);
	k->arn = NULL;
}

static int
key_from_task(const json_t *o, struct input_key *k, struct why *w)
{
	w->msg[0] = '\0';
	if (!json_is_object(o))
		return input_why_set(w, "a task must be a JSON object");
	if (input_get_str(o, "taskArn", &k->arn, w) != 0)
		return -1;
	if (k->arn == NULL)
		return input_why_set(w, "taskArn: missing");
	return input_get_int(o, "version", &k->has_version, &k->version, w);
}

int
input_peek_task(const char *json, size_t len, struct input_key *k, struct err *err)
{
	json_error_t e;
	json_t *root;
	struct why w;
	int rc = 0;

	memset(k, 0, sizeof *k);
	k->fetched_at_ms = TS_NONE;
	root = json_loadb(json, len, 0, &e);
	if (root == NULL && input_json_oom(&e))
		return err_set(err, ERR_INTERNAL, "out of memory parsing a task's JSON");
	if (root == NULL) {
		input_sanitize(e.text);
		return err_set(err, ERR_PARSE, "malformed task JSON at column %d: %s", e.column,
		    e.text);
	}
	if (key_from_task(root, k, &w) != 0) {
		input_key_cleanup(k);
		rc = err_set(err, ERR_PARSE, "task: %s", w.msg);
	}
	json_decref(root);
	return rc;
}

/* An image line's key: "image:DIGEST@PLATFORM" (a digest's facts never change, so the
 * line already in a recording stays unless a later one is newer). -1 if not one. */
static int
image_key(const json_t *root, char **arn)
{
	const json_t *img = json_object_get(root, "image");
	const char *d = json_string_value(json_object_get(img, "digest"));
	const char *p = json_string_value(json_object_get(img, "platform"));

	if (json_object_get(root, "task") != NULL || d == NULL)
		return -1;
	*arn = xasprintf("image:%s@%s", d, p ? p : "");
	return 0;
}

/* A line that is no recording line but one report reads past, taking nothing from it
 * (an EventBridge event of another kind, a Container Insights event that is not a task's,
 * a DescribeTasks answer with only failures or skipped tasks): true, with report's
 * warning in err. One report takes nothing from silently ({"tasks":[]}) is no such line. False for a line report stops on or takes a task from (a data file, not
 * a recording: record leaves it alone). Read by report's own line reader (input.c). */
static bool
report_skips(const char *line, size_t len, struct err *err)
{
	struct pctx c;
	bool skips = len < INPUT_MAX_LINE && memchr(line, '\n', len) == NULL;
	const char *why = NULL;

	if (!skips)
		return false;
	input_pctx_init(&c, "line");
	input_parse_lines(&c, line, len, 1);
	skips = !c.failed;
	for (size_t i = 0; i < c.out.n && skips; i++) {
		if (c.out.v[i].kind == ITEM_TASK || c.out.v[i].kind == ITEM_IMAGES)
			skips = false;
		else if (why == NULL && c.out.v[i].msg != NULL)
			why = c.out.v[i].msg;
	}
	if (skips && why != NULL)
		err_set(err, ERR_PARSE, "not a recording line, which report skips (%s)",
		    strncmp(why, "line:1: ", 8) == 0 ? why + 8 : why);
	else if (skips && c.other_events > 0)
		err_set(err, ERR_PARSE, "not a recording line, which report skips (an EventBridge "
		    "event of type %s, not \"%s\")", c.other_type, TASK_EVENT);
	else if (skips && c.insights_other > 0)
		err_set(err, ERR_PARSE, "not a recording line, which report skips (a Container "
		    "Insights event that is not a task's)");
	else
		skips = false;   /* nothing in it, nothing said: no recording's line either */
	input_pctx_cleanup(&c);
	return skips;
}

int
input_peek_record(const char *line, size_t len, struct input_key *k, struct err *err)
{
	json_error_t e;
	json_t *root;
	const json_t *tag;
	struct why w;
	int rc = -1;

	memset(k, 0, sizeof *k);
	k->fetched_at_ms = TS_NONE;
	if (len >= INPUT_MAX_LINE)   /* before parsing it: input_record_line_check says why */
		return input_record_line_check(line, len, err);
	root = json_loadb(line, len, 0, &e);
	if (root == NULL && input_json_oom(&e))
		return err_set(err, ERR_INTERNAL, "out of memory parsing a recording line");
	if (root == NULL) {
		input_sanitize(e.text);
		return err_set(err, ERR_PARSE, "not an ecsprof recording line: malformed JSON at "
		    "column %d: %s", e.column, e.text);
	}
	tag = json_object_get(root, "ecsprof");
	if (tag == NULL && report_skips(line, len, err)) {
		rc = 1;   /* report reads the file past it: kept as it is, as its other skips */
		goto out;
	}
	if (!json_is_string(tag) || strcmp(json_string_value(tag), RECORD_TAG) != 0) {
		err_set(err, ERR_PARSE, "not an ecsprof recording line (no \"ecsprof\":\"%s\")",
		    RECORD_TAG);
		goto out;
	}
	w.msg[0] = '\0';
	/* a bad fetched_at is dropped, as report drops it (with a warning there) */
	if (input_get_time(root, "fetched_at", &k->fetched_at_ms, &w) != 0)
		k->fetched_at_ms = TS_NONE;
	w.msg[0] = '\0';
	if ((input_deploy_record_key(root, &k->arn) != 0 && image_key(root, &k->arn) != 0 &&
	     input_scaleout_record_key(root, &k->arn) != 0 &&
	     key_from_task(json_object_get(root, "task"), k, &w) != 0)) {
		input_key_cleanup(k);
		k->has_version = false;
		/* no identity to merge by; when report reads the line (skipping its task with
		 * a warning), it is the user's evidence all the same: 1, for record to keep */
		rc = input_record_line_check(line, len, err);
		if (rc == 0) {
			err_set(err, ERR_PARSE, "recording line: %s", w.msg);
			rc = 1;
		}
		goto out;
	}
	/* and what report's reader would stop on, record refuses: one decision for both */
	rc = input_record_line_check(line, len, err);
	if (rc != 0)
		input_key_cleanup(k);
out:
	json_decref(root);
	return rc;
}

int
input_record_line_check(const char *line, size_t len, struct err *err)
{
	struct pctx c;
	int rc = 0;

	/* the reader's limit (input_read.c): report stops at a longer line after the first */
	if (len >= INPUT_MAX_LINE)
		return err_set(err, ERR_PARSE, "recording line: longer than %zu MiB, which report "
		    "cannot read (a JSON Lines line is held whole while it is parsed)",
		    INPUT_MAX_LINE >> 20);
	if (memchr(line, '\n', len) != NULL)
		return err_set(err, ERR_PARSE, "recording line: a line break inside it");
	/* then report's own line reader: whatever would stop it stops record too */
	input_pctx_init(&c, "line");
	input_parse_lines(&c, line, len, 1);
	if (c.failed) {
		const char *m = strncmp(c.err.msg, "line:1: ", 8) == 0 ? c.err.msg + 8 : c.err.msg;

		rc = err_set(err, c.err.code, "recording line: report would stop on it: %s", m);
	}
	input_pctx_cleanup(&c);
	return rc;
}
