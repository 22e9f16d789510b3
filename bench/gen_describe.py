#!/usr/bin/env python3
"""Writes N ECS tasks as one DescribeTasks answer on one line, as `aws ecs describe-tasks
... | jq -c` does: {"tasks":[...],"failures":[...]} (or, with --array, a bare JSON array of
the tasks). Each task is about 370 bytes, so 300,000 tasks make a 107 MiB document: the
size of issue 10 item 11's measurement. Deterministic for a given seed.

usage: gen_describe.py N OUT_FILE [SEED] [--array]
"""
import datetime
import json
import random
import sys

BASE = datetime.datetime(2024, 5, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def task(rng, i):
    tid = "%032x" % rng.getrandbits(128)
    created = BASE + datetime.timedelta(milliseconds=i * 25 + rng.randrange(1000))
    pull_start = created + datetime.timedelta(milliseconds=rng.randrange(8000, 40000))
    pull_stop = pull_start + datetime.timedelta(milliseconds=rng.randrange(2000, 90000))
    started = pull_stop + datetime.timedelta(milliseconds=rng.randrange(500, 6000))
    svc = "web" if i % 3 else "worker"
    return {
        "taskArn": "arn:aws:ecs:us-east-1:111122223333:task/prod/" + tid,
        "taskDefinitionArn": "arn:aws:ecs:us-east-1:111122223333:task-definition/%s:7" % svc,
        "group": "service:" + svc,
        "createdAt": iso(created),
        "pullStartedAt": iso(pull_start),
        "pullStoppedAt": iso(pull_stop),
        "startedAt": iso(started),
        "version": 3,
    }


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n, out = int(args[0]), args[1]
    rng = random.Random(int(args[2]) if len(args) > 2 else 1)
    tasks = (json.dumps(task(rng, i), separators=(",", ":")) for i in range(n))
    with open(out, "w") as f:
        if "--array" in sys.argv:
            f.write("[")
        else:
            f.write('{"tasks":[')
        for i, t in enumerate(tasks):
            if i:
                f.write(",")
            f.write(t)
        if "--array" in sys.argv:
            f.write("]\n")
        else:
            f.write('],"failures":[{"arn":"arn:aws:ecs:us-east-1:111122223333:task/prod/gone",'
                    '"reason":"MISSING"}]}\n')


if __name__ == "__main__":
    main()
