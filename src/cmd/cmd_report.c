/* cmd_report: `ecsprof report FILE...`: saved task data (any shape input.c reads) through
 * the SELECT filter to a report, or to the deployments report (app_deploy.c). */
#include <stdlib.h>

#include "app_deploy.h"
#include "app_scaleout.h"
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/xalloc.h"

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
	task_set_init(&set);
	for (size_t i = 0; i < o->files.n; i++)
		if (input_read_file(o->files.v[i], &set, &st, err) != 0)
			goto out;
	log_info("read %zu task states (%zu events, %zu recording lines, %zu metadata documents), %zu duplicates, %zu skipped: %zu tasks",
		 st.tasks, st.events, st.records, st.metadata, st.duplicates, st.skipped, set.len);
	if (app_select(o, &set, err) != 0)
		goto out;
	char *title = xasprintf("ecsprof report: %zu file%s, %zu tasks", o->files.n,
				o->files.n == 1 ? "" : "s", set.len);
	rc = app_output(o, &set, title, err);
	free(title);
out:
	task_set_cleanup(&set);
	return rc;
}
