#!/usr/bin/env python3
"""TAP: `ecsprof watch` against the fake ECS server (tests/fake_ecs.py) with virtual time
moved on between polls: one line per task as it reaches RUNNING or STOPPED (CSV and JSON
Lines), Ctrl-C ends it with status 0, and the terminal UI in tmux shows the counts per
lastStatus and the time to N running."""
import csv
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))

SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"w": {
        "services": {"web": {"taskDefinition": "web:3", "desiredCount": 3, "created": -3600,
                             "deployments": [{"id": "ecs-svc/1", "status": "PRIMARY",
                                              "taskDefinition": "web:3", "created": -2,
                                              "desiredCount": 3}]}},
        "tasks": [
            {"id": "aaaaaaaa00000000000000000000000a", "service": "web", "family": "web",
             "revision": 3, "created": 0, "provision": 10, "pull": 10, "start": 5},
            {"id": "bbbbbbbb00000000000000000000000b", "service": "web", "family": "web",
             "revision": 3, "created": 5, "provision": 20, "pull": 20, "start": 5},
            {"id": "cccccccc00000000000000000000000c", "service": "web", "family": "web",
             "revision": 3, "created": 1, "provision": 10, "pull": 15, "failPull": True,
             "stopCode": "TaskFailedToStart",
             "stoppedReason": "CannotPullContainerError: i/o timeout"},
        ]},
        # issue 11 item 6: two tasks of the previous deployment, an hour old, still running
        # while the new deployment's two start (one running and healthy, one pulling)
        "o": {
            "services": {"web": {"taskDefinition": "web:4", "desiredCount": 2,
                                 "created": -7200,
                                 "deployments": [{"id": "ecs-svc/2", "status": "PRIMARY",
                                                  "taskDefinition": "web:4", "created": -2,
                                                  "desiredCount": 2}]}},
            "tasks": [
                {"id": "00000000000000000000000000000001", "service": "web", "family": "web",
                 "revision": 3, "created": -3600, "provision": 10, "pull": 10, "start": 5},
                {"id": "00000000000000000000000000000002", "service": "web", "family": "web",
                 "revision": 3, "created": -3590, "provision": 10, "pull": 10, "start": 5},
                {"id": "00000000000000000000000000000003", "service": "web", "family": "web",
                 "revision": 4, "created": 0, "provision": 10, "pull": 10, "start": 5,
                 "healthy": 5},
                {"id": "00000000000000000000000000000004", "service": "web", "family": "web",
                 "revision": 4, "created": 3, "provision": 10, "pull": 900, "start": 5},
            ]}}}

results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


EMPTY = os.path.join(tempfile.gettempdir(), "ecsprof-watch-empty-%d" % os.getpid())


FAKE_PORT = [0]   # the image lookups go to the fake's ECR side (tests/fake_ecr.py)


def env():
    return fakeserver.env(EMPTY, AWS_ENDPOINT_URL_ECR="http://127.0.0.1:%d" % FAKE_PORT[0],
                          XDG_CACHE_HOME=EMPTY + "-cache")


def watch_lines(port, fmt, record=None):
    """Runs watch for 6 polls, 1 s apart, moving virtual time on by 15 s per second."""
    control(port, "/_fake/advance", {"to": 0, "freeze": True})
    cmd = [ECSPROF, "watch", "--cluster", "w", "--service", "web", "--interval", "1",
           "--count", "6", "--format", fmt, "--endpoint-url", "http://127.0.0.1:%d" % port,
           "--region", "us-east-1"]
    if record:
        cmd += ["--record", record]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env())
    for _ in range(6):
        time.sleep(1.0)
        control(port, "/_fake/advance", {"seconds": 15, "freeze": True})
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err


def tmux_screen(sock, cmd, want, cols=100):
    """Starts cmd in a detached tmux on its own socket, returns the screen once it holds
    want (or after 5 s), then quits it with q."""
    tm = ["tmux", "-L", sock, "-f", "/dev/null"]
    subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", str(cols), "-y", "24", cmd])
    screen = ""
    for _ in range(50):
        time.sleep(0.1)
        screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                capture_output=True, text=True).stdout
        if want in screen:
            break
    subprocess.run(tm + ["send-keys", "-t", "t", "q"])
    time.sleep(0.3)
    subprocess.run(tm + ["kill-server"], capture_output=True)
    return screen


def tmux_after_keys(sock, cmd, want, keys, then, cols=160):
    """As tmux_screen, but once the screen holds want it types keys and returns the
    screen once it holds then (or after 5 s)."""
    tm = ["tmux", "-L", sock, "-f", "/dev/null"]
    subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", str(cols), "-y", "24", cmd])
    screen = ""
    for w, k in ((want, keys), (then, None)):
        for _ in range(50):
            time.sleep(0.1)
            screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                    capture_output=True, text=True).stdout
            if w in screen:
                break
        if k:
            subprocess.run(tm + ["send-keys", "-t", "t"] + k)
    subprocess.run(tm + ["send-keys", "-t", "t", "q"])
    time.sleep(0.3)
    subprocess.run(tm + ["kill-server"], capture_output=True)
    return screen


