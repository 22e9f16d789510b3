/* cmd_record: `ecsprof record -o FILE`: the live fetch and the merge into FILE are
 * live_record()'s (live.h), with --service the scale-out's documents (scaleout_live.h);
 * the command line becomes its options here. */
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/live.h"
#include "ecsprof/scaleout_live.h"

int
cmd_record(const struct cli_opts *o, struct err *err)
{
	struct live_options lo = app_live_options(o);

	/* with --service, the documents `report --scaleout` tells its scale-outs from */
	if (lo.nservices > 0) {
		lo.more_lines = scaleout_live_record_lines;
		lo.more_arg = &lo;
	}

	return live_record(&lo, o->output, err);
}
