/* tui: the curses side of the terminal UI. A view model (mode, filter, sort, selection,
 * scroll) is changed only by key handlers (tui_view.c), which return what must happen next
 * as a reaction bitmask (htop's Htop_Reaction); the draw functions (tui_draw.c) read the
 * model and draw only the rows on screen, so 50,000 tasks cost no more per key than 50.
 * This file: the loop, the colour pairs, keys from a script and the screen dump (the
 * terminal itself, its modes and Ctrl-C: tui_term.c, shared with the diff view). Only
 * src/tui*.c include curses. */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "ecsprof/phase.h"
#include "ecsprof/task.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/tui.h"
#include "ecsprof/tui_layout.h"
#include "ecsprof/xalloc.h"
#include "tui_int.h"
#include "tui_term.h"

static double
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* ---- keys from a script (tests, sanitizer runs, the benchmark) ---- */

struct script {
	const char *p;
	const char *typing;     /* inside a word typed letter by letter */
};

static int
script_next(struct script *s)
{
	static const struct { const char *name; int key; } names[] = {
		{ "Enter", '\n' }, { "Esc", 27 }, { "Tab", '\t' }, { "BTab", KEY_BTAB },
		{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT }, { "Right", KEY_RIGHT },
		{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
		{ "Space", ' ' }, { "Bksp", KEY_BACKSPACE }, { "C-l", 12 },
	};
	size_t n;

	if (s->typing != NULL) {
		if (*s->typing != '\0' && *s->typing != ' ')
			return (unsigned char)*s->typing++;
		s->p = s->typing;
		s->typing = NULL;
	}
	while (*s->p == ' ')
		s->p++;
	if (*s->p == '\0')
		return -1;
	n = strcspn(s->p, " ");
	const char *w = s->p;
	s->p += n;
	if (n == 1)
		return (unsigned char)w[0];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i].name) == n && strncmp(w, names[i].name, n) == 0)
			return names[i].key;
	if (n >= 2 && n <= 3 && w[0] == 'F' && w[1] >= '1' && w[1] <= '9') {
		char *end;
		long f = strtol(w + 1, &end, 10);
		if (end == w + n)
			return KEY_F((int)f);
	}
	if (n == 3 && strncmp(w, "C-c", 3) == 0) {
		tui_term_interrupt();
		return ERR;
	}
	if (n > 7 && strncmp(w, "Resize:", 7) == 0) {
		char *end;
		long c = strtol(w + 7, &end, 10);
		if (*end == 'x') {
			long l = strtol(end + 1, &end, 10);
			if (c > 0 && l > 0 && c < 1000 && l < 1000) {
				resizeterm((int)l, (int)c);
				return KEY_RESIZE;
			}
		}
		return ERR;
	}
	s->typing = w;
	return (unsigned char)*s->typing++;
}

static void
dump_screen(const char *path)
{
	FILE *f = fopen(path, "w");
	wchar_t wbuf[1024];
	char mb[4096];

	if (f == NULL)
		return;
	for (int y = 0; y < LINES; y++) {
		int n = mvinnwstr(y, 0, wbuf, COLS < 1023 ? COLS : 1023);
		if (n < 0)
			n = 0;
		wbuf[n] = L'\0';
		size_t len = wcstombs(mb, wbuf, sizeof mb - 1);
		if (len == (size_t)-1)
			len = 0;
		mb[len] = '\0';
		while (len > 0 && mb[len - 1] == ' ')
			mb[--len] = '\0';
		fprintf(f, "%s\n", mb);
	}
	fclose(f);
}

/* ---- the loop ---- */

/* The selected task's ARN (the caller's), to find it again in a report that replaced
 * the one it came from; NULL when nothing is selected. */
static char *
selected_arn(const struct view *v)
{
	struct task_arn_buf ab;
	const char *arn;

	if (v->nvis == 0 || v->sel >= v->nvis)
		return NULL;
	arn = task_arn(tui_vis_task(v, v->sel), &ab);
	return arn != NULL ? xstrdup(arn) : NULL;
}

/* The report was replaced: the rows shown are rebuilt, the selection kept by ARN. */
static void
rows_replaced(struct view *v, const char *arn)
{
	tui_resort(v);
	tui_refilter(v);
	if (arn == NULL)
		return;
	for (size_t i = 0; i < v->nvis; i++) {
		if (task_arn_is(tui_vis_task(v, i), arn)) {
			v->sel = i;
			break;
		}
	}
}

