#!/usr/bin/env python3
"""TAP: image facts from ECR end to end, against fake_ecs's ECR side (tests/fake_ecr.py):
every soci_advice a live run can give, both forms of imageDigest (index and platform
manifest), a SOCI index v2 in an OCI index and v1 as a referrer, zstd, the 250 MiB and
platform 1.4.0 edges, the config history per layer, a layer URL fetched with no
Authorization header, a warm cache that makes no ECR call, --no-images, a missing
permission as one warning, a missing repository per image, and record -> report."""
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
TMP = tempfile.mkdtemp(prefix="ecsprof-images-")
REG = "123456789012.dkr.ecr.us-east-1.amazonaws.com"
MIB = 1 << 20
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def d(s):
    return "sha256:" + hashlib.sha256(s.encode()).hexdigest()


GZ = "application/vnd.oci.image.layer.v1.tar+gzip"
ZS = "application/vnd.oci.image.layer.v1.tar+zstd"
IDX = "application/vnd.oci.image.index.v1+json"
MAN = "application/vnd.oci.image.manifest.v1+json"


def manifest(name, sizes, types=None, annotations=None):
    cfg = {"history": [{"created_by": "STEP %s %d" % (name, i)} for i in range(len(sizes))]}
    cfg["history"].insert(1, {"created_by": "ENV A=1", "empty_layer": True})
    m = {"schemaVersion": 2, "mediaType": MAN,
         "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                    "digest": d(name + "config"), "size": 100},
         "layers": [{"mediaType": (types or [GZ] * len(sizes))[i], "digest": d(name + str(i)),
                     "size": s} for i, s in enumerate(sizes)]}
    if annotations:
        m["annotations"] = annotations
    return m, cfg


def image(repo, name, sizes, **kw):
    tags = kw.pop("tags", ["1"])
    refs = kw.pop("referrers_v1", [])
    m, cfg = manifest(name, sizes, **kw)
    return {"repo": repo, "digest": d(name), "tags": tags, "manifest": m, "config": cfg,
            "referrers_v1": refs}


EDGE = 250 * MIB
# a SOCI index v2 also marks the platform manifest it names (com.amazon.soci.index-digest)
amd = image("multi", "multi-amd", [200 * MIB, 100 * MIB],
            annotations={"com.amazon.soci.index-digest": d("soci-v2")})
arm = image("multi", "multi-arm", [100 * MIB, 20 * MIB])
win = image("multi", "multi-win", [400 * MIB, 90 * MIB])
index = {"repo": "multi", "digest": d("multi-index"), "tags": ["2"], "manifest": {
    "schemaVersion": 2, "mediaType": IDX, "manifests": [
        {"mediaType": MAN, "digest": amd["digest"], "size": 500,
         "platform": {"os": "linux", "architecture": "amd64"}},
        {"mediaType": MAN, "digest": arm["digest"], "size": 500,
         "platform": {"os": "linux", "architecture": "arm64"}},
        {"mediaType": MAN, "digest": win["digest"], "size": 500,
         "platform": {"os": "windows", "architecture": "amd64", "os.version": "10.0.20348.2762"}},
        {"mediaType": MAN, "digest": d("soci-v2"), "size": 900,
         "artifactType": "application/vnd.amazon.soci.index.v2+json",
         "annotations": {"com.amazon.soci.image-manifest-digest": amd["digest"]}}]}}
IMAGES = [
    image("edge", "edge", [EDGE - 1000, 1000]),                 # exactly 250 MiB
    image("small", "small", [EDGE - 1000, 999]),                # one byte under
    image("zstd", "zstd", [300 * MIB, 10], types=[ZS, GZ]),
    image("v1", "v1", [400 * MIB], referrers_v1=[d("soci-v1")]),
    amd, arm, win, index,
]
TASKS = [  # id, repo, digest, extra
    ("edge", "edge", d("edge"), {}),
    ("small", "small", d("small"), {}),
    ("zstd", "zstd", d("zstd"), {}),
    ("v1", "v1", d("v1"), {}),
    ("indexamd", "multi", d("multi-index"), {}),                # the index digest
    ("manifestamd", "multi", amd["digest"], {}),                 # the platform manifest
    ("indexarm", "multi", d("multi-index"), {"arch": "arm64"}),
    ("indexarm2", "multi", d("multi-index"), {"arch": "arm64"}),
    ("indexwin", "multi", d("multi-index"), {"platformFamily": "WINDOWS_SERVER_2022_CORE"}),
    ("oldpv", "edge", d("edge"), {"platformVersion": "1.3.0"}),
    ("newpv", "edge", d("edge"), {"platformVersion": "1.4.0"}),
    ("hub", None, d("hub"), {"image": "nginx:1.27"}),
    ("gone", "missing-app", d("gone"), {}),
    # still pulling: no imageDigest yet; "edge"'s lookup (by digest, cached) answers for it,
    # so no run resolves the tag with DescribeImages, warm cache or cold
    ("pulling", "edge", None, {"created": -5, "pull": 100000}),
]
WANT = {"edge": "worth-indexing", "small": "too-small", "zstd": "zstd", "v1": "index-v1-only",
        "indexamd": "index-v2", "manifestamd": "index-v2", "indexarm": "too-small",
        "indexarm2": "too-small", "indexwin": "platform",
        "oldpv": "platform", "newpv": "worth-indexing", "hub": "not-ecr", "gone": "",
        "pulling": "worth-indexing"}


