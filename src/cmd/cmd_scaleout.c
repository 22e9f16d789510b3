/* cmd_scaleout: `ecsprof scaleout --cluster C --service S [--since WHEN]`: the service's
 * tasks (stopped ones too) fetched as `tasks --service S` does, its scale-out source
 * documents (scaleout_live.h, fetched beside the tasks), each handed to the reader `report --scaleout` uses on a
 * saved file, and the story written through the same code (app_scaleout_tell). */
#include <stdlib.h>
#include <string.h>

#include "app_scaleout.h"
#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/input_scaleout.h"
#include "ecsprof/live.h"
#include "ecsprof/log.h"
#include "ecsprof/scaleout_live.h"
#include "ecsprof/timeutil.h"

int
cmd_scaleout(const struct cli_opts *o, struct err *err)
{
	struct live_options lo = app_live_options(o);
	struct live_session *s = NULL;
	struct scaleout_live_docs d = { 0 };
	struct so_sources src;
	struct task_set set;
	struct scaleout_live_job *job = NULL;
	int64_t since_ms = TS_NONE;
	int rc = -1, fetched;

	/* a scale-out's failed starts are stopped tasks: always list both */
	lo.running = lo.stopped = true;
	so_sources_init(&src);
	task_set_init(&set);
	if (o->since != NULL &&
	    timeutil_parse_since(o->since, timeutil_now_ms(), &since_ms) != 0) {
		err_set(err, ERR_USAGE, "--since: '%s' is neither a duration (30m, 2h, 1d) nor a "
			"time (2026-11-30, 2026-11-30T14:03, ISO 8601)", o->since);
		goto out;
	}
	if (live_session_new(&lo, &s, err) != 0)
		goto out;
	/* the scale-out's chains run beside the task fetch: the wall time is the longest
	 * chain's, not their sum */
	if (scaleout_live_start(s, lo.cluster ? lo.cluster : "default", o->services.v[0],
				since_ms, &job, err) != 0)
		goto out;
	fetched = live_session_fetch(s, &set, NULL, err);
	if (scaleout_live_finish(job, &d, fetched == 0 ? err : &(struct err){ 0 }) != 0 ||
	    fetched != 0)
		goto out;
	for (size_t i = 0; i < d.n; i++)
		if (input_scaleout_read_mem(o->log, "live", d.v[i], strlen(d.v[i]), &src, NULL, err) != 0)
			goto out;
	log_info(o->log, "fetched %zu tasks and %zu scale-out source documents", set.len, d.n);
	rc = app_scaleout_tell(o, &src, &set, err);
out:
	scaleout_live_docs_cleanup(&d);
	live_session_free(s);
	task_set_cleanup(&set);
	so_sources_cleanup(&src);
	return rc;
}
