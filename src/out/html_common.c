/* html_common: what the page (html.c) and its parts (html_plot.c, html_axis.c,
 * html_facts.c) share, declared in html_int.h: escaping, seconds, the groups' colours and
 * a task's end and failure as the plots draw them. Apart from html.c, which calls the
 * parts, so that no part calls back into the page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "ecsprof/termsafe.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/utf8.h"

void
html_esc(FILE *f, const char *s)
{
	if (s == NULL)
		return;
	for (const char *p = s; *p != '\0';) {
		size_t bad = termsafe_shared_bad_len(p);

		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* controls, bidi controls that would reorder the page's text, noncharacters
			 * and invalid bytes (termsafe.h): a visible replacement character */
			if (bad > 0 || *p == '\r') {
				fputs("\xef\xbf\xbd", f);
				p += bad > 0 ? bad : 1;
				continue;
			}
			size_t len = utf8_len((const unsigned char *)p);

			fwrite(p, 1, len, f);   /* a whole valid sequence */
			p += len;
			continue;
		}
		p++;
	}
}

void
html_fmt_secs(int64_t ms, char *out, size_t size)
{
	if (ms == TS_NONE)
		snprintf(out, size, "-");
	else if (ms < 10000)
		snprintf(out, size, "%.3f s", (double)ms / 1000.0);
	else if (ms < 600000)
		snprintf(out, size, "%.1f s", (double)ms / 1000.0);
	else if (ms < 3600000)
		snprintf(out, size, "%lld min %lld s", (long long)(ms / 60000),
			 (long long)(ms / 1000 % 60));
	else
		snprintf(out, size, "%lld h %lld min", (long long)(ms / 3600000),
			 (long long)(ms / 60000 % 60));
}

const char *
html_group_colour(size_t gi)
{
	/* none of them near a phase's colour (phase_colours: blue, orange, green, cyan), so
	 * a group is never read as a phase; the first two (baseline and one other) contrast
	 * most */
	static const char *const palette[] = {
		"#aa3377", "#555555", "#cc6677", "#6a3d9a", "#b15928", "#000000", "#999933",
		"#bbbbbb",
	};

	return palette[gi % (sizeof palette / sizeof palette[0])];
}

bool
html_task_failed(const struct task *t)
{
	return task_stage(t, NULL) == STAGE_FAILED;
}

int64_t
html_task_end(const struct task *t)
{
	/* a failed start ends where it stopped; a started task where it started (the
	 * waterfall is about the start, not about how long the task ran) */
	static const enum ts_field order[] = { TS_STARTED, TS_STOPPED, TS_EXECUTION_STOPPED,
					       TS_STOPPING, TS_PULL_STOPPED, TS_PULL_STARTED,
					       TS_CONNECTIVITY, TS_CREATED };
	int64_t end = TS_NONE;

	if (task_ts(t, TS_STARTED) != TS_NONE)
		end = task_ts(t, TS_STARTED);
	else
		for (size_t i = 1; i < sizeof order / sizeof order[0] && end == TS_NONE; i++)
			end = task_ts(t, order[i]);
	if (task_ts(t, TS_CONNECTIVITY) != TS_NONE && task_ts(t, TS_CONNECTIVITY) > end)
		end = task_ts(t, TS_CONNECTIVITY);
	/* a task that served: its ready segment ends at healthy_at */
	if (task_ts(t, TS_STARTED) != TS_NONE && task_ts(t, TS_HEALTHY) != TS_NONE &&
	    task_ts(t, TS_HEALTHY) > end)
		end = task_ts(t, TS_HEALTHY);
	return end;
}
