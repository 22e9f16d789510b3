#!/usr/bin/env python3
"""hostile_ecs: an Amazon ECS endpoint that attacks its client, for tests (issue 10).

One --mode per attack; it serves ListTasks, DescribeTasks, DescribeServices and
ListClusters (awsJson1_1) of one cluster, "prod", with a few well-formed tasks, and
attacks the way the mode says. It does not check signatures (fake_ecs.py does).

It listens on 127.0.0.1 and a free port, which it prints on the first line of stdout, and
stops itself: after --max-seconds (default 60), when its parent goes away, and after
--max-requests ECS requests (default 3000; later ones get a non-retryable
HostileLimitException, so a client that loops forever fails instead of spinning).
GET /_stats returns {"requests": N, "ops": {...}, "redirect_hits": N} (not counted).

Modes:
  token_repeat     ListTasks and ListClusters answer the same nextToken forever
  token_endless    ListTasks answers a new nextToken forever, one new task per page
  unasked          DescribeTasks adds tasks that were not asked for (another cluster,
                   another account, a task id nobody listed)
  escapes          every string the server sends holds ESC ] 0; ... BEL, ESC [ 31m and
                   U+202E; errors (cluster "nope") and failures[] too
  bad_tasks        besides good tasks: a 2 MiB stoppedReason, a string createdAt, a
                   millisecond createdAt, a task that is not an object
  retry_after_max  the first --faults requests: HTTP 429 with Retry-After 9223372036854775807
  throttle_huge    the first --faults requests: ThrottlingException with Retry-After 1000000
  error_5xx        the first --faults requests: HTTP 503
  reset            the first --faults requests: the connection is cut mid-body
  truncated        the first --faults requests: a complete 200 whose JSON is cut in half
  body_1gib        every answer claims 1 GiB and streams it until the client gives up
  fat_answers      1,600 tasks, and every DescribeTasks answer carries 40 MiB of padding,
                   held back until 16 are asked for at once (or 3 s pass), so a client
                   holding every answer of 16 threads would hold 640 MiB
  slowloris        every answer trickles one byte a second
  redirect         every answer is a 307 to a second listener, which counts its hits
  skew             the server's clock is 20 minutes ahead: requests signed on another
                   minute get InvalidSignatureException with the server's Date
  fine             no attack (a control)
"""
import argparse
import calendar
import email.utils
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TARGET = "AmazonEC2ContainerServiceV20141113."
ACCOUNT = "123456789012"
REGION = "us-east-1"
EVIL = "\x1b]0;pwned\x07\x1b[31mred\u202eevil"
T0 = 1764590400.0   # 2025-12-01T12:00:00Z


def arn(kind, rest, account=ACCOUNT):
    return "arn:aws:ecs:%s:%s:%s/%s" % (REGION, account, kind, rest)


def task_id(i):
    return "%032x" % (0xa0000000000000000000000000000000 + i)


def task_json(cluster, tid, created=None, account=ACCOUNT, evil=False):
    s = EVIL if evil else ""
    c = T0 if created is None else created
    return {
        "taskArn": arn("task", "%s/%s" % (cluster, tid), account),
        "clusterArn": arn("cluster", cluster, account),
        "taskDefinitionArn": arn("task-definition", "web" + s + ":3", account),
        "group": "service:web" + s, "lastStatus": "RUNNING" + s,
        "desiredStatus": "RUNNING", "launchType": "FARGATE",
        "availabilityZone": "us-east-1a" + s, "cpu": "256" + s, "memory": "512",
        "platformVersion": "1.4.0" + s, "startedBy": "ecs-svc/1" + s,
        "createdAt": c, "pullStartedAt": c + 10.5, "pullStoppedAt": c + 20.25,
        "startedAt": c + 22.0, "connectivityAt": c + 5.0,
        "containers": [{"name": "app" + s, "image": "nginx:1" + s,
                        "imageDigest": "sha256:" + "ab" * 32, "lastStatus": "RUNNING"}],
        "tags": [{"key": "team" + s, "value": "blue" + s}],
        "version": 3,
    }


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.args = args
        self.requests = 0
        self.ops = {}
        self.redirect_hits = 0
        self.faults_left = args.faults
        self.page = 0
        self.fat_waiting = 0
        self.fat_go = threading.Event()


