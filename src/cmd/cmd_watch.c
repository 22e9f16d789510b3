/* cmd_watch: `ecsprof watch`: watch.c polls, builds each round's report the way report
 * and tasks build theirs (app_select, app_build_report) and prints it. */
#include "cmd_int.h"
#include "ecsprof/watch.h"

int
cmd_watch(const struct cli_opts *o, struct err *err)
{
	return watch_main(o, err);
}
