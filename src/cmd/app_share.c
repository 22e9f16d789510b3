/* app_share: --format html and xlsx from the command line: the run described for the
 * page's header (command, filters, grouping, when) and a workbook kept off terminals. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_share.h"
#include "ecsprof/buf.h"
#include "ecsprof/html.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xlsx.h"
#include "ecsprof_version.h"

/* " word", or " 'it''s quoted'" when a shell would split or expand it */
static void
add_word(struct buf *b, const char *w)
{
	bool plain = w[0] != '\0';

	for (const char *p = w; *p != '\0' && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			       "-_./:=@%+,", *p) != NULL;
	buf_addc(b, ' ');
	if (plain) {
		buf_adds(b, w);
		return;
	}
	buf_addc(b, '\'');
	for (const char *p = w; *p != '\0'; p++)
		buf_adds(b, *p == '\'' ? "'\\''" : (char[]){ *p, '\0' });
	buf_addc(b, '\'');
}

static void
add_opt(struct buf *b, const char *name, const char *v)
{
	if (v == NULL)
		return;
	add_word(b, name);
	add_word(b, v);
}

static void
add_list(struct buf *b, const char *name, const struct cli_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		add_opt(b, name, l->v[i]);
}

/* the SELECT options and the --soci-if rules: what decided which tasks are on the page
 * and how they are labelled */
static void
describe_filters(const struct cli_opts *o, struct buf *b)
{
	static const char *const statuses[] = { NULL, "running", "stopped" };

	add_opt(b, "--cluster", o->cluster);
	add_list(b, "--service", &o->services);
	add_opt(b, "--family", o->family);
	add_opt(b, "--started-by", o->started_by);
	add_opt(b, "--status", statuses[o->status]);
	add_list(b, "--task", &o->tasks);
	add_opt(b, "--since", o->since);
	add_list(b, "--soci-if", &o->soci_if);
}

static void
describe_command(const struct cli_opts *o, struct buf *b)
{
	static const char *const names[] = { "", "tasks", "watch", "record", "report" };

	buf_adds(b, "ecsprof");
	add_word(b, names[o->command]);
	add_opt(b, "--group-by", o->group_by);
	add_opt(b, "--baseline", o->baseline);
	if (o->command == CMD_TASKS) {
		add_opt(b, "--profile", o->profile);
		add_opt(b, "--region", o->region);
	}
	for (size_t i = 0; i < o->files.n; i++)
		add_word(b, o->files.v[i]);
}

/* SOURCE_DATE_EPOCH (reproducible builds' convention) pins the date a page shows */
static int64_t
generated_ms(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	if (sde != NULL && *sde != '\0') {
		char *end;
		long long v = strtoll(sde, &end, 10);

		if (*end == '\0' && v >= 0)
			return (int64_t)v * 1000;
	}
	return timeutil_now_ms();
}

int
app_share_write(const struct cli_opts *o, enum cli_format fmt, FILE *f,
		const struct report *r, struct err *err)
{
	struct buf cmd, filters;
	int rc;

	if (fmt == FMT_XLSX) {
		if (isatty(fileno(f)))
			return err_set(err, ERR_USAGE,
				       "--format xlsx writes a binary workbook: give -o FILE.xlsx or redirect stdout to a file");
		return xlsx_write(f, r, err);
	}
	buf_init(&cmd, 1 << 16);
	buf_init(&filters, 1 << 16);
	describe_command(o, &cmd);
	describe_filters(o, &filters);
	struct html_meta m = {
		.command = buf_str(&cmd),
		/* the buf starts each word with a space */
		.filters = filters.len > 0 ? buf_str(&filters) + 1 : NULL,
		.group_by = o->group_by,
		.version = ECSPROF_VERSION,
		.generated_ms = generated_ms(),
	};
	rc = html_write(f, r, &m, err);
	buf_cleanup(&cmd);
	buf_cleanup(&filters);
	return rc;
}
