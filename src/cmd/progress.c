/* progress: the line on stderr while long work runs (see progress.h). */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd_int.h"
#include "ecsprof/app.h"
#include "ecsprof/timeutil.h"
#include "progress.h"

#define PROGRESS_AFTER_MS 1000   /* quick work says nothing */
#define PROGRESS_EVERY_MS 200

void
progress_begin(struct progress *p, const struct cli_opts *o)
{
	p->on = !o->quiet && isatty(STDERR_FILENO) && app_format(o) != FMT_TUI;
	p->shown = false;
	p->start_ms = p->last_ms = timeutil_now_ms();
}

void
progress_show(struct progress *p, const char *fmt, ...)
{
	int64_t now = timeutil_now_ms();
	char line[300];
	va_list ap;

	if (!p->on || now - p->start_ms < PROGRESS_AFTER_MS ||
	    (p->shown && now - p->last_ms < PROGRESS_EVERY_MS))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	p->shown = true;
	p->last_ms = now;
}

/* " (ETA 12s)": the rest at the pace so far; "" before the first unit or after the last */
static void
eta_text(const struct progress *p, uint64_t done, uint64_t total, char *out, size_t size)
{
	int64_t spent = timeutil_now_ms() - p->start_ms;
	char d[24];

	out[0] = '\0';
	if (done == 0 || done >= total)
		return;
	timeutil_format_duration((int64_t)((double)spent / (double)done *
				 (double)(total - done)) / 1000 * 1000, d, sizeof d);
	snprintf(out, size, " (ETA %s)", d);
}

void
progress_fetch_words(const struct progress *p, const struct live_progress *lp,
		     const char *cluster, char *out, size_t size)
{
	char a[32], b[32], c[32], eta[32];

	if (lp->images) {
		snprintf(out, size, "fetching: %s tasks in; image facts from ECR: %s of %s ...",
			 app_grouped(lp->tasks.kept, a), app_grouped(lp->images_done, b),
			 app_grouped(lp->images_wanted, c));
		return;
	}
	if (!lp->tasks.listed_all || lp->tasks.listed == 0) {
		snprintf(out, size, "fetching: asking ECS for the tasks of cluster %s (%s listed so far) ...",
			 cluster, app_grouped(lp->tasks.listed, a));
		return;
	}
	eta_text(p, lp->tasks.described, lp->tasks.listed, eta, sizeof eta);
	snprintf(out, size, "fetching: %s of %s tasks%s ...", app_grouped(lp->tasks.described, a),
		 app_grouped(lp->tasks.listed, b), eta);
}

void
progress_read_words(const struct progress *p, const char *name, uint64_t read,
		    uint64_t total, char *out, size_t size)
{
	char eta[32];

	if (total == 0) {
		snprintf(out, size, "reading %s: %.1f MB ...", name, (double)read / 1e6);
		return;
	}
	eta_text(p, read, total, eta, sizeof eta);
	snprintf(out, size, "reading %s: %.1f of %.1f MB%s ...", name, (double)read / 1e6,
		 (double)total / 1e6, eta);
}

void
progress_end(struct progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}
