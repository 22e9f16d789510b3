/* diff_text: a diff as people read it: the two windows side by side per phase, what
 * changed, which change explains each significant phase change and the power lines. The
 * table prints these lines and the gates quote them, so they cannot disagree. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/diff.h"
#include "ecsprof/power.h"
#include "ecsprof/xalloc.h"

/* s rounded to tenths, without the "-0.0" of a small negative */
static double
tenths(double s)
{
	return fabs(s) < 0.05 ? 0.0 : s;
}

const char *
diff_signed_secs(double s, char *out, size_t size)
{
	if (isnan(s))
		snprintf(out, size, "-");
	else
		snprintf(out, size, "%+.1f s", tenths(s));
	return out;
}

const char *
diff_secs(double s, char *out, size_t size)
{
	if (isnan(s))
		snprintf(out, size, "-");
	else
		snprintf(out, size, "%.1f", s);
	return out;
}

const char *
diff_ci_text(double lo, double hi, char *out, size_t size)
{
	snprintf(out, size, "[%+.1f, %+.1f]", tenths(lo), tenths(hi));
	return out;
}

const char *
diff_p_text(double p, char *out, size_t size)
{
	if (isnan(p))
		snprintf(out, size, "p=?");
	else if (p < 0.001)
		snprintf(out, size, "p<0.001");
	else
		snprintf(out, size, "p=%.3f", p);
	return out;
}

const char *
diff_short_value(const char *v, char *out, size_t size)
{
	if (strncmp(v, "sha256:", 7) == 0 && strlen(v) > 7 + 12)
		snprintf(out, size, "sha256:%.12s..", v + 7);
	else
		snprintf(out, size, "%s", v);
	return out;
}

/* A value as the lines show it: a digest cut short, with its size when image facts give
 * one ("sha256:ab12cd34ef56.. (412 MB)"). */
static const char *
value_label(const struct diff_mix *m, size_t k, char *out, size_t size)
{
	char v[80];

	diff_short_value(m->values[k].value, v, sizeof v);
	if (m->values[k].size_bytes >= 0)
		snprintf(out, size, "%s (%.0f MB)", v, (double)m->values[k].size_bytes / 1e6);
	else
		snprintf(out, size, "%s", v);
	return out;
}

/* The change cell: "+38.2 s [+35.0, +40.1]" or "+0.2 s [-1.1, +1.4] ~" (~: not
 * significant); the p-value has a column of its own (p_cell). */
static void
change_cell(const struct diff_cmp *c, char *out, size_t size)
{
	char d[24], ci[48];

	if (!c->valid) {
		snprintf(out, size, "(no data on a side)");
		return;
	}
	diff_signed_secs(c->p50_delta_s, d, sizeof d);
	if (isnan(c->ci_lo_s))
		snprintf(out, size, "%s%s", d, c->significant ? "" : " ~");
	else
		snprintf(out, size, "%s %s%s", d, diff_ci_text(c->ci_lo_s, c->ci_hi_s, ci, sizeof ci),
			 c->significant ? "" : " ~");
}

/* The P cell: diff_p_text's figure without its "p=" ("1.000", "<0.001"), "(1)" after it
 * when the windows are too small for any p below alpha. */
static void
p_cell(const struct diff_cmp *c, bool *note, char *out, size_t size)
{
	char p[24];

	if (!c->valid) {
		snprintf(out, size, "-");
		return;
	}
	diff_p_text(c->p_holm, p, sizeof p);
	snprintf(out, size, "%s%s", p + (p[1] == '=' ? 2 : 1), c->too_few ? " (1)" : "");
	*note |= c->too_few;
}

static void
emit(diff_line_fn *fn, void *ctx, struct buf *b)
{
	fn(ctx, buf_str(b));
	buf_reset(b);
}

