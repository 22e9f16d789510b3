/* tui_diff: `ecsprof diff` on a terminal (see ecsprof/tui_diff.h): the phases side by side,
 * the explanation below, scrolled with the keys. The lines are laid out without curses
 * (tui_diff_layout) from the model's rows and texts; curses only puts them on the screen. */
#include <curses.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecsprof/buf.h"
#include "ecsprof/tui_diff.h"
#include "ecsprof/utf8.h"
#include "ecsprof/xalloc.h"
#include "tui_term.h"

/* ---- the layout ---------------------------------------------------------------------- */

struct lay {
	struct tui_dlines *out;
	int cols;
	bool below;                 /* diff_lines past its phases table */
};

/* One line, wrapped at cols (continuations indented under the text). */
static void
add_line(struct lay *l, enum tui_dcolor color, const char *text)
{
	int indent = (int)strspn(text, " ") + 2;
	const char *p = text;
	bool first = true;

	if (indent > l->cols / 2)
		indent = 2;
	do {
		int room = l->cols - (first ? 0 : indent);
		size_t next, n = utf8_line_break(p, room > 1 ? room : 1, true, NULL, &next);

		l->out->v = xreallocarray(l->out->v, l->out->n + 1, sizeof *l->out->v);
		l->out->v[l->out->n++] = (struct tui_dline){
			color, xasprintf("%*s%.*s", first ? 0 : indent, "", (int)n, p) };
		p += next;
		first = false;
	} while (*p != '\0');
}

/* The change of one phase: "+33.7 s [+32.3, +34.9] p<0.001" or "+0.1 s ~ p=1.000", the
 * change, CI and p in the table's words (diff_signed_secs, diff_ci_text, diff_p_text), with the table's "(1)" when the windows are too small
 * for any p below alpha (the footnote says so). */
static void
change_text(const struct diff_cmp *c, char *out, size_t size)
{
	char d[24], p[24], ci[48];

	if (!c->valid) {
		snprintf(out, size, "(no data on a side)");
		return;
	}
	const char *few = c->too_few ? " (1)" : "";

	diff_signed_secs(c->p50_delta_s, d, sizeof d);
	diff_p_text(c->p_holm, p, sizeof p);
	if (isnan(c->ci_lo_s))
		snprintf(out, size, "%s%s %s%s", d, c->significant ? "" : " ~", p, few);
	else
		snprintf(out, size, "%s %s%s %s%s", d, diff_ci_text(c->ci_lo_s, c->ci_hi_s, ci, sizeof ci),
			 c->significant ? "" : " ~", p, few);
}

/* diff_lines' lines below its phases table (what changed, why, power): the table's own
 * words, so the screen and the table cannot disagree */
static void
below_line(void *ctx, const char *line)
{
	struct lay *l = ctx;

	if (!l->below) {
		l->below = line[0] == '\0';
		return;
	}
	add_line(l, line[0] != ' ' && strchr(line, ':') != NULL && line[strlen(line) - 1] == ':' ?
		 TUI_D_HEAD : TUI_D_PLAIN, line);
}

void
tui_diff_layout(const struct diff *d, int cols, struct tui_dlines *out)
{
	struct lay l = { out, cols > 20 ? cols : 20, false };
	char x[6][24], ch[96], line[512];
	bool few = false;

	memset(out, 0, sizeof *out);
	snprintf(line, sizeof line, "%-9s %-21s \u2502 %-21s \u2502 %s", "", "BASELINE", "NEW",
		 "P50 CHANGE [95% CI]");
	add_line(&l, TUI_D_HEAD, line);
	snprintf(line, sizeof line, "%-9s %5s %7s %7s \u2502 %5s %7s %7s \u2502", "PHASE", "n", "p50",
		 "p90", "n", "p50", "p90");
	add_line(&l, TUI_D_HEAD, line);
	out->head_n = out->n;
	for (int p = 0; p < DIFF_PHASE_COUNT; p++) {
		const struct diff_cmp *c = &d->phase[p];
		enum tui_dcolor color = TUI_D_DIM;

		if (c->base.n == 0 && c->cur.n == 0)
			continue;
		if (c->valid && c->significant)
			color = c->p50_delta_s > 0 ? TUI_D_SLOWER : TUI_D_FASTER;
		change_text(c, ch, sizeof ch);
		few |= c->valid && c->too_few;
		snprintf(line, sizeof line, "%-9s %5zu %7s %7s \u2502 %5zu %7s %7s \u2502 %s",
			 diff_phase_name((enum diff_phase)p), c->base.n, diff_secs(c->base.p50, x[0], 24),
			 diff_secs(c->base.p90, x[1], 24), c->cur.n, diff_secs(c->cur.p50, x[2], 24),
			 diff_secs(c->cur.p90, x[3], 24), ch);
		add_line(&l, color, line);
	}
	out->phases_end = out->n;
	add_line(&l, TUI_D_DIM, "seconds; change = new - baseline; p: Mann-Whitney, Holm over the phases; ~ not significant");
	if (few) {
		snprintf(line, sizeof line, "(1) too few tasks to tell: even fully separated windows this small could not give p < %.2f",
			 DIFF_ALPHA);
		add_line(&l, TUI_D_DIM, line);
	}
	add_line(&l, TUI_D_PLAIN, "");
	diff_lines(d, 0, below_line, &l);
}

