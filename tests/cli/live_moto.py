#!/usr/bin/env python3
"""TAP: `ecsprof tasks` against moto_server, a second, independent implementation of the
ECS API and of SigV4/IAM checking. Seeded with auth off (IAM users, a cluster, an EC2
container instance, tasks from RunTask), then signature and IAM checks switched on.
A missing moto is a failure, not a skip."""
import csv
import io
import json
import os
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
results = []
TMP = tempfile.mkdtemp(prefix="ecsprof-moto-")


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def seed(port):
    import boto3
    url = "http://127.0.0.1:%d" % port
    kw = dict(region_name=REGION, endpoint_url=url, aws_access_key_id="seed",
              aws_secret_access_key="seed")
    iam = boto3.client("iam", **kw)
    ecs = boto3.client("ecs", **kw)
    ec2 = boto3.client("ec2", **kw)

    keys = {}
    for user, actions in (("reader", ["ecs:List*", "ecs:Describe*"]),
                          ("limited", ["ecs:ListTasks", "ecs:ListClusters"])):
        iam.create_user(UserName=user)
        iam.put_user_policy(UserName=user, PolicyName="ecs", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": actions, "Resource": "*"}]}))
        k = iam.create_access_key(UserName=user)["AccessKey"]
        keys[user] = (k["AccessKeyId"], k["SecretAccessKey"])

    ecs.create_cluster(clusterName="moto-prod")
    ecs.create_cluster(clusterName="moto-batch")
    image = ec2.describe_images()["Images"][0]["ImageId"]
    inst = ec2.run_instances(ImageId=image, MinCount=1, MaxCount=1)["Instances"][0]
    doc = json.dumps({"instanceId": inst["InstanceId"], "region": REGION,
                      "availabilityZone": REGION + "a"})
    ecs.register_container_instance(cluster="moto-prod", instanceIdentityDocument=doc)
    ecs.register_task_definition(family="web", containerDefinitions=[{
        "name": "web", "image": "public.ecr.aws/nginx/nginx:latest", "cpu": 128,
        "memory": 128, "essential": True}])
    ecs.register_task_definition(family="worker", containerDefinitions=[{
        "name": "worker", "image": "public.ecr.aws/docker/library/busybox:latest",
        "cpu": 64, "memory": 64, "essential": True}])
    ecs.run_task(cluster="moto-prod", taskDefinition="web", count=3, launchType="EC2",
                 startedBy="test-run")
    ecs.run_task(cluster="moto-prod", taskDefinition="worker", count=2, launchType="EC2")
    arns = []
    for status in ("RUNNING", "STOPPED"):
        for page in ecs.get_paginator("list_tasks").paginate(cluster="moto-prod",
                                                             desiredStatus=status):
            arns += page["taskArns"]
    # signatures and IAM from here on
    # text/plain: with a form content type moto would not see the body
    req = urllib.request.Request(url + "/moto-api/reset-auth", data=b"0", method="POST",
                                 headers={"Content-Type": "text/plain"})
    urllib.request.urlopen(req, timeout=10).read()
    return keys, sorted(a.rsplit("/", 1)[-1] for a in arns)


def run(port, *args, key=None, secret=None, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1",
                "AWS_CONFIG_FILE": os.path.join(TMP, "no-config"),
                "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "no-credentials")})
    # --endpoint-url is ECS's only: the other services to a closed port, never to AWS
    env.update({"AWS_ENDPOINT_URL_%s" % s: "http://127.0.0.1:9" for s in ("ECR", "STS", "SSO")})
    if key is not None:
        env["AWS_ACCESS_KEY_ID"] = key
        env["AWS_SECRET_ACCESS_KEY"] = secret
    env.update(env_extra or {})
    cmd = [ECSPROF] + list(args) + ["--endpoint-url", "http://127.0.0.1:%d" % port,
                                    "--region", REGION]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def ids(out):
    return sorted(r["task_id"] for r in csv.DictReader(io.StringIO(out)))


def one_line(err):
    return len([l for l in err.strip().splitlines() if l.strip()]) == 1


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    moto = None
    try:
        moto, port = start_moto()
        keys, want = seed(port)
        rk, rs = keys["reader"]
        ok(len(want) == 5, "moto runs the 5 seeded tasks", str(want))

        rc, out, err = run(port, "tasks", "--cluster", "moto-prod", "--format", "csv",
                           key=rk, secret=rs)
        ok(rc == 0 and ids(out) == want, "lists exactly moto's tasks (environment keys)",
           "rc=%d got=%s want=%s %s" % (rc, ids(out) if rc == 0 else [], want, err[:300]))

        rc, out, err = run(port, "tasks", "--cluster", "moto-prod", "--format", "csv",
                           "--family", "web", "--concurrency", "1", key=rk, secret=rs)
        ok(rc == 0 and len(ids(out)) == 3, "--family web: the 3 web tasks",
           "rc=%d %s" % (rc, err[:300]))

        # keys from a shared credentials file and a named profile
        cred = os.path.join(TMP, "credentials")
        with open(cred, "w") as f:
            f.write("[moto]\naws_access_key_id = %s\naws_secret_access_key = %s\n" % (rk, rs))
        rc, out, err = run(port, "tasks", "--cluster", "moto-prod", "--format", "csv",
                           "--profile", "moto",
                           env_extra={"AWS_SHARED_CREDENTIALS_FILE": cred})
        ok(rc == 0 and ids(out) == want, "keys from a --profile in the credentials file",
           "rc=%d %s" % (rc, err[:300]))

        rc, out, err = run(port, "tasks", "--cluster", "moto-prod", "--format", "csv",
                           key=rk, secret=rs + "x")
        ok(rc == 1 and one_line(err) and "signature" in err.lower(),
           "wrong secret: says signature", repr(err))

        lk, ls = keys["limited"]
        rc, out, err = run(port, "tasks", "--cluster", "moto-prod", "--format", "csv",
                           key=lk, secret=ls)
        ok(rc == 1 and one_line(err) and "not authorized" in err
           and "DescribeTasks" in err and "IAM policy" in err,
           "no ecs:DescribeTasks: the IAM denial in words", repr(err))

        rc, out, err = run(port, "tasks", "--cluster", "moto-nope", "--format", "csv",
                           key=rk, secret=rs)
        ok(rc == 1 and one_line(err) and "ClusterNotFoundException" in err
           and "moto-nope" in err and "moto-prod" in err,
           "unknown cluster: says so and names the real ones", repr(err))
    except Exception as e:  # a missing moto or a broken seed fails the test
        ok(False, "moto harness", repr(e))
    finally:
        if moto is not None:
            moto.kill()
            moto.wait()
        shutil.rmtree(TMP, ignore_errors=True)
    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
