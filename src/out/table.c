/* table: plain aligned text. Widths come from a first pass over the rows, so nothing is
 * kept per cell; the key columns are sized to fit the width first, then optional ones are
 * added while they fit (as kubectl's -o wide does by hand). Text is sanitised because a
 * table often ends on a terminal: a control byte from the data must not move the cursor
 * or start an escape sequence. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/phase.h"
#include "ecsprof/compare.h"
#include "ecsprof/table.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"

#define GAP 2
#define CELL_SIZE 1024

struct tcol {
	enum col_id col;
	int priority;      /* 0: key column; optional columns join in ascending order */
	int cap;           /* widest it gets unless verbose (0: no cap) */
	int min;           /* a key column may shrink to this to fit */
	bool keep_end;     /* truncate keeping the end ("family:REV" matters most) */
};

/* display order */
static const struct tcol tcols[] = {
	{ COL_TASK_ID,         0, 0,  0,  false },
	{ COL_GROUP,           1, 24, 0,  false },
	{ COL_TASKDEF,         0, 0,  12, true  },
	{ COL_SERVICE,         4, 24, 0,  false },
	{ COL_LAST_STATUS,     0, 0,  0,  false },
	{ COL_AZ,              0, 0,  10, false },
	{ COL_LAUNCH_TYPE,     3, 10, 0,  false },
	{ COL_SOCI,            2, 0,  0,  false },
	{ COL_CREATED_AT,      6, 0,  0,  false },
	{ COL_PROVISION_S,     0, 0,  0,  false },
	{ COL_PULL_S,          0, 0,  0,  false },
	{ COL_START_S,         0, 0,  0,  false },
	{ COL_TOTAL_S,         0, 0,  0,  false },
	{ COL_READY_S,         1, 0,  0,  false },
	{ COL_SERVING_S,       1, 0,  0,  false },
	{ COL_CONNECTIVITY_S,  5, 0,  0,  false },
	{ COL_IMAGE,           7, 48, 0,  false },
	{ COL_BILLED_STARTUP_S, 8, 0, 0,  false },
	{ COL_STARTUP_COST_USD, 8, 0, 0,  false },
	{ COL_DIAGNOSIS,       8, 0,  0,  false },
};
#define NTCOLS (sizeof tcols / sizeof tcols[0])

/* Copies s into out with every control character (C0, DEL, C1), bidi control and invalid
 * byte replaced by '?' (termsafe), so one cell is one line of printable text. */
static void
sanitise(const char *s, char *out, size_t size)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p != '\0';) {
		size_t len = utf8_len(p);
		bool bad = termsafe_bad_len((const char *)p, NULL) > 0;
		size_t olen = bad ? 1 : len;

		if (len == 0)
			len = 1;
		if (o + olen >= size)
			break;
		if (bad)
			out[o] = '?';
		else
			memcpy(out + o, p, len);
		o += olen;
		p += len;
	}
	out[o] = '\0';
}

