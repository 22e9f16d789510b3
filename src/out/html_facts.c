/* html_facts: the page's image facts (one row per image the run pulled, as `ecsprof images`
 * shows them) and its diagnosis counts (stopped tasks per known cause, with the next step),
 * each a <section> written only when the report has something to put in it. */
#include <math.h>
#include <stdlib.h>

#include "html_int.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/image_rows.h"
#include "ecsprof/xalloc.h"

static void
cell_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	html_esc(f, s != NULL && s[0] != '\0' ? s : "-");
	fputs("</td>", f);
}

static void
cell_secs(FILE *f, double s)
{
	if (isnan(s))
		fputs("<td class=\"n\">-</td>", f);
	else
		fprintf(f, "<td class=\"n\">%.3f</td>", s);
}

static void
write_images(FILE *f, const struct report *r)
{
	static const char *const heads[] = { "repository", "tag", "platform", "size", "layers",
		"compression", "SOCI index", "advice", "tasks", "pull p50 (s)", "pull p90 (s)" };
	struct task_set view;
	struct image_rows rows;

	if (r->images == NULL || image_set_len(r->images) == 0)
		return;
	/* image_rows joins facts with tasks over a task_set: give it the report's tasks (a
	 * shallow copy that borrows every string, so no task_set_cleanup) */
	task_set_init(&view);
	view.tasks = xcalloc(r->nrows ? r->nrows : 1, sizeof *view.tasks);
	for (size_t i = 0; i < r->nrows; i++)
		view.tasks[i] = *r->rows[i].task;
	view.len = r->nrows;
	view.images = (struct image_set *)r->images;
	image_rows_build(&view, &rows);
	free(view.tasks);

	fprintf(f, "<section id=\"images\"><h2>Images (%zu)</h2>\n", rows.n);
	if (rows.n == 0) {
		fputs("<p>none: ECR gave no facts about the images of these tasks.</p></section>\n", f);
		image_rows_cleanup(&rows);
		return;
	}
	fputs("<p class=\"note\">Compressed sizes from ECR; advice as in <code>ecsprof images"
	      "</code>.</p>\n<div class=\"scroll\"><table><thead><tr>", f);
	for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
		fprintf(f, "<th>%s</th>", heads[i]);
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < rows.n; i++) {
		const struct image_row *w = &rows.v[i];
		const struct image_facts *x = w->facts;
		char size[32] = "-";

		if (x->size_bytes >= 0)
			snprintf(size, sizeof size, "%.1f MiB", (double)x->size_bytes / (1 << 20));
		fputs("<tr>", f);
		cell_text(f, x->repository ? x->repository : x->image);
		cell_text(f, w->tag);
		cell_text(f, x->platform);
		cell_text(f, size);
		fprintf(f, "<td class=\"n\">%zu</td>", x->nlayers);
		cell_text(f, image_facts_compression(x));
		cell_text(f, image_soci_name(x->soci));
		cell_text(f, soci_advice_name(w->advice));
		fprintf(f, "<td class=\"n\">%zu</td>", w->ntasks);
		cell_secs(f, w->pull_p50_s);
		cell_secs(f, w->pull_p90_s);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
	image_rows_cleanup(&rows);
}

static void
write_diagnoses(FILE *f, const struct report *r)
{
	const char *ids[64];
	size_t counts[64], n = report_diagnosis_counts(r, ids, counts, 64), total = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		total += counts[i];
	fprintf(f, "<section id=\"diagnosis\"><h2>Diagnosis (%zu stopped task%s with a known "
		"cause)</h2>\n<div class=\"scroll\"><table><thead><tr><th>tasks</th>"
		"<th>diagnosis</th><th>cause</th><th>next step</th></tr></thead><tbody>\n",
		total, total == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const struct diag_rule *d = diagnose_rule(ids[i]);

		fprintf(f, "<tr><td class=\"n\">%zu</td>", counts[i]);
		cell_text(f, ids[i]);
		cell_text(f, d ? d->cause : NULL);
		cell_text(f, d ? d->next_step : NULL);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

void
html_write_facts(FILE *f, const struct report *r)
{
	write_images(f, r);
	write_diagnoses(f, r);
}
