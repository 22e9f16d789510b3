/* sink_cell: what every writer of the sink shares: a row table's cell as text, the same
 * for every writer of a style (rowtab.h says how each kind is written where), so that the
 * table, CSV and Markdown agree; and sink_flush, a writer's buffer out to the sink's FILE
 * (here, not in sink.c, which calls the writers: no writer calls back into it). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sink_int.h"

/* a writer's buffer goes out once it holds this much */
#define SINK_CHUNK (64 * 1024)

/* Seconds from the millisecond, rounded half up in integers as report's table and CSV
 * do (12.25 is "12.3", not printf's binary "12.2"): three decimals or one. */
static void
fmt_secs(double secs, bool three, char *out, size_t size)
{
	long long ms = llround(secs * 1000.0), a = ms < 0 ? -ms : ms;
	const char *sign = ms < 0 ? "-" : "";

	if (three) {
		snprintf(out, size, "%s%lld.%03lld", sign, a / 1000, a % 1000);
	} else {
		a = (a + 50) / 100;
		snprintf(out, size, "%s%lld.%lld", a == 0 ? "" : sign, a / 10, a % 10);
	}
}

bool
sink_col_numeric(const struct row_column *c)
{
	return c->kind == CELL_SECS || c->kind == CELL_COUNT || c->kind == CELL_NUMBER;
}

const char *
sink_cell_text(const struct sink *s, const struct row_column *c, const struct cell_value *v,
	       enum sink_style st, char *out, size_t size)
{
	char iso[TIMEUTIL_ISO_LEN];

	if (!v->present)
		return NULL;
	switch (c->kind) {
	case CELL_TEXT:
		return v->text;
	case CELL_SECS:
		if (!isfinite(v->num) || fabs(v->num) > 1e15)
			return NULL;
		fmt_secs(v->num, st == SINK_STYLE_CSV, out, size);
		return out;
	case CELL_NUMBER:
		if (!isfinite(v->num))
			return NULL;
		if (c->decimals < 0)   /* significant digits: a p-value of 1e-12 is not 0 */
			snprintf(out, size, "%.*g", -c->decimals, v->num);
		else
			snprintf(out, size, "%.*f", c->decimals, v->num);
		return out;
	case CELL_COUNT:
		snprintf(out, size, "%" PRId64, v->count);
		return out;
	case CELL_BOOL:
		snprintf(out, size, "%s", v->flag ? "true" : "false");
		return out;
	case CELL_TIME:
		if (v->ms == TS_NONE)
			return NULL;
		if (st == SINK_STYLE_CSV) {
			timeutil_format_as(v->ms, s->o.time_format, iso);
		} else {
			timeutil_format_iso(v->ms, iso);
			if (st == SINK_STYLE_TABLE && strlen(iso) >= 19) {
				iso[10] = ' ';   /* "2024-05-01 10:00:03", as report's table */
				iso[19] = '\0';
			}
		}
		snprintf(out, size, "%s", iso);
		return out;
	}
	return NULL;
}

int
sink_flush(struct sink *s, struct buf *b, bool all, int rc, const char *what,
	   struct err *err)
{
	if (rc != 0) {
		buf_reset(b);
		return err_set(err, ERR_IO, "%s: the output is too large", what);
	}
	if (!all && b->len < SINK_CHUNK)
		return 0;
	if (b->len > 0 && fwrite(b->data, 1, b->len, s->f) != b->len) {
		buf_reset(b);
		return err_set(err, ERR_IO, "%s: write failed: %s", what, err_strerror(errno));
	}
	buf_reset(b);
	return 0;
}
