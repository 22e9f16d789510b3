/* xlsx: the workbook. libxlsxwriter writes a named file, so the workbook goes to a
 * temporary file first and is then copied to the caller's stream, which keeps -o atomic
 * (app_write's rename) and lets a pipe take it too. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xlsxwriter.h>

#include "ecsprof/atomicfile.h"
#include "ecsprof/buf.h"
#include "ecsprof/phase.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "ecsprof/xlsx.h"
#include "xlsx_int.h"

/* Excel refuses longer strings in a cell */
#define XLSX_CELL_MAX 32767
/* above this many rows keep memory flat: rows go straight to disk (inline strings) */
#define XLSX_CONSTANT_MEMORY_ROWS 20000

void
xlsx_note(struct xlsx *x, lxw_error e)
{
	if (e != LXW_NO_ERROR && x->error == LXW_NO_ERROR)
		x->error = e;
}

/* s as a cell may hold it: each unsafe code point or invalid byte (termsafe_cp_unsafe:
 * controls, bidi controls, noncharacters, which XML 1.0 refuses or which reorder what is
 * read) becomes '?', as in the CSV; a literal "_xHHHH_", which Excel would read as the
 * escape of code point HHHH, has its '_' written as the escape of '_' (_x005F_), so it shows
 * as typed; the cell stops before XLSX_CELL_MAX bytes, never inside a sequence. */
static char *
xlsx_cell_text(const char *s)
{
	struct buf b;

	buf_init(&b, XLSX_CELL_MAX);
	for (const char *p = s; *p != '\0';) {
		size_t bad = termsafe_shared_bad_len(p), len = utf8_len((const unsigned char *)p);
		const char *out = p;
		size_t outlen = len;

		if (bad > 0) {
			out = "?";
			outlen = 1;
			len = bad;
		} else if (p[0] == '_' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2]) &&
			   isxdigit((unsigned char)p[3]) && isxdigit((unsigned char)p[4]) &&
			   isxdigit((unsigned char)p[5]) && p[6] == '_') {
			out = "_x005F_";
			outlen = 7;
		}
		if (buf_add(&b, out, outlen) != 0)
			break;   /* the cell is full */
		p += len;
	}
	return buf_take(&b);
}

void
xlsx_put_text(struct xlsx *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, const char *s)
{
	char *cell;

	if (s == NULL || *s == '\0')
		return;
	cell = xlsx_cell_text(s);
	xlsx_note(x, worksheet_write_string(ws, r, c, cell, x->text));
	free(cell);
}

void
xlsx_put_num(struct xlsx *x, lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v, lxw_format *fmt)
{
	if (isfinite(v))
		xlsx_note(x, worksheet_write_number(ws, r, c, v, fmt));
}

/* epoch ms -> Excel's serial date (days since 1899-12-30, UTC) */
double
xlsx_excel_date(int64_t ms)
{
	return (double)ms / 86400000.0 + 25569.0;
}

/* "256" -> 256; "1 vCPU" stays text */
static bool
as_number(const char *s, double *v)
{
	char *end;

	if (s == NULL || *s == '\0')
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return errno == 0 && *end == '\0' && isfinite(*v);
}

static void
formats(struct xlsx *x)
{
	x->head = workbook_add_format(x->wb);
	format_set_bold(x->head);
	format_set_bg_color(x->head, 0xE8ECF1);
	format_set_bottom(x->head, LXW_BORDER_THIN);
	x->when = workbook_add_format(x->wb);
	format_set_num_format(x->when, "yyyy-mm-dd hh:mm:ss.000");
	x->secs = workbook_add_format(x->wb);
	format_set_num_format(x->secs, "0.000");
	x->num = workbook_add_format(x->wb);
	format_set_num_format(x->num, "0");
	x->usd = workbook_add_format(x->wb);
	format_set_num_format(x->usd, "0.000000");   /* a start costs fractions of a cent */
	x->ratio = workbook_add_format(x->wb);
	format_set_num_format(x->ratio, "0.000");
	x->pct = workbook_add_format(x->wb);
	format_set_num_format(x->pct, "0.0%");   /* a share: 0.724 shows as 72.4% */
	x->pval = workbook_add_format(x->wb);
	/* a tiny p keeps its magnitude (5.06E-31, not 0.0000), as the CSV's significant digits
	 * do; the sheet's value is the full double either way */
	format_set_num_format(x->pval, "[<0.001]0.00E+00;0.000");
	x->text = NULL;
}

