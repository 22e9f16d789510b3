/* record: builds recording lines and merges them into a recording file. A recording is
 * only ever replaced whole (temporary file, fsync, rename), because a half-written line
 * in the middle of saved evidence is worse than no new data. JSON is read through input.c
 * (input_peek_*), so this file never parses JSON itself. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecsprof/atomicfile.h"
#include "ecsprof/buf.h"
#include "ecsprof/input.h"
#include "ecsprof/log.h"
#include "ecsprof/record.h"
#include "ecsprof/strset.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

static void
add_json_string(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c < 0x20) {
			buf_addf(b, "\\u%04x", c);
		} else {
			buf_addc(b, (char)c);
		}
	}
	buf_addc(b, '"');
}

char *
record_line_new(const char *raw, size_t len, const char *region, const char *cluster,
    int64_t fetched_at_ms, struct err *err)
{
	struct input_key k;
	char *line = record_line_new_key(raw, len, region, cluster, fetched_at_ms, &k, err);

	input_key_cleanup(&k);
	return line;
}

char *
record_line_new_key(const char *raw, size_t len, const char *region, const char *cluster,
    int64_t fetched_at_ms, struct input_key *k, struct err *err)
{
	struct buf b;
	char iso[TIMEUTIL_ISO_LEN];
	size_t start, oldlen;

	memset(k, 0, sizeof *k);
	if (fetched_at_ms == TS_NONE) {
		err_set(err, ERR_INTERNAL, "record: a recorded task needs the time it was fetched");
		return NULL;
	}
	timeutil_format_iso(fetched_at_ms, iso);
	buf_init(&b, 0);
	buf_addf(&b, "{\"ecsprof\":\"%s\",\"fetched_at\":\"%s\",\"region\":", RECORD_FORMAT, iso);
	add_json_string(&b, region);
	buf_adds(&b, ",\"cluster\":");
	add_json_string(&b, cluster);
	buf_adds(&b, ",\"source\":\"live\",\"task\":");
	/* the raw object, trimmed; raw line breaks can only sit between tokens in valid JSON */
	while (len > 0 && (raw[len - 1] == ' ' || raw[len - 1] == '\t' || raw[len - 1] == '\n' ||
	    raw[len - 1] == '\r'))
		len--;
	start = 0;
	while (start < len && (raw[start] == ' ' || raw[start] == '\t' || raw[start] == '\n' ||
	    raw[start] == '\r'))
		start++;
	oldlen = b.len;
	if (buf_add(&b, raw + start, len - start) != 0) {
		buf_cleanup(&b);
		err_set(err, ERR_INTERNAL, "record: task too large to record");
		return NULL;
	}
	for (size_t i = oldlen; i < b.len; i++)
		if (b.data[i] == '\n' || b.data[i] == '\r')
			b.data[i] = ' ';
	buf_addc(&b, '}');
	/* read it back: a line this program cannot read must never reach a recording. That
	 * read gives the merge key too; the raw task is read alone only to word a failure
	 * as before (its own fault first) */
	if (input_peek_built_record(b.data, b.len, raw + start, len - start, fetched_at_ms, k,
	    err) != 0) {
		struct input_key t;
		struct err e;

		err_clear(&e);
		if (input_peek_task(raw, len, &t, &e) != 0)
			*err = e;
		else
			input_key_cleanup(&t);
		buf_cleanup(&b);
		input_key_cleanup(k);
		return NULL;
	}
	return buf_take(&b);
}

/* ---- the file as a list of lines, indexed by task ARN --------------------------------- */

struct entry {
	char *line;
	size_t len;
	struct input_key key;
};

struct rfile {
	struct entry *v;
	size_t n, cap;
	struct strset index;   /* task ARN (borrowed from v[i].key.arn) -> position i */
};

static struct entry *
rfile_find(struct rfile *f, const char *arn)
{
	size_t pos;

	return strset_get(&f->index, arn, &pos) ? &f->v[pos] : NULL;
}

static void
rfile_add(struct rfile *f, char *line, size_t len, struct input_key *k)
{
	f->v = xgrow(f->v, f->n + 1, &f->cap, sizeof *f->v);
	f->v[f->n].line = line;
	f->v[f->n].len = len;
	f->v[f->n].key = *k;
	memset(k, 0, sizeof *k);
	strset_add(&f->index, f->v[f->n].key.arn, f->n);
	f->n++;
}

/* A line that names no task (input_peek_record's 1): kept where it is, as it is, merged
 * with nothing. Takes line. */