void
diff_explain_text(const struct diff *d, enum diff_phase p, char *out, size_t size)
{
	const struct diff_explain *e = &d->explain[p];
	const struct diff_cmp *w = &d->phase[p];
	struct buf b;
	char s[32], v[96];

	buf_init(&b, 0);
	buf_addf(&b, "%s p50 %s: ", diff_phase_name(p), diff_signed_secs(w->p50_delta_s, s, sizeof s));
	switch (e->why) {
	case DIFF_WHY_NONE:
		buf_addf(&b, "not a significant change");
		break;
	case DIFF_WHY_NOTHING_CHANGED:
		buf_addf(&b, "no attribute of the tasks changed between the windows: nothing here explains it (the time, the load, the region?)");
		break;
	case DIFF_WHY_EVERYWHERE:
	case DIFF_WHY_EXPLAINED:
	case DIFF_WHY_CONFOUNDED: {
		int shown = 0, parts = 0;

		for (int a = 0; a < DIFF_ATTR_COUNT; a++) {
			bool pick = e->why == DIFF_WHY_EVERYWHERE ? d->mix[a].differs && shown == 0 :
				    a == (int)e->attr;

			if (!pick)
				continue;
			shown++;
			for (size_t i = 0; i < d->nparts; i++) {
				const struct diff_part *pt = &d->parts[i];

				if (pt->phase != p || (int)pt->attr != a)
					continue;
				value_label(&d->mix[a], pt->value, v, sizeof v);
				buf_addf(&b, "%stasks %s %s %s %s%s (n=%zu)", parts++ ? "; " : "",
					 pt->in_baseline ? "still on" : "with", diff_attr_words((enum diff_attr)a), v,
					 diff_signed_secs(pt->cmp.p50_delta_s, s, sizeof s),
					 pt->cmp.significant ? "" : " ~", pt->cmp.cur.n);
			}
		}
		for (int a = 0; a < DIFF_ATTR_COUNT && e->why != DIFF_WHY_EVERYWHERE; a++)
			if (e->also & (1u << a))
				buf_addf(&b, "; %s splits the same way", diff_attr_words((enum diff_attr)a));
		if (e->why == DIFF_WHY_EVERYWHERE)
			buf_addf(&b, ": in every part, so not the %s; no change found explains it",
				 shown ? "attributes that changed" : "?");
		else if (e->why == DIFF_WHY_CONFOUNDED)
			buf_addf(&b, ": the %s of every new task is one the baseline never had, so the split cannot separate it from anything else that changed at the same time",
				 diff_attr_words(e->attr));
		break;
	}
	}
	snprintf(out, size, "%s", buf_str(&b));
	buf_cleanup(&b);
}

void
diff_cause_text(const struct diff *d, enum diff_phase p, char *out, size_t size)
{
	const struct diff_explain *e = &d->explain[p];
	char v[160];
	size_t best = SIZE_MAX;

	switch (e->why) {
	case DIFF_WHY_EXPLAINED:
	case DIFF_WHY_CONFOUNDED:
		/* the new value with the most tasks in the new window */
		for (size_t i = 0; i < d->nparts; i++)
			if (d->parts[i].phase == p && d->parts[i].attr == e->attr &&
			    !d->parts[i].in_baseline &&
			    (best == SIZE_MAX || d->parts[i].cmp.cur.n > d->parts[best].cmp.cur.n))
				best = i;
		if (best == SIZE_MAX) {
			snprintf(out, size, "%s", diff_attr_words(e->attr));
			return;
		}
		value_label(&d->mix[e->attr], d->parts[best].value, v, sizeof v);
		snprintf(out, size, "%s %s%s", diff_attr_words(e->attr), v,
			 e->why == DIFF_WHY_CONFOUNDED ? " (not separable: every new task has it)" : "");
		return;
	case DIFF_WHY_EVERYWHERE:
		snprintf(out, size, "unexplained (in every part of the attributes that changed)");
		return;
	case DIFF_WHY_NOTHING_CHANGED:
		snprintf(out, size, "unexplained (no attribute of the tasks changed)");
		return;
	case DIFF_WHY_NONE:
		break;
	}
	snprintf(out, size, "none");
}

/* The phases with a power line: every significant change, and pull and total always (the
 * two a user gates on: "could this window have seen a change?"), when a task has them. */
static bool
power_shown(const struct diff *d, enum diff_phase p)
{
	const struct diff_cmp *c = &d->phase[p];

	if (c->base.n == 0 && c->cur.n == 0)
		return false;
	return c->significant || p == DIFF_PULL || p == DIFF_TOTAL;
}

void
diff_power_text(const struct diff *d, enum diff_phase p, char *out, size_t size)
{
	const struct diff_cmp *c = &d->phase[p];
	const char *ph = diff_phase_name(p);
	size_t na = c->base.n, nb = c->cur.n;
	double det, seen = fabs(c->p50_delta_s);

	if (!c->valid) {   /* no change to size a test for: say so, not "not enough data" */
		snprintf(out, size, "%s: no data on one side, nothing to compare", ph);
		return;
	}
	if (na < 2 || nb < 2 || !(c->sd_s > 0)) {
		snprintf(out, size, "power (%s): not enough data (n = %zu vs %zu) to say what change could be detected",
			 ph, na, nb);
		return;
	}
	det = power_mw_detectable(na, nb, c->sd_s, DIFF_ALPHA, POWER_TARGET);
	if (c->significant) {
		if (isnan(det))
			snprintf(out, size, "power (%s): a change of %.1f s detected with n = %zu vs %zu", ph,
				 seen, na, nb);
		else
			snprintf(out, size, "power (%s): detected; with n = %zu vs %zu and the spread seen (pooled SD %.1f s), changes of %.1f s or more are detected 80%% of the time",
				 ph, na, nb, c->sd_s, det);
		return;
	}
	if (isnan(det)) {
		snprintf(out, size, "power (%s): not significant, and with n = %zu vs %zu no change is detected 80%% of the time: too few tasks",
			 ph, na, nb);
		return;
	}
	int k = snprintf(out, size, "power (%s): not significant; with n = %zu vs %zu and the spread seen (pooled SD %.1f s), a change of %.1f s or more is detected 80%% of the time",
			 ph, na, nb, c->sd_s, det);
	if (seen > 0 && k > 0 && (size_t)k < size)
		snprintf(out + k, size - (size_t)k, "; the %.1f s seen would need %zu tasks per window",
			 seen, power_mw_needed(seen, c->sd_s, DIFF_ALPHA, POWER_TARGET));
}

