#!/usr/bin/env python3
"""fake_ecs: a small Amazon ECS endpoint for tests and the benchmark (moto fills in no
pull timestamps, and cannot throttle, fail, skew or time out on purpose).

Serves ListTasks, DescribeTasks, DescribeServices and ListClusters (awsJson1_1) from a
scenario JSON file, and RunTask, StopTask and DescribeTaskDefinition from its
"taskDefinitions" (see RUNTASK below), on 127.0.0.1 and a free port, which it prints on the first line of
stdout. Every request must carry a valid SigV4 signature (recomputed with botocore);
otherwise the answer is what AWS would say (InvalidSignatureException, ...).

Time is virtual: scenario times are seconds relative to t0 (the start of the server, or
"t0" in the scenario), and run "speed" times faster than real time (default 1); POST /_fake/advance {"seconds": N} moves it on, and a task shows
only the timestamps that have passed (PROVISIONING -> PENDING -> RUNNING -> STOPPED).
{"to": S} sets it to t0 + S instead, and {"freeze": true} stops it there.

Faults, from --inject or POST /_fake/inject (each a count of next matching requests):
throttle, throttle_429 (HTTP 429 with Retry-After), error_5xx, truncate (connection cut
mid-body), bad_json (a complete 200 whose JSON is cut), slow (sleep slow_ms first),
bad_task (DescribeTasks: the first task's createdAt is a string: a field ecsprof drops),
unreadable_task (DescribeTasks: the first task's containers is a number: a task it skips),
nameless_task (DescribeTasks: the first task's version is a string: no identity to record);
plus skew_s (server clock offset, in the Date header and the signature time check) and
latency_ms (every request). GET /_fake/stats returns counts per operation and the most
requests seen in flight at once; GET /_fake/tasks/CLUSTER the ids of the visible tasks.

Scenario:
{ "account": "123456789012", "region": "us-east-1", "t0": 1714557600 (optional),
  "credentials": {"AKID": "secret", ...},      (default AKIDFAKE / fakesecret)
  "deny": {"AKID": ["DescribeTasks"]},          (AccessDeniedException for these ops)
  "clusters": { "NAME": {
      "services": {"web": {"taskDefinition": "web:3", "desiredCount": 2,
                           "created": -3600,
                           "deployments": [{"id": "ecs-svc/1", "status": "PRIMARY",
                                            "taskDefinition": "web:3", "created": -600,
                                            "desiredCount": 2}],
                           "events": [{"created": 30, "message": "(service web) has
                                       reached a steady state."}]}},
      (a service may have "loadBalancers" and "healthCheckGracePeriodSeconds", given back
       as they are; a deployment may have "rolloutState", "failedTasks", "updated": S; events and
       deployments show only once their time has passed, newest event first)
      "tasks": [ {"id": "...", "service": "web", "family": "web", "revision": 3,
                  "created": -300, "provision": 20.5, "pull": 12.25, "start": 2.5,
                  "connectivity": 8.0, "stop_after": 100, "stopCode": "...",
                  "stoppedReason": "...", "failPull": false, "launchType": "FARGATE",
                  "image": "...", "digest": "sha256:...", "az": "us-east-1a",
                  "cpu": "256", "memory": "512", "tags": {"k": "v"},
                  "healthy": 12.0 (HEALTHY 12 s after startedAt, UNHEALTHY before; without
                  it a running task is UNKNOWN), "eni": true (an ENI attachment),
                  "arch": "arm64" (attribute ecs.cpu-architecture),
                  "platformFamily": "WINDOWS_SERVER_2022_CORE" (default Linux)} ],
      "generate": {"count": 3000, "service": "web", "family": "web", "seed": 1,
                   "spread": 600, "stopped_fraction": 0.1,
                   "age": 0 (created this many seconds earlier still: a steady service)} } } }

RUNTASK: "taskDefinitions": {"web:7": {"cpu": "256", "memory": "512",
    "compatibilities": ["EC2", "FARGATE"], "networkMode": "awsvpc", "healthCheck": false,
    "provision": 10, "pull": [30, 32], "start": 2, "failPull": [3]}} -- RunTask starts tasks
  whose phases are these seconds (a list is cycled over the tasks launched from that task
  definition; failPull lists the launch indexes whose pull fails with
  CannotPullContainerError). "runTaskFailures": [{"taskDefinition": "web:8", "count": 2,
  "reason": "RESOURCE:MEMORY"}] makes the next 2 tasks asked for that task definition come
  back in failures[] instead. RunTask refuses awsvpc without subnets, as ECS does, and
  repeats the answer of a clientToken it has seen. StopTask stops a task at once
  (stopCode UserInitiated, the reason given). GET /_fake/runtask returns the RunTask
  request bodies in order; GET /_fake/state/CLUSTER every task's id, lastStatus,
  desiredStatus, startedBy and tags.
"""
import argparse
import base64
import calendar
import email.utils
import hashlib
import json
import os
import random
import signal
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

import fake_ecr

TARGET = "AmazonEC2ContainerServiceV20141113."


