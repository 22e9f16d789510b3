/* experiment_signal: what Ctrl-C, SIGTERM and SIGHUP do to an experiment. The first asks
 * for a clean stop (every task stopped); a second, from the handler itself, prints the
 * tasks that may still run and the command that stops them, then exits 130. The handler
 * can only write what was prepared before, so the message is kept up to date as tasks
 * start and stop (xrun_update_leftover). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "experiment_int.h"
#include "ecsprof/buf.h"
#include "ecsprof/log.h"

/* The handler may only touch these: a count, and two prepared messages swapped by index
 * so that it never reads one being written. */
static volatile sig_atomic_t sig_count, sig_last, msg_which;
static char msg_text[2][4096];
static volatile sig_atomic_t msg_len[2];
static struct sigaction old_int, old_term, old_hup;

static void
on_signal(int sig)
{
	sig_last = sig;
	if (++sig_count >= 2) {
		int w = msg_which;
		tui_xemergency_restore();   /* the view's terminal modes, if it is open */
		ssize_t rc = write(STDERR_FILENO, msg_text[w], (size_t)msg_len[w]);
		(void)rc;
		_exit(130);
	}
}

void
xrun_signals_install(struct xrun *x)
{
	struct sigaction sa;

	sig_count = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a sleep between polls ends at once */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);   /* the terminal (or the ssh session) went away */
	xrun_update_leftover(x);
}

void
xrun_signals_restore(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

bool
xrun_signalled(struct xrun *x)
{
	if (sig_count > 0 && !x->interrupted) {
		x->interrupted = true;
		x->signal_number = sig_last;
		/* a warning: on the view's message lines while it is open */
		if (x->view == NULL)
			fputc('\n', stderr);
		log_warn(x->o->log, "%s: stopping the experiment's tasks (again to give up and print the "
			 "cleanup command)", sig_last == SIGTERM ? "SIGTERM" :
					     sig_last == SIGHUP ? "SIGHUP" : "Ctrl-C");
	}
	return x->interrupted;
}

char *
xrun_cleanup_command(const struct xrun *x)
{
	const struct cli_opts *o = x->o;
	struct buf b;

	buf_init(&b, 0);
	buf_addf(&b, "ecsprof experiment --cleanup %s", x->id);
	if (x->cluster != NULL)
		buf_addf(&b, " --cluster %s", x->cluster);
	if (x->region != NULL)
		buf_addf(&b, " --region %s", x->region);
	if (o->profile != NULL)
		buf_addf(&b, " --profile %s", o->profile);
	if (o->endpoint_url != NULL)
		buf_addf(&b, " --endpoint-url %s", o->endpoint_url);
	if (x->recording != NULL)
		buf_addf(&b, " -o %s", x->recording);
	return buf_take(&b);
}

void
xrun_update_leftover(struct xrun *x)
{
	int w = !msg_which;
	size_t left = 0;
	struct buf b;
	char *cmd = xrun_cleanup_command(x);

	for (size_t i = 0; i < x->ntasks; i++)
		left += !x->tasks[i].final && !x->tasks[i].stop_sent;
	buf_init(&b, sizeof msg_text[0] - 1);
	buf_addf(&b, "\necsprof: interrupted again: %zu task%s of experiment %s may still run",
		 left, left == 1 ? "" : "s", x->id);
	if (left > 0) {
		buf_adds(&b, ":");
		for (size_t i = 0, shown = 0; i < x->ntasks && shown < 40; i++)
			if (!x->tasks[i].final && !x->tasks[i].stop_sent) {
				const char *id = strrchr(x->tasks[i].arn, '/');
				buf_addf(&b, " %s", id ? id + 1 : x->tasks[i].arn);
				shown++;
			}
	}
	buf_addf(&b, "; stop %s with:\n  %s\n", left ? "them" : "anything RunTask started since",
		 cmd);
	memcpy(msg_text[w], b.data, b.len);
	msg_len[w] = (sig_atomic_t)b.len;
	msg_which = w;
	buf_cleanup(&b);
	free(cmd);
}

void
xrun_nap(int64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	if (sig_count == 0)
		nanosleep(&ts, NULL);
}

const volatile sig_atomic_t *
xrun_interrupt_flag(void)
{
	return &sig_count;
}
