/* atomicfile: the one writer that replaces files (-o and recordings): what a failure, a
 * signal, a planted name or a read-only file does to the target. Each test works in a
 * directory of its own under /tmp. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "ecsprof/atomicfile.h"
#include "ecsprof/xalloc.h"

static char dir[64];

static void
mkdir_tmp(void)
{
	snprintf(dir, sizeof dir, "/tmp/ecsprof-test-af-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static char *
in_dir(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void
put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
	cr_assert_eq(chmod(path, mode), 0);
}

static char *
get(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t cap = 0;

	if (f == NULL)
		return NULL;
	if (getdelim(&s, &cap, '\0', f) < 0) {
		free(s);
		s = xstrdup("");
	}
	fclose(f);
	return s;
}

/* names in dir other than the ones given (NULL-terminated) */
static size_t
others(const char *keep1, const char *keep2)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    (keep1 == NULL || strcmp(e->d_name, keep1) != 0) &&
		    (keep2 == NULL || strcmp(e->d_name, keep2) != 0))
			n++;
	closedir(d);
	return n;
}

static mode_t
mode_of(const char *path)
{
	struct stat sb;

	cr_assert_eq(stat(path, &sb), 0, "%s", path);
	return sb.st_mode & 07777;
}

static void
rm_dir(void)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	free(cmd);
}

Test(atomicfile, commit_replaces_and_keeps_the_mode)
{
	struct atomicfile af;
	struct err err;
	char *p, *s;

	mkdir_tmp();
	p = in_dir("out.csv");
	put(p, "old\n", 0640);
	err_clear(&err);
	cr_assert_eq(atomicfile_open(&af, p, 0, &err), 0, "%s", err.msg);
	fputs("new\n", af.f);
	s = get(p);
	cr_expect_str_eq(s, "old\n", "the target is untouched before the commit");
	free(s);
	cr_expect_eq(others("out.csv", NULL), 1, "one temporary file beside it");
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	s = get(p);
	cr_expect_str_eq(s, "new\n");
	free(s);
	cr_expect_eq(mode_of(p), 0640, "mode %o", mode_of(p));
	cr_expect_eq(others("out.csv", NULL), 0, "no temporary file left");
	free(p);
	rm_dir();
}

Test(atomicfile, abort_keeps_the_old_file)
{
	struct atomicfile af;
	struct err err;
	char *p = NULL, *s;

	mkdir_tmp();
	p = in_dir("out.csv");
	put(p, "old\n", 0644);
	err_clear(&err);
	cr_assert_eq(atomicfile_open(&af, p, 0, &err), 0, "%s", err.msg);
	fputs("half", af.f);
	atomicfile_abort(&af);
	s = get(p);
	cr_expect_str_eq(s, "old\n");
	free(s);
	cr_expect_eq(others("out.csv", NULL), 0);
	free(p);
	rm_dir();
}