/* "image digest: sha256:ab12.. 0 -> 40, sha256:9f3e.. 60 -> 12 (Fisher's exact, p<0.001)" */
static void
mix_line(const struct diff *d, enum diff_attr a, struct buf *b)
{
	const struct diff_mix *m = &d->mix[a];
	char v[160], p[24];

	buf_addf(b, "  %s:", diff_attr_words(a));
	for (size_t i = 0; i < m->nvalues && i < 6; i++)
		buf_addf(b, "%s %s %zu -> %zu", i ? "," : "", value_label(m, i, v, sizeof v),
			 m->values[i].base_n, m->values[i].new_n);
	if (m->nvalues > 6)
		buf_addf(b, ", %zu more", m->nvalues - 6);
	if (m->fisher)
		buf_addf(b, " (Fisher's exact, %s)", diff_p_text(m->p_holm, p, sizeof p));
	else
		buf_addf(b, " (chi-square, df %d, %s)", m->df, diff_p_text(m->p_holm, p, sizeof p));
}

/* The phases table's columns: the two windows side by side, the p50 change with its CI,
 * its p-value and the p90 change, the last only when the width has room for it (a row a
 * line at 80 columns: the P90s of both windows are there to read it from). */
enum { C_PHASE, C_BASE_N, C_BASE_P50, C_BASE_P90, C_NEW_N, C_NEW_P50, C_NEW_P90, C_CHANGE, C_P,
       C_P90_CHANGE, C_COUNT };

static const char *const col_head[C_COUNT] = {
	"PHASE", "BASE", "P50", "P90", "NEW", "P50", "P90", "P50 CHANGE [95% CI]", "P", "P90 CHANGE",
};

struct phase_row {
	char cell[C_COUNT][96];
};

/* The table's rows, header first; returns how many (at most 1 + DIFF_PHASE_COUNT). */
static size_t
phase_rows(const struct diff *d, struct phase_row *rows, bool *note, bool *any_sig)
{
	size_t n = 1;

	for (int k = 0; k < C_COUNT; k++)
		snprintf(rows[0].cell[k], sizeof rows[0].cell[k], "%s", col_head[k]);
	for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
		const struct diff_cmp *c = &d->phase[p];
		char (*x)[96] = rows[n].cell;

		if (c->base.n == 0 && c->cur.n == 0)
			continue;   /* ready, serving, attach: only when some task has them */
		snprintf(x[C_PHASE], 96, "%s", diff_phase_name((enum diff_phase)p));
		snprintf(x[C_BASE_N], 96, "%zu", c->base.n);
		diff_secs(c->base.p50, x[C_BASE_P50], 96);
		diff_secs(c->base.p90, x[C_BASE_P90], 96);
		snprintf(x[C_NEW_N], 96, "%zu", c->cur.n);
		diff_secs(c->cur.p50, x[C_NEW_P50], 96);
		diff_secs(c->cur.p90, x[C_NEW_P90], 96);
		change_cell(c, x[C_CHANGE], 96);
		p_cell(c, note, x[C_P], 96);
		diff_signed_secs(c->p90_delta_s, x[C_P90_CHANGE], 96);
		*any_sig |= c->significant;
		n++;
	}
	return n;
}

/* The phases table at width (0: as wide as it takes): each column as wide as its widest
 * cell, two spaces between, the words on the left and the figures on the right. Returns 0,
 * or the width the P90 CHANGE column would need when it was left out. */
