/* cmd_tasks: `ecsprof tasks`: the cluster's tasks fetched live (live.c), filtered and
 * profiled; the TUI (app_view.c) fetches behind the screen, and 'r' fetches again. */
#include <stdio.h>
#include <stdlib.h>

#include "app_deploy.h"
#include "app_view.h"
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/live.h"
#include "ecsprof/xalloc.h"

int
cmd_tasks(const struct cli_opts *o, struct err *err)
{
	struct task_set set;
	int rc = -1;

	if (o->deployments)
		return app_deploy_tasks(o, err);   /* app_deploy.c */
	/* the TUI opens at once and fetches behind the screen (app_view.c) */
	if (app_format(o) == FMT_TUI)
		return app_view_tasks(o, err);
	task_set_init(&set);
	struct live_options lo = app_live_options(o);
	if (live_fetch(&lo, &set, NULL, err) != 0 || app_select(o, &set, err) != 0)
		goto out;
	char *title = xasprintf("ecsprof tasks: cluster %s, %zu tasks",
				o->cluster ? o->cluster : "default", set.len);
	rc = app_output(o, &set, title, err);
	free(title);
out:
	task_set_cleanup(&set);
	return rc;
}
