#!/usr/bin/env python3
"""TAP test: the example data in examples/ is what examples/gen.py makes, parses, keeps the
scenario that examples/README.md promises, and agrees with itself across the four shapes
(the same task has the same millisecond in every file that carries it)."""
import datetime as dt
import glob
import json
import os
import subprocess
import sys

SRC = os.environ.get("SRCDIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EX = os.path.join(SRC, "examples")
results = []


def ok(cond, name, detail=""):
    results.append((bool(cond), name, detail))


def iso_ms(s):
    """ISO 8601 with any fraction length and Z or an offset -> epoch ms (truncated)."""
    frac = ""
    if "." in s:
        head, rest = s.split(".", 1)
        i = 0
        while i < len(rest) and rest[i].isdigit():
            i += 1
        frac, tz = rest[:i], rest[i:]
        s = head + tz
    t = dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    assert t.tzinfo is not None, s
    return int(t.timestamp()) * 1000 + int((frac + "000")[:3])


def num_ms(x):
    return int(round(float(x) * 1000))


KEYS = ["createdAt", "connectivityAt", "pullStartedAt", "pullStoppedAt", "startedAt",
        "stoppingAt", "executionStoppedAt", "stoppedAt"]


def times(task, conv):
    return {k: conv(task[k]) for k in KEYS if k in task}


def ordered(ts):
    chain = [k for k in ["createdAt", "connectivityAt", "pullStartedAt", "pullStoppedAt", "startedAt"] if k in ts]
    bad = [(a, b) for a, b in zip(chain, chain[1:]) if ts[a] > ts[b]]
    stop = [k for k in ["createdAt", "stoppingAt", "executionStoppedAt", "stoppedAt"] if k in ts]
    bad += [(a, b) for a, b in zip(stop, stop[1:]) if ts[a] > ts[b]]
    return bad


def main():
    files = {}
    for path in [os.path.join(EX, n) for n in ("scaleout.json", "scaleout-api.json", "events.jsonl")] + \
            sorted(glob.glob(os.path.join(EX, "metadata", "*.json"))):
        files[os.path.relpath(path, EX)] = open(path, encoding="utf-8").read()

    # 1. regenerating gives the same bytes
    r = subprocess.run([sys.executable, os.path.join(EX, "gen.py"), "--check"], capture_output=True, text=True)
    ok(r.returncode == 0, "examples/gen.py --check: the files are what the generator makes", r.stderr.strip())

    # 2. everything parses
    docs, parse_err = {}, []
    for name, text in files.items():
        try:
            if name.endswith(".jsonl"):
                docs[name] = [json.loads(line) for line in text.splitlines() if line.strip()]
            else:
                docs[name] = json.loads(text)
        except ValueError as e:
            parse_err.append(f"{name}: {e}")
    ok(not parse_err, "every file is valid JSON / JSON Lines", "; ".join(parse_err))
    if parse_err:
        return

    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(EX, "**", "*"), recursive=True) if os.path.isfile(p))
    # 256 KiB: the scale-out's source documents (issue 33) joined the tasks' story
    ok(total < 256 * 1024, f"examples/ is small ({total} bytes < 256 KiB)")

    cli = docs["scaleout.json"]
    ok(set(cli) == {"tasks", "failures"} and cli["failures"] == [], "scaleout.json is {tasks, failures}")
    tasks = cli["tasks"]
    ok(28 <= len(tasks) <= 32, f"scaleout.json has ~30 tasks ({len(tasks)})")
    strs = [v for t in tasks for k, v in t.items() if k in KEYS]
    ok(all(isinstance(v, str) and (v.endswith("+00:00") or v[-6] in "+-") for v in strs),
       "scaleout.json times are ISO 8601 strings with an offset")
    ok(any("." not in v for v in strs) and any(len(v.split(".")[-1]) == 12 for v in strs),
       "scaleout.json has both microsecond times and a time without a fraction (as the CLI prints)")

    by_arn = {t["taskArn"]: times(t, iso_ms) for t in tasks}
    bad = {a[-32:]: ordered(ts) for a, ts in by_arn.items() if ordered(ts)}
    ok(not bad, "scaleout.json: createdAt <= connectivityAt <= pullStartedAt <= pullStoppedAt <= startedAt", str(bad))

    revs = {t["taskDefinitionArn"].rsplit(":", 1)[1] for t in tasks}
    ok(revs == {"7", "8"} and all(t["taskDefinitionArn"].endswith(("checkout-api:7", "checkout-api:8")) for t in tasks),
       "two revisions of one family: checkout-api:7 and :8")
    ok({t["availabilityZone"] for t in tasks} == {"us-east-1a", "us-east-1b", "us-east-1c"}, "three AZs")
    ok(all(t["group"] == "service:checkout-api" and t["startedBy"].startswith("ecs-svc/")
           and t["launchType"] == "FARGATE" and t["platformVersion"] == "1.4.0"
           and t["cpu"] == "1024" and t["memory"] == "2048" for t in tasks), "service, Fargate 1.4.0, 1024/2048")
    ok(all(t["taskArn"].startswith("arn:aws:ecs:us-east-1:123456789012:task/prod/") and len(t["taskArn"].rsplit("/", 1)[1]) == 32
           for t in tasks), "full task ARNs with a 32-hex id")
    ok(len({t["taskArn"] for t in tasks}) == len(tasks), "task ARNs are unique")

    failed = [t for t in tasks if t["lastStatus"] == "STOPPED"]
    ok(len(failed) == 1 and failed[0].get("stopCode") == "TaskFailedToStart"
       and failed[0]["stoppedReason"].startswith("CannotPullContainerError:")
       and failed[0]["containers"][0]["reason"].startswith("CannotPullContainerError:")
       and "pullStoppedAt" not in failed[0] and "startedAt" not in failed[0] and "stoppedAt" in failed[0],
       "one task failed with CannotPullContainerError, no pullStoppedAt/startedAt")
    pending = [t for t in tasks if t["lastStatus"] == "PENDING"]
    ok(len(pending) == 1 and "pullStartedAt" in pending[0] and "pullStoppedAt" not in pending[0]
       and "startedAt" not in pending[0], "one task still pulling (PENDING, pullStartedAt, no pullStoppedAt)")
    running = [t for t in tasks if t["lastStatus"] == "RUNNING"]
    ok(all(all(k in t for k in ("connectivityAt", "pullStartedAt", "pullStoppedAt", "startedAt")) for t in running),
       "every RUNNING task has all four timestamps")

    # The story: rev 8 pulls in seconds, rev 7 in about a minute and more.
    pull = {"7": [], "8": []}
    for t in running:
        ts = by_arn[t["taskArn"]]
        pull[t["taskDefinitionArn"][-1]].append((ts["pullStoppedAt"] - ts["pullStartedAt"]) / 1000)
    ok(pull["7"] and pull["8"] and min(pull["7"]) >= 50 and max(pull["7"]) <= 90 and max(pull["8"]) <= 8,
       f"pull: rev 7 {min(pull['7']):.1f}-{max(pull['7']):.1f} s, rev 8 {min(pull['8']):.1f}-{max(pull['8']):.1f} s")
    prov = [(by_arn[t["taskArn"]]["pullStartedAt"] - by_arn[t["taskArn"]]["createdAt"]) / 1000 for t in running]
    ok(min(prov) >= 10 and max(prov) <= 40, f"provision 10-40 s ({min(prov):.1f}-{max(prov):.1f})")

    # 3. the raw API shape: numbers, some in exponent form, same ms as the CLI's strings
    api = docs["scaleout-api.json"]
    raw = files["scaleout-api.json"]
    ok(set(api) == {"tasks", "failures"} and all(isinstance(t[k], (int, float)) for t in api["tasks"] for k in KEYS if k in t),
       "scaleout-api.json times are JSON numbers")
    ok("E9" in raw and any(c.isdigit() for c in raw.split("E9")[0][-3:]), "scaleout-api.json uses the exponent form")
    mism = [t["taskArn"][-32:] for t in api["tasks"] if times(t, num_ms) != by_arn.get(t["taskArn"])]
    ok(api["tasks"] and not mism, "scaleout-api.json tasks equal their scaleout.json twins to the millisecond", str(mism))

    # 4. EventBridge events: several versions, out of order, one duplicate, newest = describe
    ev = docs["events.jsonl"]
    ok(all(e["detail-type"] == "ECS Task State Change" and e["source"] == "aws.ecs" for e in ev), "events are ECS Task State Change")
    keys = [(e["detail"]["taskArn"], e["detail"]["version"]) for e in ev]
    ok(len(keys) - len(set(keys)) == 1, "exactly one duplicated (taskArn, version)")
    per = {}
    for e in ev:
        per.setdefault(e["detail"]["taskArn"], []).append(e["detail"]["version"])
    ok(all(len(v) >= 2 for v in per.values()), "several versions per task")
    ok(any(v != sorted(v) for v in per.values()), "some versions arrive out of order")
    ev_ts = [s for e in ev for k, s in e["detail"].items() if k in KEYS]
    ok(all(s.endswith("Z") for s in ev_ts), "event times are ISO 8601 ...Z")
    newest = {}
    for e in ev:
        d = e["detail"]
        if d["taskArn"] not in newest or d["version"] > newest[d["taskArn"]]["version"]:
            newest[d["taskArn"]] = d
    mism = [a[-32:] for a, d in newest.items() if times(d, iso_ms) != by_arn.get(a)]
    ok(not mism, "each task's newest event equals its describe-tasks state", str(mism))
    bad = [e["detail"]["taskArn"][-32:] for e in ev if ordered(times(e["detail"], iso_ms))]
    ok(not bad, "event times are in lifecycle order", str(bad))

    # 5. task metadata v4: PascalCase, Snapshotter soci for rev 8 and overlayfs for rev 7
    meta = {n: d for n, d in docs.items() if n.startswith("metadata")}
    snaps = {d["Revision"]: {c["Snapshotter"] for c in d["Containers"]} for d in meta.values()}
    ok(len(meta) >= 2 and snaps.get("8") == {"soci"} and snaps.get("7") == {"overlayfs"},
       "metadata: Snapshotter soci (rev 8) and overlayfs (rev 7)", str(snaps))
    mism = []
    for n, d in meta.items():
        cli_ts = by_arn.get(d["TaskARN"], {})
        if os.path.basename(n)[:-5] != d["TaskARN"][-32:] or \
                iso_ms(d["PullStartedAt"]) != cli_ts.get("pullStartedAt") or \
                iso_ms(d["PullStoppedAt"]) != cli_ts.get("pullStoppedAt"):
            mism.append(n)
    ok(not mism, "metadata pull times equal describe-tasks to the millisecond", str(mism))

    # 6. end to end: ecsprof's CSV of the examples equals durations computed here
    exe = os.environ.get("ECSPROF")
    ok(exe and os.access(exe, os.X_OK), "ECSPROF names the ecsprof binary", f"ECSPROF={exe!r}")
    if not exe:
        return
    import csv as csvmod
    all_files = [os.path.join(EX, n) for n in ("scaleout.json", "scaleout-api.json", "events.jsonl")] + \
        sorted(glob.glob(os.path.join(EX, "metadata", "*.json")))
    r = subprocess.run([exe, "report", "--format", "csv"] + all_files, capture_output=True, text=True,
                       env=dict(os.environ, NO_COLOR="1"))
    ok(r.returncode == 0, "ecsprof report --format csv on every example file exits 0", r.stderr.strip()[:400])
    rows = list(csvmod.DictReader(r.stdout.splitlines()))
    ok(len(rows) == len(tasks), f"one row per task across all shapes ({len(rows)} rows, {len(tasks)} tasks)")
    want, got = {}, {}
    for t in tasks:
        ts = by_arn[t["taskArn"]]
        d = lambda a, b: f"{(ts[b] - ts[a]) / 1000:.3f}" if a in ts and b in ts else ""
        want[t["taskArn"]] = (d("createdAt", "pullStartedAt"), d("pullStartedAt", "pullStoppedAt"),
                              d("pullStoppedAt", "startedAt"), d("createdAt", "startedAt"),
                              d("createdAt", "connectivityAt"))
    for row in rows:
        got[row["task_arn"]] = (row["provision_s"], row["pull_s"], row["start_s"], row["total_s"],
                                row["connectivity_s"])
    diff = [a[-32:] for a in want if want[a] != got.get(a)]
    ok(not diff, "every phase of every task as computed independently here", str(diff[:3]))
    meta_arns = {d["TaskARN"] for d in meta.values()}
    ev = {row["task_arn"]: (row["soci"], row["soci_evidence"]) for row in rows}
    ok(all(ev.get(a) == (("soci" if d["Revision"] == "8" else "no-soci"), "metadata") for d in meta.values()
           for a in [d["TaskARN"]]) and all(v == ("unknown", "none") for a, v in ev.items() if a not in meta_arns),
       "metadata Snapshotter labels its tasks (evidence metadata), the others stay unknown")

    r = subprocess.run([exe, "report", "--format", "csv", "--summary", "--group-by", "soci",
                        "--soci-if", "taskdef=checkout-api:8", os.path.join(EX, "scaleout.json")],
                       capture_output=True, text=True)
    rows = {(x["group"], x["phase"]): x for x in csvmod.DictReader(r.stdout.splitlines())}
    pull8 = rows.get(("soci", "pull"), {})
    ok(r.returncode == 0 and pull8.get("baseline") == "no-soci" and pull8.get("n") == str(len(pull["8"]))
       and float(pull8.get("p_value") or 1) < 0.001 and float(pull8.get("p50_ratio") or 1) < 0.1,
       "the README's SOCI comparison: soci vs no-soci, pull p < 0.001, ratio < 0.1", str(pull8))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a crash is a failure with a reason, not a silent pass
        results.append((False, "the checker ran to the end", repr(e)))
    print(f"1..{len(results)}")
    for i, (good, name, detail) in enumerate(results, 1):
        print(f"{'ok' if good else 'not ok'} {i} - {name}")
        if not good and detail:
            print("# " + detail.replace("\n", "\n# "))
    sys.exit(0 if all(g for g, _, _ in results) else 1)
