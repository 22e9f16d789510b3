/* tui_serving: what the details pane says about a task's time to serving, the cost of its
 * start and, for a stopped task, the diagnosis: why it stopped and what to do next. */
#include <math.h>
#include <stdio.h>

#include "ecsprof/cost.h"
#include "ecsprof/diagnose.h"
#include "ecsprof/report.h"
#include "ecsprof/timeutil.h"
#include "tui_int.h"

void
tui_serving_details(const struct report *r, const struct report_row *row, struct lines *l,
		    void (*add)(struct lines *, const char *, ...))
{
	const struct task *t = row->task;
	const struct diag_rule *d = diagnose_task(t);
	char a[32], b[32], c[32], usd[64];

	if (d != NULL) {
		add(l, "  diagnosis %s: %s", d->id, d->cause);
		add(l, "  next step %s", d->next_step);
	}
	if (task_ts(t, TS_HEALTHY) != TS_NONE) {
		timeutil_format_secs(phase_ms(t, PHASE_READY), a, sizeof a);
		timeutil_format_secs(phase_ms(t, PHASE_SERVING), b, sizeof b);
		if (t->healthy_observed) {
			timeutil_format_secs(t->healthy_resolution_ms, c, sizeof c);
			add(l, "  healthy: ready %s s after RUNNING, serving %s s after createdAt "
			    "(observed by a poll, up to %s s late)", a[0] ? a : "-", b[0] ? b : "-", c);
		} else {
			add(l, "  healthy: ready %s s after RUNNING, serving %s s after createdAt "
			    "(task metadata)", a[0] ? a : "-", b[0] ? b : "-");
		}
	}
	if (cost_billed_ms(t) != TS_NONE) {
		double v = cost_startup_usd(&r->prices, t);

		timeutil_format_secs(cost_billed_ms(t), a, sizeof a);
		if (isfinite(v))
			snprintf(usd, sizeof usd, "$%.6f", v);
		else
			snprintf(usd, sizeof usd, "no price for its region/architecture/capacity");
		add(l, "  startup billed %s s (pull start to %s): %s", a,
		    task_ts(t, TS_HEALTHY) != TS_NONE ? "healthy" : "RUNNING", usd);
	}
}
