/* report_cell: a report row's cells (the one place a column's text, time or number is
 * read from a task and its report) and the order of rows by a column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ecsprof/diagnose.h"
#include "ecsprof/numfmt.h"
#include "ecsprof/report.h"
#include "report_image.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

const struct column_def report_columns[COL_COUNT] = {
#define X(id, name, title, kind) { id, name, title, kind },
	REPORT_COLUMNS(X)
#undef X
};

int
report_column_by_name(const char *name)
{
	int p;

	if (name == NULL)
		return -1;
	for (int i = 0; i < COL_COUNT; i++)
		if (strcasecmp(name, report_columns[i].name) == 0 ||
		    strcasecmp(name, report_columns[i].title) == 0)
			return i;
	p = phase_by_name(name);
	if (p == PHASE_READY)
		return COL_READY_S;
	if (p == PHASE_SERVING)
		return COL_SERVING_S;
	if (p >= 0)
		return COL_PROVISION_S + p;
	return -1;
}

/* Time columns and the lifecycle field each shows. */
static int
report_col_ts(enum col_id c)
{
	switch (c) {
	case COL_CREATED_AT:      return TS_CREATED;
	case COL_CONNECTIVITY_AT: return TS_CONNECTIVITY;
	case COL_PULL_STARTED_AT: return TS_PULL_STARTED;
	case COL_PULL_STOPPED_AT: return TS_PULL_STOPPED;
	case COL_STARTED_AT:      return TS_STARTED;
	case COL_STOPPED_AT:      return TS_STOPPED;
	case COL_HEALTHY_AT:      return TS_HEALTHY;
	default:                  return -1;
	}
}

/* The duration columns are in phase order, so the phase is the offset. */
static int
report_col_phase(enum col_id c)
{
	if (c >= COL_PROVISION_S && c <= COL_CONNECTIVITY_S)
		return (int)(c - COL_PROVISION_S);
	if (c == COL_READY_S)
		return PHASE_READY;
	if (c == COL_SERVING_S)
		return PHASE_SERVING;
	return -1;
}

int64_t
report_cell_so_far_ms(const struct report_row *row, enum col_id c, int64_t now_ms)
{
	int ph = report_col_phase(c);

	return ph >= 0 ? phase_so_far_ms(row->task, (enum phase_id)ph, now_ms) : TS_NONE;
}

int64_t
report_data_time(const struct report *r)
{
	int64_t m = TS_NONE;

	for (size_t i = 0; i < r->nrows; i++) {
		int64_t t = task_latest_ms(r->rows[i].task);

		if (t != TS_NONE && (m == TS_NONE || t > m))
			m = t;
	}
	return m;
}

int64_t
report_cell_ms(const struct report_row *row, enum col_id c)
{
	int ts = report_col_ts(c), ph = report_col_phase(c);

	if (ts >= 0)
		return task_ts(row->task, ts);
	if (report_image_is_number(c))
		return TS_NONE;
	if (ph >= 0)
		return phase_ms(row->task, (enum phase_id)ph);
	return report_serving_ms(NULL, row, c);
}

/* Text columns, borrowed from the task or the report (the ARN joined in ab, the digest
 * written in db); NULL when absent. */
static const char *
report_text(const struct report *r, const struct report_row *row, enum col_id c,
	    struct task_arn_buf *ab, struct digest_buf *db)
{
	const struct task *t = row->task;

