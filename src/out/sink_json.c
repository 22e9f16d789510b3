/* sink_json: any row table as JSON, compact with one row a line as jsonout writes:
 * {"NAME":[ROW,...],"NAME_notes":[...]} for one table, each table under its name in the
 * one object for several; an empty cell is null. sink_json_row writes JSON Lines (one
 * object a line), for output that streams (watch). Strings through jsonfmt (invalid
 * UTF-8 repaired, terminal controls escaped). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ecsprof/xalloc.h"
#include "jsonfmt.h"
#include "sink_int.h"

#define PUTS(b, lit) jsonfmt_put((b), (lit), sizeof(lit) - 1)

static double
round_to(double v, int decimals)
{
	if (decimals < 0) {   /* significant digits, as sink_cell writes them */
		char d[32];

		snprintf(d, sizeof d, "%.*e", -decimals - 1, v);
		return strtod(d, NULL);
	}
	double f = pow(10.0, decimals < 0 ? 0 : decimals > 9 ? 9 : decimals);

	return round(v * f) / f;
}

static int
add_value(const struct row_column *c, const struct cell_value *v, struct buf *b)
{
	char iso[TIMEUTIL_ISO_LEN];

	if (!v->present)
		return PUTS(b, "null");
	switch (c->kind) {
	case CELL_TEXT:
		return jsonfmt_string(b, v->text);
	case CELL_SECS:
		return isfinite(v->num) ? jsonfmt_real(b, round_to(v->num, 3)) : PUTS(b, "null");
	case CELL_NUMBER:
		return isfinite(v->num) ? jsonfmt_real(b, round_to(v->num, c->decimals))
					: PUTS(b, "null");
	case CELL_COUNT:
		return jsonfmt_int(b, v->count);
	case CELL_BOOL:
		return v->flag ? PUTS(b, "true") : PUTS(b, "false");
	case CELL_TIME:
		if (v->ms == TS_NONE)
			return PUTS(b, "null");
		timeutil_format_iso(v->ms, iso);
		return jsonfmt_string(b, iso);
	}
	return PUTS(b, "null");
}

static int
add_row(const struct row_table *t, size_t row, struct buf *b, char *scratch)
{
	int rc = jsonfmt_putc(b, '{');

	for (size_t c = 0; c < t->ncols; c++) {
		struct cell_value v;

		rowtab_cell(t, row, c, &v, scratch, SINK_SCRATCH);
		rc |= (c ? jsonfmt_putc(b, ',') : 0) | jsonfmt_key(b, t->cols[c].name) |
		      add_value(&t->cols[c], &v, b);
	}
	return rc | jsonfmt_putc(b, '}');
}

static int
add_table(struct sink *s, const struct row_table *t, struct buf *b, char *scratch,
	  struct err *err)
{
	const char *name = t->name != NULL ? t->name : "rows";
	int rc = jsonfmt_key(b, name) | jsonfmt_putc(b, '[');

	for (size_t r = 0; r < t->nrows && rc == 0; r++)
		rc = sink_flush(s, b, false, (r ? PUTS(b, ",\n") : jsonfmt_putc(b, '\n')) |
				add_row(t, r, b, scratch), "json", err);
	if (rc != 0)
		return -1;
	rc |= t->nrows ? PUTS(b, "\n]") : jsonfmt_putc(b, ']');
	if (t->nnotes > 0) {
		char key[256];

		snprintf(key, sizeof key, "%s_notes", name);
		rc |= jsonfmt_putc(b, ',') | jsonfmt_key(b, key) | jsonfmt_putc(b, '[');
		for (size_t i = 0; i < t->nnotes; i++)
			rc |= (i ? jsonfmt_putc(b, ',') : 0) | jsonfmt_string(b, t->notes[i]);
		rc |= jsonfmt_putc(b, ']');
	}
	return sink_flush(s, b, false, rc, "json", err);
}

int
sink_json_doc(struct sink *s, const struct row_table *const *tables, size_t n,
	      struct err *err)
{
	struct buf b;
	char *scratch = xmalloc(SINK_SCRATCH);
	int rc;

	buf_init(&b, BUF_MAX_DEFAULT);
	rc = jsonfmt_putc(&b, '{');
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = sink_flush(s, &b, false, i ? PUTS(&b, ",\n") : 0, "json", err);
		if (rc == 0)
			rc = add_table(s, tables[i], &b, scratch, err);
	}
	if (rc == 0)
		rc = sink_flush(s, &b, true, PUTS(&b, "}\n"), "json", err);
	buf_cleanup(&b);
	free(scratch);
	return rc;
}

int
sink_json_row(struct sink *s, const struct row_table *t, size_t row, struct err *err)
{
	struct buf b;
	char *scratch = xmalloc(SINK_SCRATCH);
	int rc;

	buf_init(&b, BUF_MAX_DEFAULT);
	rc = sink_flush(s, &b, true, add_row(t, row, &b, scratch) | jsonfmt_putc(&b, '\n'),
			"json", err);
	buf_cleanup(&b);
	free(scratch);
	return rc;
}
