/* html: the page around the plots: the style sheet, the header, the summary with its
 * verdicts, the failed starts and the task table. Every text from the input is escaped;
 * nothing on the page is fetched (no src or href leaves the file). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "ecsprof/phase.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"

/* ---- the style sheet ---- */

/* one string per rule group: C limits the length of one literal */
static const char *const css[] = {
	":root{--fg:#1d232b;--muted:#5c6773;--line:#d9dee4;--bg:#fff;--card:#f6f8fa;"
	"--fail:#c62828;--conn:#1d232b}\n",
	"*{box-sizing:border-box}\n",
	"body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
	"color:var(--fg);background:var(--bg)}\n",
	"main{max-width:1120px;margin:0 auto;padding:24px 28px 48px}\n",
	"h1{font-size:26px;margin:0 0 4px;letter-spacing:-.01em}\n",
	"h2{font-size:19px;margin:34px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n",
	"h3{font-size:16px;margin:18px 0 6px}\n",
	".sub{color:var(--muted);margin:0 0 16px}\n",
	"code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--card);"
	"padding:1px 5px;border-radius:4px;overflow-wrap:anywhere}\n",
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:0 0 8px}\n",
	"dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}\n",
	".cards{display:flex;flex-wrap:wrap;gap:12px;margin:18px 0 4px}\n",
	".card{background:var(--card);border:1px solid var(--line);border-left:5px solid var(--c,#888);"
	"border-radius:6px;padding:10px 14px;min-width:200px;flex:1 1 220px}\n",
	".card .g{font-weight:600;overflow-wrap:anywhere}.card .big{font-size:24px;font-weight:650;"
	"font-variant-numeric:tabular-nums}.card .small{color:var(--muted);font-size:13px}\n",
	".note{color:var(--muted);font-size:13.5px;margin:4px 0 8px}\n",
	".legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:6px 0}\n",
	".legend i{display:inline-block;width:14px;height:10px;border-radius:2px;margin-right:5px;"
	"vertical-align:-1px}\n",
	".legend i.p0{background:var(--p0)}.legend i.p1{background:var(--p1)}"
	".legend i.p2{background:var(--p2)}.legend i.p3{background:var(--p3)}.legend i.conn{background:var(--conn);width:3px}\n",
	".legend .xmark{color:var(--fail);margin-right:5px}\n",
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}.hint{display:none}\n",
	"svg{display:block;width:100%;height:auto}\n",
	"svg text{font:11px system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;fill:var(--muted)}\n",
	"svg.wf{min-width:640px}\n",
	"svg .axis line{stroke:var(--line);stroke-width:1}svg.wf .axis text{text-anchor:middle}\n",
	"svg .band{fill:transparent}svg .row:hover .band{fill:#eef2f7}\n",
	"svg .lbl{text-anchor:end;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
	"font-size:10.5px;fill:var(--fg)}\n",
	"svg .failed .lbl{fill:var(--fail);font-weight:600}\n",
	"svg .p0{fill:var(--p0)}svg .p1{fill:var(--p1)}svg .p2{fill:var(--p2)}"
	"svg .p3{fill:var(--p3)}\n",
	"svg .cut rect{fill:#f1f3f6}svg .cut path{stroke:#9aa4b1;fill:none;stroke-width:1.2}"
	"svg.wf .axis text.t0{fill:var(--fg);font-weight:600}\n"
	"svg .conn{fill:var(--conn)}svg .span{stroke:#aab3bf;stroke-width:1.2}\n",
	"svg .fail{stroke:var(--fail);stroke-width:1.5;stroke-dasharray:3 2}\n",
	"svg .x{stroke:var(--fail);stroke-width:2.2;fill:none}svg .nfail{fill:var(--fail);font-weight:600}\n",
	".cdfs{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:14px}\n",
	"figure.cdf{margin:0;background:var(--card);border:1px solid var(--line);border-radius:6px;"
	"padding:8px 8px 2px}\n",
	"figure.cdf figcaption{font-size:13.5px;color:var(--muted);padding:0 4px}\n",
	"figure.cdf figcaption b{color:var(--fg);margin-right:4px}\n",
	"svg .yl{text-anchor:end}svg .unit{text-anchor:middle}\n",
	"figure.cdf svg .axis text{text-anchor:middle}figure.cdf svg .axis text.yl{text-anchor:end}\n",
	"svg polyline{fill:none;stroke-width:1.8;stroke-linejoin:round}\n",
	"svg polyline.base{stroke-width:7;stroke-opacity:.22}\n",
	"table{border-collapse:collapse;width:100%;font-size:13.5px;font-variant-numeric:tabular-nums}\n",
	"th,td{padding:4px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}\n",
	"th{font-weight:600;color:var(--muted);font-size:12.5px;background:var(--card);vertical-align:bottom}\n",
	"td.n,th.n{text-align:right;white-space:nowrap}td.w{white-space:nowrap}\n",
	"td.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;"
	"white-space:nowrap}\n",
	"tr.failed td{background:#fdecec}tr.failed td.st{color:var(--fail);font-weight:600}\n",
	".group{margin:8px 0 22px}.group h3 .tag{font-size:12px;font-weight:500;color:var(--muted);"
	"border:1px solid var(--line);border-radius:10px;padding:1px 8px;margin-left:6px}\n",
	"ul.verdicts{list-style:none;padding:0;margin:8px 0}\n",
	"ul.verdicts li{padding:4px 10px;margin:3px 0;border-radius:4px;background:var(--card);"
	"border-left:4px solid #aab3bf}\n",
	"ul.verdicts li.faster{border-left-color:#2e7d32;background:#edf7ee}\n",
	"ul.verdicts li.slower{border-left-color:var(--fail);background:#fdecec}\n",
	"ul.verdicts li.few{border-left-color:#e69f00}\n",
	"ul.verdicts .v{font-weight:600}\n",
	"footer{margin-top:40px;color:var(--muted);font-size:12.5px}\n",
	"@media (max-width:640px){main{padding:14px 12px 32px}body{font-size:14px}h1{font-size:21px}"
	"h2{font-size:17px;margin-top:26px}.card{min-width:0;flex:1 1 100%}"
	".cdfs{grid-template-columns:1fr}table{font-size:12.5px}th,td{padding:3px 5px}"
	"dl.meta{grid-template-columns:1fr}dl.meta dt{margin-top:4px}.hint{display:block}}\n",
	"@media print{@page{margin:14mm}body{font-size:10pt}main{max-width:none;padding:0}"
	".scroll{overflow:visible}svg.wf{min-width:0}h2{break-after:avoid}"
	"figure.cdf,.card,.group,tr{break-inside:avoid}svg .row:hover .band{fill:transparent}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n",
};

