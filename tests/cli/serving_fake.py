#!/usr/bin/env python3
"""TAP: time to serving against the fake ECS server (tests/fake_ecs.py), in real time: a
task turns HEALTHY some seconds after RUNNING and `ecsprof watch` sees it arrive (a second
line with healthy_at, ready_s, serving_s, marked observed with the poll interval as its
resolution); `watch --record` keeps it for `report`; the startup cost is computed by hand
here from the contract's formula."""
import csv
import io
import shutil
import json
import os
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from fakeserver import control  # noqa: E402
import datetime as dt

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))

# RUNNING 3 s after the server starts, HEALTHY 4 s later; the second task on ARM
SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"s": {
        "services": {"api": {"taskDefinition": "api:5", "desiredCount": 2, "created": -3600,
                             "deployments": [{"id": "ecs-svc/7", "status": "PRIMARY",
                                              "taskDefinition": "api:5", "created": -1,
                                              "desiredCount": 2}],
                             "events": [
                                 {"created": 1, "message": "(service api) has started 2 "
                                  "tasks: (task 11111111) (task 22222222)."},
                                 {"created": 8, "message": "(service api) registered 2 "
                                  "targets in (target-group arn:aws:elasticloadbalancing:"
                                  "us-east-1:123456789012:targetgroup/api/0123456789abcdef)"},
                                 {"created": 10, "message": "(service api) has reached a "
                                  "steady state."}]}},
        "tasks": [
            {"id": "1111111100000000000000000000000a", "service": "api", "family": "api",
             "revision": 5, "created": 0, "provision": 1, "pull": 1, "start": 1,
             "healthy": 4, "eni": True, "cpu": "512", "memory": "1024", "startedBy": "ecs-svc/7"},
            {"id": "2222222200000000000000000000000b", "service": "api", "family": "api",
             "revision": 5, "created": 0, "provision": 1, "pull": 1, "start": 1,
             "healthy": 6, "eni": True, "arch": "arm64", "cpu": "1024", "memory": "2048",
             "startedBy": "ecs-svc/7"},
        ]}}}

results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


EMPTY = os.path.join(tempfile.gettempdir(), "ecsprof-serving-empty-%d" % os.getpid())


def env():
    # record --service also asks the scale-out's sources (Application Auto Scaling,
    # CloudWatch, ELBv2): a closed local port, so that they are named missing and never
    # reach AWS
    closed = "http://127.0.0.1:9"
    return fakeserver.env(EMPTY, AWS_ENDPOINT_URL_APPLICATION_AUTO_SCALING=closed,
                          AWS_ENDPOINT_URL_CLOUDWATCH=closed,
                          AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2=closed)


