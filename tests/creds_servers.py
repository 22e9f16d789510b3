#!/usr/bin/env python3
"""Loopback servers for the credential tests (127.0.0.1 only, free port).

  creds_servers.py container STATE_FILE   ECS container credentials endpoint
  creds_servers.py imds STATE_FILE        EC2 IMDSv2
  creds_servers.py sso STATE_FILE         IAM Identity Center portal GetRoleCredentials
  creds_servers.py moto STATE_FILE        moto (STS + IAM), seeded, then IAM auth on

Each writes STATE_FILE (JSON: port and, for moto, the seeded keys and role) once it
listens, then serves until SIGTERM. The container and IMDS servers answer only requests
that carry the right token, and count what they served in /stats.
"""
import json
import os
import signal
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CONTAINER_TOKEN = "Bearer loopback-container-token"
IMDS_TOKEN = "imds-session-token-123"
ROLE = "ecsprof-instance-role"
SSO_TOKEN = "sso-bearer-token-from-aws-sso-login"


def creds_doc(prefix):
    return {
        "Code": "Success",
        "AccessKeyId": prefix + "LOOPBACK",
        "SecretAccessKey": "loopback/secret+" + prefix,
        "Token": "loopback-session-token-" + prefix,
        "Expiration": "2099-01-01T00:00:00Z",
    }


class Handler(BaseHTTPRequestHandler):
    mode = "container"
    stats = {"requests": 0, "denied": 0}

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def deny(self):
        Handler.stats["denied"] += 1
        self.reply(401, '{"message":"unauthorized"}')

    def do_GET(self):
        Handler.stats["requests"] += 1
        if self.path == "/stats":
            return self.reply(200, json.dumps(Handler.stats))
        if Handler.mode == "sso":
            if self.path != "/federation/credentials?account_id=111122223333&role_name=ReadOnly":
                return self.reply(404, '{"message":"not found"}')
            if self.headers.get("x-amz-sso_bearer_token") != SSO_TOKEN:
                return self.deny()
            return self.reply(200, json.dumps({"roleCredentials": {
                "accessKeyId": "ASIASSOLOOPBACK", "secretAccessKey": "sso/secret",
                "sessionToken": "sso-session-token", "expiration": 4070908800000}}))
        if Handler.mode == "container":
            if self.path != "/v2/credentials/task-1?a=1":
                return self.reply(404, "{}")
            if self.headers.get("Authorization") != CONTAINER_TOKEN:
                return self.deny()
            return self.reply(200, json.dumps(creds_doc("ASIACONTAINER")))
        # imds: every GET needs the session token from the PUT
        if self.headers.get("X-aws-ec2-metadata-token") != IMDS_TOKEN:
            return self.deny()
        base = "/latest/meta-data/iam/security-credentials/"
        if self.path == base:
            return self.reply(200, ROLE, "text/plain")
        if self.path == base + ROLE:
            return self.reply(200, json.dumps(creds_doc("ASIAIMDSROLE")), "text/plain")
        return self.reply(404, "")

    def do_PUT(self):
        Handler.stats["requests"] += 1
        if Handler.mode != "imds" or self.path != "/latest/api/token":
            return self.reply(404, "")
        if self.headers.get("X-aws-ec2-metadata-token-ttl-seconds") is None:
            return self.reply(400, "")
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        return self.reply(200, IMDS_TOKEN, "text/plain")


def write_state(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f)
    os.rename(tmp, path)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve_simple(mode, state_file):
    Handler.mode = mode
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    write_state(state_file, {"port": httpd.server_address[1]})
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=httpd.shutdown).start())
    httpd.serve_forever()


def serve_moto(state_file):
    import boto3
    import urllib.request
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    url = "http://127.0.0.1:%d" % port
    kw = dict(endpoint_url=url, region_name="us-east-1", aws_access_key_id="seed",
              aws_secret_access_key="seed")
    iam = boto3.client("iam", **kw)
    iam.create_user(UserName="ecsprof-test")
    iam.put_user_policy(UserName="ecsprof-test", PolicyName="all", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
    key = iam.create_access_key(UserName="ecsprof-test")["AccessKey"]
    trust = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
        "Principal": {"AWS": "*"}, "Action": ["sts:AssumeRole",
                                               "sts:AssumeRoleWithWebIdentity"]}]})
    roles = {}
    for name in ("ecsprof-a", "ecsprof-b"):
        r = iam.create_role(RoleName=name, AssumeRolePolicyDocument=trust)["Role"]
        iam.put_role_policy(RoleName=name, PolicyName="all", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
        roles[name] = r["Arn"]
    # from here on moto checks every signature and IAM permission
    req = urllib.request.Request(url + "/moto-api/reset-auth", data=b"0", method="POST",
                                 headers={"Content-Type": "text/plain"})
    urllib.request.urlopen(req).read()
    write_state(state_file, {"port": port, "access_key_id": key["AccessKeyId"],
                             "secret_access_key": key["SecretAccessKey"],
                             "role_a": roles["ecsprof-a"], "role_b": roles["ecsprof-b"]})
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    done.wait()
    server.stop()


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("container", "imds", "sso", "moto"):
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "moto":
        serve_moto(sys.argv[2])
    else:
        serve_simple(sys.argv[1], sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
