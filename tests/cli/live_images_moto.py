#!/usr/bin/env python3
"""TAP: image facts against moto_server, an independent implementation of ECR (and of
SigV4/IAM checking): the setup pushes, with boto3, a gzip image, a zstd image, a small one
and an OCI index of two platform manifests carrying a SOCI index v2 entry (the SOCI index
manifest pushed beside it), then ecsprof reads them with DescribeImages and BatchGetImage,
signed, as an IAM user of moto's (INITIAL_NO_AUTH_ACTION_COUNT lets only the IAM setup
through unsigned). moto implements neither ListImageReferrers nor GetDownloadUrlForLayer
(it answers HTTP 500): ecsprof says so once per call, keeps every other fact, and the
advice does not claim a v1 index. Both `images --image` and `tasks` (moto's ECS tasks
name the images by tag) are checked. A missing moto is a failure, not a skip."""
import csv
import hashlib
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
ACCOUNT = "123456789012"      # moto's default account
REG = "%s.dkr.ecr.%s.amazonaws.com" % (ACCOUNT, REGION)
MIB = 1 << 20
TMP = tempfile.mkdtemp(prefix="ecsprof-images-moto-")
results = []

IDX = "application/vnd.oci.image.index.v1+json"
MAN = "application/vnd.oci.image.manifest.v1+json"
CFG = "application/vnd.oci.image.config.v1+json"
GZ = "application/vnd.oci.image.layer.v1.tar+gzip"
ZS = "application/vnd.oci.image.layer.v1.tar+zstd"
SOCI_V2 = "application/vnd.amazon.soci.index.v2+json"
IAM_SETUP_CALLS = 6           # two users: create_user, put_user_policy, create_access_key


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def sha(b):
    return "sha256:" + hashlib.sha256(b if isinstance(b, bytes) else b.encode()).hexdigest()


def manifest(name, sizes, types=None, annotations=None):
    m = {"schemaVersion": 2, "mediaType": MAN,
         "config": {"mediaType": CFG, "digest": sha(name + "config"), "size": 1000},
         "layers": [{"mediaType": (types or [GZ] * len(sizes))[i], "digest": sha(name + str(i)),
                     "size": s} for i, s in enumerate(sizes)]}
    if annotations:
        m["annotations"] = annotations
    return json.dumps(m, separators=(",", ":"))


