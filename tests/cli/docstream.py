#!/usr/bin/env python3
"""A large document read as it comes (issue 31), as a person runs it: `ecsprof report` on
a DescribeTasks answer over 1 MiB on one line (`jq -c`'s), indented, as a bare array,
after blank lines, gives the very CSV of the same tasks as JSON Lines (byte for byte); a
truncated one fails with one line naming the byte where the input ends. Prints TAP."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402

ECSPROF = os.environ["ECSPROF"]
T = tap.Tap()


def task(i):
    return {"taskArn": "arn:aws:ecs:us-east-1:111122223333:task/prod/%032x" % i,
            "group": "service:web%d" % (i % 3), "lastStatus": "RUNNING",
            "launchType": "FARGATE", "cpu": "256", "memory": "512",
            "stoppedReason": "a \"quoted\" ] } , reason \\ %d" % i,
            "createdAt": "2024-05-01T10:%02d:%02d.%03dZ" % (i // 60 % 60, i % 60, i % 1000),
            "pullStartedAt": "2024-05-01T11:00:10.000Z",
            "pullStoppedAt": "2024-05-01T11:00:40.000Z",
            "startedAt": "2024-05-01T11:00:41.000Z", "version": 3,
            "containers": [{"name": "app", "image": "nginx:1.%d" % (i % 4),
                            "lastStatus": "RUNNING"}],
            "tags": [{"key": "team", "value": "caf\u00e9 %d" % (i % 2)}]}


def report(work, name, text):
    """the CSV, stderr and exit status of `report` on text saved as work/name/tasks.json"""
    d = os.path.join(work, name)
    os.makedirs(d)
    with open(os.path.join(d, "tasks.json"), "w") as f:
        f.write(text)
    p = subprocess.run([ECSPROF, "report", "tasks.json", "--format", "csv"], cwd=d,
                       capture_output=True)
    return p.stdout, p.stderr.decode(errors="replace"), p.returncode


def main():
    tasks = [json.dumps(task(i), separators=(",", ":")) for i in range(5000)]
    with tempfile.TemporaryDirectory() as work:
        lines, err, rc = report(work, "lines", "\n".join(tasks) + "\n")
        T.ok(rc == 0 and lines.count(b"\n") == 5001, "JSON Lines: 5000 tasks", err)
        one = '{"tasks":[' + ",".join(tasks) + '],"failures":[]}\n'
        T.ok(len(one) > 2 << 20, "the one-line answer is over 2 MiB (%d bytes)" % len(one))
        cases = [("one line", one),
                 ("one line, no newline at the end", one.rstrip("\n")),
                 ("a bare array on one line", "[" + ",".join(tasks) + "]\n"),
                 ("blank lines before a one-line answer", "\n  \n\r\n" + one + "\n\n"),
                 ("indented, newlines inside", '{\n  "tasks": [\n    ' +
                  ",\n    ".join(tasks) + '\n  ],\n  "failures": []\n}\n'),
                 ("white space everywhere", '  { "tasks" :\t[ ' + " ,\n\t".join(tasks) +
                  ' ] \r\n ,"failures":null }  \n')]
        for i, (name, text) in enumerate(cases):
            csv, err, rc = report(work, "c%d" % i, text)
            T.ok(rc == 0 and csv == lines, "%s: the CSV of JSON Lines, byte for byte" % name,
                 "exit %d\n%s" % (rc, err))
        # report --deployments reads the text for deployments, then the tasks as they come
        dep = {}
        for name in ("lines", "c0"):
            p = subprocess.run([ECSPROF, "report", "--deployments", "tasks.json", "--format",
                                "csv"], cwd=os.path.join(work, name), capture_output=True)
            dep[name] = (p.returncode, p.stdout)
        T.ok(dep["c0"] == dep["lines"] and dep["c0"][0] == 0 and dep["c0"][1],
             "report --deployments: the one-line answer as JSON Lines", repr(dep)[:300])
        cut = one.index(tasks[4000]) + 100
        csv, err, rc = report(work, "truncated", one[:cut])
        msgs = [m for m in err.splitlines() if m.strip()]
        T.ok(rc != 0 and len(msgs) == 1 and
             "tasks.json: truncated JSON: the input ends at byte %d, inside tasks[4000]" % cut
             in msgs[0], "a truncated answer: one line naming the byte where it ends", err)
        bad = one.replace(tasks[2500], tasks[2500][:-1] + ",]", 1)
        csv, err, rc = report(work, "malformed", bad)
        T.ok(rc != 0 and "malformed JSON at byte" in err and "(tasks[2500])" in err,
             "a malformed task: named by its byte and index", err)
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
