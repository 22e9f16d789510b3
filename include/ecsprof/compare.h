/* compare: the summary as people read it, in the manner of benchstat and hyperfine: per
 * group and phase the median with its spread, the change against the baseline in percent
 * with its p-value and sample sizes (or "~" when not significant), footnotes when a sample
 * is too small to tell, and one verdict line per group ("soci: x3.1 faster than no-soci").
 * The table and the terminal UI both print these lines, so they cannot disagree.
 * Ownership: nothing is kept; each line is handed to the caller's sink and then reused. */
#ifndef ECSPROF_COMPARE_H
#define ECSPROF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "ecsprof/report.h"

enum compare_line_kind {
	CMP_LINE_TITLE,      /* a group's or a comparison's first line */
	CMP_LINE_HEADER,     /* column titles */
	CMP_LINE_ROW,        /* one phase */
	CMP_LINE_NOTE,       /* footnotes and the legend */
	CMP_LINE_VERDICT,    /* "soci: x3.1 faster than no-soci ..." */
};

/* Receives one line (no newline); text is only valid during the call. */
typedef void compare_sink_fn(void *ctx, enum compare_line_kind kind, const char *text);

struct compare_style {
	int width;           /* the terminal's width; narrower layouts drop the spread */
	bool utf8;           /* "±", "∞", "¹"; else "+-", "inf", "(1)" */
};

/* "GROUP soci: 12 tasks, pull is 9.4% of total startup", then N MIN P50 P90 P99 MAX MEAN
 * per phase. */
void compare_group_lines(const struct report *r, size_t g, const struct compare_style *st,
			 compare_sink_fn *sink, void *ctx);
/* Group g against the baseline, benchstat's way (nothing for the baseline itself):
 *   soci vs no-soci (baseline)
 *   PHASE             no-soci           soci  DELTA
 *   pull          71.1s ±  6%     2.8s ± 30%  -96.1% (p<0.001 n=12+16)
 *   provision     24.7s ± 11%    21.4s ± 13%  ~ (p=1.000 n=12+18)
 * and the footnotes and legend those rows need. */
void compare_vs_lines(const struct report *r, size_t g, const struct compare_style *st,
		      compare_sink_fn *sink, void *ctx);
/* hyperfine's one line, on the total: "soci: x3.1 faster than no-soci (total p50 31.3s
 * vs 97.6s, p<0.001 n=12+16)", "...: x1.9 slower ...", "soci vs no-soci: no significant
 * difference in total (p=0.41 n=12+18)", with ", too few tasks to tell" when the samples
 * cannot show one. Empty for the baseline. */
void compare_verdict(const struct report *r, size_t g, char *out, size_t size);
/* The change column alone: "-96.1% (p<0.001 n=12+16)", "~ (p=0.41 n=12+18)", "" when
 * there is nothing to compare. note gets a footnote marker ("" or "²"). */
void compare_delta_cell(const struct report *r, size_t g, int phase, bool utf8, char *out,
			size_t size);

#endif
