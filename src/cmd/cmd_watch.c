/* cmd_watch: `ecsprof watch`: watch.c polls and prints; the report it prints each round
 * is built here, the same way report and tasks build theirs. */
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/watch.h"

static int
watch_build(void *ctx, struct task_set *set, struct report *out, struct err *err)
{
	const struct cli_opts *o = ctx;

	if (app_select(o, set, err) != 0)
		return -1;
	return app_build_report(o, set, out, err);
}

int
cmd_watch(const struct cli_opts *o, struct err *err)
{
	return watch_main(o, watch_build, (void *)o, err);
}
