/* sink_table: any row table as aligned plain text for a terminal, a pipe or a log:
 * a column as wide as its widest cell, numbers right-aligned, `~` before an estimated
 * value, the last column wrapped at the width when it is marked ROWCOL_WRAP, and the
 * notes wrapped below. Text from servers and files goes through termsafe: a control or
 * invalid byte is '?', a line break or tab a space, so one cell is one line. */
#include <stdlib.h>
#include <string.h>

#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "sink_int.h"

/* the narrowest a wrapped column gets, however wide the others are */
#define WRAP_MIN 20

/* Appends s to b, made one line of text safe for a terminal. */
static int
add_clean(struct buf *b, const char *s)
{
	int rc = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		size_t bad = termsafe_bad_len((const char *)p, NULL);

		if (*p == '\n' || *p == '\t' || *p == '\r') {
			rc |= buf_addc(b, ' ');
			p++;
		} else if (bad > 0) {
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

struct tlayout {
	size_t *cols;     /* the table's columns shown, in order */
	int *w;           /* their widths */
	size_t n;
	int wrap_at;      /* the wrapped column's start, -1: none */
};

/* cell (row, col) as it is shown, into cell: "" when empty */
static int
shown(const struct sink *s, const struct row_table *t, size_t row, size_t col,
      struct buf *cell, char *scratch)
{
	struct cell_value v;
	char num[64];
	const char *text;
	int rc = 0;

	buf_reset(cell);
	rowtab_cell(t, row, col, &v, scratch, SINK_SCRATCH);
	text = sink_cell_text(s, &t->cols[col], &v, SINK_STYLE_TABLE, num, sizeof num);
	if (text == NULL)
		return 0;
	if (v.estimated)
		rc |= buf_addc(cell, '~');
	return rc | add_clean(cell, text);
}

static void
layout(const struct sink *s, const struct row_table *t, struct tlayout *l, struct buf *cell,
       char *scratch)
{
	int used = 0;

	l->cols = xcalloc(t->ncols ? t->ncols : 1, sizeof *l->cols);
	l->w = xcalloc(t->ncols ? t->ncols : 1, sizeof *l->w);
	l->n = 0;
	l->wrap_at = -1;
	for (size_t c = 0; c < t->ncols; c++)
		if (s->o.verbose || !(t->cols[c].flags & ROWCOL_NOT_IN_TABLE))
			l->cols[l->n++] = c;
	for (size_t i = 0; i < l->n; i++) {
		const char *title = t->cols[l->cols[i]].title;

		l->w[i] = utf8_cols(title, strlen(title));
		for (size_t r = 0; r < t->nrows; r++) {
			shown(s, t, r, l->cols[i], cell, scratch);
			int n = utf8_cols(buf_str(cell), cell->len);

			if (n > l->w[i])
				l->w[i] = n;
		}
	}
	for (size_t i = 0; i + 1 < l->n; i++)
		used += l->w[i] + 2;
	/* only the last column wraps: its lines continue under it */
	if (l->n > 0 && (t->cols[l->cols[l->n - 1]].flags & ROWCOL_WRAP) &&
	    used + l->w[l->n - 1] > s->o.width) {
		l->wrap_at = used;
		l->w[l->n - 1] = s->o.width - used < WRAP_MIN ? WRAP_MIN : s->o.width - used;
	}
}

static int
pad(struct buf *b, int n)
{
	int rc = 0;

	for (int i = 0; i < n; i++)
		rc |= buf_addc(b, ' ');
	return rc;
}

/* text in a column of width w: numbers to the right, the last column not padded */
static int
put_col(struct buf *b, const char *text, int w, bool right, bool last)
{
	int n = utf8_cols(text, strlen(text)), rc = 0;

	if (right)
		rc |= pad(b, w - n);
	rc |= buf_adds(b, text);
	if (!right && !last)
		rc |= pad(b, w - n);
	return rc;
}

/* the wrapped column's text: its first line where the column is, the others under it */
static int
put_wrapped(struct buf *b, const char *text, const struct tlayout *l)
{
	const char *p = text;
	int rc = 0;
	bool first = true;

	while (*p != '\0') {
		size_t next, n = utf8_line_break(p, l->w[l->n - 1], false, NULL, &next);

		if (!first)
			rc |= buf_addc(b, '\n') | pad(b, l->wrap_at);
		rc |= buf_add(b, p, n);
		p += next;
		first = false;
	}
	return rc;
}

static int
put_row(const struct sink *s, const struct row_table *t, size_t row, const struct tlayout *l,
	struct buf *b, struct buf *cell, char *scratch)
{
	size_t end = b->len;
	int rc = 0;

	for (size_t i = 0; i < l->n; i++) {
		bool last = i + 1 == l->n;

		rc |= i ? buf_adds(b, "  ") : 0;
		rc |= shown(s, t, row, l->cols[i], cell, scratch);
		if (last && l->wrap_at >= 0)
			rc |= put_wrapped(b, buf_str(cell), l);
		else
			rc |= put_col(b, buf_str(cell), l->w[i], sink_col_numeric(&t->cols[l->cols[i]]),
				      last);
	}
	/* a row whose last cells are empty ends without spaces */
	while (b->len > end && b->data[b->len - 1] == ' ')
		b->data[--b->len] = '\0';
	return rc | buf_addc(b, '\n');
}

/* a note wrapped at the width, its continuation lines indented by 2 */
static int
put_note(const struct sink *s, struct buf *b, const char *note, struct buf *cell)
{
	const char *p;
	int indent = 0, rc = 0;

	buf_reset(cell);
	rc |= add_clean(cell, note);
	p = buf_str(cell);
	while (*p != '\0') {
		size_t next, n = utf8_line_break(p, s->o.width - indent, false,
						 utf8_break_keeps_figures, &next);

		rc |= pad(b, indent) | buf_add(b, p, n) | buf_addc(b, '\n');
		p += next;
		indent = 2;
	}
	return rc;
}

static int
write_one(struct sink *s, const struct row_table *t, struct buf *b, struct buf *cell,
	  char *scratch, struct err *err)
{
	struct tlayout l;
	int rc = 0;

	if (t->title != NULL) {
		rc |= add_clean(b, t->title) | buf_addc(b, '\n');
	}
	if (t->nrows == 0) {
		rc |= buf_addf(b, "(no %s)\n", t->name != NULL ? t->name : "rows");
	} else {
		layout(s, t, &l, cell, scratch);
		for (size_t i = 0; i < l.n; i++) {
			const struct row_column *c = &t->cols[l.cols[i]];

			rc |= (i ? buf_adds(b, "  ") : 0) |
			      put_col(b, c->title, l.w[i], sink_col_numeric(c), i + 1 == l.n);
		}
		rc |= buf_addc(b, '\n');
		for (size_t r = 0; r < t->nrows && rc == 0; r++) {
			rc |= put_row(s, t, r, &l, b, cell, scratch);
			if (sink_flush(s, b, false, rc, "table", err) != 0) {
				rc = -1;
				break;
			}
		}
		free(l.cols);
		free(l.w);
		if (rc != 0)
			return -1;
	}
	if (t->nnotes > 0)
		rc |= buf_addc(b, '\n');
	for (size_t i = 0; i < t->nnotes; i++)
		rc |= put_note(s, b, t->notes[i], cell);
	return sink_flush(s, b, false, rc, "table", err);
}

int
sink_table_doc(struct sink *s, const struct row_table *const *tables, size_t n,
	       struct err *err)
{
	struct buf b, cell;
	char *scratch = xmalloc(SINK_SCRATCH);
	int rc = 0;

	buf_init(&b, BUF_MAX_DEFAULT);
	buf_init(&cell, BUF_MAX_DEFAULT);
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (i > 0 && buf_addc(&b, '\n') != 0)
			rc = -1;
		if (rc == 0)
			rc = write_one(s, tables[i], &b, &cell, scratch, err);
	}
	if (rc == 0)
		rc = sink_flush(s, &b, true, 0, "table", err);
	buf_cleanup(&b);
	buf_cleanup(&cell);
	free(scratch);
	return rc;
}