static void
rfile_keep(struct rfile *f, char *line, size_t len)
{
	f->v = xgrow(f->v, f->n + 1, &f->cap, sizeof *f->v);
	memset(&f->v[f->n], 0, sizeof f->v[f->n]);
	f->v[f->n].line = line;
	f->v[f->n].len = len;
	f->n++;
}

static void
rfile_cleanup(struct rfile *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].line);
		input_key_cleanup(&f->v[i].key);
	}
	free(f->v);
	strset_cleanup(&f->index);
	memset(f, 0, sizeof *f);
}

/* The rule in record.h: is b a newer state than a? */
static bool
newer(const struct input_key *a, const struct input_key *b)
{
	if (a->has_version && b->has_version)
		return b->version > a->version;
	/* a fetched_at that does not read is dropped, as report drops it: such a line (a
	 * deployment's, an event's, a task's without a version) is older than any with a
	 * time, else a fresh observation would never replace it */
	if (a->fetched_at_ms == TS_NONE)
		return b->fetched_at_ms != TS_NONE;
	return b->fetched_at_ms != TS_NONE && b->fetched_at_ms > a->fetched_at_ms;
}

/* Adds or replaces; takes line and k. Returns 1 added, 2 replaced, 0 kept the old. */
static int
rfile_merge(struct rfile *f, char *line, size_t len, struct input_key *k)
{
	struct entry *e = rfile_find(f, k->arn);

	if (e == NULL) {
		rfile_add(f, line, len, k);
		return 1;
	}
	if (newer(&e->key, k)) {
		/* the index borrows e->key.arn: keep that string (same text) and drop k's */
		char *arn = e->key.arn;

		line = record_line_keep_healthy(line, &len, e->line, e->len);
		free(e->line);
		e->line = line;
		e->len = len;
		input_key_cleanup(k);
		e->key = *k;
		e->key.arn = arn;
		memset(k, 0, sizeof *k);
		return 2;
	}
	free(line);
	input_key_cleanup(k);
	return 0;
}

static int
load(const struct log *lg, const char *path, struct rfile *f, bool *exists, struct err *err)
{
	FILE *fp = fopen(path, "rb");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long lineno = 0, first_kept = 0;
	size_t kept = 0;
	char why[sizeof err->msg];
	int rc = 0;

	*exists = fp != NULL;
	if (fp == NULL) {
		if (errno == ENOENT)
			return 0;
		return err_set(err, ERR_IO, "%s: cannot open: %s", path, err_strerror(errno));
	}
	while ((n = getline(&line, &cap, fp)) > 0) {
		struct input_key k;
		struct err e;
		size_t len = (size_t)n;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (len == 0)
			continue;
		err_clear(&e);
		switch (input_peek_record(line, len, &k, &e)) {
		case 0:
			rfile_merge(f, xstrndup(line, len), len, &k);
			continue;
		case 1:
			/* report skips its task with a warning; the line stays, as it is */
			if (kept++ == 0) {
				first_kept = lineno;
				snprintf(why, sizeof why, "%s", e.msg);
			}
			rfile_keep(f, xstrndup(line, len), len);
			continue;
		default:
			rc = err_set(err, ERR_PARSE, "%s:%ld: %s; refusing to overwrite a file that "
			    "is not an ecsprof recording", path, lineno, e.msg);
			break;
		}
		break;
	}
	if (rc == 0 && kept == 1)
		log_warn(lg, "%s:%ld: %s: the line is kept as it is, merged with nothing (report "
		    "skips its task too)", path, first_kept, why);
	else if (rc == 0 && kept > 1)
		log_warn(lg, "%s:%ld: %s: the line is kept as it is, merged with nothing (report "
		    "skips its task too), and so are %zu more such lines", path, first_kept, why,
		    kept - 1);
	if (rc == 0 && ferror(fp))
		rc = err_set(err, ERR_IO, "%s: read error: %s", path, err_strerror(errno));
	free(line);
	fclose(fp);
	return rc;
}

/* Two record runs on one file must not both read the old version and each write back
 * only their own tasks. The file itself is replaced by rename, so its lock would not
 * outlive the first writer: lock the directory instead (flock works on directories on
 * Linux), which serialises writers without leaving a lock file behind. path is the real
 * file (symlinks resolved), so two names for one recording share one lock. */
