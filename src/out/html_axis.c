/* html_axis: the waterfall's shared time axis. One linear scale, except where nothing
 * happened for much longer than everything else took (two scale-outs hours apart): such
 * a gap is cut out and marked, or both bursts would shrink to slivers. */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

/* width of a cut-out gap, in viewBox units */
#define AXIS_GAP_W 26

struct span {
	int64_t t0, t1;
};

static int
cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

struct gap {
	size_t after;        /* the gap follows cluster `after` */
	int64_t len;
};

static int
cmp_gap_desc(const void *a, const void *b)
{
	const struct gap *x = a, *y = b;

	return (x->len < y->len) - (x->len > y->len);
}

static int
cmp_gap_pos(const void *a, const void *b)
{
	const struct gap *x = a, *y = b;

	return (x->after > y->after) - (x->after < y->after);
}

void
html_axis_build(struct html_axis *a, const int64_t *start, const int64_t *end, size_t n,
		double x0, double x1)
{
	struct span *s = xcalloc(n ? n : 1, sizeof *s), *cl;
	struct gap *gaps;
	size_t ncl = 0, ngaps, ncut = 0;
	int64_t total;

	memset(a, 0, sizeof *a);
	for (size_t i = 0; i < n; i++) {
		s[i].t0 = start[i];
		s[i].t1 = end[i] > start[i] ? end[i] : start[i];
	}
	qsort(s, n, sizeof *s, cmp_span);
	/* clusters of overlapping tasks */
	cl = xcalloc(n ? n : 1, sizeof *cl);
	for (size_t i = 0; i < n; i++) {
		if (ncl > 0 && s[i].t0 <= cl[ncl - 1].t1) {
			if (s[i].t1 > cl[ncl - 1].t1)
				cl[ncl - 1].t1 = s[i].t1;
		} else {
			cl[ncl++] = s[i];
		}
	}
	if (ncl == 0)
		cl[ncl++] = (struct span){ 0, 1000 };
	total = cl[ncl - 1].t1 - cl[0].t0;
	/* Cut the longest gaps while each is more than twice what is left active once it
	 * and the longer ones are cut: a pause inside a scale-out stays, hours between two
	 * experiments go. */
	ngaps = ncl - 1;
	gaps = xcalloc(ngaps ? ngaps : 1, sizeof *gaps);
	for (size_t i = 0; i < ngaps; i++)
		gaps[i] = (struct gap){ i, cl[i + 1].t0 - cl[i].t1 };
	qsort(gaps, ngaps, sizeof *gaps, cmp_gap_desc);
	int64_t left = total;
	for (; ncut < ngaps && ncut + 1 < HTML_AXIS_MAX_SEGS; ncut++) {
		if (gaps[ncut].len < 60000 || gaps[ncut].len <= 2 * (left - gaps[ncut].len))
			break;
		left -= gaps[ncut].len;
	}
	qsort(gaps, ncut, sizeof *gaps, cmp_gap_pos);
	/* segments: the clusters between cut gaps */
	size_t c = 0;
	for (size_t g = 0; g <= ncut; g++) {
		size_t last = g < ncut ? gaps[g].after : ncl - 1;
		struct html_seg *sg = &a->seg[a->nseg++];

		sg->t0 = cl[c].t0;
		sg->t1 = cl[last].t1 > cl[c].t0 ? cl[last].t1 : cl[c].t0 + 1000;
		c = last + 1;
		if (g < ncut)
			a->skipped_ms += gaps[g].len;
	}
	a->nskipped = ncut;
	/* widths: half by duration, half shared equally, so a short burst after a cut still
	 * has room for its own tick labels */
	double room = (x1 - x0) - (double)ncut * AXIS_GAP_W, x = x0;
	int64_t active = 0;

	for (size_t i = 0; i < a->nseg; i++)
		active += a->seg[i].t1 - a->seg[i].t0;
	for (size_t i = 0; i < a->nseg; i++) {
		double share = a->nseg == 1 ? 1.0 :
			       0.5 * (double)(a->seg[i].t1 - a->seg[i].t0) / (double)active +
			       0.5 / (double)a->nseg;

		a->seg[i].x0 = x;
		a->seg[i].x1 = x + room * share;
		x = a->seg[i].x1 + AXIS_GAP_W;
	}
	free(gaps);
	free(cl);
	free(s);
}

