/* cmd_tasks: `ecsprof tasks`: the cluster's tasks fetched live (live.c), filtered and
 * profiled; the TUI (app_view.c) fetches behind the screen, and 'r' fetches again. */
#include <stdio.h>
#include <stdlib.h>

#include "app_deploy.h"
#include "app_view.h"
#include "cmd_int.h"
#include "progress.h"
#include "ecsprof/app.h"
#include "ecsprof/live.h"
#include "ecsprof/xalloc.h"

/* The fetch, with its progress on stderr when it is long (progress.h). */
static int
fetch(const struct cli_opts *o, struct task_set *set, struct err *err)
{
	struct live_options lo = app_live_options(o);
	struct live_session *s;
	struct live_job *j = NULL;
	struct progress p;
	int rc;

	if (live_session_new(&lo, &s, err) != 0)
		return -1;
	progress_begin(&p, o);
	rc = live_session_fetch_start(s, set, NULL, &j, err) != 0 ? -1 : 1;
	while (rc == 1 && (rc = live_job_poll(j, 200, err)) == 1) {
		struct live_progress lp;
		char words[256];

		live_job_progress(j, &lp);
		progress_fetch_words(&p, &lp, o->cluster ? o->cluster : "default", words,
				     sizeof words);
		progress_show(&p, "%s", words);
	}
	progress_end(&p);
	live_job_free(j);
	live_session_free(s);
	return rc == 0 ? 0 : -1;
}

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
	if (fetch(o, &set, err) != 0 || app_select(o, &set, err) != 0)
		goto out;
	char *title = xasprintf("ecsprof tasks: cluster %s, %zu tasks",
				o->cluster ? o->cluster : "default", set.len);
	rc = app_output(o, &set, title, err);
	free(title);
out:
	task_set_cleanup(&set);
	return rc;
}
