/* csv: RFC 4180 writers. Rows are built in a capped buf and written whole, so a row that
 * cannot be built (cap reached) is never half written. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/csv.h"
#include "ecsprof/phase.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"

/* a row never needs more; a bigger one means broken input, not a real task */
#define CSV_ROW_MAX ((size_t)16 << 20)
#define CSV_CELL_START 4096

static bool
needs_quotes(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case ',': case '"': case '\r': case '\n':
		/* Python's str.splitlines() and some editors break lines on these too */
		case '\v': case '\f': case 0x1c: case 0x1d: case 0x1e:
			return true;
		case 0xc2:
			if (p[1] == 0x85)   /* U+0085 NEL */
				return true;
			break;
		case 0xe2:
			if (p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))   /* U+2028/9 */
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/* Tabs and line breaks (those needs_quotes() quotes, U+0085 among them) are data: a
 * stoppedReason may hold several lines, and they survive, quoted. Every other control
 * (C0 such as ESC, BEL and backspace, DEL, C1), bidi control and invalid byte becomes '?':
 * a CSV is often catted, and those would drive or reorder the terminal (man page, CSV). */
#define CSV_KEEP "\t\n\r\v\f\x1c\x1d\x1e"

static size_t
csv_bad_len(const unsigned char *p)
{
	if (p[0] == 0xc2 && p[1] == 0x85)
		return 0;
	return termsafe_bad_len((const char *)p, CSV_KEEP);
}

int
csv_add_cell(struct buf *b, const char *cell, bool is_text)
{
	bool neutralise = is_text && cell[0] != '\0' && strchr("=+-@\t\r", cell[0]) != NULL;
	bool quote = needs_quotes(cell);

	if ((quote && buf_addc(b, '"') != 0) || (neutralise && buf_addc(b, '\'') != 0))
		return -1;
	for (const unsigned char *p = (const unsigned char *)cell; *p != '\0';) {
		size_t bad = csv_bad_len(p);

		if (bad > 0) {
			if (buf_addc(b, '?') != 0)
				return -1;
			p += bad;
			continue;
		}
		/* bad == 0: a whole, valid UTF-8 sequence */
		size_t len = utf8_len(p);

		if (quote && *p == '"' && buf_addc(b, '"') != 0)
			return -1;
		if (buf_add(b, p, len) != 0)
			return -1;
		p += len;
	}
	return quote ? buf_addc(b, '"') : 0;
}

static int
write_row(FILE *f, struct buf *row, struct err *err)
{
	if (buf_addc(row, '\n') != 0)
		return err_set(err, ERR_IO, "csv: a row is larger than %zu bytes", row->max);
	if (fwrite(row->data, 1, row->len, f) != row->len)
		return err_set(err, ERR_IO, "csv: write failed: %s", err_strerror(errno));
	buf_reset(row);
	return 0;
}

/* report_cell() cuts at the buffer size; grow until the value fits so that a long
 * stoppedReason is never silently truncated */
static const char *
cell_text(const struct report *r, const struct report_row *row, enum col_id c, char **cell,
	  size_t *size)
{
	for (;;) {
		report_cell(r, row, c, *cell, *size);
		if (strlen(*cell) + 1 < *size || *size >= CSV_ROW_MAX)
			return *cell;
		*size *= 2;
		*cell = xrealloc(*cell, *size);
	}
}

int
csv_write_tasks(FILE *f, const struct report *r, struct err *err)
{
	return csv_write_tasks_as(f, r, TIME_FORMAT_ISO, err);
}

int
csv_write_tasks_as(FILE *f, const struct report *r, enum time_format tf, struct err *err)
{
	struct buf row;
	size_t size = CSV_CELL_START;
	char *cell = xmalloc(size);
	int rc = -1;

	buf_init(&row, CSV_ROW_MAX);
	for (int c = 0; c < COL_COUNT; c++)
		if ((c > 0 && buf_addc(&row, ',') != 0) ||
		    csv_add_cell(&row, report_columns[c].name, false) != 0)
			goto overflow;
	if (write_row(f, &row, err) != 0)
		goto out;
	for (size_t i = 0; i < r->nrows; i++) {
		for (int c = 0; c < COL_COUNT; c++) {
			char when[TIMEUTIL_ISO_LEN];
			const char *v = when;

			if (report_columns[c].kind == COL_TIME)
				timeutil_format_as(report_cell_ms(&r->rows[i], (enum col_id)c), tf, when);
			else
				v = cell_text(r, &r->rows[i], (enum col_id)c, &cell, &size);

			if ((c > 0 && buf_addc(&row, ',') != 0) ||
			    csv_add_cell(&row, v, report_columns[c].kind == COL_TEXT) != 0)
				goto overflow;
		}
		if (write_row(f, &row, err) != 0)
			goto out;
	}
	rc = err_check_write(f, 0, "csv", err);
	goto out;
overflow:
	err_set(err, ERR_IO, "csv: a row is larger than %zu bytes", row.max);
out:
	free(cell);
	buf_cleanup(&row);
	return rc;
}

