#!/usr/bin/env python3
"""TAP: `ecsprof experiment` end to end against the fake ECS server (tests/fake_ecs.py),
as a user runs it: two arms whose task definitions have known pull times (no-soci 30/32 s,
soci 6/8 s; the fake's clock runs 20x real time). Checks that RunTask alternates the arms
round by round, every task is STOPPED at the end, the summary's pull p50 per arm is the
fake's, --dry-run sends no RunTask, and --max-tasks below the plan is refused (exit 2)
before any RunTask, SIGINT mid-way leaves no task running, and SIGINT during a DescribeTasks
poll that the server holds for 20 s ends the run within seconds, still stopping every task.
The plan's estimated cost follows the region (a second fake in ap-northeast-1) and
--prices."""
import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys
import signal
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))

SCENARIO = {
    "speed": 20,
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"exp": {"tasks": []}, "intr": {"tasks": []}, "slow": {"tasks": []},
                 "bad": {"tasks": []}, "bad2": {"tasks": []}, "bad3": {"tasks": []},
                 "bad4": {"tasks": []}},
    "taskDefinitions": {
        "web:7": {"provision": 2, "pull": [30, 32], "start": 1, "cpu": "1024",
                  "memory": "2048"},
        "web:8": {"provision": 2, "pull": [6, 8], "start": 1, "cpu": "1024",
                  "memory": "2048"}}}
# health-checked task definitions, on a fake whose clock is the real one (healthy_at is a
# poll's fetched_at, which a faster clock would put before startedAt): HEALTHY 2 s (api:1)
# or 4 s (api:2) after RUNNING
HC_SCENARIO = {
    "speed": 1,
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"hc": {"tasks": []}},
    "taskDefinitions": {
        "api:1": {"provision": 1, "pull": [1], "start": 1, "cpu": "1024", "memory": "2048",
                  "healthCheck": True, "healthyAfter": 2},
        "api:2": {"provision": 1, "pull": [1], "start": 1, "cpu": "1024", "memory": "2048",
                  "healthCheck": True, "healthyAfter": 4}}}
# 8 tasks of 1 vCPU and 2 GB for the plan's typical 5 minutes, at the built-in prices
# (src/model/cost.c) per vCPU-hour and GB-hour
TYPICAL_H = 300 / 3600.0
COST_US_EAST_1 = 8 * TYPICAL_H * (0.04048 + 2 * 0.004445)
COST_AP_NORTHEAST_1 = 8 * TYPICAL_H * (0.05056 + 2 * 0.00553)

results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


EMPTY = os.path.join(tempfile.gettempdir(), "ecsprof-experiment-empty-%d" % os.getpid())


def env():
    return fakeserver.env(EMPTY)


def experiment_cmd(port, tmp, extra, out="rec.jsonl", cluster="exp", region="us-east-1"):
    return [ECSPROF, "experiment", "--cluster", cluster, "--arm", "no-soci=web:7",
            "--arm", "soci=web:8", "-n", "4", "--subnets", "subnet-1", "--yes",
            "-o", os.path.join(tmp, out), "--interval", "0.2", "--no-images",
            "--format", "csv", "--endpoint-url", "http://127.0.0.1:%d" % port,
            "--region", region] + extra


def experiment(port, tmp, extra, out="rec.jsonl", region="us-east-1"):
    return subprocess.run(experiment_cmd(port, tmp, extra, out, region=region),
                          capture_output=True, text=True, env=env(), timeout=120)


def start_fake(tmp, scenario, name):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    err = open(os.path.join(tmp, name + ".err"), "w+")
    srv, port = fakeserver.start("fake_ecs.py", ["--scenario", path], stderr=err)
    return srv, err, port


def planned_cost(text):
    m = re.search(r"estimated cost: about \$([0-9.]+)", text)
    return float(m.group(1)) if m else None

