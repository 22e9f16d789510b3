/* app_view: the terminal UI of `ecsprof tasks`, which opens at once while the tasks are
 * fetched behind it (live.h's job, polled from the UI's key loop), so that the keys work
 * during a fetch; 'r' fetches again and the old tasks stay on screen until the new ones
 * are in.
 * Ownership: borrows the options; everything it fetches is freed before it returns. */
#ifndef ECSPROF_APP_VIEW_H
#define ECSPROF_APP_VIEW_H

#include "ecsprof/cli.h"
#include "ecsprof/err.h"

/* The TUI of a live fetch of o's selection. A setup error (no region, a bad --since) is
 * returned before the screen opens; a fetch that fails is shown on the bottom line ('r'
 * tries again), and when no fetch succeeded before q its error is returned (exit 1). */
int app_view_tasks(const struct cli_opts *o, struct err *err);

#endif
