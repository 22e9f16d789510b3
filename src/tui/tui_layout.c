/* tui_layout: column widths, duration text, waterfall bar cells and histograms for the
 * terminal UI; no curses here, so every rule is unit-tested. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/report.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui_layout.h"
#include "ecsprof/xalloc.h"

/* Widths: 8 shows enough of a task id to tell tasks apart (docker's short id is 12, the
 * console's 8); 6 fits "123.4s". */
const struct tui_col_def tui_cols[TUI_COL_COUNT] = {
	{ TUI_COL_ID,        "TASK",    8,  8, 0, COL_TASK_ID,     false, false },
	{ TUI_COL_TASKDEF,   "TASKDEF", 8, 24, 4, COL_TASKDEF,     false, true  },
	{ TUI_COL_STATUS,    "STATUS",  8, 12, 3, COL_LAST_STATUS, false, false },
	{ TUI_COL_AZ,        "AZ",      6, 10, 5, COL_AZ,          false, true  },
	{ TUI_COL_LAUNCH,    "LAUNCH",  8,  8, 6, COL_LAUNCH_TYPE, false, false },
	{ TUI_COL_SOCI,      "SOCI",    7,  7, 6, COL_SOCI,        false, false },
	{ TUI_COL_GROUP,     "GROUP",   8, 24, 6, COL_GROUP,       false, true  },
	{ TUI_COL_PROVISION, "PROV",    6,  6, 2, COL_PROVISION_S, true,  false },
	{ TUI_COL_PULL,      "PULL",    6,  6, 1, COL_PULL_S,      true,  false },
	{ TUI_COL_START,     "START",   6,  6, 2, COL_START_S,     true,  false },
	{ TUI_COL_TOTAL,     "TOTAL",   6,  6, 1, COL_TOTAL_S,     true,  false },
	{ TUI_COL_BAR,       "WATERFALL", 10, 14, 0, COL_CREATED_AT, false, false },
};

void
tui_layout_columns(int width, struct tui_columns *out)
{
	tui_layout_columns_for(width, true, out);
}

void
tui_layout_columns_for(int width, bool grouped, struct tui_columns *out)
{
	bool shown[TUI_COL_COUNT];
	int need, extra, x;

	memset(out, 0, sizeof *out);
	for (int c = 0; c < TUI_COL_COUNT; c++)
		shown[c] = true;
	/* below TUI_WIDE_COLS the bar is worth more than the group, the launch type and
	 * the SOCI label (the table's columns at 100) */
	shown[TUI_COL_GROUP] = grouped && width >= TUI_WIDE_COLS;
	shown[TUI_COL_LAUNCH] = shown[TUI_COL_SOCI] = width >= TUI_WIDE_COLS;
	/* drop by rank, highest first, until the minimums and the gaps fit */
	for (int rank = 6; rank >= 0; rank--) {
		need = -1;
		for (int c = 0; c < TUI_COL_COUNT; c++)
			if (shown[c])
				need += tui_cols[c].min_w + 1;
		if (need <= width || rank == 0)
			break;
		for (int c = 0; c < TUI_COL_COUNT; c++)
			if (tui_cols[c].drop_rank == rank)
				shown[c] = false;
	}
	need = -1;
	for (int c = 0; c < TUI_COL_COUNT; c++)
		if (shown[c]) {
			out->w[c] = tui_cols[c].min_w;
			need += tui_cols[c].min_w + 1;
		}
	extra = width - need;
	if (extra < 0) {
		/* narrower than the minimum: the bar absorbs the shortfall, then disappears */
		out->w[TUI_COL_BAR] += extra;
		if (out->w[TUI_COL_BAR] < 1)
			out->w[TUI_COL_BAR] = 0;
		extra = 0;
	}
	/* the order in which extra space is handed out */
	static const struct { enum tui_col col; int upto; } order[] = {
		{ TUI_COL_BAR, 14 }, { TUI_COL_TASKDEF, 14 }, { TUI_COL_STATUS, 12 },
		{ TUI_COL_AZ, 10 }, { TUI_COL_TASKDEF, 24 }, { TUI_COL_GROUP, 24 },
	};
	for (size_t i = 0; i < sizeof order / sizeof order[0] && extra > 0; i++) {
		enum tui_col c = order[i].col;
		if (!shown[c])
			continue;
		int give = order[i].upto - out->w[c];
		if (give > extra)
			give = extra;
		if (give > 0) {
			out->w[c] += give;
			extra -= give;
		}
	}
	if (out->w[TUI_COL_BAR] > 0)
		out->w[TUI_COL_BAR] += extra;
	x = 0;
	for (int c = 0; c < TUI_COL_COUNT; c++) {
		out->x[c] = x;
		if (out->w[c] > 0)
			x += out->w[c] + 1;
	}
}

