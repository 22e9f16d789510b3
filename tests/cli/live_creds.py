#!/usr/bin/env python3
"""TAP: every credential source, end to end through the real `ecsprof tasks` binary against
moto_server with authentication ON (botocore checks each SigV4 signature and session token,
IAM policies are enforced).

One moto for all cases, seeded with auth off (IAM users and roles, a cluster, tasks), then
auth on. moto's request recorder shows, for every case, which access key signed the ECS
calls and what was sent to STS; moto's model dump maps a minted ASIA key back to the role
and session it belongs to. So each case checks not just "the task list came out" but that
the credentials of the intended source are the ones moto verified.

Each case runs in a fresh temporary HOME with its own ~/.aws files and a minimal
environment (PATH, HOME, AWS_REGION, AWS_ENDPOINT_URL so ECS and STS both go to moto,
AWS_EC2_METADATA_DISABLED=true except for the IMDS case). The ECS container endpoint, EC2
IMDSv2 and the IAM Identity Center portal are one small loopback server (this script with
--serve) that hands out real moto credentials. Nothing talks to 169.254.169.254 or
169.254.170.2. A missing moto is a failure, not a skip.

Web identity: AssumeRoleWithWebIdentity is unsigned, and moto 5.x answers HTTP 500 to an
unsigned request while auth is on. So for those cases moto is told (reset-auth 1) to let
exactly ONE action through without checks: the recorder proves that action was the
AssumeRoleWithWebIdentity call, and every ECS call after it was verified with auth on (a
negative control with a role lacking ECS permissions proves the check was live).
"""
import base64
import csv
import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from motoserver import start_moto  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
REGION = "us-east-1"
CLUSTER = "creds-prod"
ECS_TARGET = "AmazonEC2ContainerServiceV20141113."
CONTAINER_TOKEN = "Bearer live-creds-container-token"
IMDS_TOKEN = "live-creds-imds-session-token"
IMDS_ROLE = "ecsprof-instance-role"
SSO_TOKEN = "live-creds-sso-bearer-token"
SSO_ACCOUNT = "111122223333"
SSO_ROLE = "ReadOnly"
CONTAINER_PATH = "/v2/credentials/task-7?a=1"

results = []
SECRETS = []           # every secret/token that must never appear in any output
OUTPUTS = []           # (case, stdout+stderr) of every ecsprof run


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


# ---------------------------------------------------------------------------
# the loopback metadata server (container endpoint, IMDSv2, SSO portal), run as
# `live_creds.py --serve STATE_FILE CONF_FILE` in a child process
# ---------------------------------------------------------------------------

class Meta(BaseHTTPRequestHandler):
    conf = {}
    log = []

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, body, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else body
        Meta.log.append({"method": self.command, "path": self.path, "status": status})
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/log":
            data = json.dumps(Meta.log).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if self.path.startswith("/federation/"):
            want = "/federation/credentials?account_id=%s&role_name=%s" % (SSO_ACCOUNT,
                                                                          SSO_ROLE)
            if self.path != want:
                return self.reply(404, '{"message":"not found"}')
            if self.headers.get("x-amz-sso_bearer_token") != SSO_TOKEN:
                return self.reply(401, '{"message":"Session token not found or invalid"}')
            c = Meta.conf["sso"]
            return self.reply(200, json.dumps({"roleCredentials": {
                "accessKeyId": c["AccessKeyId"], "secretAccessKey": c["SecretAccessKey"],
                "sessionToken": c["SessionToken"],
                "expiration": int((time.time() + 3600) * 1000)}}))
        if self.path.startswith("/v2/"):
            if self.path != CONTAINER_PATH:
                return self.reply(404, "{}")
            if self.headers.get("Authorization") != CONTAINER_TOKEN:
                return self.reply(401, '{"message":"unauthorized"}')
            c = Meta.conf["container"]
            return self.reply(200, json.dumps({
                "AccessKeyId": c["AccessKeyId"], "SecretAccessKey": c["SecretAccessKey"],
                "RoleArn": "arn:aws:iam::123456789012:user/container-user",
                "Expiration": iso(time.time() + 3600)}))
        if self.path.startswith("/latest/"):
            # IMDSv2: every GET needs the session token handed out by the PUT
            if self.headers.get("X-aws-ec2-metadata-token") != IMDS_TOKEN:
                return self.reply(401, "")
            base = "/latest/meta-data/iam/security-credentials/"
            if self.path == base:
                return self.reply(200, IMDS_ROLE, "text/plain")
            if self.path == base + IMDS_ROLE:
                c = Meta.conf["imds"]
                return self.reply(200, json.dumps({
                    "Code": "Success", "LastUpdated": iso(time.time()), "Type": "AWS-HMAC",
                    "AccessKeyId": c["AccessKeyId"], "SecretAccessKey": c["SecretAccessKey"],
                    "Token": c["SessionToken"], "Expiration": iso(time.time() + 3600)}),
                    "text/plain")
        return self.reply(404, "")

    def do_PUT(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.path != "/latest/api/token":
            return self.reply(404, "")
        if self.headers.get("X-aws-ec2-metadata-token-ttl-seconds") is None:
            return self.reply(400, "")
        return self.reply(200, IMDS_TOKEN, "text/plain")


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def serve(state_file, conf_file):
    with open(conf_file) as f:
        Meta.conf = json.load(f)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Meta)
    tmp = state_file + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"port": httpd.server_address[1]}, f)
    os.rename(tmp, state_file)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    httpd.serve_forever()


