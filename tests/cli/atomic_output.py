#!/usr/bin/env python3
"""TAP: how `-o FILE` and recordings replace files, as a user (or an attacker who can write
the directory) sees it (issue 10, items 1 and 6). Each case failed before the one atomic
writer (src/base/atomicfile.c): a symlink planted at the old predictable temporary name
was followed, a read-only file replaced, the mode lost, temporary files of killed runs
never removed, `watch -o` truncated FILE before it had a line, `record -o LINK` forked the
recording, and recordings were 0644. The live cases run against tests/fake_ecs.py."""
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
DATA = os.path.join(SRCDIR, "examples", "scaleout.json")

SCENARIO = {
    "credentials": {"AKIDFAKE": "fakesecret"},
    "clusters": {
        "empty": {"tasks": []},
        "prod": {"tasks": [
            {"id": "aaaaaaaa00000000000000000000000a", "family": "web", "revision": 3,
             "created": -300, "provision": 10, "pull": 10, "start": 5}]},
    }}

results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def env(empty):
    return fakeserver.env(empty)


def read(p):
    with open(p) as f:
        return f.read()


def write(p, text, mode=0o644):
    with open(p, "w") as f:
        f.write(text)
    os.chmod(p, mode)


def leftovers(d, keep):
    return sorted(n for n in os.listdir(d) if n not in keep)


def offline(tmp, e):
    out = os.path.join(tmp, "out.csv")
    victim = os.path.join(tmp, "victim.txt")
    write(victim, "precious\n")
    # 1. a symlink planted at the temporary name the old writer used (FILE.tmp.<pid>):
    # exec keeps the shell's pid, so the name is the one an attacker would guess
    script = 'ln -s "$1" "$2.tmp.$$" && exec "$3" report --format csv -o "$2" "$4"'
    p = subprocess.run(["sh", "-c", script, "sh", victim, out, ECSPROF, DATA],
                       capture_output=True, text=True, env=e, timeout=60)
    ok(p.returncode == 0, "report -o with a planted symlink beside it succeeds", p.stderr)
    ok(read(victim) == "precious\n", "the planted symlink's target is not written",
       read(victim)[:200])
    ok(os.path.isfile(out) and not os.path.islink(out) and read(out).count("\n") == 31,
       "FILE is a regular file holding the CSV")
    for n in os.listdir(tmp):
        if n.startswith("out.csv.tmp."):
            os.unlink(os.path.join(tmp, n))
    # 2. the mode of the file replaced is kept
    os.chmod(out, 0o640)
    p = subprocess.run([ECSPROF, "report", "--format", "csv", "-o", out, DATA],
                       capture_output=True, text=True, env=e, timeout=60)
    ok(p.returncode == 0 and stat.S_IMODE(os.stat(out).st_mode) == 0o640,
       "the replaced file keeps its mode (0640)", oct(os.stat(out).st_mode) + p.stderr)
    # 3. a read-only file is refused, not replaced
    write(out, "keep\n", 0o444)
    p = subprocess.run([ECSPROF, "report", "--format", "csv", "-o", out, DATA],
                       capture_output=True, text=True, env=e, timeout=60)
    ok(p.returncode != 0 and read(out) == "keep\n" and "refusing" in p.stderr,
       "a read-only FILE is refused and left as it was", "rc %d: %s" % (p.returncode, p.stderr))
    os.chmod(out, 0o644)
    # 4. the temporary file of a run that was killed (SIGKILL) is removed by the next run
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = os.path.join(tmp, ".out.csv.ecsprof.%d.0123456789ab" % dead.pid)
    write(stale, "half a csv", 0o600)
    p = subprocess.run([ECSPROF, "report", "--format", "csv", "-o", out, DATA],
                       capture_output=True, text=True, env=e, timeout=60)
    ok(p.returncode == 0 and not os.path.exists(stale),
       "a dead run's temporary file is removed", p.stderr)
    ok(leftovers(tmp, {"out.csv", "victim.txt", "empty"}) == [],
       "no temporary file is left behind", repr(leftovers(tmp, {"out.csv", "victim.txt", "empty"})))
    # 5. watch -o with a configuration error: FILE is not truncated
    write(out, "earlier lines\n")
    e2 = dict(e)
    p = subprocess.run([ECSPROF, "watch", "--cluster", "prod", "--format", "csv", "-o", out,
                        "--count", "1"], capture_output=True, text=True, env=e2, timeout=60)
    ok(p.returncode != 0 and "region" in p.stderr, "watch without a region fails", p.stderr)
    ok(read(out) == "earlier lines\n", "and leaves FILE as it was (not emptied)", read(out))


