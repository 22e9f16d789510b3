/* atomicfile: the one way ecsprof replaces a file (every -o output and every recording):
 * a new file is written beside the old one and renamed over it only when complete, so a
 * failure, a crash or Ctrl-C leaves the old file or the new one, never half of one.
 * Ownership: a struct atomicfile owns its FILE, its names and its temporary file until
 * atomicfile_commit() or atomicfile_abort(), exactly one of which must be called;
 * atomicfile_resolve() returns a string the caller frees.
 *
 * The rules, each for a reason:
 * - the temporary file is created with O_CREAT | O_EXCL | O_NOFOLLOW under an
 *   unpredictable name (".NAME.ecsprof.PID.RANDOM") in the target's directory, so a
 *   symlink planted there is never followed and the rename never crosses file systems;
 * - it is fsync'ed before the rename, and the directory after it;
 * - an existing file keeps its mode; a new one gets 0666 minus the umask (outputs) or
 *   0600 minus the umask (ATOMICFILE_PRIVATE: recordings, which hold container
 *   environment overrides, like the AWS CLI's caches);
 * - a file the user cannot write, or one with no write bit at all (so that root does not
 *   silently replace a file made read-only on purpose), is refused, not replaced;
 * - a device, FIFO or terminal (/dev/null) is written in place: a rename over it would
 *   replace the device with a regular file (ATOMICFILE_REGULAR refuses them instead);
 * - SIGINT and SIGTERM remove the temporary files of the writers still open when the
 *   signal would end the process (a handler the program installed itself is called
 *   instead, and the program then ends its writers); another module's own temporary
 *   file (xlsx's workbook) joins that table through atomicfile_track_temp();
 * - temporary files of earlier runs that died (their PID is gone) are removed on open. */
#ifndef ECSPROF_ATOMICFILE_H
#define ECSPROF_ATOMICFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "ecsprof/err.h"

enum atomicfile_flags {
	ATOMICFILE_PRIVATE = 1 << 0,   /* a new file is 0600 minus the umask */
	ATOMICFILE_REGULAR = 1 << 1,   /* refuse anything but a regular file (or none yet) */
};

struct atomicfile {
	FILE *f;                       /* write here */
	char *path;                    /* the name that is replaced */
	char *tmp;                     /* the temporary file; NULL when in place or published */
	bool in_place;                 /* a device or FIFO, written directly */
	mode_t mode;                   /* given to the new file */
	int slot;                      /* in the signal handler's table, -1 when not there */
};

/* Starts replacing path: creates the temporary file (or opens a device in place). path
 * itself is not touched until atomicfile_commit() or atomicfile_publish(). */
int atomicfile_open(struct atomicfile *af, const char *path, unsigned flags, struct err *err);
/* Flushes, syncs and renames the new file into place; closes it. On failure the old file
 * is left as it was and the temporary file removed. */
int atomicfile_commit(struct atomicfile *af, struct err *err);
/* For a stream that grows (watch -o): renames what is written so far into place now and
 * keeps writing to the same file, which atomicfile_commit() then syncs and closes. */
int atomicfile_publish(struct atomicfile *af, struct err *err);
/* Closes and removes the temporary file; path stays as it was. Safe after a failed open. */
void atomicfile_abort(struct atomicfile *af);

/* Adds path (a temporary file the caller created) to the files SIGINT and SIGTERM
 * remove; the caller keeps owning path. Block both signals around creating the file
 * and this call, so that no signal falls between them. -1 when the table is full (the
 * file then outlives a signal), else 0. */
int atomicfile_track_temp(const char *path);
/* Takes path out of that table; call it after unlink(path), so that a signal in between
 * finds the name already gone rather than a file left behind. */
void atomicfile_untrack_temp(const char *path);

/* The real file behind path: symlinks followed (a dangling one to where it points), for
 * writers that must update the file a link names rather than replace the link
 * (recordings). NULL and err when a directory on the way cannot be resolved. */
char *atomicfile_resolve(const char *path, struct err *err);
/* The directory of path ("." for a bare name), newly allocated. */
char *atomicfile_dir(const char *path);

#endif
