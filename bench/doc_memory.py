#!/usr/bin/env python3
"""Peak memory of one large single-line document (issue 31): N tasks (default 300,000,
about 107 MiB) as one DescribeTasks answer on one line (`jq -c`'s), read before (held
whole first: bench_input with BENCH_WHOLE_DOC=1) and now (read as it comes), and the same
tasks as JSON Lines as the baseline, all measured in this run (peak RSS of each child from
getrusage). Also `ecsprof report --format csv` on both files: the CSVs must be the same
bytes. Prints the figures and the ratios; exits 1 when the outputs differ, and (STRICT=1)
when the one-line document now peaks above 2x the JSON Lines reading of the same tasks.

usage: bench/doc_memory.py BENCH_INPUT       (meson test --benchmark -C BUILD doc_memory)
env:   ECSPROF  the ecsprof binary;  N  tasks;  KEEP=1  keep the files in /tmp"""
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def task(i, rich=False):
    t = {"taskArn": "arn:aws:ecs:us-east-1:111122223333:task/prod/%032x" % i,
            "group": "service:web%d" % (i % 5), "lastStatus": "RUNNING",
            "launchType": "FARGATE", "cpu": "256", "memory": "512",
            "createdAt": "2024-05-01T10:%02d:%02d.%03dZ" % (i // 60 % 60, i % 60, i % 1000),
            "pullStartedAt": "2024-05-01T11:00:10.000Z",
            "pullStoppedAt": "2024-05-01T11:00:40.000Z",
            "startedAt": "2024-05-01T11:00:41.000Z", "version": 3}
    if rich:
        # what an awsvpc task carries besides: its ENI and the container's own copy,
        # text the reader passes over
        eni = "eni-%017x" % i
        t["attachments"] = [{"id": "%036x" % i, "type": "ElasticNetworkInterface",
                             "status": "ATTACHED", "details": [
                                 {"name": k, "value": v} for k, v in (
                                     ("subnetId", "subnet-0123456789abcdef0"),
                                     ("networkInterfaceId", eni),
                                     ("macAddress", "0a:1b:2c:3d:4e:%02x" % (i % 256)),
                                     ("privateDnsName", "ip-10-0-%d-%d.ec2.internal" %
                                      (i // 256 % 256, i % 256)),
                                     ("privateIPv4Address", "10.0.%d.%d" %
                                      (i // 256 % 256, i % 256)))]}]
        t["containers"] = [{"containerArn": "arn:aws:ecs:us-east-1:111122223333:container/"
                            "prod/%032x/%036x" % (i, i), "name": "app",
                            "image": "111122223333.dkr.ecr.us-east-1.amazonaws.com/web:1",
                            "lastStatus": "RUNNING", "networkBindings": [],
                            "networkInterfaces": [{"attachmentId": "%036x" % i,
                                                   "privateIpv4Address": "10.0.0.1"}],
                            "cpu": "0", "memoryReservation": "256"}]
        t["overrides"] = {"containerOverrides": [{"name": "app"}],
                          "inferenceAcceleratorOverrides": []}
    return t


def measure(argv, out, env=None):
    """wall seconds, peak RSS KiB, exit code of one child (its own getrusage)"""
    t = time.monotonic()
    with open(out, "wb") as f:
        p = subprocess.Popen(argv, stdout=f, env=env)
        _, status, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def scenario(title, n, rich, bench_input, ecsprof, work):
    """one file's figures; returns (CSVs identical, now / JSON Lines)"""
    one = os.path.join(work, "one", "tasks.json")
    lines = os.path.join(work, "lines", "tasks.json")
    os.makedirs(os.path.dirname(one), exist_ok=True)
    os.makedirs(os.path.dirname(lines), exist_ok=True)
    with open(one, "w") as f1, open(lines, "w") as fl:
        f1.write('{"tasks":[')
        for i in range(n):
            s = json.dumps(task(i, rich), separators=(",", ":"))
            f1.write(("," if i else "") + s)
            fl.write(s + "\n")
        f1.write('],"failures":[]}\n')
    size = os.path.getsize(one)
    print("%s: %d tasks, one line of %.1f MiB (load %.2f)" % (title, n, size / 2**20,
          os.getloadavg()[0]))
    env_before = dict(os.environ, BENCH_WHOLE_DOC="1")
    runs = [("one line, held whole (before)", [bench_input, one], env_before),
            ("one line, as it comes (now)", [bench_input, one], None),
            ("JSON Lines (baseline)", [bench_input, lines], None)]
    peak = {}
    for name, argv, env in runs:
        wall, rss, rc = measure(argv, os.path.join(work, "out"), env)
        peak[name] = rss
        print("  bench_input %-32s %8.1f MiB peak  %6.2f s  exit %d" % (name, rss / 1024,
              wall, rc))
    before, now, base = (peak[r[0]] for r in runs)
    print("  now / before  %.2fx   now / JSON Lines  %.2fx   before / JSON Lines  %.2fx"
          % (now / before, now / base, before / base))
    csv = {}
    for name, path in (("one line", one), ("JSON Lines", lines)):
        out = os.path.join(work, name.replace(" ", "_") + ".csv")
        cwd = os.getcwd()
        os.chdir(os.path.dirname(path))   # the same source column in both
        wall, rss, rc = measure([ecsprof, "report", "tasks.json", "--format", "csv"], out)
        os.chdir(cwd)
        with open(out, "rb") as f:   # a digest: held here, the text would count in
            h = hashlib.sha256()        # the next child's peak (forked from this one)
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        csv[name] = (h.hexdigest(), os.path.getsize(out))
        print("  ecsprof report --format csv, %-10s %8.1f MiB peak  %6.2f s  exit %d" %
              (name, rss / 1024, wall, rc))
    # report --deployments reads a file's text for its deployments, then its tasks as it
    # comes (it held both at once before issue 31)
    cwd = os.getcwd()
    os.chdir(os.path.dirname(one))
    wall, rss, rc = measure([ecsprof, "report", "--deployments", "tasks.json", "--format",
                             "csv"], os.path.join(work, "out"))
    os.chdir(cwd)
    print("  ecsprof report --deployments, one line    %8.1f MiB peak  %6.2f s  exit %d "
          "(the text is %.1f MiB)" % (rss / 1024, wall, rc, size / 2**20))
    same = csv["one line"] == csv["JSON Lines"] and csv["one line"][1] > 0
    print("  report CSVs %s (%d bytes)" % ("identical" if same else "DIFFER",
          csv["one line"][1]))
    return same, now / base


def main():
    bench_input = sys.argv[1]
    ecsprof = os.environ.get("ECSPROF", "ecsprof")
    n = int(os.environ.get("N", "300000"))
    work = tempfile.mkdtemp(prefix="ecsprof-docmem.")
    try:
        same1, r1 = scenario("plain tasks", n, False, bench_input, ecsprof, work)
        same2, r2 = scenario("awsvpc tasks (ENI attachments)", n // 3, True, bench_input,
                             ecsprof, work)
        ok = r1 <= 2 and r2 <= 2
        print("%s: one line now peaks at %.2fx / %.2fx the JSON Lines reading of the same "
              "tasks (goal: under 2x)" % ("PASS" if ok else "MISS", r1, r2))
        if not (same1 and same2) or (not ok and os.environ.get("STRICT") == "1"):
            return 1
        return 0
    finally:
        if os.environ.get("KEEP") != "1":
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
