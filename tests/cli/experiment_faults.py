#!/usr/bin/env python3
"""TAP: `ecsprof experiment` when things go wrong, against the fake ECS server
(tests/fake_ecs.py, its clock 20x real time), for the issue's Tests list (13): RunTask
capacity failures and throttling retried within limits and reported per arm,
CannotPullContainerError reported per arm, SIGTERM and SIGHUP mid-way stop every task, a
second Ctrl-C while StopTask hangs prints what is left and the cleanup command (exit 130)
and that command stops it, without a terminal and without --yes nothing is launched,
--cleanup after SIGKILL stops a task whose answer cannot be read, --until healthy waits for
HEALTHY (and refuses a task definition without a health check), an arm whose task
definition does not exist is refused before any RunTask, and the RunTask bodies."""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))

FAST = {"provision": 2, "pull": [6, 8], "start": 1}
SCENARIO = {
    "speed": 20,
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {n: {"tasks": []} for n in
                 ("cap", "pull", "term", "hup", "twice", "nohc", "nodef", "noyes", "kill", "killj", "throttle",
                  "notrec", "stopthr", "stophang")},
    # cap:1's first 4 tasks asked come back in failures[]: the first call and its 3
    # retries; the second call starts its task
    "runTaskFailures": [{"taskDefinition": "cap:1", "count": 4, "reason": "RESOURCE:MEMORY"}],
    "taskDefinitions": {
        "web:7": {"provision": 2, "pull": [30, 32], "start": 1},
        "web:8": dict(FAST),
        "cap:1": dict(FAST),
        "bad:1": dict(FAST, failPull=[0, 2]),
        "hc:1": {"provision": 2, "pull": 5, "start": 1, "healthCheck": True,
                 "healthyAfter": 10},
        "nohc:1": dict(FAST)}}

# production tasks a forged journal claims for experiment "forged": ECS tags them not
SCENARIO["clusters"]["forged"] = {"tasks": [
    {"id": "prod%d" % i, "service": "web", "family": "web", "revision": 3, "created": -300,
     "provision": 2, "pull": 3, "start": 1, "tags": {"team": "payments"}} for i in range(2)]}

# --until healthy runs on a fake of its own, at the real clock's speed
HEALTHY_SCENARIO = {
    "speed": 1,
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"healthy": {"tasks": []}},
    "taskDefinitions": {
        "hc:1": {"provision": 1, "pull": 1, "start": 0.5, "healthCheck": True,
                 "healthyAfter": 2},
        "hc:2": {"provision": 1, "pull": 1, "start": 0.5, "healthCheck": True,
                 "healthyAfter": 5}}}

results = []
EMPTY = os.path.join(tempfile.gettempdir(), "ecsprof-experiment-faults-empty-%d" % os.getpid())


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def env():
    return fakeserver.env(EMPTY, COLUMNS="100")


def start_fake(tmp, scenario, name):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    return fakeserver.start("fake_ecs.py", ["--scenario", path])


def unreadable(port, n):
    """The next n DescribeTasks answers cut their first task so that ecsprof skips it: the
    fake's unreadable_task (containers no list) where it has it, else bad_task (createdAt
    a string, which older ecsprof skips)."""
    try:
        control(port, "/_fake/inject", {"unreadable_task": n, "ops": ["DescribeTasks"] if n else []})
    except Exception:   # an older fake: no such fault (it drops the connection)
        control(port, "/_fake/inject", {"bad_task": n, "ops": ["DescribeTasks"] if n else []})


def cmd(port, tmp, cluster, arms, n, extra=()):
    c = [ECSPROF, "experiment", "--cluster", cluster]
    for a in arms:
        c += ["--arm", a]
    return c + ["-n", str(n), "--subnets", "subnet-1", "--yes", "--id", cluster, "-o",
                os.path.join(tmp, cluster + ".jsonl"), "--interval", "0.2", "--no-images",
                "--endpoint-url", "http://127.0.0.1:%d" % port, "--region",
                "us-east-1"] + list(extra)