static void
tasks_sheet(struct xlsx *x, const struct report *r)
{
	lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Tasks");
	double width[COL_COUNT];
	char cell[1024];

	if (ws == NULL) {
		xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	/* widths first: in constant-memory mode rows leave as they are written */
	for (int c = 0; c < COL_COUNT; c++) {
		size_t w = strlen(report_columns[c].name) + 3;

		if (report_columns[c].kind == COL_TIME)
			w = w < 24 ? 24 : w;
		else if (report_columns[c].kind == COL_DURATION)
			w = w < 11 ? 11 : w;
		else
			for (size_t i = 0; i < r->nrows && i < 2000; i++) {
				size_t n = strlen(report_cell(r, &r->rows[i], (enum col_id)c, cell,
							      sizeof cell)) + 2;
				if (n > w)
					w = n;
			}
		width[c] = w > 60 ? 60 : (double)w;
		xlsx_note(x, worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, width[c], NULL));
	}
	for (int c = 0; c < COL_COUNT; c++)
		xlsx_note(x, worksheet_write_string(ws, 0, (lxw_col_t)c, report_columns[c].name, x->head));
	for (size_t i = 0; i < r->nrows; i++) {
		const struct report_row *row = &r->rows[i];
		lxw_row_t y = (lxw_row_t)(i + 1);

		for (int c = 0; c < COL_COUNT; c++) {
			int64_t ms;
			double v;

			switch (report_columns[c].kind) {
			case COL_TIME:
				if ((ms = report_cell_ms(row, (enum col_id)c)) != TS_NONE)
					xlsx_put_num(x, ws, y, (lxw_col_t)c, xlsx_excel_date(ms), x->when);
				break;
			case COL_DURATION:
				if ((ms = report_cell_ms(row, (enum col_id)c)) != TS_NONE)
					xlsx_put_num(x, ws, y, (lxw_col_t)c, (double)ms / 1000.0, x->secs);
				break;
			case COL_TEXT: {
				/* report_cell cuts at the buffer: long reasons come straight from the task */
				const char *s = c == COL_STOPPED_REASON ? row->task->prof->stopped_reason :
						report_cell(r, row, (enum col_id)c, cell, sizeof cell);

				if ((c == COL_CPU || c == COL_MEMORY) && as_number(s, &v))
					xlsx_put_num(x, ws, y, (lxw_col_t)c, v, x->num);
				else
					xlsx_put_text(x, ws, y, (lxw_col_t)c, s);
				break;
			}
			case COL_NUMBER:   /* startup_cost_usd */
				if (as_number(report_cell(r, row, (enum col_id)c, cell, sizeof cell), &v))
					xlsx_put_num(x, ws, y, (lxw_col_t)c, v, x->usd);
				break;
			}
		}
	}
	worksheet_freeze_panes(ws, 1, 0);
	xlsx_note(x, worksheet_autofilter(ws, 0, 0, (lxw_row_t)r->nrows, COL_COUNT - 1));
}

static const char *const summary_heads[] = {
	"group", "phase", "n", "min_s", "p50_s", "p90_s", "p99_s", "max_s", "mean_s",
	"baseline", "p50_delta_s", "p50_ratio", "p90_delta_s", "p90_ratio", "p_value",
	"pull_share", "startup_cost_per_1000_usd", "baseline_startup_cost_per_1000_usd",
	"startup_cost_unpriced_n", "startup_cost_unpriced", "diagnosis_counts", "verdict",
};
#define NSUMMARY (sizeof summary_heads / sizeof summary_heads[0])

