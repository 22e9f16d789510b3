/* check_emit: what every rule test of `ecsprof check` calls: a finding appended, and
 * whether the Fargate rules apply. Apart from check.c and check_rules.c, which run the
 * tests, so that no test calls back into what runs it. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"
#include "ecsprof/xalloc.h"

void
check_emit(struct check_findings *out, const struct check_rule *r, const char *path,
	   const char *fix, const char *fmt, ...)
{
	struct check_finding *f;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (msg == NULL)
		msg = xstrdup(r->message);   /* vasprintf fails only for want of memory */
	out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
	f = &out->v[out->n++];
	f->severity = r->severity;
	f->rule = r->id;
	f->path = xstrdup(path != NULL ? path : r->path);
	f->message = msg;
	f->fix = xstrdup(fix != NULL ? fix : r->fix);
	f->fig = (struct check_figures){
		.pull_p10_s = NAN, .pull_p50_s = NAN, .pull_p90_s = NAN,
		.pulls_used = -1, .pulls_recorded = -1, .basis = NULL,
		.usd_per_hour = NAN, .usd_per_1000_starts = NAN, .start_s = NAN,
	};
}

bool
check_on_fargate(const struct taskdef *td)
{
	return td->nrequires == 0 || taskdef_requires(td, "FARGATE");
}
