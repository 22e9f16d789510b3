/* check_out: `ecsprof check`'s table: a heading per severity, then per finding its rule
 * and path on one line and its message and fix wrapped below, indented; text from the
 * task definition goes through termsafe, as every table's does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/check_out.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"

#define INDENT 4

/* text at indent, wrapped at width, its continuation lines at indent + 2; prefix before
 * its first line ("fix: ") */
static void
put_wrapped(struct buf *b, int indent, int width, const char *prefix, const char *text)
{
	int next_indent = indent + 2;

	char *clean = xasprintf("%s%s", prefix, text);
	const char *p = clean;

	termsafe_scrub(clean, NULL);
	while (*p != '\0') {
		size_t next, n = utf8_line_break(p, width - indent, false,
						 utf8_break_keeps_figures, &next);

		buf_addf(b, "%*s%.*s\n", indent, "", (int)n, p);
		p += next;
		indent = next_indent;
	}
	free(clean);
}

int
check_out_table(FILE *f, void *ctx, struct err *err)
{
	static const char *const heads[] = { "ERRORS", "WARNINGS", "INFO" };
	const struct check_out *o = ctx;
	const struct check_findings *fs = o->view->f;
	int width = o->width > 40 ? o->width : 40;
	struct buf b;
	int rc;

	buf_init(&b, BUF_MAX_DEFAULT);
	if (o->title != NULL)
		put_wrapped(&b, 0, width, "", o->title);
	for (int s = CHECK_ERROR; s <= CHECK_INFO; s++) {
		size_t n = 0;

		/* the price is the closing line below, not a finding to read twice */
		for (size_t i = 0; i < fs->n; i++)
			n += (int)fs->v[i].severity == s && strcmp(fs->v[i].rule, "price") != 0;
		if (n == 0)
			continue;
		buf_addf(&b, "\n%s (%zu)\n", heads[s], n);
		for (size_t i = 0; i < fs->n; i++) {
			const struct check_finding *x = &fs->v[i];
			char *line;

			if ((int)x->severity != s || strcmp(x->rule, "price") == 0)
				continue;
			line = xasprintf("%s  %s", x->rule, x->path);
			put_wrapped(&b, 2, width, "", line);
			free(line);
			put_wrapped(&b, INDENT, width, "", x->message);
			if (x->fix[0] != '\0')
				put_wrapped(&b, INDENT, width, "fix: ", x->fix);
		}
	}
	buf_addc(&b, '\n');
	for (size_t i = 0; i < o->view->table.nnotes; i++)
		put_wrapped(&b, 0, width, "", o->view->table.notes[i]);
	rc = fwrite(b.data, 1, b.len, f) == b.len ? 0 : -1;
	buf_cleanup(&b);
	if (rc != 0)
		return err_set(err, ERR_IO, "check: write failed");
	return 0;
}
