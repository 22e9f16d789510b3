#!/usr/bin/env python3
"""TAP: `ecsprof experiment` end to end against moto_server, an implementation of the ECS
API and of SigV4/IAM checking independent of ours. moto's RunTask does not place FARGATE or
awsvpc tasks, so the cluster gets an EC2 container instance and the experiment runs with
--launch-type EC2. Seeded with auth off, then signature and IAM checks switched on
(moto-api/reset-auth: the INITIAL_NO_AUTH_ACTION_COUNT of moto, set to 0). Checked with
boto3 afterwards: every task the experiment started is stopped, after a normal run and
after a SIGKILL followed by `--cleanup ID`; a wrong secret and a user without ecs:RunTask
start nothing; an arm not compatible with the launch type is refused before RunTask.
A missing moto is a failure, not a skip."""
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from motoserver import start_moto  # noqa: E402

ECSPROF = os.environ.get("ECSPROF", "")
REGION = "us-east-1"
CLUSTER = "exp"
results = []
TMP = tempfile.mkdtemp(prefix="ecsprof-experiment-moto-")


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def clients(port, key="seed", secret="seed"):
    import boto3
    kw = dict(region_name=REGION, endpoint_url="http://127.0.0.1:%d" % port,
              aws_access_key_id=key, aws_secret_access_key=secret)
    return boto3.client("iam", **kw), boto3.client("ecs", **kw), boto3.client("ec2", **kw)


EXPERIMENTER = ["ecs:RunTask", "ecs:StopTask", "ecs:DescribeTasks", "ecs:ListTasks",
                "ecs:DescribeTaskDefinition", "ecs:TagResource", "iam:PassRole"]


def seed(port):
    iam, ecs, ec2 = clients(port)
    keys = {}
    for user, actions in (("experimenter", EXPERIMENTER),
                          ("viewer", ["ecs:List*", "ecs:Describe*"]),
                          ("admin", ["*"])):
        iam.create_user(UserName=user)
        iam.put_user_policy(UserName=user, PolicyName="p", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": actions, "Resource": "*"}]}))
        k = iam.create_access_key(UserName=user)["AccessKey"]
        keys[user] = (k["AccessKeyId"], k["SecretAccessKey"])
    ecs.create_cluster(clusterName=CLUSTER)
    image = ec2.describe_images()["Images"][0]["ImageId"]
    inst = ec2.run_instances(ImageId=image, MinCount=1, MaxCount=1)["Instances"][0]
    doc = json.dumps({"instanceId": inst["InstanceId"], "region": REGION,
                      "availabilityZone": REGION + "a"})
    ecs.register_container_instance(cluster=CLUSTER, instanceIdentityDocument=doc)
    img = "123456789012.dkr.ecr.%s.amazonaws.com/app:1" % REGION
    for fam in ("app-nosoci", "app-soci"):
        ecs.register_task_definition(
            family=fam, requiresCompatibilities=["EC2"], containerDefinitions=[{
                "name": "app", "image": img, "cpu": 128, "memory": 128, "essential": True,
                "healthCheck": {"command": ["CMD-SHELL", "true"]}}])
    # moto moves a task one state on (RUNNING, DEACTIVATING, ... STOPPED) at each
    # DescribeTasks by default, which would stop the tasks without any StopTask: keep
    # them RUNNING until stopped
    moto_api(port, "state-manager/set-transition",
             {"model_name": "ecs::task",
              "transition": {"progression": "manual", "times": 1000000}})
    # signatures and IAM from here on (text/plain: with a form content type moto would
    # not see the body)
    moto_api(port, "reset-auth", 0)
    return keys


def moto_api(port, what, body):
    req = urllib.request.Request("http://127.0.0.1:%d/moto-api/%s" % (port, what),
                                 data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "text/plain"})
    urllib.request.urlopen(req, timeout=10).read()


