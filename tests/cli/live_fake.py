#!/usr/bin/env python3
"""TAP: `ecsprof tasks` and `ecsprof record` against our fake ECS server (tests/fake_ecs.py):
paging over 3,000 tasks, the phases of known tasks, throttling, 5xx, cut connections,
clock skew, wrong secrets, IAM denials and unknown clusters."""
import csv
import io
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
from fakeserver import control  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SMALL = os.path.join(SRCDIR, "tests", "fixtures", "live", "small.json")

results = []
TMP = tempfile.mkdtemp(prefix="ecsprof-live-")


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def start_server(scenario, *extra):
    return fakeserver.start("fake_ecs.py", ["--scenario", scenario] + list(extra))


def control_tls_requests(port, cert):
    """requests that got past TLS so far"""
    import ssl
    ctx = ssl.create_default_context(cafile=cert)
    with urllib.request.urlopen("https://127.0.0.1:%d/_fake/stats" % port, context=ctx,
                                timeout=10) as r:
        return json.loads(r.read())["requests"]


def run(port, *args, key="AKIDFAKE", secret="fakesecret", env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({
        "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret,
        "AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1",
        # no config files: only the environment speaks
        "AWS_CONFIG_FILE": os.path.join(TMP, "no-config"),
        "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "no-credentials"),
    })
    cmd = [ECSPROF] + list(args)
    if "--endpoint-url" not in args:
        cmd += ["--endpoint-url", "http://127.0.0.1:%d" % port, "--region", "us-east-1"]
    # the image lookups go to the fake's ECR side (tests/fake_ecr.py), cached in TMP
    env["AWS_ENDPOINT_URL_ECR"] = cmd[cmd.index("--endpoint-url") + 1]
    env["XDG_CACHE_HOME"] = os.path.join(TMP, "cache")
    env.update(env_extra or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def rows(out):
    return list(csv.DictReader(io.StringIO(out)))


def one_line(err):
    lines = [l for l in err.strip().splitlines() if l.strip()]
    return len(lines) == 1


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    tmp = TMP
    big = os.path.join(tmp, "big.json")
    with open(big, "w") as f:
        json.dump({"credentials": {"AKIDFAKE": "fakesecret"},
                   "clusters": {"big": {"services": {"web": {}},
                                        "generate": {"count": 3000, "service": "web",
                                                     "seed": 3, "spread": 900,
                                                     "stopped_fraction": 0.05}}}}, f)
    servers = []
    try:
        srv, port = start_server(SMALL)
        servers.append(srv)
        bsrv, bport = start_server(big)
        servers.append(bsrv)
        # frozen virtual time: answers do not change between two runs
        control(port, "/_fake/advance", {"to": 0, "freeze": True})

        # 1. paging over 3,000 tasks: exactly the server's tasks, once each
        rc, out, err = run(bport, "tasks", "--cluster", "big", "--format", "csv")
        want = sorted(control(bport, "/_fake/tasks/big")["ids"])
        got = sorted(r["task_id"] for r in rows(out)) if rc == 0 else []
        ok(rc == 0 and got == want and len(want) == 3000,
           "3,000 tasks over 30 ListTasks pages, each once", "rc=%d got=%d want=%d %s"
           % (rc, len(got), len(want), err.strip()[:300]))
        st = control(bport, "/_fake/stats")
        ok(st["ops"].get("DescribeTasks", 0) == 30 and st["max_inflight"] >= 2,
           "DescribeTasks in 30 batches of 100 with requests overlapping", json.dumps(st))

        # 2. the phases of known tasks come out of the CSV as the scenario made them
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv")
        by_id = {r["task_id"]: r for r in rows(out)} if rc == 0 else {}
        a = by_id.get("a1b2c3d4e5f60718293a4b5c6d7e8f90", {})
        ok(rc == 0 and a.get("provision_s") == "21.250" and a.get("pull_s") == "14.500"
           and a.get("start_s") == "2.750" and a.get("total_s") == "38.500"
           and a.get("connectivity_s") == "6.500" and a.get("service") == "web",
           "phases of a running task", "%s %s" % (a, err.strip()[:300]))
        c = by_id.get("c1b2c3d4e5f60718293a4b5c6d7e8f92", {})
        ok(c.get("stop_code") == "TaskFailedToStart" and c.get("pull_s") == ""
           and c.get("provision_s") == "22.000", "a failed pull is kept, pull empty", str(c))
        ok(len(by_id) == 4 and "d1b2c3d4e5f60718293a4b5c6d7e8f93" not in by_id,
           "a task not yet created is not listed", str(sorted(by_id)))

        # 3. watch-style time: the future task appears after the server clock moves
        control(port, "/_fake/advance", {"to": 36, "freeze": True})
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--task", "d1b2c3d4e5f60718293a4b5c6d7e8f93")
        r = rows(out)
        ok(rc == 0 and len(r) == 1 and r[0]["last_status"] == "PENDING"
           and r[0]["pull_started_at"] == "" and r[0]["created_at"] != "",
           "--task: a task still provisioning shows its first timestamps only",
           "%d %s %s" % (rc, r, err.strip()[:200]))

        # 4. filters: --service, --status, --since
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--status", "stopped")
        ids = sorted(r["task_id"][:2] for r in rows(out))
        ok(rc == 0 and ids == ["c1", "e1"], "--status stopped", "%s %s" % (ids, err[:200]))
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--service", "web", "--status", "running")
        ids = sorted(r["task_id"][:2] for r in rows(out))
        ok(rc == 0 and ids == ["a1", "b1", "d1"], "--service web --status running",
           "%s %s" % (ids, err[:200]))
        # --debug shows the exchange and the canonical request, never the secrets
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv", "--debug",
                           env_extra={"AWS_SESSION_TOKEN": "TOKEN-must-not-show-0123456789"})
        ok(rc == 0 and "canonical request" in err and "Signature=<redacted>" in err
           and "x-amz-security-token:<redacted>" in err and "fakesecret" not in err
           and "TOKEN-must-not-show" not in err and "TOKEN-must-not-show" not in out,
           "--debug traces requests with the signature and session token redacted",
           err[-600:])
        # ECS allows startedBy only as the sole filter (the fake refuses the mix): the
        # service filter must then be applied to what comes back
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--started-by", "ecs-svc/1234567890123456789", "--service", "web",
                           "--status", "running")
        ids = sorted(r["task_id"][:2] for r in rows(out))
        ok(rc == 0 and ids == ["a1", "b1", "d1"], "--started-by with --service",
           "%s %s" % (ids, err[:200]))
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--started-by", "nightly", "--service", "web")
        ok(rc == 0 and rows(out) == [], "--started-by of a non-service task with --service",
           "%s %s" % (out[:200], err[:200]))
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--since", "8m")
        ids = sorted(r["task_id"][:2] for r in rows(out))
        ok(rc == 0 and ids == ["a1", "b1", "c1", "d1"], "--since 8m leaves out the 10m-old task",
           "%s %s" % (ids, err[:200]))

        # 5. faults the client must ride out
        for fault, name in (("throttle", "ThrottlingException"),
                            ("throttle_429", "HTTP 429 with Retry-After"),
                            ("error_5xx", "HTTP 503"),
                            ("truncate", "a connection cut mid-answer"),
                            ("bad_json", "a 200 whose JSON is cut short")):
            before = control(port, "/_fake/stats")["faults"]
            control(port, "/_fake/inject", {fault: 2, "retry_after": 1})
            rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv")
            after = control(port, "/_fake/stats")["faults"]
            ok(rc == 0 and len(rows(out)) == 5 and after - before == 2,
               "recovers from 2 x %s" % name, "rc=%d faults=%d %s"
               % (rc, after - before, err.strip()[:300]))
        control(port, "/_fake/inject", {"error_5xx": 10})
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv")
        control(port, "/_fake/inject", {"error_5xx": 0})
        ok(rc == 1 and out == "" and one_line(err) and "503" in err and "attempts" in err,
           "persistent 503: one line, no output, exit 1", "rc=%d %r" % (rc, err))
        control(port, "/_fake/inject", {"bad_json": 10})
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv")
        control(port, "/_fake/inject", {"bad_json": 0})
        ok(rc == 1 and one_line(err) and "cut short" in err,
           "persistently cut answers: a clear error", "rc=%d %r" % (rc, err))
        control(port, "/_fake/inject", {"throttle": 20})
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           env_extra={"AWS_MAX_ATTEMPTS": "2"})
        left = control(port, "/_fake/stats")
        control(port, "/_fake/inject", {"throttle": 0})
        ok(rc == 1 and "ThrottlingException" in err and "after 2 attempts" in err,
           "AWS_MAX_ATTEMPTS=2 gives up after 2 throttled attempts", "rc=%d %r" % (rc, err))

        # a request that hangs is cut by --request-timeout and tried again
        control(port, "/_fake/inject", {"slow": 1, "slow_ms": 4000})
        t0 = time.time()
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--request-timeout", "1", "-v")
        took = time.time() - t0
        ok(rc == 0 and len(rows(out)) == 5 and took < 3.5 and "retry" in err,
           "a hanging request times out after --request-timeout and is retried",
           "rc=%d %.1fs %s" % (rc, took, err.strip()[:300]))

        # 6. clock skew: the server's clock is 15 minutes ahead
        control(port, "/_fake/inject", {"skew_s": 900})
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv", "-v")
        control(port, "/_fake/inject", {"skew_s": 0})
        ok(rc == 0 and len(rows(out)) == 5 and "clock" in err,
           "a skewed server clock: re-signed with the server's time", "rc=%d %s"
           % (rc, err.strip()[:300]))

        # 7. errors in words
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           secret="wrongsecret")
        ok(rc == 1 and one_line(err) and "signature" in err.lower() and "secret" in err,
           "wrong secret: says signature", repr(err))
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           key="AKIDNOBODY")
        ok(rc == 1 and one_line(err) and "UnrecognizedClientException" in err,
           "unknown access key", repr(err))
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           key="AKIDLIMITED", secret="limitedsecret")
        ok(rc == 1 and one_line(err) and "AccessDeniedException" in err
           and "ecs:DescribeTasks" in err and "IAM policy" in err,
           "missing ecs:DescribeTasks: the IAM denial in words", repr(err))
        rc, out, err = run(port, "tasks", "--cluster", "prdo", "--format", "csv")
        ok(rc == 1 and one_line(err) and "ClusterNotFoundException" in err
           and "prdo" in err and "prod, staging" in err,
           "unknown cluster: names the clusters there are", repr(err))
        rc, out, err = run(port, "tasks", "--cluster", "prod", "--format", "csv",
                           "--endpoint-url", "http://127.0.0.1:9", "--region", "us-east-1",
                           env_extra={"AWS_MAX_ATTEMPTS": "1"})
        ok(rc == 1 and one_line(err) and "127.0.0.1" in err, "connection refused: one line",
           repr(err))

        # 9. TLS: verified always; AWS_CA_BUNDLE names the CA to trust
        cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        tsrv, tport = start_server(SMALL, "--tls", cert, key)
        servers.append(tsrv)
        url = "https://127.0.0.1:%d" % tport
        rc, out, err = run(tport, "tasks", "--cluster", "prod", "--format", "csv",
                           "--endpoint-url", url, "--region", "us-east-1",
                           env_extra={"AWS_CA_BUNDLE": cert})
        ok(rc == 0 and len(rows(out)) == 4, "https with AWS_CA_BUNDLE", "rc=%d %s"
           % (rc, err.strip()[:300]))
        before = control_tls_requests(tport, cert)
        t0 = time.time()
        rc, out, err = run(tport, "tasks", "--cluster", "prod", "--format", "csv",
                           "--endpoint-url", url, "--region", "us-east-1")
        ok(rc == 1 and one_line(err) and "certificate" in err.lower()
           and "attempts" not in err and time.time() - t0 < 5
           and control_tls_requests(tport, cert) == before,
           "an untrusted certificate is refused at once, not retried", repr(err))

        # 8. record: merged, idempotent, readable by report
        rec = os.path.join(tmp, "rec.jsonl")
        rc1, _, err1 = run(port, "record", "--cluster", "prod", "-o", rec)
        first = open(rec, "rb").read() if os.path.exists(rec) else b""
        rc2, _, err2 = run(port, "record", "--cluster", "prod", "-o", rec)
        second = open(rec, "rb").read() if os.path.exists(rec) else b""
        # 5 task lines, and one image line for their image (live_images.py tests those)
        ok(rc1 == 0 and rc2 == 0 and first.count(b"\"task\":") == 5 and first == second,
           "record twice: 5 lines, unchanged the second time", "%d %d %s %s"
           % (rc1, rc2, err1.strip()[:200], err2.strip()[:200]) + "\n" + "\n".join(l[:300] for l in __import__("difflib").unified_diff(first.decode().splitlines(), second.decode().splitlines(), lineterm="")))
        control(port, "/_fake/inject", {"error_5xx": 10})
        rc3, _, err3 = run(port, "record", "--cluster", "prod", "-o", rec)
        control(port, "/_fake/inject", {"error_5xx": 0})
        third = open(rec, "rb").read() if os.path.exists(rec) else b""
        ok(rc3 == 1 and third == first, "a failed record leaves the file alone", err3[:200])
        rc, out, err = run(port, "report", "--format", "csv", rec)
        ok(rc == 0 and len(rows(out)) == 5, "report reads the recording back",
           "%d %s" % (rc, err[:200]))
        # a task whose version is no number has no identity to merge by: record skips it
        # with one line and keeps the others (it used to fail the whole recording)
        rec2 = os.path.join(tmp, "rec2.jsonl")
        control(port, "/_fake/inject", {"nameless_task": 1, "ops": ["DescribeTasks"]})
        rc4, _, err4 = run(port, "record", "--cluster", "prod", "-o", rec2)
        control(port, "/_fake/inject", {"nameless_task": 0, "ops": []})
        got = open(rec2, "rb").read() if os.path.exists(rec2) else b""
        ok(rc4 == 0 and got.count(b"\"task\":") == 4 and
           "not recorded: its identity cannot be read" in err4 and one_line(err4),
           "record: a task without a readable version is left out, the other 4 kept",
           "%d %r %d" % (rc4, err4[:400], got.count(b"\"task\":")))
    except Exception as e:  # a broken harness is a failure, never a skip
        ok(False, "harness", repr(e))
    finally:
        for s in servers:
            s.kill()
            s.wait()
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
