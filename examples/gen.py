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
# The 14:02 scale-out's story beyond the tasks, as `ecsprof record --service` and
# `watch --record` save it: the documents the AWS CLI prints (--output json) for the CPU
# alarm's settings and history, the target tracking policy, the scaling activities, the
# service (events, deployments, load balancer), the target group, and the target health
# observed every 15 s. A random stream of its own, so that the files above stay as they are.
TG_ARN = f"arn:aws:elasticloadbalancing:{REGION}:{ACCOUNT}:targetgroup/checkout-api/6d0ecf831eec9f09"
POLICY = "cpu-target-tracking"


def so_sources(tasks):
    r = random.Random(SEED + 33)
    uid = lambda: "%08x-%04x-4%03x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
                                                  0x8000 | r.getrandbits(14), r.getrandbits(48))
    at = lambda h, m, s_: dt.datetime(2026, 11, 30, h, m, 0, tzinfo=UTC) + secs(s_)
    cli = lambda t: iso_cli(t.astimezone(UTC))
    cw = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+0000"
    resource = f"service/{CLUSTER}/{SERVICE}"
    policy_arn = (f"arn:aws:autoscaling:{REGION}:{ACCOUNT}:scalingPolicy:{uid()}:resource/ecs/"
                  f"{resource}:policyName/{POLICY}")
    high = f"TargetTracking-{resource}-AlarmHigh-{uid()}"
    low = f"TargetTracking-{resource}-AlarmLow-{uid()}"
    alarm_arn = lambda n: f"arn:aws:cloudwatch:{REGION}:{ACCOUNT}:alarm:{n}"

    def alarm(name, op, threshold, n):
        return {"AlarmName": name, "AlarmArn": alarm_arn(name),
                "AlarmDescription": f"DO NOT EDIT OR DELETE. For TargetTrackingScaling policy {policy_arn}.",
                "AlarmConfigurationUpdatedTimestamp": cli(at(8, 40, 52.31)), "ActionsEnabled": True,
                "OKActions": [], "AlarmActions": [policy_arn], "InsufficientDataActions": [],
                "StateValue": "ALARM" if name == high else "OK",
                "StateUpdatedTimestamp": cli(at(14, 1, 53.612) if name == high else at(13, 44, 12.08)),
                "MetricName": "CPUUtilization", "Namespace": "AWS/ECS", "Statistic": "Average",
                "Dimensions": [{"Name": "ClusterName", "Value": CLUSTER}, {"Name": "ServiceName", "Value": SERVICE}],
                "Period": 60, "Unit": "Percent", "EvaluationPeriods": n, "DatapointsToAlarm": n,
                "Threshold": threshold, "ComparisonOperator": op}

    alarms = {"MetricAlarms": [alarm(high, "GreaterThanThreshold", 13.0, 3),
                               alarm(low, "LessThanThreshold", 11.7, 15)],
              "CompositeAlarms": [], "MetricAlarms_": None}
    del alarms["MetricAlarms_"]
    # three minutes of breaching CPU (periods 13:58, 13:59, 14:00), then the evaluation
    points = [(at(14, 0, 0), 98.4), (at(13, 59, 0), 97.1), (at(13, 58, 0), 61.9)]
    reason = ("Threshold Crossed: 3 datapoints [98.4 (30/11/26 14:00:00), 97.1 (30/11/26 13:59:00), "
              "61.9 (30/11/26 13:58:00)] were greater than the threshold (13.0) "
              "(minimum 3 datapoints for OK -> ALARM transition).")
    fired = at(14, 1, 53.612)
    data = {"version": "1.0",
            "oldState": {"stateValue": "OK", "stateReason": "Threshold Crossed: 15 datapoints were not less than the threshold (11.7)."},
            "newState": {"stateValue": "ALARM", "stateReason": reason,
                         "stateReasonData": {"version": "1.0", "queryDate": cw(fired - secs(0.2)),
                                             "startDate": cw(at(13, 58, 0)), "statistic": "Average",
                                             "period": 60, "recentDatapoints": [61.9, 97.1, 98.4],
                                             "threshold": 13.0,
                                             "evaluatedDatapoints": [{"timestamp": cw(t), "sampleCount": 4.0, "value": v}
                                                                     for t, v in points]}}}
    history = {"AlarmHistoryItems": [
        {"AlarmName": high, "AlarmType": "MetricAlarm", "Timestamp": cli(fired), "HistoryItemType": "StateUpdate",
         "HistorySummary": "Alarm updated from OK to ALARM", "HistoryData": json.dumps(data)},
        {"AlarmName": high, "AlarmType": "MetricAlarm", "Timestamp": cli(at(8, 40, 52.31)),
         "HistoryItemType": "ConfigurationUpdate", "HistorySummary": f"Alarm \"{high}\" updated",
         "HistoryData": "{}"}]}
    policies = {"ScalingPolicies": [{
        "PolicyARN": policy_arn, "PolicyName": POLICY, "ServiceNamespace": "ecs", "ResourceId": resource,
        "ScalableDimension": "ecs:service:DesiredCount", "PolicyType": "TargetTrackingScaling",
        "TargetTrackingScalingPolicyConfiguration": {
            "TargetValue": 13.0, "PredefinedMetricSpecification": {"PredefinedMetricType": "ECSServiceAverageCPUUtilization"},
            "ScaleOutCooldown": 60, "ScaleInCooldown": 300},
        "Alarms": [{"AlarmName": high, "AlarmARN": alarm_arn(high)}, {"AlarmName": low, "AlarmARN": alarm_arn(low)}],
        "CreationTime": cli(at(8, 40, 51.9))}]}
    cause = lambda a: f"monitor alarm {a} in state ALARM triggered policy {POLICY}"
    activities = {"ScalingActivities": [
        {"ActivityId": uid(), "ServiceNamespace": "ecs", "ResourceId": resource,
         "ScalableDimension": "ecs:service:DesiredCount", "Description": "Setting desired count to 30.",
         "Cause": cause(high), "StartTime": cli(at(14, 2, 8.219)), "EndTime": cli(at(14, 2, 39.507)),
         "StatusCode": "Successful",
         "StatusMessage": "Successfully set desired count to 30. Change successfully fulfilled by ecs."},
        {"ActivityId": uid(), "ServiceNamespace": "ecs", "ResourceId": resource,
         "ScalableDimension": "ecs:service:DesiredCount", "Description": "Setting desired count to 4.",
         "Cause": cause(low), "StartTime": cli(at(6, 12, 44.03)), "EndTime": cli(at(6, 13, 15.88)),
         "StatusCode": "Successful",
         "StatusMessage": "Successfully set desired count to 4. Change successfully fulfilled by ecs."}]}

    # the service's events (newest first, as ECS lists them): tasks started per wave,
    # targets registered as each wave went RUNNING
    events = []
    def event(t, msg):
        events.append((t, msg))
    def started(group, t):
        ids = " ".join(f"(task {k.id})" for k in group)
        event(t, f"(service {SERVICE}) has started {len(group)} tasks: {ids}.")
    def registered(group):
        ran = [k for k in group if "startedAt" in k.ts]
        if ran:
            event(max(k.ts["startedAt"] for k in ran) + secs(r.uniform(1.0, 2.5)),
                  f"(service {SERVICE}) registered {len(ran)} targets in (target-group {TG_ARN})")
    morning, waves, late, rev8 = tasks[:4], [tasks[4:9], tasks[9:14], tasks[14:17]], tasks[17], tasks[18:]
    for group in [morning] + waves + [rev8[:6], rev8[6:]]:
        started(group, max(k.ts["createdAt"] for k in group) + secs(r.uniform(0.4, 1.2)))
        registered(group)
    started([late], late.ts["createdAt"] + secs(0.7))
    event(at(8, 43, 21.4), f"(service {SERVICE}) has reached a steady state.")
    event(at(14, 4, 32.1), f"(service {SERVICE}) updated computedDesiredCount for taskSet ecs-svc to 30.")
    events.sort(key=lambda e: e[0], reverse=True)
    deploy_b = dt.datetime(2026, 11, 30, 14, 4, 31, 905000, tzinfo=UTC)
    service = {"services": [{
        "serviceArn": f"arn:aws:ecs:{REGION}:{ACCOUNT}:service/{CLUSTER}/{SERVICE}",
        "serviceName": SERVICE, "clusterArn": f"arn:aws:ecs:{REGION}:{ACCOUNT}:cluster/{CLUSTER}",
        "loadBalancers": [{"targetGroupArn": TG_ARN, "containerName": "checkout-api", "containerPort": 8080}],
        "serviceRegistries": [], "status": "ACTIVE", "desiredCount": 30, "runningCount": 28, "pendingCount": 1,
        "launchType": "FARGATE", "platformVersion": "1.4.0", "platformFamily": "Linux",
        "taskDefinition": f"arn:aws:ecs:{REGION}:{ACCOUNT}:task-definition/{FAMILY}:8",
        "deploymentConfiguration": {"deploymentCircuitBreaker": {"enable": True, "rollback": True},
                                    "maximumPercent": 200, "minimumHealthyPercent": 100},
        "deployments": [
            {"id": DEPLOY_B, "status": "PRIMARY", "taskDefinition": f"arn:aws:ecs:{REGION}:{ACCOUNT}:task-definition/{FAMILY}:8",
             "desiredCount": 30, "pendingCount": 0, "runningCount": 12, "failedTasks": 0,
             "createdAt": cli(deploy_b), "updatedAt": cli(deploy_b + secs(46.2)), "launchType": "FARGATE",
             "platformVersion": "1.4.0", "rolloutState": "IN_PROGRESS",
             "rolloutStateReason": "ECS deployment ecs-svc in progress."},
            {"id": DEPLOY_A, "status": "ACTIVE", "taskDefinition": f"arn:aws:ecs:{REGION}:{ACCOUNT}:task-definition/{FAMILY}:7",
             "desiredCount": 30, "pendingCount": 1, "runningCount": 16, "failedTasks": 1,
             "createdAt": cli(at(8, 40, 51.77)), "updatedAt": cli(at(14, 4, 28.4)), "launchType": "FARGATE",
             "platformVersion": "1.4.0", "rolloutState": "COMPLETED",
             "rolloutStateReason": "ECS deployment ecs-svc completed."}],
        "events": [{"id": uid(), "createdAt": cli(t), "message": m} for t, m in events],
        "createdAt": cli(at(8, 40, 51.77) - dt.timedelta(days=41)),
        "healthCheckGracePeriodSeconds": 60, "schedulingStrategy": "REPLICA"}], "failures": []}
    groups = {"TargetGroups": [{
        "TargetGroupArn": TG_ARN, "TargetGroupName": "checkout-api", "Protocol": "HTTP", "Port": 8080,
        "VpcId": "vpc-0e4f2a6c8b1d3f5a7", "HealthCheckProtocol": "HTTP", "HealthCheckPort": "traffic-port",
        "HealthCheckEnabled": True, "HealthCheckIntervalSeconds": 30, "HealthCheckTimeoutSeconds": 5,
        "HealthyThresholdCount": 5, "UnhealthyThresholdCount": 2, "HealthCheckPath": "/healthz",
        "Matcher": {"HttpCode": "200"},
        "LoadBalancerArns": [f"arn:aws:elasticloadbalancing:{REGION}:{ACCOUNT}:loadbalancer/app/prod-public/3c9d2e1f0a8b7c6d"],
        "TargetType": "ip", "ProtocolVersion": "HTTP1", "IpAddressType": "ipv4"}]}

    # ALB: a target is registered when its task is RUNNING, checked every 30 s from a
    # moment in the first interval, healthy after 5 checks passed in a row
    reg = {}
    for k in tasks:
        if "startedAt" in k.ts:
            t_reg = k.ts["startedAt"] + secs(r.uniform(0.8, 2.4))
            reg[k.id] = (t_reg, t_reg + secs(r.uniform(0, 30) + 4 * 30 + r.uniform(0.5, 2.0)))
    healthy_before = {k.id for k in morning}
    # watch --record polls every 10 s and records what changed: the first poll every
    # target, then each target whose state changed since the last poll
    observations, last = [], {}
    t = at(14, 1, 30.25)
    while t <= at(14, 9, 0):
        descs = []
        for k in tasks:
            if k.id not in reg or (k.id not in healthy_before and reg[k.id][0] > t):
                continue
            state = "healthy" if k.id in healthy_before or reg[k.id][1] <= t else "initial"
            if last.get(k.id) == state:
                continue
            last[k.id] = state
            h = {"State": state}
            if state == "initial":
                h.update({"Reason": "Elb.InitialHealthChecking", "Description": "Initial health checks in progress"})
            descs.append({"Target": {"Id": k.ip, "Port": 8080, "AvailabilityZone": k.az},
                          "HealthCheckPort": "8080", "TargetHealth": h})
        if descs:
            observations.append((t, {"observed_at": iso_event(t), "target_group_arn": TG_ARN,
                                     "TargetHealthDescriptions": descs}))
        t += secs(10)
    docs = [(at(14, 9, 2.5), d) for d in (activities, policies, alarms, history, service, groups)]
    return docs + observations


def recording(tasks):
    """The scale-out's source documents as `record --service` and `watch --record` save them
    beside the tasks (scaleout.json has those): one recording line each."""
    lines = []
    for t, doc in so_sources(tasks):
        d = {"ecsprof": "record/1", "fetched_at": iso_event(t), "region": REGION, "cluster": CLUSTER,
             "service": SERVICE, "scaleout": doc}
        lines.append(json.dumps(d, separators=(",", ":")))
    return "".join(line + "\n" for line in lines)


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
    out["scaleout-sources.jsonl"] = recording(tasks)
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
