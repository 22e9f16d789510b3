/* creds_local: the sources that need no network: environment keys, a profile's static
 * keys, and credential_process (split like botocore's shlex.split and run without a
 * shell, with a timeout and an output cap; JSON "Version": 1 on stdout). */
#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "creds_int.h"
#include "ecsprof/timeutil.h"
#include "ecsprof/xalloc.h"

#define PROCESS_MAX_OUTPUT (256 * 1024)
#define PROCESS_TIMEOUT_S 120.0

extern char **environ;

int
creds_env_provider(struct aws_creds *out, struct buf *why, struct err *err)
{
	const char *akid = creds_env("AWS_ACCESS_KEY_ID");
	const char *secret = creds_env("AWS_SECRET_ACCESS_KEY");

	if (akid == NULL && secret == NULL) {
		buf_adds(why, "environment (AWS_ACCESS_KEY_ID not set)");
		return CREDS_NONE;
	}
	if (akid == NULL)
		return err_set(err, ERR_CREDS, "environment: AWS_SECRET_ACCESS_KEY is set but "
			       "AWS_ACCESS_KEY_ID is not");
	if (secret == NULL)
		return err_set(err, ERR_CREDS, "environment: AWS_ACCESS_KEY_ID is set but "
			       "AWS_SECRET_ACCESS_KEY is not");
	creds_set(out, akid, secret, creds_env("AWS_SESSION_TOKEN"), TS_NONE, "environment");
	return CREDS_FOUND;
}

int
creds_static_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		      struct err *err)
{
	const char *akid = creds_prof(ctx, profile, "aws_access_key_id");
	const char *secret = creds_prof(ctx, profile, "aws_secret_access_key");
	char *source;

	if (akid == NULL && secret == NULL)
		return CREDS_NONE;
	if (akid == NULL || secret == NULL)
		return err_set(err, ERR_CREDS, "profile %s: %s is set but %s is not", profile,
			       akid ? "aws_access_key_id" : "aws_secret_access_key",
			       akid ? "aws_secret_access_key" : "aws_access_key_id");
	source = xasprintf("profile %s (static keys)", profile);
	creds_set(out, akid, secret, creds_prof(ctx, profile, "aws_session_token"), TS_NONE,
		  source);
	free(source);
	return CREDS_FOUND;
}

/* Seconds a credential_process may take: ECSPROF_CREDENTIAL_PROCESS_TIMEOUT or 120. */
static int
process_timeout(double *sec, struct err *err)
{
	const char *v = creds_env("ECSPROF_CREDENTIAL_PROCESS_TIMEOUT");
	char *end;

	*sec = PROCESS_TIMEOUT_S;
	if (v == NULL)
		return 0;
	errno = 0;
	*sec = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !(*sec > 0) || *sec > 86400)
		return err_set(err, ERR_CONFIG, "ECSPROF_CREDENTIAL_PROCESS_TIMEOUT '%.40s' is not "
			       "a number of seconds (0 to 86400)", v);
	return 0;
}

static double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

enum run_end { RUN_EXITED, RUN_TIMEOUT, RUN_TOO_BIG };

/* The terminal's foreground process group goes to pgid (a credential_process that prompts
 * reads the terminal from its own group), or back to ours; SIGTTOU, sent to a background
 * group that sets it, is blocked meanwhile. Nothing when stdin is no terminal of which we
 * are the foreground. */
static void
terminal_to(pid_t pgid)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &old);
	(void)tcsetpgrp(STDIN_FILENO, pgid);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Runs argv (no shell) with stdout into out (a secret buf capped at PROCESS_MAX_OUTPUT);
 * stdin and stderr are ours (the process may prompt). It runs in a process group of its
 * own (given the terminal while it runs, when we have it), so that when it has not ended
 * within sec seconds or prints past the cap SIGKILL ends the whole group: a `sleep` it
 * started would otherwise keep our stderr open after we exit (`ecsprof ... 2>&1 | tail`
 * would hang). -1 when it cannot be started. */
