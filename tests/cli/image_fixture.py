#!/usr/bin/env python3
"""TAP: the recording behind the soci_advice golden transcripts
(tests/fixtures/images/recording.jsonl) is what `ecsprof record` makes from its scenario
against the fake ECS/ECR (tests/fixtures/images/make_recording.py), fetch times aside:
the goldens rest on data ecsprof fetched, not on lines written by hand. It also checks
that the goldens cover every soci_advice value of the contract."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ECSPROF = os.environ.get("ECSPROF", "")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIX = os.path.join(SRC, "tests", "fixtures", "images")
ADVICE = ["lazy-loaded", "index-not-used", "index-v2", "index-v1-only", "worth-indexing",
          "zstd", "too-small", "not-ecr", "platform", ""]


def norm(path):
    out = []
    for line in open(path):
        o = json.loads(line)
        o.pop("fetched_at", None)
        if isinstance(o.get("image"), dict):
            o["image"].pop("fetched_at", None)
        out.append(json.dumps(o, sort_keys=True))
    return sorted(out)


def main():
    results = []
    tmp = tempfile.mkdtemp(prefix="ecsprof-fixture-check-")
    out = os.path.join(tmp, "recording.jsonl")
    p = subprocess.run([sys.executable, os.path.join(FIX, "make_recording.py"), ECSPROF, out],
                       capture_output=True, text=True, timeout=120)
    results.append((p.returncode == 0, "make_recording.py runs ecsprof record", p.stderr))
    if p.returncode == 0:
        a, b = norm(out), norm(os.path.join(FIX, "recording.jsonl"))
        diff = [l for l in a if l not in b][:3] + ["--- committed:"] + \
            [l for l in b if l not in a][:3]
        results.append((a == b, "the committed recording is what record makes", "\n".join(diff)))
    seen = set()
    for c in glob.glob(os.path.join(SRC, "tests", "cli", "cases", "report-advice-*.out")):
        lines = open(c).read().splitlines()
        head = lines[0].split(",")
        if len(lines) > 1 and "soci_advice" in head:
            seen.add(lines[1].split(",")[head.index("soci_advice")])
    results.append((seen == set(ADVICE), "a golden per soci_advice value",
                    "missing %s" % sorted(set(ADVICE) - seen)))
    shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    for i, (good, name, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if good else "not ok", i, name))
        if not good and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
