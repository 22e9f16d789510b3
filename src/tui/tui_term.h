/* tui_term: the terminal a full-screen view runs on, started and ended one way for every
 * view that reads keys (tui.c's report view, tui_diff.c's): curses on stdout and stdin
 * (or, for a script of keys, on /dev/null as a terminal of $TERM), keys one at a time
 * without echo, the keypad's keys decoded, Esc after 25 ms, getch() ticking every 250 ms,
 * colours when wanted, and Ctrl-C a flag the loop reads instead of a kill, the old SIGINT
 * action restored on close. The experiment's view (tui_experiment.c) is not one: it draws
 * on stderr, reads no keys and leaves Ctrl-C to the command's own handler.
 * Ownership: the struct tui_term is the caller's; tui_term_open() fills it, and after a 0
 * tui_term_close() ends the screen and closes what open opened. Private to src/tui/; no
 * curses type here. */
#ifndef ECSPROF_TUI_TERM_H
#define ECSPROF_TUI_TERM_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "ecsprof/err.h"

struct tui_term {
	void *screen;                 /* the curses SCREEN */
	FILE *null_out, *null_in;     /* a script's /dev/null, else NULL */
	struct sigaction old_sigint;
	bool color;                   /* colours are on: start_color() has run */
};

/* script: draw into memory for keys from a script (no terminal needed; TERM unset or dumb
 * is taken as xterm-256color); else both ends must be a terminal. no_color: --no-color
 * (NO_COLOR set and non-empty, or a terminal without colours, turn them off too). */
int tui_term_open(struct tui_term *t, bool script, bool no_color, struct err *err);
void tui_term_close(struct tui_term *t);

/* Ctrl-C since tui_term_open(); tui_term_interrupt() sets it as Ctrl-C does (a script's
 * "C-c"). */
bool tui_term_interrupted(void);
void tui_term_interrupt(void);

#endif