def env_for(key, secret):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1",
                "AWS_CONFIG_FILE": os.path.join(TMP, "no-config"),
                "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "no-credentials"),
                "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret})
    # --endpoint-url is ECS's only: the other services to a closed port, never to AWS
    env.update({"AWS_ENDPOINT_URL_%s" % s: "http://127.0.0.1:9" for s in ("ECR", "STS", "SSO")})
    return env


def exp_args(port, ident, *extra):
    return [ECSPROF, "experiment", "--cluster", CLUSTER, "--launch-type", "EC2",
            "--arm", "no-soci=app-nosoci:1", "--arm", "soci=app-soci:1", "-n", "3",
            "--id", ident, "--yes", "--no-images", "--interval", "0.2",
            "-o", os.path.join(TMP, ident + ".jsonl"),
            "--endpoint-url", "http://127.0.0.1:%d" % port, "--region", REGION] + list(extra)


def run(args, key, secret):
    p = subprocess.run(args, capture_output=True, text=True, env=env_for(key, secret),
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def tasks_of(ecs, ident):
    """Every task with startedBy ecsprof-ID (any desired status), described."""
    arns = []
    for status in ("RUNNING", "STOPPED"):
        for page in ecs.get_paginator("list_tasks").paginate(
                cluster=CLUSTER, startedBy="ecsprof-" + ident, desiredStatus=status):
            arns += page["taskArns"]
    out = []
    for i in range(0, len(arns), 100):
        out += ecs.describe_tasks(cluster=CLUSTER, tasks=arns[i:i + 100],
                                  include=["TAGS"])["tasks"]
    return out


def read_until(stream, text, secs):
    """Reads stream (a pipe) until text appears or secs pass."""
    got, deadline = "", time.time() + secs
    fd = stream.fileno()
    while time.time() < deadline and text not in got:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            chunk = os.read(fd, 4096).decode(errors="replace")
            if not chunk:
                break
            got += chunk
    return text in got


def arm(t):
    return {g["key"]: g["value"] for g in t.get("tags") or []}.get("ecsprof:arm")


def all_stopped(ts):
    return bool(ts) and all(t["desiredStatus"] == "STOPPED" and t["lastStatus"] == "STOPPED"
                            for t in ts)


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    moto = None
    try:
        moto, port = start_moto()
        keys = seed(port)
        ek, es = keys["experimenter"]
        _, admin, _ = clients(port, *keys["admin"])

        # auth is on: a wrong secret is refused by moto's SigV4 check, and nothing starts
        rc, out, err = run(exp_args(port, "badsig"), ek, "not-the-secret")
        ok(rc == 1 and "signature" in err.lower() and tasks_of(admin, "badsig") == [],
           "a wrong secret: SigV4 refused (exit 1), no task started", "rc %d\n%s" % (rc, err))

        # a user without ecs:RunTask: refused by IAM, nothing starts
        rc, out, err = run(exp_args(port, "viewer"), *keys["viewer"])
        ok(rc == 1 and "RunTask" in err and tasks_of(admin, "viewer") == [],
           "no ecs:RunTask: exit 1 naming RunTask, no task started", "rc %d\n%s" % (rc, err))

        # FARGATE with EC2-only task definitions: refused before any RunTask
        args = exp_args(port, "fargate", "--subnets", "subnet-1")
        args[args.index("--launch-type") + 1] = "FARGATE"
        rc, out, err = run(args, ek, es)
        ok(rc == 2 and "not compatible with FARGATE" in err and
           tasks_of(admin, "fargate") == [],
           "FARGATE with an EC2-only task definition: refused (exit 2) before RunTask",
           "rc %d\n%s" % (rc, err))

        # the run: 3 tasks per arm, signed with the experimenter's key, then all stopped
        t0 = time.time()
        rc, out, err = run(exp_args(port, "moto1", "--format", "csv"), ek, es)
        secs = time.time() - t0
        ts = tasks_of(admin, "moto1")
        ok(rc == 0, "experiment --launch-type EC2 exits 0 (%.1f s)" % secs, err)
        ok(len(ts) == 6 and sorted(arm(t) for t in ts) == ["no-soci"] * 3 + ["soci"] * 3,
           "moto has 6 tasks with startedBy ecsprof-moto1, 3 tagged per arm",
           json.dumps([(t["taskArn"], arm(t)) for t in ts], default=str))
        ok(all_stopped(ts), "boto3: every task the experiment started is STOPPED",
           json.dumps([(t["taskArn"], t["lastStatus"], t["desiredStatus"]) for t in ts]))
        ok(all(t.get("stoppedReason", "").startswith("ecsprof experiment moto1: done")
               for t in ts), "each StopTask gave the reason 'ecsprof experiment moto1: done'",
           json.dumps([t.get("stoppedReason") for t in ts]))
        ok(all(t.get("launchType") == "EC2" for t in ts), "the tasks ran with launch type EC2")
        rec = [json.loads(l) for l in open(os.path.join(TMP, "moto1.jsonl"))]
        arns = {t["taskArn"] for t in ts}
        ok(arns and arns <= {l.get("task", {}).get("taskArn") for l in rec},
           "the recording holds every started task", repr(rec)[:1500])
        ok("no-soci" in out and "soci" in out, "the summary has a row per arm", out + err)

        # SIGKILL mid-run: arm after arm with --pause, which waits on the terminal (a pty
        # here) for Enter before the second arm; killed there, with arm 1's 3 tasks running
        args = exp_args(port, "killed", "--sequential", "--pause")
        master, slave = pty.openpty()
        x = subprocess.Popen(args, stdin=slave, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=env_for(ek, es))
        os.close(slave)
        waited = read_until(x.stderr, "press Enter", 60)
        x.kill()
        x.communicate(timeout=30)
        os.close(master)
        left = tasks_of(admin, "killed")
        ok(waited and len(left) == 3 and [arm(t) for t in left] == ["no-soci"] * 3 and
           not any(t["desiredStatus"] == "STOPPED" for t in left),
           "SIGKILL at the pause before arm 2 leaves arm 1's 3 tasks running",
           "waited %s\n%s" % (waited, repr(left)[:1500]))
        rc, out, err = run([ECSPROF, "experiment", "--cleanup", "killed", "--cluster", CLUSTER,
                            "-o", os.path.join(TMP, "killed.jsonl"),
                            "--endpoint-url", "http://127.0.0.1:%d" % port,
                            "--region", REGION], ek, es)
        ts = tasks_of(admin, "killed")
        ok(rc == 0 and len(ts) == 3 and all_stopped(ts) and
           all(t.get("stoppedReason") == "ecsprof experiment killed: cleanup" for t in ts),
           "--cleanup killed: boto3 sees all 3 STOPPED, reason '... killed: cleanup'",
           "rc %d\n%s%s\n%s" % (rc, out, err, json.dumps([(t["lastStatus"],
                                                        t.get("stoppedReason")) for t in ts])))
        ok("3 tasks found (3 in the journal), 3 stopped" in out,
           "--cleanup says what it found in the journal and stopped", out + err)
        rc, out, err = run([ECSPROF, "experiment", "--cleanup", "killed", "--cluster", CLUSTER,
                            "-o", os.path.join(TMP, "killed.jsonl"),
                            "--endpoint-url", "http://127.0.0.1:%d" % port,
                            "--region", REGION], ek, es)
        ok(rc == 0 and ", 0 stopped" in out, "--cleanup again: nothing left to stop",
           "rc %d\n%s%s" % (rc, out, err))
    except Exception as e:   # a failure, not a skip
        ok(False, "moto set-up or check", repr(e))
    finally:
        if moto is not None:
            moto.terminate()
            try:
                moto.wait(timeout=10)
            except subprocess.TimeoutExpired:
                moto.kill()
                moto.wait()
        shutil.rmtree(TMP, ignore_errors=True)

    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for l in str(detail).splitlines()[:40]:
                print("# " + l)
    return 0 if all(g for g, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