static size_t
phase_table(const struct diff *d, int width, diff_line_fn *fn, void *ctx, bool *note,
	    bool *any_sig)
{
	struct phase_row rows[1 + DIFF_PHASE_COUNT];
	size_t n = phase_rows(d, rows, note, any_sig), w[C_COUNT] = { 0 }, total = 0;
	int ncols = C_COUNT;
	char line[C_COUNT * 100];

	for (size_t r = 0; r < n; r++)
		for (int k = 0; k < C_COUNT; k++)
			if (strlen(rows[r].cell[k]) > w[k])
				w[k] = strlen(rows[r].cell[k]);
	for (int k = 0; k < C_COUNT; k++)
		total += w[k] + (k > 0 ? 2 : 0);
	if (width > 0 && total > (size_t)width)
		ncols = C_P90_CHANGE;
	for (size_t r = 0; r < n; r++) {
		size_t len = 0;

		for (int k = 0; k < ncols; k++) {
			bool left = k == C_PHASE || k == C_CHANGE;

			len += (size_t)snprintf(line + len, sizeof line - len, "%s%*s", k > 0 ? "  " : "",
						left ? -(int)w[k] : (int)w[k], rows[r].cell[k]);
		}
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = '\0';
		fn(ctx, line);
	}
	return ncols < C_COUNT ? total : 0;
}

void
diff_lines(const struct diff *d, int width, diff_line_fn *fn, void *ctx)
{
	struct buf b;
	char line[1024];
	bool note = false, any_sig = false, any_change = false;
	size_t p90_width;

	buf_init(&b, 0);
	buf_addf(&b, "diff: baseline %zu tasks, new %zu tasks", d->base_n, d->new_n);
	emit(fn, ctx, &b);
	p90_width = phase_table(d, width, fn, ctx, &note, &any_sig);
	buf_addf(&b, "seconds; BASE, NEW: tasks; change = new - baseline, p50's 95%% CI by bootstrap; P: Mann-Whitney, Holm-corrected over the phases; ~ not significant (p >= %.2f)",
		 DIFF_ALPHA);
	if (p90_width > 0)   /* say where the column went, and how to get it */
		buf_addf(&b, "; P90 CHANGE at %zu columns or more (COLUMNS)", p90_width);
	emit(fn, ctx, &b);
	if (note) {
		buf_addf(&b, "(1) too few tasks to tell: even fully separated windows this small could not give p < %.2f",
			 DIFF_ALPHA);
		emit(fn, ctx, &b);
	}
	fn(ctx, "");
	fn(ctx, "what changed:");
	for (int a = 0; a < DIFF_ATTR_COUNT; a++)
		if (d->mix[a].differs) {
			mix_line(d, (enum diff_attr)a, &b);
			emit(fn, ctx, &b);
			if (a == DIFF_TASKDEF && d->taskdef_note != NULL) {
				buf_addf(&b, "    %s", d->taskdef_note);
				emit(fn, ctx, &b);
			}
			any_change = true;
		}
	if (!any_change)
		fn(ctx, "  no attribute's mix differs between the windows");
	buf_adds(&b, "  unchanged:");
	for (int a = 0, n = 0; a < DIFF_ATTR_COUNT; a++)
		if (!d->mix[a].differs)
			buf_addf(&b, "%s %s", n++ ? "," : "", diff_attr_words((enum diff_attr)a));
	emit(fn, ctx, &b);
	fn(ctx, "");
	if (!any_sig) {
		fn(ctx, "no significant change in any phase");
	} else {
		fn(ctx, "why:");
		for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
			if (!d->phase[p].significant)
				continue;
			diff_explain_text(d, (enum diff_phase)p, line, sizeof line);
			buf_addf(&b, "  %s", line);
			emit(fn, ctx, &b);
		}
		fn(ctx, "  (each part of the new window is compared with the whole baseline; an attribute explains a change when the parts with its new values carry it, the parts on values the baseline had show none (or under a quarter of it), and the two differ from each other)");
	}
	for (int p = 0; p < DIFF_PHASE_COUNT; p++)   /* the power lines, as diff_notes_build's */
		if (power_shown(d, (enum diff_phase)p)) {
			diff_power_text(d, (enum diff_phase)p, line, sizeof line);
			fn(ctx, line);
		}
	buf_cleanup(&b);
}

static void
add_note(struct diff *d, const char *text)
{
	d->notes = xreallocarray(d->notes, d->nnotes + 1, sizeof *d->notes);
	d->notes[d->nnotes++] = xstrdup(text);
}

void
diff_notes_build(struct diff *d)
{
	char line[1024];

	for (int p = 0; p < DIFF_PHASE_COUNT; p++)
		if (d->phase[p].significant) {
			diff_explain_text(d, (enum diff_phase)p, line, sizeof line);
			add_note(d, line);
		}
	if (d->taskdef_note != NULL) {
		snprintf(line, sizeof line, "task definition %s", d->taskdef_note);
		add_note(d, line);
	}
	for (int p = 0; p < DIFF_PHASE_COUNT; p++)
		if (power_shown(d, (enum diff_phase)p)) {
			diff_power_text(d, (enum diff_phase)p, line, sizeof line);
			add_note(d, line);
		}
}