/* ---- header ---- */

static void
write_time(FILE *f, int64_t ms)
{
	char when[TIMEUTIL_ISO_LEN];

	timeutil_format_iso(ms, when);
	html_esc(f, when[0] ? when : "-");
}

/* distinct values of a task string over the rows, "a, b, c and 4 more" */
static void
write_distinct(FILE *f, const struct report *r, const char *(*get)(const struct task *))
{
	const char *seen[4];
	size_t nseen = 0, more = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const char *v = get(r->rows[i].task);
		bool dup = false;

		if (v == NULL || *v == '\0')
			continue;
		for (size_t j = 0; j < nseen && !dup; j++)
			dup = strcmp(seen[j], v) == 0;
		if (dup)
			continue;
		if (nseen < 4)
			seen[nseen++] = v;
		else
			more++;   /* counts repeats past the fourth too: "more" is "at least" */
	}
	if (nseen == 0)
		fputs("-", f);
	for (size_t j = 0; j < nseen; j++) {
		fputs(j ? ", " : "", f);
		html_esc(f, seen[j]);
	}
	if (more)
		fputs(", \xe2\x80\xa6", f);
}

static const char *get_cluster(const struct task *t) { return t->prof->cluster; }
static const char *get_service(const struct task *t) { return t->prof->service; }
static const char *get_taskdef(const struct task *t) { return t->prof->taskdef; }

