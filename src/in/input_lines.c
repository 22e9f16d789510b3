/* input_lines: bytes to results: JSON Lines a line at a time (taskscan.c for task
 * lines, fastjson.c or jansson for the others, input_stream.c for a long line that is a
 * whole answer), a whole document, and values written back to back; each value goes to
 * the shape dispatch (input.c). Bytes come from input_read.c. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/xalloc.h"
#include "fastjson.h"
#include "input_int.h"
#include "input_stream.h"
#include "taskscan.h"

/* A task state change event or a recording's task line read by taskscan.c straight into a
 * task: true when it took the line, false when the line is for jansson. */
static bool
scan_line(struct pctx *c, const char *p, size_t n, char *buf, long line)
{
	struct task t;
	enum origin origin;

	task_init_pool(&t, input_pctx_pool(c));
	if (taskscan_line(p, n, buf, &t, &origin) != 0)
		return false;
	c->line = line;
	c->scanned++;
	input_emit_task(c, &t, origin);
	return true;
}

/* A long line that is a DescribeTasks answer or an array (jq -c's), element by element
 * (input_stream.c) as a whole document is: true when it was read so. */
static bool
stream_line(struct pctx *c, const char *p, size_t n, long line)
{
	struct input_stream s;

	if (c->stream_bytes == 0 || n < c->stream_bytes || c->dom_only ||
	    input_stream_open(&s, p, n) != 0)
		return false;
	c->line = line;
	while (input_stream_next(&s, c, SIZE_MAX))
		;
	input_stream_close(&s);
	return true;
}

/* Task events and recorded tasks are read without a DOM (taskscan.c); other plain lines skip
 * jansson's lexer (fastjson.c); on any other, json_loadb() starts again, so jansson words
 * every error. */
void
input_parse_lines(struct pctx *c, const char *data, size_t len, long first_line)
{
	const char *p = data, *end = data + len;
	long line = first_line;
	char *buf = NULL;   /* scratch for taskscan and fastjson: the longest line's size */
	size_t bufcap = 0;

	while (p < end && !c->failed) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (input_blank(p, n)) {
			line++;
			p += n + 1;
			continue;
		}
		if (stream_line(c, p, n, line)) {
			/* a document on one line, read element by element: no scratch needed */
			line++;
			p += n + 1;
			continue;
		}
		if (bufcap < n + 1) {
			free(buf);
			bufcap = n + 1 > 4096 ? n + 1 : 4096;
			buf = xmalloc(bufcap);
		}
		if (!c->dom_only && scan_line(c, p, n, buf, line)) {
			/* a task read without a DOM (taskscan.c) */
		} else {
			json_error_t e;
			size_t skip = input_log_prefix(p, n);   /* CloudWatch Logs export */
			json_t *root = fastjson_load(p + skip, n - skip, buf);

			c->line = line;
			if (root == NULL)
				root = input_load(c, p + skip, n - skip, 0, line, &e);
			if (root == NULL) {
				if (input_parse_concat(c, p + skip, n - skip, line) == 0) {
					if (c->failed)
						break;
					line++;
					p += n + 1;
					continue;
				}
				input_json_fail_text(c, &e, line, p + skip, n - skip);
				if (input_text_hint(p, n) != NULL)
					err_set(&c->err, ERR_PARSE, "%s:%ld: not a known input: %s", c->name,
					    line, input_text_hint(p, n));
				break;
			}
			input_dispatch(c, root);
			json_decref(root);
		}
		line++;
		p += n + 1;
	}
	free(buf);
}

void
input_parse_doc(struct pctx *c, const char *data, size_t len)
{
	json_error_t e;
	json_t *root;

	c->line = 0;
	root = input_load(c, data, len, 0, 0, &e);
	if (root == NULL) {
		if (input_parse_concat(c, data, len, 1) == 0)
			return;   /* pretty-printed values one after another */
		input_json_fail_text(c, &e, 0, data, len);
		return;
	}
	input_dispatch(c, root);
	json_decref(root);
}

/* ---- values back to back: Firehose writes records without a separator ------------- */

int
input_parse_concat(struct pctx *c, const char *p, size_t n, long line)
{
	size_t pos = 0, values = 0;

	while (pos < n && !c->failed) {
		json_error_t e;
		json_t *root;

		while (pos < n && strchr(" \t\r\n", p[pos]) != NULL) {
			line += p[pos] == '\n';
			pos++;
		}
		if (pos >= n)
			break;
		c->line = line;
		root = input_load(c, p + pos, n - pos, JSON_DISABLE_EOF_CHECK, line, &e);
		if (root == NULL) {
			if (values == 0)
				return -1;   /* not values back to back: the caller words the error */
			c->line = line;
			input_json_fail(c, &e, line);
			return 0;
		}
		c->line = line;
		input_dispatch(c, root);
		json_decref(root);
		for (size_t i = pos; i < pos + (size_t)e.position && i < n; i++)
			line += p[i] == '\n';
		pos += (size_t)e.position;
		values++;
	}
	return values > 1 ? 0 : -1;
}