def run(c, timeout=120):
    return subprocess.run(c, capture_output=True, text=True, env=env(), timeout=timeout)


def mine(port, cluster):
    return [t for t in control(port, "/_fake/state/" + cluster)["tasks"]
            if t["tags"].get("ecsprof:arm")]


def runs_of(port, taskdef):
    return [r for r in control(port, "/_fake/runtask")["runs"] if r.get("taskDefinition") == taskdef]


def wait_runs(port, cluster, n):
    for _ in range(300):
        if len(mine(port, cluster)) >= n:
            return True
        time.sleep(0.02)
    return False


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-experiment-faults-")
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

        # an arm whose task definition does not exist: refused before any RunTask
        p = run(cmd(port, tmp, "nodef", ["a=web:8", "b=nope:3"], 2))
        ok(p.returncode != 0 and "arm b" in p.stderr and "nope:3" in p.stderr and
           mine(port, "nodef") == [] and runs_of(port, "web:8") == [],
           "an arm whose task definition does not exist: refused, no RunTask (exit %d)"
           % p.returncode, p.stderr)

        # no terminal and no --yes: nobody can confirm, so nothing is launched
        c = [a for a in cmd(port, tmp, "noyes", ["a=web:8", "b=web:8"], 2) if a != "--yes"]
        p = run(c)
        ok(p.returncode == 2 and "not on a terminal, so nobody can confirm launching 4 tasks: "
           "add --yes" in p.stderr and mine(port, "noyes") == [],
           "no terminal and no --yes: exit 2, nothing launched", p.stderr)

        # the RunTask requests as --dry-run prints them (the body ecs_run_task sends): the
        # capacity provider, platform version, network configuration in the AWS CLI's
        # shorthand, startedBy, both tags, a clientToken per call, calls of at most 10
        args = cmd(port, tmp, "nodef", ["a=web:8", "b=web:7"], 25,
                   ["--dry-run", "--round-size", "10", "--capacity-provider", "FARGATE_SPOT",
                    "--platform-version", "1.4.0", "--network-configuration",
                    "awsvpcConfiguration={subnets=[subnet-a,subnet-b],securityGroups=[sg-1],"
                    "assignPublicIp=ENABLED}"])
        i = args.index("--subnets")
        p = run(args[:i] + args[i + 2:])   # the network from --network-configuration only
        bodies = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
        want_net = {"awsvpcConfiguration": {"subnets": ["subnet-a", "subnet-b"],
                                            "securityGroups": ["sg-1"],
                                            "assignPublicIp": "ENABLED"}}
        ok(p.returncode == 0 and [(b["taskDefinition"], b["count"]) for b in bodies] ==
           [("web:8", 10), ("web:7", 10), ("web:8", 10), ("web:7", 10), ("web:8", 5),
            ("web:7", 5)] and
           all(b.get("capacityProviderStrategy") == [{"capacityProvider": "FARGATE_SPOT",
                                                      "weight": 1}] and "launchType" not in b
               and b.get("platformVersion") == "1.4.0" and b.get("networkConfiguration") ==
               want_net and b.get("startedBy") == "ecsprof-nodef" and b.get("cluster") == "nodef"
               for b in bodies) and
           [sorted((t["key"], t["value"]) for t in b["tags"]) for b in bodies] ==
           [[("ecsprof:arm", arm), ("ecsprof:experiment", "nodef")]
            for arm in ["a", "b", "a", "b", "a", "b"]] and
           len({b["clientToken"] for b in bodies}) == 6 and
           all(len(b["clientToken"]) <= 64 for b in bodies) and runs_of(port, "web:8") == [],
           "--dry-run: 6 RunTask bodies of at most 10 (10,10,5 per arm, interleaved), the "
           "capacity provider, platform version, network configuration, startedBy, tags and "
           "a clientToken each; none sent", p.stdout + p.stderr)

        # -o FILE that exists and is not a recording: refused before the first RunTask,
        # the file left as it was (issue 31 item 8)
        notes = os.path.join(tmp, "notes.txt")
        with open(notes, "w") as f:
            f.write("my notes, not a recording\n")
        c = cmd(port, tmp, "notrec", ["a=web:8", "b=web:8"], 2)
        c[c.index("-o") + 1] = notes
        runs0 = control(port, "/_fake/stats")["ops"].get("RunTask", 0)
        p = run(c)
        runs = control(port, "/_fake/stats")["ops"].get("RunTask", 0) - runs0
        ok(p.returncode != 0 and runs == 0 and "not an ecsprof recording" in p.stderr and
           open(notes).read() == "my notes, not a recording\n" and mine(port, "notrec") == [],
           "-o FILE that is not a recording: refused before any RunTask (%d calls), the file "
           "kept (exit %d)" % (runs, p.returncode), p.stderr)

        # --until healthy with a task definition without a health check: refused
        p = run(cmd(port, tmp, "nohc", ["a=hc:1", "b=nohc:1"], 2, ["--until", "healthy"]))
        ok(p.returncode == 2 and "no essential container of nohc:1 has a healthCheck" in
           p.stderr and mine(port, "nohc") == [],
           "--until healthy, an arm without a health check: exit 2 before RunTask", p.stderr)

        # capacity: cap:1's first call and its 3 retries fail (RESOURCE:MEMORY), with
        # waits of 1, 2 and 4 s; its next call starts; reported on the arm's line
        t0 = time.time()
        p = run(cmd(port, tmp, "cap", ["base=web:8", "cap=cap:1"], 2))
        secs = time.time() - t0
        cap_runs = runs_of(port, "cap:1")
        ok(p.returncode == 0 and len(cap_runs) == 5 and secs >= 7,
           "RESOURCE:MEMORY: RunTask asked 1 + 3 times for the first task (waits 1+2+4 s, "
           "%.1f s in all), then once for the second: %d calls" % (secs, len(cap_runs)),
           "rc %d\n%s" % (p.returncode, p.stderr))
        ok("arm cap (cap:1): 1 of 2 launched, 1 reached RUNNING; RunTask failures: "
           "RESOURCE:MEMORY (3 asked again, 1 never started)" in p.stdout and
           "arm base (web:8): 2 of 2 launched, 2 reached RUNNING" in p.stdout,
           "the capacity failures are reported per arm: 3 asked again, 1 never started",
           p.stdout + p.stderr)
        st = mine(port, "cap")
        ok(len(st) == 3 and all(t["desiredStatus"] == "STOPPED" for t in st),
           "the 3 tasks that started are stopped", repr(st))

        # throttling that outlasts the client's own 3 attempts (AWS_MAX_ATTEMPTS): the
        # experiment waits and asks again, and every task starts
        control(port, "/_fake/inject", {"throttle": 4, "ops": ["RunTask"]})
        p = run(cmd(port, tmp, "throttle", ["a=web:8", "b=web:8"], 2))
        control(port, "/_fake/inject", {"throttle": 0, "ops": []})
        ok(p.returncode == 0 and "asking again in 1000 ms" in p.stderr and
           "arm a (web:8): 2 of 2 launched, 2 reached RUNNING" in p.stdout and
           "arm b (web:8): 2 of 2 launched, 2 reached RUNNING" in p.stdout and
           len(mine(port, "throttle")) == 4,
           "RunTask throttled past the client's retries: asked again after 1 s, all 4 started",
           p.stdout + p.stderr)

        # CannotPullContainerError: bad:1's tasks 1 and 3 fail their pull
        p = run(cmd(port, tmp, "pull", ["good=web:8", "bad=bad:1"], 3))
        ok(p.returncode == 0 and "arm bad (bad:1): 3 of 3 launched, 1 reached RUNNING, 2 "
           "failed to start (CannotPullContainerError)" in p.stdout,
           "CannotPullContainerError is reported per arm: 2 failed to start",
           p.stdout + p.stderr)
        ok("GROUP bad: 3 tasks" in p.stdout,
           "the failed starts stay in the summary's group (3 tasks)", p.stdout)
        diag = p.stdout[p.stdout.find("DIAGNOSIS"):]
        ok(re.search(r"^DIAGNOSIS: 2 stopped tasks with a known cause\n  2 x ", diag) and
           "stopped-by-user" not in p.stdout,
           "the DIAGNOSIS names the 2 failed pulls, not the experiment's own 4 StopTasks", diag)

        # --until healthy: each task waited for until HEALTHY (hc:1 2 s after RUNNING,
        # hc:2 5 s), on a fake whose clock is the real one
        srv2, port2 = start_fake(tmp, dict(HEALTHY_SCENARIO), "healthy")
        try:
            p = run(cmd(port2, tmp, "healthy", ["h2=hc:1", "h5=hc:2"], 2,
                        ["--until", "healthy", "--interval", "0.1"]))
        finally:
            srv2.terminate()
            srv2.wait(timeout=10)
        # the wait ends when every task is HEALTHY: its last progress line says so
        last = [l for l in p.stderr.splitlines() if l.startswith("ecsprof: h2 ")][-1:]
        ok(p.returncode == 0 and last ==
           ["ecsprof: h2 2/2: 2 running (2 healthy) | h5 2/2: 2 running (2 healthy)"] and
           "wait: each task until HEALTHY or STOPPED" in p.stderr,
           "--until healthy: the wait ends with every task HEALTHY", p.stderr)

        # SIGTERM mid-way: whatever was started is stopped before ecsprof exits
        x = subprocess.Popen(cmd(port, tmp, "term", ["a=web:7", "b=web:8"], 4),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
        wait_runs(port, "term", 3)
        x.send_signal(signal.SIGTERM)
        try:
            _, xerr = x.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            x.kill()
            _, xerr = x.communicate()
        st = mine(port, "term")
        reasons = {}
        for l in open(os.path.join(tmp, "term.jsonl")):
            t = json.loads(l).get("task") or {}
            if t.get("stoppedReason"):
                reasons[t["taskArn"].rsplit("/", 1)[-1]] = t["stoppedReason"]
        ok(x.returncode not in (0, None) and "SIGTERM: stopping the experiment's tasks" in xerr
           and st and all(t["desiredStatus"] == "STOPPED" for t in st) and
           all(reasons.get(t["id"]) == "ecsprof experiment term: interrupted" for t in st),
           "SIGTERM mid-way: exit %s, %d started, all stopped ('interrupted')"
           % (x.returncode, len(st)), xerr + repr(st))

        # SIGHUP (the terminal or the ssh session went away): the same
        x = subprocess.Popen(cmd(port, tmp, "hup", ["a=web:7", "b=web:8"], 4),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
        wait_runs(port, "hup", 3)
        x.send_signal(signal.SIGHUP)
        try:
            _, xerr = x.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            x.kill()
            _, xerr = x.communicate()
        st = mine(port, "hup")
        ok(x.returncode == 1 and "SIGHUP: stopping the experiment's tasks" in xerr and st and
           all(t["desiredStatus"] == "STOPPED" for t in st),
           "SIGHUP mid-way: exit %s, %d started, all stopped" % (x.returncode, len(st)),
           xerr + repr(st))

        # a second Ctrl-C while StopTask hangs (the server holds it 20 s): what may still
        # run and the command that stops it, exit 130; that command then stops it all
        x = subprocess.Popen(cmd(port, tmp, "twice", ["a=web:7", "b=web:8"], 4),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env())
        wait_runs(port, "twice", 4)
        control(port, "/_fake/inject", {"slow": 1000, "slow_ms": 20000, "ops": ["StopTask"]})
        faults = control(port, "/_fake/stats")["faults"]
        x.send_signal(signal.SIGINT)
        for _ in range(250):
            if control(port, "/_fake/stats")["faults"] > faults:
                break
            time.sleep(0.02)
        held = control(port, "/_fake/stats")["faults"] > faults
        t0 = time.time()
        x.send_signal(signal.SIGINT)
        try:
            _, xerr = x.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            x.kill()
            _, xerr = x.communicate()
        secs = time.time() - t0
        control(port, "/_fake/inject", {"slow": 0, "ops": []})
        started = mine(port, "twice")
        m = re.search(r"interrupted again: (\d+) tasks? of experiment twice may still run: "
                      r"([0-9a-f ]+); stop them with:\n  (ecsprof experiment --cleanup twice .*)\n",
                      xerr)
        ids = m.group(2).split() if m else []
        ok(held and x.returncode == 130 and secs < 5 and m and int(m.group(1)) == len(ids) and
           len(ids) == len(started) and sorted(ids) == sorted(t["id"] for t in started),
           "a second Ctrl-C while StopTask hangs: exit 130 in %.1f s, naming the %d tasks "
           "that may still run" % (secs, len(ids)), "held %s rc %s\n%s" % (held, x.returncode, xerr))
        ok(m and "--cluster twice" in m.group(3) and "-o " in m.group(3),
           "and the cleanup command, with its cluster and journal", xerr)
        if m:
            c = shlex.split(m.group(3))
            c[0] = ECSPROF
            p = run(c + ["--endpoint-url", "http://127.0.0.1:%d" % port]
                    if "--endpoint-url" not in c else c)
        st = mine(port, "twice")
        ok(m and p.returncode == 0 and st and all(t["desiredStatus"] == "STOPPED" for t in st),
           "the printed cleanup command stops every task of the run (%d)" % len(st),
           (p.stdout + p.stderr if m else "") + repr(st))
        # SIGKILL, then --cleanup without the journal (ListTasks startedBy finds the tasks)
        # while DescribeTasks cuts the first task of every answer: that task is stopped all
        # the same, with one warning
        x = subprocess.Popen(cmd(port, tmp, "kill", ["a=web:7", "b=web:7"], 3),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
        wait_runs(port, "kill", 4)
        x.kill()
        x.wait()
        left = [t for t in mine(port, "kill") if t["desiredStatus"] != "STOPPED"]
        unreadable(port, 100000)
        p = run([ECSPROF, "experiment", "--cleanup", "kill", "--cluster", "kill",
                 "--endpoint-url", "http://127.0.0.1:%d" % port, "--region", "us-east-1"])
        control(port, "/_fake/inject", {"bad_task": 0, "ops": []})
        unreadable(port, 0)
        st = mine(port, "kill")
        ok(len(left) >= 4 and p.returncode == 0 and
           p.stderr.count("DescribeTasks: skipped") == 1 and "is stopped all the same" in p.stderr
           and all(t["desiredStatus"] == "STOPPED" for t in st),
           "SIGKILL, then --cleanup (no journal) with a malformed task in every answer: all %d "
           "stopped, one warning" % len(st), "left %d rc %d\n%s%s%s" % (
               len(left), p.returncode, p.stdout, p.stderr, repr(st)))
        # the same with its journal (-o): ECS is asked of the journal's tasks, then of
        # startedBy, so the unreadable task comes back twice: still said once, through the
        # command's log
        x = subprocess.Popen(cmd(port, tmp, "killj", ["a=web:7", "b=web:7"], 3),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
        wait_runs(port, "killj", 4)
        time.sleep(0.5)   # the journal has the RunTask answers
        x.kill()
        x.wait()
        unreadable(port, 100000)
        p = run([ECSPROF, "experiment", "--cleanup", "killj", "--cluster", "killj", "-o",
                 os.path.join(tmp, "killj.jsonl"), "--endpoint-url",
                 "http://127.0.0.1:%d" % port, "--region", "us-east-1"])
        unreadable(port, 0)
        st = mine(port, "killj")
        ok(p.returncode == 0 and p.stderr.count("DescribeTasks: skipped") == 1
           and all(t["desiredStatus"] == "STOPPED" for t in st),
           "--cleanup with the journal, the unreadable task answered twice: one warning",
           "rc %d\n%s%s%s" % (p.returncode, p.stdout, p.stderr, repr(st)))

        # StopTask throttled 8 times in a row (more than one call's 3 attempts, for each
        # task): the stops are asked again with backoff, and every task is stopped (issue
        # 31 item 6)
        control(port, "/_fake/inject", {"throttle": 8, "ops": ["StopTask"]})
        p = run(cmd(port, tmp, "stopthr", ["a=web:8", "b=web:8"], 1))
        control(port, "/_fake/inject", {"throttle": 0, "ops": []})
        st = mine(port, "stopthr")
        ok(p.returncode == 0 and len(st) == 2 and
           all(t["desiredStatus"] == "STOPPED" for t in st) and
           "could not be stopped" not in p.stderr and
           p.stderr.count("Rate exceeded") == 1 and "asking again until 20" in p.stderr,
           "StopTask throttled 8 times: asked again with backoff (said once, with the "
           "deadline), both tasks stopped, exit 0",
           "rc %d\n%s%s" % (p.returncode, p.stderr, repr(st)))

        # StopTask hangs (each answer held 60 s): the 4 stops run at once and end at one
        # deadline (ECSPROF_STOP_TIMEOUT=3), with the tasks and the cleanup command named,
        # instead of 3 x 30 s per task, one after another (issue 31 item 7)
        control(port, "/_fake/inject", {"slow": 1000, "slow_ms": 60000, "ops": ["StopTask"]})
        t0 = time.time()
        try:
            p = subprocess.run(cmd(port, tmp, "stophang", ["a=web:8", "b=web:8"], 2),
                               capture_output=True, text=True, timeout=90,
                               env=dict(env(), ECSPROF_STOP_TIMEOUT="3"))
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, err = -9, "timed out after 90 s: %s" % (e.stderr or b"")[-500:]
        secs = time.time() - t0
        control(port, "/_fake/inject", {"slow": 0, "ops": []})
        ok(rc == 1 and secs < 20 and "4 tasks could not be stopped within 3 s" in err and
           "ecsprof experiment --cleanup stophang" in err and err.count("StopTask arn:") == 4,
           "StopTask hangs: 4 stops at once, given up at one deadline of 3 s (the run took "
           "%.1f s), the 4 tasks and the cleanup command named" % secs,
           "rc %d\n%s" % (rc, err))

        # a forged journal: the lines of two production tasks edited to carry the
        # experiment's tags and startedBy; ECS itself does not tag them as the experiment's,
        # so --cleanup asks ECS and stops neither (issue 31 item 1)
        rec = os.path.join(tmp, "forged.jsonl")
        p = run([ECSPROF, "record", "--cluster", "forged", "-o", rec, "--endpoint-url",
                 "http://127.0.0.1:%d" % port, "--region", "us-east-1"])
        lines, edited = [], 0
        with open(rec) as f:
            for l in f:
                d = json.loads(l)
                if "task" not in d:
                    lines.append(l.rstrip("\n"))
                    continue
                edited += 1
                d["task"]["startedBy"] = "ecsprof-forged"
                d["task"]["tags"] = [{"key": "ecsprof:experiment", "value": "forged"},
                                     {"key": "ecsprof:arm", "value": "a"}]
                lines.append(json.dumps(d))
        with open(rec, "w") as f:
            f.write("\n".join(lines) + "\n")
        stops0 = control(port, "/_fake/stats")["ops"].get("StopTask", 0)
        q = run([ECSPROF, "experiment", "--cleanup", "forged", "-o", rec, "--endpoint-url",
                 "http://127.0.0.1:%d" % port, "--region", "us-east-1"])
        stops = control(port, "/_fake/stats")["ops"].get("StopTask", 0) - stops0
        st = control(port, "/_fake/state/forged")["tasks"]
        ok(p.returncode == 0 and edited == 2 and stops == 0 and q.returncode == 0 and
           all(t["desiredStatus"] == "RUNNING" for t in st) and
           "2 named by the journal but not confirmed by ECS" in q.stdout and
           "2 tasks the journal names are not the experiment's" in q.stderr,
           "--cleanup with a forged journal (2 production tasks edited to carry the tags): "
           "no StopTask (%d), both still running, 2 not confirmed by ECS" % stops,
           "rc %d/%d\n%s%s%s%s" % (p.returncode, q.returncode, p.stderr, q.stdout, q.stderr,
                                    repr(st)))

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