void
tui_dlines_cleanup(struct tui_dlines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* ---- the terminal -------------------------------------------------------------------- */

/* The header lines kept in place: all of l->head_n when the screen has room for them and at
 * least one scrolled line below, else none (all lines scroll, as on a tiny terminal). */
static size_t
fixed_lines(const struct tui_dlines *l, size_t body)
{
	return l->head_n < body ? l->head_n : 0;
}

static void
put_line(int row, const struct tui_dline *ln, bool color)
{
	attr_t a = A_NORMAL;

	if (ln->color == TUI_D_HEAD)
		a = A_BOLD;
	else if (ln->color == TUI_D_DIM)
		a = A_DIM;
	else if (ln->color == TUI_D_SLOWER)
		a = color ? COLOR_PAIR(2) | A_BOLD : A_BOLD;
	else if (ln->color == TUI_D_FASTER)
		a = color ? COLOR_PAIR(3) | A_BOLD : A_BOLD;
	attrset(a);
	mvaddstr(row, 0, ln->text);
}

/* top: the first scrolled line shown, counted from the first line below the fixed header */
static void
draw(const struct tui_dlines *l, const char *title, size_t top, bool color)
{
	int rows = LINES, body = rows - 2;
	size_t fixed = fixed_lines(l, body > 0 ? (size_t)body : 0), first = fixed + top;
	size_t shown = (size_t)(body > 0 ? body : 0) - fixed;
	size_t end = first + shown < l->n ? first + shown : l->n;
	char foot[160];

	erase();
	attrset(color ? COLOR_PAIR(1) : A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 0, title, COLS);
	for (size_t r = 0; r < fixed; r++)
		put_line((int)r + 1, &l->v[r], color);
	for (size_t i = first; i < end; i++)
		put_line((int)(fixed + (i - first)) + 1, &l->v[i], color);
	attrset(A_REVERSE);
	mvhline(rows - 1, 0, ' ', COLS);
	snprintf(foot, sizeof foot, " q quit  j/k \u2191\u2193 PgUp/PgDn Home/End scroll   lines %zu-%zu of %zu",
		 end > first ? first + 1 : 0, end, l->n);
	mvaddnstr(rows - 1, 0, foot, COLS);
	attrset(A_NORMAL);
	refresh();
}

int
tui_diff_run(const struct diff *d, const char *title, bool no_color, struct err *err)
{
	struct tui_term term;
	struct tui_dlines l;
	size_t top = 0;
	bool color;

	setlocale(LC_CTYPE, "");
	if (tui_term_open(&term, false, no_color, err) != 0)
		return -1;
	curs_set(0);
	color = term.color;
	if (color) {
		init_pair(1, COLOR_BLACK, COLOR_CYAN);
		init_pair(2, COLOR_RED, -1);
		init_pair(3, COLOR_GREEN, -1);
	}
	tui_diff_layout(d, COLS, &l);
	for (;;) {
		size_t rows = LINES > 3 ? (size_t)LINES - 2 : 1, fixed = fixed_lines(&l, rows);
		size_t body = rows - fixed, scrolled = l.n - fixed;
		size_t last = scrolled > body ? scrolled - body : 0;
		int key;

		if (top > last)
			top = last;
		draw(&l, title, top, color);
		key = getch();
		if (tui_term_interrupted() || key == 'q' || key == 27 || key == KEY_F(10))
			break;
		switch (key) {
		case 'j': case KEY_DOWN: top++; break;
		case 'k': case KEY_UP: top = top > 0 ? top - 1 : 0; break;
		case ' ': case KEY_NPAGE: top += body; break;
		case KEY_PPAGE: top = top > body ? top - body : 0; break;
		case 'g': case KEY_HOME: top = 0; break;
		case 'G': case KEY_END: top = last; break;
		case KEY_RESIZE:
			tui_dlines_cleanup(&l);
			tui_diff_layout(d, COLS, &l);
			break;
		default: break;
		}
		if (top > last)
			top = last;
	}
	tui_dlines_cleanup(&l);
	tui_term_close(&term);
	return 0;
}
