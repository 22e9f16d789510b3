/* check: running the rule table over a task definition, and the findings it leaves. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "ecsprof/xalloc.h"

const char *
check_severity_name(enum check_severity s)
{
	switch (s) {
	case CHECK_ERROR: return "error";
	case CHECK_WARN: return "warn";
	default: return "info";
	}
}

int
check_platform_parse(const char *s, struct check_platform *p)
{
	int n = 0, len = 0;

	memset(p, 0, sizeof *p);
	if (s == NULL || strcasecmp(s, "LATEST") == 0) {
		*p = (struct check_platform){ 1, 4, 0, true };
		return 0;
	}
	if (strlen(s) > 16)
		return -1;
	n = sscanf(s, "%d.%d%n.%d%n", &p->major, &p->minor, &len, &p->patch, &len);
	if (n < 2 || p->major < 0 || p->minor < 0 || p->patch < 0 || s[len] != '\0')
		return -1;
	return 0;
}

void
check_run(const struct check_input *in, struct check_findings *out)
{
	const struct check_rule *rules;
	struct check_findings all = { NULL, 0, NAN };
	size_t n, k = 0;

	memset(out, 0, sizeof *out);
	out->usd_hour = NAN;
	rules = check_rules(&n);
	for (size_t i = 0; i < n; i++)
		rules[i].test(&rules[i], in, &all);
	/* errors first, then warnings, then facts; rule order within each (a stable
	 * partition, not qsort, which is not stable) */
	out->v = xcalloc(all.n + 1, sizeof *out->v);
	for (int s = CHECK_ERROR; s <= CHECK_INFO; s++)
		for (size_t i = 0; i < all.n; i++)
			if ((int)all.v[i].severity == s)
				out->v[k++] = all.v[i];
	out->n = k;
	free(all.v);
	if (in->td->cpu_units != TASKDEF_UNSET && in->td->memory_mib != TASKDEF_UNSET &&
	    check_grid_valid(in->td->cpu_units, in->td->memory_mib))
		out->usd_hour = check_size_usd_hour(in, in->td->cpu_units, in->td->memory_mib);
}

void
check_findings_free(struct check_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].message);
		free(f->v[i].fix);
	}
	free(f->v);
	memset(f, 0, sizeof *f);
}

size_t
check_count(const struct check_findings *f, enum check_severity s)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->v[i].severity == s;
	return n;
}
