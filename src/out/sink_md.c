/* sink_md: any row table as GitHub-flavoured Markdown, for a pull request or
 * $GITHUB_STEP_SUMMARY: a `### name` heading when there are several tables, the title as
 * a line, a header row, `---:` under numeric columns (right-aligned), `~` before an
 * estimated value, the notes as a `- ` list; the columns the table shows
 * (ROWCOL_NOT_IN_TABLE only with verbose), since a pull request is read as a screen is.
 * In a cell a pipe and a backslash are escaped, a '<' that would open a tag is &lt; (no
 * HTML from the data) and a line break is <br>, so one row stays one line; a terminal
 * control or an invalid byte is '?' (termsafe), as in the table. An @mention or an issue
 * reference from the data (a tag, a stopped reason, an image name) is put in a code span,
 * "`@octocat`", "`#123`", as GitHub's own gh-aw sanitizer does, so that a step summary or
 * a pull request comment pings nobody and links no issue; a backtick of the data is
 * escaped, so that it cannot pair with one of those. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "sink_int.h"

static bool
shown(const struct sink *s, const struct row_column *c)
{
	return s->o.verbose || !(c->flags & ROWCOL_NOT_IN_TABLE);
}

static bool
word_byte(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/* The length of the @mention or issue reference at p (0: none): "@name" or "@org/team"
 * after a non-word byte (GitHub's rule: user@example.com mentions nobody), "#123" after
 * anything (owner/repo#123 is a reference too). Wider than GitHub's names (no 39-byte
 * limit, '_' and '.' taken): a span too wide only quotes more. */
static size_t
reference_len(const unsigned char *p, unsigned char prev)
{
	size_t n = 1;

	if (*p == '#') {
		while (isdigit(p[n]))
			n++;
		return n > 1 ? n : 0;
	}
	if (*p != '@' || word_byte(prev) || !isalnum(p[1]))
		return 0;
	while (isalnum(p[n]) || p[n] == '-' || p[n] == '_')
		n++;
	if (p[n] == '/' && (isalnum(p[n + 1]) || p[n + 1] == '.' || p[n + 1] == '_' ||
			    p[n + 1] == '-'))
		for (n++; isalnum(p[n]) || p[n] == '.' || p[n] == '_' || p[n] == '-';)
			n++;
	return n;
}

/* Appends s to b as the text of one Markdown table cell (or list item). */
static int
add_escaped(struct buf *b, const char *s)
{
	unsigned char prev = '\0';
	int rc = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; prev = p[-1]) {
		size_t bad, ref;

		if ((ref = reference_len(p, prev)) > 0) {
			rc |= buf_addc(b, '`') | buf_add(b, p, ref) | buf_addc(b, '`');
			p += ref;
		} else if (*p == '|' || *p == '\\' || *p == '`') {
			rc |= buf_addc(b, '\\') | buf_addc(b, (char)*p++);
		} else if (*p == '<' && (isalpha(p[1]) || p[1] == '/' || p[1] == '!' ||
					 p[1] == '?')) {
			/* text from servers never becomes a tag, comment or processing instruction
			 * where Markdown passes HTML through (CommonMark's raw HTML starts so);
			 * "p<0.001" stays as it reads */
			rc |= buf_adds(b, "&lt;");
			p++;
		} else if (*p == '\n') {
			rc |= buf_adds(b, "<br>");
			p++;
		} else if (*p == '\r') {
			p++;   /* CR LF is one break */
		} else if (*p == '\t') {
			rc |= buf_addc(b, ' ');
			p++;
		} else if ((bad = termsafe_bad_len((const char *)p, NULL)) > 0) {
			rc |= buf_addc(b, '?');
			p += bad;
		} else {
			size_t len = utf8_len(p);

			rc |= buf_add(b, p, len);
			p += len;
		}
	}
	return rc;
}

static int
add_row(const struct sink *s, const struct row_table *t, size_t row, struct buf *b,
	char *scratch)
{
	int rc = buf_addc(b, '|');

	for (size_t c = 0; c < t->ncols; c++) {
		struct cell_value v;
		char num[64];
		const char *text;

		if (!shown(s, &t->cols[c]))
			continue;
		rowtab_cell(t, row, c, &v, scratch, SINK_SCRATCH);
		text = sink_cell_text(s, &t->cols[c], &v, SINK_STYLE_MD, num, sizeof num);
		rc |= buf_addc(b, ' ');
		if (text != NULL)
			rc |= (v.estimated ? buf_addc(b, '~') : 0) | add_escaped(b, text);
		rc |= buf_adds(b, " |");
	}
	return rc | buf_addc(b, '\n');
}

static int
add_header(const struct sink *s, const struct row_table *t, struct buf *b)
{
	int rc = buf_addc(b, '|');

	for (size_t c = 0; c < t->ncols; c++)
		rc |= !shown(s, &t->cols[c]) ? 0 : buf_addc(b, ' ') | add_escaped(b, t->cols[c].title) | buf_adds(b, " |");
	rc |= buf_adds(b, "\n|");
	for (size_t c = 0; c < t->ncols; c++)
		rc |= !shown(s, &t->cols[c]) ? 0 : buf_adds(b, sink_col_numeric(&t->cols[c]) ? "---:|" : "---|");
	return rc | buf_addc(b, '\n');
}

static int
write_one(struct sink *s, const struct row_table *t, bool heading, struct buf *b,
	  char *scratch, struct err *err)
{
	const char *name = t->name != NULL ? t->name : "rows";
	int rc = 0;

	if (heading)
		rc |= buf_adds(b, "### ") | add_escaped(b, name) | buf_adds(b, "\n\n");
	if (t->title != NULL)
		rc |= add_escaped(b, t->title) | buf_adds(b, "\n\n");
	if (t->nrows == 0)
		rc |= buf_addf(b, "(no %s)\n", name);
	else
		rc |= add_header(s, t, b);
	for (size_t r = 0; r < t->nrows && rc == 0; r++)
		rc = sink_flush(s, b, false, add_row(s, t, r, b, scratch), "markdown", err);
	if (rc != 0)
		return -1;
	if (t->nnotes > 0)
		rc |= buf_addc(b, '\n');
	for (size_t i = 0; i < t->nnotes; i++)
		rc |= buf_adds(b, "- ") | add_escaped(b, t->notes[i]) | buf_addc(b, '\n');
	return sink_flush(s, b, false, rc, "markdown", err);
}

int
sink_md_doc(struct sink *s, const struct row_table *const *tables, size_t n, struct err *err)
{
	struct buf b;
	char *scratch = xmalloc(SINK_SCRATCH);
	int rc = 0;

	buf_init(&b, BUF_MAX_DEFAULT);
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = sink_flush(s, &b, false, i ? buf_addc(&b, '\n') : 0, "markdown", err);
		if (rc == 0)
			rc = write_one(s, tables[i], n > 1, &b, scratch, err);
	}
	if (rc == 0)
		rc = sink_flush(s, &b, true, 0, "markdown", err);
	buf_cleanup(&b);
	free(scratch);
	return rc;
}