/* ---- a fetch behind the screen (tui_source.fetch_*): the keys keep working ---- */

static void
fetch_begin(struct view *v)
{
	struct err err;

	err_clear(&err);
	if (v->src->fetch_start(v->src, &err) != 0) {
		snprintf(v->message, sizeof v->message, "fetch failed: %s", err.msg);
		return;
	}
	v->fetching = true;
	v->progress_from_ms = timeutil_now_ms() + (v->refresh_auto ? 700 : 0);
	v->src->fetch_progress(v->src, v->progress, sizeof v->progress);
	timeout(100);   /* the progress line moves on between keys */
}

/* One look at the fetch, waiting up to wait_ms: takes what it loaded, says where it is. */
static void
fetch_step(struct view *v, int64_t wait_ms)
{
	struct err err;
	bool replaced = false;
	char *arn = selected_arn(v);
	int rc;

	err_clear(&err);
	rc = v->src->fetch_poll(v->src, wait_ms, &replaced, &err);
	if (replaced) {
		/* the old rows may be gone: forget them before anything reads them */
		v->nvis = 0;
		rows_replaced(v, arn);
	}
	free(arn);
	if (rc == 1) {
		v->src->fetch_progress(v->src, v->progress, sizeof v->progress);
		return;
	}
	v->fetching = false;
	v->progress[0] = '\0';
	v->last_refresh_ms = timeutil_now_ms();   /* watch's interval counts from here */
	timeout(250);
	if (rc < 0)
		snprintf(v->message, sizeof v->message, "fetch failed: %s  (r: try again)",
			 err.msg);
}

static void
fetch_stop(struct view *v)
{
	if (!v->fetching)
		return;
	v->src->fetch_cancel(v->src);
	v->fetching = false;
	v->progress[0] = '\0';
}

static void
do_refresh(struct view *v)
{
	struct err err;
	char *arn = NULL;

	if (v->src->fetch_start != NULL) {
		/* r during a fetch: the one running goes on (starting it again would throw
		 * away what it has); say so rather than nothing */
		if (v->fetching)
			snprintf(v->message, sizeof v->message, "a fetch is running already: %s",
				 v->progress);
		else
			fetch_begin(v);
		return;
	}
	if (v->src->reload == NULL) {
		snprintf(v->message, sizeof v->message, "nothing to refresh: this data is saved, not live");
		return;
	}
	arn = selected_arn(v);
	err_clear(&err);
	/* the fetch blocks this thread (watch): say so on screen before it starts, so a slow
	 * fetch is not taken for a frozen terminal */
	snprintf(v->message, sizeof v->message, "refreshing: fetching tasks from ECS ...");
	tui_draw(v);
	v->message[0] = '\0';
	/* the old rows may be freed by the refresh: forget them before it runs */
	v->nvis = 0;
	if (v->src->reload(v->src, &err) != 0)
		snprintf(v->message, sizeof v->message, "refresh failed: %s", err.msg);
	rows_replaced(v, arn);
	free(arn);
}

/* the colour pairs, when tui_term_open() has turned colours on */
static void
init_colors(struct view *v)
{
	if (!v->color)
		return;
	init_pair(CP_PROVISION, phase_colours[PHASE_PROVISION].ansi, -1);
	init_pair(CP_PULL, tui_pull_colour(), -1);
	init_pair(CP_START, phase_colours[PHASE_START].ansi, -1);
	init_pair(CP_OTHER, COLOR_MAGENTA, -1);
	init_pair(CP_FAILED, COLOR_RED, -1);
	init_pair(CP_READY, phase_colours[PHASE_READY].ansi, -1);
	init_pair(CP_TITLE, COLOR_BLACK, COLOR_CYAN);
	tui_scaleout_colours();
}

