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
#include "rowchunks.h"

/* a row never needs more; a bigger one means broken input, not a real task */
#define CSV_ROW_MAX ((size_t)16 << 20)

/* What each byte is to csv_add_cell(): printable ASCII that is copied as it is (tab among
 * it), the line breaks and separators that force quotes (a quote is also doubled), the
 * controls that become '?' (C0 other than tab, LF and CR, DEL: the ASCII part of
 * termsafe_cp_unsafe, which test_csv checks against this table), and the lead bytes of
 * multi-byte sequences, looked at whole. Tabs and line breaks are data: a stoppedReason
 * may hold several lines, and they survive, quoted (U+0085, U+2028 and U+2029 too, which
 * Python's str.splitlines() and some editors break lines on). Every other unsafe code
 * point (termsafe_cp_unsafe: C0 such as ESC, BEL, VT and FF, DEL, C1, bidi controls,
 * noncharacters) and invalid byte becomes '?': a CSV is often catted, and those would
 * drive or reorder the terminal (man page, CSV). */
enum csv_byte { CB_PLAIN, CB_BREAK, CB_DQUOTE, CB_CONTROL, CB_HIGH, CB_END };

#define P CB_PLAIN
#define B CB_BREAK
#define Q CB_DQUOTE
#define C CB_CONTROL
#define H CB_HIGH
#define E CB_END
static const unsigned char csv_bytes[256] = {
	E, C, C, C, C, C, C, C, C, P, B, C, C, B, C, C,   /* 00 */
	C, C, C, C, C, C, C, C, C, C, C, C, C, C, C, C,   /* 10 */
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

/* The sequence at p (a lead byte >= 0x80): its length, and whether it becomes '?' (C1,
 * bidi control, noncharacter, invalid) or forces quotes (U+0085, U+2028, U+2029). */
static size_t
csv_high(const unsigned char *p, bool *bad, bool *brk)
{
	size_t len = utf8_len(p);

	*bad = *brk = false;
	if ((len == 2 && p[0] == 0xc2 && p[1] == 0x85) ||
	    (len == 3 && p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)))
		*brk = true;     /* NEL, LS, PS: line breaks, kept */
	else if (termsafe_shared_bad_len((const char *)p) != 0)
		*bad = true;     /* invalid, C1, bidi, noncharacter */
	return len == 0 ? 1 : len;
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
		/* a cell holds its plain runs as they are */
		termsafe_copy_plain(&o, &p, s, end, ',', '"');
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

	/* the worst case of every cell a text cell, from the cells' total: no pass over them
	 * (issue 35: it was 450 instructions a row); where that does not fit, the exact one */
	if (cells->total > CSV_ROW_MAX ||
	    buf_reserve(b, COL_COUNT * 4 + 2 * cells->total) != 0) {
		for (int c = 0; c < COL_COUNT; c++) {
			size_t n = cells->len[c];

			if (n > CSV_ROW_MAX)
				return -1;
			need += cells->raw[c] ? n : 2 * n + 3;
		}
		if (buf_reserve(b, need) != 0)
			return -1;
	}
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
		/* an empty cell is nothing; a short plain one (most of a task's texts:
		 * "FARGATE", "256") is copied here, without csv_cell_into's call and set-up
		 * (issue 35: those were most of their cost) */
		if (n < 8 && !csv_formula_lead(v[0])) {
			size_t i = 0;

			while (i < n && csv_bytes[(unsigned char)v[i]] == CB_PLAIN) {
				o[i] = v[i];
				i++;
			}
			if (i == n) {
				o += n;
				continue;
			}
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

int
csv_add_header(struct buf *b)
{
	for (int c = 0; c < COL_COUNT; c++)
		if ((c > 0 && buf_addc(b, ',') != 0) ||
		    csv_add_cell(b, report_columns[c].name, false) != 0)
			return -1;
	return buf_addc(b, '\n');
}

int
csv_add_row(struct buf *b, const struct report *r, const struct report_row *row,
	    enum time_format tf)
{
	struct report_cells *cells = xmalloc(sizeof *cells);
	int rc;

	report_row_cells(r, row, tf, cells);
	rc = csv_row_fast(b, cells);
	free(cells);
	return rc;
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

/* ---- the task CSV, in chunks of rows, formatted on two threads when it pays ---- */

struct csv_rows {
	const struct report *r;
	enum time_format tf;
};

static void *
csv_scratch_new(void)
{
	return xmalloc(sizeof(struct report_cells));
}

static void
csv_format_rows(const void *ctx, void *scratch, size_t first, size_t end,
		struct rowchunks_part *part)
{
	const struct csv_rows *cr = ctx;
	struct report_cells *cells = scratch;

	buf_reset(&part->out);
	part->overflow = false;
	for (size_t i = first; i < end; i++) {
		size_t start = part->out.len;

		report_row_cells(cr->r, &cr->r->rows[i], cr->tf, cells);
		if (csv_row_fast(&part->out, cells) != 0 || part->out.len - start > CSV_ROW_MAX) {
			part->out.len = part->good = start;
			part->out.data[start] = '\0';
			part->overflow = true;
			return;
		}
	}
	part->good = part->out.len;
}

int
csv_write_tasks_as(FILE *f, const struct report *r, enum time_format tf, struct err *err)
{
	return csv_write_tasks_threads(f, r, tf, 0, err);
}

int
csv_write_tasks_threads(FILE *f, const struct report *r, enum time_format tf,
			unsigned threads, struct err *err)
{
	struct csv_rows rows;
	struct rowchunks chunks = { .format = csv_format_rows, .scratch_new = csv_scratch_new,
				    .scratch_free = free, .what = "csv" };
	struct buf head;
	int rc = -1;

	buf_init(&head, CSV_ROW_MAX);
	if (csv_add_header(&head) != 0 || write_out(f, &head, head.len, err) != 0)
		goto out;
	/* rows are whole before they are written: one past CSV_ROW_MAX fails with the rows
	 * before it written and nothing of it, as when they were written one at a time */
	rows.r = r;
	rows.tf = tf;
	chunks.nrows = r->nrows;
	chunks.threads = threads;
	chunks.ctx = &rows;
	switch (rowchunks_write(f, &chunks, err)) {
	case 0:
		break;
	case 1:
		err_set(err, ERR_IO, "csv: a row is larger than %zu bytes", (size_t)CSV_ROW_MAX);
		goto out;
	default:
		goto out;
	}
	rc = err_check_write(f, 0, "csv", err);
out:
	buf_cleanup(&head);
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
