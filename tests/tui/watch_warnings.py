#!/usr/bin/env python3
"""TAP (issue 30 item 1): nothing writes over watch's full-screen view. Against the fake ECS
(tests/fake_ecs.py) with a task whose pull ends before it begins, `ecsprof watch` in tmux
keeps its title and column header through several polls, no `ecsprof: warning` reaches the
screen, the bottom line shows the latest warning and their count, w lists them (the key is
in the ? help), and once quit the warning is printed on stderr once, in good grammar."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
import tap  # noqa: E402
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")

SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"w": {
        "services": {"web": {"taskDefinition": "web:3", "desiredCount": 2, "created": -3600}},
        "tasks": [
            {"id": "aaaaaaaa00000000000000000000000a", "service": "web", "family": "web",
             "revision": 3, "created": 0, "provision": 10, "pull": 10, "start": 5},
            # the pull ends 5 s before it begins: clock skew in the data
            {"id": "bbbbbbbb00000000000000000000000b", "service": "web", "family": "web",
             "revision": 3, "created": 2, "provision": 10, "pull": -5, "start": 20},
        ]}}}

TAP = tap.Tap()
ok = TAP.ok


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    if shutil.which("tmux") is None:
        print("1..1\nnot ok 1 - tmux is installed")
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-wwarn-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    srv_err = open(os.path.join(tmp, "fake.err"), "w+")
    try:
        srv, port = fakeserver.start("fake_ecs.py", ["--scenario", scen], stderr=srv_err)
    except RuntimeError as e:
        print("1..1\nnot ok 1 - %s" % e)
        return 1
    sock = "ecsprof-wwarn-%d" % os.getpid()
    tm = ["tmux", "-L", sock, "-f", "/dev/null"]

    def screen():
        return subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                              capture_output=True, text=True).stdout

    def wait_for(pred, secs):
        s = ""
        for _ in range(int(secs * 10)):
            time.sleep(0.1)
            s = screen()
            if pred(s):
                return True, s
        return False, s

    try:
        control(port, "/_fake/advance", {"to": 100, "freeze": True})
        e = " ".join("%s=%s" % (k, v) for k, v in
                     fakeserver.env(empty, XDG_CACHE_HOME=tmp + "/cache").items()
                     if k.startswith("AWS_") or k in ("NO_COLOR", "XDG_CACHE_HOME"))
        # stderr is the terminal, as a user has it: what is printed after quitting is on
        # the pane once the screen is closed
        cmd = ("env %s LANG=C.UTF-8 TERM=xterm-256color %s watch --cluster w --service web "
               "--no-images --interval 0.5 --endpoint-url http://127.0.0.1:%d --region us-east-1; "
               "echo EXIT=$?; sleep 30") % (e, ECSPROF, port)
        subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "100", "-y", "24",
                             "bash -c '%s'" % cmd.replace("'", "'\\''")])
        got, s = wait_for(lambda s: "RUNNING 2" in s, 10)
        ok(got, "watch shows the tasks", s)
        time.sleep(2.5)   # five polls or so, each meeting the skewed task again
        s = screen()
        lines = s.splitlines()
        ok(lines and "watch w / web" in lines[0], "the title stays on the first line", s)
        ok(any("TASK" in l and "STATUS" in l for l in lines[:4]),
           "the column header stays", s)
        ok(len(lines) > 1 and "| every 0.5s" in lines[1],
           "the status line says 'every 0.5s', not 'every 0.500s' (item 10)", s)
        ok("ecsprof: warning" not in s and "RUNNISIONING" not in s,
           "no warning is written over the screen", s)
        last = lines[-1] if lines else ""
        ok("1 warning" in last and "w: list" in last and "phase ends before it begins" in last,
           "the bottom line has the latest warning, the count and the key", s)
        subprocess.run(tm + ["send-keys", "-t", "t", "w"])
        got, s = wait_for(lambda s: "printed on standard error" in s, 5)
        ok(got and "- 1 phase ends before it begins" in s, "w lists the warnings", s)
        subprocess.run(tm + ["send-keys", "-t", "t", "q"])   # back to the tasks
        time.sleep(0.3)
        subprocess.run(tm + ["send-keys", "-t", "t", "?"])
        got, s = wait_for(lambda s: "Keys" in s, 5)
        ok(got and "the warnings held" in s, "the ? help names w", s)
        subprocess.run(tm + ["send-keys", "-t", "t", "Escape"])
        time.sleep(0.3)
        subprocess.run(tm + ["send-keys", "-t", "t", "q"])
        got, s = wait_for(lambda s: "EXIT=" in s, 10)
        ok("EXIT=0" in s, "q quits with status 0", s)
        err = subprocess.run(tm + ["capture-pane", "-p", "-J", "-S", "-", "-t", "t"],
                             capture_output=True, text=True).stdout
        n = err.count("ecsprof: warning:")
        ok(n == 1 and "warning: 1 phase ends before it begins (clock skew" in err,
           "the warning is printed once after quitting, in good grammar", err)
        # stderr a file, not the terminal: the held log writes through at once, and a
        # --debug trace reads as without a view, one "ecsprof: debug: " on its first line
        # (each of its lines got a second one)
        errfile = os.path.join(tmp, "debug.err")
        subprocess.run(tm + ["new-session", "-d", "-s", "d", "-x", "100", "-y", "24",
                             "bash -c '%s'" % cmd.replace("'", "'\\''").replace(
                                 " watch ", " watch --debug ").replace(
                                 "; echo", " 2>%s; echo" % errfile)])
        for _ in range(100):
            time.sleep(0.1)
            if "RUNNING 2" in subprocess.run(tm + ["capture-pane", "-p", "-t", "d"],
                                             capture_output=True, text=True).stdout:
                break
        time.sleep(1)
        subprocess.run(tm + ["send-keys", "-t", "d", "q"])
        time.sleep(1)
        with open(errfile) as f:
            dbg = f.read()
        ok("ListTasks canonical request:\n" in dbg and "\n< HTTP 200\n" in dbg
           and "debug: ecsprof" not in dbg and "ecsprof: debug: < HTTP" not in dbg
           and "warning: 1 phase ends before it begins" in dbg,
           "--debug to a file under the view: each trace line as without the view",
           dbg[:1500])
    except Exception as ex:
        srv_err.seek(0)
        ok(False, "the test ran to its end", "%r\nfake_ecs stderr:\n%s" % (ex, srv_err.read()[-3000:]))
    finally:
        subprocess.run(tm + ["kill-server"], capture_output=True)
        srv.kill()
        srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)

    return TAP.report()


if __name__ == "__main__":
    sys.exit(main())