	switch (c) {
	case COL_TASK_ARN:          return task_arn(t, ab);
	case COL_TASK_ID:           return task_id(t);
	case COL_CLUSTER:           return t->prof->cluster;
	case COL_SERVICE:           return t->prof->service;
	case COL_TASKDEF:           return t->prof->taskdef;
	case COL_LAUNCH_TYPE:       return t->prof->launch_type;
	case COL_CAPACITY_PROVIDER: return t->prof->capacity_provider;
	case COL_PLATFORM_VERSION:  return t->prof->platform_version;
	case COL_AZ:                return t->prof->availability_zone;
	case COL_CPU:               return t->prof->cpu;
	case COL_MEMORY:            return t->prof->memory;
	case COL_LAST_STATUS:       return t->prof->last_status;
	case COL_IMAGE:             return task_image(t);
	case COL_IMAGE_DIGEST:      return task_image_digest(t, db);
	case COL_SOCI:              return soci_label_name(t->soci);
	case COL_SOCI_EVIDENCE:     return soci_evidence_name(t->soci_evidence);
	case COL_GROUP:
		return r != NULL && row->group < r->ngroups ? r->groups[row->group].name : NULL;
	case COL_STOP_CODE:         return t->prof->stop_code;
	case COL_STOPPED_REASON:    return t->prof->stopped_reason;
	case COL_SOURCE:            return t->prof->source;
	case COL_IMAGE_COMPRESSION: case COL_SOCI_INDEX: case COL_SOCI_ADVICE:
		return report_image_text(r != NULL ? r->images : NULL, t, c);
	default:                    return report_serving_text(r, row, c, NULL, 0);
	}
}

/* snprintf(out, size, "%s", s) without parsing a format: ~30 cells a task come here */
static void
report_copy_cut(char *out, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);

	memcpy(out, s, n);
	out[n] = '\0';
}

const char *
report_cell(const struct report *r, const struct report_row *row, enum col_id c,
	    char *out, size_t size)
{
	struct task_arn_buf ab;
	struct digest_buf db;
	const char *s;

	if (size == 0)
		return out;
	out[0] = '\0';
	if (c >= COL_COUNT)
		return out;
	switch (report_columns[c].kind) {
	case COL_TIME: {
		char iso[TIMEUTIL_ISO_LEN];

		if (size >= TIMEUTIL_ISO_LEN) {
			timeutil_format_iso(report_cell_ms(row, c), out);
			break;
		}
		timeutil_format_iso(report_cell_ms(row, c), iso);
		report_copy_cut(out, size, iso);
		break;
	}
	case COL_DURATION:
		timeutil_format_secs(report_cell_ms(row, c), out, size);
		break;
	case COL_TEXT:
		if (report_image_number(r != NULL ? r->images : NULL, row->task, c, out, size))
			break;
		s = report_text(r, row, c, &ab, &db);
		if (s != NULL)
			report_copy_cut(out, size, s);
		break;
	case COL_NUMBER:
		report_serving_text(r, row, c, out, size);
		break;
	}
	return out;
}

/* A borrowed text cell (NULL: ""), which a writer may quote or clean. */
static inline void
put_text(struct report_cells *out, enum col_id c, const char *s)
{
	out->raw[c] = false;
	out->text[c] = s != NULL ? s : "";
	out->len[c] = s != NULL ? strlen(s) : 0;
	out->total += out->len[c];
}

/* A cell ecsprof wrote itself into out->num[c], n bytes long. */
static inline void
put_num(struct report_cells *out, enum col_id c, size_t n)
{
	out->raw[c] = true;
	out->text[c] = out->num[c];
	out->len[c] = n;
	out->total += n;
}

/* A time cell. ISO: timeutil_iso_ms() with its length, no strlen (a year past 9999 may be
 * cut to the buffer: measured then), the row's calendar day worked out once (a task's
 * times fall on one or two days). */
static void
put_time(struct report_cells *out, enum col_id c, int64_t ms, enum time_format tf,
	 struct timeutil_day *day)
{
	if (tf == TIME_FORMAT_ISO) {
		size_t n = timeutil_iso_ms_day(out->num[c], ms, day);

		put_num(out, c, n < TIMEUTIL_ISO_LEN ? n : strlen(out->num[c]));
		return;
	}
	timeutil_format_as(ms, tf, out->num[c]);
	put_num(out, c, strlen(out->num[c]));
}

/* A duration cell: timeutil_format_secs(), without its strlen. */
static inline void
put_secs(struct report_cells *out, enum col_id c, int64_t ms)
{
	out->num[c][0] = '\0';
	put_num(out, c, ms == TS_NONE ? 0 : numfmt_ms_secs(out->num[c], ms));
}

