/* app_deploy: the deployments view, from files or from the live API, to --format table,
 * csv, json or markdown (the terminal UI shows the table). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_deploy.h"
#include "ecsprof/app.h"
#include "ecsprof/deploy.h"
#include "ecsprof/deploy_rowtab.h"
#include "ecsprof/deployout.h"
#include "ecsprof/input.h"
#include "ecsprof/input_deploy.h"
#include "ecsprof/live.h"
#include "ecsprof/sink.h"

/* --service also narrows the deployments */
static bool
app_deploy_wanted(const struct cli_opts *o, const struct deployment *d)
{
	for (size_t k = 0; k < o->services.n; k++)
		if (d->service != NULL && strcmp(d->service, o->services.v[k]) == 0)
			return true;
	return o->services.n == 0;
}

/* the rows in the open sink's format: deployout's writers, Markdown through the row
 * table */
static int
app_deploy_rows(struct sink *s, const struct deploy_row *rows, size_t n, struct err *err)
{
	struct deploy_rowtab dt;
	const struct row_table *t[] = { &dt.t };
	int rc;

	switch (s->format->id) {
	case SINK_CSV: return deployout_csv(s->f, rows, n, err);
	case SINK_JSON: return deployout_json(s->f, rows, n, err);
	case SINK_MARKDOWN:
		deploy_rowtab_build(&dt, rows, n);
		rc = sink_write(s, t, 1, err);
		deploy_rowtab_cleanup(&dt);
		return rc;
	default: return deployout_table(s->f, rows, n, err);
	}
}

static int
app_deploy_write(const struct cli_opts *o, const struct deploy_set *ds,
		 const struct task_set *set, struct err *err)
{
	struct deploy_row *rows;
	struct sink s;
	size_t n;
	int rc;

	if (o->format == FMT_HTML || o->format == FMT_XLSX)
		return err_set(err, ERR_USAGE, "--deployments: --format table, csv, json or markdown");
	if (app_sink_open(o, o->format, &s, NULL, err) != 0)
		return -1;
	deploy_rows(ds, set, &rows, &n);
	for (size_t i = 0, j = 0; i < n; i++) {
		if (app_deploy_wanted(o, rows[i].d)) {
			rows[j++] = rows[i];
		} else {
			free(rows[i].events);
		}
		if (i == n - 1)
			n = j;
	}
	rc = app_deploy_rows(&s, rows, n, err);
	deploy_rows_free(rows, n);
	return sink_finish(&s, rc, err);
}

int
app_deploy_report(const struct cli_opts *o, struct err *err)
{
	struct deploy_set ds;
	struct task_set set;
	struct input_stats st = { 0 };
	struct input_options io = { .log = o->log };
	int rc = -1;

	deploy_set_init(&ds);
	task_set_init(&set);
	for (size_t i = 0; i < o->files.n; i++) {
		const char *path = o->files.v[i];
		bool std = strcmp(path, "-") == 0;
		FILE *f = std ? stdin : fopen(path, "rb");
		struct buf b;
		struct err derr;
		int r, dr = 0;

		if (f == NULL) {
			err_set(err, ERR_IO, "%s: cannot open: %s", path, err_strerror(errno));
			goto out;
		}
		err_clear(&derr);
		r = input_deploy_slurp(path, f, &b, err);
		if (!std)
			fclose(f);
		if (r == 0 && std)
			r = input_read_mem_with(path, b.data ? b.data : "", b.len, &io, &set, &st,
						err);
		if (r == 0)
			dr = input_deploy_read_mem(o->log, path, b.data ? b.data : "", b.len, &ds, &derr);
		buf_cleanup(&b);
		/* a file's tasks read again from it, after its text is let go: a large answer is
		 * read as it comes (input_docstream.c), not held beside its tasks (issue 31); the
		 * task reader's error first, as when it read first (its hints are the better) */
		if (r == 0 && !std)
			r = input_read_file_with(path, &io, &set, &st, err);
		if (r == 0 && dr != 0) {
			*err = derr;
			r = dr;
		}
		if (r != 0)
			goto out;
	}
	if (app_select(o, &set, err) == 0)
		rc = app_deploy_write(o, &ds, &set, err);
out:
	task_set_cleanup(&set);
	deploy_set_cleanup(&ds);
	return rc;
}

int
app_deploy_tasks(const struct cli_opts *o, struct err *err)
{
	struct task_set set;
	struct live_result r;
	struct deploy_set ds;
	int rc = -1;

	if (o->services.n == 0)
		return err_set(err, ERR_USAGE, "tasks --deployments: name the services with "
			       "--service NAME (DescribeServices needs them)");
	task_set_init(&set);
	live_result_init(&r);
	deploy_set_init(&ds);
	r.want_services = true;
	struct live_options lo = app_live_options(o);
	if (live_fetch(&lo, &set, &r, err) != 0 || app_select(o, &set, err) != 0)
		goto out;
	for (size_t i = 0; i < r.services.n; i++)
		if (r.services.v[i].raw_json != NULL &&
		    input_deploy_read_mem(o->log, "DescribeServices", r.services.v[i].raw_json,
					  strlen(r.services.v[i].raw_json), &ds, err) != 0)
			goto out;
	rc = app_deploy_write(o, &ds, &set, err);
out:
	deploy_set_cleanup(&ds);
	live_result_cleanup(&r);
	task_set_cleanup(&set);
	return rc;
}
