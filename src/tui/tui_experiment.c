/* tui_experiment: `ecsprof experiment`'s arms side by side while its tasks start (see
 * ecsprof/tui_experiment.h). The layout is tui_xrender(), spans of text with a colour and
 * no curses, so that it is unit-tested; tui_xdraw() puts the spans on the screen. */
#include <curses.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "ecsprof/phase.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui_experiment.h"
#include "ecsprof/xalloc.h"
#include "tui_int.h"

#define ARM_MIN_W 30     /* an arm's column below this: the arms one under another */
#define GAP 3            /* between two arms' columns: " │ " */
#define STAGE_W 9        /* "timed out" */
#define TIME_W 6         /* "112.7s", "20m35s" */

/* ---- the layout ---------------------------------------------------------------------- */

/* A wait in whole seconds, as a person says it: "45s", "3m05s", "10m", "1h30m" (the one
 * duration formatter, timeutil_format_duration, of the whole seconds). */
static void
fmt_wait(int64_t ms, char *out, size_t size)
{
	timeutil_format_duration(ms > 0 ? ms / 1000 * 1000 : 0, out, size);
}

static void
add_span(struct tui_xscreen *sc, int row, int col, int max_cells, enum tui_xcolor color,
	 const char *text, const char *ellipsis)
{
	char fit[1024];
	int cells;

	if (max_cells <= 0 || text[0] == '\0')
		return;
	cells = tui_fit(text, max_cells, false, ellipsis, fit, sizeof fit);
	if (cells <= 0)
		return;
	sc->spans = xgrow(sc->spans, sc->n + 1, &sc->cap, sizeof *sc->spans);
	sc->spans[sc->n++] = (struct tui_xspan){ row, col, cells, color, xstrdup(fit) };
}