Test(atomicfile, new_files_follow_the_umask)
{
	struct atomicfile af;
	struct err err;
	char *p, *q;

	mkdir_tmp();
	p = in_dir("out.csv");
	q = in_dir("rec.jsonl");
	err_clear(&err);
	umask(027);
	cr_assert_eq(atomicfile_open(&af, p, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	cr_expect_eq(mode_of(p), 0640, "an output is 0666 minus the umask: %o", mode_of(p));
	umask(022);
	cr_assert_eq(atomicfile_open(&af, q, ATOMICFILE_PRIVATE, &err), 0, "%s", err.msg);
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	cr_expect_eq(mode_of(q), 0600, "a private file is never wider than 0600: %o", mode_of(q));
	unlink(q);
	umask(0277);
	cr_assert_eq(atomicfile_open(&af, q, ATOMICFILE_PRIVATE, &err), 0, "%s", err.msg);
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	cr_expect_eq(mode_of(q), 0400, "and follows the umask: %o", mode_of(q));
	umask(022);
	free(p);
	free(q);
	rm_dir();
}

/* A read-only file is refused, even for root (who may write anything): the mode says the
 * file is not to be replaced. */
Test(atomicfile, refuses_a_read_only_file)
{
	struct atomicfile af;
	struct err err;
	char *p, *s;

	mkdir_tmp();
	p = in_dir("out.csv");
	put(p, "keep\n", 0444);
	err_clear(&err);
	cr_expect_eq(atomicfile_open(&af, p, 0, &err), -1);
	cr_expect_eq(err.code, ERR_IO);
	cr_expect_neq(strstr(err.msg, "refusing to replace"), NULL, "%s", err.msg);
	s = get(p);
	cr_expect_str_eq(s, "keep\n");
	free(s);
	cr_expect_eq(others("out.csv", NULL), 0);
	free(p);
	rm_dir();
}

Test(atomicfile, devices_are_written_in_place)
{
	struct atomicfile af;
	struct stat sb;
	struct err err;

	err_clear(&err);
	cr_assert_eq(atomicfile_open(&af, "/dev/null", 0, &err), 0, "%s", err.msg);
	cr_expect(af.in_place);
	fputs("gone\n", af.f);
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	cr_assert_eq(stat("/dev/null", &sb), 0);
	cr_expect(S_ISCHR(sb.st_mode), "/dev/null is still a device");
	cr_expect_eq(atomicfile_open(&af, "/dev/null", ATOMICFILE_REGULAR, &err), -1);
	cr_expect_neq(strstr(err.msg, "not a regular file"), NULL, "%s", err.msg);
}

/* SIGTERM or SIGINT while a file is being written: the temporary file is removed and the
 * process still dies of the signal; the target is as it was. */
static void
killed_while_writing(int sig)
{
	char *p;
	pid_t pid;
	int status;

	mkdir_tmp();
	p = in_dir("out.csv");
	put(p, "old\n", 0644);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct atomicfile af;
		struct err err;

		if (atomicfile_open(&af, p, 0, &err) != 0)
			_exit(3);
		fputs("half", af.f);
		fflush(af.f);
		raise(sig);
		_exit(4);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == sig, "status %d", status);
	cr_expect_eq(others("out.csv", NULL), 0, "the temporary file was removed");
	char *s = get(p);
	cr_expect_str_eq(s, "old\n");
	free(s);
	free(p);
	rm_dir();
}

Test(atomicfile, sigterm_removes_the_temporary_file)
{
	killed_while_writing(SIGTERM);
}

Test(atomicfile, sigint_removes_the_temporary_file)
{
	killed_while_writing(SIGINT);
}

/* Another module's temporary file (xlsx's workbook in TMPDIR) joins the table: a signal
 * removes it while tracked, and leaves it once untracked (the owner removes it then). */
static int
killed_with_temp(int untrack)
{
	char *p;
	pid_t pid;
	int status, there;

	mkdir_tmp();
	p = in_dir("ecsprof-xlsx-test");
	put(p, "zip", 0600);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		if (atomicfile_track_temp(p) != 0)
			_exit(3);
		if (untrack)
			atomicfile_untrack_temp(p);
		raise(SIGTERM);
		_exit(4);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d", status);
	there = access(p, F_OK) == 0;
	unlink(p);
	free(p);
	rm_dir();
	return there;
}

Test(atomicfile, a_tracked_temp_is_removed_by_a_signal)
{
	cr_expect_eq(killed_with_temp(0), 0, "the tracked file was removed");
	cr_expect_eq(killed_with_temp(1), 1, "an untracked file is left to its owner");
}

/* A run killed with SIGKILL leaves its temporary file; the next run removes it (its PID
 * is gone), but never one of a process still alive. */
Test(atomicfile, stale_temporary_files_are_removed)
{
	struct atomicfile af;
	struct err err;
	char *p, *stale, *live, *mine;
	pid_t dead = fork();

	if (dead == 0)
		_exit(0);
	cr_assert_eq(waitpid(dead, NULL, 0), dead);
	mkdir_tmp();
	p = in_dir("out.csv");
	stale = xasprintf("%s/.out.csv.ecsprof.%ld.0123456789ab", dir, (long)dead);
	live = xasprintf("%s/.out.csv.ecsprof.%ld.0123456789ab", dir, (long)getppid());
	mine = in_dir("out.csv.tmp.123");   /* not ours: left alone */
	put(stale, "x", 0600);
	put(live, "x", 0600);
	put(mine, "x", 0600);
	err_clear(&err);
	cr_assert_eq(atomicfile_open(&af, p, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	cr_expect_neq(access(stale, F_OK), 0, "the dead run's temporary file was removed");
	cr_expect_eq(access(live, F_OK), 0, "a live process's temporary file stays");
	cr_expect_eq(access(mine, F_OK), 0, "a file of another name stays");
	free(p);
	free(stale);
	free(live);
	free(mine);
	rm_dir();
}

/* watch -o: nothing happens to the target until there is something in it; then it is
 * replaced at once and grows in place. */
Test(atomicfile, publish_then_grow)
{
	struct atomicfile af;
	struct err err;
	char *p, *s;

	mkdir_tmp();
	p = in_dir("lines.csv");
	put(p, "old\n", 0600);
	err_clear(&err);
	cr_assert_eq(atomicfile_open(&af, p, 0, &err), 0, "%s", err.msg);
	s = get(p);
	cr_expect_str_eq(s, "old\n");
	free(s);
	fputs("a\n", af.f);
	cr_assert_eq(atomicfile_publish(&af, &err), 0, "%s", err.msg);
	s = get(p);
	cr_expect_str_eq(s, "a\n");
	free(s);
	fputs("b\n", af.f);
	cr_assert_eq(atomicfile_commit(&af, &err), 0, "%s", err.msg);
	s = get(p);
	cr_expect_str_eq(s, "a\nb\n");
	free(s);
	cr_expect_eq(mode_of(p), 0600);
	cr_expect_eq(others("lines.csv", NULL), 0);
	free(p);
	rm_dir();
}

Test(atomicfile, resolve_follows_symlinks)
{
	struct err err;
	char *real, *link, *dangling, *r;

	mkdir_tmp();
	real = in_dir("real.jsonl");
	link = in_dir("link.jsonl");
	dangling = in_dir("dangling.jsonl");
	put(real, "", 0600);
	cr_assert_eq(symlink("real.jsonl", link), 0);
	cr_assert_eq(symlink("later.jsonl", dangling), 0);
	err_clear(&err);
	r = atomicfile_resolve(link, &err);
	cr_assert_not_null(r, "%s", err.msg);
	cr_expect_str_eq(r, real);
	free(r);
	r = atomicfile_resolve(dangling, &err);
	cr_assert_not_null(r, "%s", err.msg);
	char *later = in_dir("later.jsonl");
	cr_expect_str_eq(r, later);
	free(later);
	free(r);
	r = atomicfile_resolve("/nonexistent-dir-ecsprof/x", &err);
	cr_expect_null(r);
	free(real);
	free(link);
	free(dangling);
	rm_dir();
}