def scenario():
    tasks = []
    for i, (tid, repo, dig, extra) in enumerate(TASKS):
        t = {"id": tid, "family": "app", "created": -300 + i, "pull": 20.0 + i,
             "image": extra.get("image", "%s/%s:1" % (REG, repo))}
        if dig is not None:
            t["digest"] = dig
        t.update({k: v for k, v in extra.items() if k != "image"})
        tasks.append(t)
    return {"credentials": {"AKIDFAKE": "fakesecret", "AKIDLIMITED": "limitedsecret"},
            "deny": {"AKIDLIMITED": ["ListImageReferrers"]},
            "clusters": {"img": {"tasks": tasks}},
            "ecr": {"images": IMAGES, "auto": False}}


def stats(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/_fake/stats" % port, timeout=10) as r:
        return json.loads(r.read())


ECR_OPS = ("DescribeImages", "BatchGetImage", "ListImageReferrers", "GetDownloadUrlForLayer")


def ecr_calls(st):
    return sum(st["ops"].get(o, 0) for o in ECR_OPS)


def run(port, *args, cache="cache", key="AKIDFAKE", secret="fakesecret", extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret,
                "AWS_EC2_METADATA_DISABLED": "true", "NO_COLOR": "1",
                "AWS_CONFIG_FILE": os.path.join(TMP, "none"),
                "AWS_SHARED_CREDENTIALS_FILE": os.path.join(TMP, "none"),
                "AWS_ENDPOINT_URL_ECR": "http://127.0.0.1:%d" % port,
                "XDG_CACHE_HOME": os.path.join(TMP, cache)})
    env.update(extra or {})
    cmd = [ECSPROF] + list(args) + ["--endpoint-url", "http://127.0.0.1:%d" % port,
                                    "--region", "us-east-1"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def batching(results_ok):
    """200 tasks over 20 images in 2 repositories, cold cache, 20 ms per request: the
    lookups batch DescribeImages and BatchGetImage per repository (up to 100 imageIds)
    and ask each digest once."""
    tasks = []
    for i in range(200):
        img = i % 20
        tasks.append({"id": "%032x" % (i + 1), "family": "many", "created": -600 + i,
                      "pull": 10.0, "image": "%s/app%d:%d" % (REG, img % 2, img),
                      "digest": d("many%d" % img)})
    scen = os.path.join(TMP, "many.json")
    with open(scen, "w") as f:
        json.dump({"clusters": {"many": {"tasks": tasks}}, "ecr": {"auto": True}}, f)
    srv = subprocess.Popen([sys.executable, FAKE, "--scenario", scen, "--inject",
                            "latency_ms=20"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(srv.stdout.readline())
        rc, out, err = run(port, "tasks", "--cluster", "many", "--format", "csv",
                           cache="cache-many")
        st = stats(port)
        ops = st["ops"]
        results_ok(rc == 0 and len(rows(out)) == 200 and
                   all(r["image_size_bytes"] for r in rows(out).values()),
                   "200 tasks over 20 images: every task has its image facts", err[-300:])
        results_ok(ops.get("BatchGetImage", 0) <= 12 and ops.get("DescribeImages", 0) <= 12 and
                   st.get("batch_ids_max", 0) >= 3 and st.get("describe_ids_max", 0) >= 3,
                   "cold cache: DescribeImages and BatchGetImage batched per repository "
                   "(20 digests)", str(ops) + " max ids %s/%s" % (st.get("describe_ids_max"),
                                                                 st.get("batch_ids_max")))
        results_ok(ops.get("ListImageReferrers", 0) == 20 and
                   ops.get("GetDownloadUrlForLayer", 0) == 20,
                   "one ListImageReferrers and one config per digest", str(ops))
    finally:
        srv.kill()
        srv.wait()


def rows(out):
    return {r["task_id"]: r for r in csv.DictReader(io.StringIO(out))}


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

        rc, out, err = run(port, "tasks", "--cluster", "img", "--format", "csv")
        got = rows(out)
        ok(rc == 0 and len(got) == len(TASKS), "tasks with image lookups", err[-500:])
        for tid, want in WANT.items():
            r = got.get(tid, {})
            ok(r.get("soci_advice") == want, "soci_advice %s = %r" % (tid, want),
               "got %r" % r.get("soci_advice"))
        e = got.get("edge", {})
        ok(e.get("image_size_bytes") == str(EDGE) and e.get("image_layers") == "2" and
           e.get("image_compression") == "gzip" and e.get("soci_index") == "none",
           "size, layers, compression, index of one image", str(e))
        ok(e.get("pull_mbps") == "%.2f" % (EDGE / 1e6 / 20.0), "pull_mbps = bytes/1e6/pull_s",
           e.get("pull_mbps"))
        ok(got.get("zstd", {}).get("image_compression") == "mixed", "zstd + gzip is mixed")
        ok(got.get("indexamd", {}).get("soci") == "soci" and
           got["indexamd"].get("soci_evidence") == "ecr" and
           got.get("edge", {}).get("soci") == "no-soci", "ECR decides the soci label")
        ok(got.get("indexarm", {}).get("image_size_bytes") == str(120 * MIB) and
           got.get("indexarm", {}).get("soci_index") == "none",
           "arm64 task: the arm64 manifest of the index (the v2 entry names amd64's)",
           got.get("indexarm"))
        ok(got.get("indexamd", {}).get("image_size_bytes") == str(300 * MIB),
           "amd64 task: the amd64 manifest of the same index", got.get("indexamd"))
        ok(got.get("indexwin", {}).get("image_size_bytes") == str(490 * MIB),
           "Windows task: the windows/amd64 manifest", got.get("indexwin"))
        ok("RepositoryNotFoundException" in err and "missing-app" in err,
           "a missing repository is a warning naming it", err[-400:])
        ok("nginx:1.27" in err and "not in private ECR" in err, "not-ecr is a warning")
        st = stats(port)
        ok(st["blob_requests"] >= 1 and st["blob_authorization"] == 0,
           "the layer URL is fetched without an Authorization header", str(st))
        # at most one round of calls per distinct digest (the index's manifest once more)
        # 8 digests asked (the index once for its 3 platforms), batched per repository
        ok(st["ops"].get("DescribeImages", 0) <= 8 and st["ops"].get("BatchGetImage", 0) <= 8,
           "at most one DescribeImages and BatchGetImage per digest", str(st["ops"]))

        rc, out2, err2 = run(port, "tasks", "--cluster", "img", "--format", "csv")
        after = stats(port)
        ok(rc == 0 and rows(out2) == got, "warm cache: the same answers", err2[-300:])
        # only the repository that is not there (never cached) is asked again
        delta = {o: after["ops"].get(o, 0) - st["ops"].get(o, 0) for o in ECR_OPS}
        ok(delta == {"DescribeImages": 1, "BatchGetImage": 0, "ListImageReferrers": 0,
                     "GetDownloadUrlForLayer": 0},
           "warm cache: no ECR call for a cached digest", str(delta))

        base = ecr_calls(stats(port))
        rc, out3, err3 = run(port, "tasks", "--cluster", "img", "--format", "csv",
                             "--no-images", cache="cache-none")
        ok(rc == 0 and ecr_calls(stats(port)) == base and
           rows(out3)["edge"]["soci_advice"] == "", "--no-images: no ECR call", err3)

        rc, out4, err4 = run(port, "tasks", "--cluster", "img", "--format", "csv",
                             cache="cache-limited", key="AKIDLIMITED", secret="limitedsecret")
        warn = [l for l in err4.splitlines() if "ListImageReferrers" in l]
        ok(rc == 0 and len(warn) == 1 and "no ecr:ListImageReferrers: SOCI v1 indexes not checked"
           in warn[0] and rows(out4)["v1"]["soci_advice"] == "worth-indexing",
           "no ecr:ListImageReferrers: one warning, v1 not seen", err4)

        rc, out6, err6 = run(port, "images", "--cluster", "img", "--format", "csv")
        imgs = list(csv.DictReader(io.StringIO(out6)))
        edge = [r for r in imgs if r["repository"] == "edge"]
        ok(rc == 0 and len(edge) == 1 and edge[0]["tasks"] == "4" and   # with the one pulling
           edge[0]["soci_advice"] == "worth-indexing" and
           edge[0]["largest_layers"].startswith("%d STEP edge 0" % (EDGE - 1000)),
           "images: one row per image, its tasks and largest layer's build step",
           out6 + err6[-300:])
        multi = {r["platform"]: r for r in imgs if r["digest"] == d("multi-index")}
        ok(sorted(multi) == ["linux/amd64", "linux/arm64", "windows/amd64"] and
           multi["linux/amd64"]["image_size_bytes"] == str(300 * MIB) and
           multi["linux/amd64"]["tasks"] == "2" and multi["linux/amd64"]["soci_index"] == "v2" and
           multi["linux/arm64"]["image_size_bytes"] == str(120 * MIB) and
           multi["linux/arm64"]["tasks"] == "2" and multi["linux/arm64"]["soci_index"] == "none" and
           multi["windows/amd64"]["tasks"] == "1" and
           multi["windows/amd64"]["soci_advice"] == "platform" and
           not [r for r in imgs if r["digest"] == amd["digest"]],
           "images: one row per platform of a multi-arch index, each its own tasks; the task "
           "that reported the amd64 manifest's digest is counted on the index's amd64 row",
           str(multi) + str([r for r in imgs if r["digest"] == amd["digest"]]))
        dump = os.path.join(TMP, "screen.txt")
        tui = {"ECSPROF_TUI_SCRIPT": "g", "ECSPROF_TUI_DUMP": dump, "TERM": "xterm"}
        rc, _, errt = run(port, "images", "--cluster", "img", "--format", "tui", extra=tui)
        scr = open(dump).read() if os.path.exists(dump) else ""
        ok(rc == 0 and "Images of %d tasks (ECR)" % len(TASKS) in scr and
           "advice index-v1-only" in scr, "images --format tui opens on the images view",
           scr + errt[-300:])
        os.path.exists(dump) and os.unlink(dump)
        rc, _, errt = run(port, "images", "--format", "tui", "--image", "%s/edge:1" % REG,
                          extra=tui)
        scr = open(dump).read() if os.path.exists(dump) else ""
        ok(rc == 0 and "Images of 0 tasks (ECR): 1" in scr and "edge:1" in scr,
           "images --image --format tui: the image without any task", scr + errt[-300:])
        rc, out7, err7 = run(port, "images", "--format", "json", "--image",
                             "%s/multi:2" % REG)
        j = json.loads(out7) if rc == 0 else []
        ok(len(j) == 1 and j[0]["soci_index"] == "v2" and j[0]["tasks"] == 0 and
           j[0]["tag"] == "2" and j[0]["manifest_digest"] == amd["digest"],
           "images --image REPO:TAG, without any task", out7 + err7)

        rc, out8, err8 = run(port, "images", "--format", "markdown", "--image",
                             "%s/multi:2" % REG)
        want8 = ("| REPOSITORY | TAG | DIGEST | PLATFORM | SIZE | LAYERS | COMPRESS | INDEX | "
                 "TASKS | PULL50 | PULL90 | MB/S | ADVICE |\n"
                 "|---|---|---|---|---|---:|---|---|---:|---:|---:|---:|---|\n"
                 "| multi | 2 | %s | linux/amd64 | 300.0 MiB | 2 | gzip | v2 | 0 |  |  |  | "
                 "%s |\n\n"
                 "- multi:2 largest layers: 200.0 MiB STEP multi-amd 0; 100.0 MiB STEP "
                 "multi-amd 1\n") % (d("multi-index")[7:21], j[0]["soci_advice"] if j else "")
        ok(rc == 0 and out8 == want8, "images --format markdown: the table and the largest "
           "layers as a list", out8 + err8)

        rec = os.path.join(TMP, "rec.jsonl")
        rc, _, err5 = run(port, "record", "--cluster", "img", "-o", rec)
        lines = open(rec).read().splitlines() if rc == 0 else []
        ok(rc == 0 and sum('"image":' in l for l in lines) >= 6, "record saves image lines", err5)
        rc, _, _ = run(port, "record", "--cluster", "img", "-o", rec)
        ok(rc == 0 and open(rec).read().splitlines() == lines, "recording again changes nothing")
        p = subprocess.run([ECSPROF, "report", "--format", "csv", rec], capture_output=True,
                           text=True, env={"PATH": os.environ.get("PATH", ""), "NO_COLOR": "1"})
        rep = rows(p.stdout)
        ok(p.returncode == 0 and all(rep[t]["soci_advice"] == w for t, w in WANT.items()),
           "report of the recording: the same advice offline",
           str({t: rep.get(t, {}).get("soci_advice") for t in WANT}) + p.stderr)
        hist = [l for l in lines if '"image":{"digest":"%s"' % d("edge") in l]
        ok(hist and "STEP edge 1" in hist[0], "config history names the layers' build steps")
        batching(ok)
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