static void
summary_sheet(struct xlsx *x, const struct report *r)
{
	lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Summary");
	lxw_row_t y = 1;
	char verdict[512], unpriced[1024];
	size_t gw = 8;

	if (ws == NULL) {
		xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	for (size_t g = 0; g < r->ngroups; g++)
		if (strlen(r->groups[g].name) + 2 > gw)
			gw = strlen(r->groups[g].name) + 2;
	gw = gw > 40 ? 40 : gw;
	xlsx_note(x, worksheet_set_column(ws, 0, 0, (double)gw, NULL));
	xlsx_note(x, worksheet_set_column(ws, 1, 1, 14, NULL));
	xlsx_note(x, worksheet_set_column(ws, 2, 8, 9, NULL));
	xlsx_note(x, worksheet_set_column(ws, 9, 9, (double)gw, NULL));
	xlsx_note(x, worksheet_set_column(ws, 10, 15, 12, NULL));
	xlsx_note(x, worksheet_set_column(ws, 16, 18, 14, NULL));
	xlsx_note(x, worksheet_set_column(ws, 19, 20, 40, NULL));
	xlsx_note(x, worksheet_set_column(ws, 21, 21, 90, NULL));
	for (size_t c = 0; c < NSUMMARY; c++)
		xlsx_note(x, worksheet_write_string(ws, 0, (lxw_col_t)c, summary_heads[c], x->head));
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct report_group *gr = &r->groups[g];

		for (int p = 0; p < PHASE_COUNT; p++, y++) {
			const struct stats_summary *s = &gr->phase[p];
			const struct phase_compare *cmp = &gr->cmp[p];
			bool have = s->n > 0, compared = g != r->baseline && cmp->valid;

			/* the summary CSV's phases: ready and serving are task columns there */
			if (phase_is_extra((enum phase_id)p)) {
				y--;
				continue;
			}
			double st[] = { s->min, s->p50, s->p90, s->p99, s->max, s->mean };

			xlsx_put_text(x, ws, y, 0, gr->name);
			xlsx_put_text(x, ws, y, 1, phase_defs[p].name);
			xlsx_put_num(x, ws, y, 2, (double)s->n, x->num);
			for (int k = 0; k < 6 && have; k++)
				xlsx_put_num(x, ws, y, (lxw_col_t)(3 + k), st[k], x->secs);
			if (compared) {
				xlsx_put_text(x, ws, y, 9, r->groups[r->baseline].name);
				xlsx_put_num(x, ws, y, 10, cmp->p50_delta_s, x->secs);
				xlsx_put_num(x, ws, y, 11, cmp->p50_ratio, x->ratio);
				xlsx_put_num(x, ws, y, 12, cmp->p90_delta_s, x->secs);
				xlsx_put_num(x, ws, y, 13, cmp->p90_ratio, x->ratio);
				xlsx_put_num(x, ws, y, 14, cmp->p_value, x->pval);
			}
			xlsx_put_num(x, ws, y, 15, gr->pull_share, x->pct);
			/* the summary CSV's cost columns: per 1,000 starts, and the unpriced */
			if (gr->cost_n > 0)
				xlsx_put_num(x, ws, y, 16, gr->cost_mean_usd * 1000.0, x->usd);
			if (g != r->baseline && gr->cost_n > 0 && r->groups[r->baseline].cost_n > 0)
				xlsx_put_num(x, ws, y, 17, r->groups[r->baseline].cost_mean_usd * 1000.0,
					x->usd);
			xlsx_put_num(x, ws, y, 18, (double)gr->cost_unpriced, x->num);
			if (gr->nunpriced > 0)
				xlsx_put_text(x, ws, y, 19, report_unpriced_list(gr, unpriced,
									   sizeof unpriced));
			if (report_group_diagnosis_list(r, g, unpriced, sizeof unpriced)[0])
				xlsx_put_text(x, ws, y, 20, unpriced);
			if (r->ngroups > 1) {
				report_verdict(r, g, (enum phase_id)p, verdict, sizeof verdict);
				xlsx_put_text(x, ws, y, 21, verdict);
			}
		}
	}
	worksheet_freeze_panes(ws, 1, 1);
	xlsx_note(x, worksheet_autofilter(ws, 0, 0, y - 1, NSUMMARY - 1));
}

