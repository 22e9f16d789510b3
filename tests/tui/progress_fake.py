#!/usr/bin/env python3
"""TAP (issue 30 item 11): long work says how far it has got. `ecsprof tasks --format csv
-o FILE` against the fake ECS (tests/fake_ecs.py) with slow DescribeTasks answers: in tmux
(stderr a terminal) a progress line ("fetching: 100 of 300 tasks (ETA ...)") shows while
the fetch runs and is erased when it is done; with --quiet, or with stderr a file, there is
none. (That a fetch under a second shows none is not checked: on a loaded machine no fetch
is reliably that quick.)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fakeserver  # noqa: E402
import tap  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {"p": {"generate": {"count": 300, "service": "web", "family": "web",
                                    "seed": 3, "spread": 600}}}}
TAP = tap.Tap()
ok = TAP.ok


def inject(port, faults):
    req = urllib.request.Request("http://127.0.0.1:%d/_fake/inject" % port,
                                 data=json.dumps(faults).encode(), method="POST")
    urllib.request.urlopen(req, timeout=10).read()


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK) or shutil.which("tmux") is None:
        print("1..1\nnot ok 1 - ECSPROF is an executable and tmux is installed")
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-progress-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    scen = os.path.join(tmp, "scenario.json")
    with open(scen, "w") as f:
        json.dump(SCENARIO, f)
    srv, port = fakeserver.start("fake_ecs.py", ["--scenario", scen])
    environ = fakeserver.env(empty)
    e = " ".join("%s=%s" % (k, v) for k, v in environ.items() if k.startswith("AWS_"))
    base = ("%s tasks --cluster p --no-images --concurrency 1 --format csv -o %s/out.csv "
            "--endpoint-url http://127.0.0.1:%d --region us-east-1") % (ECSPROF, tmp, port)
    runs = [0]
    tm = []

    def screen():
        return subprocess.run(tm + ["capture-pane", "-p", "-t", "t"],
                              capture_output=True, text=True).stdout

    def run_tmux(extra):
        """Runs the fetch in tmux; (the screens seen during it, the screen after it).
        Each run on a server of its own: a new one on a socket being shut down fails."""
        if tm:
            subprocess.run(tm + ["kill-server"], capture_output=True)
        runs[0] += 1
        tm[:] = ["tmux", "-L", "ecsprof-progress-%d-%d" % (os.getpid(), runs[0]), "-f",
                 "/dev/null"]
        subprocess.run(tm + ["new-session", "-d", "-s", "t", "-x", "100", "-y", "10",
                             "env %s LANG=C.UTF-8 %s %s; echo EXIT=$?; sleep 30" % (e, base, extra)])
        seen = []
        for _ in range(400):   # a loaded machine: up to 40 s
            time.sleep(0.1)
            s = screen()
            seen.append(s)
            if "EXIT=" in s:
                break
        return seen, seen[-1] if seen else ""

    try:
        # three slow DescribeTasks answers (100 tasks each), one at a time: ~4.5 s
        inject(port, {"slow": 3, "slow_ms": 1500, "ops": ["DescribeTasks"]})
        seen, after = run_tmux("")
        during = [s for s in seen if "fetching:" in s]
        ok(during and any("of 300 tasks" in s for s in during),
           "a long fetch shows its progress on the terminal: N of 300 tasks",
           "\n---\n".join(seen[-3:]))
        ok(any("ETA" in s for s in during), "... with an ETA", "\n---\n".join(during[-2:]))
        ok("EXIT=0" in after and "fetching" not in after, "... erased when done", after)
        inject(port, {"slow": 3, "slow_ms": 1500, "ops": ["DescribeTasks"]})
        seen, after = run_tmux("--quiet")
        ok("EXIT=0" in after and not any("fetching" in s for s in seen),
           "--quiet: no progress line", "\n---\n".join([s for s in seen if "fetching" in s][:1] + [after]))
        inject(port, {"slow": 3, "slow_ms": 1500, "ops": ["DescribeTasks"]})
        p = subprocess.run(base.split(), capture_output=True, text=True, env=environ, timeout=60)
        ok(p.returncode == 0 and "fetching" not in p.stderr and "\r" not in p.stderr,
           "stderr not a terminal: no progress line", repr(p.stderr))
    except Exception as ex:
        ok(False, "the test ran to its end", repr(ex))
    finally:
        subprocess.run(tm + ["kill-server"], capture_output=True)
        srv.kill()
        srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return TAP.report()


if __name__ == "__main__":
    sys.exit(main())