double
html_axis_x(const struct html_axis *a, int64_t t)
{
	const struct html_seg *sg = &a->seg[0];

	for (size_t i = 0; i < a->nseg; i++) {
		sg = &a->seg[i];
		if (t <= sg->t1)
			break;
	}
	if (t < sg->t0)   /* inside a cut gap: where the next segment starts */
		return sg->x0;
	if (t > sg->t1)
		return sg->x1;
	return sg->x0 + (double)(t - sg->t0) * (sg->x1 - sg->x0) / (double)(sg->t1 - sg->t0);
}

/* A tick step (ms) giving at most about `want` ticks over span_ms. */
int64_t
html_nice_step_ms(int64_t span_ms, int want)
{
	static const int64_t steps[] = {
		1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000,
		60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000, 10800000,
		21600000, 43200000, 86400000,
	};

	if (want < 1)
		want = 1;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (span_ms / steps[i] <= want)
			return steps[i];
	return (span_ms / want / 86400000 + 1) * 86400000;
}

/* "+30 s", "+2 min", "+1.5 h": an offset from a segment's start */
static void
fmt_offset(int64_t ms, int64_t step, char *out, size_t size)
{
	if (step < 1000)
		snprintf(out, size, "+%.*f s", step < 100 ? 2 : 1, (double)ms / 1000.0);
	else if (ms < 120000 || step % 60000 != 0)
		snprintf(out, size, "+%lld s", (long long)(ms / 1000));
	else if (ms < 7200000 || step % 3600000 != 0)
		snprintf(out, size, "+%lld min", (long long)(ms / 60000));
	else
		snprintf(out, size, "+%lld h", (long long)(ms / 3600000));
}

void
html_axis_draw(FILE *f, const struct html_axis *a, double ytop, double ybottom)
{
	char v[64];

	fputs("<g class=\"axis\">", f);
	for (size_t i = 0; i < a->nseg; i++) {
		const struct html_seg *sg = &a->seg[i];
		int64_t span = sg->t1 - sg->t0;
		int64_t step = html_nice_step_ms(span, (int)((sg->x1 - sg->x0) / 95));
		char when[TIMEUTIL_ISO_LEN];

		/* the segment starts at a clock time (UTC); its ticks count from there */
		timeutil_format_iso(sg->t0, when);
		snprintf(v, sizeof v, "%.8sZ", when + 11);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			   "<text class=\"t0\" x=\"%.1f\" y=\"%.1f\">%s</text>", sg->x0, sg->x0,
			ytop - 6, ybottom, sg->x0, ytop - 10, v);
		for (int64_t t = step; t <= span; t += step) {
			double x = html_axis_x(a, sg->t0 + t);

			if (sg->x1 - x < 30 && t != span)
				break;   /* no label squeezed against the segment's end */
			fmt_offset(t, step, v, sizeof v);
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
				   "<text x=\"%.1f\" y=\"%.1f\">%s</text>", x, x, ytop - 6, ybottom,
				x, ytop - 10, v);
		}
		if (i + 1 < a->nseg) {
			/* the cut: a pale band with a zigzag, its length in the tooltip */
			double gx = sg->x1 + 3, gw = a->seg[i + 1].x0 - sg->x1 - 6;

			html_fmt_secs(a->seg[i + 1].t0 - sg->t1, v, sizeof v);
			fprintf(f, "<g class=\"cut\"><title>%s without a task starting: cut out</title>"
				   "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
				   "<path d=\"M%.1f %.1fl%.1f -6l%.1f 12l%.1f -6\"/></g>", v, gx,
				ytop - 6, gw, ybottom - ytop + 6, gx, ytop - 2, gw / 3, gw / 3, gw / 3);
		}
	}
	fputs("</g>\n", f);
}