/* display width: code points (valid UTF-8 after sanitise) */
static int
dwidth(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* byte offset of code point number i */
static size_t
cp_offset(const char *s, int i)
{
	const char *p = s;

	for (; *p != '\0'; p++)
		if (((unsigned char)*p & 0xc0) != 0x80 && i-- == 0)
			break;
	return (size_t)(p - s);
}

static int
put_cell(struct buf *b, const char *s, int w, bool right, bool keep_end)
{
	int n = dwidth(s), rc = 0;

	if (n > w && w >= 2) {
		if (keep_end) {
			rc |= buf_addc(b, '~');
			rc |= buf_adds(b, s + cp_offset(s, n - (w - 1)));
		} else {
			rc |= buf_add(b, s, cp_offset(s, w - 1));
			rc |= buf_addc(b, '~');
		}
		return rc;
	}
	if (n > w)
		return buf_add(b, s, cp_offset(s, w));
	for (int i = 0; right && i < w - n; i++)
		rc |= buf_addc(b, ' ');
	rc |= buf_adds(b, s);
	for (int i = 0; !right && i < w - n; i++)
		rc |= buf_addc(b, ' ');
	return rc;
}

/* "12.3" from ms, rounded half up in integers (no binary-fraction surprises) */
static void
fmt_tenths(int64_t ms, char *out, size_t size)
{
	if (ms == TS_NONE || ms < 0) {
		snprintf(out, size, "-");
		return;
	}
	int64_t t = (ms + 50) / 100;
	snprintf(out, size, "%lld.%lld", (long long)(t / 10), (long long)(t % 10));
}


/* a failed start, as the model decides it (task_stage) */
static bool
failed_start(const struct task *t)
{
	return task_stage(t, NULL) == STAGE_FAILED;
}

struct layout {
	int idlen;             /* 0: full ids */
	int width[NTCOLS];     /* 0: column not shown */
	int64_t now_ms;        /* when the data was taken: a phase still going lasts until then */
};

static const char *
tcell(const struct report *r, const struct report_row *row, const struct tcol *tc,
      const struct layout *l, char *out, size_t size)
{
	char raw[CELL_SIZE];
	enum col_kind kind = report_columns[tc->col].kind;

	if (kind == COL_DURATION) {
		int64_t so_far = report_cell_so_far_ms(row, tc->col, l->now_ms);

		fmt_tenths(report_cell_ms(row, tc->col), out, size);
		/* a phase still going: how long so far, marked as growing, as the TUI shows it */
		if (so_far != TS_NONE) {
			fmt_tenths(so_far, out, size - 3);
			snprintf(out + strlen(out), size - strlen(out), "\u2026");
		}
		return out;
	}
	report_cell(r, row, tc->col, raw, sizeof raw);
	if (kind == COL_TIME && strlen(raw) >= 19) {
		raw[10] = ' ';   /* "2024-05-01 10:00:03": the ms and Z are noise here */
		raw[19] = '\0';
	}
	if (tc->col == COL_TASK_ID && l->idlen > 0 && (size_t)l->idlen < strlen(raw))
		raw[l->idlen] = '\0';
	sanitise(raw, out, size - 1);
	if (out[0] == '\0')
		snprintf(out, size, "-");
	else if (tc->col == COL_LAST_STATUS && failed_start(row->task) &&
		 strlen(out) + 1 < size)
		memcpy(out + strlen(out), "!", 2);   /* as the TUI marks it */
	return out;
}

static void
plan(const struct report *r, int width, bool verbose, struct layout *l)
{
	int natural[NTCOLS], total = 0;
	char out[CELL_SIZE];

	l->idlen = verbose ? 0 : report_id_prefix_len(r);
	l->now_ms = report_data_time(r);
	for (size_t c = 0; c < NTCOLS; c++) {
		natural[c] = dwidth(report_columns[tcols[c].col].title);
		l->width[c] = 0;
	}
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t c = 0; c < NTCOLS; c++) {
			int w = dwidth(tcell(r, &r->rows[i], &tcols[c], l, out, sizeof out));

			if (w > natural[c])
				natural[c] = w;
		}
	for (size_t c = 0; c < NTCOLS; c++) {
		if (tcols[c].priority != 0)
			continue;
		l->width[c] = natural[c];
		total += natural[c] + (total ? GAP : 0);
	}
	/* shrink the elastic key columns, as little as needed; -v shows every cell whole
	 * (the line is as wide as it needs to be, as kubectl -o wide) */
	for (size_t c = 0; c < NTCOLS && !verbose && total > width; c++) {
		if (tcols[c].priority != 0 || tcols[c].min == 0 || l->width[c] <= tcols[c].min)
			continue;
		int cut = total - width;

		if (cut > l->width[c] - tcols[c].min)
			cut = l->width[c] - tcols[c].min;
		l->width[c] -= cut;
		total -= cut;
	}
	for (int prio = 1; prio <= 8; prio++) {
		for (size_t c = 0; c < NTCOLS; c++) {
			int w = natural[c];

			if (tcols[c].priority != prio)
				continue;
			if (tcols[c].col == COL_GROUP && r->ngroups < 2)
				continue;
			/* time to serving only where some task has a healthy_at */
			if ((tcols[c].col == COL_READY_S || tcols[c].col == COL_SERVING_S) &&
			    !r->any_healthy)
				continue;
			if (!verbose && tcols[c].cap > 0 && w > tcols[c].cap)
				w = tcols[c].cap;
			if (!verbose && total + GAP + w > width)
				continue;
			l->width[c] = w;
			total += GAP + w;
		}
	}
}

static int
put_line(FILE *f, struct buf *line)
{
	while (line->len > 0 && line->data[line->len - 1] == ' ')
		line->len--;
	if (buf_addc(line, '\n') != 0)
		return -1;
	if (fwrite(line->data, 1, line->len, f) != line->len)
		return -1;
	buf_reset(line);
	return 0;
}