static bool
try_fmt(char *out, size_t size, int width, int *len, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static bool
try_fmt(char *out, size_t size, int width, int *len, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || n > width || (size_t)n >= size)
		return false;
	memcpy(out, tmp, (size_t)n + 1);
	*len = n;
	return true;
}

int
tui_format_duration(int64_t ms, int width, char *out, size_t size)
{
	int len = 0;

	if (size == 0)
		return 0;
	out[0] = '\0';
	if (ms == TS_NONE || ms < 0 || width <= 0)
		return 0;
	double s = (double)ms / 1000.0;
	int64_t m = ms / 60000, h = ms / 3600000, d = ms / 86400000;

	/* seconds read best when comparing rows; past an hour they stop being readable */
	if (ms < 3600000) {
		for (int dec = 3; dec >= 0; dec--)
			if (try_fmt(out, size, width, &len, "%.*fs", dec, s))
				return len;
	}
	if (ms >= 60000 && ms < 3600000 &&
	    try_fmt(out, size, width, &len, "%" PRId64 "m%02ds", m, (int)(ms / 1000 % 60)))
		return len;
	if (ms >= 3600000 && ms < 86400000 &&
	    try_fmt(out, size, width, &len, "%" PRId64 "h%02dm", h, (int)(ms / 60000 % 60)))
		return len;
	if (ms >= 86400000 &&
	    try_fmt(out, size, width, &len, "%" PRId64 "d%02dh", d, (int)(ms / 3600000 % 24)))
		return len;
	if (ms < 3600000 && try_fmt(out, size, width, &len, "%" PRId64 "m", m))
		return len;
	if (ms < 86400000 && try_fmt(out, size, width, &len, "%" PRId64 "h", h))
		return len;
	if (try_fmt(out, size, width, &len, "%" PRId64 "d", d))
		return len;
	/* nothing fits: say so rather than show a wrong number */
	return try_fmt(out, size, width, &len, "%s", width >= 2 ? ">>" : ">") ? len : 0;
}

int
tui_format_column_secs(int64_t ms, int width, char *out, size_t size)
{
	int len = 0;
	int64_t t;

	if (size == 0)
		return 0;
	out[0] = '\0';
	if (ms == TS_NONE || ms < 0 || width <= 0)
		return 0;
	t = (ms + 50) / 100;   /* integers, as table.c: no binary-fraction surprises */
	if (ms < 1000000 && try_fmt(out, size, width, &len, "%" PRId64 ".%" PRId64 "s", t / 10,
	    t % 10))
		return len;
	return tui_format_duration(ms, width, out, size);
}

static bool
is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

int
tui_text_width(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		if (!is_cont((unsigned char)*s))
			n++;
	return n;
}

/* Byte offset of the code point number cells (or the end). */
static size_t
cp_offset(const char *s, int cells)
{
	size_t i = 0;
	int n = 0;

	while (s[i] != '\0') {
		if (!is_cont((unsigned char)s[i])) {
			if (n == cells)
				return i;
			n++;
		}
		i++;
	}
	return i;
}

static int
put(char *out, size_t size, size_t *at, const char *s, size_t n)
{
	if (*at + n >= size)
		n = size - 1 - *at;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
	return 0;
}