# ---------------------------------------------------------------------------
# moto
# ---------------------------------------------------------------------------

def wait_url(url, proc, secs):
    deadline = time.time() + secs
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def start_meta(tmp, conf):
    conf_file = os.path.join(tmp, "meta-conf.json")
    state = os.path.join(tmp, "meta-state.json")
    with open(conf_file, "w") as f:
        json.dump(conf, f)
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve", state,
                          conf_file], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 15
    while time.time() < deadline:
        if p.poll() is not None:
            raise RuntimeError("metadata server died: %s" % p.stderr.read()[:300])
        if os.path.exists(state):
            with open(state) as f:
                return p, json.load(f)["port"]
        time.sleep(0.05)
    raise RuntimeError("metadata server did not start")


def stop(p):
    if p is not None and p.poll() is None:
        p.terminate()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


class Moto:
    def __init__(self, port):
        self.url = "http://127.0.0.1:%d" % port

    def post(self, path, data=b""):
        req = urllib.request.Request(self.url + path, data=data, method="POST",
                                     headers={"Content-Type": "text/plain"})
        return urllib.request.urlopen(req, timeout=10).read()

    def auth(self, free_actions):
        """Checks on, after free_actions unchecked actions (0: every action checked)."""
        self.post("/moto-api/reset-auth", str(free_actions).encode())

    def recording(self):
        """The API requests moto received since the last reset, oldest first."""
        raw = urllib.request.urlopen(self.url + "/moto-api/recorder/download-recording",
                                     timeout=10).read().decode()
        out = []
        for line in raw.splitlines():
            if not line.strip():
                continue
            e = json.loads(line)
            if urllib.parse.urlparse(e["url"]).path.startswith("/moto-api"):
                continue
            h = {k.lower(): v for k, v in e["headers"].items()}
            body = e.get("body") or ""
            if e.get("body_encoded"):
                body = base64.b64decode(body).decode("utf-8", "replace")
            akid = None
            a = h.get("authorization", "")
            if "Credential=" in a:
                akid = a.split("Credential=", 1)[1].split("/", 1)[0]
            target = h.get("x-amz-target", "")
            if target.startswith(ECS_TARGET):
                op, params = "ecs:" + target[len(ECS_TARGET):], {}
            else:
                params = dict(urllib.parse.parse_qsl(body))
                op = "sts:" + params.get("Action", "?")
            out.append({"op": op, "akid": akid, "token": h.get("x-amz-security-token"),
                        "params": params})
        return out

    def assumed_roles(self):
        """access key id -> moto's record of the AssumeRole* session it belongs to"""
        d = json.loads(urllib.request.urlopen(self.url + "/moto-api/data.json",
                                              timeout=30).read())
        return {r["access_key_id"]: r for r in d.get("sts", {}).get("AssumedRole", [])}


READ = ["ecs:List*", "ecs:Describe*"]


