/* html_int: what the page (html.c) and its plots (html_plot.c) share: escaping, number
 * formatting, colours and the per-task facts both read (html_common.c).
 * Ownership: nothing here keeps a pointer; struct html_phases holds copies only. */
#ifndef ECSPROF_HTML_INT_H
#define ECSPROF_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ecsprof/html.h"
#include "ecsprof/report.h"

/* Text as HTML (also safe inside a double-quoted attribute and in SVG). */
void html_esc(FILE *f, const char *s);
/* Seconds for a reader: "72.3 s", "0.690 s", "4 min 12 s"; "-" for TS_NONE. */
void html_fmt_secs(int64_t ms, char *out, size_t size);
/* A group's colour (a palette that stays apart for colour-blind readers and in print). */
const char *html_group_colour(size_t gi);

/* A task that stopped (or is stopping) without having reached RUNNING: task_stage(). */
bool html_task_failed(const struct task *t);
/* The latest timestamp the task has (its end on a waterfall); TS_NONE if it has none. */
int64_t html_task_end(const struct task *t);

/* The waterfall's time axis (html_axis.c): segments of activity, linear each, with the
 * long idle gaps between them cut out. */
#define HTML_AXIS_MAX_SEGS 8
struct html_seg {
	int64_t t0, t1;       /* ms */
	double x0, x1;        /* viewBox */
};
struct html_axis {
	struct html_seg seg[HTML_AXIS_MAX_SEGS];
	size_t nseg;
	size_t nskipped;      /* gaps cut out (nseg - 1) */
	int64_t skipped_ms;   /* their total length */
};
/* From n intervals [start[i], end[i]] (ms), drawn between x0 and x1. */
void html_axis_build(struct html_axis *a, const int64_t *start, const int64_t *end, size_t n,
		     double x0, double x1);
double html_axis_x(const struct html_axis *a, int64_t t);
/* grid lines and labels from ytop to ybottom: each segment's start as a UTC clock time,
 * then offsets from it; the cuts marked */
void html_axis_draw(FILE *f, const struct html_axis *a, double ytop, double ybottom);
/* A tick step (ms) giving at most about `want` ticks over span_ms. */
int64_t html_nice_step_ms(int64_t span_ms, int want);

/* The plots (html_plot.c). Each writes a <section> or nothing. */
int html_write_waterfall(FILE *f, const struct report *r, size_t max_rows);
int html_write_cdfs(FILE *f, const struct report *r);
/* html_facts.c: the image facts and the diagnosis counts, each a <section> only when the
 * report has some. */
void html_write_facts(FILE *f, const struct report *r);

#endif
