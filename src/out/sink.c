/* sink: the one table of formats, and opening, committing and aborting an output
 * (sink.h); the writers are sink_table.c, sink_csv.c, sink_json.c and sink_md.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ecsprof/log.h"
#include "sink_int.h"

#define SINK_WIDTH_FILE 100

static const char *const table_exts[] = { ".txt", NULL };
static const char *const csv_exts[] = { ".csv", NULL };
static const char *const json_exts[] = { ".json", ".jsonl", NULL };
static const char *const md_exts[] = { ".md", ".markdown", NULL };
static const char *const html_exts[] = { ".html", ".htm", NULL };
static const char *const xlsx_exts[] = { ".xlsx", NULL };

/* The one list of formats: --format's names, -o's extensions and --help's order. A new
 * format is one line here and one writer file (src/README.md). */
static const struct sink_format formats[] = {
	{ SINK_TABLE,    "table",    table_exts, false, sink_table_doc, NULL },
	{ SINK_CSV,      "csv",      csv_exts,   true,  sink_csv_doc,   sink_csv_row },
	{ SINK_JSON,     "json",     json_exts,  true,  sink_json_doc,  sink_json_row },
	{ SINK_MARKDOWN, "markdown", md_exts,    false, sink_md_doc,    NULL },
	{ SINK_HTML,     "html",     html_exts,  false, NULL,           NULL },
	{ SINK_XLSX,     "xlsx",     xlsx_exts,  false, NULL,           NULL },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

const struct sink_format *
sink_formats(size_t *n)
{
	*n = NFORMATS;
	return formats;
}

const struct sink_format *
sink_format_by_name(const char *name)
{
	for (size_t i = 0; name != NULL && i < NFORMATS; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* the extension of path's last component (".csv"), or NULL; a leading dot (".profile")
 * is a hidden file's name, not an extension */
static const char *
path_ext(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot != NULL && dot != base && dot[1] != '\0' ? dot : NULL;
}

const struct sink_format *
sink_format_by_path(const char *path)
{
	const char *ext = path != NULL ? path_ext(path) : NULL;

	for (size_t i = 0; ext != NULL && i < NFORMATS; i++)
		for (const char *const *e = formats[i].exts; *e != NULL; e++)
			if (strcasecmp(*e, ext) == 0)
				return &formats[i];
	return NULL;
}

int
sink_terminal_width(int fallback)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");

	if (cols != NULL) {
		char *end;
		long v = strtol(cols, &end, 10);

		if (end != cols && *end == '\0' && v >= 20 && v <= 1000)
			return (int)v;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return fallback;
}

/* "table, csv, json, markdown, html, xlsx" */
static void
format_names(char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < NFORMATS && o < size; i++) {
		int n = snprintf(out + o, size - o, "%s%s", i ? ", " : "", formats[i].name);

		if (n < 0)
			break;
		o += (size_t)n;
	}
}

int
sink_open(struct sink *s, const char *path, const char *format, const struct sink_options *o,
	  struct err *err)
{
	const struct sink_format *fmt = NULL;

	memset(s, 0, sizeof *s);
	s->af.slot = -1;
	if (o != NULL)
		s->o = *o;
	s->to_stdout = path == NULL || strcmp(path, "-") == 0;
	if (format != NULL) {
		char names[128];

		fmt = sink_format_by_name(format);
		format_names(names, sizeof names);
		if (fmt == NULL)
			return err_set(err, ERR_USAGE, "unknown format '%s' (known: %s)", format,
				       names);
	} else if (!s->to_stdout) {
		fmt = sink_format_by_path(path);
		if (fmt == NULL && path_ext(path) != NULL)
			log_warn(s->o.log, "%s: the extension %s names no format: writing a table (--format "
				 "chooses one)", path, path_ext(path));
	}
	s->format = fmt != NULL ? fmt : &formats[0];
	if (s->o.width <= 0)
		s->o.width = s->to_stdout ? sink_terminal_width(SINK_WIDTH_FILE) : SINK_WIDTH_FILE;
	if (s->to_stdout) {
		s->f = stdout;
		return 0;
	}
	/* a file is replaced only once the new one is complete (atomicfile.h) */
	if (atomicfile_open(&s->af, path, 0, err) != 0)
		return -1;
	s->f = s->af.f;
	return 0;
}

int
sink_write(struct sink *s, const struct row_table *const *tables, size_t n, struct err *err)
{
	if (s->format->doc == NULL)
		return err_set(err, ERR_USAGE, "this output cannot be written as %s",
			       s->format->name);
	return s->format->doc(s, tables, n, err);
}

int
sink_row(struct sink *s, const struct row_table *t, size_t row, struct err *err)
{
	if (s->format->row == NULL)
		return err_set(err, ERR_USAGE, "%s is not written a row at a time (csv or json is)",
			       s->format->name);
	if (s->format->row(s, t, row, err) != 0)
		return -1;
	s->rows++;
	/* a streamed row is there for whoever reads the stream now */
	if (fflush(s->f) != 0)
		return err_set(err, ERR_IO, "%s: write failed: %s", t->name,
			       err_strerror(errno));
	return 0;
}

int
sink_write_custom(struct sink *s, sink_custom_fn *fn, void *ctx, struct err *err)
{
	return fn(s->f, ctx, err);
}

int
sink_commit(struct sink *s, struct err *err)
{
	if (s->to_stdout) {
		/* a full disk or a closed pipe shows here, not as a silent success */
		if (fflush(stdout) != 0 || ferror(stdout))
			return err_set(err, ERR_IO, "cannot write to standard output: %s",
				       err_strerror(errno ? errno : EIO));
		return 0;
	}
	return atomicfile_commit(&s->af, err);
}

void
sink_abort(struct sink *s)
{
	if (!s->to_stdout)
		atomicfile_abort(&s->af);
}

int
sink_publish(struct sink *s, struct err *err)
{
	return s->to_stdout ? 0 : atomicfile_publish(&s->af, err);
}

bool
sink_published(const struct sink *s)
{
	return s->to_stdout || s->af.tmp == NULL || s->af.in_place;
}

int
sink_finish(struct sink *s, int rc, struct err *err)
{
	if (rc == 0)
		return sink_commit(s, err);
	sink_abort(s);
	return -1;
}