def seed(moto):
    import boto3
    kw = dict(region_name=REGION, endpoint_url=moto.url, aws_access_key_id="seed",
              aws_secret_access_key="seed")
    iam = boto3.client("iam", **kw)
    ecs = boto3.client("ecs", **kw)
    ec2 = boto3.client("ec2", **kw)

    def policy(actions):
        return json.dumps({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": actions, "Resource": "*"}]})

    keys = {}
    for user, actions in (("reader", READ + ["sts:AssumeRole"]),
                          ("limited", ["ecs:ListTasks", "ecs:ListClusters"]),
                          ("container-user", READ)):
        iam.create_user(UserName=user)
        iam.put_user_policy(UserName=user, PolicyName="p", PolicyDocument=policy(actions))
        k = iam.create_access_key(UserName=user)["AccessKey"]
        keys[user] = (k["AccessKeyId"], k["SecretAccessKey"])
    trust = json.dumps({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": "*", "Federated": "ci.example.com"},
        "Action": ["sts:AssumeRole", "sts:AssumeRoleWithWebIdentity"]}]})
    roles = {}
    for role, actions in (("reader-role", READ + ["sts:AssumeRole"]),
                          ("chained-role", READ),
                          ("web-role", READ),
                          ("noecs-role", ["sts:GetCallerIdentity"]),
                          (IMDS_ROLE, READ),
                          ("sso-role", READ)):
        r = iam.create_role(RoleName=role, AssumeRolePolicyDocument=trust)["Role"]
        iam.put_role_policy(RoleName=role, PolicyName="p", PolicyDocument=policy(actions))
        roles[role] = r["Arn"]

    ecs.create_cluster(clusterName=CLUSTER)
    image = ec2.describe_images()["Images"][0]["ImageId"]
    inst = ec2.run_instances(ImageId=image, MinCount=1, MaxCount=1)["Instances"][0]
    doc = json.dumps({"instanceId": inst["InstanceId"], "region": REGION,
                      "availabilityZone": REGION + "a"})
    ecs.register_container_instance(cluster=CLUSTER, instanceIdentityDocument=doc)
    ecs.register_task_definition(family="web", containerDefinitions=[{
        "name": "web", "image": "public.ecr.aws/nginx/nginx:latest", "cpu": 128,
        "memory": 128, "essential": True}])
    ecs.run_task(cluster=CLUSTER, taskDefinition="web", count=3, launchType="EC2")
    arns = ecs.list_tasks(cluster=CLUSTER)["taskArns"]

    # signatures and IAM from here on; the temporary credentials below come from STS
    # calls boto3 signs with auth on (AssumeRole: moto's GetSessionToken answers fixed
    # example keys that its own IAM check then refuses)
    moto.auth(0)
    sts = boto3.client("sts", region_name=REGION, endpoint_url=moto.url,
                       aws_access_key_id=keys["reader"][0],
                       aws_secret_access_key=keys["reader"][1])
    sessions = {}
    for name, role in (("env", "reader-role"), ("imds", IMDS_ROLE), ("sso", "sso-role")):
        c = sts.assume_role(RoleArn=roles[role], RoleSessionName="boto3-" + name)
        sessions[name] = {k: c["Credentials"][k]
                          for k in ("AccessKeyId", "SecretAccessKey", "SessionToken")}
    return keys, roles, sessions, sorted(a.rsplit("/", 1)[-1] for a in arns)


# ---------------------------------------------------------------------------
# running ecsprof
# ---------------------------------------------------------------------------

class Case:
    """A fresh HOME with its own ~/.aws and a minimal environment."""

    def __init__(self, tmp, name, moto_port, imds=False, region=True):
        self.name = name
        self.home = tempfile.mkdtemp(prefix="home-", dir=tmp)
        os.makedirs(os.path.join(self.home, ".aws"))
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
                    "AWS_ENDPOINT_URL": "http://127.0.0.1:%d" % moto_port}
        if region:
            self.env["AWS_REGION"] = REGION
        if not imds:
            self.env["AWS_EC2_METADATA_DISABLED"] = "true"

    def path(self, rel):
        return os.path.join(self.home, rel)

    def write(self, rel, text, mode=None):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
        if mode is not None:
            os.chmod(p, mode)
        return p

    def run(self, *extra):
        # belt and braces: no case may point anything at the link-local agents
        assert not any("169.254." in v for v in self.env.values()), self.env
        cmd = [ECSPROF, "tasks", "--cluster", CLUSTER, "--format", "csv"] + list(extra)
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=60,
                           cwd=self.home)
        OUTPUTS.append((self.name, p.stdout + p.stderr))
        return p.returncode, p.stdout, p.stderr, time.time() - t0


def ids(out):
    try:
        return sorted(r["task_id"] for r in csv.DictReader(io.StringIO(out)))
    except (KeyError, csv.Error):
        return ["(not csv)"]


def one_line(err):
    return len([l for l in err.strip().splitlines() if l.strip()]) == 1