/* Every cell of a row at once, each column by name (a jump table: the ~47 cells of a row
 * cost ~6,000 instructions through the kind and the column's helpers one at a time,
 * issue 35). The column functions above stay the one reading of each column: what is
 * spelled out here is only which of them a column takes; the default case sends any
 * column not named here to them. */
void
report_row_cells(const struct report *r, const struct report_row *row, enum time_format tf,
		 struct report_cells *out)
{
	const struct task *t = row->task;
	const struct diag_rule *d = diagnose_task(t);
	struct image_task_info in;
	struct timeutil_day day = TIMEUTIL_DAY_INIT;

	image_task_info(r != NULL ? r->images : NULL, t, &in);
	out->total = 0;
	/* unrolled, each column's case is chosen by the compiler, not at each row */
#pragma GCC unroll 64
	for (int i = 0; i < COL_COUNT; i++) {
		enum col_id c = (enum col_id)i;
		int ts, ph;

		switch (c) {
		case COL_TASK_ARN:          put_text(out, c, task_arn(t, &out->arn)); continue;
		case COL_TASK_ID:           put_text(out, c, task_id(t)); continue;
		case COL_CLUSTER:           put_text(out, c, t->prof->cluster); continue;
		case COL_SERVICE:           put_text(out, c, t->prof->service); continue;
		case COL_TASKDEF:           put_text(out, c, t->prof->taskdef); continue;
		case COL_LAUNCH_TYPE:       put_text(out, c, t->prof->launch_type); continue;
		case COL_CAPACITY_PROVIDER: put_text(out, c, t->prof->capacity_provider); continue;
		case COL_PLATFORM_VERSION:  put_text(out, c, t->prof->platform_version); continue;
		case COL_AZ:                put_text(out, c, t->prof->availability_zone); continue;
		case COL_CPU:               put_text(out, c, t->prof->cpu); continue;
		case COL_MEMORY:            put_text(out, c, t->prof->memory); continue;
		case COL_LAST_STATUS:       put_text(out, c, t->prof->last_status); continue;
		case COL_STOP_CODE:         put_text(out, c, t->prof->stop_code); continue;
		case COL_STOPPED_REASON:    put_text(out, c, t->prof->stopped_reason); continue;
		case COL_SOURCE:            put_text(out, c, t->prof->source); continue;
		case COL_IMAGE_SIZE: case COL_IMAGE_LAYERS: case COL_PULL_MBPS:
			put_num(out, c, report_image_number_of(&in, t, c, out->num[c]));
			continue;
		case COL_IMAGE_COMPRESSION: case COL_SOCI_INDEX: case COL_SOCI_ADVICE:
			put_text(out, c, report_image_text_of(&in, c));
			continue;
		case COL_DIAGNOSIS:         put_text(out, c, d != NULL ? d->id : NULL); continue;
		case COL_DIAGNOSIS_CAUSE:   put_text(out, c, d != NULL ? d->cause : NULL); continue;
		case COL_DIAGNOSIS_NEXT:
			put_text(out, c, d != NULL ? d->next_step : NULL);
			continue;
		default:
			break;
		}
		switch (report_columns[c].kind) {
		case COL_TIME:
			ts = report_col_ts(c);
			put_time(out, c, ts >= 0 ? task_ts(t, ts) : report_cell_ms(row, c), tf, &day);
			break;
		case COL_DURATION:
			ph = report_col_phase(c);
			put_secs(out, c, ph >= 0 ? phase_ms(t, (enum phase_id)ph) :
						   report_cell_ms(row, c));
			break;
		case COL_NUMBER: {
			const char *s = report_serving_text(r, row, c, out->usd, sizeof out->usd);

			put_text(out, c, s);
			out->raw[c] = true;
			break;
		}
		case COL_TEXT:
			if (report_image_is_number(c)) {
				put_num(out, c, report_image_number_of(&in, t, c, out->num[c]));
				break;
			}
			put_text(out, c, report_text(r, row, c, &out->arn, &out->digest));
			break;
		}
	}
}

/* ---- sorting ---- */

/* Rows are sorted where they are, each key read from its row when compared: no array of
 * keys, no copy of the rows, no merge buffer (issue 35: they were 48 bytes a task at the
 * report's peak). */
