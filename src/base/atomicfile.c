/* atomicfile: temporary file beside the target, fsync, rename (the rules are in
 * atomicfile.h). The signal handler only reads a fixed table of names and calls unlink(),
 * both safe in a handler. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ecsprof/atomicfile.h"
#include "ecsprof/xalloc.h"

#define TMP_TAG ".ecsprof."
#define NSLOTS 8

/* ---- the temporary files a signal must remove ---- */

static struct {
	volatile sig_atomic_t used;
	char path[PATH_MAX];
} slots[NSLOTS];

static struct sigaction old_int, old_term;
/* Writers open and close on several threads (the image fetchers' cache files): claiming
 * and freeing a slot is locked. The handler reads the table without it, as a signal may
 * come while it is held; a slot's path is whole before `used` is set. */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static void
on_signal(int sig)
{
	const struct sigaction *old = sig == SIGINT ? &old_int : &old_term;

	/* the program's own handler ends it cleanly, and its writers with it */
	if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL) {
		if (old->sa_handler != SIG_IGN)
			old->sa_handler(sig);
		return;
	}
	for (int i = 0; i < NSLOTS; i++)
		if (slots[i].used)
			unlink(slots[i].path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
hook(int sig, struct sigaction *old)
{
	struct sigaction cur, sa;

	/* install once, and again if the program replaced it since (watch restores its own
	 * old handler when it ends) */
	if (sigaction(sig, NULL, &cur) != 0 || cur.sa_handler == on_signal)
		return;
	*old = cur;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static int
slot_add(const char *path)
{
	if (strlen(path) >= PATH_MAX)
		return -1;
	pthread_mutex_lock(&slots_lock);
	hook(SIGINT, &old_int);
	hook(SIGTERM, &old_term);
	for (int i = 0; i < NSLOTS; i++)
		if (!slots[i].used) {
			memcpy(slots[i].path, path, strlen(path) + 1);
			slots[i].used = 1;
			pthread_mutex_unlock(&slots_lock);
			return i;
		}
	pthread_mutex_unlock(&slots_lock);
	return -1;   /* more writers than slots: those temporaries outlive a signal */
}

static void
slot_drop(struct atomicfile *af)
{
	pthread_mutex_lock(&slots_lock);
	if (af->slot >= 0)
		slots[af->slot].used = 0;
	pthread_mutex_unlock(&slots_lock);
	af->slot = -1;
}

int
atomicfile_track_temp(const char *path)
{
	return slot_add(path) < 0 ? -1 : 0;
}

void
atomicfile_untrack_temp(const char *path)
{
	pthread_mutex_lock(&slots_lock);
	for (int i = 0; i < NSLOTS; i++)
		if (slots[i].used && strcmp(slots[i].path, path) == 0) {
			slots[i].used = 0;
			break;
		}
	pthread_mutex_unlock(&slots_lock);
}

/* ---- names ---- */

char *
atomicfile_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
}

static const char *
base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *
atomicfile_resolve(const char *path, struct err *err)
{
	char *cur = xstrdup(path), *real;

	for (int hops = 0; hops < 40; hops++) {
		struct stat sb;
		char link[PATH_MAX];
		ssize_t n;

		if ((real = realpath(cur, NULL)) != NULL) {
			free(cur);
			return real;
		}
		if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
			break;
		/* a dangling symlink: the file will be created where it points */
		n = readlink(cur, link, sizeof link - 1);
		if (n < 0)
			break;
		link[n] = '\0';
		if (link[0] == '/') {
			free(cur);
			cur = xstrdup(link);
		} else {
			char *dir = atomicfile_dir(cur);
			free(cur);
			cur = xasprintf("%s/%s", dir, link);
			free(dir);
		}
	}
	/* no such file (yet): the real directory and the name */
	char *dir = atomicfile_dir(cur), *rdir = realpath(dir, NULL);

	if (rdir == NULL) {
		err_set(err, ERR_IO, "%s: cannot resolve its directory %s: %s", path, dir,
			err_strerror(errno));
		free(dir);
		free(cur);
		return NULL;
	}
	real = xasprintf("%s%s%s", rdir, strcmp(rdir, "/") == 0 ? "" : "/", base_of(cur));
	free(rdir);
	free(dir);
	free(cur);
	return real;
}

/* Removes ".NAME.ecsprof.PID.*" files whose PID is gone: the temporaries of runs that were
 * killed (SIGKILL, a crash, a power cut) before they could clean up. Only regular files
 * of this user's, and never one of a live process. */
static void
clean_stale(const char *dir, const char *base)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *prefix = xasprintf(".%s" TMP_TAG, base);
	size_t plen = strlen(prefix);

	if (d == NULL) {
		free(prefix);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat sb;
		char *end, *p;
		long pid;

		if (strncmp(e->d_name, prefix, plen) != 0)
			continue;
		errno = 0;
		pid = strtol(e->d_name + plen, &end, 10);
		if (errno != 0 || end == e->d_name + plen || *end != '.' || pid <= 0 ||
		    pid > INT_MAX || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(p, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid())
			unlink(p);
		free(p);
	}
	closedir(d);
	free(prefix);
}

static mode_t
umask_now(void)
{
	mode_t m = umask(077);

	umask(m);
	return m;
}

static int
open_tmp(struct atomicfile *af, struct err *err)
{
	char *dir = atomicfile_dir(af->path);
	const char *base = base_of(af->path);
	int fd = -1;

	clean_stale(dir, base);
	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		uint64_t r = 0;

		if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
			r = (uint64_t)rand() << 32 ^ (uint64_t)rand() ^ (uint64_t)tries;
		free(af->tmp);
		af->tmp = xasprintf("%s/.%s" TMP_TAG "%ld.%012llx", dir, base, (long)getpid(),
				    (unsigned long long)(r & 0xffffffffffffULL));
		fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		err_set(err, ERR_IO, "%s: cannot create a temporary file in %s: %s", af->path, dir,
			err_strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	af->slot = slot_add(af->tmp);
	af->f = fdopen(fd, "w");
	if (af->f == NULL) {
		err_set(err, ERR_IO, "%s: %s", af->tmp, err_strerror(errno));
		close(fd);
		return -1;
	}
	return 0;
}

int
atomicfile_open(struct atomicfile *af, const char *path, unsigned flags, struct err *err)
{
	struct stat sb;

	memset(af, 0, sizeof *af);
	af->slot = -1;
	af->path = xstrdup(path);
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			err_set(err, ERR_IO, "%s: is a directory", path);
			goto fail;
		}
		if (!S_ISREG(sb.st_mode)) {
			if (flags & ATOMICFILE_REGULAR) {
				err_set(err, ERR_IO, "%s: not a regular file", path);
				goto fail;
			}
			/* /dev/null, a FIFO, a terminal: written to, never replaced */
			af->in_place = true;
			af->f = fopen(path, "w");
			if (af->f == NULL) {
				err_set(err, ERR_IO, "cannot write %s: %s", path, err_strerror(errno));
				goto fail;
			}
			return 0;
		}
		if (access(path, W_OK) != 0 || (sb.st_mode & 0222) == 0) {
			err_set(err, ERR_IO, "%s: not writable (mode %04o); refusing to replace it",
				path, (unsigned)(sb.st_mode & 07777));
			goto fail;
		}
		af->mode = sb.st_mode & 07777;
	} else if (errno != ENOENT) {
		err_set(err, ERR_IO, "cannot write %s: %s", path, err_strerror(errno));
		goto fail;
	} else {
		af->mode = (flags & ATOMICFILE_PRIVATE ? 0600 : 0666) & ~umask_now();
	}
	if (open_tmp(af, err) != 0)
		goto fail;
	return 0;
fail:
	atomicfile_abort(af);
	return -1;
}