static int
row_line(struct buf *line, const struct report *r, const struct report_row *row,
	 const struct layout *l)
{
	char out[CELL_SIZE];
	bool first = true;
	int rc = 0;

	for (size_t c = 0; c < NTCOLS; c++) {
		const char *s;
		bool right;

		if (l->width[c] == 0)
			continue;
		right = report_columns[tcols[c].col].kind == COL_DURATION ||
			report_columns[tcols[c].col].kind == COL_NUMBER;
		s = row != NULL ? tcell(r, row, &tcols[c], l, out, sizeof out)
				: report_columns[tcols[c].col].title;
		if (!first)
			rc |= buf_add(line, "  ", GAP);
		rc |= put_cell(line, s, l->width[c], right, tcols[c].keep_end);
		first = false;
	}
	return rc;
}

/* A sentence from column indent, wrapped at spaces to width, its continuations from
 * column cont, so that notes and verdicts read in an 80-column terminal; a word longer
 * than a line is not cut, and "n = 12 vs 18" stays on one line. */
static int
put_wrapped_at(FILE *f, struct buf *line, const char *text, int width, int indent, int cont)
{
	const char *p = text;
	int rc = 0;

	while (*p != '\0') {
		size_t next, n = utf8_line_break(p, width - indent, false, utf8_break_keeps_figures,
						 &next);

		for (int i = 0; i < indent; i++)
			rc |= buf_addc(line, ' ');
		rc |= buf_add(line, p, n);
		rc |= put_line(f, line);
		p += next;
		indent = cont;
	}
	return rc;
}

/* The summary's sentences: indented by 2, continuations by 4. */
static int
put_wrapped(FILE *f, struct buf *line, const char *text, int width)
{
	return put_wrapped_at(f, line, text, width, 2, 4);
}

/* "  -> cause; next: step" under a footnote, when a rule knows the reason, wrapped at
 * width under its first word */
static int
diagnosis_note(FILE *f, struct buf *line, const struct task *t, int width)
{
	const struct diag_rule *d = diagnose_task(t);
	char text[1024];

	if (d == NULL)
		return 0;
	snprintf(text, sizeof text, "-> %s; next: %s", d->cause, d->next_step);
	return put_wrapped_at(f, line, text, width, 2, 5);
}

/* "! id stopped before RUNNING (code): reason", wrapped at width, its continuations
 * indented under the id */
static int
footnote(FILE *f, struct buf *line, const char *mark, const char *id, const char *when,
	 const char *code, const char *reason, int width)
{
	char text[3 * CELL_SIZE + 64];

	snprintf(text, sizeof text, "%s %s stopped %s RUNNING (%s): %s", mark, id, when, code,
		 reason);
	return put_wrapped_at(f, line, text, width, 0, 2);
}

static int
footnotes(FILE *f, struct buf *line, const struct report *r, const struct layout *l, int width)
{
	char id[CELL_SIZE], code[CELL_SIZE], reason[CELL_SIZE];
	bool any = false;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct task *t = r->rows[i].task;
		const char *why = t->prof->stopped_reason;

		if (!failed_start(t))
			continue;
		/* ECS sometimes leaves the task's reason empty and puts it on the container */
		for (size_t k = 0; why == NULL && k < t->ncontainers; k++)
			why = t->containers[k].prof->reason;
		tcell(r, &r->rows[i], &tcols[0], l, id, sizeof id);
		sanitise(t->prof->stop_code != NULL ? t->prof->stop_code : "no stop code", code, sizeof code);
		sanitise(why != NULL ? why : "no reason given", reason, sizeof reason);
		if ((!any && put_line(f, line) != 0) ||
		    footnote(f, line, "!", id, "before", code, reason, width) != 0 ||
		    diagnosis_note(f, line, t, width) != 0)
			return -1;
		any = true;
	}
	/* and tasks that ran, then stopped for a reason worth fixing */
	for (size_t i = 0; i < r->nrows; i++) {
		const struct task *t = r->rows[i].task;
		const struct diag_rule *d = diagnose_task(t);

		if (failed_start(t) || d == NULL || strcmp(d->next_step, "nothing to fix") == 0)
			continue;
		tcell(r, &r->rows[i], &tcols[0], l, id, sizeof id);
		sanitise(t->prof->stop_code != NULL ? t->prof->stop_code : "no stop code", code, sizeof code);
		sanitise(t->prof->stopped_reason != NULL ? t->prof->stopped_reason : "no reason given", reason,
			 sizeof reason);
		if ((!any && put_line(f, line) != 0) ||
		    footnote(f, line, "*", id, "after", code, reason, width) != 0 ||
		    diagnosis_note(f, line, t, width) != 0)
			return -1;
		any = true;
	}
	return 0;
}