enum sort_how { SORT_TEXT, SORT_IMAGE_NUMBER, SORT_NUMBER, SORT_MS };

struct sort_ctx {
	const struct report *r;
	enum col_id c;
	enum sort_how how;
	int ts;       /* a time column's lifecycle field (the default sort's), or -1 */
	bool bytes;   /* hex ids and digests: byte order, not version order */
	bool desc;
};

union sort_key {
	int64_t ms;          /* time/duration/number columns; TS_NONE when missing */
	const char *text;    /* text columns; NULL when missing */
};

static inline union sort_key
report_sort_key(const struct sort_ctx *ctx, const struct report_row *row, struct task_arn_buf *ab,
		struct digest_buf *db)
{
	union sort_key k;
	const char *s;

	/* a time, read inline: the createdAt sort compares ~15 times a row (issue 35) */
	if (ctx->ts >= 0) {
		k.ms = task_ts(row->task, ctx->ts);
		return k;
	}
	switch (ctx->how) {
	case SORT_TEXT:
		s = report_text(ctx->r, row, ctx->c, ab, db);
		/* the "(none)" group is a missing value too: it sorts last */
		if (s != NULL && (*s == '\0' ||
				  (ctx->c == COL_GROUP && strcmp(s, GROUP_NONE) == 0)))
			s = NULL;
		k.text = s;
		break;
	case SORT_IMAGE_NUMBER:
		k.ms = report_image_sort_value(ctx->r->images, row->task, ctx->c);
		break;
	case SORT_NUMBER:
		k.ms = report_serving_ms(ctx->r, row, ctx->c);
		break;
	default:
		k.ms = report_cell_ms(row, ctx->c);
		break;
	}
	return k;
}

/* Two values of a time, duration or number column (TS_NONE: missing, last in either
 * direction): <0, 0 or >0. */
static inline int
report_cmp_ms(const struct sort_ctx *ctx, int64_t a, int64_t b)
{
	bool ma = a == TS_NONE, mb = b == TS_NONE;
	int c;

	if (ma != mb)
		return ma ? 1 : -1;
	c = ma ? 0 : (a > b) - (a < b);
	return ctx->desc ? -c : c;
}

/* By the column alone: <0, 0 (equal: the sort's stability decides) or >0. */
static inline int
report_cmp_rows(const struct sort_ctx *ctx, const struct report_row *ra,
		const struct report_row *rb)
{
	/* written only for the ARN and digest columns */
	struct task_arn_buf xa, xb;
	struct digest_buf da, db;
	union sort_key a = report_sort_key(ctx, ra, &xa, &da), b = report_sort_key(ctx, rb, &xb, &db);
	int c = 0;

	if (ctx->how == SORT_TEXT) {
		bool ma = a.text == NULL, mb = b.text == NULL;

		/* missing last in either direction */
		if (ma != mb)
			return ma ? 1 : -1;
		if (!ma)
			/* version order, so cpu "256" < "1024" and "web:9" < "web:10"; but hex
			 * ids in it would put "9f..." after "10..." */
			c = ctx->bytes ? strcmp(a.text, b.text) : strverscmp(a.text, b.text);
		return ctx->desc ? -c : c;
	}
	return report_cmp_ms(ctx, a.ms, b.ms);
}

static void
report_swap_rows(struct report_row *a, struct report_row *b)
{
	struct report_row t = *a;

	*a = *b;
	*b = t;
}

/* Rows whose tasks lie in memory in row order (as report_build makes them, the set's
 * order): a row's position before the sort, the stable sort's tie-break, is then the
 * order of its task's address. With it the order is total, and any sort gives the stable
 * sort's result: an introsort (quicksort, heapsort past 2 log2 n levels). */
static inline int
report_cmp_total(const struct sort_ctx *ctx, const struct report_row *a,
		 const struct report_row *b)
{
	uintptr_t x = (uintptr_t)a->task, y = (uintptr_t)b->task;
	int c;

	/* a time column (the default sort, by createdAt) read here, where the sort's loops
	 * have it inline: report_cmp_rows() as a call was ~55 instructions of each of a row's
	 * ~12 compares (issue 35) */
	if (ctx->ts >= 0)
		c = report_cmp_ms(ctx, task_ts(a->task, ctx->ts), task_ts(b->task, ctx->ts));
	else
		c = report_cmp_rows(ctx, a, b);
	return c != 0 ? c : (x > y) - (x < y);
}