static int
fit_clean(const char *s, int width, bool keep_end, const char *ellipsis, char *out,
	  size_t size)
{
	size_t at = 0;
	int total, ew;

	if (size == 0)
		return 0;
	out[0] = '\0';
	if (s == NULL || width <= 0)
		return 0;
	total = tui_text_width(s);
	if (total <= width) {
		put(out, size, &at, s, strlen(s));
		return total;
	}
	ew = tui_text_width(ellipsis);
	if (ew >= width) {
		size_t off = keep_end ? cp_offset(s, total - width) : 0;
		size_t end = keep_end ? strlen(s) : cp_offset(s, width);
		put(out, size, &at, s + off, end - off);
		return width;
	}
	if (keep_end) {
		size_t off = cp_offset(s, total - (width - ew));
		put(out, size, &at, ellipsis, strlen(ellipsis));
		put(out, size, &at, s + off, strlen(s + off));
	} else {
		put(out, size, &at, s, cp_offset(s, width - ew));
		put(out, size, &at, ellipsis, strlen(ellipsis));
	}
	return width;
}

int
tui_fit(const char *s, int width, bool keep_end, const char *ellipsis, char *out, size_t size)
{
	/* server text: no ESC, C1 or bidi control reaches the terminal, one '?' each */
	char *clean = xstrdup(s != NULL ? s : "");
	int n;

	termsafe_scrub(clean, NULL);
	n = fit_clean(clean, width, keep_end, ellipsis, out, size);
	free(clean);
	return n;
}

/* Position of t on the axis in eighths of a cell, clamped to [0, 8 * width]. */
static int64_t
pos8(int64_t t, int64_t origin, int64_t span, int width)
{
	if (t <= origin)
		return 0;
	if (t - origin >= span)
		return 8 * (int64_t)width;
	/* double: (t - origin) * 8 * width can overflow 64 bits on absurd data */
	return (int64_t)llround((double)(t - origin) * 8.0 * width / (double)span);
}

void
tui_bar_cells(const struct tui_seg *segs, size_t nsegs, int64_t origin_ms, int64_t span_ms,
	      int width, bool fine, struct tui_bar_cell *cells)
{
	uint8_t best[TUI_BAR_MAX_W];
	int64_t start8 = -1;
	enum tui_seg_kind first_kind = TUI_SEG_NONE;
	bool positive = false, drawn = false;

	if (width <= 0)
		return;
	if (width > TUI_BAR_MAX_W)
		width = TUI_BAR_MAX_W;
	memset(cells, 0, sizeof *cells * (size_t)width);
	memset(best, 0, sizeof best);
	if (span_ms <= 0)
		return;
	for (size_t i = 0; i < nsegs; i++) {
		const struct tui_seg *g = &segs[i];
		if (g->kind == TUI_SEG_NONE || g->from_ms == TS_NONE || g->to_ms == TS_NONE ||
		    g->to_ms < g->from_ms)
			continue;
		int64_t a = pos8(g->from_ms, origin_ms, span_ms, width);
		if (start8 < 0 || a < start8) {
			start8 = a;
			first_kind = g->kind;
		}
		if (g->to_ms > g->from_ms)
			positive = true;
	}
	if (start8 < 0)
		return;
	/* the start is rounded to a whole cell: a left block can only show a trailing edge */
	start8 = (start8 + 4) / 8 * 8;
	if (start8 >= 8 * (int64_t)width)
		start8 = 8 * ((int64_t)width - 1);
	for (size_t i = 0; i < nsegs; i++) {
		const struct tui_seg *g = &segs[i];
		if (g->kind == TUI_SEG_NONE || g->from_ms == TS_NONE || g->to_ms == TS_NONE ||
		    g->to_ms <= g->from_ms)
			continue;
		int64_t a = pos8(g->from_ms, origin_ms, span_ms, width);
		int64_t b = pos8(g->to_ms, origin_ms, span_ms, width);
		if (a < start8)
			a = start8;
		for (int64_t c = a / 8; c < width && 8 * c < b; c++) {
			int64_t lo = a > 8 * c ? a : 8 * c;
			int64_t hi = b < 8 * c + 8 ? b : 8 * c + 8;
			if (hi <= lo)
				continue;
			int cover = cells[c].eighths + (int)(hi - lo);
			cells[c].eighths = (uint8_t)(cover > 8 ? 8 : cover);
			if (hi - lo > best[c]) {
				best[c] = (uint8_t)(hi - lo);
				cells[c].kind = (uint8_t)g->kind;
			}
		}
	}
	for (int c = 0; c < width; c++) {
		if (!fine)
			cells[c].eighths = cells[c].eighths >= 4 ? 8 : 0;
		if (cells[c].eighths == 0)
			cells[c].kind = TUI_SEG_NONE;
		else
			drawn = true;
	}
	if (positive && !drawn) {
		int c = (int)(start8 / 8);
		cells[c].kind = (uint8_t)first_kind;
		cells[c].eighths = fine ? 1 : 8;
	}
}