static int
sync_close(struct atomicfile *af, const char *name, struct err *err)
{
	FILE *f = af->f;
	int rc = 0;

	af->f = NULL;
	if (fflush(f) != 0 || (!af->in_place && fsync(fileno(f)) != 0))
		rc = err_set(err, ERR_IO, "cannot write %s: %s", name, err_strerror(errno));
	if (fclose(f) != 0 && rc == 0)
		rc = err_set(err, ERR_IO, "cannot write %s: %s", name, err_strerror(errno));
	return rc;
}

static void
sync_dir(const char *path)
{
	char *dir = atomicfile_dir(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* the rename itself must reach the disk too */
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

static int
rename_into_place(struct atomicfile *af, struct err *err)
{
	if (fchmod(fileno(af->f), af->mode) != 0)
		return err_set(err, ERR_IO, "%s: %s", af->tmp, err_strerror(errno));
	if (rename(af->tmp, af->path) != 0)
		return err_set(err, ERR_IO, "cannot rename %s to %s: %s", af->tmp, af->path,
			       err_strerror(errno));
	slot_drop(af);
	free(af->tmp);
	af->tmp = NULL;
	sync_dir(af->path);
	return 0;
}

int
atomicfile_publish(struct atomicfile *af, struct err *err)
{
	if (af->tmp == NULL)
		return 0;
	if (fflush(af->f) != 0 || fsync(fileno(af->f)) != 0)
		return err_set(err, ERR_IO, "cannot write %s: %s", af->tmp, err_strerror(errno));
	return rename_into_place(af, err);
}

int
atomicfile_commit(struct atomicfile *af, struct err *err)
{
	int rc = 0;

	if (af->f == NULL) {
		atomicfile_abort(af);
		return err_set(err, ERR_INTERNAL, "atomicfile: commit without an open file");
	}
	if (af->tmp != NULL) {
		if (fflush(af->f) != 0 || fsync(fileno(af->f)) != 0)
			rc = err_set(err, ERR_IO, "cannot write %s: %s", af->path, err_strerror(errno));
		if (rc == 0)
			rc = rename_into_place(af, err);
		if (rc != 0) {
			atomicfile_abort(af);
			return -1;
		}
	}
	rc = sync_close(af, af->path, err);
	atomicfile_abort(af);   /* frees the names; nothing is left to remove */
	return rc;
}

void
atomicfile_abort(struct atomicfile *af)
{
	if (af->f != NULL)
		fclose(af->f);
	af->f = NULL;
	if (af->tmp != NULL)
		unlink(af->tmp);
	slot_drop(af);
	free(af->tmp);
	free(af->path);
	af->tmp = af->path = NULL;
}