class State:
    def __init__(self, scenario, args):
        self.lock = threading.Lock()
        self.account = scenario.get("account", "123456789012")
        self.region = scenario.get("region", "us-east-1")
        self.t0 = float(scenario.get("t0", time.time()))
        self.speed = float(scenario.get("speed", 1))
        self.taskdefs = scenario.get("taskDefinitions", {})
        self.run_failures = [dict(f) for f in scenario.get("runTaskFailures", [])]
        self.launched = {}        # task definition -> tasks launched from it
        self.runs = []            # RunTask request bodies, in order
        self.tokens = {}          # clientToken -> the answer it got
        self.advanced = 0.0
        self.frozen = None
        self.creds = scenario.get("credentials", {"AKIDFAKE": "fakesecret"})
        self.deny = scenario.get("deny", {})
        self.clusters = {}
        for name, c in scenario.get("clusters", {}).items():
            self.clusters[name] = self.build_cluster(name, c)
        self.faults = {"throttle": 0, "throttle_429": 0, "error_5xx": 0, "truncate": 0,
                       "bad_json": 0, "slow": 0, "bad_task": 0, "unreadable_task": 0,
                       "nameless_task": 0}
        self.fault_ops = None
        self.slow_ms = 3000
        self.retry_after = 1
        self.skew_s = 0.0
        self.latency_ms = args.latency_ms
        self.list_cache = {}
        self.stats = {"requests": 0, "ops": {}, "inflight": 0, "max_inflight": 0,
                      "faults": 0, "bad_signatures": 0, "busy_ms": 0.0}
        for spec in args.inject or []:
            self.inject(parse_inject(spec))
        self.ecr = fake_ecr.Registry(scenario, self.account, ApiError)

    def inject(self, d):
        with self.lock:
            for k, v in d.items():
                if k in self.faults:
                    self.faults[k] = int(v)
                elif k == "ops":
                    self.fault_ops = v if v else None
                elif k in ("slow_ms", "retry_after"):
                    setattr(self, k, int(v))
                elif k in ("skew_s", "latency_ms"):
                    setattr(self, k, float(v))
                else:
                    raise ValueError("unknown fault " + k)

    def now(self):
        """the virtual time tasks live in"""
        if self.frozen is not None:
            return self.frozen
        return self.t0 + self.advanced + (time.time() - START) * self.speed

    def arn(self, kind, rest):
        return "arn:aws:ecs:%s:%s:%s/%s" % (self.region, self.account, kind, rest)

    def build_cluster(self, name, c):
        tasks = [dict(t) for t in c.get("tasks", [])]
        g = c.get("generate")
        if g:
            rnd = random.Random(g.get("seed", 1))
            spread = float(g.get("spread", 600))
            for i in range(int(g["count"])):
                t = {
                    "id": "%032x" % rnd.getrandbits(128),
                    "service": g.get("service"),
                    "family": g.get("family", g.get("service") or "app"),
                    "revision": g.get("revision", 1),
                    "created": -float(g.get("age", 0)) - spread - 60 + rnd.random() * spread,
                    "provision": round(rnd.uniform(5, 40), 3),
                    "pull": round(rnd.uniform(3, 60), 3),
                    "start": round(rnd.uniform(0.5, 5), 3),
                    "connectivity": round(rnd.uniform(2, 5), 3),
                    "az": "%s%s" % (self.region, "abc"[i % 3]),
                }
                if g.get("images"):   # spread over N images (the benchmark's 20)
                    t["image"] = "%s.dkr.ecr.%s.amazonaws.com/img%d:latest" % (
                        self.account, self.region, i % int(g["images"]))
                if rnd.random() < float(g.get("stopped_fraction", 0)):
                    t["stop_after"] = 30
                    t["stopCode"] = "EssentialContainerExited"
                    t["stoppedReason"] = "Essential container in task exited"
                tasks.append(t)
        for t in tasks:
            t.setdefault("id", "%032x" % random.getrandbits(128))
            t["arn"] = self.arn("task", "%s/%s" % (name, t["id"]))
        return {"name": name, "arn": self.arn("cluster", name),
                "services": c.get("services", {}), "tasks": tasks,
                "by_id": {t["id"]: t for t in tasks}}

    # --- task rendering -------------------------------------------------------------
    def times(self, t):
        """absolute lifecycle times of a scenario task, computed once"""
        if "_times" not in t:
            t["_times"] = self.compute_times(t)
        return t["_times"]

    def compute_times(self, t):
        c = self.t0 + float(t["created"])
        out = {"createdAt": c}
        if "connectivity" in t:
            out["connectivityAt"] = c + float(t["connectivity"])
        ps = c + float(t.get("provision", 10))
        out["pullStartedAt"] = ps
        if t.get("failPull") and (t.get("user_stop") is None
                                  or t["user_stop"] > ps + float(t.get("pull", 5))):
            out["stoppingAt"] = ps + float(t.get("pull", 5))
            out["executionStoppedAt"] = out["stoppingAt"] + 1
            out["stoppedAt"] = out["stoppingAt"] + 2
            return out
        pe = ps + float(t.get("pull", 5))
        out["pullStoppedAt"] = pe
        st = pe + float(t.get("start", 1))
        out["startedAt"] = st
        if t.get("user_stop") is not None:
            # StopTask: the task goes down from that moment, whatever it was doing
            sp = t["user_stop"]
            out = {k: v for k, v in out.items() if v <= sp}
            out["stoppingAt"] = sp
            out["executionStoppedAt"] = sp + 1
            out["stoppedAt"] = sp + 2
            return out
        if t.get("stop_after") is not None:
            sp = st + float(t["stop_after"])
            out["stoppingAt"] = sp
            out["executionStoppedAt"] = sp + 1
            out["stoppedAt"] = sp + 2
        return out

    def visible(self, t, now):
        return self.t0 + float(t["created"]) <= now

    def status(self, t, now):
        ts = {k: v for k, v in self.times(t).items() if v <= now}
        if "stoppedAt" in ts:
            last = "STOPPED"
        elif "stoppingAt" in ts:
            last = "DEPROVISIONING"
        elif "startedAt" in ts:
            last = "RUNNING"
        elif "connectivityAt" in ts or "pullStartedAt" in ts:
            last = "PENDING"
        else:
            last = "PROVISIONING"
        desired = "STOPPED" if "stoppingAt" in ts else "RUNNING"
        return ts, last, desired

    def render(self, cluster, t, now):
        ts, last, desired = self.status(t, now)
        fam = t.get("family", "app")
        rev = t.get("revision", 1)
        image = t.get("image", "123456789012.dkr.ecr.%s.amazonaws.com/%s:latest"
                      % (self.region, fam))
        digest = t.get("digest", "sha256:" + hashlib.sha256(image.encode()).hexdigest())
        version = 1 + sum(1 for _ in ts)
        cont = {
            "containerArn": self.arn("container", "%s/%s/%s" % (cluster["name"], t["id"],
                                                                "0" * 8)),
            "taskArn": t["arn"], "name": t.get("container", fam), "image": image,
            "lastStatus": last, "networkInterfaces": [],
            "cpu": "0",
        }
        if "pullStoppedAt" in ts:
            cont["imageDigest"] = digest
        task = {
            "taskArn": t["arn"], "clusterArn": cluster["arn"],
            "taskDefinitionArn": self.arn("task-definition", "%s:%s" % (fam, rev)),
            "lastStatus": last, "desiredStatus": desired,
            "launchType": t.get("launchType", "FARGATE"),
            "platformVersion": t.get("platformVersion", "1.4.0"),
            "platformFamily": t.get("platformFamily", "Linux"),
            "availabilityZone": t.get("az", self.region + "a"),
            "cpu": t.get("cpu", "256"), "memory": t.get("memory", "512"),
            "version": version, "containers": [cont],
            "group": ("service:" + t["service"]) if t.get("service") else "family:" + fam,
            "attachments": [], "attributes": [], "overrides": {"containerOverrides": []},
            "tags": [{"key": k, "value": v} for k, v in t.get("tags", {}).items()],
        }
        if started_by(t):
            task["startedBy"] = started_by(t)
        for k, v in ts.items():
            task[k] = round(v, 3)
        if "stoppingAt" in ts:
            if t.get("user_stop") is not None and ts["stoppingAt"] == t["user_stop"]:
                task["stopCode"] = "UserInitiated"
                task["stoppedReason"] = t.get("stop_reason") or "Task stopped by user"
            elif t.get("failPull"):
                task["stopCode"] = "TaskFailedToStart"
                task["stoppedReason"] = ("CannotPullContainerError: pull image manifest has "
                                         "been retried 5 time(s): not found")
            else:
                task["stopCode"] = t.get("stopCode", "EssentialContainerExited")
                task["stoppedReason"] = t.get("stoppedReason", "Essential container exited")
        if last == "RUNNING":
            task["healthStatus"] = "UNKNOWN"
            if t.get("healthy") is not None:
                h = "HEALTHY" if self.healthy(t, now) else "UNHEALTHY"
                task["healthStatus"] = cont["healthStatus"] = h
                if h == "HEALTHY":
                    task["version"] = version + 1
        if t.get("eni"):
            task["attachments"] = [{
                "id": "eni-att-" + t["id"][:8], "type": "ElasticNetworkInterface",
                "status": "ATTACHED" if last == "RUNNING" else "PRECREATED",
                "details": [{"name": "subnetId", "value": "subnet-0fake"},
                            {"name": "privateIPv4Address", "value": "10.0.0.10"}]}]
        if t.get("arch"):
            task["attributes"] = [{"name": "ecs.cpu-architecture", "value": t["arch"]}]
        if t.get("user_stop") is not None and "stoppingAt" not in ts:
            task["desiredStatus"] = "STOPPED"
        return task

    def healthy(self, t, now):
        st = self.times(t).get("startedAt")
        return (t.get("healthy") is not None and st is not None and
                st + float(t["healthy"]) <= now)


