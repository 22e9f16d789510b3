#!/usr/bin/env python3
"""TAP: what a `watch` poll asks ECS (issue 16 item 4). On a steady 3,000-task service a
poll after the first describes only the tasks that are new or can still change: its
ListTasks pages and DescribeServices, at most 35 requests, and --verbose says per poll how
many it made (checked against the fake server's own count). A task that starts, stops or
turns HEALTHY during the watch is still described and gets its line."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))

results = []
TMP = tempfile.mkdtemp(prefix="ecsprof-watchreq-")

# steady: 3,000 tasks started 10 to 20 minutes ago, of a task definition without a health
# check, plus one task that starts during the watch (aaaa) and one that stops (bbbb).
# hc: one task whose task definition has a health check; it turns HEALTHY at about +2.5 s.
SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "taskDefinitions": {"web:1": {}, "hc:1": {"healthCheck": True}},
    "clusters": {
        "steady": {
            "services": {"web": {}},
            "tasks": [
                {"id": "aaaa0000000000000000000000000001", "service": "web", "family": "web",
                 "created": 0.5, "provision": 0.5, "pull": 0.5, "start": 0.5},
                {"id": "bbbb0000000000000000000000000002", "service": "web", "family": "web",
                 "created": -700, "provision": 10, "pull": 5, "start": 1, "stop_after": 685},
            ],
            "generate": {"count": 3000, "service": "web", "seed": 11, "spread": 600,
                         "age": 600},
        },
        "hc": {
            "services": {"api": {}},
            "tasks": [
                {"id": "cccc0000000000000000000000000003", "service": "api", "family": "hc",
                 "created": -20, "provision": 1, "pull": 1, "start": 0.5, "healthy": 20},
            ],
        },
    },
}

POLL = re.compile(r"watch: poll (\d+): (\d+) requests \((\d+) ListTasks pages, (\d+) "
                  r"DescribeTasks\); (\d+) tasks described, (\d+) unchanged")


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def env():
    return fakeserver.env(os.path.join(TMP, "none"))


def stats(port):
    return control(port, "/_fake/stats")


def watch(port, cluster, service, count):
    # each watch starts at the scenario's t0, the clock running from there
    control(port, "/_fake/advance", {"to": 0})
    return subprocess.run([ECSPROF, "watch", "--cluster", cluster, "--service", service,
                           "--interval", "1", "--count", str(count), "--format", "csv",
                           "--no-images", "--verbose",
                           "--endpoint-url", "http://127.0.0.1:%d" % port,
                           "--region", "us-east-1"],
                          capture_output=True, text=True, env=env(), timeout=120)


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    scen = os.path.join(TMP, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    srv, port = fakeserver.start("fake_ecs.py", ["--scenario", scen])
    try:

        before = stats(port)["requests"]
        p = watch(port, "steady", "web", 5)
        after = stats(port)["requests"]
        ok(p.returncode == 0, "watch over 3,002 tasks exits 0", p.stderr[-2000:])
        polls = [tuple(int(x) for x in m.groups()) for m in POLL.finditer(p.stderr)]
        ok(len(polls) == 5 and [q[0] for q in polls] == [1, 2, 3, 4, 5],
           "--verbose: one requests line per poll", p.stderr[-2000:])
        ok(sum(q[1] for q in polls) == after - before,
           "the requests it reports are those the server counted",
           "%s vs %d" % ([q[1] for q in polls], after - before))
        if polls:
            ok(polls[0][4] >= 3001, "the first poll describes every task", repr(polls[0]))
        later = polls[1:]
        ok(later and all(q[1] <= 35 for q in later),
           "every later poll makes at most 35 requests", repr(later))
        ok(later and all(q[5] >= 3000 and q[4] <= 2 for q in later),
           "later polls describe only the tasks that can change", repr(later))
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        ok(len({r["task_id"] for r in rows}) == 3002, "a line for every task",
           "%d tasks" % len({r["task_id"] for r in rows}))
        a = [r for r in rows if r["task_id"].startswith("aaaa")]
        ok(len(a) == 1 and a[0]["started_at"] != "",
           "a task that starts during the watch gets its RUNNING line", repr(a))
        b = [r for r in rows if r["task_id"].startswith("bbbb")]
        ok(len(b) == 2 and b[0]["stopped_at"] == "" and b[1]["stopped_at"] != "",
           "a task that stops during the watch (listed STOPPED now) gets its line", repr(b))

        p = watch(port, "hc", "api", 5)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        c = [r for r in rows if r["task_id"].startswith("cccc")]
        ok(p.returncode == 0 and len(c) == 2 and c[0]["healthy_at"] == "" and
           c[1]["healthy_at"] != "",
           "a running task with a health check is described until HEALTHY",
           p.stdout + p.stderr[-1500:])
        polls = [tuple(int(x) for x in m.groups()) for m in POLL.finditer(p.stderr)]
        ok(polls and polls[-1][4] == 0 and polls[-1][5] == 1,
           "and not once it is", repr(polls))
    except Exception as e:  # a broken harness is a failure, never a skip
        ok(False, "harness", repr(e))
    finally:
        srv.kill()
        srv.wait()
        shutil.rmtree(TMP, ignore_errors=True)
    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