static void
write_header(FILE *f, const struct report *r, const struct html_meta *m)
{
	int64_t first = TS_NONE, last = TS_NONE;
	size_t nfailed = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct task *t = r->rows[i].task;
		int64_t c = task_ts(t, TS_CREATED), e = html_task_end(t);

		nfailed += html_task_failed(t);
		if (c != TS_NONE && (first == TS_NONE || c < first))
			first = c;
		if (e != TS_NONE && (last == TS_NONE || e > last))
			last = e;
	}
	fprintf(f, "<header><h1>Where the time went: %zu task%s</h1>\n", r->nrows,
		r->nrows == 1 ? "" : "s");
	fputs("<p class=\"sub\">ECS task startup, split into provision (capacity, ENI, agent), "
	      "image pull and container start.</p>\n<dl class=\"meta\">", f);
	if (m->command != NULL) {
		fputs("<dt>Profiled</dt><dd><code>", f);
		html_esc(f, m->command);
		fputs("</code></dd>", f);
	}
	fputs("<dt>Cluster</dt><dd>", f);
	write_distinct(f, r, get_cluster);
	fputs("</dd><dt>Service</dt><dd>", f);
	write_distinct(f, r, get_service);
	fputs("</dd><dt>Task definition</dt><dd>", f);
	write_distinct(f, r, get_taskdef);
	fprintf(f, "</dd><dt>Tasks</dt><dd>%zu", r->nrows);
	if (nfailed > 0)
		fprintf(f, ", <strong>%zu failed to start</strong>", nfailed);
	fputs("</dd><dt>Created</dt><dd>", f);
	write_time(f, first);
	fputs(" to ", f);
	write_time(f, last);
	if (first != TS_NONE && last != TS_NONE) {
		char v[64];

		html_fmt_secs(last - first, v, sizeof v);
		fprintf(f, " (%s from the first created to the last start)", v);
	}
	fputs("</dd><dt>Filters</dt><dd>", f);
	if (m->filters != NULL && m->filters[0] != '\0') {
		fputs("<code>", f);
		html_esc(f, m->filters);
		fputs("</code>", f);
	} else {
		fputs("none", f);
	}
	fputs("</dd>", f);
	if (m->group_by != NULL) {
		fputs("<dt>Grouped by</dt><dd>", f);
		html_esc(f, m->group_by);
		fprintf(f, " (%zu group%s", r->ngroups, r->ngroups == 1 ? "" : "s");
		if (r->ngroups > 1) {
			fputs(", baseline ", f);
			html_esc(f, r->groups[r->baseline].name);
		}
		fputs(")</dd>", f);
	}
	if (m->generated_ms != TS_NONE) {
		fputs("<dt>Generated</dt><dd>", f);
		write_time(f, m->generated_ms);
		if (m->version != NULL) {
			fputs(" by ecsprof ", f);
			html_esc(f, m->version);
		}
		fputs("</dd>", f);
	}
	fputs("</dl></header>\n", f);
}

/* one card per group: the p50 of the total and where the time goes */
static void
write_cards(FILE *f, const struct report *r)
{
	char v[64];

	fputs("<div class=\"cards\">", f);
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct report_group *gr = &r->groups[g];
		const struct stats_summary *tot = &gr->phase[PHASE_TOTAL];

		fprintf(f, "<div class=\"card\" style=\"--c:%s\"><div class=\"g\">",
			html_group_colour(g));
		html_esc(f, gr->name);
		fprintf(f, "%s</div>", g == r->baseline && r->ngroups > 1 ? " (baseline)" : "");
		if (tot->n > 0) {
			html_fmt_secs((int64_t)llround(tot->p50 * 1000), v, sizeof v);
			fprintf(f, "<div class=\"big\">%s</div><div class=\"small\">p50 total", v);
			html_fmt_secs((int64_t)llround(tot->p90 * 1000), v, sizeof v);
			fprintf(f, ", p90 %s", v);
		} else {
			fputs("<div class=\"big\">-</div><div class=\"small\">no task reached RUNNING", f);
		}
		fprintf(f, "; %zu task%s", gr->ntasks, gr->ntasks == 1 ? "" : "s");
		if (isfinite(gr->pull_share))
			fprintf(f, "; pull is %.0f%% of startup", gr->pull_share * 100.0);
		fputs("</div></div>", f);
	}
	fputs("</div>\n", f);
}

/* ---- summary ---- */

static void
write_stat(FILE *f, const struct stats_summary *s, double v)
{
	char out[64];

	if (s->n == 0)
		snprintf(out, sizeof out, "-");
	else
		snprintf(out, sizeof out, "%.3f", v);
	fprintf(f, "<td class=\"n\">%s</td>", out);
}

