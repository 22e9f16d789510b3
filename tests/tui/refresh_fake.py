#!/usr/bin/env python3
"""TAP: the TUI of `ecsprof tasks` against a slow fake ECS (tests/fake_ecs.py,
--latency-ms 400, as in issue 11 item 3) fetches behind the screen: it opens at once with
a progress line ("fetching: 300 of 3,000 tasks ..."), shows the tasks loaded so far, keeps
answering keys while ECS answers, and q quits within a second or two of a fetch that has
10 s to go; `r` keeps the old tasks on screen while it fetches again, and an `r` during a
fetch lets the running one go on (and says so). `watch` polls behind the screen the same
way. Figures are printed as TAP comments."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
FAKE = os.path.join(SRCDIR, "tests", "fake_ecs.py")
LATENCY_MS = 400
BIG = 3000          # 30 ListTasks pages one after the other: about 13 s at 400 ms

SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"s": {"tasks": [
        {"id": "1111111100000000000000000000000a", "family": "api", "revision": 5,
         "created": -60, "provision": 1, "pull": 1, "start": 1},
        {"id": "2222222200000000000000000000000b", "family": "api", "revision": 5,
         "created": -60, "provision": 1, "pull": 2, "start": 1}]},
    "img": {"tasks": [
        {"id": "3333333300000000000000000000000c", "family": "web", "revision": 1,
         "created": -60, "provision": 1, "pull": 1, "start": 1,
         "image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/web:1",
         "digest": "sha256:" + "ab" * 32}]},
    "big": {"generate": {"count": BIG, "family": "web", "seed": 3, "spread": 300}}}}

results = []
figures = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def inject(port, faults):
    req = urllib.request.Request("http://127.0.0.1:%d/_fake/inject" % port,
                                 data=json.dumps(faults).encode(), method="POST")
    urllib.request.urlopen(req, timeout=10).read()


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
        def command(cluster, extra="--no-images"):
            return ("env -u AWS_PROFILE %s NO_COLOR=1 LANG=C TERM=xterm "
                    "AWS_ENDPOINT_URL_ECR=http://127.0.0.1:%d XDG_CACHE_HOME=%s "
                    "%s tasks --cluster %s --format tui --region us-east-1 --endpoint-url "
                    "http://127.0.0.1:%d %s; echo EXIT=$?; sleep 30") % (
                        envs, port, os.path.join(tmp, "cache"), ECSPROF, cluster, port, extra)

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
                time.sleep(0.05)
            return False, s

        parts = [0]

        def start(cmd):
            """each part on a tmux server of its own: after a kill-session the server
            exits, and a new-session that races its exit fails"""
            if parts[0] > 0:
                subprocess.run(tm + ["kill-server"], capture_output=True)
            parts[0] += 1
            tm[:] = ["tmux", "-L", "%s-%d" % (sock, parts[0]), "-f", "/dev/null"]
            subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "100", "-y", "24", cmd])

        def keys(*k):
            subprocess.run(tm + ["send-keys", "-t", "t"] + list(k))

        # 1. a first fetch of 3,000 tasks: progress, the tasks so far, keys, q
        t0 = time.time()
        start(command("big"))
        got, s = wait_for(lambda s: "ecsprof tasks: cluster big" in s and "fetching" in s, 5)
        first = time.time() - t0
        figures.append("first screen %.2f s after the start" % first)
        ok(got and first < 1.5, "the TUI opens at once, saying it is fetching (%.2f s)" % first, s)
        got, s = wait_for(lambda s: re.search(r"fetching: [0-9,]+ of [0-9,]+ tasks", s), 5)
        ok(got, "a progress line counts the tasks described of those listed", s)
        got, s = wait_for(lambda s: re.search(r"fetching: [0-9,]+ of [0-9,]+ tasks listed so "
                                              r"far \([1-9][0-9]* pages\)", s), 5)
        ok(got, "while ListTasks is paging it counts the pages too (the issue's 'pages and "
           "tasks so far')", s)
        got, s = wait_for(lambda s: re.search(r"fetching: [1-9][0-9,]* of", s) and
                          re.search(r"^[0-9a-f]{8} ", s, re.M), 8)
        m = re.search(r"fetching: ([0-9,]+) of ([0-9,]+)", s)
        so_far = m and int(m.group(1).replace(",", "")) or 0
        figures.append("tasks on screen during the fetch after %.2f s: %d" %
                       (time.time() - t0, so_far))
        ok(got and 0 < so_far < BIG, "the tasks loaded so far are in the table while the "
           "fetch goes on (%d of %d)" % (so_far, BIG), s)
        keys("?")
        k0 = time.time()
        got, s = wait_for(lambda s: "this help" in s and "fetching:" in s, 2)
        figures.append("? during the fetch: help after %.2f s" % (time.time() - k0))
        ok(got and time.time() - k0 < 1.0, "a key works during the fetch: ? shows the help "
           "at once (%.2f s) while the progress line goes on" % (time.time() - k0), s)
        keys("Escape")
        got, s = wait_for(lambda s: "this help" not in s and "fetching:" in s, 2)
        ok(got, "Esc goes back to the table, the fetch still running", s)
        keys("r")
        got, s = wait_for(lambda s: "a fetch is running already" in s, 2)
        ok(got, "r during a fetch lets it go on and says so", s)
        got, s = wait_for(lambda s: "fetching:" in s, 2)
        m = re.search(r"fetching: ([0-9,]+) of ([0-9,]+) tasks", s)
        left = m is not None and int(m.group(1).replace(",", "")) < BIG - 600
        keys("q")
        q0 = time.time()
        got, s = wait_for(lambda s: "EXIT=" in s, 10)
        qt = time.time() - q0
        figures.append("q during the fetch (%s): the shell prompt back after %.2f s" %
                       (m and m.group(0) or "?", qt))
        ok(got and "EXIT=0" in s and left and qt < 2.0,
           "q quits during a fetch with several seconds to go, within 2 s (%.2f s), exit 0"
           % qt, s)

        # 2. a small cluster: the table, then r keeps the old tasks while it fetches again
        start(command("s"))
        got, s = wait_for(lambda s: "11111111" in s and "fetching" not in s, 30)
        ok(got, "the table of tasks appears after the first fetch", s)
        keys("r")
        t0 = time.time()
        got, s = wait_for(lambda s: "refreshing" in s, 2)
        ok(got and time.time() - t0 < 1.0 and "11111111" in s,
           "r shows 'refreshing' at once, the old tasks still on screen (%.2f s)" %
           (time.time() - t0), s)
        keys("j")
        got, s = wait_for(lambda s: "refreshing" not in s and "11111111" in s and
                          "2 tasks" in s, 30)
        ok(got, "the table is back when the refresh is done", s)
        keys("q")
        got, s = wait_for(lambda s: "EXIT=0" in s, 10)
        ok(got, "q exits 0", s)

        # 3. a warning of the fetch (select_why's) waits until the screen is closed
        start(command("s", "--no-images --task 313da244"))
        got, s = wait_for(lambda s: "cluster s, 0 tasks" in s and "fetching" not in s, 30)
        ok(got and "ecsprof: warning" not in s and "(1 warning, printed on quitting)" in s and
           "1 warning (w: list): no task matched" in s,
           "a warning during the screen does not scribble over it; the title says it "
           "waits, the bottom line has the latest", s)
        keys("q")
        got, s = wait_for(lambda s: "EXIT=0" in s, 10)
        ok(got and "warning: no task matched" in s, "... and is printed once it is closed", s)

        # 4. q while ECS holds a request for 8 s: the request is given up, not waited for
        inject(port, {"slow": 3, "slow_ms": 8000, "ops": ["ListTasks"]})
        start(command("s"))
        got, s = wait_for(lambda s: "asking ECS for the tasks of cluster s" in s, 10)
        time.sleep(1.0)
        keys("q")
        q0 = time.time()
        got2, s = wait_for(lambda s: "EXIT=" in s, 15)
        qt = time.time() - q0
        figures.append("q while a ListTasks request hangs: the shell prompt back after %.2f s"
                       % qt)
        ok(got and got2 and "EXIT=0" in s and qt < 2.0, "q while a request hangs for 8 s "
           "quits within 2 s (%.2f s)" % qt, s)
        inject(port, {"slow": 0})

        # 5. q while ECR holds an image lookup for 8 s: given up too, not waited for
        inject(port, {"slow": 3, "slow_ms": 8000, "ops": ["BatchGetImage", "DescribeImages"]})
        start(command("img", ""))
        got, s = wait_for(lambda s: "image facts from ECR: 0 of 1" in s, 10)
        time.sleep(1.0)
        keys("q")
        q0 = time.time()
        got2, s = wait_for(lambda s: "EXIT=" in s, 15)
        qt = time.time() - q0
        figures.append("q while a BatchGetImage request hangs: the shell prompt back after "
                       "%.2f s" % qt)
        ok(got and got2 and "EXIT=0" in s and qt < 2.0, "q while an image lookup hangs for "
           "8 s quits within 2 s (%.2f s)" % qt, s)
        inject(port, {"slow": 0, "ops": []})

        # 6. watch polls behind the screen too: a poll ECS holds for 6 s keeps neither the
        # keys nor q waiting
        wcmd = ("env -u AWS_PROFILE %s NO_COLOR=1 LANG=C TERM=xterm %s watch --cluster s "
                "--interval 1 --no-images --region us-east-1 --endpoint-url "
                "http://127.0.0.1:%d; echo EXIT=$?; sleep 30") % (envs, ECSPROF, port)
        inject(port, {"slow": 1, "slow_ms": 3000, "ops": ["ListTasks"]})
        t0 = time.time()
        start(wcmd)
        got, s = wait_for(lambda s: "the first poll of cluster s" in s, 2)
        ok(got and time.time() - t0 < 1.5, "watch: while the first poll runs (before the "
           "screen) the terminal says so (%.2f s)" % (time.time() - t0), s)
        got, s = wait_for(lambda s: "11111111" in s, 15)
        inject(port, {"slow": 2, "slow_ms": 6000, "ops": ["ListTasks"]})
        got, s = wait_for(lambda s: "polling:" in s or "refreshing:" in s, 10)
        ok(got and "polling:" in s and "11111111" in s, "watch: a slow poll says "
           "'polling: ...' on the bottom line, the last poll's tasks on screen", s)
        keys("?")
        k0 = time.time()
        got, s = wait_for(lambda s: "this help" in s, 3)
        kt = time.time() - k0
        figures.append("watch: ? during a held poll: help after %.2f s" % kt)
        ok(got and kt < 1.0, "watch: a key works during a poll (%.2f s)" % kt, s)
        keys("Escape")
        wait_for(lambda s: "this help" not in s, 2)
        keys("q")
        q0 = time.time()
        got, s = wait_for(lambda s: "EXIT=" in s, 15)
        qt = time.time() - q0
        figures.append("watch: q during a held poll: the shell prompt back after %.2f s" % qt)
        ok(got and "EXIT=0" in s and qt < 2.0, "watch: q during a poll quits within 2 s "
           "(%.2f s)" % qt, s)
        inject(port, {"slow": 0, "ops": []})
    finally:
        subprocess.run(tm + ["kill-server"], capture_output=True)
        srv.terminate()
        try:
            srv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srv.kill()
    print("1..%d" % len(results))
    for f in figures:
        print("# " + f)
    for i, (c, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if c else "not ok", i, name))
        if not c and detail:
            for l in str(detail).splitlines()[:30]:
                print("# " + l)
    return 0 if all(c for c, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
