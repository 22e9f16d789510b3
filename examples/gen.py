#!/usr/bin/env python3
"""Generates the example data set in this folder, deterministically (fixed seed).

    python3 examples/gen.py            # rewrite the files next to this script
    python3 examples/gen.py --check    # regenerate in memory, fail if a file differs

The scenario and where its numbers come from are in examples/README.md. Only the Python
standard library is used, so the output is the same on every machine and Python 3.9+.
"""
import datetime as dt
import json
import os
import random
import re
import sys

SEED = 20261130
REGION = "us-east-1"
ACCOUNT = "123456789012"
CLUSTER = "prod"
SERVICE = "checkout-api"
FAMILY = "checkout-api"
IMAGE = f"{ACCOUNT}.dkr.ecr.{REGION}.amazonaws.com/checkout-api:2026.11.3"
AZS = ["us-east-1a", "us-east-1b", "us-east-1c"]
SUBNETS = {"us-east-1a": ("subnet-0a1f3c5e7b9d2a4c6", "10.40.0"),
           "us-east-1b": ("subnet-0b2e4d6f8a0c1e3b5", "10.40.16"),
           "us-east-1c": ("subnet-0c3d5f7a9b1e2c4d6", "10.40.32")}
UTC = dt.timezone.utc

# When `aws ecs describe-tasks` ran (the snapshot in scaleout.json).
FETCHED_AT = dt.datetime(2026, 11, 30, 14, 6, 20, 117000, tzinfo=UTC)

rng = random.Random(SEED)


def hexstr(n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid4():
    h = hexstr(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:]}"