static int
process_run(char **argv, double sec, struct buf *out, enum run_end *end, int *status,
	    struct err *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	bool foreground = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
	char chunk[4096];
	double deadline = mono_now() + sec;
	int fds[2], rc;
	pid_t pid;

	*end = RUN_EXITED;
	*status = 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return err_set(err, ERR_CREDS, "credential_process: pipe: %s", err_strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	/* no descriptor of ours (sockets, locks, recordings) reaches the process */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	/* the child inherits our stdio buffers' pending bytes only through fds: flush them */
	fflush(stdout);
	fflush(stderr);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);   /* a group of its own, led by it */
	rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return err_set(err, ERR_CREDS, "credential_process could not run %.200s: %s",
			       argv[0], err_strerror(rc));
	}
	if (foreground) {
		terminal_to(pid);
		kill(-pid, SIGCONT);   /* stopped if it read the terminal before it had it */
	}
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		double left = deadline - mono_now();
		ssize_t n;
		int pr;

		if (left <= 0) {
			*end = RUN_TIMEOUT;
			break;
		}
		pr = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (pr < 0 && errno != EINTR) {
			*end = RUN_TIMEOUT;
			break;
		}
		if (pr <= 0)
			continue;
		n = read(fds[0], chunk, sizeof chunk);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		if (buf_add(out, chunk, (size_t)n) != 0) {
			*end = RUN_TOO_BIG;
			break;
		}
	}
	OPENSSL_cleanse(chunk, sizeof chunk);
	close(fds[0]);
	/* it closed its output; it still has until the deadline to exit */
	while (*end == RUN_EXITED) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid) {
			if (foreground)
				terminal_to(getpgrp());
			return 0;
		}
		if (w < 0 && errno != EINTR) {
			if (foreground)
				terminal_to(getpgrp());
			return err_set(err, ERR_CREDS, "credential_process: waitpid: %s",
				       err_strerror(errno));
		}
		if (mono_now() >= deadline)
			*end = RUN_TIMEOUT;
		else
			nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	kill(-pid, SIGKILL);   /* it and whatever it started in its group */
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (foreground)
		terminal_to(getpgrp());
	return 0;
}

int
creds_process_provider(struct aws_context *ctx, const char *profile, struct aws_creds *out,
		       struct err *err)
{
	const char *cmd = creds_prof(ctx, profile, "credential_process");
	struct creds_json j = { 0 };
	const struct creds_json_item *ver;
	const char *akid, *secret, *token, *exp;
	int64_t exp_ms = TS_NONE;
	struct buf b;
	char *source, **argv;
	enum run_end end;
	double sec;
	int status, rc = CREDS_ERROR;

	if (cmd == NULL)
		return CREDS_NONE;
	if (process_timeout(&sec, err) != 0)
		return CREDS_ERROR;
	/* botocore splits the line with shlex and runs it without a shell */
	if (creds_split_command(cmd, &argv, err) != 0) {
		char why[sizeof err->msg];

		snprintf(why, sizeof why, "%s", err->msg);
		return err_set(err, ERR_CONFIG, "profile %s: credential_process: %.64s (it is split "
			       "like a POSIX shell's words, never run by a shell)", profile, why);
	}
	creds_buf_secret(&b, PROCESS_MAX_OUTPUT);
	if (process_run(argv, sec, &b, &end, &status, err) != 0) {
		char why[sizeof err->msg];

		snprintf(why, sizeof why, "%s", err->msg);
		err_set(err, ERR_CREDS, "profile %s: %s", profile, why);
		goto out;
	}
	if (end == RUN_TIMEOUT) {
		err_set(err, ERR_CREDS, "profile %s: credential_process did not finish within %g s "
			"(stopped it; ECSPROF_CREDENTIAL_PROCESS_TIMEOUT sets the limit)", profile,
			sec);
		goto out;
	}
	if (end == RUN_TOO_BIG) {
		err_set(err, ERR_CREDS, "profile %s: credential_process printed more than %d bytes "
			"(stopped it)", profile, PROCESS_MAX_OUTPUT);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status))
			err_set(err, ERR_CREDS, "profile %s: credential_process exited with status %d",
				profile, WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			err_set(err, ERR_CREDS, "profile %s: credential_process killed by signal %d",
				profile, WTERMSIG(status));
		else
			err_set(err, ERR_CREDS, "profile %s: credential_process failed", profile);
		goto out;
	}
	/* the output is never quoted in the message: it holds the secret */
	if (creds_json_parse(buf_str(&b), b.len, &j, err) != 0) {
		err_prefix(err, "profile %s: credential_process printed bad JSON", profile);
		goto out;
	}
	ver = creds_json_item(&j, "Version");
	if (ver == NULL || ver->is_string || strcmp(ver->value, "1") != 0) {
		err_set(err, ERR_CREDS, "profile %s: credential_process output needs \"Version\": 1",
			profile);
		goto out;
	}
	akid = creds_json_get(&j, "AccessKeyId");
	secret = creds_json_get(&j, "SecretAccessKey");
	token = creds_json_get(&j, "SessionToken");
	exp = creds_json_get(&j, "Expiration");
	if (akid == NULL || secret == NULL || akid[0] == '\0' || secret[0] == '\0') {
		err_set(err, ERR_CREDS, "profile %s: credential_process output lacks AccessKeyId or "
			"SecretAccessKey", profile);
		goto out;
	}
	if (exp != NULL && timeutil_parse_iso8601(exp, &exp_ms) != 0) {
		err_set(err, ERR_CREDS, "profile %s: credential_process Expiration '%.40s' is not "
			"an ISO 8601 time", profile, exp);
		goto out;
	}
	source = xasprintf("profile %s (credential_process)", profile);
	creds_set(out, akid, secret, token, exp_ms, source);
	free(source);
	rc = CREDS_FOUND;
out:
	creds_argv_free(argv);
	creds_json_free(&j);
	buf_cleanup_secure(&b);
	return rc;
}
