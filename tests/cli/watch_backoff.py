#!/usr/bin/env python3
"""TAP: `ecsprof watch` backs off while ECS throttles and comes back (issue 9's surviving
bug "no backoff doubling in watch"), end to end against the fake ECS (tests/fake_ecs.py).
The first three polls' ListTasks are throttled (AWS_MAX_ATTEMPTS=1 and --status running: one ListTasks per poll):
the waits after them must be 2, 4 and 8 s for --interval 1, measured at the server as the
gaps between ListTasks requests, and the polls after the throttling 1 s apart again."""
import json
import os
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
SCENARIO = {"credentials": {"AKIDFAKE": "fakesecret"},
            "clusters": {"b": {"tasks": [
                {"id": "aaaaaaaa00000000000000000000000a", "family": "web", "revision": 1,
                 "created": -60, "provision": 10, "pull": 10, "start": 5}]}}}
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = tempfile.mkdtemp(prefix="ecsprof-backoff-")
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
    p = None
    try:
        control(port, "/_fake/inject", {"throttle": 3, "ops": ["ListTasks"]})
        e = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        e.update({"AWS_ACCESS_KEY_ID": "AKIDFAKE", "AWS_SECRET_ACCESS_KEY": "fakesecret",
                  "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": empty,
                  "AWS_SHARED_CREDENTIALS_FILE": empty, "AWS_MAX_ATTEMPTS": "1",
                  "NO_COLOR": "1", "XDG_CACHE_HOME": os.path.join(tmp, "cache")})
        e.update(fakeserver.service_endpoints())
        p = subprocess.Popen([ECSPROF, "watch", "--cluster", "b", "--interval", "1",
                              "--status", "running", "--no-images", "--format", "csv", "--endpoint-url",
                              "http://127.0.0.1:%d" % port, "--region", "us-east-1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=e)
        # the ListTasks arrival times, polled at the server (3 throttled + 3 good polls)
        seen, times, t0 = 0, [], time.monotonic()
        while len(times) < 6 and time.monotonic() - t0 < 40:
            n = control(port, "/_fake/stats")["ops"].get("ListTasks", 0)
            while seen < n:
                times.append(time.monotonic())
                seen += 1
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=20)
        gaps = [round(b - a, 1) for a, b in zip(times, times[1:])]
        detail = "gaps between ListTasks: %s\nstderr:\n%s" % (gaps, err)
        ok(len(gaps) == 5, "six polls reached the server within 40 s", detail)
        want = [2, 4, 8]
        ok(len(gaps) >= 3 and all(abs(g - w) < 0.8 for g, w in zip(gaps[:3], want)),
           "while throttled each wait doubles: 2 s, 4 s, 8 s for --interval 1", detail)
        ok(len(gaps) == 5 and all(abs(g - 1) < 0.8 for g in gaps[3:]),
           "after the throttling the polls are --interval (1 s) apart again", detail)
        warns = [l for l in err.splitlines() if "next poll in" in l]
        ok([w.rsplit("next poll in ", 1)[1] for w in warns] == ["2 s", "4 s", "8 s"],
           "each throttled poll says when the next one is: 2 s, 4 s, 8 s", detail)
        ok(p.returncode == 0, "Ctrl-C ends the watch with status 0", detail)
    finally:
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()
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
