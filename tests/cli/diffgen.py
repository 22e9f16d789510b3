#!/usr/bin/env python3
"""Generated histories for `ecsprof diff` (describe-tasks JSON, a seeded RNG).

  diffgen.py digest SEED DIR   a service deployed twice: the second deployment's image
                               digest pulls ~35 s slower; base.json (the first deployment's
                               60 tasks), new.json (40 tasks on the new digest and 12 still on
                               the old one; new-events.jsonl: the same as EventBridge
                               events); --split reads both files as one history
  diffgen.py same SEED DIR     base.json and new.json drawn from one distribution (40 + 40)
  diffgen.py big SEED DIR      digest's history a hundred times larger (6,000 + 5,200 tasks),
                               for bench/bench_diff
  diffgen.py history SEED DIR  history.json: 7 days (2026-11-30 to 2026-12-06), a task every
                               40 min; on 2026-12-04 at 02:00 a new deployment's digest
                               pulls ~35 s slower (for `report --changes`)
  diffgen.py steady SEED DIR   the same history, the new digest on 2026-12-04 no slower

Every figure comes from random.Random(SEED), so a seed is one history, byte for byte."""
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

ACCOUNT = "123456789012"
REGION = "us-east-1"
OLD = "sha256:9f3e" + "1c7a" * 15
NEW = "sha256:ab12" + "5d0e" * 15
T0 = datetime(2026, 11, 30, 8, 0, 0, tzinfo=timezone.utc)


def iso(t):
    return t.isoformat(timespec="milliseconds")


def task(rng, i, created, digest, rev, deployment, slower):
    tid = "%032x" % rng.getrandbits(128)
    arn = "arn:aws:ecs:%s:%s:task/prod/%s" % (REGION, ACCOUNT, tid)
    attach = max(rng.gauss(8.0, 1.0), 2.0)
    wait = max(rng.gauss(6.0, 1.0), 1.0)
    pull = max(rng.gauss(14.0, 2.0) + slower, 1.0)
    start = max(rng.gauss(4.0, 0.6), 0.5)
    connected = created + timedelta(seconds=attach)
    pull_start = connected + timedelta(seconds=wait)
    pull_stop = pull_start + timedelta(seconds=pull)
    started = pull_stop + timedelta(seconds=start)
    tag = "2026.11.%d" % rev
    return {
        "taskArn": arn,
        "clusterArn": "arn:aws:ecs:%s:%s:cluster/prod" % (REGION, ACCOUNT),
        "taskDefinitionArn": "arn:aws:ecs:%s:%s:task-definition/checkout-api:%d"
        % (REGION, ACCOUNT, rev),
        "group": "service:checkout-api",
        "startedBy": deployment,
        "launchType": "FARGATE",
        "capacityProviderName": "FARGATE",
        "platformVersion": "1.4.0",
        "platformFamily": "Linux",
        "availabilityZone": "us-east-1a" if i % 2 == 0 else "us-east-1b",
        "cpu": "1024",
        "memory": "2048" if rev == 7 else "4096",
        "lastStatus": "RUNNING",
        "desiredStatus": "RUNNING",
        "version": 3,
        "createdAt": iso(created),
        "connectivityAt": iso(connected),
        "pullStartedAt": iso(pull_start),
        "pullStoppedAt": iso(pull_stop),
        "startedAt": iso(started),
        "containers": [{
            "name": "checkout-api",
            "taskArn": arn,
            "image": "%s.dkr.ecr.%s.amazonaws.com/checkout-api:%s" % (ACCOUNT, REGION,
                                                                      "2026.11.3" if digest == OLD else tag),
            "imageDigest": digest,
            "lastStatus": "RUNNING",
        }],
    }


def write(path, tasks):
    with open(path, "w") as f:
        json.dump({"tasks": tasks, "failures": []}, f, separators=(",", ":"))
        f.write("\n")


def write_events(path, tasks):
    """The same tasks as EventBridge "ECS Task State Change" events, one per line."""
    with open(path, "w") as f:
        for i, t in enumerate(tasks):
            ev = {"version": "0", "id": "%08d-0000-4000-8000-000000000000" % i,
                  "detail-type": "ECS Task State Change", "source": "aws.ecs",
                  "account": ACCOUNT, "time": t["startedAt"], "region": REGION,
                  "resources": [t["taskArn"]], "detail": t}
            f.write(json.dumps(ev, separators=(",", ":")) + "\n")


def digest(seed, out, scale=1):
    rng = random.Random(seed)
    base, new = [], []
    for i in range(60 * scale):
        base.append(task(rng, i, T0 + timedelta(seconds=40 * i / scale), OLD, 7,
                         "ecs-svc/1111111111111111111", 0))
    later = T0 + timedelta(days=1)
    # 12 tasks still on the old digest (the old deployment's replacements), 40 on the new,
    # interleaved in time as a rolling deployment does
    kinds = ["old"] * 12 * scale + ["new"] * 40 * scale
    rng.shuffle(kinds)
    new = []
    for i, k in enumerate(kinds):
        created = later + timedelta(seconds=30 * i / scale)
        if k == "new":
            new.append(task(rng, 100 + i, created, NEW, 8, "ecs-svc/2222222222222222222", 35.0))
        else:
            new.append(task(rng, 100 + i, created, OLD, 7, "ecs-svc/1111111111111111111", 0))
    write(os.path.join(out, "base.json"), base)
    write(os.path.join(out, "new.json"), new)
    write_events(os.path.join(out, "new-events.jsonl"), new)


def same(seed, out, n=40):
    rng = random.Random(seed)
    base = [task(rng, i, T0 + timedelta(seconds=40 * i), OLD, 7, "ecs-svc/1111111111111111111", 0)
            for i in range(n)]
    later = T0 + timedelta(days=1)
    new = [task(rng, 100 + i, later + timedelta(seconds=40 * i), OLD, 7,
                "ecs-svc/1111111111111111111", 0) for i in range(n)]
    write(os.path.join(out, "base.json"), base)
    write(os.path.join(out, "new.json"), new)


SHIFT = datetime(2026, 12, 4, 2, 0, 0, tzinfo=timezone.utc)


def history(seed, out, slower=35.0):
    """A week of one service, a task every 40 minutes; the deployment at SHIFT brings the
    new digest (and revision 8), `slower` seconds more to pull."""
    rng = random.Random(seed)
    day0 = datetime(2026, 11, 30, 0, 0, 0, tzinfo=timezone.utc)
    tasks = []
    for i in range(7 * 36):
        created = day0 + timedelta(minutes=40 * i, seconds=rng.randint(0, 600))
        if created >= SHIFT:
            tasks.append(task(rng, i, created, NEW, 8, "ecs-svc/2222222222222222222", slower))
        else:
            tasks.append(task(rng, i, created, OLD, 7, "ecs-svc/1111111111111111111", 0))
    write(os.path.join(out, "history.json"), tasks)


def main():
    kinds = {"digest": digest, "same": same, "history": history,
             "big": lambda seed, out: digest(seed, out, 100),
             "steady": lambda seed, out: history(seed, out, 0.0)}
    if len(sys.argv) != 4 or sys.argv[1] not in kinds:
        sys.exit(__doc__)
    os.makedirs(sys.argv[3], exist_ok=True)
    kinds[sys.argv[1]](int(sys.argv[2]), sys.argv[3])


if __name__ == "__main__":
    main()
