/* held_log: what a full-screen view keeps of the log reaches stderr as the log itself
 * would have written it there, held or not. */
#include <stdio.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "src/cmd/held_log.h"

#define TRACE "ecsprof: debug: ListTasks canonical request:\nPOST\n> POST http://x/\n< HTTP 200\n"

/* stderr not a terminal: the lines go through at once, a --debug trace (log_block) as it
 * is, with the one prefix it carries (it got a second one on each line) */
Test(held_log, through_a_block_is_written_as_it_is, .init = cr_redirect_stderr)
{
	struct log parent;
	struct held_log h;

	log_init(&parent, 2, NULL, NULL);
	held_log_init(&h, &parent);
	held_log_begin(&h, false);
	log_warn(&h.log, "bad task %d", 1);
	log_block(&h.log, TRACE);
	log_debug(&h.log, "after");
	held_log_end(&h);
	held_log_cleanup(&h);
	log_cleanup(&parent);
	fflush(stderr);
	cr_expect_stderr_eq_str("ecsprof: warning: bad task 1\n" TRACE "ecsprof: debug: after\n");
}

/* held while the screen is up, then printed the same way once it is closed */
Test(held_log, held_a_block_is_printed_as_it_is, .init = cr_redirect_stderr)
{
	struct log parent;
	struct held_log h;
	char w[64];

	log_init(&parent, 2, NULL, NULL);
	held_log_init(&h, &parent);
	held_log_begin(&h, true);
	log_block(&h.log, TRACE);
	log_warn(&h.log, "bad task %d", 1);
	log_warn(&h.log, "bad task %d", 1);
	cr_expect_eq(held_log_warning(&h, 0, w, sizeof w), 1, "a warning once");
	cr_expect_str_eq(w, "bad task 1");
	fflush(stderr);
	held_log_end(&h);
	held_log_cleanup(&h);
	log_cleanup(&parent);
	fflush(stderr);
	cr_expect_stderr_eq_str(TRACE "ecsprof: warning: bad task 1\n");
}

/* before begin (and with no view at all) the held log is the parent's stderr */
Test(held_log, before_begin_a_block_is_written_as_it_is, .init = cr_redirect_stderr)
{
	struct held_log h;

	held_log_init(&h, NULL);
	log_block(&h.log, TRACE);
	log_debug(&h.log, "dropped: no --debug");
	held_log_cleanup(&h);
	fflush(stderr);
	cr_expect_stderr_eq_str(TRACE);
}
