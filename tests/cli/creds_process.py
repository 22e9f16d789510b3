#!/usr/bin/env python3
"""TAP: a credential_process that times out is ended with everything it started (issue 31
item 10): the script forks a long sleep that shares ecsprof's stderr and then hangs; after
ECSPROF_CREDENTIAL_PROCESS_TIMEOUT ecsprof kills the process group, so the sleep is gone
and `ecsprof ... 2>&1 | cat` returns at once instead of when the sleep ends. No server:
ecsprof stops at the credentials (its endpoint is a closed loopback port)."""
import os
import subprocess
import sys
import tempfile
import time

ECSPROF = os.environ.get("ECSPROF", "")
SLEEP_S = 30
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def alive(pid):
    """running (a zombie that nobody reaped yet is gone for this purpose)"""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-creds-process-")
    pidfile = os.path.join(tmp, "sleep.pid")
    script = os.path.join(tmp, "hang.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nsleep %d &\necho $! > '%s'\nwhile :; do sleep 1; done\n"
                % (SLEEP_S, pidfile))
    os.chmod(script, 0o700)
    config = os.path.join(tmp, "config")
    with open(config, "w") as f:
        f.write("[profile hang]\nregion = us-east-1\ncredential_process = %s\n" % script)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_CONFIG_FILE": config,
                "AWS_SHARED_CREDENTIALS_FILE": os.path.join(tmp, "none"),
                "AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "hang",
                "AWS_ENDPOINT_URL_ECR": "http://127.0.0.1:9",
                "ECSPROF_CREDENTIAL_PROCESS_TIMEOUT": "1"})
    args = [ECSPROF, "tasks", "--cluster", "c", "--format", "csv", "--endpoint-url",
            "http://127.0.0.1:9"]
    # ecsprof alone: when it has exited, the sleep must be gone already
    with open(os.path.join(tmp, "err"), "w+") as err:
        p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=err, env=env,
                           timeout=SLEEP_S + 30, stdin=subprocess.DEVNULL)
        err.seek(0)
        out = err.read()
    pid = int(open(pidfile).read()) if os.path.exists(pidfile) else 0
    if pid and alive(pid):
        time.sleep(0.5)   # SIGKILL is delivered; give the reaper a moment
    ok(p.returncode != 0 and pid and not alive(pid),
       "when ecsprof exits, the sleep its credential_process started is gone (pid %d)" % pid,
       out)
    if pid and alive(pid):
        os.kill(pid, 9)
    # and so a pipe that takes its stderr ends with it
    t0 = time.monotonic()
    try:
        p = subprocess.run(["sh", "-c", " ".join("'%s'" % a for a in args) + " 2>&1 | cat"],
                           capture_output=True, text=True, env=env, timeout=SLEEP_S + 30,
                           stdin=subprocess.DEVNULL)
        out = p.stdout
    except subprocess.TimeoutExpired as e:
        out = str(e.stdout)
    secs = time.monotonic() - t0
    ok(secs < SLEEP_S / 2, "`ecsprof ... 2>&1 | cat` returns in %.1f s (the sleep: %d s)"
       % (secs, SLEEP_S), out)
    ok("credential_process did not finish within 1 s" in out,
       "the one line says the credential_process timed out", out)
    pid = int(open(pidfile).read()) if os.path.exists(pidfile) else 0
    if pid and alive(pid):
        os.kill(pid, 9)
    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for line in str(detail).splitlines()[:20]:
                print("# " + line)
    return 0 if all(g for g, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
