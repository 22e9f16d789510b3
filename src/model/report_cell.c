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
		return row->task->ts[ts];
	if (report_image_is_number(c))
		return TS_NONE;
	if (ph >= 0)
		return phase_ms(row->task, (enum phase_id)ph);
	return report_serving_ms(NULL, row, c);
}

/* Text columns, borrowed from the task or the report; NULL when absent. */
static const char *
report_text(const struct report *r, const struct report_row *row, enum col_id c)
{
	const struct task *t = row->task;

	switch (c) {
	case COL_TASK_ARN:          return t->arn;
	case COL_TASK_ID:           return t->id;
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
	case COL_IMAGE_DIGEST:      return task_image_digest(t);
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
		s = report_text(r, row, c);
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
}

/* A cell ecsprof wrote itself into out->num[c], n bytes long. */
static inline void
put_num(struct report_cells *out, enum col_id c, size_t n)
{
	out->raw[c] = true;
	out->text[c] = out->num[c];
	out->len[c] = n;
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
	/* unrolled, each column's case is chosen by the compiler, not at each row */
#pragma GCC unroll 64
	for (int i = 0; i < COL_COUNT; i++) {
		enum col_id c = (enum col_id)i;
		int ts, ph;

		switch (c) {
		case COL_TASK_ARN:          put_text(out, c, t->arn); continue;
		case COL_TASK_ID:           put_text(out, c, t->id); continue;
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
			put_time(out, c, ts >= 0 ? t->ts[ts] : report_cell_ms(row, c), tf, &day);
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
			put_text(out, c, report_text(r, row, c));
			break;
		}
	}
}

/* ---- sorting ---- */

/* 16 bytes a row (issue 35: memory per task): the row is found again by its position */
struct sort_item {
	size_t pos;          /* position before the sort: the tie-break that keeps it stable */
	union {
		int64_t ms;          /* time/duration columns */
		const char *text;    /* text columns; NULL when missing */
	} key;
};

struct sort_ctx {
	bool text;
	bool bytes;   /* hex ids and digests: byte order, not version order */
	bool desc;
};

static int
report_cmp_items(const void *pa, const void *pb, void *pctx)
{
	const struct sort_item *a = pa, *b = pb;
	const struct sort_ctx *ctx = pctx;
	int c = 0;

	if (ctx->text) {
		bool ma = a->key.text == NULL, mb = b->key.text == NULL;

		/* missing last in either direction */
		if (ma != mb)
			return ma ? 1 : -1;
		if (!ma)
			/* version order, so cpu "256" < "1024" and "web:9" < "web:10"; but hex
			 * ids in it would put "9f..." after "10..." */
			c = ctx->bytes ? strcmp(a->key.text, b->key.text) :
					 strverscmp(a->key.text, b->key.text);
	} else {
		bool ma = a->key.ms == TS_NONE, mb = b->key.ms == TS_NONE;

		if (ma != mb)
			return ma ? 1 : -1;
		if (!ma)
			c = (a->key.ms > b->key.ms) - (a->key.ms < b->key.ms);
	}
	if (ctx->desc)
		c = -c;
	if (c != 0)
		return c;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* report_cmp_items of two time or number keys, inline: the default sort (by createdAt)
 * of rows in ListTasks order compares ~15 times a row, and through qsort_r's calls that
 * cost ~1,100 instructions a row (issue 35) */
static inline int
cmp_ms_items(const struct sort_item *a, const struct sort_item *b, bool desc)
{
	bool ma = a->key.ms == TS_NONE, mb = b->key.ms == TS_NONE;
	int c = 0;

	if (ma != mb)
		return ma ? 1 : -1;
	if (!ma)
		c = (a->key.ms > b->key.ms) - (a->key.ms < b->key.ms);
	if (desc)
		c = -c;
	if (c != 0)
		return c;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* The order qsort_r(report_cmp_items) gives time or number keys (a total order: the
 * position breaks ties), by a merge sort with the comparison inline: runs of 16 sorted by
 * insertion, then merged in pairs. */
static void
sort_ms_items(struct sort_item *v, size_t n, bool desc)
{
	enum { RUN = 16 };
	struct sort_item *tmp, *src = v, *dst;

	for (size_t lo = 0; lo < n; lo += RUN) {
		size_t hi = n - lo < RUN ? n : lo + RUN;

		for (size_t i = lo + 1; i < hi; i++) {
			struct sort_item x = v[i];
			size_t j = i;

			for (; j > lo && cmp_ms_items(&x, &v[j - 1], desc) < 0; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
	if (n <= RUN)
		return;
	tmp = xreallocarray(NULL, n, sizeof *tmp);
	dst = tmp;
	for (size_t w = RUN; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = n - lo < w ? n : lo + w, hi = n - lo < 2 * w ? n : lo + 2 * w;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				dst[k++] = cmp_ms_items(&src[j], &src[i], desc) < 0 ? src[j++] :
										      src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct sort_item *t = src;

		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
	free(tmp);
}

void
report_sort(struct report *r, int col, bool desc)
{
	struct sort_item *items;
	struct sort_ctx ctx;
	enum col_id c;

	if (r->nrows < 2)
		return;
	/* -1: the default order, by createdAt */
	c = col >= 0 && col < COL_COUNT ? (enum col_id)col : COL_CREATED_AT;
	ctx.text = report_columns[c].kind == COL_TEXT && !report_image_is_number(c);
	ctx.bytes = c == COL_TASK_ID || c == COL_TASK_ARN || c == COL_IMAGE_DIGEST;
	ctx.desc = desc;
	items = xreallocarray(NULL, r->nrows, sizeof *items);
	for (size_t i = 0; i < r->nrows; i++) {
		const char *s;

		items[i].pos = i;
		items[i].key.ms = TS_NONE;
		if (ctx.text) {
			s = report_text(r, &r->rows[i], c);
			/* the "(none)" group is a missing value too: it sorts last */
			if (s != NULL && (*s == '\0' ||
					  (c == COL_GROUP && strcmp(s, GROUP_NONE) == 0)))
				s = NULL;
			items[i].key.text = s;
		} else if (report_image_is_number(c)) {
			items[i].key.ms = report_image_sort_value(r->images, r->rows[i].task, c);
		} else if (report_columns[c].kind == COL_NUMBER) {
			items[i].key.ms = report_serving_ms(r, &r->rows[i], c);
		} else {
			items[i].key.ms = report_cell_ms(&r->rows[i], c);
		}
	}
	/* rows that are in order already (data read in createdAt order) stay as they are:
	 * the order is total (position breaks ties), so sorting would change nothing */
	size_t i = 1;

	while (i < r->nrows && report_cmp_items(&items[i - 1], &items[i], &ctx) < 0)
		i++;
	if (i < r->nrows) {
		struct report_row *rows;

		if (ctx.text)
			qsort_r(items, r->nrows, sizeof *items, report_cmp_items, &ctx);
		else
			sort_ms_items(items, r->nrows, ctx.desc);
		rows = xreallocarray(NULL, r->nrows, sizeof *rows);
		for (i = 0; i < r->nrows; i++)
			rows[i] = r->rows[items[i].pos];
		free(r->rows);
		r->rows = rows;
	}
	free(items);
}