def ecs_calls(rec):
    return [r for r in rec if r["op"].startswith("ecs:")]


def sts_calls(rec):
    return [r for r in rec if r["op"].startswith("sts:")]


def signed_by(rec, akid, token=None):
    """Every ECS call signed with akid (and carrying exactly token), and ListTasks and
    DescribeTasks among them; '' when so, else why not."""
    calls = ecs_calls(rec)
    ops = {c["op"] for c in calls}
    if not {"ecs:ListTasks", "ecs:DescribeTasks"} <= ops:
        return "ECS calls seen: %s" % sorted(ops)
    for c in calls:
        if c["akid"] != akid:
            return "%s signed by %s, want %s" % (c["op"], c["akid"], akid)
        if c["token"] != token:
            return "%s session token %s" % (c["op"], "differs" if token else "sent")
    return ""


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    # a timeout's SIGTERM still runs the finally below: the servers are stopped by PID
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    tmp = tempfile.mkdtemp(prefix="ecsprof-live-creds-")
    moto_p = meta_p = None
    t_start = time.time()
    try:
        moto_p, moto_port = start_moto({"MOTO_RECORDER_FILEPATH": os.path.join(tmp, "moto-recording")})
        moto = Moto(moto_port)
        keys, roles, sessions, want = seed(moto)
        rk, rs = keys["reader"]
        lk, ls = keys["limited"]
        ck, cs = keys["container-user"]
        SECRETS.extend([rs, ls, cs, CONTAINER_TOKEN.split()[1], IMDS_TOKEN, SSO_TOKEN])
        for s in sessions.values():
            SECRETS.extend([s["SecretAccessKey"], s["SessionToken"]])
        ok(len(want) == 3, "moto runs the 3 seeded tasks", str(want))
        meta_p, meta_port = start_meta(tmp, {
            "container": {"AccessKeyId": ck, "SecretAccessKey": cs},
            "imds": sessions["imds"], "sso": sessions["sso"]})
        meta_url = "http://127.0.0.1:%d" % meta_port
        moto.post("/moto-api/recorder/start-recording")

        def meta_log():
            return json.loads(urllib.request.urlopen(meta_url + "/log", timeout=5).read())

        def go(case, *extra, free_actions=0):
            """Runs the case; returns rc, out, err, moto's record of the requests."""
            moto.post("/moto-api/recorder/reset-recording")
            if free_actions:
                moto.auth(free_actions)
            try:
                rc, out, err, secs = case.run(*extra)
            finally:
                if free_actions:
                    moto.auth(0)
            return rc, out, err, moto.recording()

        def lists_all(name, rc, out, err, why=""):
            got = ids(out) if rc == 0 else []
            good = rc == 0 and got == want and why == ""
            ok(good, name, "rc=%d got=%s want=%s %s %s" % (rc, got, want, why, err[:400]))

        # ---- 1. environment keys, with and without a session token ----
        c = Case(tmp, "env", moto_port)
        c.env.update(AWS_ACCESS_KEY_ID=rk, AWS_SECRET_ACCESS_KEY=rs)
        rc, out, err, rec = go(c)
        lists_all("env keys: lists exactly moto's tasks, ECS signed with them",
                  rc, out, err, signed_by(rec, rk))

        st = sessions["env"]
        c = Case(tmp, "env-token", moto_port)
        c.env.update(AWS_ACCESS_KEY_ID=st["AccessKeyId"],
                     AWS_SECRET_ACCESS_KEY=st["SecretAccessKey"],
                     AWS_SESSION_TOKEN=st["SessionToken"])
        rc, out, err, rec = go(c)
        lists_all("env keys + AWS_SESSION_TOKEN (boto3 AssumeRole): signed with the "
                  "session key and token", rc, out, err,
                  signed_by(rec, st["AccessKeyId"], st["SessionToken"]))

        c.env["AWS_SESSION_TOKEN"] = st["SessionToken"][:-4] + "AAAA"
        rc, out, err, rec = go(c)
        ok(rc == 1 and one_line(err) and ecs_calls(rec) and "token" in err.lower(),
           "env keys + a wrong AWS_SESSION_TOKEN: moto refuses it, one line",
           "rc=%d %r" % (rc, err))

        # ---- 2. profile static keys ----
        def profile_home(name):
            c = Case(tmp, name, moto_port)
            # the default profile holds keys that may not DescribeTasks: picking the
            # wrong profile cannot pass
            c.write(".aws/credentials", "[default]\naws_access_key_id = %s\n"
                    "aws_secret_access_key = %s\n\n[dev]\naws_access_key_id = %s\n"
                    "aws_secret_access_key = %s\n" % (lk, ls, rk, rs))
            return c

        c = profile_home("aws-profile")
        c.env["AWS_PROFILE"] = "dev"
        rc, out, err, rec = go(c)
        lists_all("AWS_PROFILE=dev picks [dev] of ~/.aws/credentials", rc, out, err,
                  signed_by(rec, rk))

        c = profile_home("--profile")
        rc, out, err, rec = go(c, "--profile", "dev")
        lists_all("--profile dev picks [dev] of ~/.aws/credentials", rc, out, err,
                  signed_by(rec, rk))

        c = Case(tmp, "files-elsewhere", moto_port, region=False)
        # decoys where the files would be without the variables
        c.write(".aws/credentials", "[alt]\naws_access_key_id = %s\n"
                "aws_secret_access_key = %s\n" % (lk, ls))
        c.write(".aws/config", "[profile alt]\nregion = eu-west-3\n")
        c.env["AWS_SHARED_CREDENTIALS_FILE"] = c.write(
            "elsewhere/creds.ini", "[alt]\naws_access_key_id = %s\n"
            "aws_secret_access_key = %s\n" % (rk, rs))
        c.env["AWS_CONFIG_FILE"] = c.write("elsewhere/config.ini",
                                           "[profile alt]\nregion = %s\n" % REGION)
        c.env["AWS_PROFILE"] = "alt"
        rc, out, err, rec = go(c)
        lists_all("AWS_SHARED_CREDENTIALS_FILE / AWS_CONFIG_FILE elsewhere: keys and region "
                  "from there", rc, out, err, signed_by(rec, rk))

        # ---- 3. credential_process ----
        c = Case(tmp, "credential_process", moto_port)
        st = sessions["env"]
        marker = c.path("process-ran")
        script = c.write("bin/creds.sh", "#!/bin/sh\necho ran \"$1\" > '%s'\n"
                         "cat <<'EOF'\n%s\nEOF\n" % (marker, json.dumps({
                             "Version": 1, "AccessKeyId": st["AccessKeyId"],
                             "SecretAccessKey": st["SecretAccessKey"],
                             "SessionToken": st["SessionToken"],
                             "Expiration": iso(time.time() + 3000)}, indent=1)), 0o755)
        c.write(".aws/config", "[profile proc]\ncredential_process = %s --arg\n"
                "[profile broken]\ncredential_process = sh -c 'echo run >> \"%s\"; "
                "echo oops >&2; exit 3'\n" % (script, c.path("broken-runs")))
        rc, out, err, rec = go(c, "--profile", "proc")
        ran = os.path.exists(marker) and open(marker).read().strip() == "ran --arg"
        lists_all("credential_process (Version 1 JSON with a session token)", rc, out, err,
                  signed_by(rec, st["AccessKeyId"], st["SessionToken"]) if ran
                  else "the process did not run with its argument")

        c.env["AWS_PROFILE"] = "broken"
        rc, out, err, rec = go(c)
        # the process's own stderr passes through (it may prompt); ecsprof adds one line,
        # and runs the process once even though two ListTasks chains (RUNNING, STOPPED)
        # start in parallel
        runs = open(c.path("broken-runs")).read().count("run") \
            if os.path.exists(c.path("broken-runs")) else 0
        mine = [l for l in err.splitlines() if l.startswith("ecsprof:")]
        ok(rc == 1 and len(mine) == 1 and "profile broken" in mine[0]
           and "credential_process" in mine[0] and "status 3" in mine[0]
           and err.count("oops") == 1 and runs == 1 and not rec,
           "credential_process exiting 3: one line naming the profile, exit 1, run once, "
           "no AWS call", "rc=%d %r runs=%d calls=%d" % (rc, err, runs, len(rec)))

        # ---- 4. assumed roles ----
        c = Case(tmp, "roles", moto_port)
        c.write(".aws/credentials", "[base]\naws_access_key_id = %s\n"
                "aws_secret_access_key = %s\n" % (rk, rs))
        c.write(".aws/config",
                "[profile role]\nrole_arn = %s\nsource_profile = base\n\n"
                "[profile chain]\nrole_arn = %s\nsource_profile = role\n"
                "role_session_name = ecsprof-chain\nexternal_id = ext-4242\n"
                "duration_seconds = 900\n\n"
                "[profile envrole]\nrole_arn = %s\ncredential_source = Environment\n"
                "role_session_name = from-env\n\n"
                "[profile loop-a]\nrole_arn = %s\nsource_profile = loop-b\n\n"
                "[profile loop-b]\nrole_arn = %s\nsource_profile = loop-a\n"
                % (roles["reader-role"], roles["chained-role"], roles["reader-role"],
                   roles["reader-role"], roles["chained-role"]))

        def role_used(rec, role, session=None, external_id=None):
            """'' when the ECS calls were signed by a session moto minted for role."""
            calls = ecs_calls(rec)
            if not calls:
                return "no ECS call"
            akid = calls[0]["akid"]
            ar = moto.assumed_roles().get(akid)
            if ar is None:
                return "ECS signed by %s, not a key moto's STS minted" % akid
            if ar["role_arn"] != roles[role]:
                return "ECS signed as %s, want %s" % (ar["role_arn"], roles[role])
            if session is not None and ar["session_name"] != session:
                return "session %s, want %s" % (ar["session_name"], session)
            if ar["external_id"] != external_id:
                return "external id %s, want %s" % (ar["external_id"], external_id)
            SECRETS.extend([ar["secret_access_key"], ar["session_token"]])
            return signed_by(rec, akid, ar["session_token"])

        rc, out, err, rec = go(c, "--profile", "role")
        sts = sts_calls(rec)
        why = role_used(rec, "reader-role")
        if not why and not (len(sts) == 1 and sts[0]["op"] == "sts:AssumeRole"
                            and sts[0]["akid"] == rk and sts[0]["token"] is None
                            and sts[0]["params"].get("RoleArn") == roles["reader-role"]):
            why = "STS calls: %s" % [(s["op"], s["akid"]) for s in sts]
        lists_all("role_arn + source_profile: AssumeRole signed by us with the source keys",
                  rc, out, err, why)

        rc, out, err, rec = go(c, "--profile", "chain")
        sts = sts_calls(rec)
        why = role_used(rec, "chained-role", "ecsprof-chain", "ext-4242")
        if not why:
            first = moto.assumed_roles().get(sts[1]["akid"]) if len(sts) == 2 else None
            p2 = sts[1]["params"] if len(sts) == 2 else {}
            if not (len(sts) == 2 and sts[0]["akid"] == rk
                    and sts[0]["params"].get("RoleArn") == roles["reader-role"]
                    and first is not None and first["role_arn"] == roles["reader-role"]
                    and sts[1]["token"] == first["session_token"]
                    and p2.get("RoleArn") == roles["chained-role"]
                    and p2.get("RoleSessionName") == "ecsprof-chain"
                    and p2.get("ExternalId") == "ext-4242"
                    and p2.get("DurationSeconds") == "900"):
                why = "STS calls: %s" % [(s["op"], s["akid"], s["params"]) for s in sts]
        lists_all("chained role (role -> role) with external_id, role_session_name, "
                  "duration_seconds passed through", rc, out, err, why)

        c.env.update(AWS_ACCESS_KEY_ID=rk, AWS_SECRET_ACCESS_KEY=rs)
        rc, out, err, rec = go(c, "--profile", "envrole")
        sts = sts_calls(rec)
        why = role_used(rec, "reader-role", "from-env")
        if not why and not (len(sts) == 1 and sts[0]["akid"] == rk):
            why = "STS calls: %s" % [(s["op"], s["akid"]) for s in sts]
        lists_all("credential_source = Environment: AssumeRole signed with the env keys",
                  rc, out, err, why)
        del c.env["AWS_ACCESS_KEY_ID"], c.env["AWS_SECRET_ACCESS_KEY"]

        rc, out, err, rec = go(c, "--profile", "loop-a")
        ok(rc == 1 and one_line(err) and "source_profile loop" in err and "loop-a" in err
           and "loop-b" in err and not rec,
           "source_profile loop: one clear line naming the loop, no AWS call",
           "rc=%d %r calls=%d" % (rc, err, len(rec)))

        # ---- 5. web identity (see the module comment for what auth covers here) ----
        c = Case(tmp, "web-identity", moto_port)
        jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsaXZlLWNyZWRzIn0.c2lnbmF0dXJl"
        SECRETS.append(jwt)
        c.env.update(AWS_WEB_IDENTITY_TOKEN_FILE=c.write("token.jwt", jwt + "\n"),
                     AWS_ROLE_ARN=roles["web-role"], AWS_ROLE_SESSION_NAME="ci-run")

        def web_checks(rec, role, session):
            if not rec or rec[0]["op"] != "sts:AssumeRoleWithWebIdentity":
                return "first request %s" % (rec[0]["op"] if rec else None)
            p = rec[0]["params"]
            if rec[0]["akid"] is not None or p.get("WebIdentityToken") != jwt \
                    or p.get("RoleArn") != roles[role] or p.get("RoleSessionName") != session:
                return "AssumeRoleWithWebIdentity request: signed=%s params=%s" % (
                    rec[0]["akid"], sorted(p))
            if len(sts_calls(rec)) != 1:
                return "%d STS calls" % len(sts_calls(rec))
            return role_used(rec, role, session)

        rc, out, err, rec = go(c, free_actions=1)
        lists_all("web identity from AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN (STS call "
                  "unchecked, ECS calls verified)", rc, out, err,
                  web_checks(rec, "web-role", "ci-run"))

        c.env["AWS_ROLE_ARN"] = roles["noecs-role"]
        rc, out, err, rec = go(c, free_actions=1)
        ok(rc == 1 and one_line(err) and "not authorized" in err and ecs_calls(rec)
           and rec[0]["op"] == "sts:AssumeRoleWithWebIdentity",
           "web identity, role without ECS rights: IAM denial (auth was live for ECS)",
           "rc=%d %r" % (rc, err))

        c = Case(tmp, "web-identity-profile", moto_port)
        c.write(".aws/config", "[profile ci]\nweb_identity_token_file = %s\nrole_arn = %s\n"
                "role_session_name = from-profile\n"
                % (c.write("t/web.jwt", jwt), roles["web-role"]))
        c.env["AWS_PROFILE"] = "ci"
        rc, out, err, rec = go(c, free_actions=1)
        lists_all("web identity from web_identity_token_file in the profile", rc, out, err,
                  web_checks(rec, "web-role", "from-profile"))

        # ---- 6. ECS container endpoint ----
        full_uri = meta_url + CONTAINER_PATH
        c = Case(tmp, "container", moto_port)
        c.env.update(AWS_CONTAINER_CREDENTIALS_FULL_URI=full_uri,
                     AWS_CONTAINER_AUTHORIZATION_TOKEN=CONTAINER_TOKEN)
        n = len(meta_log())
        rc, out, err, rec = go(c)
        served = [e for e in meta_log()[n:]]
        why = signed_by(rec, ck)
        if not why and [(e["path"], e["status"]) for e in served] != [(CONTAINER_PATH, 200)]:
            why = "container server saw %s" % served
        lists_all("container endpoint (_FULL_URI + AWS_CONTAINER_AUTHORIZATION_TOKEN) "
                  "serving an IAM user's keys", rc, out, err, why)

        c.env["AWS_CONTAINER_AUTHORIZATION_TOKEN"] = "Bearer not-the-token"
        c.env["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"] = c.write("agent/token",
                                                                  CONTAINER_TOKEN)
        rc, out, err, rec = go(c)
        lists_all("container endpoint with AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (wins "
                  "over _TOKEN)", rc, out, err, signed_by(rec, ck))

        del c.env["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"]
        n = len(meta_log())
        rc, out, err, rec = go(c)
        served = meta_log()[n:]
        ok(rc == 1 and one_line(err) and "401" in err and "container" in err.lower()
           and "not-the-token" not in err and served and served[0]["status"] == 401
           and not rec,
           "container endpoint, wrong token: the server answers 401, one clear line",
           "rc=%d %r served=%s" % (rc, err, served))

        # ---- 7. EC2 IMDSv2 ----
        c = Case(tmp, "imds", moto_port, imds=True)
        c.env["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = meta_url
        n = len(meta_log())
        rc, out, err, rec = go(c)
        served = [(e["method"], e["path"], e["status"]) for e in meta_log()[n:]]
        base = "/latest/meta-data/iam/security-credentials/"
        why = role_used(rec, IMDS_ROLE, "boto3-imds")
        if not why and served != [("PUT", "/latest/api/token", 200), ("GET", base, 200),
                                  ("GET", base + IMDS_ROLE, 200)]:
            why = "IMDS server saw %s" % served
        lists_all("IMDSv2 at AWS_EC2_METADATA_SERVICE_ENDPOINT: token PUT first, then the "
                  "role's credentials", rc, out, err, why)

        c = Case(tmp, "nothing", moto_port)
        rc, out, err, rec = go(c)
        order = ["no AWS credentials", "environment", "web identity", "profile default",
                 "container", "IMDS", "aws configure", "aws sso login --profile NAME",
                 "--profile"]
        pos = [err.find(w) for w in order]
        ok(rc == 1 and one_line(err) and -1 not in pos and pos == sorted(pos) and not rec
           and len(err.strip()) < 220 and "ListTasks" not in err,
           "no credentials at all: one short line naming each source tried, in chain order, "
           "then the next step (issue 30 item 4)", "rc=%d %r" % (rc, err))
        rc, out, err, rec = go(c, "--verbose")
        ok(rc == 1 and "credentials: environment (AWS_ACCESS_KEY_ID not set); web identity"
           in err and "IMDS (disabled by AWS_EC2_METADATA_DISABLED)" in err,
           "... and --verbose says why each source gave none", "rc=%d %r" % (rc, err))

        # ---- 8. IAM Identity Center (SSO) ----
        c = Case(tmp, "sso", moto_port)
        c.write(".aws/config", "[profile corp-ro]\nsso_session = corp\nsso_account_id = %s\n"
                "sso_role_name = %s\nregion = %s\n\n[sso-session corp]\n"
                "sso_start_url = https://corp.awsapps.com/start\nsso_region = %s\n"
                "sso_registration_scopes = sso:account:access\n"
                % (SSO_ACCOUNT, SSO_ROLE, REGION, REGION))
        cache = ".aws/sso/cache/%s.json" % hashlib.sha1(b"corp").hexdigest()

        def sso_cache(expires):
            c.write(cache, json.dumps({
                "startUrl": "https://corp.awsapps.com/start", "region": REGION,
                "accessToken": SSO_TOKEN, "expiresAt": iso(expires),
                "clientId": "cid", "clientSecret": "csecret"}))
        sso_cache(time.time() + 3600)
        c.env.update(AWS_PROFILE="corp-ro", AWS_ENDPOINT_URL_SSO=meta_url)
        n = len(meta_log())
        rc, out, err, rec = go(c)
        served = [(e["path"], e["status"]) for e in meta_log()[n:]]
        why = role_used(rec, "sso-role", "boto3-sso")
        if not why and (len(served) != 1 or served[0][1] != 200):
            why = "SSO portal saw %s" % served
        lists_all("SSO profile (sso_session + cached token): portal credentials sign ECS",
                  rc, out, err, why)

        sso_cache(time.time() - 60)
        n = len(meta_log())
        rc, out, err, rec = go(c)
        ok(rc == 1 and one_line(err) and "aws sso login" in err and "corp-ro" in err
           and "expired" in err and len(meta_log()) == n and not rec,
           "SSO token expired: says to run `aws sso login`, asks nobody",
           "rc=%d %r" % (rc, err))

        # ---- 9. refusals in words ----
        c = Case(tmp, "wrong-secret", moto_port)
        c.write(".aws/credentials", "[default]\naws_access_key_id = %s\n"
                "aws_secret_access_key = %s\n" % (rk, rs[:-3] + "xyz"))
        rc, out, err, rec = go(c)
        ok(rc == 1 and one_line(err) and "signature" in err.lower() and ecs_calls(rec),
           "wrong secret: moto refuses the signature, the message says so",
           "rc=%d %r" % (rc, err))

        c = Case(tmp, "limited", moto_port)
        c.env.update(AWS_ACCESS_KEY_ID=lk, AWS_SECRET_ACCESS_KEY=ls)
        rc, out, err, rec = go(c)
        ok(rc == 1 and one_line(err) and "not authorized" in err and "DescribeTasks" in err,
           "user without ecs:DescribeTasks: the IAM denial in words", "rc=%d %r" % (rc, err))

        leaks = [(name, s[:6] + "...") for name, text in OUTPUTS for s in SECRETS
                 if s and s in text]
        ok(OUTPUTS and not leaks, "no secret, session token or bearer token in any output "
           "(%d runs)" % len(OUTPUTS), str(leaks))
        ok(moto_p.poll() is None and meta_p.poll() is None, "moto and the loopback server "
           "are still up at the end")
    except Exception as e:  # a missing moto or a broken harness fails the test
        import traceback
        ok(False, "harness", traceback.format_exc())
    finally:
        stop(meta_p)
        stop(moto_p)
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    print("# %d ecsprof runs, %.1f s in all" % (len(OUTPUTS), time.time() - t_start))
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