static void
report_sort_insertion(const struct sort_ctx *ctx, struct report_row *rows, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && report_cmp_total(ctx, &rows[j], &rows[j - 1]) < 0; j--)
			report_swap_rows(&rows[j], &rows[j - 1]);
}

static void
report_sort_sift(const struct sort_ctx *ctx, struct report_row *rows, size_t i, size_t n)
{
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= n)
			return;
		if (k + 1 < n && report_cmp_total(ctx, &rows[k], &rows[k + 1]) < 0)
			k++;
		if (report_cmp_total(ctx, &rows[i], &rows[k]) >= 0)
			return;
		report_swap_rows(&rows[i], &rows[k]);
		i = k;
	}
}

static void
report_sort_heap(const struct sort_ctx *ctx, struct report_row *rows, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		report_sort_sift(ctx, rows, i, n);
	for (size_t m = n; m > 1; m--) {
		report_swap_rows(&rows[0], &rows[m - 1]);
		report_sort_sift(ctx, rows, 0, m - 1);
	}
}

static void
report_sort_intro(const struct sort_ctx *ctx, struct report_row *rows, size_t n, int depth)
{
	while (n > 16) {
		size_t mid = n / 2, i = 0, j = n - 1;
		struct report_row pivot;

		if (depth-- == 0) {
			report_sort_heap(ctx, rows, n);
			return;
		}
		/* the median of three in the middle, the other two its sentinels */
		if (report_cmp_total(ctx, &rows[mid], &rows[0]) < 0)
			report_swap_rows(&rows[mid], &rows[0]);
		if (report_cmp_total(ctx, &rows[n - 1], &rows[mid]) < 0) {
			report_swap_rows(&rows[n - 1], &rows[mid]);
			if (report_cmp_total(ctx, &rows[mid], &rows[0]) < 0)
				report_swap_rows(&rows[mid], &rows[0]);
		}
		pivot = rows[mid];
		/* Hoare: [0, i) <= pivot <= [i, n), both sides non-empty */
		for (;;) {
			while (report_cmp_total(ctx, &rows[++i], &pivot) < 0)
				;
			while (report_cmp_total(ctx, &pivot, &rows[--j]) < 0)
				;
			if (i >= j)
				break;
			report_swap_rows(&rows[i], &rows[j]);
		}
		/* the smaller side by recursion (at most log2 n deep), the larger here */
		if (i < n - i) {
			report_sort_intro(ctx, rows, i, depth);
			rows += i;
			n -= i;
		} else {
			report_sort_intro(ctx, rows + i, n - i, depth);
			n = i;
		}
	}
	report_sort_insertion(ctx, rows, n);
}

/* Any other rows (a second sort, as the TUI's): stable in place, by insertion in blocks
 * then merges by rotation (Go's sort.Stable: O(n log n) comparisons, O(n log^2 n) swaps). */
static void
report_sort_swap_range(struct report_row *rows, size_t a, size_t b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		report_swap_rows(&rows[a + i], &rows[b + i]);
}

static void
report_sort_rotate(struct report_row *rows, size_t a, size_t m, size_t b)
{
	size_t i = m - a, j = b - m;

	while (i != j) {
		if (i > j) {
			report_sort_swap_range(rows, m - i, m, j);
			i -= j;
		} else {
			report_sort_swap_range(rows, m - i, m + j - i, i);
			j -= i;
		}
	}
	report_sort_swap_range(rows, m - i, m, i);
}