def digits(n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def ms(t):
    """Rounds a datetime to whole milliseconds (ECS keeps milliseconds)."""
    return t.replace(microsecond=(t.microsecond // 1000) * 1000)


def secs(x):
    return dt.timedelta(milliseconds=round(x * 1000))


IMAGE_DIGEST = "sha256:" + hexstr(64)
DEPLOY_A = "ecs-svc/" + digits(19)   # rev 7, the running deployment since the morning
DEPLOY_B = "ecs-svc/" + digits(19)   # rev 8, deployed during the scale-out


def clip(x, lo, hi):
    return max(lo, min(hi, x))


# ---------------------------------------------------------------------------------------
# Per-phase durations (seconds); see README.md "Where the numbers come from".
def provision_s(az, burst):
    # Fargate capacity + ENI attachment + agent setup: 10-40 s, a little slower in a burst
    # and in us-east-1c (a made-up AZ effect, so that --group-by az has something to show).
    base = rng.lognormvariate(2.85, 0.22) + (4.0 if burst else 0.0) + (3.5 if az == "us-east-1c" else 0.0)
    return clip(base, 10.2, 39.8)


def pull_s(rev):
    if rev == 7:   # full pull and unpack of a ~1.1 GB image: 60-90 s
        return clip(rng.gauss(71.0, 8.0), 56.0, 89.5)
    return clip(rng.lognormvariate(0.95, 0.35), 1.2, 6.5)   # SOCI: a few seconds


def start_s(rev):
    if rev == 7:   # container create/start until RUNNING
        return clip(rng.gauss(4.2, 1.1), 2.1, 7.5)
    # with lazy loading some of the image is fetched while the container starts
    return clip(rng.gauss(7.8, 1.8), 4.0, 13.0)


# ---------------------------------------------------------------------------------------
class Task:
    def __init__(self, rev, az, created, deploy):
        self.id = hexstr(32)
        self.arn = f"arn:aws:ecs:{REGION}:{ACCOUNT}:task/{CLUSTER}/{self.id}"
        self.rev = rev
        self.az = az
        self.deploy = deploy
        self.eni = "eni-0" + hexstr(16)
        self.attach_id = uuid4()
        self.container_id = uuid4()
        self.runtime_id = f"{self.id}-{digits(10)}"
        subnet, prefix = SUBNETS[az]
        self.subnet = subnet
        a, b, c = prefix.split(".")
        self.ip = f"{a}.{b}.{int(c) + rng.randint(0, 15)}.{rng.randint(4, 250)}"
        self.mac = ":".join(["0a"] + [hexstr(2) for _ in range(5)])
        self.ts = {"createdAt": ms(created)}
        self.last_status = "RUNNING"
        self.desired_status = "RUNNING"
        self.stop_code = None
        self.stopped_reason = None
        self.container_reason = None
        self.container_status = "RUNNING"
        self.has_digest = True
        self.version = 3
        self.connectivity = "CONNECTED"

    def grow(self, burst):
        """A task that reached RUNNING: every timestamp set."""
        c = self.ts["createdAt"]
        p = provision_s(self.az, burst)
        self.ts["connectivityAt"] = ms(c + secs(p * rng.uniform(0.45, 0.7)))
        self.ts["pullStartedAt"] = ms(c + secs(p))
        self.ts["pullStoppedAt"] = ms(self.ts["pullStartedAt"] + secs(pull_s(self.rev)))
        self.ts["startedAt"] = ms(self.ts["pullStoppedAt"] + secs(start_s(self.rev)))
        return self

    @property
    def taskdef_arn(self):
        return f"arn:aws:ecs:{REGION}:{ACCOUNT}:task-definition/{FAMILY}:{self.rev}"

    @property
    def updated_at(self):
        return max(self.ts.values())


def build_tasks():
    tasks = []
    # The four tasks that ran before the alarm, from the morning's deployment of rev 7.
    morning = dt.datetime(2026, 11, 30, 8, 41, 7, 204000, tzinfo=UTC)
    for i in range(4):
        t = Task(7, AZS[i % 3], morning + secs(i * 0.9 + rng.uniform(0, 0.4)), DEPLOY_A).grow(False)
        tasks.append(t)
    # 14:02:11 the CPU alarm fires; desired count 4 -> 30. ECS launches in waves.
    alarm = dt.datetime(2026, 11, 30, 14, 2, 11, 482000, tzinfo=UTC)
    waves = [(0.0, 5), (29.0, 5), (63.5, 3)]
    k = 0
    failed = None
    for offset, n in waves:
        for j in range(n):
            az = AZS[(k + 1) % 3]
            created = alarm + secs(offset + j * rng.uniform(0.15, 0.6))
            t = Task(7, az, created, DEPLOY_A)
            if offset == 29.0 and j == 2:
                failed = t
            else:
                t.grow(True)
            tasks.append(t)
            k += 1
    # One of the second wave never got its image: ECR unreachable from that ENI.
    f = failed
    f.az = "us-east-1b"
    f.subnet, prefix = SUBNETS[f.az]
    f.ip = f"10.40.{16 + rng.randint(0, 15)}.{rng.randint(4, 250)}"
    c = f.ts["createdAt"]
    p = provision_s(f.az, True)
    f.ts["connectivityAt"] = ms(c + secs(p * 0.55))
    f.ts["pullStartedAt"] = ms(c + secs(p))
    f.ts["stoppingAt"] = ms(f.ts["pullStartedAt"] + secs(61.4))
    f.ts["executionStoppedAt"] = ms(f.ts["stoppingAt"] + secs(1.9))
    f.ts["stoppedAt"] = ms(f.ts["executionStoppedAt"] + secs(28.7))
    f.last_status = f.desired_status = "STOPPED"
    f.stop_code = "TaskFailedToStart"
    reason = (f"CannotPullContainerError: pull image manifest has been retried 5 time(s): "
              f"failed to resolve ref {IMAGE}: failed to do request: Head "
              f"\"https://{ACCOUNT}.dkr.ecr.{REGION}.amazonaws.com/v2/checkout-api/manifests/2026.11.3\": "
              f"dial tcp 10.40.{rng.randint(16, 31)}.{rng.randint(4, 250)}:443: i/o timeout")
    f.stopped_reason = reason
    f.container_reason = reason
    f.container_status = "STOPPED"
    f.has_digest = False
    f.version = 4
    f.connectivity = "DISCONNECTED"

    # A late rev-7 task, still pulling when describe-tasks ran (PENDING, no pullStoppedAt).
    late = Task(7, "us-east-1c", alarm + secs(136.9), DEPLOY_A)
    c = late.ts["createdAt"]
    late.ts["connectivityAt"] = ms(c + secs(19.3))
    late.ts["pullStartedAt"] = ms(c + secs(38.4))
    late.last_status = "PENDING"
    late.container_status = "PENDING"
    late.has_digest = False
    late.version = 2
    tasks.append(late)

    # 14:04:31 rev 8 (same image, SOCI index now in ECR) is deployed; ECS launches the
    # rest of the scale-out from it.
    deploy = dt.datetime(2026, 11, 30, 14, 4, 31, 905000, tzinfo=UTC)
    for j in range(12):
        az = AZS[j % 3]
        created = deploy + secs(4.1 + j * rng.uniform(2.4, 4.2))
        tasks.append(Task(8, az, created, DEPLOY_B).grow(True))
    # Exercise the CLI's way of printing a time with no fraction (isoformat drops it).
    tasks[6].ts["createdAt"] = tasks[6].ts["createdAt"].replace(microsecond=0)
    assert tasks[11] is failed and tasks[17] is late and len(tasks) == 30
    for t in tasks:
        assert t.updated_at <= FETCHED_AT, (t.id, t.updated_at)
    return tasks


# ---------------------------------------------------------------------------------------
# Shapes. `fmt` turns a datetime into what the shape uses.
def task_doc(t, fmt):
    d = {}
    d["attachments"] = [{
        "id": t.attach_id,
        "type": "ElasticNetworkInterface",
        "status": "DELETED" if t.last_status == "STOPPED" else "ATTACHED",
        "details": [
            {"name": "subnetId", "value": t.subnet},
            {"name": "networkInterfaceId", "value": t.eni},
            {"name": "privateIPv4Address", "value": t.ip},
        ],
    }]
    d["availabilityZone"] = t.az
    d["capacityProviderName"] = "FARGATE"
    d["clusterArn"] = f"arn:aws:ecs:{REGION}:{ACCOUNT}:cluster/{CLUSTER}"
    d["connectivity"] = t.connectivity
    d["connectivityAt"] = fmt(t.ts["connectivityAt"])
    cont = {
        "containerArn": f"arn:aws:ecs:{REGION}:{ACCOUNT}:container/{CLUSTER}/{t.id}/{t.container_id}",
        "taskArn": t.arn,
        "name": "checkout-api",
        "image": IMAGE,
    }
    if t.has_digest:
        cont["imageDigest"] = IMAGE_DIGEST
    if t.container_status == "RUNNING":
        cont["runtimeId"] = t.runtime_id
    cont["lastStatus"] = t.container_status
    if t.container_reason:
        cont["reason"] = t.container_reason
    cont["networkBindings"] = []
    cont["networkInterfaces"] = [{"attachmentId": t.attach_id, "privateIpv4Address": t.ip}]
    cont["healthStatus"] = "UNKNOWN"
    cont["cpu"] = "0"
    d["containers"] = [cont]
    d["cpu"] = "1024"
    d["createdAt"] = fmt(t.ts["createdAt"])
    d["desiredStatus"] = t.desired_status
    d["enableExecuteCommand"] = False
    if "executionStoppedAt" in t.ts:
        d["executionStoppedAt"] = fmt(t.ts["executionStoppedAt"])
    d["group"] = f"service:{SERVICE}"
    d["healthStatus"] = "UNKNOWN"
    d["lastStatus"] = t.last_status
    d["launchType"] = "FARGATE"
    d["memory"] = "2048"
    d["overrides"] = {"containerOverrides": [{"name": "checkout-api"}], "inferenceAcceleratorOverrides": []}
    d["platformVersion"] = "1.4.0"
    d["platformFamily"] = "Linux"
    for k in ("pullStartedAt", "pullStoppedAt", "startedAt"):
        if k in t.ts:
            d[k] = fmt(t.ts[k])
    d["startedBy"] = t.deploy
    if t.stop_code:
        d["stopCode"] = t.stop_code
        d["stoppedAt"] = fmt(t.ts["stoppedAt"])
        d["stoppedReason"] = t.stopped_reason
        d["stoppingAt"] = fmt(t.ts["stoppingAt"])
    tags = [
        {"key": "aws:ecs:serviceName", "value": SERVICE},
        {"key": "team", "value": "payments"},
    ]
    if t.rev == 8:
        tags.append({"key": "soci-index", "value": "true"})
    d["tags"] = tags
    d["taskArn"] = t.arn
    d["taskDefinitionArn"] = t.taskdef_arn
    d["version"] = t.version
    d["ephemeralStorage"] = {"sizeInGiB": 20}
    d["fargateEphemeralStorage"] = {"sizeInGiB": 20}
    return d


def iso_cli(t):
    # What the AWS CLI prints: datetime.isoformat() with the zone's offset; microseconds,
    # and no fraction at all when it is zero.
    return t.isoformat()


def iso_event(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def iso_meta(t):
    # Task metadata v4 prints nanoseconds; the extra digits are below ECS's resolution.
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}{digits(6)}Z"


NUM = "@@NUM:"


def epoch_api(style):
    def f(t):
        e = t.timestamp()
        whole = int(round(e * 1000))
        if style == "exp":
            s = f"{whole // 1000}.{whole % 1000:03d}".rstrip("0").rstrip(".")
            digits_ = s.replace(".", "")
            exp = len(str(whole // 1000)) - 1
            s = f"{digits_[0]}.{digits_[1:] or '0'}E{exp}"
        elif style == "plain":
            s = f"{whole // 1000}.{whole % 1000:03d}".rstrip("0").rstrip(".")
        else:
            raise ValueError(style)
        return NUM + s
    return f


def dumps_raw(obj, **kw):
    text = json.dumps(obj, **kw)
    return re.sub(r'"' + re.escape(NUM) + r'([^"]+)"', r"\1", text)


# ---------------------------------------------------------------------------------------
def event_doc(t, version, status_ts, last_status, desired="RUNNING", extra=None):
    """One EventBridge 'ECS Task State Change' event for task t at a given version."""
    d = task_doc(t, iso_event)
    keep = set(status_ts)
    for k in ("connectivityAt", "pullStartedAt", "pullStoppedAt", "startedAt",
              "stoppingAt", "stoppedAt", "executionStoppedAt"):
        if k not in keep:
            d.pop(k, None)
    d["lastStatus"] = last_status
    d["desiredStatus"] = desired
    d["version"] = version
    if last_status in ("PROVISIONING", "PENDING") and "startedAt" not in keep:
        d["containers"][0]["lastStatus"] = "PENDING"
        d["containers"][0].pop("runtimeId", None)
    if last_status == "PROVISIONING":
        d["connectivity"] = "DISCONNECTED" if "connectivityAt" not in keep else "CONNECTED"
        d["attachments"][0]["status"] = "PRECREATED"
        d["containers"][0].pop("imageDigest", None)
    if last_status != "STOPPED":
        for k in ("stopCode", "stoppedReason"):
            d.pop(k, None)
        d["containers"][0].pop("reason", None)
    d.pop("tags", None)   # events carry no tags
    updated = max([t.ts["createdAt"]] + [t.ts[k] for k in keep])
    d["updatedAt"] = iso_event(updated)
    if extra:
        d.update(extra)
    return {
        "version": "0",
        "id": uuid4(),
        "detail-type": "ECS Task State Change",
        "source": "aws.ecs",
        "account": ACCOUNT,
        "time": updated.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": REGION,
        "resources": [t.arn],
        "detail": d,
    }


def build_events(tasks):
    picks = [tasks[5], tasks[22], tasks[27]]   # 1 x rev 7, 2 x rev 8
    failed = next(t for t in tasks if t.stop_code)
    late = next(t for t in tasks if t.last_status == "PENDING")
    events = []
    for t in picks:
        events.append(event_doc(t, 1, [], "PROVISIONING"))
        events.append(event_doc(t, 2, ["connectivityAt", "pullStartedAt"], "PENDING"))
        events.append(event_doc(t, 3, ["connectivityAt", "pullStartedAt", "pullStoppedAt", "startedAt"], "RUNNING"))
    # the failed task: v3 (STOPPING) was never delivered, v4 is the last word
    events.append(event_doc(failed, 1, [], "PROVISIONING"))
    events.append(event_doc(failed, 2, ["connectivityAt", "pullStartedAt"], "PENDING"))
    events.append(event_doc(failed, 4, ["connectivityAt", "pullStartedAt", "stoppingAt",
                                        "executionStoppedAt", "stoppedAt"], "STOPPED", "STOPPED"))
    events.append(event_doc(late, 1, [], "PROVISIONING"))
    events.append(event_doc(late, 2, ["connectivityAt", "pullStartedAt"], "PENDING"))
    # EventBridge delivers at least once and not in order: shuffle, then deliver one twice.
    rng.shuffle(events)
    dup_of = next(i for i, e in enumerate(events) if e["detail"]["version"] == 2)
    events.insert(len(events) - 3, events[dup_of])
    return events


def metadata_doc(t):
    snap = "soci" if t.rev == 8 else "overlayfs"
    cluster_arn = f"arn:aws:ecs:{REGION}:{ACCOUNT}:cluster/{CLUSTER}"
    c = {
        "DockerId": t.runtime_id,
        "Name": "checkout-api",
        "DockerName": "checkout-api",
        "Image": IMAGE,
        "ImageID": IMAGE_DIGEST,
        "Labels": {
            "com.amazonaws.ecs.cluster": cluster_arn,
            "com.amazonaws.ecs.container-name": "checkout-api",
            "com.amazonaws.ecs.task-arn": t.arn,
            "com.amazonaws.ecs.task-definition-family": FAMILY,
            "com.amazonaws.ecs.task-definition-version": str(t.rev),
        },
        "DesiredStatus": "RUNNING",
        "KnownStatus": "RUNNING",
        "Limits": {"CPU": 0},
        "CreatedAt": iso_meta(t.ts["pullStoppedAt"] + secs(0.8)),
        "StartedAt": iso_meta(t.ts["startedAt"] - secs(0.3)),
        "Type": "NORMAL",
        "LogDriver": "awslogs",
        "LogOptions": {
            "awslogs-group": f"/ecs/{SERVICE}",
            "awslogs-region": REGION,
            "awslogs-stream": f"{SERVICE}/checkout-api/{t.id}",
        },
        "ContainerARN": f"arn:aws:ecs:{REGION}:{ACCOUNT}:container/{CLUSTER}/{t.id}/{t.container_id}",
        "Networks": [{
            "NetworkMode": "awsvpc",
            "IPv4Addresses": [t.ip],
            "AttachmentIndex": 0,
            "MACAddress": t.mac,
            "IPv4SubnetCIDRBlock": SUBNETS[t.az][1] + ".0/20",
            "DomainNameServers": ["10.40.0.2"],
            "DomainNameSearchList": ["ec2.internal"],
            "PrivateDNSName": f"ip-{t.ip.replace('.', '-')}.ec2.internal",
            "SubnetGatewayIpv4Address": SUBNETS[t.az][1] + ".1/20",
        }],
        "Snapshotter": snap,
    }
    return {
        "Cluster": cluster_arn,
        "ServiceName": SERVICE,
        "TaskARN": t.arn,
        "Family": FAMILY,
        "Revision": str(t.rev),
        "DesiredStatus": "RUNNING",
        "KnownStatus": "RUNNING",
        "Limits": {"CPU": 1, "Memory": 2048},
        "PullStartedAt": iso_meta(t.ts["pullStartedAt"]),
        "PullStoppedAt": iso_meta(t.ts["pullStoppedAt"]),
        "AvailabilityZone": t.az,
        "LaunchType": "FARGATE",
        "Containers": [c],
        "ClockDrift": {
            "ClockErrorBound": round(rng.uniform(0.3, 0.9), 6),
            "ReferenceTimestamp": iso_event(t.ts["startedAt"] + secs(30)).replace(".000Z", "Z"),
            "ClockSynchronizationStatus": "SYNCHRONIZED",
        },
        "EphemeralStorageMetrics": {"Utilized": 1342, "Reserved": 20496},
    }


# ---------------------------------------------------------------------------------------
def render():
    tasks = build_tasks()
    out = {}
    utc_cli = lambda t: iso_cli(t.astimezone(UTC))
    doc = {"tasks": [task_doc(t, utc_cli) for t in tasks], "failures": []}
    out["scaleout.json"] = json.dumps(doc, indent=4) + "\n"

    # The raw API: compact, epoch seconds; mostly exponent form as ECS sends, a few plain.
    api_pick = [tasks[5], tasks[11], tasks[22], tasks[27]]
    api_tasks = []
    for i, t in enumerate(api_pick):
        api_tasks.append(task_doc(t, epoch_api("plain" if i == 2 else "exp")))
    out["scaleout-api.json"] = dumps_raw({"tasks": api_tasks, "failures": []},
                                         separators=(",", ":")) + "\n"

    events = build_events(tasks)
    out["events.jsonl"] = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)

    for t in (tasks[5], tasks[15], tasks[22], tasks[27]):
        # as curl prints the endpoint's answer: one compact line
        out[os.path.join("metadata", t.id + ".json")] = json.dumps(metadata_doc(t), separators=(",", ":")) + "\n"
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    files = render()
    if "--check" in sys.argv:
        bad = [n for n, text in files.items()
               if not os.path.exists(os.path.join(here, n))
               or open(os.path.join(here, n), encoding="utf-8").read() != text]
        for n in bad:
            print(f"examples/{n} differs from what gen.py makes", file=sys.stderr)
        return 1 if bad else 0
    meta = os.path.join(here, "metadata")
    os.makedirs(meta, exist_ok=True)
    for old in os.listdir(meta):
        if old.endswith(".json") and os.path.join("metadata", old) not in files:
            os.remove(os.path.join(meta, old))
    for name, text in files.items():
        with open(os.path.join(here, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
