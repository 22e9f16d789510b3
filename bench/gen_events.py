#!/usr/bin/env python3
"""Writes N ECS tasks as EventBridge "ECS Task State Change" events, one per line.

Each task gets its final RUNNING (or STOPPED) event; one task in ten also gets an earlier
PENDING version, and one in fifty a repeated delivery of the same version (EventBridge
delivers at least once), so deduplication has work to do. Deterministic for a given seed.

usage: gen_events.py N OUT_FILE [SEED]
"""
import datetime
import json
import random
import sys

REGION = "us-east-1"
ACCOUNT = "111122223333"
CLUSTER = "prod"
BASE = datetime.datetime(2024, 5, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def task_detail(rng, i, version, running):
    tid = "%032x" % rng.getrandbits(128)
    arn = "arn:aws:ecs:%s:%s:task/%s/%s" % (REGION, ACCOUNT, CLUSTER, tid)
    rev = 7 + (i % 2)
    svc = "web" if i % 3 else "worker"
    created = BASE + datetime.timedelta(milliseconds=i * 250 + rng.randrange(1000))
    pull_start = created + datetime.timedelta(milliseconds=rng.randrange(8000, 40000))
    pull_stop = pull_start + datetime.timedelta(milliseconds=rng.randrange(2000, 90000))
    started = pull_stop + datetime.timedelta(milliseconds=rng.randrange(500, 6000))
    conn = created + datetime.timedelta(milliseconds=rng.randrange(3000, 8000))
    eni = "eni-%017x" % rng.getrandbits(68)
    d = {
        "attachments": [{
            "id": "%08x-1111-2222-3333-%012x" % (i, rng.getrandbits(48)),
            "type": "eni",
            "status": "ATTACHED",
            "details": [
                {"name": "subnetId", "value": "subnet-0abc%05d" % (i % 6)},
                {"name": "networkInterfaceId", "value": eni},
                {"name": "macAddress", "value": "0a:1b:2c:%02x:%02x:%02x" % (i % 256, (i >> 8) % 256, 7)},
                {"name": "privateDnsName", "value": "ip-10-0-%d-%d.ec2.internal" % (i % 250, (i >> 8) % 250)},
                {"name": "privateIPv4Address", "value": "10.0.%d.%d" % (i % 250, (i >> 8) % 250)},
            ],
        }],
        "attributes": [{"name": "ecs.cpu-architecture", "value": "x86_64"}],
        "availabilityZone": "us-east-1" + "abc"[i % 3],
        "clusterArn": "arn:aws:ecs:%s:%s:cluster/%s" % (REGION, ACCOUNT, CLUSTER),
        "containers": [{
            "containerArn": "arn:aws:ecs:%s:%s:container/%s/%s/%032x" % (REGION, ACCOUNT, CLUSTER, tid, rng.getrandbits(128)),
            "lastStatus": "RUNNING" if running else "PENDING",
            "name": svc,
            "image": "%s.dkr.ecr.%s.amazonaws.com/%s:v%d" % (ACCOUNT, REGION, svc, rev),
            "imageDigest": "sha256:%064x" % rng.getrandbits(256),
            "runtimeId": "%s-%010d" % (tid, rng.getrandbits(30)),
            "taskArn": arn,
            "networkInterfaces": [{"attachmentId": "%08x-aaaa" % i, "privateIpv4Address": "10.0.%d.%d" % (i % 250, (i >> 8) % 250)}],
            "cpu": "0",
        }],
        "cpu": "512",
        "createdAt": iso(created),
        "desiredStatus": "RUNNING",
        "enableExecuteCommand": False,
        "ephemeralStorage": {"sizeInGiB": 20},
        "group": "service:" + svc,
        "launchType": "FARGATE",
        "lastStatus": "RUNNING" if running else "PENDING",
        "memory": "1024",
        "overrides": {"containerOverrides": [{"name": svc}]},
        "platformVersion": "1.4.0",
        "startedBy": "ecs-svc/%019d" % (1000 + rev),
        "tags": [{"key": "team", "value": "payments"}, {"key": "env", "value": "prod"}],
        "taskArn": arn,
        "taskDefinitionArn": "arn:aws:ecs:%s:%s:task-definition/%s:%d" % (REGION, ACCOUNT, svc, rev),
        "updatedAt": iso(started if running else conn),
        "version": version,
    }
    if running:
        d.update({"connectivity": "CONNECTED", "connectivityAt": iso(conn),
                  "pullStartedAt": iso(pull_start), "pullStoppedAt": iso(pull_stop),
                  "startedAt": iso(started)})
    return d, arn


def event(rng, detail, arn):
    return {
        "version": "0",
        "id": "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48)),
        "detail-type": "ECS Task State Change",
        "source": "aws.ecs",
        "account": ACCOUNT,
        "time": detail["updatedAt"],
        "region": REGION,
        "resources": [arn],
        "detail": detail,
    }


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    with open(out, "w") as f:
        for i in range(n):
            state = rng.getstate()
            final, arn = task_detail(rng, i, 3, True)
            lines = [json.dumps(event(rng, final, arn), separators=(",", ":"))]
            if i % 10 == 0:
                rng2 = random.Random()
                rng2.setstate(state)
                early, _ = task_detail(rng2, i, 1, False)
                # an earlier version delivered late: out of order on purpose
                lines.append(json.dumps(event(rng, early, arn), separators=(",", ":")))
            if i % 50 == 0:
                lines.append(lines[0])
            for l in lines:
                f.write(l)
                f.write("\n")


if __name__ == "__main__":
    main()
