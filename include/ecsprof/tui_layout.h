/* tui_layout: the arithmetic of the terminal UI as plain functions, free of curses, so
 * that column widths, waterfall bars, histograms and duration text can be unit-tested.
 * Ownership: nothing here allocates; every output goes into caller-provided storage. */
#ifndef ECSPROF_TUI_LAYOUT_H
#define ECSPROF_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The table's columns, left to right. */
enum tui_col {
	TUI_COL_ID,
	TUI_COL_TASKDEF,
	TUI_COL_STATUS,
	TUI_COL_AZ,
	TUI_COL_LAUNCH,       /* wide terminals only (TUI_WIDE_COLS), as --format table: */
	TUI_COL_SOCI,         /* launch type and SOCI label */
	TUI_COL_GROUP,        /* wide terminals only, with more than one group: the task's */
	TUI_COL_PROVISION,
	TUI_COL_PULL,
	TUI_COL_START,
	TUI_COL_TOTAL,
	TUI_COL_BAR,
	TUI_COL_COUNT
};

struct tui_col_def {
	enum tui_col id;
	const char *title;
	int min_w;            /* below this the column is dropped */
	int pref_w;           /* the most it gets before the bar takes the rest */
	int drop_rank;        /* dropped first when the terminal is too narrow: higher first */
	int report_col;       /* enum col_id it sorts by (report.h) */
	bool right;           /* right-aligned (numbers) */
	bool keep_end;        /* truncation keeps the end ("...east-1a") instead of the start */
};
extern const struct tui_col_def tui_cols[TUI_COL_COUNT];

/* From this width on the table has room for the LAUNCH, SOCI and GROUP columns. */
#define TUI_WIDE_COLS 140

struct tui_columns {
	int x[TUI_COL_COUNT];   /* first screen column */
	int w[TUI_COL_COUNT];   /* 0 when the column is hidden */
};

/* Lays the columns out in width screen cells, one blank between columns. Columns are
 * dropped by drop_rank until their minimums fit; extra space goes to the bar (up to a
 * useful size), to TASKDEF (enough for "name:rev"), STATUS and AZ, then TASKDEF up to its
 * preferred width, then the bar. */
void tui_layout_columns(int width, struct tui_columns *out);
/* The same, with a GROUP column only when grouped (more than one group: a column that
 * says "all" on every row is worth less than the bar). tui_layout_columns() is grouped. */
void tui_layout_columns_for(int width, bool grouped, struct tui_columns *out);

/* A duration in the fewest characters that still carry the most precision and fit in
 * width: "0.123s", "12.35s", "123.4s", "20m35s", "2h05m", "3d04h". Missing (TS_NONE) or
 * negative gives "". out must hold width + 1 bytes (at least 2). Returns the length. */
int tui_format_duration(int64_t ms, int width, char *out, size_t size);
/* A duration in a column of them: tenths of a second ("4.4s", "112.7s") so that the
 * decimal points line up down the column, rounded half up from the milliseconds exactly
 * as the table (--format table) rounds them; tui_format_duration()'s units when tenths do
 * not fit (1000 s and more). */
int tui_format_column_secs(int64_t ms, int width, char *out, size_t size);

/* Copies s into out so it occupies at most width cells, counting one cell per UTF-8
 * code point; a truncated string ends (or, keep_end, starts) with the ellipsis given
 * ("~" or the UTF-8 "…"). Returns the number of cells used. */
int tui_fit(const char *s, int width, bool keep_end, const char *ellipsis, char *out,
	    size_t size);
/* Cells a UTF-8 string occupies (one per code point). */
int tui_text_width(const char *s);

/* Waterfall bars. A bar is up to three segments of time (provision, pull, start), each
 * drawn in its own colour or glyph, placed on an axis of width cells from origin_ms over
 * span_ms. Every segment's end is known to 1/8 of a cell; the bar's start is rounded to
 * a cell, so that a UTF-8 left block ("▍") can show the trailing fraction. */
/* READY (startedAt to healthy_at, the fourth segment) comes last so the others keep their
 * numbers. */
enum tui_seg_kind { TUI_SEG_NONE, TUI_SEG_PROVISION, TUI_SEG_PULL, TUI_SEG_START, TUI_SEG_OTHER,
	TUI_SEG_READY };

struct tui_seg {
	enum tui_seg_kind kind;
	int64_t from_ms;
	int64_t to_ms;
};

struct tui_bar_cell {
	uint8_t kind;         /* enum tui_seg_kind; NONE = blank */
	uint8_t eighths;      /* 1..8 of the cell filled from the left; 0 = blank */
};

#define TUI_BAR_MAX_W 1024

/* Fills cells[0..width) (width at most TUI_BAR_MAX_W). fine: the glyphs can show eighths (UTF-8 blocks); otherwise a
 * cell is drawn when at least half of it is covered. A bar with any positive length is
 * never invisible: at least one cell (or eighth) is drawn. span_ms <= 0 draws nothing. */
void tui_bar_cells(const struct tui_seg *segs, size_t nsegs, int64_t origin_ms, int64_t span_ms,
		   int width, bool fine, struct tui_bar_cell *cells);

enum tui_glyphs { TUI_GLYPHS_ASCII, TUI_GLYPHS_UTF8 };

/* The text for one bar cell: with colour every segment is a full block (or '#') and the
 * colour tells phases apart; without colour each phase has its own glyph ('=' '#' '+' in
 * ASCII, '-' for ready; '░' '▓' '█', '▒' for ready, in UTF-8). Returns a static string (" " for blank). */
const char *tui_bar_glyph(enum tui_glyphs g, bool color, const struct tui_bar_cell *c);

/* The axis for a set of bars. aligned: every bar starts at its own createdAt, the span is
 * the longest bar. Shared: origin is the first createdAt, the span reaches the latest end. */
struct tui_axis {
	int64_t origin_ms;    /* shared axis: first createdAt; aligned: 0 */
	int64_t span_ms;      /* > 0, or 0 when there is nothing to draw */
};

/* Histograms: counts of v[i] in nbins equal bins over [lo, hi] (the last bin closed);
 * values outside or NaN are not counted. Returns how many were counted. */
size_t tui_histogram(const double *v, size_t n, double lo, double hi, unsigned *counts, int nbins);
/* One glyph per bin, height relative to max: "▁▂▃▄▅▆▇█" or " .:-=+*#"; 0 -> " ". */
const char *tui_spark_glyph(enum tui_glyphs g, unsigned count, unsigned max);

/* True when the string contains needle, ASCII case-insensitively (the filter). */
bool tui_contains_ci(const char *hay, const char *needle);

/* The first row to show so that the selected row is visible in a window of rows lines. */
size_t tui_scroll_for(size_t selected, size_t top, size_t rows, size_t total);

#endif