# The README's example (README.md, "Before and after, in one command") is run against
# this scenario, so its sample cannot drift from what the command prints.
README_SCENARIO = {
    "speed": 20,
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"prod": {"tasks": []}},
    "taskDefinitions": {
        "checkout-api:7": {"provision": [18.2, 24.7, 21.3, 27.9, 19.6, 23.1],
                           "pull": [71.4, 65.2, 78.9, 69.3, 74.6, 67.8],
                           "start": [4.1, 3.6, 5.2, 4.4, 3.9, 4.8],
                           "connectivity": [8.1, 12.4, 9.7, 14.2, 10.3, 11.6],
                           "cpu": "512", "memory": "1024"},
        "checkout-api:8": {"provision": [20.4, 22.8, 18.9, 26.1, 21.7, 24.3],
                           "pull": [2.8, 3.9, 2.1, 4.4, 3.2, 2.6],
                           "start": [7.2, 6.1, 8.4, 6.8, 7.7, 6.5],
                           "connectivity": [9.2, 11.8, 8.6, 13.1, 10.9, 12.2],
                           "cpu": "512", "memory": "1024"}}}


def readme_example():
    """The README's '$ ecsprof experiment ...' line and the sample under it (unindented)."""
    lines = open(os.path.join(SRCDIR, "README.md"), encoding="utf-8").read().split("\n")
    i = next((k for k, l in enumerate(lines) if l.startswith("    $ ecsprof experiment ")), None)
    if i is None:
        return None, []
    sample = []
    for l in lines[i + 1:]:
        if l and not l.startswith("    "):
            break
        sample.append(l[4:])
    return lines[i][len("    $ ecsprof "):], sample


def lines_in_order(actual, sample):
    """None when every non-empty sample line is in actual, in order ('...' at the end of a
    sample line: a prefix; a line '...' alone: anything); else the first line missing."""
    i = 0
    for want in [l for l in sample if l and l != "..."]:
        prefix = want[:-4] if want.endswith(" ...") else None
        while i < len(actual) and not (actual[i] == want or
                                       (prefix and actual[i].startswith(prefix))):
            i += 1
        if i == len(actual):
            return want
        i += 1
    return None


