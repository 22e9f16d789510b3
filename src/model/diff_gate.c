/* diff_gate: --fail-on EXPR, the CI gate: PHASE.STAT>+N% or PHASE.STAT>+Ns (and '<' for
 * improvements), crossed only by a change that is significant, so noise never fails. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff_int.h"
#include "ecsprof/diff.h"

static const char *const stat_names[] = { "p50", "p90", "mean" };

int
diff_gate_parse(const char *s, struct diff_gate *g, struct err *err)
{
	const char *dot = strchr(s, '.'), *op = strpbrk(s, "<>");
	char phase[32], stat[16];
	char *end;
	int p = -1, st = -1;

	memset(g, 0, sizeof *g);
	g->expr = s;
	if (dot == NULL || op == NULL || op < dot)
		return err_set(err, ERR_USAGE,
			       "--fail-on '%s': expected PHASE.STAT>+N%% or PHASE.STAT>+Ns (e.g. total.p90>+20%%, pull.p50>+5s)",
			       s);
	snprintf(phase, sizeof phase, "%.*s", (int)(dot - s), s);
	snprintf(stat, sizeof stat, "%.*s", (int)(op - dot - 1), dot + 1);
	p = diff_phase_by_name(phase);
	if (p < 0)
		return err_set(err, ERR_USAGE,
			       "--fail-on '%s': no phase '%s' (provision, attach, wait, pull, start, total, ready, serving)",
			       s, phase);
	for (int i = 0; i < 3; i++)
		if (strcasecmp(stat, stat_names[i]) == 0)
			st = i;
	if (st < 0)
		return err_set(err, ERR_USAGE, "--fail-on '%s': no statistic '%s' (p50, p90, mean)", s,
			       stat);
	errno = 0;
	g->value = strtod(op + 1, &end);
	if (errno != 0 || end == op + 1 || !isfinite(g->value) ||
	    (strcmp(end, "%") != 0 && strcmp(end, "s") != 0))
		return err_set(err, ERR_USAGE,
			       "--fail-on '%s': the threshold after '%c' is a signed number with %% or s (+20%%, +5s, -10s)",
			       s, *op);
	g->phase = (enum diff_phase)p;
	g->stat = (enum diff_stat)st;
	g->less = *op == '<';
	g->percent = *end == '%';
	return 0;
}

int
diff_gate_check(const struct diff *d, const struct diff_gate *g, char *line, size_t size,
		struct err *err)
{
	const struct diff_cmp *c = &d->phase[g->phase];
	const char *ph = diff_phase_name(g->phase);
	double base, cur, delta, pct, x;
	char ds[32], cause[256], p[24];

	line[0] = '\0';
	if (!c->valid)
		return err_set(err, ERR_PARSE, "--fail-on '%s': %s has no data in the %s (n = %zu vs %zu)",
			       g->expr, ph, c->base.n > 0 ? "new window" : c->cur.n > 0 ?
			       "baseline window" : "baseline or the new window", c->base.n, c->cur.n);
	base = g->stat == DIFF_STAT_P50 ? c->base.p50 : g->stat == DIFF_STAT_P90 ? c->base.p90 :
	       c->base.mean;
	cur = g->stat == DIFF_STAT_P50 ? c->cur.p50 : g->stat == DIFF_STAT_P90 ? c->cur.p90 :
	      c->cur.mean;
	delta = cur - base;
	pct = base > 0 ? delta / base * 100.0 : NAN;
	x = g->percent ? pct : delta;
	if (!c->significant || isnan(x) || (g->less ? !(x < g->value) : !(x > g->value)))
		return 0;
	diff_cause_text(d, g->phase, cause, sizeof cause);
	diff_p_text(c->p_holm, p, sizeof p);
	snprintf(line, size, "ecsprof diff: --fail-on %s: %s %s %s (%.1f s -> %.1f s, %+.0f%%, %s, n=%zu+%zu); likely cause: %s",
		 g->expr, ph, stat_names[g->stat], diff_signed_secs(delta, ds, sizeof ds), base, cur,
		 isnan(pct) ? 0.0 : pct, p, c->base.n, c->cur.n, cause);
	return 1;
}