def parse_inject(spec):
    d = {}
    for part in spec.split(","):
        if not part:
            continue
        k, _, v = part.partition("=")
        d[k] = v.split("+") if k == "ops" else v
    return d


class ApiError(Exception):
    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}


def amz_to_epoch(s):
    return calendar.timegm(time.strptime(s, "%Y%m%dT%H%M%SZ"))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-ecs/1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *a):
        if ARGS.verbose:
            sys.stderr.write("fake_ecs: " + (fmt % a) + "\n")

    def date_time_string(self, timestamp=None):
        # the Date header send_response adds: the server's (possibly skewed) clock
        return email.utils.formatdate(time.time() + S.skew_s, usegmt=True)

    def send(self, status, obj, headers=None, raw=None, cut=False):
        body = raw if raw is not None else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.1")
        self.send_header("x-amzn-RequestId", "%08x-fake" % random.getrandbits(32))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        if cut:
            self.send_header("Connection", "close")
            body = body[: len(body) // 2]
            self.close_connection = True
        # one write for head and body: two small writes meet Nagle and delayed ACKs
        self._headers_buffer.append(b"\r\n" + body)
        self.flush_headers()

    def do_GET(self):
        if self.path == "/_fake/stats":
            with S.lock:
                self.send(200, dict(S.stats, **S.ecr.stats))
            return
        if self.path == "/_fake/runtask":
            with S.lock:
                self.send(200, {"runs": S.runs})
            return
        if self.path.startswith("/_fake/state/"):
            c = S.clusters.get(self.path.rsplit("/", 1)[-1])
            now = S.now()
            out = []
            for t in (c["tasks"] if c else []):
                if S.visible(t, now):
                    r = S.render(c, t, now)
                    out.append({"id": t["id"], "lastStatus": r["lastStatus"],
                                "desiredStatus": r["desiredStatus"],
                                "startedBy": r.get("startedBy"),
                                "tags": {g["key"]: g["value"] for g in r["tags"]}})
            self.send(200, {"tasks": out})
            return
        if self.path.startswith("/_fake/tasks/"):
            # the task ids a client should see now, for tests to compare with
            c = S.clusters.get(self.path.rsplit("/", 1)[-1])
            now = S.now()
            ids = [t["id"] for t in c["tasks"] if S.visible(t, now)] if c else []
            self.send(200, {"ids": ids})
            return
        self.send(404, {"__type": "UnknownOperationException"})

    def take_fault(self, op):
        with S.lock:
            if S.fault_ops is not None and op not in S.fault_ops:
                return None
            for name in ("throttle", "throttle_429", "error_5xx", "truncate", "bad_json",
                         "slow", "bad_task", "unreadable_task", "nameless_task"):
                if S.faults[name] > 0:
                    S.faults[name] -= 1
                    S.stats["faults"] += 1
                    return name
        return None

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n) if n else b""
        if self.path.startswith("/_fake/"):
            return self.control(body)
        started = time.time()
        with S.lock:
            S.stats["requests"] += 1
            S.stats["inflight"] += 1
            S.stats["max_inflight"] = max(S.stats["max_inflight"], S.stats["inflight"])
        try:
            if S.latency_ms:
                time.sleep(S.latency_ms / 1000.0)
            target = self.headers.get("X-Amz-Target", "")
            op = target[len(TARGET):] if target.startswith(TARGET) else target
            service = "ecs"
            if target.startswith(fake_ecr.TARGET):   # the ECR side (fake_ecr.py)
                op, service = target[len(fake_ecr.TARGET):], "ecr"
            with S.lock:
                S.stats["ops"][op] = S.stats["ops"].get(op, 0) + 1
            fault = self.take_fault(op)
            if fault == "slow":
                time.sleep(S.slow_ms / 1000.0)
            akid = self.check_signature(body, service)
            if fault == "throttle":
                raise ApiError(400, "ThrottlingException", "Rate exceeded")
            if fault == "throttle_429":
                raise ApiError(429, "TooManyRequestsException", "Too many requests",
                               {"Retry-After": str(S.retry_after)})
            if fault == "error_5xx":
                raise ApiError(503, "ServiceUnavailableException", "Service unavailable")
            if op in S.deny.get(akid, []):
                raise ApiError(400, "AccessDeniedException",
                               "User: arn:aws:iam::%s:user/limited is not authorized to "
                               "perform: %s:%s on resource: * because no identity-based "
                               "policy allows the %s:%s action"
                               % (S.account, service, op, service, op))
            if self.headers.get("Content-Type") != "application/x-amz-json-1.1":
                raise ApiError(400, "SerializationException", "bad Content-Type")
            try:
                req = json.loads(body or b"{}")
            except ValueError:
                raise ApiError(400, "SerializationException", "body is not JSON")
            fn = OPS.get(op) if service == "ecs" else S.ecr.ops().get(op)
            if fn is None:
                raise ApiError(400, "UnknownOperationException", "unknown operation " + op)
            out = fn(req)
            raw = out if isinstance(out, bytes) else json.dumps(out).encode()
            if fault == "bad_task" and op == "DescribeTasks":
                # one malformed task among good ones: a createdAt that is no time
                d = json.loads(raw)
                if d.get("tasks"):
                    d["tasks"][0]["createdAt"] = "yesterday"
                raw = json.dumps(d).encode()
            if fault in ("unreadable_task", "nameless_task") and op == "DescribeTasks":
                # one task that is no usable task: containers that are no list, or a
                # version that is no number (so not even its identity can be read)
                d = json.loads(raw)
                if d.get("tasks") and fault == "unreadable_task":
                    d["tasks"][0]["containers"] = 5
                elif d.get("tasks"):
                    d["tasks"][0]["version"] = "7"
                raw = json.dumps(d).encode()
            if fault == "truncate":
                return self.send(200, None, raw=raw, cut=True)
            if fault == "bad_json":
                return self.send(200, None, raw=raw[: len(raw) // 2])
            self.send(200, None, raw=raw)
        except ApiError as e:
            self.send(e.status, {"__type": e.code, "message": e.message}, e.headers)
        finally:
            with S.lock:
                S.stats["inflight"] -= 1
                # time spent beyond the injected latency: the server's own overhead
                S.stats["busy_ms"] += (time.time() - started) * 1000 - S.latency_ms

    def control(self, body):
        d = json.loads(body or b"{}")
        if self.path == "/_fake/advance":
            with S.lock:
                if "to" in d:   # seconds after t0
                    S.advanced = float(d["to"]) - (time.time() - START) * S.speed
                S.advanced += float(d.get("seconds", 0))
                S.frozen = None
                if d.get("freeze"):
                    S.frozen = S.now()
            return self.send(200, {"now": S.now()})
        if self.path == "/_fake/inject":
            S.inject(d)
            return self.send(200, {"ok": True})
        self.send(404, {"__type": "UnknownOperationException"})

    def check_signature(self, body, service_want="ecs"):
        auth = self.headers.get("Authorization")
        if not auth:
            raise ApiError(400, "MissingAuthenticationTokenException",
                           "Missing Authentication Token")
        try:
            algo, rest = auth.split(" ", 1)
            parts = dict(p.strip().split("=", 1) for p in rest.split(","))
            akid, date, region, service, term = parts["Credential"].split("/")
            signed = parts["SignedHeaders"].split(";")
            sig = parts["Signature"]
        except (ValueError, KeyError):
            raise ApiError(400, "IncompleteSignatureException",
                           "Authorization header requires Credential, SignedHeaders and "
                           "Signature")
        if algo != "AWS4-HMAC-SHA256" or term != "aws4_request":
            raise ApiError(400, "IncompleteSignatureException", "bad algorithm or scope")
        secret = S.creds.get(akid)
        if secret is None:
            raise ApiError(400, "UnrecognizedClientException",
                           "The security token included in the request is invalid.")
        amz = self.headers.get("X-Amz-Date", "")
        if "host" not in signed or "x-amz-date" not in signed:
            raise ApiError(400, "IncompleteSignatureException",
                           "host and x-amz-date must be signed")
        if service != service_want or region != S.region or date != amz[:8]:
            raise ApiError(400, "InvalidSignatureException",
                           "Credential should be scoped to a valid region/service: %s/%s"
                           % (region, service))
        server_now = time.time() + S.skew_s
        try:
            t = amz_to_epoch(amz)
        except ValueError:
            raise ApiError(400, "IncompleteSignatureException", "bad X-Amz-Date " + amz)
        if abs(t - server_now) > 300:
            fmt = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(server_now))
            raise ApiError(400, "InvalidSignatureException",
                           "Signature expired: %s is now earlier than %s (%s - 5 min.)"
                           % (amz, fmt, fmt) if t < server_now else
                           "Signature not yet current: %s is still later than %s (%s + 5 "
                           "min.)" % (amz, fmt, fmt))
        headers = {}
        for h in signed:
            v = self.headers.get(h)
            if v is None:
                raise ApiError(400, "InvalidSignatureException",
                               "signed header %s is missing" % h)
            headers[h] = v
        req = AWSRequest(method=self.command, url="http://%s%s" % (headers["host"],
                                                                   self.path),
                         data=body, headers=headers)
        req.context["timestamp"] = amz
        signer = SigV4Auth(Credentials(akid, secret), service, region)
        canonical = signer.canonical_request(req)
        want = signer.signature(signer.string_to_sign(req, canonical), req)
        if want != sig:
            with S.lock:
                S.stats["bad_signatures"] += 1
            raise ApiError(400, "InvalidSignatureException",
                           "The request signature we calculated does not match the "
                           "signature you provided. Check your AWS Secret Access Key and "
                           "signing method. Consult the service documentation for details.")
        return akid


# --- operations ------------------------------------------------------------------------

def cluster_of(req):
    name = req.get("cluster") or "default"
    name = name.rsplit("/", 1)[-1]
    c = S.clusters.get(name)
    if c is None:
        raise ApiError(400, "ClusterNotFoundException", "Cluster not found.")
    return c


def token_snapshot(req):
    """the second of the listing a nextToken continues (None for a first page)"""
    if not req.get("nextToken"):
        return None
    try:
        parts = base64.b64decode(req["nextToken"]).decode().split(":")
        return int(parts[3]) if len(parts) > 3 else None
    except (ValueError, IndexError):
        raise ApiError(400, "InvalidParameterException", "Invalid nextToken")


def page(items, req, limit_default=100, snapshot=0):
    """one page of items; its token carries the offset and the second of the listing, so
    that the next page continues the same list even when a task stopped in between (with
    offsets into a newer list, a task would be skipped or listed twice: real tokens do
    not do that)"""
    limit = int(req.get("maxResults", limit_default))
    if not 1 <= limit <= 100:
        raise ApiError(400, "InvalidParameterException", "maxResults must be 1..100")
    start = 0
    if req.get("nextToken"):
        try:
            start = int(base64.b64decode(req["nextToken"]).decode().split(":")[1])
        except (ValueError, IndexError):
            raise ApiError(400, "InvalidParameterException", "Invalid nextToken")
    out = items[start:start + limit]
    token = None
    if start + limit < len(items):
        token = base64.b64encode(("t:%d:%08x:%d" % (start + limit, random.getrandbits(32),
                                                    snapshot)).encode()).decode()
    return out, token


def list_tasks(req):
    c = cluster_of(req)
    now = S.now()
    want = req.get("desiredStatus", "RUNNING")
    if want not in ("RUNNING", "PENDING", "STOPPED"):
        raise ApiError(400, "InvalidParameterException", "bad desiredStatus")
    if req.get("startedBy") and (req.get("serviceName") or req.get("family")
                                 or req.get("containerInstance")):
        # as ECS documents it: startedBy must be the only filter
        raise ApiError(400, "InvalidParameterException",
                       "startedBy cannot be combined with another filter.")
    svc = req.get("serviceName")
    if svc is not None and svc.rsplit("/", 1)[-1] not in c["services"] and not any(
            t.get("service") == svc for t in c["tasks"]):
        raise ApiError(400, "ServiceNotFoundException", "Service not found.")
    snap = token_snapshot(req)
    second = int(now) if snap is None else snap
    key = (c["name"], want, svc, req.get("family"), req.get("startedBy"), second)
    with S.lock:
        arns = S.list_cache.get(key)
    if arns is None:
        # a first page, or a listing older than the cache: the list as it is now
        arns = filter_tasks(c, now, want, svc, req)
        with S.lock:
            if len(S.list_cache) > 256:
                S.list_cache.clear()
            S.list_cache[key] = arns
    out, token = page(arns, req, snapshot=second)
    res = {"taskArns": out}
    if token:
        res["nextToken"] = token
    return res


def started_by(t):
    """a service's tasks carry its deployment id, as ECS sets startedBy"""
    return t.get("startedBy") or ("ecs-svc/1234567890123456789" if t.get("service") else None)


def filter_tasks(c, now, want, svc, req):
    arns = []
    for t in c["tasks"]:
        if not S.visible(t, now):
            continue
        _, _, desired = S.status(t, now)
        if desired != ("STOPPED" if want == "STOPPED" else "RUNNING"):
            continue
        if svc is not None and t.get("service") != svc.rsplit("/", 1)[-1]:
            continue
        if req.get("family") and t.get("family", "app") != req["family"]:
            continue
        if req.get("startedBy") and started_by(t) != req["startedBy"]:
            continue
        arns.append(t["arn"])
    return arns


def describe_tasks(req):
    c = cluster_of(req)
    ids = req.get("tasks")
    if not isinstance(ids, list) or not ids:
        raise ApiError(400, "InvalidParameterException", "Tasks cannot be empty.")
    if len(ids) > 100:
        raise ApiError(400, "InvalidParameterException",
                       "Tasks cannot have more than 100 elements")
    now = S.now()
    tasks, failures = [], []
    for i in ids:
        t = c["by_id"].get(i.rsplit("/", 1)[-1])
        if t is None or not S.visible(t, now):
            failures.append({"arn": i if i.startswith("arn:") else
                             S.arn("task", "%s/%s" % (c["name"], i)), "reason": "MISSING"})
            continue
        # a task's JSON changes only when another timestamp becomes visible
        tags = "TAGS" in (req.get("include") or [])
        key = (len(S.status(t, now)[0]), tags, S.healthy(t, now), t.get("user_stop"))
        cache = t.setdefault("_json", {})
        text = cache.get(key)
        if text is None:
            task = S.render(c, t, now)
            if not tags:
                task.pop("tags", None)
            text = cache[key] = json.dumps(task)
        tasks.append(text)
    return ('{"tasks": [%s], "failures": %s}' % (", ".join(tasks),
                                                 json.dumps(failures))).encode()


def describe_services(req):
    c = cluster_of(req)
    names = req.get("services") or []
    if len(names) > 10:
        raise ApiError(400, "InvalidParameterException",
                       "Services cannot have more than 10 elements")
    now = S.now()
    out, failures = [], []
    for n in names:
        short = n.rsplit("/", 1)[-1]
        s = c["services"].get(short)
        if s is None:
            failures.append({"arn": S.arn("service", "%s/%s" % (c["name"], short)),
                             "reason": "MISSING"})
            continue
        running = sum(1 for t in c["tasks"] if t.get("service") == short and
                      S.visible(t, now) and S.status(t, now)[1] == "RUNNING")
        pending = sum(1 for t in c["tasks"] if t.get("service") == short and
                      S.visible(t, now) and S.status(t, now)[1] in ("PENDING",
                                                                    "PROVISIONING"))
        td = S.arn("task-definition", s.get("taskDefinition", short + ":1"))
        deps = []
        for d in s.get("deployments", [{"id": "ecs-svc/1", "status": "PRIMARY"}]):
            if S.t0 + float(d.get("created", -600)) > now:
                continue
            deps.append({
                "id": d.get("id"), "status": d.get("status", "PRIMARY"),
                "taskDefinition": S.arn("task-definition",
                                        d.get("taskDefinition", s.get("taskDefinition",
                                                                      short + ":1"))),
                "desiredCount": d.get("desiredCount", s.get("desiredCount", 1)),
                "pendingCount": pending if d.get("status", "PRIMARY") == "PRIMARY" else 0,
                "runningCount": running if d.get("status", "PRIMARY") == "PRIMARY" else 0,
                "failedTasks": d.get("failedTasks", 0),
                "createdAt": round(S.t0 + float(d.get("created", -600)), 3),
                "updatedAt": round(S.t0 + float(d.get("updated", float(d.get("created", -600))
                                                       + 5)), 3),
                "launchType": "FARGATE", "rolloutState": d.get("rolloutState", "IN_PROGRESS"),
            })
        out.append({
            "serviceArn": S.arn("service", "%s/%s" % (c["name"], short)),
            "serviceName": short, "clusterArn": c["arn"], "status": "ACTIVE",
            "desiredCount": s.get("desiredCount", 1), "runningCount": running,
            "pendingCount": pending, "launchType": "FARGATE", "taskDefinition": td,
            "deployments": deps, "createdAt": round(S.t0 + float(s.get("created", -3600)), 3),
            "events": [{"id": "ev-%d" % i, "createdAt": round(S.t0 + float(e["created"]), 3),
                        "message": e["message"]}
                       for i, e in sorted(enumerate(s.get("events", [])),
                                          key=lambda x: -float(x[1]["created"]))
                       if S.t0 + float(e["created"]) <= now],
        })
        # a scale-out's settings (ecsprof scaleout): passed through as given
        for k in ("loadBalancers", "healthCheckGracePeriodSeconds"):
            if k in s:
                out[-1][k] = s[k]
    return {"services": out, "failures": failures}


def list_clusters(req):
    arns = [c["arn"] for c in S.clusters.values()]
    out, token = page(arns, req)
    res = {"clusterArns": out}
    if token:
        res["nextToken"] = token
    return res


def taskdef_of(name):
    """family, family:revision or ARN -> (key, definition)"""
    short = name.rsplit("/", 1)[-1]
    if ":" not in short:
        revs = [k for k in S.taskdefs if k.split(":")[0] == short]
        if revs:
            short = max(revs, key=lambda k: int(k.split(":")[1]))
    td = S.taskdefs.get(short)
    if td is None:
        raise ApiError(400, "ClientException", "Unable to describe task definition.")
    return short, td


def describe_task_definition(req):
    key, td = taskdef_of(req.get("taskDefinition") or "")
    fam, rev = key.split(":")
    cont = {"name": fam, "image": td.get("image", "123456789012.dkr.ecr.%s.amazonaws.com/%s:"
                                          "latest" % (S.region, fam)), "essential": True}
    if td.get("healthCheck"):
        cont["healthCheck"] = {"command": ["CMD-SHELL", "true"]}
    out = {"taskDefinitionArn": S.arn("task-definition", key), "family": fam,
           "revision": int(rev), "status": td.get("status", "ACTIVE"),
           "compatibilities": td.get("compatibilities", ["EC2", "FARGATE"]),
           "requiresCompatibilities": td.get("requiresCompatibilities", ["FARGATE"]),
           "networkMode": td.get("networkMode", "awsvpc"), "containerDefinitions": [cont]}
    for k in ("cpu", "memory"):
        if td.get(k) is not None:
            out[k] = td[k]
    if td.get("cpuArchitecture"):
        out["runtimePlatform"] = {"cpuArchitecture": td["cpuArchitecture"],
                                  "operatingSystemFamily": "LINUX"}
    return {"taskDefinition": out}


def pick(v, i, default):
    if v is None:
        return default
    if isinstance(v, list):
        return float(v[i % len(v)])
    return float(v)


def run_task(req):
    c = cluster_of(req)
    with S.lock:
        S.runs.append(req)
        token = req.get("clientToken")
        if token and token in S.tokens:
            return S.tokens[token]
    key, td = taskdef_of(req.get("taskDefinition") or "")
    count = int(req.get("count", 1))
    if not 1 <= count <= 10:
        raise ApiError(400, "InvalidParameterException", "count must be 1..10")
    lt = req.get("launchType")
    if req.get("capacityProviderStrategy"):
        lt = "FARGATE"
    lt = lt or "EC2"
    if lt not in td.get("compatibilities", ["EC2", "FARGATE"]):
        raise ApiError(400, "InvalidParameterException",
                       "Task definition does not support launch_type %s." % lt)
    vpc = (req.get("networkConfiguration") or {}).get("awsvpcConfiguration") or {}
    if td.get("networkMode", "awsvpc") == "awsvpc" and not vpc.get("subnets"):
        raise ApiError(400, "InvalidParameterException",
                       "Network Configuration must be provided when networkMode 'awsvpc' "
                       "is specified.")
    fam, rev = key.split(":")
    now = S.now()
    tags = {g["key"]: g["value"] for g in req.get("tags") or []}
    tasks, failures = [], []
    for _ in range(count):
        with S.lock:
            fail = next((f for f in S.run_failures if f["taskDefinition"] == key
                         and f.get("count", 1) > 0), None)
            if fail is not None:
                fail["count"] = fail.get("count", 1) - 1
        if fail is not None:
            failures.append({"arn": S.arn("container-instance", "%s/fake" % c["name"]),
                             "reason": fail.get("reason", "RESOURCE:MEMORY")})
            continue
        with S.lock:
            i = S.launched.get(key, 0)
            S.launched[key] = i + 1
        t = {"id": "%032x" % random.getrandbits(128), "family": fam, "revision": int(rev),
             "created": now - S.t0, "provision": pick(td.get("provision"), i, 10),
             "pull": pick(td.get("pull"), i, 5), "start": pick(td.get("start"), i, 1),
             "launchType": lt, "cpu": td.get("cpu", "256"), "memory": td.get("memory", "512"),
             "tags": tags, "startedBy": req.get("startedBy"),
             "az": "%s%s" % (S.region, "abc"[i % 3])}
        if td.get("connectivity") is not None:
            t["connectivity"] = pick(td.get("connectivity"), i, 5)
        if i in td.get("failPull", []):
            t["failPull"] = True
        if td.get("healthyAfter") is not None:
            t["healthy"] = float(td["healthyAfter"])
        if td.get("image"):
            t["image"] = td["image"]
        t["arn"] = S.arn("task", "%s/%s" % (c["name"], t["id"]))
        with S.lock:
            c["tasks"].append(t)
            c["by_id"][t["id"]] = t
        tasks.append(S.render(c, t, now))
    out = {"tasks": tasks, "failures": failures}
    if token:
        with S.lock:
            S.tokens[token] = out
    return out


def stop_task(req):
    c = cluster_of(req)
    ident = (req.get("task") or "").rsplit("/", 1)[-1]
    t = c["by_id"].get(ident)
    now = S.now()
    if t is None or not S.visible(t, now):
        raise ApiError(400, "InvalidParameterException", "The referenced task was not found.")
    with S.lock:
        ts = S.times(t)
        if t.get("user_stop") is None and "stoppingAt" not in {k for k, v in ts.items()
                                                                if v <= now}:
            t["user_stop"] = now
            t["stop_reason"] = req.get("reason")
            t.pop("_times", None)
            t.pop("_json", None)
    return {"task": S.render(c, t, now)}


OPS = {"ListTasks": list_tasks, "DescribeTasks": describe_tasks,
       "DescribeServices": describe_services, "ListClusters": list_clusters,
       "RunTask": run_task, "StopTask": stop_task,
       "DescribeTaskDefinition": describe_task_definition}


def main():
    global S, ARGS, START
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--latency-ms", type=float, default=0.0)
    ap.add_argument("--inject", action="append",
                    help="faults: throttle=3,error_5xx=1,skew_s=900,ops=ListTasks+...")
    ap.add_argument("--processes", type=int, default=1,
                    help="serve from N forked processes (benchmarks: no shared GIL; "
                         "faults, stats and time control then apply per process)")
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"),
                    help="serve HTTPS with this certificate and key (PEM)")
    ap.add_argument("--verbose", action="store_true")
    ARGS = ap.parse_args()
    START = time.time()
    with open(ARGS.scenario) as f:
        S = State(json.load(f), ARGS)
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 64
    S.ecr.start_blob_host()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if ARGS.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(ARGS.tls[0], ARGS.tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    children = []
    parent = os.getpid()
    for _ in range(max(0, ARGS.processes - 1)):
        pid = os.fork()
        if pid == 0:
            children = None
            break
        children.append(pid)
    if children is None:
        # a child ends with its parent, however the parent ends
        def watch_parent():
            while os.getppid() == parent:
                time.sleep(0.2)
            os._exit(0)
        threading.Thread(target=watch_parent, daemon=True).start()
    else:
        def stop(signum, frame):
            for pid in children:
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
            os._exit(0)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