def arm_of(run):
    return {g["key"]: g["value"] for g in run.get("tags") or []}.get("ecsprof:arm")


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-experiment-")
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

        # safety first, while the fake has seen no RunTask at all
        p = experiment(port, tmp, ["--dry-run"], out="dry.jsonl")
        ok(p.returncode == 0 and "2 arms x 4 tasks = 8 tasks" in p.stderr + p.stdout,
           "--dry-run exits 0 and shows the plan", p.stdout + p.stderr)
        ok(control(port, "/_fake/runtask")["runs"] == [], "--dry-run sends no RunTask",
           repr(control(port, "/_fake/runtask")))
        # the estimate: the built-in table's row for the region, or --prices
        c = planned_cost(p.stderr + p.stdout)
        ok(c is not None and abs(c - COST_US_EAST_1) < 0.00006 and
           "us-east-1: x86_64 $0.04048 per vCPU-hour, $0.004445 per GB-hour (built-in)"
           in p.stdout, "--dry-run: the estimate is us-east-1's built-in price (about $%.4f)"
           % COST_US_EAST_1, p.stdout)
        # --timeout is the wait for each task (the contract's one meaning): the plan says
        # it, and the highest estimate bills each task until it and a minute more
        p = experiment(port, tmp, ["--dry-run", "--timeout", "90s"], out="dry.jsonl")
        m = re.search(r"at most \$([0-9.]+)", p.stdout)
        worst = 8 * (150 / 3600.0) * (0.04048 + 2 * 0.004445)
        ok(p.returncode == 0 and "at most 90s (--timeout)" in p.stdout and m and
           abs(float(m.group(1)) - worst) < 0.00006,
           "--timeout 90s: the plan's wait and its highest cost (about $%.4f)" % worst,
           p.stdout + p.stderr)
        prices = os.path.join(tmp, "prices.txt")
        with open(prices, "w") as f:
            f.write("# a made-up price, to see that it is the one used\n"
                    "us-east-1 x86_64 FARGATE 1.0 0\n")
        p = experiment(port, tmp, ["--dry-run", "--prices", prices], out="dry.jsonl")
        c = planned_cost(p.stdout)
        ok(p.returncode == 0 and c is not None and abs(c - 8 * TYPICAL_H) < 0.00006 and
           "(--prices)" in p.stdout, "--prices replaces the built-in price in the estimate",
           p.stdout + p.stderr)
        srv2, err2, port2 = start_fake(tmp, dict(SCENARIO, region="ap-northeast-1"), "tokyo")
        try:
            p = experiment(port2, tmp, ["--dry-run"], out="dry.jsonl", region="ap-northeast-1")
        finally:
            srv2.terminate()
            srv2.wait(timeout=10)
            err2.close()
        c = planned_cost(p.stdout)
        ok(p.returncode == 0 and c is not None and abs(c - COST_AP_NORTHEAST_1) < 0.00006
           and "ap-northeast-1: x86_64 $0.05056" in p.stdout,
           "another region changes the estimate (ap-northeast-1: about $%.4f, not $%.4f)"
           % (COST_AP_NORTHEAST_1, COST_US_EAST_1), p.stdout + p.stderr)

        p = experiment(port, tmp, ["--max-tasks", "7"], out="max.jsonl")
        ok(p.returncode == 2 and "--max-tasks" in p.stderr,
           "--max-tasks 7 below the plan of 8 is refused with exit 2", p.stderr)
        ok(control(port, "/_fake/runtask")["runs"] == [], "--max-tasks refused: no RunTask sent")

        # the run itself
        p = experiment(port, tmp, [])
        ok(p.returncode == 0, "experiment exits 0", p.stderr)
        runs = control(port, "/_fake/runtask")["runs"]
        arms = [arm_of(r) for r in runs]
        tds = [r.get("taskDefinition") for r in runs]
        ok(arms == ["no-soci", "soci"] * 4 and tds == ["web:7", "web:8"] * 4 and
           all(int(r.get("count", 1)) == 1 for r in runs),
           "RunTask alternates the arms by round (4 rounds of 1 per arm)",
           repr(list(zip(arms, tds))))
        state = control(port, "/_fake/state/exp")["tasks"]
        mine = [t for t in state if t["tags"].get("ecsprof:arm")]
        ok(len(mine) == 8, "8 tasks were started", repr(state))
        ok(mine and all(t["desiredStatus"] == "STOPPED" for t in mine),
           "StopTask was sent for every task by the time experiment exits", repr(state))
        # a stopped task goes through DEPROVISIONING first, on the fake's (20x) clock
        for _ in range(50):
            mine = [t for t in control(port, "/_fake/state/exp")["tasks"]
                    if t["tags"].get("ecsprof:arm")]
            if mine and all(t["lastStatus"] == "STOPPED" for t in mine):
                break
            time.sleep(0.1)
        ok(len(mine) == 8 and all(t["lastStatus"] == "STOPPED" for t in mine),
           "every task is STOPPED at the end", repr(mine))
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        pull = {r["group"]: r for r in rows if r.get("phase") == "pull"}
        # the fake cycles [30, 32] and [6, 8]: p50 of 30,32,30,32 is 31, of 6,8,6,8 is 7
        ok(pull.get("no-soci", {}).get("p50_s") == "31.000" and
           pull.get("no-soci", {}).get("n") == "4",
           "no-soci pull p50 is the fake's 31 s over 4 tasks", repr(pull.get("no-soci")))
        ok(pull.get("soci", {}).get("p50_s") == "7.000" and pull.get("soci", {}).get("n") == "4"
           and pull.get("soci", {}).get("baseline") == "no-soci" and
           pull.get("soci", {}).get("p50_delta_s") == "-24.000",
           "soci pull p50 is the fake's 7 s, 24 s below the baseline", repr(pull.get("soci")))
        rec = [json.loads(l) for l in open(os.path.join(tmp, "rec.jsonl"))]
        ok(sum(1 for l in rec if "task" in l) >= 8, "the recording keeps every task",
           repr(rec)[:2000])

        # --until healthy: the polls that saw HEALTHY arrive give healthy_at (observed, to
        # within a poll of 0.3 s), and it outlives the StopTask answer recorded after it
        hsrv, herr, hport = start_fake(tmp, HC_SCENARIO, "hc")
        try:
            p = subprocess.run([ECSPROF, "experiment", "--cluster", "hc", "--arm",
                                "fast=api:1", "--arm", "slow=api:2", "-n", "2", "--subnets",
                                "subnet-1", "--yes", "-o", os.path.join(tmp, "hc.jsonl"),
                                "--interval", "0.3", "--no-images", "--until", "healthy",
                                "--format", "csv", "--endpoint-url",
                                "http://127.0.0.1:%d" % hport, "--region", "us-east-1"],
                               capture_output=True, text=True, env=env(), timeout=120)
        finally:
            hsrv.terminate()
            hsrv.wait(timeout=10)
            herr.close()
        r = subprocess.run([ECSPROF, "report", "--format", "csv",
                            os.path.join(tmp, "hc.jsonl")],
                           capture_output=True, text=True, env=env(), timeout=60)
        ready = {}
        for row in csv.DictReader(io.StringIO(r.stdout)):
            ready.setdefault(row["taskdef"], []).append(row)

        def ready_ok(rows, after):
            return len(rows) == 2 and all(
                x["healthy_source"] == "observed" and
                after <= float(x["ready_s"] or -1) <= after + 1.5 and
                0 < float(x["healthy_resolution_s"] or -1) <= 1.5 for x in rows)
        ok(p.returncode == 0 and r.returncode == 0 and ready_ok(ready.get("api:1", []), 2) and
           ready_ok(ready.get("api:2", []), 4),
           "--until healthy: each task's healthy_at observed by the polls, kept past StopTask "
           "(ready 2 s and 4 s after RUNNING, to within a poll)",
           "rc %s/%s\n%s\n%s" % (p.returncode, r.returncode, p.stderr[-1500:], r.stdout))

        # one malformed task in a DescribeTasks answer (a string createdAt): that time is
        # ignored with one warning, the experiment goes on and stops every task
        control(port, "/_fake/inject", {"bad_task": 1, "ops": ["DescribeTasks"]})
        p = subprocess.run(experiment_cmd(port, tmp, [], out="bad.jsonl", cluster="bad"),
                           capture_output=True, text=True, env=env(), timeout=120)
        control(port, "/_fake/inject", {"bad_task": 0, "ops": []})
        state = [t for t in control(port, "/_fake/state/bad")["tasks"]
                 if t["tags"].get("ecsprof:arm")]
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        pull = {r["group"]: r for r in rows if r.get("phase") == "pull"}
        ok(p.returncode == 0 and p.stderr.count("ignored createdAt") == 1 and
           "DescribeTasks: task " in p.stderr and "skipped" not in p.stderr and pull.get("soci", {}).get("n") == "4" and
           pull.get("no-soci", {}).get("n") == "4",
           "a malformed task in a poll: one warning, the experiment goes on to the end",
           "rc %s\n%s" % (p.returncode, p.stderr))
        ok(len(state) == 8 and all(t["desiredStatus"] == "STOPPED" for t in state),
           "a malformed task in a poll: all %d started tasks stopped" % len(state),
           repr(state))
        # the same task unreadable in every poll (the fake spoils the first task of each
        # DescribeTasks answer, and the first not done stays first): one warning in all,
        # not one per poll; the task is polled until --timeout, then stopped like the rest
        control(port, "/_fake/inject", {"unreadable_task": 100000, "ops": ["DescribeTasks"]})
        stats0 = control(port, "/_fake/stats")
        t0 = time.time()
        p = subprocess.run(experiment_cmd(port, tmp, ["--timeout", "4s", "-v"], out="bad2.jsonl",
                                          cluster="bad2"),
                           capture_output=True, text=True, env=env(), timeout=120)
        secs = time.time() - t0
        stats1 = control(port, "/_fake/stats")
        control(port, "/_fake/inject", {"unreadable_task": 0, "ops": []})
        polls = (stats1["ops"].get("DescribeTasks", 0) - stats0["ops"].get("DescribeTasks", 0))
        state = [t for t in control(port, "/_fake/state/bad2")["tasks"]
                 if t["tags"].get("ecsprof:arm")]
        m = re.search(r"DescribeTasks: (\d+) task answers skipped as malformed", p.stderr)
        ok(p.returncode == 0 and polls >= 5 and p.stderr.count("DescribeTasks: skipped") == 1
           and "still polled until --timeout" in p.stderr and m and int(m.group(1)) >= 5 and
           p.stderr.count("after --timeout") == 1,
           "a task malformed in every one of %d polls: one warning, not one per poll "
           "(%s skipped), one --timeout warning" % (polls, m.group(1) if m else "?"),
           "rc %s polls %d\n%s" % (p.returncode, polls, p.stderr))
        ok(len(state) == 8 and all(t["desiredStatus"] == "STOPPED" for t in state) and
           secs < 30, "a task malformed in every poll: all %d stopped, in %.1f s"
           % (len(state), secs), repr(state))
        # a bad time in every poll: the field is dropped with one warning in all, not one
        # per poll (the warnings of a polled task are said once), and the run ends normally
        control(port, "/_fake/inject", {"bad_task": 100000, "ops": ["DescribeTasks"]})
        stats0 = control(port, "/_fake/stats")
        p = subprocess.run(experiment_cmd(port, tmp, ["--timeout", "20s"], out="bad3.jsonl",
                                          cluster="bad3"),
                           capture_output=True, text=True, env=env(), timeout=120)
        stats1 = control(port, "/_fake/stats")
        control(port, "/_fake/inject", {"bad_task": 0, "ops": []})
        polls = (stats1["ops"].get("DescribeTasks", 0) - stats0["ops"].get("DescribeTasks", 0))
        bad = re.findall(r"task (\S+): ignored createdAt", p.stderr)
        ok(p.returncode == 0 and polls >= 3 and bad and len(bad) == len(set(bad)),
           "a bad time in every one of %d polls: one warning per task (%d), not per poll"
           % (polls, len(bad)), "rc %s polls %d\n%s" % (p.returncode, polls, p.stderr))
        # a task whose version is no number has no identity a recording could merge by:
        # it is not journaled, and the run and the other tasks' lines go on
        control(port, "/_fake/inject", {"nameless_task": 2, "ops": ["DescribeTasks"]})
        p = subprocess.run(experiment_cmd(port, tmp, [], out="bad4.jsonl", cluster="bad4"),
                           capture_output=True, text=True, env=env(), timeout=120)
        control(port, "/_fake/inject", {"nameless_task": 0, "ops": []})
        state = [t for t in control(port, "/_fake/state/bad4")["tasks"]
                 if t["tags"].get("ecsprof:arm")]
        lines = [l for l in open(os.path.join(tmp, "bad4.jsonl")) if '"task"' in l]
        ok(p.returncode == 0 and "not recorded: its identity cannot be read" in p.stderr and
           len(state) == 8 and all(t["desiredStatus"] == "STOPPED" for t in state) and
           len(lines) >= 8,
           "a task without a readable version: not journaled, the run goes on (%d lines)"
           % len(lines), "rc %s\n%s" % (p.returncode, p.stderr[-1500:]))
        # --cleanup of that run, with a malformed task in its DescribeTasks answer
        ids = set()
        for l in open(os.path.join(tmp, "bad.jsonl")):
            sb = (json.loads(l).get("task") or {}).get("startedBy", "")
            if sb.startswith("ecsprof-"):
                ids.add(sb[len("ecsprof-"):])
        control(port, "/_fake/inject", {"bad_task": 1, "ops": ["DescribeTasks"]})
        p = subprocess.run([ECSPROF, "experiment", "--cleanup", ",".join(ids), "--cluster",
                            "bad", "-o", os.path.join(tmp, "bad.jsonl"), "--endpoint-url",
                            "http://127.0.0.1:%d" % port, "--region", "us-east-1"],
                           capture_output=True, text=True, env=env(), timeout=120)
        control(port, "/_fake/inject", {"bad_task": 0, "ops": []})
        ok(len(ids) == 1 and p.returncode == 0 and
           p.stderr.count("ignored createdAt") == 1 and "8 tasks found" in p.stdout,
           "--cleanup with a malformed task in the answer: one warning, exits 0",
           "ids %s rc %s\n%s%s" % (ids, p.returncode, p.stdout, p.stderr))

        # the README's example, run as written (plus --yes: no terminal to confirm on)
        cmd, sample = readme_example()
        srv3, err3, port3 = start_fake(tmp, README_SCENARIO, "readme")
        try:
            rdir = os.path.join(tmp, "readme")
            os.mkdir(rdir)
            args = shlex.split(cmd or "") + ["--yes", "--endpoint-url",
                                             "http://127.0.0.1:%d" % port3, "--region",
                                             "us-east-1", "--interval", "0.2", "--no-images"]
            p = subprocess.run([ECSPROF] + args, capture_output=True, text=True,
                               env=dict(env(), COLUMNS="100"), cwd=rdir, timeout=120)
        finally:
            srv3.terminate()
            srv3.wait(timeout=10)
            err3.close()
        # the plan is on stderr, the summary on stdout; the question is not asked (--yes)
        missing = lines_in_order(p.stderr.split("\n") + p.stdout.split("\n"),
                                 [l for l in sample if not l.startswith("Launch these ")])
        ok(cmd and p.returncode == 0 and len(sample) > 10 and missing is None,
           "README's experiment example prints what the README shows, in order",
           "cmd %r rc %s missing %r\n%s%s" % (cmd, p.returncode, missing, p.stderr, p.stdout))

        # Ctrl-C mid-way: whatever was started is stopped before ecsprof exits
        before = len(control(port, "/_fake/runtask")["runs"])
        cmd = [ECSPROF, "experiment", "--cluster", "intr", "--arm", "no-soci=web:7",
               "--arm", "soci=web:8", "-n", "4", "--subnets", "subnet-1", "--yes",
               "-o", os.path.join(tmp, "int.jsonl"), "--interval", "0.2", "--no-images",
               "--format", "csv", "--endpoint-url", "http://127.0.0.1:%d" % port,
               "--region", "us-east-1"]
        x = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
        for _ in range(200):
            if len(control(port, "/_fake/runtask")["runs"]) - before >= 3:
                break
            time.sleep(0.02)
        x.send_signal(signal.SIGINT)
        try:
            _, xerr = x.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            x.kill()
            _, xerr = x.communicate()
        state = [t for t in control(port, "/_fake/state/intr")["tasks"]
                 if t["tags"].get("ecsprof:arm")]
        ok(x.returncode != 0, "SIGINT: experiment exits non-zero", "rc %s" % x.returncode)
        ok(state and all(t["desiredStatus"] == "STOPPED" for t in state),
           "SIGINT mid-way: %d started, none left running" % len(state),
           repr(state) + xerr)

        # Ctrl-C while a DescribeTasks poll hangs (the server holds each for 20 s): the
        # poll is cut short, and every task is still stopped
        control(port, "/_fake/inject", {"slow": 1000, "slow_ms": 20000, "ops": ["DescribeTasks"]})
        faults = control(port, "/_fake/stats")["faults"]
        x = subprocess.Popen(experiment_cmd(port, tmp, [], out="slow.jsonl", cluster="slow"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
        for _ in range(500):
            if control(port, "/_fake/stats")["faults"] > faults:
                break
            time.sleep(0.02)
        held = control(port, "/_fake/stats")["faults"] > faults
        time.sleep(0.3)
        t0 = time.time()
        x.send_signal(signal.SIGINT)
        try:
            _, xerr = x.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            x.kill()
            _, xerr = x.communicate()
        secs = time.time() - t0
        control(port, "/_fake/inject", {"slow": 0, "ops": []})
        state = [t for t in control(port, "/_fake/state/slow")["tasks"]
                 if t["tags"].get("ecsprof:arm")]
        ok(held and x.returncode == 1 and secs < 5,
           "SIGINT during a 20 s DescribeTasks poll: exits 1 in %.1f s (under 5)" % secs,
           "held %s rc %s\n%s" % (held, x.returncode, xerr))
        ok(len(state) == 8 and all(t["desiredStatus"] == "STOPPED" for t in state),
           "SIGINT during a slow poll: all %d started tasks stopped" % len(state),
           repr(state) + xerr)
    finally:
        srv.terminate()
        srv.wait(timeout=10)
        srv_err.close()

    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for l in str(detail).splitlines()[:40]:
                print("# " + l)
    return 0 if all(g for g, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