def seed(port):
    import boto3
    url = "http://127.0.0.1:%d" % port
    kw = dict(region_name=REGION, endpoint_url=url)
    iam = boto3.client("iam", aws_access_key_id="seed", aws_secret_access_key="seed", **kw)
    keys = {}
    for user, actions in (("pusher", ["ecr:*", "ecs:*", "ec2:*"]),
                          ("reader", ["ecr:DescribeImages", "ecr:BatchGetImage",
                                      "ecr:ListImageReferrers", "ecr:GetDownloadUrlForLayer",
                                      "ecs:List*", "ecs:Describe*"])):
        iam.create_user(UserName=user)
        iam.put_user_policy(UserName=user, PolicyName="p", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": actions, "Resource": "*"}]}))
        k = iam.create_access_key(UserName=user)["AccessKey"]
        keys[user] = (k["AccessKeyId"], k["SecretAccessKey"])
    # from here on every call is signed and checked: the pusher pushes
    pk, ps = keys["pusher"]
    kw.update(aws_access_key_id=pk, aws_secret_access_key=ps)
    ecr = boto3.client("ecr", **kw)
    digests = {}

    def push(repo, text, tag=None, media=MAN):
        d = sha(text)
        args = dict(repositoryName=repo, imageManifest=text, imageManifestMediaType=media,
                    imageDigest=d)
        if tag:
            args["imageTag"] = tag
        got = ecr.put_image(**args)["image"]["imageId"]["imageDigest"]
        if got != d:
            raise RuntimeError("moto stored %s as %s" % (d, got))
        return d

    for repo in ("web", "zstd", "small", "multi"):
        ecr.create_repository(repositoryName=repo)
    digests["web"] = push("web", manifest("web", [200 * MIB, 100 * MIB, 5 * MIB]), "1")
    digests["zstd"] = push("zstd", manifest("zstd", [300 * MIB, 10 * MIB], [ZS, GZ]), "1")
    digests["small"] = push("small", manifest("small", [250 * MIB - 1000, 999]), "1")
    # the SOCI index v2 manifest and the image manifest it indexes
    soci = json.dumps({"schemaVersion": 2, "mediaType": MAN, "artifactType": SOCI_V2,
                       "config": {"mediaType": "application/vnd.amazon.soci.index.v2+json",
                                  "digest": sha("soci-config"), "size": 2},
                       "layers": [{"mediaType": "application/octet-stream",
                                   "digest": sha("ztoc"), "size": 4000}]},
                      separators=(",", ":"))
    digests["soci"] = push("multi", soci)
    amd = manifest("multi-amd", [300 * MIB, 50 * MIB],
                   annotations={"com.amazon.soci.index-digest": digests["soci"]})
    arm = manifest("multi-arm", [100 * MIB, 20 * MIB])
    digests["amd"] = push("multi", amd)
    digests["arm"] = push("multi", arm)
    index = json.dumps({"schemaVersion": 2, "mediaType": IDX, "manifests": [
        {"mediaType": MAN, "digest": digests["amd"], "size": len(amd),
         "platform": {"os": "linux", "architecture": "amd64"}},
        {"mediaType": MAN, "digest": digests["arm"], "size": len(arm),
         "platform": {"os": "linux", "architecture": "arm64", "variant": "v8"}},
        {"mediaType": MAN, "digest": digests["soci"], "size": len(soci),
         "artifactType": SOCI_V2,
         "annotations": {"com.amazon.soci.image-manifest-digest": digests["amd"]}}]},
        separators=(",", ":"))
    digests["index"] = push("multi", index, "2", media=IDX)

    # ECS tasks that name the images by tag (moto's tasks carry no imageDigest)
    ecs = boto3.client("ecs", **kw)
    ec2 = boto3.client("ec2", **kw)
    ecs.create_cluster(clusterName="img")
    ami = ec2.describe_images()["Images"][0]["ImageId"]
    inst = ec2.run_instances(ImageId=ami, MinCount=1, MaxCount=1)["Instances"][0]
    ecs.register_container_instance(cluster="img", instanceIdentityDocument=json.dumps({
        "instanceId": inst["InstanceId"], "region": REGION,
        "availabilityZone": REGION + "a"}))
    for fam, ref in (("web", "web:1"), ("zstd", "zstd:1"), ("small", "small:1"),
                     ("multi", "multi:2"), ("hub", None)):
        image = "%s/%s" % (REG, ref) if ref else "public.ecr.aws/nginx/nginx:1.27"
        ecs.register_task_definition(family=fam, containerDefinitions=[{
            "name": fam, "image": image, "cpu": 64, "memory": 64, "essential": True}])
        ecs.run_task(cluster="img", taskDefinition=fam, count=1, launchType="EC2")
    return keys, digests


def run(port, *args, key, secret, cache="cache"):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1",
                "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret,
                "AWS_CONFIG_FILE": os.path.join(TMP, "none"),
                "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "none"),
                "AWS_ENDPOINT_URL_ECR": "http://127.0.0.1:%d" % port,
                "AWS_MAX_ATTEMPTS": "2",
                "XDG_CACHE_HOME": os.path.join(TMP, cache)})
    cmd = [ECSPROF] + list(args) + ["--endpoint-url", "http://127.0.0.1:%d" % port,
                                    "--region", REGION]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable: %r" % ECSPROF)
        return 1
    moto = None
    try:
        moto, port = start_moto({"INITIAL_NO_AUTH_ACTION_COUNT": str(IAM_SETUP_CALLS)})
        keys, dg = seed(port)
        rk, rs = keys["reader"]

        refs = ["%s/web:1" % REG, "%s/zstd:1" % REG, "%s/small:1" % REG, "%s/multi:2" % REG]
        args = ["images", "--format", "json"]
        for r in refs:
            args += ["--image", r]
        rc, out, err = run(port, *args, key=rk, secret=rs)
        got = {r["repository"]: r for r in json.loads(out)} if rc == 0 else {}
        ok(rc == 0 and sorted(got) == ["multi", "small", "web", "zstd"],
           "images --image: one row per image pushed to moto", "rc=%d %s" % (rc, err[-600:]))
        w = got.get("web", {})
        ok(w.get("digest") == dg["web"] and w.get("image_size_bytes") == 305 * MIB and
           w.get("image_layers") == 3 and w.get("image_compression") == "gzip" and
           w.get("soci_index") == "none" and w.get("soci_advice") == "worth-indexing",
           "web: size and layers from the manifest, gzip, no v2 index: worth-indexing", str(w))
        z = got.get("zstd", {})
        ok(z.get("image_compression") == "mixed" and z.get("soci_advice") == "zstd",
           "zstd layer: SOCI cannot index it", str(z))
        s = got.get("small", {})
        ok(s.get("image_size_bytes") == 250 * MIB - 1 and s.get("soci_advice") == "too-small",
           "one byte under 250 MiB: too-small", str(s))
        m = got.get("multi", {})
        ok(m.get("digest") == dg["index"] and m.get("manifest_digest") == dg["amd"] and
           m.get("platform") == "linux/amd64" and m.get("image_size_bytes") == 350 * MIB and
           m.get("soci_index") == "v2" and m.get("soci_advice") == "index-v2",
           "OCI index: the amd64 manifest and its SOCI index v2 entry", str(m))
        # moto has no ListImageReferrers / GetDownloadUrlForLayer: one line per call
        lines = [l for l in err.splitlines() if l.strip()]
        lir = [l for l in lines if "ListImageReferrers" in l]
        gdu = [l for l in lines if "GetDownloadUrlForLayer" in l]
        ok(len(lir) == 1 and "SOCI v1 indexes not checked" in lir[0] and
           all(r in lir[0] for r in ("web", "zstd", "small", "multi")),
           "ListImageReferrers failing: one warning naming the repositories", err)
        ok(len(gdu) == 1 and "build step" in gdu[0], "GetDownloadUrlForLayer failing: one "
           "warning", err)
        ok(all(r.get("soci_index") != "v1" and r.get("soci_advice") != "index-v1-only"
               for r in got.values()), "no v1 index is claimed without ListImageReferrers")

        rc, out, err = run(port, "tasks", "--cluster", "img", "--format", "csv",
                           key=rk, secret=rs, cache="cache-tasks")
        rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
        by = {r["taskdef"].split(":")[0]: r for r in rows}
        want = {"web": "worth-indexing", "zstd": "zstd", "small": "too-small",
                "multi": "index-v2", "hub": "not-ecr"}
        ok(rc == 0 and {f: by.get(f, {}).get("soci_advice") for f in want} == want,
           "tasks against moto ECS + ECR: soci_advice per task",
           "rc=%d %s %s" % (rc, {f: by.get(f, {}).get("soci_advice") for f in by}, err[-600:]))
        ok(by.get("multi", {}).get("soci") == "soci" and
           by.get("multi", {}).get("soci_evidence") == "ecr" and
           by.get("web", {}).get("soci") == "no-soci",
           "the soci label from ECR", str(by.get("multi")))

        # signatures are checked: a wrong secret is refused, in one line per call
        rc, out, err = run(port, "images", "--format", "json", "--image", refs[0],
                           key=rk, secret="wrong", cache="cache-wrong")
        ok(rc == 0 and json.loads(out or "[]") == [] and "signature" in err.lower(),
           "a bad signature: moto refuses, ecsprof warns and goes on", "rc=%d %s" % (rc, err))
    except Exception as ex:
        ok(False, "harness", repr(ex))
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
