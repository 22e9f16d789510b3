/* csv: RFC 4180 writers. Rows are built in a capped buf and written whole, so a row that
 * cannot be built (cap reached) is never half written. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
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
/* rows written at once */
#define CSV_BATCH ((size_t)256 << 10)

/* What each byte is to csv_add_cell(): printable ASCII that is copied as it is (tab among
 * it), the line breaks and separators that force quotes (a quote is also doubled), the
 * controls that become '?' (C0 other than tab and the breaks, DEL), and the lead bytes
 * of multi-byte sequences, looked at whole. Tabs and line breaks are data: a stoppedReason
 * may hold several lines, and they survive, quoted (Python's str.splitlines() and some
 * editors break lines on VT, FF, FS/GS/RS, U+0085, U+2028 and U+2029 too). Every other
 * control (C0 such as ESC, BEL and backspace, DEL, C1), bidi control (termsafe.h) and
 * invalid byte becomes '?': a CSV is often catted, and those would drive or reorder the
 * terminal (man page, CSV). */
enum csv_byte { CB_PLAIN, CB_BREAK, CB_DQUOTE, CB_CONTROL, CB_HIGH, CB_END };

#define P CB_PLAIN
#define B CB_BREAK
#define Q CB_DQUOTE
#define C CB_CONTROL
#define H CB_HIGH
#define E CB_END
static const unsigned char csv_bytes[256] = {
	E, C, C, C, C, C, C, C, C, P, B, B, B, B, C, C,   /* 00 */
	C, C, C, C, C, C, C, C, C, C, C, C, B, B, B, C,   /* 10 */
	P, P, Q, P, P, P, P, P, P, P, P, P, B, P, P, P,   /* 20 */
	P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,   /* 30 */
	P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,   /* 40 */
	P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,   /* 50 */
	P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,   /* 60 */
	P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, C,   /* 70 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* 80 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* 90 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* a0 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* b0 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* c0 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* d0 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* e0 */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,   /* f0 */
};
#undef P
#undef B
#undef Q
#undef C
#undef H
#undef E

/* 8 bytes at once: true when none is a control, DEL, a high byte, ',' or '"' (each test is
 * exact about whether some byte matches, which is all that is asked) */
static bool
csv_plain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t ctl = (x - ones * 0x20) & ~x;           /* some byte < 0x20 */
	uint64_t del = (x + ones) | x;                   /* some byte >= 0x7f */
	uint64_t comma = x ^ (ones * ','), dq = x ^ (ones * '"');

	comma = (comma - ones) & ~comma;                 /* some byte == ',' */
	dq = (dq - ones) & ~dq;                          /* some byte == '"' */
	return ((ctl | del | comma | dq) & highs) == 0;
}

/* The sequence at p (a lead byte >= 0x80): its length, and whether it becomes '?' (C1,
 * bidi control, invalid) or forces quotes (U+0085, U+2028, U+2029). */
static size_t
csv_high(const unsigned char *p, bool *bad, bool *brk)
{
	size_t len = utf8_len(p);

	*bad = *brk = false;
	if (len == 0) {
		*bad = true;
		return 1;
	}
	if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
		if (p[1] == 0x85)
			*brk = true;     /* NEL: a line break, kept */
		else
			*bad = true;     /* C1 */
		return 2;
	}
	if (len == 3 && p[0] == 0xe2) {
		if (p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
			*brk = true;
		else if (termsafe_bad_len((const char *)p, NULL) != 0)
			*bad = true;     /* bidi */
	}
	return len;
}

/* Writes the cell at o (room for 2 n + 3 bytes: quotes, apostrophe, every byte doubled) and
 * returns the end; with quote false, returns NULL as soon as the cell turns out to need
 * quotes, so the caller starts again with quote true. */
static char *
csv_cell_into(char *o, const unsigned char *s, size_t n, bool neutralise, bool quote)
{
	const unsigned char *p = s, *end = s + n;

	if (quote)
		*o++ = '"';
	if (neutralise)
		*o++ = '\'';
	for (;;) {
		while (end - p >= 8) {
			uint64_t x;

			memcpy(&x, p, 8);
			if (!csv_plain8(x))
				break;
			memcpy(o, p, 8);
			o += 8;
			p += 8;
		}
		while (csv_bytes[*p] == CB_PLAIN)
			*o++ = (char)*p++;
		switch (csv_bytes[*p]) {
		case CB_END:
			if (quote)
				*o++ = '"';
			return o;
		case CB_DQUOTE:
			if (!quote)
				return NULL;
			*o++ = '"';
			*o++ = (char)*p++;
			break;
		case CB_BREAK:
			if (!quote)
				return NULL;
			*o++ = (char)*p++;
			break;
		case CB_CONTROL:
			*o++ = '?';
			p++;
			break;
		default: {   /* CB_HIGH */
			bool bad, brk;
			size_t len = csv_high(p, &bad, &brk);

			if (brk && !quote)
				return NULL;
			if (bad) {
				*o++ = '?';
			} else {
				memcpy(o, p, len);
				o += len;
			}
			p += len;
			break;
		}
		}
	}
}

