/* cmd_tasks: `ecsprof tasks`: the cluster's tasks fetched live (live.c), filtered and
 * profiled; in the TUI 'r' fetches again. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app_deploy.h"
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
	task_set_init(&set);
	struct live_options lo = app_live_options(o);
	/* the TUI opens only after the fetch (issue 11 item 3: no worker thread yet): say on
	 * the terminal what it waits for, rather than a blank screen */
	if (app_format(o) == FMT_TUI && isatty(STDERR_FILENO))
		fprintf(stderr, "ecsprof: fetching the tasks of cluster %s from ECS ...\n",
			o->cluster ? o->cluster : "default");
	if (live_fetch(&lo, &set, NULL, err) != 0 || app_select(o, &set, err) != 0)
		goto out;
	char *title = xasprintf("ecsprof tasks: cluster %s, %zu tasks",
				o->cluster ? o->cluster : "default", set.len);
	rc = app_output(o, &set, title, true, err);
	free(title);
out:
	task_set_cleanup(&set);
	return rc;
}