static int
lock_dir(const char *path, int *out_fd, struct err *err)
{
	char *dir = atomicfile_dir(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		err_set(err, ERR_IO, "%s: cannot open its directory %s: %s", path, dir,
		    err_strerror(errno));
		free(dir);
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno == EINTR)
			continue;
		err_set(err, ERR_IO, "%s: cannot lock %s: %s", path, dir, err_strerror(errno));
		close(fd);
		free(dir);
		return -1;
	}
	free(dir);
	*out_fd = fd;
	return 0;
}

/* Writes f through the one atomic writer: a private temporary file beside the real file,
 * synced and renamed over it (atomicfile.h). */
static int
replace(const char *path, const struct rfile *f, struct err *err)
{
	struct atomicfile af;

	if (atomicfile_open(&af, path, ATOMICFILE_PRIVATE | ATOMICFILE_REGULAR, err) != 0)
		return -1;
	for (size_t i = 0; i < f->n; i++) {
		if (fwrite(f->v[i].line, 1, f->v[i].len, af.f) != f->v[i].len ||
		    putc('\n', af.f) == EOF) {
			err_set(err, ERR_IO, "%s: write failed: %s", path, err_strerror(errno));
			atomicfile_abort(&af);
			return -1;
		}
	}
	return atomicfile_commit(&af, err);
}

int
record_check_file(const struct log *lg, const char *path, struct err *err)
{
	struct rfile f;
	struct stat sb;
	bool exists = false;
	char *real, *dir;
	int rc;

	memset(&f, 0, sizeof f);
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return err_set(err, ERR_IO, "%s: not a regular file; a recording must be one", path);
	if ((real = atomicfile_resolve(path, err)) == NULL)
		return -1;
	rc = load(lg, real, &f, &exists, err);
	rfile_cleanup(&f);
	/* the recording is replaced by a new file beside it: its directory must take one */
	dir = atomicfile_dir(real);
	if (rc == 0 && access(dir, W_OK | X_OK) != 0)
		rc = err_set(err, ERR_IO, "%s: cannot write in %s: %s", path, dir,
			     err_strerror(errno));
	free(dir);
	free(real);
	return rc;
}

int
record_merge_file(const struct log *lg, const char *path, char *const *lines, size_t nlines,
    size_t *added, size_t *updated, struct err *err)
{
	return record_merge_keyed(lg, path, lines, NULL, nlines, added, updated, err);
}

int
record_merge_keyed(const struct log *lg, const char *path, char *const *lines,
    struct input_key *keys, size_t nlines, size_t *added, size_t *updated, struct err *err)
{
	struct rfile f;
	struct stat sb;
	bool exists = false;
	size_t nadd = 0, nupd = 0;
	int rc = -1, lock_fd = -1;
	char *real;

	memset(&f, 0, sizeof f);
	/* The file is replaced by rename: done over /dev/null or a FIFO that would swap a
	 * device for a regular file, so only regular files (or none yet) are recordings. */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return err_set(err, ERR_IO, "%s: not a regular file; a recording must be one", path);
	/* a symlink names the recording: update that file, never fork it into a new one */
	if ((real = atomicfile_resolve(path, err)) == NULL)
		return -1;
	if (lock_dir(real, &lock_fd, err) != 0) {
		free(real);
		return -1;
	}
	if (load(lg, real, &f, &exists, err) != 0)
		goto out;
	for (size_t i = 0; i < nlines; i++) {
		struct input_key k;
		size_t len = strlen(lines[i]);
		struct err e;

		err_clear(&e);
		if (keys != NULL && keys[i].arn != NULL) {
			/* read back already by record_line_new_key */
			k = keys[i];
			memset(&keys[i], 0, sizeof keys[i]);
		} else if (memchr(lines[i], '\n', len) != NULL ||
		    input_peek_record(lines[i], len, &k, &e) != 0) {
			err_set(err, ERR_INTERNAL, "%s: not a recording line (%s)", path,
			    e.msg[0] ? e.msg : "contains a line break");
			goto out;
		}
		switch (rfile_merge(&f, xstrndup(lines[i], len), len, &k)) {
		case 1:
			nadd++;
			break;
		case 2:
			nupd++;
			break;
		default:
			break;
		}
	}
	if (added != NULL)
		*added = nadd;
	if (updated != NULL)
		*updated = nupd;
	if (exists && nadd == 0 && nupd == 0) {
		rc = 0; /* unchanged: not even the modification time moves */
		goto out;
	}
	rc = replace(real, &f, err);
out:
	rfile_cleanup(&f);
	close(lock_fd);   /* releases the lock */
	free(real);
	return rc;
}
