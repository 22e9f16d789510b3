#!/usr/bin/env python3
"""TAP: `ecsprof tasks` and `record` against a hostile ECS server (tests/hostile_ecs.py),
one server per attack: endless pagination, tasks nobody asked for, terminal escapes,
bad tasks, Retry-After overflow, and the faults that already pass (throttling, 5xx, cut
connections, cut JSON, a 1 GiB body, slowloris, redirects, clock skew)."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
HOSTILE = os.path.join(SRCDIR, "tests", "hostile_ecs.py")
TMP = tempfile.mkdtemp(prefix="ecsprof-hostile-")
BAD = ("\x1b", "\x07", "\u202e", "\u202d", "\u2066")
EVIL = "\x1b]0;pwned\x07\x1b[31mred\u202eevil"   # as tests/hostile_ecs.py sends
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


class Server:
    def __init__(self, mode, *extra):
        self.p = subprocess.Popen([sys.executable, HOSTILE, "--mode", mode,
                                   "--max-seconds", "150", "--max-requests", "300"]
                                  + list(extra),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        if not line.strip().isdigit():
            self.p.kill()
            raise RuntimeError("hostile_ecs did not start: " + self.p.stderr.read())
        self.port = int(line)

    def stats(self):
        with urllib.request.urlopen("http://127.0.0.1:%d/_stats" % self.port,
                                    timeout=10) as r:
            return json.loads(r.read())

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.p.kill()
        self.p.wait()


def run(srv, *args, env_extra=None, timeout=60):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({
        "AWS_ACCESS_KEY_ID": "AKIDFAKE", "AWS_SECRET_ACCESS_KEY": "fakesecret",
        "AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1", "COLUMNS": "200",
        "AWS_CONFIG_FILE": os.path.join(TMP, "no-config"),
        "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "no-credentials"),
    })
    # --endpoint-url is ECS's only: the other services to a closed port, never to AWS
    env.update({"AWS_ENDPOINT_URL_%s" % s: "http://127.0.0.1:9" for s in ("ECR", "STS", "SSO")})
    env.update(env_extra or {})
    cmd = [ECSPROF] + list(args) + ["--endpoint-url", "http://127.0.0.1:%d" % srv.port,
                                    "--region", "us-east-1"]
    t = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return -9, "", "timed out after %d s: %s" % (timeout, (e.stderr or b"")[-300:]), \
            time.time() - t
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    return p.returncode, out, err, time.time() - t


def run_rss(srv, *args):
    """run() through a wrapper that reports the peak RSS (MiB) of this run alone"""
    rss_file = os.path.join(TMP, "rss")
    wrapper = ("import resource, subprocess, sys\n"
               "rc = subprocess.call(sys.argv[2:])\n"
               "open(sys.argv[1], 'w').write(str(resource.getrusage("
               "resource.RUSAGE_CHILDREN).ru_maxrss // 1024))\n"
               "sys.exit(rc)\n")
    global ECSPROF
    saved = ECSPROF
    ECSPROF = sys.executable
    try:
        rc, out, err, secs = run(srv, "-c", wrapper, rss_file, saved, *args)
    finally:
        ECSPROF = saved
    with open(rss_file) as f:
        return rc, out, err, secs, int(f.read() or 0)


def rows(out):
    return list(csv.DictReader(io.StringIO(out)))


def clean(text):
    return not any(c in text for c in BAD)


def one_line(err):
    return len([l for l in err.strip().splitlines() if l.strip()]) == 1


def escapes(csvargs):
    # item 5: terminal escapes, from every server string
    with Server("escapes") as s:
        rc, out, err, secs = run(s, *csvargs)
        ok(rc == 0 and len(rows(out)) == 5 and clean(out) and clean(err),
           "escapes in task strings and failures[]: CSV and warnings stripped",
           "rc=%d %r %r" % (rc, out[:300], err[:300]))
        rc, out, err, secs = run(s, "tasks", "--cluster", "prod", "--format", "table")
        ok(rc == 0 and clean(out) and clean(err), "escapes: the table is clean",
           "rc=%d %r" % (rc, out[:300]))
        rc, out, err, secs = run(s, "tasks", "--cluster", "prod", "--format", "json")
        try:
            svc = json.loads(out)["tasks"][0]["service"]
        except (ValueError, KeyError, IndexError, TypeError):
            svc = ""
        ok(rc == 0 and clean(out) and "\\u001B" in out and "\\u202E" in out
           and svc == "web" + EVIL, "escapes: JSON keeps them, escaped, same strings decoded",
           "rc=%d %r" % (rc, out[:200]))
        rc, out, err, secs = run(s, "tasks", "--cluster", "nope", "--format", "csv")
        ok(rc == 1 and clean(err) and "ClusterNotFoundException" in err,
           "escapes in an error message and in cluster names: stripped",
           "rc=%d %r" % (rc, err))
        rc, out, err, secs = run(s, *csvargs, "--debug")
        ok(rc == 0 and clean(err) and "< HTTP 200" in err, "escapes: --debug bodies stripped",
           "rc=%d %r" % (rc, err[:300]))


def task_id(i):
    return "%032x" % (0xa0000000000000000000000000000000 + i)


def bad_tasks(csvargs):
    # item 3: one bad task never aborts a live run; a bad time (a string createdAt, a
    # millisecond one) only drops that field, the task is kept (issue 10 item 10)
    with Server("bad_tasks") as s:
        rc, out, err, secs = run(s, *csvargs)
        ids = sorted(r["task_id"][-1] for r in rows(out))
        named = [l for l in err.splitlines() if "skipped task" in l]
        ignored = [l for l in err.splitlines() if "ignored createdAt" in l]
        ok(rc == 0 and ids == list("0123467") and len(named) == 1 and task_id(5) in named[0]
           and len(ignored) == 2 and all(task_id(i) in e for i, e in zip((6, 7), ignored))
           and "not a task object" in err,
           "bad tasks: the good ones are kept, with warnings",
           "rc=%d %s %s" % (rc, ids, err[-500:]))
        # the fetch summary counts them apart: skipped is not kept
        rc, out, err, secs = run(s, *csvargs, "-v")
        ok(rc == 0 and "8 described, 7 kept, 1 skipped;" in err,
           "bad tasks: the fetch summary says 7 kept, 1 skipped", "rc=%d %s" % (rc, err[-500:]))
        rec = os.path.join(TMP, "bad.jsonl")
        rc, out, err, secs = run(s, "record", "--cluster", "prod", "-o", rec)
        lines = open(rec).read().splitlines() if os.path.exists(rec) else []
        # 5 good + 3 bad objects; the string in tasks[] has no ARN to record it under
        ok(rc == 0 and len(lines) == 8 and any("yesterday" in l for l in lines)
           and any("x" * 1000 in l for l in lines),
           "bad tasks: record keeps every task's raw JSON",
           "rc=%d lines=%d %s" % (rc, len(lines), err[-500:]))
        rc, out, err, secs = run(s, "report", "--format", "csv", rec)
        ok(rc == 0 and len(rows(out)) == 7 and err.count("skipped task") == 1
           and err.count("ignored createdAt") == 2,
           "bad tasks: report reads that recording, skipping the same one",
           "rc=%d %s" % (rc, err[-300:]))


# sections switched on as their items land
SECTIONS = [escapes, bad_tasks]


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    csvargs = ("tasks", "--cluster", "prod", "--format", "csv")

    # item 2: pagination bounded
    with Server("token_repeat") as s:
        rc, out, err, secs = run(s, *csvargs, "--status", "running")
        st = s.stats()
        ok(rc == 0 and st["ops"].get("ListTasks", 0) <= 3 and len(rows(out)) == 1
           and "nextToken" in err, "ListTasks repeating its nextToken: paging stops",
           "rc=%d %s %s" % (rc, st, err[-300:]))
        rc, out, err, secs = run(s, "tasks", "--cluster", "nope", "--format", "csv")
        st2 = s.stats()
        ok(rc == 1 and st2["ops"].get("ListClusters", 0) <= 3 and "prod" in err,
           "ListClusters repeating its nextToken: paging stops",
           "rc=%d %s %s" % (rc, st2, err[-300:]))
    with Server("token_endless", "--max-requests", "1200") as s:
        rc, out, err, secs = run(s, *csvargs, "--status", "running")
        st = s.stats()
        ok(rc == 0 and st["ops"].get("ListTasks", 0) == 1000 and len(rows(out)) == 1000
           and "1000 pages" in err, "ListTasks with endless new tokens: capped at 1000 pages",
           "rc=%d %s %.1fs %s" % (rc, st["ops"], secs, err[-300:]))

    # item 4: answers matched to requests
    with Server("unasked") as s:
        rc, out, err, secs = run(s, *csvargs)
        ids = sorted(r["task_id"] for r in rows(out))
        ok(rc == 0 and len(ids) == 5 and all(i.startswith("a000") and int(i, 16) & 0xfff < 5
                                             for i in ids)
           and "not asked for" in err, "DescribeTasks tasks not asked for are dropped",
           "rc=%d %s %s" % (rc, ids, err[-400:]))

    for section in SECTIONS:
        section(csvargs)

    # item 8 and what already passed: retries
    for mode, extra, name in (
            ("retry_after_max", ["--faults", "1"], "Retry-After 9223372036854775807"),
            ("throttle_huge", ["--faults", "1"], "ThrottlingException, Retry-After 1e6 s"),
            ("error_5xx", [], "2 x HTTP 503"),
            ("reset", [], "2 x a connection cut mid-body"),
            ("truncated", [], "2 x a 200 whose JSON is cut"),
            ("skew", [], "a server clock 20 minutes ahead")):
        with Server(mode, *extra) as s:
            rc, out, err, secs = run(s, *csvargs, timeout=90)
            ok(rc == 0 and len(rows(out)) == 5 and secs < 45,
               "recovers from %s (%.1f s)" % (name, secs), "rc=%d %s" % (rc, err[-300:]))

    # what must fail, quickly and in one line
    with Server("body_1gib") as s:
        rc, out, err, secs = run(s, *csvargs)
        ok(rc == 1 and one_line(err) and "larger than" in err and secs < 60,
           "a 1 GiB answer is refused (%.1f s)" % secs, "rc=%d %r" % (rc, err))
    with Server("fat_answers") as s:
        # the answers together, not each alone: 16 threads x 40 MiB would be 640 MiB
        rc, out, err, secs, rss = run_rss(s, *csvargs, "--concurrency", "16")
        st = s.stats()
        # without the budget: 1,054 MiB and exit 0; with it 376-613 MiB: the budget holds
        # the bytes received, and the answers that completed are being parsed beside them
        # (ASan's shadow and quarantine add their own)
        with open(ECSPROF, "rb") as f:
            bound = 1300 if b"__asan_init" in f.read() else 800
        ok(rc == 1 and one_line(err) and "lower --concurrency" in err and rss < bound,
           "answers in flight are bounded together (peak %d MiB, %d requests, %.1f s)"
           % (rss, st["requests"], secs), "rc=%d rss=%d %r" % (rc, rss, err[-400:]))
    with Server("slowloris") as s:
        rc, out, err, secs = run(s, *csvargs, "--request-timeout", "2")
        ok(rc == 1 and one_line(err) and secs < 20,
           "slowloris: --request-timeout ends it (%.1f s)" % secs, "rc=%d %r" % (rc, err))
    with Server("redirect") as s:
        rc, out, err, secs = run(s, *csvargs)
        st = s.stats()
        ok(rc == 1 and one_line(err) and st["redirect_hits"] == 0 and "307" in err,
           "a redirect is not followed", "rc=%d %s %r" % (rc, st, err))

    print("1..%d" % len(results))
    failed = 0
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good:
            failed += 1
            for line in detail.splitlines()[:20]:
                print("# " + line.encode("unicode_escape").decode())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