static void
write_verdicts(FILE *f, const struct report *r, size_t gi)
{
	char verdict[512];

	fputs("<ul class=\"verdicts\">", f);
	for (int p = 0; p < PHASE_COUNT; p++) {
		const struct phase_compare *c = &r->groups[gi].cmp[p];
		const char *cls = "ns";

		if (!report_phase_shown(r, (enum phase_id)p))
			continue;

		report_verdict(r, gi, (enum phase_id)p, verdict, sizeof verdict);
		if (c->valid && isfinite(c->p_value) && c->p_value < 0.05)
			cls = c->p50_delta_s < 0 ? "faster" : "slower";
		else if (strstr(verdict, "too few") != NULL)
			cls = "few";
		fprintf(f, "<li class=\"%s\">", cls);
		html_esc(f, verdict);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

static void
write_summary(FILE *f, const struct report *r)
{
	static const char *const heads[] = { "n", "min", "p50", "p90", "p99", "max", "mean" };
	char cost[512];

	fputs("<section id=\"summary\"><h2>Summary</h2>\n<p class=\"note\">Seconds per phase; "
	      "percentiles by linear interpolation; each group against the baseline with a "
	      "two-sided Mann-Whitney U test (significant: p &lt; 0.05).</p>\n", f);
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct report_group *gr = &r->groups[g];

		fprintf(f, "<div class=\"group\"><h3><span style=\"color:%s\">\xe2\x96\xa0</span> ",
			html_group_colour(g));
		html_esc(f, gr->name);
		if (g == r->baseline && r->ngroups > 1)
			fputs("<span class=\"tag\">baseline</span>", f);
		fprintf(f, "<span class=\"tag\">%zu task%s</span>", gr->ntasks,
			gr->ntasks == 1 ? "" : "s");
		if (isfinite(gr->pull_share))
			fprintf(f, "<span class=\"tag\">pull %.1f%% of startup</span>",
				gr->pull_share * 100.0);
		fputs("</h3>\n<div class=\"scroll\"><table><thead><tr><th>phase</th>", f);
		for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
			fprintf(f, "<th class=\"n\">%s</th>", heads[h]);
		fputs("</tr></thead><tbody>", f);
		for (int p = 0; p < PHASE_COUNT; p++) {
			const struct stats_summary *s = &gr->phase[p];

			if (!report_phase_shown(r, (enum phase_id)p))
				continue;
			fprintf(f, "<tr><td>%s</td><td class=\"n\">%zu</td>", phase_defs[p].name, s->n);
			write_stat(f, s, s->min);
			write_stat(f, s, s->p50);
			write_stat(f, s, s->p90);
			write_stat(f, s, s->p99);
			write_stat(f, s, s->max);
			write_stat(f, s, s->mean);
			fputs("</tr>", f);
		}
		fputs("</tbody></table></div>\n", f);
		/* the same cost sentence as the printed summary's and the TUI's */
		if (report_cost_text(r, g, cost, sizeof cost)) {
			fputs("<p class=\"cost\">", f);
			html_esc(f, cost);
			fputs("</p>\n", f);
		}
		if (g != r->baseline && r->ngroups > 1)
			write_verdicts(f, r, g);
		fputs("</div>\n", f);
	}
	fputs("</section>\n", f);
}

/* ---- tasks ---- */

/* A task id cell: cut as the table cuts ids (32 characters would wrap to three lines),
 * the whole id on hover; the CSV keeps it whole. */
static void
id_cell(FILE *f, const char *id, int idlen)
{
	if (id == NULL || strlen(id) <= (size_t)idlen) {
		fputs("<td class=\"id\">", f);
		html_esc(f, id != NULL ? id : "-");
	} else {
		fputs("<td class=\"id\" title=\"", f);
		html_esc(f, id);
		char *cut = xstrndup(id, (size_t)idlen);   /* an input may put markup in an id */

		fputs("\">", f);
		html_esc(f, cut);
		free(cut);
	}
	fputs("</td>", f);
}

static void
write_failed(FILE *f, const struct report *r)
{
	size_t n = 0, shown = 0;
	int idlen = report_id_prefix_len(r);

	for (size_t i = 0; i < r->nrows; i++)
		n += html_task_failed(r->rows[i].task);
	if (n == 0)
		return;
	fprintf(f, "<section id=\"failed\"><h2>Failed starts (%zu)</h2>\n<p class=\"note\">"
		   "Tasks that stopped before RUNNING, with what ECS said.", n);
	if (n > HTML_FAILED_ROWS)
		fprintf(f, " The first %d are listed.", HTML_FAILED_ROWS);
	fputs("</p>\n<div class=\"scroll\"><table><thead><tr><th>task</th><th>group</th>"
	      "<th>stop code</th><th>stopped reason</th></tr></thead><tbody>", f);
	for (size_t i = 0; i < r->nrows && shown < HTML_FAILED_ROWS; i++) {
		const struct task *t = r->rows[i].task;

		if (!html_task_failed(t))
			continue;
		shown++;
		fputs("<tr class=\"failed\">", f);
		id_cell(f, task_id(t), idlen);
		fputs("<td>", f);
		html_esc(f, r->groups[r->rows[i].group].name);
		fputs("</td><td class=\"st\">", f);
		html_esc(f, t->prof->stop_code ? t->prof->stop_code : "-");
		fputs("</td><td>", f);
		html_esc(f, t->prof->stopped_reason ? t->prof->stopped_reason : "-");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

/* The task table's columns: the phases, then what some task has (time to serving, a
 * startup cost, a diagnosis), so a page without them stays as narrow as before. */
static size_t
task_columns(const struct report *r, enum col_id *cols, const char **heads)
{
	static const enum col_id base[] = { COL_TASK_ID, COL_GROUP, COL_LAST_STATUS, COL_AZ,
					    COL_CREATED_AT, COL_PROVISION_S, COL_PULL_S,
					    COL_START_S, COL_TOTAL_S, COL_CONNECTIVITY_S };
	static const char *const base_heads[] = { "task", "group", "status", "AZ",
						  "created (UTC)", "provision", "pull", "start",
						  "total", "connectivity" };
	const char *ids[1];
	size_t counts[1], n = 0;
	bool cost = false;

	for (size_t c = 0; c < sizeof base / sizeof base[0]; c++) {
		cols[n] = base[c];
		heads[n++] = base_heads[c];
	}
	if (r->any_healthy) {
		cols[n] = COL_READY_S;
		heads[n++] = "ready";
		cols[n] = COL_SERVING_S;
		heads[n++] = "serving";
	}
	for (size_t g = 0; g < r->ngroups; g++)
		cost = cost || r->groups[g].cost_n > 0;
	if (cost) {
		cols[n] = COL_STARTUP_COST_USD;
		heads[n++] = "startup cost (USD)";
	}
	if (report_diagnosis_counts(r, ids, counts, 1) > 0) {
		cols[n] = COL_DIAGNOSIS;
		heads[n++] = "diagnosis";
	}
	return n;
}

static void
write_tasks(FILE *f, const struct report *r, size_t max_rows)
{
	enum col_id cols[16];
	const char *heads[16];
	size_t ncols = task_columns(r, cols, heads);
	size_t n = r->nrows < max_rows ? r->nrows : max_rows;
	char cell[1024], day[16] = "";
	bool one_day = true;
	/* ids cut as the table cuts them (32 characters wrap to three lines); the whole id
	 * on hover and in the CSV */
	int idlen = report_id_prefix_len(r);

	/* created: the clock time alone when every task was created on the same day */
	for (size_t i = 0; i < r->nrows && one_day; i++) {
		report_cell(r, &r->rows[i], COL_CREATED_AT, cell, sizeof cell);
		if (cell[0] != '\0' && day[0] == '\0')
			snprintf(day, sizeof day, "%.10s", cell);
		else if (cell[0] != '\0')
			one_day = strncmp(day, cell, 10) == 0;
	}

	fprintf(f, "<section id=\"tasks\"><h2>Tasks (%zu)</h2>\n<p class=\"note\">Phases in "
		   "seconds, in the order of the waterfall.", r->nrows);
	if (n < r->nrows)
		fprintf(f, " <strong>The first %zu of %zu tasks are listed</strong>; "
			   "<code>--format csv</code> or <code>--format xlsx</code> has them all.",
			n, r->nrows);
	fputs("</p>\n<div class=\"scroll\"><table><thead><tr>", f);
	for (size_t c = 0; c < ncols; c++) {
		fprintf(f, "<th%s>", report_columns[cols[c]].kind == COL_DURATION ||
				     report_columns[cols[c]].kind == COL_NUMBER ? " class=\"n\"" : "");
		if (cols[c] == COL_CREATED_AT && one_day && day[0] != '\0')
			fprintf(f, "created %s (UTC)", day);
		else
			fputs(heads[c], f);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct report_row *row = &r->rows[i];
		bool failed = html_task_failed(row->task);

		fputs(failed ? "<tr class=\"failed\">" : "<tr>", f);
		for (size_t c = 0; c < ncols; c++) {
			enum col_id id = cols[c];
			const char *cls = id == COL_TASK_ID ? " class=\"id\"" :
					  report_columns[id].kind == COL_DURATION ||
					  report_columns[id].kind == COL_NUMBER ? " class=\"n\"" :
					  id == COL_LAST_STATUS && failed ? " class=\"st\"" :
					  " class=\"w\"";

			report_cell(r, row, id, cell, sizeof cell);
			if (id == COL_CREATED_AT && one_day && strlen(cell) > 11)
				memmove(cell, cell + 11, strlen(cell + 11) + 1);
			if (id == COL_TASK_ID) {
				id_cell(f, cell[0] ? cell : NULL, idlen);
				continue;
			}
			fprintf(f, "<td%s>", cls);
			html_esc(f, cell[0] ? cell : "-");
			if (id == COL_LAST_STATUS && failed)
				fputs(" (failed to start)", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

int
html_write(FILE *f, const struct report *r, const struct html_meta *m, struct err *err)
{
	static const struct html_meta none = { .generated_ms = TS_NONE };

	if (m == NULL)
		m = &none;
	errno = 0;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"color-scheme\" content=\"light\">\n<title>ecsprof: ", f);
	fprintf(f, "%zu task%s", r->nrows, r->nrows == 1 ? "" : "s");
	if (m->command != NULL) {
		fputs(" \xe2\x80\x94 ", f);
		html_esc(f, m->command);
	}
	fputs("</title>\n<style>\n", f);
	for (size_t i = 0; i < sizeof css / sizeof css[0]; i++)
		fputs(css[i], f);
	/* the waterfall's p0..p3: each phase's one colour (phase.h), as the TUI and xlsx */
	fprintf(f, ":root{--p0:#%06x;--p1:#%06x;--p2:#%06x;--p3:#%06x}\n",
		(unsigned)phase_colours[PHASE_PROVISION].rgb, (unsigned)phase_colours[PHASE_PULL].rgb,
		(unsigned)phase_colours[PHASE_START].rgb, (unsigned)phase_colours[PHASE_READY].rgb);
	fputs("</style>\n</head><body><main>\n", f);
	write_header(f, r, m);
	if (r->nrows == 0) {
		fputs("<p>No tasks matched.</p>\n", f);
	} else {
		write_cards(f, r);
		html_write_waterfall(f, r, m->waterfall_rows ? m->waterfall_rows
							     : HTML_WATERFALL_ROWS);
		html_write_cdfs(f, r);
		write_summary(f, r);
		/* image facts and diagnosis counts (html_facts.c), each only when present */
		html_write_facts(f, r);
		write_failed(f, r);
		write_tasks(f, r, m->table_rows ? m->table_rows : HTML_TABLE_ROWS);
	}
	fputs("<footer>Written by ecsprof", f);
	if (m->version != NULL) {
		fputs(" ", f);
		html_esc(f, m->version);
	}
	fputs(". Phases: provision = pullStartedAt \xe2\x88\x92 createdAt, pull = pullStoppedAt "
	      "\xe2\x88\x92 pullStartedAt, start = startedAt \xe2\x88\x92 pullStoppedAt, total = "
	      "startedAt \xe2\x88\x92 createdAt, connectivity = connectivityAt \xe2\x88\x92 "
	      "createdAt. This page is self-contained: it loads nothing.</footer>\n"
	      "</main></body></html>\n", f);
	return err_check_write(f, 0, "html", err);
}