def iso(s):
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def fnum(s):
    return float(s) if s not in ("", None) else None


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-serving-")
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
        rec = os.path.join(tmp, "rec.jsonl")
        # 12 polls 1 s apart: RUNNING at +3 s, HEALTHY at +7 s and +9 s
        p = subprocess.run([ECSPROF, "watch", "--cluster", "s", "--service", "api",
                            "--interval", "1", "--count", "12", "--format", "csv",
                            "--record", rec, "--endpoint-url", "http://127.0.0.1:%d" % port,
                            "--region", "us-east-1"], capture_output=True, text=True,
                           env=env(), timeout=90)
        ok(p.returncode == 0, "watch exits 0", p.stderr)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        a = [r for r in rows if r["task_id"].startswith("1111")]
        ok(len(a) == 2 and a[0]["healthy_at"] == "" and a[1]["healthy_at"] != "",
           "task a: a line at RUNNING, another when HEALTHY arrived", p.stdout)
        if len(a) == 2 and a[1]["healthy_at"]:
            h = a[1]
            ready, res = fnum(h["ready_s"]), fnum(h["healthy_resolution_s"])
            ok(h["healthy_source"] == "observed", "healthy_at is marked observed", repr(h))
            ok(ready is not None and 3.9 <= ready <= 6.5,
               "ready_s is about the 4 s the app took (poll resolution)", repr(h))
            ok(res is not None and 0 < res <= 1.6 and ready - res <= 4.1,
               "the resolution is the poll interval, and covers the true time", repr(h))
            ok(abs(fnum(h["serving_s"]) - (iso(h["healthy_at"]) - iso(h["created_at"]))) < 0.002,
               "serving_s = healthy_at - created_at", repr(h))
            billed = fnum(h["billed_startup_s"])
            ok(abs(billed - (iso(h["healthy_at"]) - iso(h["pull_started_at"]))) < 0.002,
               "billed_startup_s runs from the pull start to healthy", repr(h))
            # 0.5 vCPU, 1 GB, x86 us-east-1
            want = billed * (0.5 * 0.04048 + 1 * 0.004445) / 3600
            ok(h["startup_cost_usd"] == "%.6f" % want, "startup_cost_usd by hand",
               "%s vs %.6f" % (h["startup_cost_usd"], want))
        b = [r for r in rows if r["task_id"].startswith("2222") and r["healthy_at"]]
        if b:
            billed = fnum(b[0]["billed_startup_s"])
            want = billed * (1 * 0.03238 + 2 * 0.00356) / 3600   # ARM, 1 vCPU, 2 GB
            ok(b[0]["startup_cost_usd"] == "%.6f" % want, "ARM priced as ARM, by hand",
               "%s vs %.6f" % (b[0]["startup_cost_usd"], want))
        else:
            ok(False, "task b turned HEALTHY too", p.stdout)
        # the recording keeps the observation
        r = subprocess.run([ECSPROF, "report", "--format", "csv", rec], capture_output=True,
                           text=True, env=env(), timeout=60)
        got = {x["task_id"][:4]: x for x in csv.DictReader(io.StringIO(r.stdout))}
        ok(r.returncode == 0 and got.get("1111", {}).get("healthy_source") == "observed" and
           a and got["1111"]["healthy_at"] == a[-1]["healthy_at"],
           "watch --record keeps healthy_at for report", r.stdout + r.stderr)
        # and the summary shows the ready and serving phases
        r = subprocess.run([ECSPROF, "report", "--summary", rec], capture_output=True,
                           text=True, env=env(), timeout=60)
        ok(r.returncode == 0 and "\nready " in r.stdout and "\nserving " in r.stdout,
           "report --summary has the ready and serving phases", r.stdout + r.stderr)
        # deployments: measured from the deployment's start (t0 - 1 s); the tasks RUNNING
        # at t0 + 3 s, HEALTHY at +7 s and +9 s (observed by the polls), steady at +10 s
        live = ["--endpoint-url", "http://127.0.0.1:%d" % port, "--region", "us-east-1",
                "--cluster", "s", "--service", "api"]
        r = subprocess.run([ECSPROF, "tasks", "--deployments", "--format", "csv"] + live,
                           capture_output=True, text=True, env=env(), timeout=60)
        d = list(csv.DictReader(io.StringIO(r.stdout)))
        ok(r.returncode == 0 and len(d) == 1 and d[0]["deployment_id"] == "ecs-svc/7" and
           d[0]["tasks_started"] == "2" and d[0]["first_running_s"] == "4.000" and
           d[0]["all_running_s"] == "4.000" and d[0]["steady_state_s"] == "11.000",
           "tasks --deployments: DescribeServices deployments and events, live",
           r.stdout + r.stderr)
        r = subprocess.run([ECSPROF, "report", "--deployments", "--format", "csv", rec],
                           capture_output=True, text=True, env=env(), timeout=60)
        d = list(csv.DictReader(io.StringIO(r.stdout)))
        hs = fnum(d[0]["all_healthy_s"]) if d else None
        ok(r.returncode == 0 and len(d) == 1 and d[0]["steady_state_s"] == "11.000" and
           hs is not None and 10.0 <= hs <= 11.6,
           "watch --record kept the deployment, its events and the observed health",
           r.stdout + r.stderr)
        r = subprocess.run([ECSPROF, "report", "--deployments", rec], capture_output=True,
                           text=True, env=env(), timeout=60)
        ok("+9.0 s  (service api) registered 2 targets" in r.stdout and
           "+11.0 s  (service api) has reached a steady state." in r.stdout,
           "the service events are on the deployment's time line", r.stdout + r.stderr)
        rec2 = os.path.join(tmp, "rec2.jsonl")
        r = subprocess.run([ECSPROF, "record", "-o", rec2] + live, capture_output=True,
                           text=True, env=env(), timeout=60)
        lines = [json.loads(l) for l in open(rec2)] if r.returncode == 0 else []
        ok(sum(1 for l in lines if "deployment" in l) == 1 and
           sum(1 for l in lines if "event" in l) == 3 and
           sum(1 for l in lines if "task" in l) == 2,
           "record --service saves the deployment and event lines beside the tasks",
           r.stderr + repr(lines)[:2000])
        r = subprocess.run([ECSPROF, "record", "-o", rec2] + live, capture_output=True,
                           text=True, env=env(), timeout=60)
        ok(r.returncode == 0 and len(open(rec2).readlines()) == len(lines),
           "recording again duplicates no deployment or event", r.stderr)

        # the terminal UI: a fourth segment (ready) on the waterfall, in its legend
        if shutil.which("tmux") is None:
            ok(False, "tmux is installed", "apt-get install tmux")
        else:
            sock = "ecsprof-serving-%d" % os.getpid()
            tm = ["tmux", "-L", sock, "-f", "/dev/null"]
            cmd = ("env NO_COLOR=1 LANG=C TERM=xterm %s report --format tui %s; echo EXIT=$?; "
                   "sleep 30") % (ECSPROF, rec)
            subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "120", "-y", "24", cmd])
            screen = ""
            for _ in range(150):
                time.sleep(0.1)
                screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                                        capture_output=True, text=True).stdout
                if "ready" in screen:
                    break
            rows_a = [l for l in screen.splitlines() if l.startswith("11111111")]
            ok("-ready" in screen.replace(" ", "") or "- ready" in screen or "-ready" in screen,
               "the TUI legend names the ready segment", screen)
            ok(rows_a and "+-" in rows_a[0], "task a's bar ends in ready cells ('-')", screen)
            subprocess.run(tm + ["send-keys", "-t", "t", "q"])
            subprocess.run(tm + ["kill-server"], capture_output=True)
            # watch's status line counts the HEALTHY tasks beside the lastStatus counts
            e = " ".join("%s=%s" % (k, v) for k, v in env().items() if k.startswith("AWS_"))
            cmd = ("env %s NO_COLOR=1 LANG=C TERM=xterm %s watch --interval 1 %s; echo EXIT=$?; "
                   "sleep 30") % (e, ECSPROF, " ".join(live))
            tm = ["tmux", "-L", sock + "-watch", "-f", "/dev/null"]
            subprocess.run(tm + ["new-session", "-d", "-s", "w", "-x", "120", "-y", "24", cmd])
            for _ in range(150):
                time.sleep(0.1)
                screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "w"],
                                        capture_output=True, text=True).stdout
                if "HEALTHY" in screen:
                    break
            ok("RUNNING 2  HEALTHY 2" in screen, "the watch status line counts HEALTHY tasks",
               screen)
            subprocess.run(tm + ["send-keys", "-t", "w", "q"])
            subprocess.run(tm + ["kill-server"], capture_output=True)
    finally:
        srv.terminate()
        try:
            srv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srv.kill()
        os.unlink(EMPTY)
    print("1..%d" % len(results))
    for i, (c, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if c else "not ok", i, name))
        if not c and detail:
            for l in str(detail).splitlines()[:30]:
                print("# " + l)
    return 0 if all(c for c, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