/* a text cell starting so is a formula to a spreadsheet (csv.h) */
static bool
csv_formula_lead(char c)
{
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

/* csv_add_cell() of the n bytes at cell (cell[n] is its NUL) */
static int
csv_add_cell_n(struct buf *b, const char *cell, size_t n, bool is_text)
{
	const unsigned char *s = (const unsigned char *)cell;
	bool neutralise = is_text && csv_formula_lead(cell[0]);
	char *o, *tmp;
	int rc;

	if (n > (SIZE_MAX - 3) / 2)
		return -1;
	if (buf_reserve(b, 2 * n + 3) == 0) {
		o = csv_cell_into(b->data + b->len, s, n, neutralise, false);
		if (o == NULL)
			o = csv_cell_into(b->data + b->len, s, n, neutralise, true);
		b->len = (size_t)(o - b->data);
		b->data[b->len] = '\0';
		return 0;
	}
	/* the worst case passes the cap, the cell itself may not: build it aside */
	tmp = xmalloc(2 * n + 3);
	o = csv_cell_into(tmp, s, n, neutralise, false);
	if (o == NULL)
		o = csv_cell_into(tmp, s, n, neutralise, true);
	rc = buf_add(b, tmp, (size_t)(o - tmp));
	free(tmp);
	return rc;
}

int
csv_add_cell(struct buf *b, const char *cell, bool is_text)
{
	return csv_add_cell_n(b, cell, strlen(cell), is_text);
}

/* The row appended with one reservation of its worst case (a text cell's is 2 n + 3, a
 * raw cell's its length, plus the commas and the newline); -1 (b unchanged) when that
 * does not fit under the cap. */
static int
csv_row_fast(struct buf *b, const struct report_cells *cells)
{
	size_t need = COL_COUNT;
	char *o;

	for (int c = 0; c < COL_COUNT; c++) {
		size_t n = cells->len[c];

		if (n > CSV_ROW_MAX)
			return -1;
		need += cells->raw[c] ? n : 2 * n + 3;
	}
	if (buf_reserve(b, need) != 0)
		return -1;
	o = b->data + b->len;
	for (int c = 0; c < COL_COUNT; c++) {
		const char *v = cells->text[c];
		size_t n = cells->len[c];

		if (c > 0)
			*o++ = ',';
		if (cells->raw[c]) {
			memcpy(o, v, n);
			o += n;
			continue;
		}
		bool neutralise = csv_formula_lead(v[0]);
		char *e = csv_cell_into(o, (const unsigned char *)v, n, neutralise, false);

		o = e != NULL ? e : csv_cell_into(o, (const unsigned char *)v, n, neutralise, true);
	}
	*o++ = '\n';
	b->len = (size_t)(o - b->data);
	b->data[b->len] = '\0';
	return 0;
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

static int
write_out(FILE *f, struct buf *b, size_t len, struct err *err)
{
	if (fwrite(b->data, 1, len, f) != len)
		return err_set(err, ERR_IO, "csv: write failed: %s", err_strerror(errno));
	buf_reset(b);
	return 0;
}

int
csv_write_tasks(FILE *f, const struct report *r, struct err *err)
{
	return csv_write_tasks_as(f, r, TIME_FORMAT_ISO, err);
}

int
csv_write_tasks_as(FILE *f, const struct report *r, enum time_format tf, struct err *err)
{
	struct report_cells *cells = xmalloc(sizeof *cells);
	struct buf out;
	size_t start = 0;
	int rc = -1;

	/* whole rows are gathered into out and written CSV_BATCH at a time; a row is
	 * complete before it is written, so one past CSV_ROW_MAX is never half written */
	buf_init(&out, CSV_ROW_MAX + CSV_BATCH);
	for (int c = 0; c < COL_COUNT; c++)
		if ((c > 0 && buf_addc(&out, ',') != 0) ||
		    csv_add_cell(&out, report_columns[c].name, false) != 0)
			goto overflow;
	if (buf_addc(&out, '\n') != 0)
		goto overflow;
	for (size_t i = 0; i < r->nrows; i++) {
		start = out.len;
		report_row_cells(r, &r->rows[i], tf, cells);
		if (csv_row_fast(&out, cells) != 0) {
			/* near the cap: cell by cell, each checked */
			for (int c = 0; c < COL_COUNT; c++) {
				int bad = c > 0 ? buf_addc(&out, ',') : 0;

				if (cells->raw[c])
					bad |= buf_add(&out, cells->text[c], cells->len[c]);
				else
					bad |= csv_add_cell_n(&out, cells->text[c], cells->len[c], true);
				if (bad != 0)
					goto overflow;
			}
			if (buf_addc(&out, '\n') != 0)
				goto overflow;
		}
		if (out.len - start > CSV_ROW_MAX)
			goto overflow;
		if (out.len >= CSV_BATCH && write_out(f, &out, out.len, err) != 0)
			goto out;
	}
	if (write_out(f, &out, out.len, err) != 0)
		goto out;
	rc = err_check_write(f, 0, "csv", err);
	goto out;
overflow:
	/* the rows before it are written, as they were one at a time */
	if (write_out(f, &out, start, err) == 0)
		err_set(err, ERR_IO, "csv: a row is larger than %zu bytes", (size_t)CSV_ROW_MAX);
out:
	free(cells);
	buf_cleanup(&out);
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
