#!/usr/bin/env python3
"""TAP: the watch screen's changed marker in tmux against the fake ECS (issue 9's surviving
bug "the watch changed marker always false"). With virtual time frozen nothing changes and
no task is marked; once time moves a task from pulling to RUNNING, the next refresh marks it
('*' after its id) and not the task that is still provisioning; a refresh later, with
nothing changed again, the mark is gone."""
import json
import os
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
A, B = "aaaaaaaa", "bbbbbbbb"
SCENARIO = {"credentials": {"AKIDFAKE": "fakesecret"},
            "clusters": {"c": {"tasks": [
                {"id": A + "000000000000000000000001", "family": "web", "revision": 1,
                 "created": 0, "provision": 10, "pull": 10, "start": 5},
                {"id": B + "000000000000000000000002", "family": "web", "revision": 1,
                 "created": 0, "provision": 500, "pull": 10, "start": 5}]}}}
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-changed-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    try:
        srv, port = fakeserver.start("fake_ecs.py", ["--scenario", scen])
    except RuntimeError as e:
        print("1..1\nnot ok 1 - %s" % e)
        return 1
    tm = ["tmux", "-L", "ecsprof-changed-%d" % os.getpid(), "-f", "/dev/null"]

    def screen():
        return subprocess.run(tm + ["capture-pane", "-p", "-t", "t"], capture_output=True,
                              text=True).stdout

    def wait_for(pred, seconds):
        s = ""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            s = screen()
            if pred(s):
                return True, s
            time.sleep(0.05)
        return False, s

    try:
        control(port, "/_fake/advance", {"to": 12, "freeze": True})   # A pulls, B provisions
        env = ("AWS_ACCESS_KEY_ID=AKIDFAKE AWS_SECRET_ACCESS_KEY=fakesecret "
               "AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=%s "
               "AWS_SHARED_CREDENTIALS_FILE=%s XDG_CACHE_HOME=%s/cache "
               "AWS_ENDPOINT_URL_ECR=http://127.0.0.1:9 AWS_ENDPOINT_URL_STS=http://127.0.0.1:9 "
               "AWS_ENDPOINT_URL_SSO=http://127.0.0.1:9" % (empty, empty, tmp))
        cmd = ("env -u AWS_PROFILE -u AWS_REGION %s LANG=C.UTF-8 NO_COLOR=1 "
               "TERM=xterm-256color %s watch --cluster c --interval 1 --no-images "
               "--endpoint-url http://127.0.0.1:%d --region us-east-1; sleep 30"
               % (env, ECSPROF, port))
        subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "120", "-y", "24", cmd],
                       check=True)
        seen, s = wait_for(lambda s: A in s and B in s, 10)
        ok(seen, "the watch screen shows both tasks", s)
        time.sleep(2.5)   # two more refreshes, time frozen: nothing changed
        s = screen()
        ok(seen and A + "*" not in s and B + "*" not in s,
           "with nothing changed no task is marked", s)
        control(port, "/_fake/advance", {"to": 30, "freeze": True})   # A is RUNNING
        marked, s = wait_for(lambda s: A + "*" in s, 5)
        ok(marked, "the refresh that sees a task reach RUNNING marks it: '%s*'" % A, s)
        ok(marked and B + "*" not in s, "and not the task still provisioning", s)
        cleared, s = wait_for(lambda s: A in s and A + "*" not in s, 5)
        ok(marked and cleared, "a refresh later, nothing changed again, the mark is gone", s)
        # the mark is in the help's legend (in the table, '*' once meant a failed start)
        subprocess.run(tm + ["send-keys", "-t", "t", "?", "G"])
        shown, s = wait_for(lambda s: "Bars:" in s, 5)
        flat = " ".join(s.split())
        ok(shown and "* after an id: new or changed phase since the last poll" in flat,
           "watch's help says what '*' after an id is", s)
    finally:
        subprocess.run(tm + ["kill-server"], capture_output=True)
        srv.terminate()
        srv.wait()
    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%sok %d - %s" % ("" if good else "not ", i, name))
        if not good and detail:
            for l in detail.splitlines():
                print("# " + l)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