/* a stacked bar per task (against Tasks' provision_s, pull_s, start_s, labelled with the
 * ids cut as the table cuts them, in column A of this sheet: a full id is 32 characters
 * of the chart's width) or, for a large set, per group of its p50s (a small table on this
 * sheet) */
static void
chart_sheet(struct xlsx *x, const struct report *r)
{
	/* each phase's one colour (phase.h), as the page and the TUI draw it */
	static const enum phase_id drawn[3] = { PHASE_PROVISION, PHASE_PULL, PHASE_START };
	static const enum col_id cols[3] = { COL_PROVISION_S, COL_PULL_S, COL_START_S };
	lxw_worksheet *ws = workbook_add_worksheet(x->wb, "Chart");
	lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_BAR_STACKED);
	bool per_task = r->nrows <= XLSX_CHART_TASKS;
	size_t nbars = per_task ? r->nrows : r->ngroups;
	const char *sheet = per_task ? "Tasks" : "Chart";
	lxw_row_t first = 1, last = (lxw_row_t)nbars;
	char title[128];

	if (ws == NULL || ch == NULL) {
		xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
		return;
	}
	if (nbars == 0)
		return;
	if (per_task) {
		int idlen = report_id_prefix_len(r);

		xlsx_note(x, worksheet_set_column(ws, 0, 0, 12, NULL));
		xlsx_note(x, worksheet_write_string(ws, 0, 0, "task", x->head));
		for (size_t i = 0; i < r->nrows; i++) {
			const char *id = task_id(r->rows[i].task);
			char *cut = xstrndup(id != NULL ? id : "", (size_t)idlen);

			xlsx_put_text(x, ws, (lxw_row_t)(i + 1), 0, cut);
			free(cut);
		}
	} else {
		static const char *const heads[] = { "group", "tasks", "provision p50 (s)",
						     "pull p50 (s)", "start p50 (s)" };

		xlsx_note(x, worksheet_set_column(ws, 0, 0, 24, NULL));
		xlsx_note(x, worksheet_set_column(ws, 1, 4, 16, NULL));
		for (lxw_col_t c = 0; c < 5; c++)
			xlsx_note(x, worksheet_write_string(ws, 0, c, heads[c], x->head));
		for (size_t g = 0; g < r->ngroups; g++) {
			xlsx_put_text(x, ws, (lxw_row_t)(g + 1), 0, r->groups[g].name);
			xlsx_put_num(x, ws, (lxw_row_t)(g + 1), 1, (double)r->groups[g].ntasks, x->num);
			for (int p = 0; p < 3; p++)
				xlsx_put_num(x, ws, (lxw_row_t)(g + 1), (lxw_col_t)(2 + p),
					r->groups[g].phase[p].p50, x->secs);
		}
	}
	for (int p = 0; p < 3; p++) {
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_fill fill = { .color = phase_colours[drawn[p]].rgb };
		lxw_col_t vc = per_task ? (lxw_col_t)cols[p] : (lxw_col_t)(2 + p);

		if (s == NULL) {
			xlsx_note(x, LXW_ERROR_MEMORY_MALLOC_FAILED);
			return;
		}
		chart_series_set_categories(s, "Chart", first, 0, last, 0);
		chart_series_set_values(s, sheet, first, vc, last, vc);
		chart_series_set_name(s, phase_defs[p].name);
		chart_series_set_fill(s, &fill);
	}
	if (per_task)
		snprintf(title, sizeof title, "Startup phases per task (%zu tasks)", r->nrows);
	else
		snprintf(title, sizeof title, "p50 startup phases per group (%zu tasks)", r->nrows);
	chart_title_set_name(ch, title);
	chart_axis_set_name(ch->y_axis, "seconds");
	chart_axis_set_reverse(ch->x_axis);   /* the first task at the top, as in the sheet */
	chart_legend_set_position(ch, LXW_CHART_LEGEND_TOP);
	chart_set_series_gap(ch, 40);
	lxw_chart_options co = { .x_scale = 2.2, .y_scale = 1 };
	double h = 90.0 + 16.0 * (double)nbars;

	co.y_scale = h < 288 ? 1 : h / 288.0;
	xlsx_note(x, worksheet_insert_chart_opt(ws, 1, per_task ? 1 : 6, ch, &co));
}