def status_line_runs(port, environ):
    """Issue 11 item 6: the previous deployment's two tasks (an hour old) still run while
    the new one's start: the status line counts the new ones, never 'none running yet'."""
    control(port, "/_fake/advance", {"to": 30, "freeze": True})
    e = " ".join("%s=%s" % (k, v) for k, v in environ.items()
                 if k.startswith("AWS_") or k == "NO_COLOR")
    base = ("env %s LANG=C.UTF-8 TERM=xterm-256color %s watch --cluster o --interval 1 "
            "--endpoint-url http://127.0.0.1:%d --region us-east-1") % (e, ECSPROF, port)
    sock = "ecsprof-wstatus-%d" % os.getpid()
    screen = tmux_screen(sock, base, "scale-out +")
    ok("RUNNING 3" in screen and "none running" not in screen and
       "scale-out +" in screen and ": 1 of 2 running  | " in screen,
       "watch without --service: the newest burst's tasks, not the hour-old ones", screen)
    # the time counts from the burst (created 0), not from -3600: under a minute here
    line = next((l for l in screen.splitlines() if "scale-out +" in l), "")
    ok(line and "m" not in line.split("+")[1].split(":")[0],
       "watch without --service counts from the scale-out, not the hour-old createdAt", line)
    screen = tmux_screen(sock + "-svc", base + " --service web", "deployment +")
    ok("deployment +" in screen and ": 1 of 2 running / 1 healthy  | " in screen,
       "watch --service: N of desired running / M healthy since the deployment", screen)
    # issue 11 item 2 in watch: a puts the bars on the axis of this deployment's tasks
    # (created 0 and 3, 30 s ago), not one stretched to the hour-old tasks' createdAt
    screen = tmux_after_keys(sock + "-axis", base + " --service web", "deployment +", ["a"],
                             "axis: scale-out")
    line = next((l for l in screen.splitlines() if "axis:" in l), "")
    span = line.split("axis: scale-out ")[1].split(" ")[0] if "axis: scale-out " in line else ""
    ok(span.endswith("s") and "m" not in span and "h" not in span,
       "watch: a puts the bars on the deployment's axis (%s), not the hour-old tasks' 1h"
       % (span or "?"), screen)
    screen = tmux_after_keys(sock + "-axis-all", base + " --service web", "deployment +",
                             ["a", "A"], "axis: all tasks")
    line = next((l for l in screen.splitlines() if "axis:" in l), "")
    ok("axis: all tasks 1h" in line or "axis: all tasks 60m" in line,
       "watch: A widens it to every task, the hour-old ones too (1h)", screen)
    control(port, "/_fake/advance", {"to": 1000, "freeze": True})
    screen = tmux_screen(sock + "-done", base + " --service web", "all after")
    ok("deployment: 2 of 2 running / 1 healthy, all after 15m20s  | RUNNING 4" in screen,
       "watch --service, all desired running: the time it took, frozen", screen)


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-watch-")
    open(EMPTY, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    srv_err = open(os.path.join(tmp, "fake.err"), "w+")
    try:
        srv, port = fakeserver.start("fake_ecs.py", ["--scenario", scen], stderr=srv_err)
    except RuntimeError as e:
        print("1..1\nnot ok 1 - %s" % e)
        return 1
    try:
        FAKE_PORT[0] = port

        # 1. CSV lines, one per task as it reaches RUNNING or STOPPED
        rec = os.path.join(tmp, "rec.jsonl")
        rc, out, err = watch_lines(port, "csv", record=rec)
        ok(rc == 0, "watch --format csv exits 0 after --once polls", err)
        rows = list(csv.DictReader(io.StringIO(out)))
        ok(out.count("task_arn,") == 1, "one CSV header", out)
        by = {}
        for r in rows:
            by.setdefault(r["task_id"], []).append(r["last_status"])
        ok(by.get("aaaaaaaa00000000000000000000000a") == ["RUNNING"],
           "task a: exactly one line, when it reached RUNNING", repr(by))
        ok(by.get("bbbbbbbb00000000000000000000000b") == ["RUNNING"],
           "task b: exactly one line, when it reached RUNNING", repr(by))
        ok(by.get("cccccccc00000000000000000000000c") == ["STOPPED"],
           "task c: one line when it stopped (failed pull)", repr(by))
        a = [r for r in rows if r["task_id"].startswith("aaaa")]
        ok(a and a[0]["total_s"] == "25.000", "the RUNNING line carries the phases", repr(a))
        # 2. --record saved what it saw, readable by report
        p = subprocess.run([ECSPROF, "report", "--format", "csv", rec], capture_output=True,
                           text=True, env=env(), timeout=60)
        ok(p.returncode == 0 and len(list(csv.DictReader(io.StringIO(p.stdout)))) == 3,
           "--record FILE holds the 3 tasks, and report reads it", p.stderr)

        # 3. JSON Lines
        rc, out, err = watch_lines(port, "json")
        objs = []
        try:
            objs = [json.loads(l) for l in out.splitlines() if l.strip()]
        except ValueError as e:
            err += str(e)
        ok(rc == 0 and len(objs) == 3 and
           sorted(o["last_status"] for o in objs) == ["RUNNING", "RUNNING", "STOPPED"],
           "watch --format json: one JSON object per line per transition", out + err)

        # 3b. --format table / markdown: no lines, the last poll's table once at the end
        for fmt, head in (("table", "TASK "), ("markdown", "| TASK | TASKDEF |")):
            rc, out, err = watch_lines(port, fmt)
            lines = out.splitlines()
            ok(rc == 0 and lines and lines[0].startswith(head) and
               sum(l.startswith(head) for l in lines) == 1 and "task_arn," not in out and
               all(t in out for t in ("aaaaaaaa", "bbbbbbbb", "cccccccc")) and
               "STOPPED" in out,
               "watch --format %s: one table of the last poll's tasks, not CSV" % fmt,
               out + err)

        # 4. Ctrl-C ends a watch without --once, cleanly
        control(port, "/_fake/advance", {"to": 0, "freeze": True})
        p = subprocess.Popen([ECSPROF, "watch", "--cluster", "w", "--interval", "1",
                              "--format", "csv", "--endpoint-url",
                              "http://127.0.0.1:%d" % port, "--region", "us-east-1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=5)
            ok(p.returncode == 0, "Ctrl-C ends watch with status 0", err)
        except subprocess.TimeoutExpired:
            p.kill()
            ok(False, "Ctrl-C ends watch with status 0", "still running 5 s after SIGINT")

        # 5. the terminal UI in tmux: counts per lastStatus, time to N running, q quits
        if shutil.which("tmux") is None:
            ok(False, "tmux is installed", "apt-get install tmux")
        elif not stat.S_ISCHR(os.stat("/dev/null").st_mode):
            # tmux cannot start its server then; seen when a program renamed a file over it
            ok(False, "/dev/null is a character device (tmux needs it)", "it is a regular file")
        else:
            control(port, "/_fake/advance", {"to": 100, "freeze": True})
            sock = "ecsprof-watch-%d" % os.getpid()
            tm = ["tmux", "-L", sock, "-f", "/dev/null"]
            e = " ".join("%s=%s" % (k, v) for k, v in env().items()
                         if k.startswith("AWS_") or k == "NO_COLOR")
            cmd = ("env %s LANG=C.UTF-8 TERM=xterm-256color %s watch --cluster w --service web "
                   "--interval 1 --endpoint-url http://127.0.0.1:%d --region us-east-1; "
                   "echo EXIT=$?; sleep 30") % (e, ECSPROF, port)
            subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "80", "-y", "24", cmd])
            screen = ""
            for _ in range(50):
                time.sleep(0.1)
                screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                        capture_output=True, text=True).stdout
                if "RUNNING 2" in screen:
                    break
            ok("RUNNING 2" in screen and "STOPPED 1" in screen,
               "watch UI counts tasks per lastStatus", screen)
            ok("deployment +" in screen and ": 2 of 3 running / 0 healthy, 1 failed  |" in screen,
               "watch UI shows N of desired running / healthy since the deployment", screen)
            subprocess.run(tm + ["send-keys", "-t", "t", "q"])
            for _ in range(30):
                time.sleep(0.1)
                screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                        capture_output=True, text=True).stdout
                if "EXIT=" in screen:
                    break
            ok("EXIT=0" in screen, "q quits watch with status 0", screen)
            subprocess.run(tm + ["kill-server"], capture_output=True)

            # --count 1 in the UI: one poll, then the screen stays without polling again
            tm = ["tmux", "-L", sock + "-count", "-f", "/dev/null"]
            subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                                 cmd.replace("--interval 1", "--interval 0.3 --count 1")])
            for _ in range(50):
                time.sleep(0.1)
                screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                        capture_output=True, text=True).stdout
                if "RUNNING 2" in screen:
                    break
            before = control(port, "/_fake/stats")["ops"].get("ListTasks", 0)
            time.sleep(1.5)
            after = control(port, "/_fake/stats")["ops"].get("ListTasks", 0)
            ok("RUNNING 2" in screen and after == before,
               "watch UI with --count 1 stops polling and keeps the screen",
               "ListTasks %d -> %d\n%s" % (before, after, screen))
            subprocess.run(tm + ["send-keys", "-t", "t", "q"])
            time.sleep(0.5)
            subprocess.run(tm + ["kill-server"], capture_output=True)
            status_line_runs(port, env())
    except Exception as e:
        srv_err.seek(0)
        ok(False, "the test ran to its end", "%r\nfake_ecs stderr:\n%s" % (e, srv_err.read()[-3000:]))
    finally:
        srv.kill()
        srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)
        os.unlink(EMPTY)
        shutil.rmtree(EMPTY + "-cache", ignore_errors=True)

    print("1..%d" % len(results))
    bad = 0
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good:
            bad = 1
            for l in str(detail).splitlines()[:30]:
                print("#   " + l)
    return bad


if __name__ == "__main__":
    sys.exit(main())
