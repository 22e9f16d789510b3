/* tui_term: see tui_term.h. One start and one end of the screen for the views that read
 * keys, so that they cannot drift apart (the diff view had copied the report view's). */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui_term.h"

/* written by the handler, read by the loops (tui_term_interrupted) */
static volatile sig_atomic_t got_sigint;

static void
on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

bool
tui_term_interrupted(void)
{
	return got_sigint != 0;
}

void
tui_term_interrupt(void)
{
	got_sigint = 1;
}

static int
open_script(struct tui_term *t, struct err *err)
{
	const char *term = getenv("TERM");

	if (term == NULL || term[0] == '\0' || strcmp(term, "dumb") == 0)
		term = "xterm-256color";
	t->null_out = fopen("/dev/null", "w");
	t->null_in = fopen("/dev/null", "r");
	if (t->null_out != NULL && t->null_in != NULL)
		t->screen = newterm(term, t->null_out, t->null_in);
	if (t->screen != NULL)
		return 0;
	if (t->null_out != NULL)
		fclose(t->null_out);
	if (t->null_in != NULL)
		fclose(t->null_in);
	return err_set(err, ERR_IO, "cannot start the terminal UI for TERM=%s", term);
}

int
tui_term_open(struct tui_term *t, bool script, bool no_color, struct err *err)
{
	const char *nc = getenv("NO_COLOR");
	struct sigaction sa;

	memset(t, 0, sizeof *t);
	if (script) {
		if (open_script(t, err) != 0)
			return -1;
	} else {
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
			return err_set(err, ERR_USAGE,
				       "the terminal UI needs a terminal; use --format table, csv or json");
		t->screen = newterm(NULL, stdout, stdin);
		if (t->screen == NULL)
			return err_set(err, ERR_IO, "cannot start the terminal UI: unknown TERM=%s",
				       getenv("TERM") ? getenv("TERM") : "(unset)");
	}
	set_term(t->screen);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(250);
	t->color = !no_color && !(nc != NULL && nc[0] != '\0') && has_colors();
	if (t->color) {
		start_color();
		use_default_colors();
	}
	got_sigint = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &t->old_sigint);
	return 0;
}

void
tui_term_close(struct tui_term *t)
{
	curs_set(1);
	endwin();
	delscreen(t->screen);
	sigaction(SIGINT, &t->old_sigint, NULL);
	if (t->null_out != NULL)
		fclose(t->null_out);
	if (t->null_in != NULL)
		fclose(t->null_in);
	memset(t, 0, sizeof *t);
}