def live(tmp, e, port):
    url = "http://127.0.0.1:%d" % port
    base = ["--endpoint-url", url, "--region", "us-east-1"]
    out = os.path.join(tmp, "lines.csv")
    # 6. watch -o while nothing has been written yet: a signal leaves FILE and no temporary
    for sig in (signal.SIGTERM, signal.SIGINT):
        write(out, "earlier lines\n")
        p = subprocess.Popen([ECSPROF, "watch", "--cluster", "empty", "--format", "csv",
                              "--interval", "1", "-o", out] + base,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
        time.sleep(1.5)
        during = read(out)
        tmps = [n for n in os.listdir(tmp) if n.startswith(".lines.csv.ecsprof.")]
        p.send_signal(sig)
        _, err = p.communicate(timeout=30)
        name = signal.Signals(sig).name
        ok(during == "earlier lines\n" and len(tmps) == 1,
           "%s: while watch has no line yet, FILE is untouched" % name, repr((during, tmps, err)))
        ok(read(out) == "earlier lines\n", "%s: FILE is as it was after the signal" % name,
           read(out) + err)
        left = [n for n in os.listdir(tmp) if ".ecsprof." in n]
        ok(left == [], "%s: the temporary file is removed" % name, repr(left) + err)
    # 7. watch -o with lines: FILE holds them
    p = subprocess.run([ECSPROF, "watch", "--cluster", "prod", "--format", "csv", "--count",
                        "1", "-o", out] + base, capture_output=True, text=True, env=e, timeout=60)
    ok(p.returncode == 0 and read(out).startswith("task_arn,") and
       "aaaaaaaa00000000000000000000000a" in read(out), "watch -o writes its lines", p.stderr)
    # 8. record -o LINK updates the real file; a new recording is private (0600)
    realdir = os.path.join(tmp, "real")
    os.mkdir(realdir)
    real = os.path.join(realdir, "rec.jsonl")
    link = os.path.join(tmp, "rec-link.jsonl")
    os.symlink(real, link)
    p = subprocess.run([ECSPROF, "record", "--cluster", "prod", "-o", link] + base,
                       capture_output=True, text=True, env=e, timeout=60)
    ok(p.returncode == 0 and os.path.islink(link) and os.path.isfile(real) and
       "aaaaaaaa00000000000000000000000a" in read(real),
       "record -o LINK writes the file the link names, and the link stays", p.stderr)
    ok(stat.S_IMODE(os.stat(real).st_mode) == 0o600,
       "a new recording is 0600 under umask 022", oct(os.stat(real).st_mode))


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    os.umask(0o022)
    tmp = tempfile.mkdtemp(prefix="ecsprof-atomic-")
    empty = os.path.join(tmp, "empty")
    open(empty, "w").close()
    e = env(empty)
    srv = None
    try:
        offline(tmp, e)
        scen = os.path.join(tmp, "scenario.json")
        with open(scen, "w") as f:
            json.dump(SCENARIO, f)
        srv, port = fakeserver.start("fake_ecs.py", ["--scenario", scen])
        ok(True, "fake_ecs started")
        os.unlink(scen)
        live(tmp, e, port)
    except Exception as ex:
        ok(False, "the test ran to its end", repr(ex))
    finally:
        if srv is not None:
            srv.kill()
            srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)
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
