#!/usr/bin/env python3
"""TAP: `ecsprof images` when ECR pushes back, against fake_ecs's ECR side
(tests/fake_ecr.py): a throttled DescribeImages / BatchGetImage is retried and the answer
is whole; an AccessDenied on one call for one repository (a repository policy) is one
warning line naming the call and the repository, the run goes on with exit 0 (the product
contract: "a missing permission ... is a one-line warning naming it; the run goes on"),
and the rows fetched fine, and what the denied image's other calls gave, are kept."""
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

ECSPROF = os.environ.get("ECSPROF", "")
HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "..", "fake_ecs.py")
TMP = tempfile.mkdtemp(prefix="ecsprof-images-err-")
REG = "123456789012.dkr.ecr.us-east-1.amazonaws.com"
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


REPOS = ["good", "nobatch", "nodescribe"]
DIG = {r: "sha256:" + (c * 64) for r, c in zip(REPOS, "abc")}


# manifests that cannot be read (issue 31 item 9): an index nested 200 deep, a cycle of two
# indexes, an index without the task's platform, and "{}"
BAD = ["nested", "cycle", "noplat", "empty"]
INDEX = "application/vnd.oci.image.index.v1+json"


def dig(name, i=0):
    return "sha256:" + hashlib.sha256(("%s/%d" % (name, i)).encode()).hexdigest()


def index_to(digest, arch="amd64"):
    return {"schemaVersion": 2, "mediaType": INDEX,
            "manifests": [{"mediaType": INDEX, "digest": digest, "size": 100,
                           "platform": {"os": "linux", "architecture": arch}}]}


def bad_images():
    imgs = [{"repo": "nested", "digest": dig("nested", i), "tags": ["1"] if i == 0 else [],
             "manifest": index_to(dig("nested", i + 1))} for i in range(200)]
    imgs.append({"repo": "nested", "digest": dig("nested", 200), "tags": [],
                 "manifest": index_to(dig("nested", 0))})
    imgs += [{"repo": "cycle", "digest": dig("cycle", i), "tags": ["1"] if i == 0 else [],
              "manifest": index_to(dig("cycle", 1 - i))} for i in range(2)]
    imgs.append({"repo": "noplat", "digest": dig("noplat"), "tags": ["1"],
                 "manifest": index_to(dig("noplat", 1), "arm64")})
    imgs.append({"repo": "empty", "digest": dig("empty"), "tags": ["1"], "manifest": {}})
    return imgs


def scenario():
    tasks = [{"id": r, "family": "app", "created": -300 + i, "pull": 10.0 + i,
              "image": "%s/%s:1" % (REG, r), "digest": DIG[r]} for i, r in enumerate(REPOS)]
    tasks += [{"id": r, "family": "app", "created": -200 + i, "pull": 10.0 + i,
               "image": "%s/%s:1" % (REG, r), "digest": dig(r)} for i, r in enumerate(BAD)]
    # "auto": each digest is a synthesized 3-layer gzip image with a history
    return {"clusters": {"img": {"tasks": tasks}},
            "ecr": {"auto": True, "images": bad_images(),
                    "deny_repos": {"BatchGetImage": ["nobatch"],
                                   "DescribeImages": ["nodescribe"]}}}