int
tui_run(struct tui_source *src, const struct tui_options *o, struct err *err)
{
	struct view v;
	struct script sc = { 0 };
	const char *script = o->script != NULL ? o->script : getenv("ECSPROF_TUI_SCRIPT");
	struct tui_term term;
	double t0 = mono_ms(), keys_total = 0;

	memset(&v, 0, sizeof v);
	v.src = src;
	v.sort_tcol = -1;
	v.sort_report_col = o->sort_col;
	v.sort_desc = o->sort_desc;
	if (o->start_summary)
		v.mode = MODE_SUMMARY;
	if (o->start_images)
		v.mode = MODE_IMAGES;
	v.so_shown = -1;
	if (src->scaleouts != NULL)
		v.mode = MODE_SCALEOUTS;   /* tui_scaleout.c: Enter shows a scale-out's tasks */
	for (int i = 0; i < TUI_COL_COUNT; i++)
		if (o->sort_col >= 0 && tui_cols[i].report_col == o->sort_col && i != TUI_COL_BAR)
			v.sort_tcol = i;
	if (o->stats != NULL)
		memset(o->stats, 0, sizeof *o->stats);

	setlocale(LC_ALL, "");
	v.utf8 = !o->ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	v.glyphs = v.utf8 ? TUI_GLYPHS_UTF8 : TUI_GLYPHS_ASCII;
	v.ellipsis = v.utf8 ? "\u2026" : "~";

	/* a script draws into memory, as if on an xterm of $COLUMNS x $LINES */
	if (tui_term_open(&term, script != NULL, o->no_color, err) != 0)
		return -1;
	sc.p = script;
	v.color = term.color;
	init_colors(&v);

	/* for saved data "now" is when the data was taken (the newest fetch or timestamp in
	 * it), so that a task still pulling in a file from last week does not grow for a week */
	v.data_now_ms = src->reload == NULL && src->fetch_start == NULL ? report_data_time(src->report)
									 : TS_NONE;
	v.now_ms = v.data_now_ms != TS_NONE ? v.data_now_ms : timeutil_now_ms();
	tui_resort(&v);
	tui_refilter(&v);
	if (src->fetch_start != NULL && src->fetch_first)
		fetch_begin(&v);
	tui_draw(&v);
	if (o->stats != NULL)
		o->stats->first_paint_ms = mono_ms() - t0;
	v.last_refresh_ms = timeutil_now_ms();

	for (;;) {
		int key, react = UI_NONE;
		double k0;

		/* a script's keys come after the fetch, so that its screens are the same on
		 * every run (the tmux tests type during one) */
		while (script != NULL && v.fetching && !tui_term_interrupted())
			fetch_step(&v, 200);
		key = script != NULL ? script_next(&sc) : getch();
		k0 = mono_ms();
		if (tui_term_interrupted())
			break;
		if (script != NULL && key == -1 && sc.p[0] == '\0' && sc.typing == NULL)
			break;
		if (key == ERR) {
			/* a tick: live bars grow, watch polls when its interval is up, and a
			 * fetch behind the screen is looked at */
			if ((src->reload != NULL || src->fetch_start != NULL) && !v.fetching &&
			    src->interval_ms > 0 &&
			    timeutil_now_ms() - v.last_refresh_ms >= src->interval_ms) {
				react |= UI_REFRESH;
				v.refresh_auto = true;
			}
			if (v.any_live && v.data_now_ms == TS_NONE)
				react |= UI_REDRAW;
			if (react == UI_NONE && !v.fetching)
				continue;
		} else {
			v.refresh_auto = false;
			react = tui_view_key(&v, key);
			if (v.message[0] != '\0' && !(react & UI_REFRESH))
				v.message[0] = '\0';
		}
		if (react & UI_QUIT)
			break;
		if (v.fetching) {
			/* the tasks described since the last look (never blocking the keys) */
			fetch_step(&v, 0);
			react |= UI_REDRAW;
		}
		if (react & UI_REFRESH) {
			do_refresh(&v);
			v.last_refresh_ms = timeutil_now_ms();
		}
		if (react & UI_RESORT) {
			tui_resort(&v);
			react |= UI_REFILTER;
		}
		if (react & UI_REFILTER)
			tui_refilter(&v);
		tui_draw(&v);
		if (key != ERR && o->stats != NULL) {
			double dt = mono_ms() - k0;
			o->stats->keys++;
			keys_total += dt;
			if (dt > o->stats->key_max_ms)
				o->stats->key_max_ms = dt;
			o->stats->key_mean_ms = keys_total / (double)o->stats->keys;
		}
	}

	/* q, F10 or Ctrl-C during a fetch: its requests and retries are given up */
	double q0 = mono_ms();
	fetch_stop(&v);
	const char *dump = o->dump != NULL ? o->dump : getenv("ECSPROF_TUI_DUMP");
	if (script != NULL && dump != NULL)
		dump_screen(dump);
	tui_term_close(&term);
	if (o->stats != NULL)
		o->stats->quit_ms = mono_ms() - q0;
	free(v.vis);
	return 0;
}
