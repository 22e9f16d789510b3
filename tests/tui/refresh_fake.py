#!/usr/bin/env python3
"""TAP: `r` in the TUI of `ecsprof tasks` against a slow fake ECS (tests/fake_ecs.py,
--latency-ms) says on screen that a refresh is running instead of freezing blank-faced
(issue 11 item 3, first step: the fetch still runs on the UI thread), and the table comes
back when it is done."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FAKE = os.path.join(SRCDIR, "tests", "fake_ecs.py")
LATENCY_MS = 1500

SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"s": {"tasks": [
        {"id": "1111111100000000000000000000000a", "family": "api", "revision": 5,
         "created": -60, "provision": 1, "pull": 1, "start": 1},
        {"id": "2222222200000000000000000000000b", "family": "api", "revision": 5,
         "created": -60, "provision": 1, "pull": 2, "start": 1}]}}}

results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    if shutil.which("tmux") is None:
        print("1..1\nnot ok 1 - tmux is installed (apt-get install tmux)")
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-refresh-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    srv_err = open(os.path.join(tmp, "fake.err"), "w+")
    srv = subprocess.Popen([sys.executable, FAKE, "--scenario", scen,
                            "--latency-ms", str(LATENCY_MS)],
                           stdout=subprocess.PIPE, stderr=srv_err, text=True)
    sock = "ecsprof-refresh-%d" % os.getpid()
    tm = ["tmux", "-L", sock, "-f", "/dev/null"]
    try:
        line = srv.stdout.readline()
        if not line.strip().isdigit():
            srv_err.seek(0)
            print("1..1\nnot ok 1 - fake_ecs did not start: %s" % srv_err.read())
            return 1
        port = int(line)
        envs = ("AWS_ACCESS_KEY_ID=AKIDFAKE AWS_SECRET_ACCESS_KEY=fakesecret "
                "AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=%s "
                "AWS_SHARED_CREDENTIALS_FILE=%s") % (empty, empty)
        cmd = ("env -u AWS_PROFILE %s NO_COLOR=1 LANG=C TERM=xterm %s tasks --cluster s "
               "--no-images --format tui --region us-east-1 --endpoint-url "
               "http://127.0.0.1:%d; echo EXIT=$?; sleep 30") % (envs, ECSPROF, port)
        subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "100", "-y", "24", cmd])

        def screen():
            return subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                  capture_output=True, text=True).stdout

        def wait_for(pred, secs):
            s = ""
            end = time.time() + secs
            while time.time() < end:
                s = screen()
                if pred(s):
                    return True, s
                time.sleep(0.1)
            return False, s

        t0 = time.time()
        got, s = wait_for(lambda s: "fetching the tasks of cluster s" in s, 2)
        ok(got and time.time() - t0 < 1.0, "before the first fetch is done, the terminal "
           "says what it waits for (%.2f s)" % (time.time() - t0), s)
        got, s = wait_for(lambda s: "11111111" in s, 30)
        ok(got, "the table of tasks appears after the first fetch", s)
        subprocess.run(tm + ["send-keys", "-t", "t", "r"])
        t0 = time.time()
        got, s = wait_for(lambda s: "refreshing" in s, 2)
        ok(got and time.time() - t0 < 1.0,
           "r shows 'refreshing' at once while the fetch runs (%.2f s)" % (time.time() - t0), s)
        got, s = wait_for(lambda s: "refreshing" not in s and "11111111" in s, 30)
        ok(got, "the table is back when the refresh is done", s)
        subprocess.run(tm + ["send-keys", "-t", "t", "q"])
        got, s = wait_for(lambda s: "EXIT=0" in s, 10)
        ok(got, "q exits 0", s)
    finally:
        subprocess.run(tm + ["kill-server"], capture_output=True)
        srv.terminate()
        try:
            srv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srv.kill()
    print("1..%d" % len(results))
    for i, (c, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if c else "not ok", i, name))
        if not c and detail:
            for l in str(detail).splitlines()[:30]:
                print("# " + l)
    return 0 if all(c for c, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
