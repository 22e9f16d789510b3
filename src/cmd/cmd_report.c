/* cmd_report: `ecsprof report FILE...`: saved task data (any shape input.c reads) through
 * the SELECT filter to a report, or to the deployments report (app_deploy.c), the scale-outs
 * (app_scaleout.c) or the change points (app_changes.c). */
#include <stdlib.h>

#include "app_changes.h"
#include "app_deploy.h"
#include "app_scaleout.h"
#include "cmd_int.h"
#include "progress.h"
#include "ecsprof/app.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/xalloc.h"

struct reading {
	struct progress p;
	const char *name;
};

static void
on_read(void *ctx, uint64_t read, uint64_t total)
{
	struct reading *r = ctx;
	char words[256];

	progress_read_words(&r->p, r->name, read, total, words, sizeof words);
	progress_show(&r->p, "%s", words);
}

int
cmd_report(const struct cli_opts *o, struct err *err)
{
	struct task_set set;
	struct input_stats st = { 0 };
	int rc = -1;

	if (o->deployments)
		return app_deploy_report(o, err);   /* app_deploy.c: reads the files itself */
	if (o->scaleout)
		return app_scaleout_report(o, err); /* app_scaleout.c: the same */
	if (o->changes)
		return app_changes_report(o, err);  /* app_changes.c: the same */
	if (o->changes_by != NULL)
		return err_set(err, ERR_USAGE, "--changes-by is for report --changes");
	task_set_init(&set);
	/* a large file says how far its reading has got (progress.h) */
	struct reading rd;
	struct input_options io = { .log = o->log };

	progress_begin(&rd.p, o);
	if (rd.p.on) {
		io.progress = on_read;
		io.progress_ctx = &rd;
	}
	for (size_t i = 0; i < o->files.n; i++) {
		rd.name = o->files.v[i];
		rc = input_read_file_with(o->files.v[i], &io, &set, &st, err);
		if (rc != 0) {
			progress_end(&rd.p);
			goto out;
		}
	}
	progress_end(&rd.p);
	rc = -1;
	log_info(o->log, "read %zu task states (%zu events, %zu recording lines, %zu metadata documents), %zu duplicates, %zu skipped: %zu tasks",
		 st.tasks, st.events, st.records, st.metadata, st.duplicates, st.skipped, set.len);
	if (app_select(o, &set, err) != 0)
		goto out;
	task_set_trim(&set);
	char *title = xasprintf("ecsprof report: %zu file%s, %zu tasks", o->files.n,
				o->files.n == 1 ? "" : "s", set.len);
	rc = app_output(o, &set, title, err);
	free(title);
out:
	task_set_cleanup(&set);
	return rc;
}
