/* cmd_record: `ecsprof record -o FILE`: the live fetch and the merge into FILE are
 * live_record()'s (live.h); the command line becomes its options here. */
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/live.h"

int
cmd_record(const struct cli_opts *o, struct err *err)
{
	struct live_options lo = app_live_options(o);

	return live_record(&lo, o->output, err);
}