def stats(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/_fake/stats" % port, timeout=10) as r:
        return json.loads(r.read())


def inject(port, d):
    req = urllib.request.Request("http://127.0.0.1:%d/_fake/inject" % port,
                                 data=json.dumps(d).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        r.read()


def run(port, *args, cache):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_ACCESS_KEY_ID": "AKIDFAKE", "AWS_SECRET_ACCESS_KEY": "fakesecret",
                "AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1",
                "AWS_CONFIG_FILE": os.path.join(TMP, "none"),
                "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "none"),
                "AWS_ENDPOINT_URL_ECR": "http://127.0.0.1:%d" % port,
                "XDG_CACHE_HOME": os.path.join(TMP, cache)})
    cmd = [ECSPROF] + list(args) + ["--endpoint-url", "http://127.0.0.1:%d" % port,
                                    "--region", "us-east-1"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def by_repo(out):
    return {r["repository"]: r for r in csv.DictReader(io.StringIO(out))}


def main():
    if not ECSPROF or not os.access(ECSPROF, os.X_OK):
        print("1..1\nnot ok 1 - ECSPROF is not an executable")
        return 1
    srv = None
    try:
        scen = os.path.join(TMP, "scenario.json")
        with open(scen, "w") as f:
            json.dump(scenario(), f)
        srv = subprocess.Popen([sys.executable, FAKE, "--scenario", scen],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        port = int(srv.stdout.readline())

        # throttling: the next 3 DescribeImages / BatchGetImage calls are refused
        inject(port, {"throttle": 3, "ops": ["DescribeImages", "BatchGetImage"]})
        before = stats(port)
        rc, out, err = run(port, "images", "--cluster", "img", "--format", "csv",
                           cache="c1")
        after = stats(port)
        inject(port, {"ops": []})
        rows = by_repo(out)
        g = rows.get("good", {})
        ok(rc == 0 and after["faults"] - before["faults"] == 3,
           "three throttled calls, exit 0", "rc=%d faults=%d\n%s" %
           (rc, after["faults"] - before["faults"], err))
        ok(g.get("image_layers") == "3" and g.get("image_compression") == "gzip" and
           g.get("image_size_bytes", "") not in ("", "0"),
           "throttled calls retried: the good image's row is whole", str(g) + err)
        ok("Throttling" not in err and "Rate exceeded" not in err,
           "a throttle that a retry absorbs is no warning", err)

        # AccessDenied on one call for one repository
        rc, out, err = run(port, "images", "--cluster", "img", "--format", "csv",
                           cache="c2")
        rows = by_repo(out)
        ok(rc == 0, "AccessDenied is a warning: exit 0", "rc=%d\n%s" % (rc, err))
        lines = err.splitlines()
        nb = [l for l in lines if "BatchGetImage" in l]
        ok(len(nb) == 1 and "nobatch" in nb[0] and "good" not in nb[0] and
           "nodescribe" not in nb[0],
           "denied BatchGetImage: one line naming the call and the repository", err)
        nd = [l for l in lines if "DescribeImages" in l]
        ok(len(nd) == 1 and "nodescribe" in nd[0] and "nobatch" not in nd[0],
           "denied DescribeImages: one line naming the call and the repository", err)
        ok(all(l.count("\n") == 0 and len(l) < 300 for l in nb + nd) and
           not any("good" in l for l in lines), "no warning about the image fetched fine",
           err)
        g = rows.get("good", {})
        ok(g.get("image_layers") == "3" and g.get("image_compression") == "gzip" and g.get("tag") == "1"
           and g.get("tasks") == "1", "the row fetched fine is kept whole", out)
        b = rows.get("nobatch", {})
        ok(b.get("tasks") == "1" and b.get("image_layers", "") in ("", "0") and
           b.get("image_size_bytes", "") not in ("", "0"),
           "denied BatchGetImage: the row keeps DescribeImages' size",
           str(b))
        # the index and the layers were not seen: no "worth-indexing" on a size alone
        ok(b.get("soci_index") == "" and b.get("soci_advice") == "",
           "denied BatchGetImage: no SOCI advice without the manifest", str(b))
        n = rows.get("nodescribe", {})
        ok(n.get("tasks") == "1" and n.get("image_layers") == "3" and
           n.get("image_compression") == "gzip",
           "denied DescribeImages: the row keeps BatchGetImage's layers", str(n))

        # manifests that cannot be read: unknown, with the reason; never 0 layers,
        # 0 bytes and "too-small"
        rc, out, err = run(port, "images", "--cluster", "img", "--format", "csv",
                           cache="c3")
        rows = by_repo(out)
        for r in BAD:
            row = rows.get(r)
            why = [l for l in err.splitlines() if "/%s:1" % r in l and "cannot be read" in l]
            ok(rc == 0 and row is None and len(why) == 1,
               "%s: no row of 0 layers / too-small, one warning with the reason" % r,
               "rc=%d row=%r\n%s" % (rc, row, err))
        rc, out, err = run(port, "tasks", "--cluster", "img", "--format", "csv", cache="c3")
        tasks = {t["task_id"]: t for t in csv.DictReader(io.StringIO(out))}
        adv = {r: (tasks.get(r, {}).get("image_size_bytes"), tasks.get(r, {}).get("soci_advice"))
               for r in BAD}
        ok(rc == 0 and all(a == ("", "") for a in adv.values()),
           "their tasks: image size unknown, no advice", "%r\n%s" % (adv, err))
    except Exception as ex:
        ok(False, "harness", repr(ex))
    finally:
        if srv is not None:
            srv.kill()
            srv.wait()
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