static void
add_spanf(struct tui_xscreen *sc, int row, int col, int max_cells, enum tui_xcolor color,
	  const char *ellipsis, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void
add_spanf(struct tui_xscreen *sc, int row, int col, int max_cells, enum tui_xcolor color,
	  const char *ellipsis, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	add_span(sc, row, col, max_cells, color, text, ellipsis);
}

/* The end of a segment still growing: the task's createdAt plus the time since RunTask
 * answered, by the local clock, so that a skewed ECS clock does not stretch the bar. */
static int64_t
open_end(const struct tui_xtask *t, int64_t from)
{
	int64_t end = t->created_ms + (t->waited_ms > 0 ? t->waited_ms : 0);
	return end > from ? end : from;
}

/* provision, pull, start: the known ones, and the one under way up to now; relative to
 * createdAt (every bar starts at 0 of the shared axis). */
static size_t
xsegments(const struct tui_xtask *t, struct tui_seg *segs)
{
	static const enum tui_seg_kind kinds[3] = { TUI_SEG_PROVISION, TUI_SEG_PULL, TUI_SEG_START };
	const int64_t ts[4] = { t->created_ms, t->pull_started_ms, t->pull_stopped_ms,
				t->started_ms };
	bool starting = task_stage_is_starting(t->stage) && !t->timed_out;
	size_t n = 0;

	if (t->created_ms == TS_NONE)
		return 0;
	for (int i = 0; i < 3; i++) {
		int64_t from = ts[i], to = ts[i + 1];

		if (from == TS_NONE)
			break;
		if (to == TS_NONE) {
			if (!starting)
				break;
			to = open_end(t, from);
		}
		segs[n++] = (struct tui_seg){ kinds[i], from - t->created_ms, to - t->created_ms };
		if (ts[i + 1] == TS_NONE)
			break;
	}
	return n;
}

static int64_t
xbar_end(const struct tui_xtask *t)
{
	struct tui_seg segs[3];
	size_t n = xsegments(t, segs);

	return n > 0 ? segs[n - 1].to_ms : 0;
}

static const char *
stage_word(const struct tui_xtask *t, const struct tui_xstate *s, enum tui_xcolor *color)
{
	*color = TUI_X_PLAIN;
	if (t->timed_out) {
		*color = TUI_X_BAD;
		return "timed out";
	}
	switch (t->stage) {
	case STAGE_PROVISION: return "provision";
	case STAGE_PULL: return "pulling";
	case STAGE_START: return "starting";
	case STAGE_RUNNING:
		if (t->healthy) {
			*color = TUI_X_DONE;
			return "HEALTHY";
		}
		*color = s->until != NULL && strcmp(s->until, "HEALTHY") == 0 ? TUI_X_PLAIN
									    : TUI_X_DONE;
		return "RUNNING";
	case STAGE_STOPPED: return "stopped";
	case STAGE_FAILED:
		*color = TUI_X_BAD;
		return "failed";
	default: return "launched";
	}
}

static enum tui_xcolor
seg_color(uint8_t kind)
{
	switch (kind) {
	case TUI_SEG_PROVISION: return TUI_X_BAR_PROVISION;
	case TUI_SEG_PULL: return TUI_X_BAR_PULL;
	default: return TUI_X_BAR_START;
	}
}

struct xctx {
	const struct tui_xstate *s;
	struct tui_xscreen *sc;
	enum tui_glyphs g;
	bool color;
	const char *ellipsis;
	int64_t span_ms;
};

static void
task_row(const struct xctx *c, const struct tui_xtask *t, size_t i, int row, int x, int w)
{
	struct tui_seg segs[3];
	struct tui_bar_cell cells[TUI_BAR_MAX_W];
	int bw = w - 4 - STAGE_W - 1 - TIME_W - 1;
	enum tui_xcolor wc;
	const char *word = stage_word(t, c->s, &wc);
	char tm[16] = "";

	add_spanf(c->sc, row, x, 3, TUI_X_DIM, c->ellipsis, "%3zu", i + 1);
	if (bw > TUI_BAR_MAX_W)
		bw = TUI_BAR_MAX_W;
	if (bw >= 3) {
		size_t n = xsegments(t, segs);
		int from = 0;

		tui_bar_cells(segs, n, 0, c->span_ms, bw, c->g == TUI_GLYPHS_UTF8 && c->color, cells);
		/* runs of one kind are one span */
		for (int k = 1; k <= bw; k++) {
			char run[TUI_BAR_MAX_W * 4 + 1];
			size_t len = 0;

			if (k < bw && cells[k].kind == cells[from].kind &&
			    (cells[k].eighths == 8) == (cells[from].eighths == 8))
				continue;
			if (cells[from].eighths > 0) {
				for (int j = from; j < k; j++) {
					const char *gl = tui_bar_glyph(c->g, c->color, &cells[j]);
					size_t gn = strlen(gl);
					if (len + gn < sizeof run) {
						memcpy(run + len, gl, gn);
						len += gn;
					}
				}
				run[len] = '\0';
				add_span(c->sc, row, x + 4 + from, k - from,
					 c->color ? seg_color(cells[from].kind) : TUI_X_PLAIN, run,
					 c->ellipsis);
			}
			from = k;
		}
	} else {
		bw = 0;
	}
	{
		int col = x + 4 + bw + (bw ? 1 : 0), room = x + w - col;

		add_span(c->sc, row, col, room < STAGE_W ? room : STAGE_W, wc, word, c->ellipsis);
		if (room < STAGE_W + 1 + TIME_W)
			return;   /* no room for the time after the stage */
	}
	if (t->stage == STAGE_RUNNING && t->started_ms != TS_NONE && t->created_ms != TS_NONE)
		tui_format_column_secs(t->started_ms - t->created_ms, TIME_W, tm, sizeof tm);
	else if (t->waited_ms > 0 && task_stage_is_starting(t->stage) && !t->timed_out)
		fmt_wait(t->waited_ms, tm, sizeof tm);
	if (tm[0] != '\0') {
		int tw = tui_text_width(tm);
		add_span(c->sc, row, x + w - tw, tw, TUI_X_PLAIN, tm, c->ellipsis);
	}
}

/* One arm in the box at (row, x) of w x h cells. */
static void
arm_block(const struct xctx *c, const struct tui_xarm *a, int row, int x, int w, int h)
{
	size_t n[STAGE_COUNT] = { 0 }, timed_out = 0, healthy = 0;
	char counts[256], p50[32] = "-";
	int len = 0, rows, shown;
	long total_rows;

	for (size_t i = 0; i < a->ntasks; i++) {
		if (a->tasks[i].timed_out)
			timed_out++;
		else
			n[a->tasks[i].stage]++;
		healthy += a->tasks[i].healthy;
	}
	add_spanf(c->sc, row, x, w, TUI_X_HEAD, c->ellipsis, "%s  %s", a->name, a->taskdef);
	len = snprintf(counts, sizeof counts, "%ld/%ld launched", a->launched, a->planned);
	{
		/* the furthest first: running, then those still starting */
		static const enum task_stage order[] = { STAGE_RUNNING, STAGE_START, STAGE_PULL,
			STAGE_PROVISION, STAGE_UNKNOWN, STAGE_STOPPED, STAGE_FAILED };
		static const char *const words[STAGE_COUNT] = {
			"launched", "provision", "pulling", "starting", "running", "stopped", "failed",
		};
		for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
			if (n[order[k]] > 0 && len < (int)sizeof counts)
				len += snprintf(counts + len, sizeof counts - (size_t)len, " · %zu %s",
						n[order[k]], words[order[k]]);
	}
	if (healthy > 0 && len < (int)sizeof counts)
		len += snprintf(counts + len, sizeof counts - (size_t)len, " · %zu healthy", healthy);
	if (timed_out > 0 && len < (int)sizeof counts)
		len += snprintf(counts + len, sizeof counts - (size_t)len, " · %zu timed out",
				timed_out);
	if (a->gave_up > 0 && len < (int)sizeof counts)
		snprintf(counts + len, sizeof counts - (size_t)len, " · %ld not started", a->gave_up);
	if (c->g == TUI_GLYPHS_ASCII)   /* " · " is UTF-8: ", " */
		for (char *p = strstr(counts, " \xc2\xb7"); p != NULL; p = strstr(p, " \xc2\xb7")) {
			p[0] = ',';
			memmove(p + 1, p + 3, strlen(p + 3) + 1);
		}
	if (h > 1)
		add_span(c->sc, row + 1, x, w, TUI_X_PLAIN, counts, c->ellipsis);
	if (a->p50_total_ms != TS_NONE)
		tui_format_column_secs(a->p50_total_ms, 8, p50, sizeof p50);
	if (h > 2)
		add_spanf(c->sc, row + 2, x, w, TUI_X_PLAIN, c->ellipsis,
			  "total p50 %s (n=%zu)", p50, a->n_total);
	rows = h - 4;
	total_rows = a->planned > (long)a->ntasks ? a->planned : (long)a->ntasks;
	if (rows <= 0)
		return;
	shown = total_rows > rows ? rows - 1 : (int)total_rows;
	if (shown < 0)
		shown = 0;
	if (c->sc->tasks_shown == 0 || shown < c->sc->tasks_shown)
		c->sc->tasks_shown = shown;
	for (int i = 0; i < shown; i++) {
		if ((size_t)i < a->ntasks)
			task_row(c, &a->tasks[i], (size_t)i, row + 4 + i, x, w);
		else
			add_spanf(c->sc, row + 4 + i, x, w, TUI_X_DIM, c->ellipsis,
				  "%3d    not launched yet", i + 1);
	}
	if (total_rows > shown) {
		size_t more_running = 0;
		for (size_t i = (size_t)shown; i < a->ntasks; i++)
			more_running += a->tasks[i].stage == STAGE_RUNNING;
		add_spanf(c->sc, row + 4 + shown, x, w, TUI_X_DIM, c->ellipsis,
			  "    %ld more (%zu of them running)", total_rows - shown, more_running);
	}
}

void
tui_xrender(const struct tui_xstate *s, int cols, int rows, enum tui_glyphs g, bool color,
	    struct tui_xscreen *out)
{
	struct xctx c = { s, out, g, color, g == TUI_GLYPHS_UTF8 ? "\u2026" : "~", 0 };
	char el[32], lim[32], wait[96];
	int body, top = 2, nmsg, foot, used = 0;
	size_t narms = s->narms ? s->narms : 1;

	memset(out, 0, sizeof *out);
	if (cols < 10 || rows < 3)
		return;
	/* one axis for every arm, so the bars compare across the columns */
	for (size_t a = 0; a < s->narms; a++)
		for (size_t i = 0; i < s->arms[a].ntasks; i++) {
			int64_t e = xbar_end(&s->arms[a].tasks[i]);
			if (e > c.span_ms)
				c.span_ms = e;
		}
	if (c.span_ms < 1000)
		c.span_ms = 1000;
	fmt_wait(s->elapsed_ms, el, sizeof el);
	fmt_wait(s->wait_timeout_ms, lim, sizeof lim);
	snprintf(wait, sizeof wait, "waiting for each task to be %s (at most %s)",
		 s->until ? s->until : "RUNNING", lim);
	add_spanf(out, 0, 0, cols, TUI_X_TITLE, c.ellipsis, "%*s", cols, "");
	{
		/* the clock stays in sight: the rest is cut before it on a narrow terminal */
		const char *dot = g == TUI_GLYPHS_UTF8 ? "·" : "-";
		char clock[48];
		int cw;

		snprintf(clock, sizeof clock, " %s %s", dot, el);
		cw = tui_text_width(clock);
		add_spanf(out, 0, 0, cols - cw, TUI_X_TITLE, c.ellipsis,
			  "ecsprof experiment %s %s cluster %s %s %s", s->id, dot,
			  s->cluster ? s->cluster : "default", dot,
			  s->stopping ? "stopping every task" : wait);
		if (cw < cols) {
			int lw = 0;

			for (size_t i = 0; i < out->n; i++)   /* just after the text */
				if (out->spans[i].row == 0 && out->spans[i].text[0] != ' ')
					lw = out->spans[i].col + out->spans[i].cells;
			add_span(out, 0, lw, cols - lw, TUI_X_TITLE, clock, c.ellipsis);
		}
	}

	nmsg = (int)s->nmessages;
	if (nmsg > 3)
		nmsg = 3;
	if (nmsg > rows - 6)
		nmsg = rows - 6 > 0 ? rows - 6 : 0;
	foot = rows - 1;
	body = foot - nmsg - top - (nmsg > 0);
	out->side_by_side = (int)narms * ARM_MIN_W + (int)(narms - 1) * GAP <= cols;
	if (out->side_by_side) {
		int w = (cols - (int)(narms - 1) * GAP) / (int)narms;

		for (size_t a = 0; a < s->narms; a++) {
			int x = (int)a * (w + GAP);

			arm_block(&c, &s->arms[a], top, x, w, body);
		}
		for (size_t a = 0; a < s->narms; a++) {
			long t = s->arms[a].planned > (long)s->arms[a].ntasks ? s->arms[a].planned
									      : (long)s->arms[a].ntasks;
			if (4 + t + 1 > used)
				used = (int)(4 + t + 1);
		}
		if (used > body)
			used = body;
		for (size_t a = 1; a < s->narms; a++)
			for (int r = top; r < top + used; r++)
				add_span(out, r, (int)a * (w + GAP) - 2, 1, TUI_X_DIM,
					 g == TUI_GLYPHS_UTF8 ? "\u2502" : "|", c.ellipsis);
	} else {
		int h = body / (int)narms;

		for (size_t a = 0; a < s->narms; a++)
			arm_block(&c, &s->arms[a], top + (int)a * h, 0, cols, h - 1);
	}
	for (int i = 0; i < nmsg; i++)
		add_span(out, foot - nmsg + i, 0, cols, TUI_X_BAD,
			 s->messages[s->nmessages - (size_t)nmsg + (size_t)i], c.ellipsis);
	if (color)
		add_spanf(out, foot, 0, cols, TUI_X_DIM, c.ellipsis, "%s",
			  "Ctrl-C: stop every task and end. Bars: provision, pull, start (colours as "
			  "in the task table); the summary follows");
	else if (g == TUI_GLYPHS_UTF8)
		add_spanf(out, foot, 0, cols, TUI_X_DIM, c.ellipsis, "%s",
			  "Ctrl-C: stop every task and end. ░ provision ▓ pull █ start; the summary "
			  "follows");
	else
		add_spanf(out, foot, 0, cols, TUI_X_DIM, c.ellipsis, "%s",
			  "Ctrl-C: stop every task and end. = provision # pull + start; the summary "
			  "follows");
}

void
tui_xscreen_cleanup(struct tui_xscreen *sc)
{
	for (size_t i = 0; i < sc->n; i++)
		free(sc->spans[i].text);
	free(sc->spans);
	memset(sc, 0, sizeof *sc);
}

/* ---- the terminal -------------------------------------------------------------------- */

struct tui_x {
	SCREEN *screen;
	bool color, utf8;
	char *old_ctype;
	int cols, rows;
};

/* what tui_xemergency_restore() needs, set while a view is open */
static struct termios saved_tio;
static volatile int saved_tio_ok;
static char restore_seq[128];
static volatile size_t restore_len;

static void
keep_restore_sequence(void)
{
	const char *rmcup = tigetstr("rmcup"), *cnorm = tigetstr("cnorm");
	size_t n = 0;

	if (rmcup != NULL && rmcup != (char *)-1 && strlen(rmcup) < 60) {
		memcpy(restore_seq, rmcup, strlen(rmcup));
		n = strlen(rmcup);
	}
	if (cnorm != NULL && cnorm != (char *)-1 && n + strlen(cnorm) < 120) {
		memcpy(restore_seq + n, cnorm, strlen(cnorm));
		n += strlen(cnorm);
	}
	restore_len = n;
}

void
tui_xemergency_restore(void)
{
	if (restore_len > 0) {
		ssize_t rc = write(STDERR_FILENO, restore_seq, restore_len);
		(void)rc;
	}
	if (saved_tio_ok)
		tcsetattr(STDERR_FILENO, TCSANOW, &saved_tio);
}

struct tui_x *
tui_xopen(bool no_color, struct err *err)
{
	const char *term = getenv("TERM"), *nc = getenv("NO_COLOR"), *cur;
	struct tui_x *x;

	if (!isatty(STDERR_FILENO))
		return err_set(err, ERR_USAGE, "standard error is not a terminal"), NULL;
	if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
		return err_set(err, ERR_USAGE, "TERM is %s", term ? "dumb" : "unset"), NULL;
	x = xcalloc(1, sizeof *x);
	/* the character type only: LC_NUMERIC stays "C" for the numbers printed after */
	cur = setlocale(LC_CTYPE, NULL);
	x->old_ctype = xstrdup(cur != NULL ? cur : "C");
	setlocale(LC_CTYPE, "");
	cur = setlocale(LC_CTYPE, NULL);
	x->utf8 = cur != NULL && (strstr(cur, "UTF-8") || strstr(cur, "utf8") ||
				  strstr(cur, "UTF8") || strstr(cur, "utf-8"));
	saved_tio_ok = tcgetattr(STDERR_FILENO, &saved_tio) == 0;
	x->screen = newterm(NULL, stderr, stdin);
	if (x->screen == NULL) {
		setlocale(LC_CTYPE, x->old_ctype);
		free(x->old_ctype);
		free(x);
		saved_tio_ok = 0;
		return err_set(err, ERR_IO, "cannot use TERM=%s", term), NULL;
	}
	set_term(x->screen);
	keep_restore_sequence();
	cbreak();        /* keys are not echoed over the view; Ctrl-C is still a signal */
	noecho();
	curs_set(0);
	x->color = !no_color && !(nc != NULL && nc[0] != '\0') && has_colors();
	if (x->color) {
		start_color();
		use_default_colors();
		init_pair(TUI_X_BAR_PROVISION, phase_colours[PHASE_PROVISION].ansi, -1);
		init_pair(TUI_X_BAR_PULL, tui_pull_colour(), -1);
		init_pair(TUI_X_BAR_START, phase_colours[PHASE_START].ansi, -1);
		init_pair(TUI_X_TITLE, COLOR_BLACK, COLOR_CYAN);
		init_pair(TUI_X_DONE, COLOR_GREEN, -1);
		init_pair(TUI_X_BAD, COLOR_RED, -1);
		init_pair(TUI_X_DIM, -1, -1);
	}
	getmaxyx(stdscr, x->rows, x->cols);
	return x;
}

void
tui_xdraw(struct tui_x *x, const struct tui_xstate *s)
{
	struct tui_xscreen sc;
	struct winsize ws;

	if (x == NULL)
		return;
	/* no getch() to deliver KEY_RESIZE: ask the terminal its size */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0 &&
	    (ws.ws_col != x->cols || ws.ws_row != x->rows)) {
		resizeterm(ws.ws_row, ws.ws_col);
		x->cols = ws.ws_col;
		x->rows = ws.ws_row;
	}
	getmaxyx(stdscr, x->rows, x->cols);
	tui_xrender(s, x->cols, x->rows, x->utf8 ? TUI_GLYPHS_UTF8 : TUI_GLYPHS_ASCII, x->color,
		    &sc);
	erase();
	for (size_t i = 0; i < sc.n; i++) {
		const struct tui_xspan *p = &sc.spans[i];
		attr_t a = A_NORMAL;

		if (p->color == TUI_X_TITLE)
			a = x->color ? COLOR_PAIR(TUI_X_TITLE) : A_REVERSE;
		else if (p->color == TUI_X_DIM)
			a = A_DIM;
		else if (p->color == TUI_X_HEAD)
			a = A_BOLD;
		else if (p->color == TUI_X_DONE || p->color == TUI_X_BAD)
			a = x->color ? COLOR_PAIR(p->color) | A_BOLD : A_BOLD;
		else if (x->color && p->color != TUI_X_PLAIN)
			a = COLOR_PAIR(p->color);
		attrset(a);
		mvaddstr(p->row, p->col, p->text);
	}
	attrset(A_NORMAL);
	refresh();
	tui_xscreen_cleanup(&sc);
}

void
tui_xclose(struct tui_x *x)
{
	if (x == NULL)
		return;
	flushinp();      /* what was typed over the view is not the shell's */
	curs_set(1);
	endwin();
	delscreen(x->screen);
	restore_len = 0;
	saved_tio_ok = 0;
	setlocale(LC_CTYPE, x->old_ctype);
	free(x->old_ctype);
	free(x);
}