/* The startup cost per 1,000 starts of the group and of the baseline (so a spreadsheet
 * takes the difference; a negative number would be read as a formula by the contract's
 * rules for columns that are not seconds). */
static const char *const summary_columns[] = {
	"group", "phase", "n", "min_s", "p50_s", "p90_s", "p99_s", "max_s", "mean_s",
	"baseline", "p50_delta_s", "p50_ratio", "p90_delta_s", "p90_ratio", "p_value",
	"pull_share", "startup_cost_per_1000_usd", "baseline_startup_cost_per_1000_usd",
	"startup_cost_unpriced_n", "startup_cost_unpriced", "diagnosis_counts",
};

/* ",12.345" (fixed) or ",0.0001234" (significant digits); "," when not a number. A
 * rounding "-0.000" would read as a direction, so it prints as 0. */
static int
add_num(struct buf *b, double v, bool sig, int prec)
{
	if (buf_addc(b, ',') != 0)
		return -1;
	if (!isfinite(v))
		return 0;
	if (sig)
		return buf_addf(b, "%.*g", prec, v);
	if (fabs(v) < 0.5 * pow(10, -prec))
		v = 0.0;
	return buf_addf(b, "%.*f", prec, v);
}

static int
summary_row(struct buf *b, const struct report *r, size_t gi, enum phase_id p)
{
	const struct report_group *g = &r->groups[gi];
	const struct stats_summary *s = &g->phase[p];
	const struct phase_compare *cmp = &g->cmp[p];
	double none = NAN;
	bool have = s->n > 0;
	bool compared = gi != r->baseline && cmp->valid;
	char list[1024];

	if (csv_add_cell(b, g->name, true) != 0 || buf_addc(b, ',') != 0 ||
	    csv_add_cell(b, phase_defs[p].name, true) != 0 || buf_addf(b, ",%zu", s->n) != 0)
		return -1;
	if (add_num(b, have ? s->min : none, false, 3) != 0 ||
	    add_num(b, have ? s->p50 : none, false, 3) != 0 ||
	    add_num(b, have ? s->p90 : none, false, 3) != 0 ||
	    add_num(b, have ? s->p99 : none, false, 3) != 0 ||
	    add_num(b, have ? s->max : none, false, 3) != 0 ||
	    add_num(b, have ? s->mean : none, false, 3) != 0)
		return -1;
	if (buf_addc(b, ',') != 0 ||
	    (compared && csv_add_cell(b, r->groups[r->baseline].name, true) != 0))
		return -1;
	if (add_num(b, compared ? cmp->p50_delta_s : none, false, 3) != 0 ||
	    add_num(b, compared ? cmp->p50_ratio : none, false, 3) != 0 ||
	    add_num(b, compared ? cmp->p90_delta_s : none, false, 3) != 0 ||
	    add_num(b, compared ? cmp->p90_ratio : none, false, 3) != 0 ||
	    add_num(b, compared ? cmp->p_value : none, true, 4) != 0)
		return -1;
	if (add_num(b, g->pull_share, false, 3) != 0 ||
	    add_num(b, g->cost_mean_usd * 1000.0, false, 6) != 0 ||
	    add_num(b, gi != r->baseline && g->cost_n > 0 ?
		    r->groups[r->baseline].cost_mean_usd * 1000.0 : none, false, 6) != 0)
		return -1;
	/* the Fargate starts without a price, and the --prices lines they need */
	if (buf_addf(b, ",%zu,", g->cost_unpriced) != 0 ||
	    csv_add_cell(b, report_unpriced_list(g, list, sizeof list), true) != 0)
		return -1;
	/* the group's stopped tasks per known cause */
	return buf_addc(b, ',') != 0 ||
	       csv_add_cell(b, report_group_diagnosis_list(r, gi, list, sizeof list), true) != 0 ?
	       -1 : 0;
}

int
csv_write_summary(FILE *f, const struct report *r, struct err *err)
{
	struct buf row;
	int rc = -1;

	buf_init(&row, CSV_ROW_MAX);
	for (size_t c = 0; c < sizeof summary_columns / sizeof summary_columns[0]; c++)
		if ((c > 0 && buf_addc(&row, ',') != 0) || buf_adds(&row, summary_columns[c]) != 0)
			goto overflow;
	if (write_row(f, &row, err) != 0)
		goto out;
	for (size_t g = 0; g < r->ngroups; g++) {
		for (int p = 0; p < PHASE_COUNT; p++) {
			/* the contract's summary has five phases: ready and serving are per-task
			 * columns here (ready_s, serving_s) and phases in the other formats */
			if (phase_is_extra((enum phase_id)p))
				continue;
			if (summary_row(&row, r, g, (enum phase_id)p) != 0)
				goto overflow;
			if (write_row(f, &row, err) != 0)
				goto out;
		}
	}
	rc = err_check_write(f, 0, "csv", err);
	goto out;
overflow:
	err_set(err, ERR_IO, "csv: a row is larger than %zu bytes", row.max);
out:
	buf_cleanup(&row);
	return rc;
}