const char *
tui_bar_glyph(enum tui_glyphs g, bool color, const struct tui_bar_cell *c)
{
	static const char *const eighths[9] = {
		" ", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589", "\u2588",
	};
	static const char *const ascii[] = { " ", "=", "#", "+", ".", "-" };
	/* light shade, dark shade, full block, middle dot, medium shade (ready): tell phases
	 * apart without colour */
	static const char *const shades[] = { " ", "\u2591", "\u2593", "\u2588", "\u00b7",
					      "\u2592" };

	if (c->kind == TUI_SEG_NONE || c->kind > TUI_SEG_READY || c->eighths == 0)
		return " ";
	if (g == TUI_GLYPHS_ASCII)
		return ascii[c->kind];
	if (!color)
		return shades[c->kind];
	return eighths[c->eighths > 8 ? 8 : c->eighths];
}

size_t
tui_histogram(const double *v, size_t n, double lo, double hi, unsigned *counts, int nbins)
{
	size_t counted = 0;

	if (nbins <= 0)
		return 0;
	memset(counts, 0, sizeof *counts * (size_t)nbins);
	if (!(hi >= lo))
		return 0;
	for (size_t i = 0; i < n; i++) {
		double x = v[i];
		int b;
		if (isnan(x) || x < lo || x > hi)
			continue;
		if (hi == lo)
			b = 0;
		else
			b = (int)((x - lo) / (hi - lo) * nbins);
		if (b >= nbins)
			b = nbins - 1;
		if (b < 0)
			b = 0;
		counts[b]++;
		counted++;
	}
	return counted;
}

const char *
tui_spark_glyph(enum tui_glyphs g, unsigned count, unsigned max)
{
	static const char *const blocks[] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char *const ascii[] = { ".", ":", "-", "=", "+", "*", "#" };
	unsigned levels = g == TUI_GLYPHS_UTF8 ? 8 : 7;

	if (count == 0 || max == 0)
		return " ";
	if (count > max)
		count = max;
	/* ceil: a bin with one task must not look empty */
	unsigned lvl = (unsigned)(((uint64_t)count * levels + max - 1) / max);
	if (lvl < 1)
		lvl = 1;
	return g == TUI_GLYPHS_UTF8 ? blocks[lvl - 1] : ascii[lvl - 1];
}

bool
tui_contains_ci(const char *hay, const char *needle)
{
	size_t n;

	if (needle == NULL || needle[0] == '\0')
		return true;
	if (hay == NULL)
		return false;
	n = strlen(needle);
	for (const char *p = hay; *p != '\0'; p++) {
		size_t i = 0;
		while (i < n && p[i] != '\0') {
			unsigned char a = (unsigned char)p[i], b = (unsigned char)needle[i];
			if (a >= 'A' && a <= 'Z')
				a = (unsigned char)(a - 'A' + 'a');
			if (b >= 'A' && b <= 'Z')
				b = (unsigned char)(b - 'A' + 'a');
			if (a != b)
				break;
			i++;
		}
		if (i == n)
			return true;
	}
	return false;
}

size_t
tui_scroll_for(size_t selected, size_t top, size_t rows, size_t total)
{
	if (rows == 0 || total <= rows)
		return 0;
	if (selected >= total)
		selected = total - 1;
	if (selected < top)
		top = selected;
	if (selected >= top + rows)
		top = selected - rows + 1;
	/* after a resize or a filter, do not leave blank lines below the last row */
	if (top > total - rows)
		top = total - rows;
	return top;
}
