"""fake_scaleout_aws: a scripted server for the scale-out calls (application-autoscaling
and ECS over awsJson1_1, CloudWatch and ELBv2 over the query protocol), for what moto
cannot do: DescribeScalingActivities and DescribeAlarmHistory (moto 5 has neither),
throttling, AccessDenied on one call, and pages on demand. Binds 127.0.0.1 on a free port
and prints it on its first line.

Each request is checked the way AWS would refuse it: the operation from X-Amz-Target (JSON)
or the form's Action (query), the Content-Type of its protocol, the SigV4 credential
scope's service (application-autoscaling, ecs, monitoring, elasticloadbalancing) and the
query Version. A refused request is answered 400 with the code IncompleteSignature and the
reason. The answers come from the script, in order per operation:
  POST /_fake/script  {"OP": [{"status": 200, "body": "...", "type": "xml"|"json"}, ...]}
                      (a new script; the requests kept so far are forgotten)
  GET  /_fake/requests  [{"op", "service", "region", "params" (the query form or the JSON
                      body)}, ...] since the script
  POST /_fake/config  {"latency_ms": N}: every call answered N ms late (kept across
                      scripts), as a far region would
  GET  /_fake/stats   {"requests": N, "max_in_flight": M}: the calls since the script, and
                      the most answered at once (the client's chains running in parallel)
An operation with no answer left is answered 500 (the test forgot one)."""
import json
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

JSON_TARGETS = {
    "AnyScaleFrontendService.": "application-autoscaling",
    "AmazonEC2ContainerServiceV20141113.": "ecs",
}
QUERY = {
    "DescribeAlarms": ("monitoring", "2010-08-01"),
    "DescribeAlarmHistory": ("monitoring", "2010-08-01"),
    "DescribeTargetGroups": ("elasticloadbalancing", "2015-12-01"),
    "DescribeTargetHealth": ("elasticloadbalancing", "2015-12-01"),
}
lock = threading.Lock()
script = {}
requests = []
config = {"latency_ms": 0}
flight = {"now": 0, "max": 0}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, status, body, ctype):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/_fake/requests":
            with lock:
                self.reply(200, json.dumps(requests), "application/json")
        elif self.path == "/_fake/stats":
            with lock:
                self.reply(200, json.dumps({"requests": len(requests),
                                            "max_in_flight": flight["max"]}),
                           "application/json")
        else:
            self.reply(404, "{}", "application/json")

    def refuse(self, why):
        self.reply(400, json.dumps({"__type": "IncompleteSignature", "message": why}),
                   "application/x-amz-json-1.1")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        if self.path == "/_fake/script":
            with lock:
                script.clear()
                script.update(json.loads(body))
                requests.clear()
                flight["max"] = flight["now"]
            return self.reply(200, "{}", "application/json")
        if self.path == "/_fake/config":
            with lock:
                config.update(json.loads(body))
            return self.reply(200, "{}", "application/json")
        auth = self.headers.get("Authorization", "")
        m = re.search(r"Credential=[^/]+/\d{8}/([^/]+)/([^/]+)/aws4_request", auth)
        if m is None:
            return self.refuse("no SigV4 Authorization header")
        region, service = m.group(1), m.group(2)
        target = self.headers.get("X-Amz-Target")
        ctype = self.headers.get("Content-Type", "")
        if target is not None:
            prefix = next((p for p in JSON_TARGETS if target.startswith(p)), None)
            if prefix is None:
                return self.refuse("unknown X-Amz-Target " + target)
            op, want = target[len(prefix):], JSON_TARGETS[prefix]
            if ctype != "application/x-amz-json-1.1":
                return self.refuse("JSON call with Content-Type " + ctype)
            params = json.loads(body)
        else:
            params = dict(urllib.parse.parse_qsl(body, keep_blank_values=True))
            op = params.get("Action", "")
            if op not in QUERY:
                return self.refuse("unknown Action " + op)
            want, version = QUERY[op]
            if params.get("Version") != version:
                return self.refuse("Version %s, not %s" % (params.get("Version"), version))
            if not ctype.startswith("application/x-www-form-urlencoded"):
                return self.refuse("query call with Content-Type " + ctype)
        if service != want:
            return self.refuse("%s signed for service %s, not %s" % (op, service, want))
        with lock:
            requests.append({"op": op, "service": service, "region": region,
                             "params": params})
            queue = script.get(op, [])
            step = queue.pop(0) if queue else None
            flight["now"] += 1
            flight["max"] = max(flight["max"], flight["now"])
            latency = config["latency_ms"] / 1000.0
        try:
            if latency > 0:
                time.sleep(latency)
            if step is None:
                return self.reply(500, "no answer scripted for " + op, "text/plain")
            self.reply(step.get("status", 200), step["body"],
                       "text/xml" if step.get("type") == "xml"
                       else "application/x-amz-json-1.1")
        finally:
            with lock:
                flight["now"] -= 1


def main():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