int
table_write_tasks(FILE *f, const struct report *r, int width, bool verbose, struct err *err)
{
	struct layout l;
	struct buf line;
	int rc;

	if (width <= 0)
		width = TABLE_WIDTH_DEFAULT;
	errno = 0;
	if (r->nrows == 0)   /* a header alone reads like a bug; say it */
		return err_check_write(f, fputs("(no tasks)\n", f) == EOF ? -1 : 0, "table", err);
	plan(r, width, verbose, &l);
	buf_init(&line, 1 << 20);
	rc = row_line(&line, r, NULL, &l) | put_line(f, &line);
	for (size_t i = 0; rc == 0 && i < r->nrows; i++)
		rc = row_line(&line, r, &r->rows[i], &l) | put_line(f, &line);
	if (rc == 0)
		rc = footnotes(f, &line, r, &l, width);
	buf_cleanup(&line);
	return err_check_write(f, rc, "table", err);
}


struct summary_sink {
	FILE *f;
	struct buf *line;
	int width;
	int rc;
};

static void
summary_line(void *ctx, enum compare_line_kind kind, const char *text)
{
	struct summary_sink *ss = ctx;
	char clean[CELL_SIZE];

	sanitise(text, clean, sizeof clean);
	if (kind == CMP_LINE_VERDICT) {
		ss->rc |= put_wrapped(ss->f, ss->line, clean, ss->width);
		return;
	}
	ss->rc |= buf_adds(ss->line, clean);
	ss->rc |= put_line(ss->f, ss->line);
}

/* The group's startup cost, under its statistics. */
static int
cost_line(FILE *f, struct buf *line, const struct report *r, size_t gi, int width)
{
	char text[512];

	if (!report_cost_text(r, gi, text, sizeof text))
		return 0;
	return put_wrapped(f, line, text, width);
}

/* Stopped tasks counted per cause, each with its next step. */
static int
diagnosis_block(FILE *f, struct buf *line, const struct report *r, int width)
{
	const char *ids[64];
	size_t counts[64], n = report_diagnosis_counts(r, ids, counts, 64), total = 0;
	char text[CELL_SIZE];
	int rc = 0;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		total += counts[i];
	rc |= put_line(f, line);
	rc |= buf_addf(line, "DIAGNOSIS: %zu stopped task%s with a known cause", total,
		       total == 1 ? "" : "s");
	rc |= put_line(f, line);
	for (size_t i = 0; i < n; i++) {
		const struct diag_rule *d = diagnose_rule(ids[i]);

		snprintf(text, sizeof text, "%zu x %s: %s; next: %s", counts[i], d->id, d->cause,
			 d->next_step);
		rc |= put_wrapped(f, line, text, width);
	}
	return rc;
}

int
table_write_summary(FILE *f, const struct report *r, int width, struct err *err)
{
	struct buf line;
	int rc = 0;

	if (width <= 0)
		width = TABLE_WIDTH_DEFAULT;
	errno = 0;
	if (r->ngroups == 0)
		return err_check_write(f, fputs("(no tasks)\n", f) == EOF ? -1 : 0, "table", err);
	buf_init(&line, 1 << 20);
	struct summary_sink ss = { f, &line, width, 0 };
	struct compare_style st = { width, true };
	char verdict[512];

	/* each group's statistics, then benchstat's comparison of each with the baseline,
	 * then hyperfine's one-line verdicts last, where a terminal leaves the eye */
	for (size_t g = 0; ss.rc == 0 && g < r->ngroups; g++) {
		if (g > 0)
			ss.rc |= put_line(f, &line);
		compare_group_lines(r, g, &st, summary_line, &ss);
		ss.rc |= cost_line(f, &line, r, g, width);
	}
	for (size_t g = 0; ss.rc == 0 && g < r->ngroups; g++) {
		if (g == r->baseline)
			continue;
		ss.rc |= put_line(f, &line);
		compare_vs_lines(r, g, &st, summary_line, &ss);
	}
	ss.rc |= diagnosis_block(f, &line, r, width);
	if (r->ngroups > 1)
		ss.rc |= put_line(f, &line);
	for (size_t g = 0; ss.rc == 0 && g < r->ngroups; g++) {
		if (g == r->baseline)
			continue;
		compare_verdict(r, g, verdict, sizeof verdict);
		summary_line(&ss, CMP_LINE_VERDICT, verdict);
	}
	rc = ss.rc;
	buf_cleanup(&line);
	return err_check_write(f, rc, "table", err);
}