/* the finished workbook into f */
static int
copy_file(const char *path, FILE *f, struct err *err)
{
	FILE *in = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	int rc = 0;

	if (in == NULL)
		return err_set(err, ERR_IO, "xlsx: cannot read back %s: %s", path, err_strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
		if (fwrite(chunk, 1, n, f) != n) {
			rc = err_set(err, ERR_IO, "xlsx: write failed: %s", err_strerror(errno));
			break;
		}
	if (rc == 0 && ferror(in))
		rc = err_set(err, ERR_IO, "xlsx: cannot read back %s: %s", path, err_strerror(errno));
	fclose(in);
	return rc;
}

int
xlsx_book(FILE *f, bool constant_memory, xlsx_fill_fn *fill, const void *ctx, struct err *err)
{
	const char *dir = getenv("TMPDIR");
	struct xlsx x = { 0 };
	lxw_workbook_options wo = { .constant_memory = constant_memory };
	sigset_t block, old;
	char *path;
	int fd, rc, errno_was = 0;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	path = xasprintf("%s/ecsprof-xlsx-XXXXXX", dir);
	/* Ctrl-C or SIGTERM while the workbook is written must not leave it in TMPDIR:
	 * atomicfile's handler removes it, and no signal falls between create and track */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = mkstemp(path);
	if (fd >= 0)
		atomicfile_track_temp(path);
	else
		errno_was = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		rc = err_set(err, ERR_IO, "xlsx: cannot create a temporary file in %s: %s", dir,
			     err_strerror(errno_was));
		free(path);
		return rc;
	}
	close(fd);
	wo.tmpdir = (char *)dir;
	x.wb = workbook_new_opt(path, &wo);
	if (x.wb == NULL) {
		unlink(path);
		atomicfile_untrack_temp(path);
		rc = err_set(err, ERR_IO, "xlsx: cannot start a workbook in %s", path);
		free(path);
		return rc;
	}
	formats(&x);
	fill(&x, ctx);
	lxw_error closed = workbook_close(x.wb);   /* frees the workbook in any case */

	if (x.error != LXW_NO_ERROR || closed != LXW_NO_ERROR)
		rc = err_set(err, ERR_IO, "xlsx: %s", lxw_strerror(x.error != LXW_NO_ERROR ?
								   x.error : closed));
	else
		rc = copy_file(path, f, err);
	unlink(path);
	atomicfile_untrack_temp(path);
	free(path);
	if (rc != 0)
		return -1;
	return err_check_write(f, 0, "xlsx", err);
}

static void
report_fill(struct xlsx *x, const void *ctx)
{
	const struct report *r = ctx;

	tasks_sheet(x, r);
	summary_sheet(x, r);
	chart_sheet(x, r);
}

int
xlsx_write(FILE *f, const struct report *r, struct err *err)
{
	return xlsx_book(f, r->nrows > XLSX_CONSTANT_MEMORY_ROWS, report_fill, r, err);
}