class ApiError(Exception):
    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hostile-ecs/1"

    def log_message(self, fmt, *a):
        if ARGS.verbose:
            sys.stderr.write("hostile_ecs: " + (fmt % a) + "\n")

    def date_time_string(self, timestamp=None):
        skew = 1200 if ARGS.mode == "skew" else 0
        return email.utils.formatdate(time.time() + skew, usegmt=True)

    def send(self, status, body, headers=None, length=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.1")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/_stats":
            with S.lock:
                body = json.dumps({"requests": S.requests, "ops": S.ops,
                                   "redirect_hits": S.redirect_hits}).encode()
            return self.send(200, body)
        self.send(404, b"{}")

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0") or 0)
        body = self.rfile.read(min(n, 1 << 20)) if n else b""
        target = self.headers.get("X-Amz-Target", "")
        op = target[len(TARGET):] if target.startswith(TARGET) else target
        with S.lock:
            S.requests += 1
            S.ops[op] = S.ops.get(op, 0) + 1
            over = S.requests > ARGS.max_requests
            fault = S.faults_left > 0
            if fault and ARGS.mode in ("retry_after_max", "throttle_huge", "error_5xx",
                                       "reset", "truncated"):
                S.faults_left -= 1
            else:
                fault = False
        try:
            if over:
                raise ApiError(400, "HostileLimitException",
                               "hostile_ecs: more than %d requests" % ARGS.max_requests)
            try:
                req = json.loads(body or b"{}")
            except ValueError:
                raise ApiError(400, "SerializationException", "body is not JSON")
            out = self.attack_before(op, fault)
            if out is not None:
                return
            fn = OPS.get(op)
            if fn is None:
                raise ApiError(400, "UnknownOperationException", "unknown operation " + op)
            raw = json.dumps(fn(req)).encode()
            self.attack_after(raw, fault)
        except ApiError as e:
            self.send(e.status, json.dumps({"__type": e.code, "message": e.message}).encode(),
                      e.headers)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def attack_before(self, op, fault):
        """answers that replace the operation's; True when one was sent"""
        m = ARGS.mode
        if fault and m == "retry_after_max":
            raise ApiError(429, "TooManyRequestsException", "slow down",
                           {"Retry-After": "9223372036854775807"})
        if fault and m == "throttle_huge":
            raise ApiError(400, "ThrottlingException", "Rate exceeded",
                           {"Retry-After": "1000000"})
        if fault and m == "error_5xx":
            raise ApiError(503, "ServiceUnavailableException", "unavailable")
        if m == "skew":
            amz = self.headers.get("X-Amz-Date", "")
            try:
                t = calendar.timegm(time.strptime(amz, "%Y%m%dT%H%M%SZ"))
            except ValueError:
                t = 0
            if abs(t - (time.time() + 1200)) > 300:
                raise ApiError(400, "InvalidSignatureException",
                               "Signature expired: %s is now earlier than the server" % amz)
        if m == "redirect":
            self.send(307, b"{}", {"Location": "http://127.0.0.1:%d/" % REDIRECT_PORT})
            return True
        if m == "body_1gib":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(1 << 30))
            self.end_headers()
            chunk = b'{"taskArns":["' + b"a" * (1 << 20)
            sent = 0
            while sent < (1 << 30):
                self.wfile.write(chunk[: min(len(chunk), (1 << 30) - sent)])
                sent += len(chunk)
                chunk = b"a" * (1 << 20)
            return True
        if m == "slowloris":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.flush()
            for _ in range(1000):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(1)
            return True
        return None

    def attack_after(self, raw, fault):
        m = ARGS.mode
        if fault and m == "reset":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(raw)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(raw[: len(raw) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        if fault and m == "truncated":
            return self.send(200, raw[: len(raw) // 2])
        self.send(200, raw)


# --- operations ----------------------------------------------------------------------

NTASKS = 5


def cluster_name(req):
    name = (req.get("cluster") or "default").rsplit("/", 1)[-1]
    if name != "prod":
        msg = "Cluster not found." + (EVIL if ARGS.mode == "escapes" else "")
        raise ApiError(400, "ClusterNotFoundException", msg)
    return name


def list_tasks(req):
    c = cluster_name(req)
    if ARGS.mode == "token_repeat":
        return {"taskArns": [arn("task", "%s/%s" % (c, task_id(0)))], "nextToken": "AAAA"}
    if ARGS.mode == "token_endless":
        with S.lock:
            S.page += 1
            p = S.page
        return {"taskArns": [arn("task", "%s/%s" % (c, task_id(p)))],
                "nextToken": "page-%d" % p}
    if req.get("desiredStatus", "RUNNING") != "RUNNING":
        return {"taskArns": []}
    n = NTASKS + (4 if ARGS.mode == "bad_tasks" else 0)
    if ARGS.mode == "fat_answers":
        n = 1600
    return {"taskArns": [arn("task", "%s/%s" % (c, task_id(i))) for i in range(n)]}


def describe_tasks(req):
    c = cluster_name(req)
    ids = [i.rsplit("/", 1)[-1] for i in req.get("tasks") or []]
    evil = ARGS.mode == "escapes"
    tasks = [task_json(c, i, evil=evil) for i in ids]
    failures = []
    if ARGS.mode == "unasked":
        tasks.append(task_json("other", task_id(900)))
        tasks.append(task_json(c, task_id(901), account="999999999999"))
        tasks.append(task_json(c, task_id(902)))
    if ARGS.mode == "bad_tasks":
        bad = [t for t in tasks if t["taskArn"].endswith(tuple(task_id(i) for i in
                                                               range(NTASKS, NTASKS + 4)))]
        if len(bad) == 4:
            bad[0]["stoppedReason"] = "x" * (2 << 20)
            bad[1]["createdAt"] = "yesterday"
            bad[2]["createdAt"] = T0 * 1000.0
            tasks[tasks.index(bad[3])] = "not an object"
    if evil:
        failures.append({"arn": arn("task", "prod/" + EVIL), "reason": "MISSING" + EVIL,
                         "detail": EVIL})
    if ARGS.mode == "fat_answers":
        with S.lock:
            S.fat_waiting += 1
            if S.fat_waiting >= 16:
                S.fat_go.set()
        S.fat_go.wait(3.0)
        return {"tasks": tasks, "failures": failures, "padding": "p" * (40 << 20)}
    return {"tasks": tasks, "failures": failures}


def describe_services(req):
    cluster_name(req)
    return {"services": [], "failures": []}


def list_clusters(req):
    names = ["prod", "staging" + (EVIL if ARGS.mode == "escapes" else "")]
    if ARGS.mode == "token_repeat":
        return {"clusterArns": [arn("cluster", n) for n in names], "nextToken": "AAAA"}
    return {"clusterArns": [arn("cluster", n) for n in names]}


OPS = {"ListTasks": list_tasks, "DescribeTasks": describe_tasks,
       "DescribeServices": describe_services, "ListClusters": list_clusters}


class RedirectTarget(BaseHTTPRequestHandler):
    def log_message(self, fmt, *a):
        pass

    def do_POST(self):
        with S.lock:
            S.redirect_hits += 1
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    do_GET = do_POST


def main():
    global S, ARGS, REDIRECT_PORT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", required=True,
                    choices=["token_repeat", "token_endless", "unasked", "escapes",
                             "bad_tasks", "retry_after_max", "throttle_huge", "error_5xx",
                             "reset", "truncated", "body_1gib", "fat_answers", "slowloris",
                             "redirect",
                             "skew", "fine"])
    ap.add_argument("--max-requests", type=int, default=3000)
    ap.add_argument("--max-seconds", type=float, default=60.0)
    ap.add_argument("--faults", type=int, default=2,
                    help="how many requests the one-off attacks hit (default 2)")
    ap.add_argument("--verbose", action="store_true")
    ARGS = ap.parse_args()
    S = State(ARGS)
    ThreadingHTTPServer.daemon_threads = True
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    red = ThreadingHTTPServer(("127.0.0.1", 0), RedirectTarget)
    REDIRECT_PORT = red.server_address[1]
    threading.Thread(target=red.serve_forever, daemon=True).start()
    parent, deadline = os.getppid(), time.time() + ARGS.max_seconds

    def watchdog():
        while os.getppid() == parent and time.time() < deadline:
            time.sleep(0.2)
        os._exit(0)
    threading.Thread(target=watchdog, daemon=True).start()
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
