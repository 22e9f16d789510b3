/* sink: the one way out for every command's output. It owns choosing the format (the one
 * table of formats: name, file extensions, whether it streams, its writers), opening
 * stdout or a file that is replaced atomically (atomicfile.h), and committing it; the
 * generic writers write any row table (rowtab.h) as a table, CSV, JSON or Markdown.
 * A command describes its rows once and calls the sink; a command with a richer view of
 * its own (report's waterfall table, HTML page, workbook) passes its writer for that
 * format to sink_write_custom() and still gets the open, the inference from `-o FILE.ext`
 * and the atomic commit.
 * Ownership: a struct sink owns its FILE (stdout is only borrowed) and its temporary
 * file from sink_open() until exactly one of sink_commit() or sink_abort(); it borrows the
 * tables it is given and keeps nothing of them. */
#ifndef ECSPROF_SINK_H
#define ECSPROF_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ecsprof/atomicfile.h"
#include "ecsprof/err.h"
#include "ecsprof/rowtab.h"
#include "ecsprof/timeutil.h"

enum sink_format_id { SINK_TABLE, SINK_CSV, SINK_JSON, SINK_MARKDOWN, SINK_HTML, SINK_XLSX,
		      SINK_FORMAT_COUNT };

struct sink;

/* A writer of a whole document: the tables in order. */
typedef int sink_doc_fn(struct sink *s, const struct row_table *const *tables, size_t n,
			struct err *err);
/* A writer of one row of a table, for output that streams (watch): the header (when the
 * format has one) before the first row it writes. */
typedef int sink_row_fn(struct sink *s, const struct row_table *t, size_t row,
			struct err *err);

struct sink_format {
	enum sink_format_id id;
	const char *name;               /* --format NAME */
	const char *const *exts;        /* ".md", ".markdown", NULL: what -o FILE.ext infers */
	bool streams;                   /* has a row writer */
	sink_doc_fn *doc;               /* NULL: only a command's own writer (html, xlsx) */
	sink_row_fn *row;
};

/* The table of formats, in --help's order; n set to its length. */
const struct sink_format *sink_formats(size_t *n);
/* By --format name, or NULL. */
const struct sink_format *sink_format_by_name(const char *name);
/* By a file name's extension (case-insensitive), or NULL when none is known. */
const struct sink_format *sink_format_by_path(const char *path);

struct sink_options {
	int width;                      /* the table's width; 0: the terminal's, else 100 */
	enum time_format time_format;   /* CSV's instants (report's --time-format) */
	bool verbose;                   /* the table shows every column */
	const struct log *log;          /* an extension that names no format (NULL: log.h) */
};

struct sink {
	FILE *f;                        /* write here (stdout or the temporary file) */
	const struct sink_format *format;
	struct sink_options o;
	struct atomicfile af;           /* when writing a file */
	bool to_stdout;
	bool header_done;               /* a streaming writer wrote its header */
	size_t rows;                    /* rows a streaming writer wrote */
};

/* Opens the output: path NULL or "-" is stdout, else the file is replaced only at
 * sink_commit(). format NULL: from the path's extension, else the table; an extension
 * that names no format writes the table with a warning saying so. An unknown format name
 * is an error naming the ones there are. */
int sink_open(struct sink *s, const char *path, const char *format,
	      const struct sink_options *o, struct err *err);
/* The whole document through the format's own writer; an error for a format with none
 * (html/xlsx of a command that has no page). Several tables: the table and Markdown one
 * after another (Markdown under a `### name` heading each), JSON each under its name in
 * one object, CSV one after another with a blank line between (a CSV reader wants one:
 * give it one table). An empty table is "(no NAME)" in the table and Markdown. */
int sink_write(struct sink *s, const struct row_table *const *tables, size_t n,
	       struct err *err);
/* One row, for a streaming format; an error for one that does not stream. */
int sink_row(struct sink *s, const struct row_table *t, size_t row, struct err *err);
/* A command's own writer for the open format, writing to s->f. */
typedef int sink_custom_fn(FILE *f, void *ctx, struct err *err);
int sink_write_custom(struct sink *s, sink_custom_fn *fn, void *ctx, struct err *err);
/* stdout: flushed (a failed write is an error); a file: synced and renamed into place.
 * After a failure the old file is left as it was. */
int sink_commit(struct sink *s, struct err *err);
/* Nothing published: the temporary file removed, stdout left as written. */
void sink_abort(struct sink *s);
/* For output that grows (watch -o): what is written so far replaces the file now, and
 * writing goes on into it until sink_commit() (atomicfile_publish); nothing on stdout. */
int sink_publish(struct sink *s, struct err *err);
/* Whether the file already holds this sink's output (sink_publish, or a device written in
 * place); stdout: true. */
bool sink_published(const struct sink *s);
/* A command's last step: sink_commit() when rc (its writing's result) is 0, else
 * sink_abort() and -1 (err already says why). */
int sink_finish(struct sink *s, int rc, struct err *err);

/* The terminal's columns: $COLUMNS (20..1000) or stdout's window size, else fallback
 * (what sink_open() uses for width 0 on stdout, and commands with a table of their own). */
int sink_terminal_width(int fallback);

#endif