/* merges the sorted [a, m) and [m, b) */
static void
report_sort_symmerge(const struct sort_ctx *ctx, struct report_row *rows, size_t a, size_t m,
		     size_t b)
{
	if (m - a == 1) {
		/* rows[a] goes after every row of [m, b) not above it */
		size_t i = m, j = b;

		while (i < j) {
			size_t h = i + (j - i) / 2;

			if (report_cmp_rows(ctx, &rows[h], &rows[a]) < 0)
				i = h + 1;
			else
				j = h;
		}
		for (size_t k = a; k + 1 < i; k++)
			report_swap_rows(&rows[k], &rows[k + 1]);
		return;
	}
	if (b - m == 1) {
		/* rows[m] goes before every row of [a, m) above it */
		size_t i = a, j = m;

		while (i < j) {
			size_t h = i + (j - i) / 2;

			if (report_cmp_rows(ctx, &rows[m], &rows[h]) >= 0)
				i = h + 1;
			else
				j = h;
		}
		for (size_t k = m; k > i; k--)
			report_swap_rows(&rows[k], &rows[k - 1]);
		return;
	}
	size_t mid = a + (b - a) / 2, n = mid + m, start, r, end;

	if (m > mid) {
		start = n - b;
		r = mid;
	} else {
		start = a;
		r = m;
	}
	while (start < r) {
		size_t c = start + (r - start) / 2;

		if (report_cmp_rows(ctx, &rows[n - 1 - c], &rows[c]) >= 0)
			start = c + 1;
		else
			r = c;
	}
	end = n - start;
	if (start < m && m < end)
		report_sort_rotate(rows, start, m, end);
	if (a < start && start < mid)
		report_sort_symmerge(ctx, rows, a, start, mid);
	if (mid < end && end < b)
		report_sort_symmerge(ctx, rows, mid, end, b);
}

static void
report_sort_stable(const struct sort_ctx *ctx, struct report_row *rows, size_t n)
{
	size_t block = 20;

	for (size_t a = 0; a < n; a += block) {
		size_t b = a + block < n ? a + block : n;

		/* stable: only a strictly smaller row moves up */
		for (size_t i = a + 1; i < b; i++)
			for (size_t j = i; j > a && report_cmp_rows(ctx, &rows[j], &rows[j - 1]) < 0;
			     j--)
				report_swap_rows(&rows[j], &rows[j - 1]);
	}
	for (; block < n; block *= 2) {
		size_t a = 0;

		for (; 2 * block <= n - a; a += 2 * block)
			report_sort_symmerge(ctx, rows, a, a + block, a + 2 * block);
		if (block < n - a)
			report_sort_symmerge(ctx, rows, a, a + block, n);
	}
}

void
report_sort(struct report *r, int col, bool desc)
{
	struct sort_ctx ctx;
	bool by_address = true;
	size_t n = r->nrows, i;
	int depth = 0;

	if (n < 2)
		return;
	/* -1: the default order, by createdAt */
	ctx.r = r;
	ctx.c = col >= 0 && col < COL_COUNT ? (enum col_id)col : COL_CREATED_AT;
	if (report_image_is_number(ctx.c))
		ctx.how = SORT_IMAGE_NUMBER;
	else if (report_columns[ctx.c].kind == COL_TEXT)
		ctx.how = SORT_TEXT;
	else if (report_columns[ctx.c].kind == COL_NUMBER)
		ctx.how = SORT_NUMBER;
	else
		ctx.how = SORT_MS;
	ctx.ts = ctx.how == SORT_MS ? report_col_ts(ctx.c) : -1;
	ctx.bytes = ctx.c == COL_TASK_ID || ctx.c == COL_TASK_ARN || ctx.c == COL_IMAGE_DIGEST;
	ctx.desc = desc;
	/* rows that are in order already (data read in createdAt order) stay as they are */
	for (i = 1; i < n && report_cmp_rows(&ctx, &r->rows[i - 1], &r->rows[i]) <= 0; i++)
		;
	if (i == n)
		return;
	for (i = 1; i < n && by_address; i++)
		by_address = (uintptr_t)r->rows[i - 1].task < (uintptr_t)r->rows[i].task;
	if (!by_address) {
		report_sort_stable(&ctx, r->rows, n);
		return;
	}
	for (size_t m = n; m > 1; m /= 2)
		depth += 2;
	report_sort_intro(&ctx, r->rows, n, depth);
}
