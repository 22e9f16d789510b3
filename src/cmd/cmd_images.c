/* cmd_images: `ecsprof images [SELECT] [OUTPUT]`: what was pulled, one row per image. */
#include <stdio.h>
#include <string.h>

#include "cmd_images.h"
#include "ecsprof/app.h"
#include "ecsprof/image_rows.h"
#include "ecsprof/image_rowtab.h"
#include "ecsprof/images_out.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof/sink.h"
#include "ecsprof/tui.h"

/* the terminal UI opened on its images view; q goes to the tasks that pulled them */
static int
images_tui(const struct cli_opts *o, struct task_set *set, struct err *err)
{
	struct report r;
	struct tui_source src = { .title = "ecsprof images" };
	struct tui_options to = { .no_color = o->no_color, .sort_col = -1,
				  .start_images = true };
	int rc;

	if (app_build_report(o, set, &r, err) != 0)
		return -1;
	src.report = &r;
	rc = tui_run(&src, &to, err);
	report_cleanup(&r);
	return rc;
}

/* the rows in the open sink's format: its own writers, Markdown through the row table */
static int
images_write(struct sink *s, const struct image_rows *rows, struct err *err)
{
	struct image_rowtab it;
	const struct row_table *t[] = { &it.t };
	int rc;

	switch (s->format->id) {
	case SINK_CSV: return images_write_csv(s->f, rows, err);
	case SINK_JSON: return images_write_json(s->f, rows, err);
	case SINK_TABLE: return images_write_table(s->f, rows, err);
	case SINK_MARKDOWN:
		image_rowtab_build(&it, rows);
		rc = sink_write(s, t, 1, err);
		image_rowtab_cleanup(&it);
		return rc;
	default:
		return err_set(err, ERR_USAGE, "images: --format is table, csv, json, markdown or tui");
	}
}

int
cmd_images(const struct cli_opts *o, struct err *err)
{
	struct task_set set;
	struct image_rows rows;
	struct sink s;
	bool to_stdout = o->output == NULL || strcmp(o->output, "-") == 0;
	enum cli_format fmt = app_format(o);
	int rc = -1;

	task_set_init(&set);
	memset(&rows, 0, sizeof rows);
	struct live_options lo = app_live_options(o);
	if (live_images(&lo, o->images.v, o->images.n, &set, err) != 0 ||
	    app_select(o, &set, err) != 0)
		goto out;
	image_rows_build(&set, &rows);
	if (rows.n == 0)
		log_warn(o->log, "images: no image facts (no private ECR image among the tasks, or every "
			 "lookup failed)");
	if (fmt == FMT_TUI) {
		/* the UI draws on the terminal: there is nothing to write to a file */
		rc = to_stdout ? images_tui(o, &set, err)
			       : err_set(err, ERR_USAGE, "images: --format tui cannot write to "
					 "--output; use table, csv or json");
		goto out;
	}
	if (app_sink_open(o, fmt, &s, NULL, err) != 0)
		goto out;
	rc = sink_finish(&s, images_write(&s, &rows, err), err);
out:
	image_rows_cleanup(&rows);
	task_set_cleanup(&set);
	return rc;
}
