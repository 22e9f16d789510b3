#!/usr/bin/env python3
"""TAP test of `ecsprof diff` on generated histories (diffgen.py, seeded):

- a new image digest that pulls ~35 s slower for the tasks running it: diff names pull,
  the figure and the digest, shows the tasks still on the old digest unchanged, and
  --fail-on 'pull.p50>+10s' exits 3 with one line naming the cause; --split on the same
  history as one file gives the same figures;
- windows drawn from one distribution: no significant change, exit 0;
- the false-failure rate of --fail-on over many seeded pairs of one distribution stays
  under 5 % at the default alpha (printed)."""
import csv
import json
import io
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ECSPROF = os.environ["ECSPROF"]
GEN = os.path.join(HERE, "diffgen.py")
PAIRS = int(os.environ.get("DIFF_PAIRS", "40"))
failed = []


def ok(cond, name, detail=""):
    """One TAP line as the check is made; the plan comes last."""
    n = ok.count = getattr(ok, "count", 0) + 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name), flush=True)
    if not cond:
        failed.append(n)
        print("".join("# %s\n" % l for l in str(detail).splitlines()), end="")


def gen(kind, seed, d):
    subprocess.run([sys.executable, GEN, kind, str(seed), d], check=True)


def run(*args):
    env = dict(os.environ, AWS_EC2_METADATA_DISABLED="true", COLUMNS="100")
    return subprocess.run([ECSPROF, "diff", *args], capture_output=True, text=True, env=env)


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


with tempfile.TemporaryDirectory() as tmp:
    d = os.path.join(tmp, "digest")
    gen("digest", 2, d)
    base, new = os.path.join(d, "base.json"), os.path.join(d, "new.json")
    r = run(base, new, "--fail-on", "pull.p50>+10s")
    ok(r.returncode == 3, "a slower new digest crosses pull.p50>+10s: exit 3",
       "exit %d, stderr %r" % (r.returncode, r.stderr))
    lines = r.stderr.strip().splitlines()
    ok(len(lines) == 1 and "pull p50 +3" in lines[0] and
       "likely cause: image digest sha256:ab125d0e5d0e" in lines[0],
       "one stderr line names the phase, the figure and the digest", r.stderr)
    # the table wraps long lines at the width, continuations indented: join them back
    joined = re.sub(r"\n +", " ", r.stdout)
    why = [l[l.index("pull p50 +"):].split("total p50")[0] for l in joined.splitlines()
           if "pull p50 +" in l]
    ok(len(why) == 1 and "tasks with image digest sha256:ab125d0e5d0e" in why[0] and
       "tasks still on image digest sha256:9f3e1c7a1c7a" in why[0] and "~ (n=12)" in why[0],
       "the explanation names the new digest and the old one unchanged", "\n".join(why))

    c = run(base, new, "--format", "csv")
    ok(c.returncode == 0, "csv: exit 0 without --fail-on", c.stderr)
    got = rows(c.stdout)
    pull = [x for x in got if x["phase"] == "pull" and x["part"] == "all"]
    ok(len(pull) == 1 and 30 < float(pull[0]["p50_delta_s"]) < 40 and pull[0]["significant"] == "true",
       "csv: pull +30..40 s, significant", str(pull))
    ok(float(pull[0]["p50_ci_low_s"]) < float(pull[0]["p50_delta_s"]) < float(pull[0]["p50_ci_high_s"]),
       "csv: the CI brackets the change", str(pull))
    old = [x for x in got if x["phase"] == "pull" and x["part"].startswith("image_digest=sha256:9f3e")]
    ok(len(old) == 1 and old[0]["significant"] == "false" and abs(float(old[0]["p50_delta_s"])) < 3 and
       old[0]["new_n"] == "12", "csv: the old digest's part is unchanged (n=12)", str(old))
    start = [x for x in got if x["phase"] == "start" and x["part"] == "all"]
    ok(start and start[0]["significant"] == "false", "csv: start did not change", str(start))

    ev = run(base, os.path.join(d, "new-events.jsonl"), "--format", "csv")
    ok(ev.returncode == 0 and rows(ev.stdout) == got,
       "the new window as EventBridge events gives the same diff", ev.stderr)
    bf = run("--baseline-file", base, "--baseline-file", base, new, "--format", "csv")
    ok(bf.returncode == 0 and rows(bf.stdout) == got,
       "--baseline-file (twice: one task set, merged by ARN) with the new window's file",
       bf.stderr)

    page = os.path.join(tmp, "diff.html")
    h = run(base, new, "-o", page)
    html = open(page).read() if h.returncode == 0 else ""
    ok(h.returncode == 0 and html.count("<polyline") == 12 and
       "pull: baseline (n=60, dashed) and new (n=52)" in html and
       "tasks with image digest sha256:ab125d0e5d0e" in html,
       "-o diff.html: both windows' CDFs for each of the 6 phases, and the explanation", h.stderr)

    s = run("--split", "2026-12-01", base, new, "--format", "csv")
    ok(s.returncode == 0 and rows(s.stdout) == got, "--split at the second day is the same diff",
       s.stderr)
    s = run("--split", "deployment", base, new, "--fail-on", "pull.p50>+10s")
    ok(s.returncode == 3 and "sha256:ab125d0e5d0e" in s.stderr,
       "--split deployment cuts at the new deployment's first task", s.stderr)
    s = run("--split", "2027-01-01", base, new)
    ok(s.returncode == 1 and "outside the history" in s.stderr, "a WHEN after the history: exit 1",
       s.stderr)
    s = run(base, new, "--fail-on", "pull.p99>+1s")
    ok(s.returncode == 2 and "no statistic 'p99'" in s.stderr, "an unknown stat: exit 2", s.stderr)
    s = run(base, new, "--fail-on", "ready.p50>+1s")
    ok(s.returncode == 1 and "ready has no data" in s.stderr and s.stdout == "",
       "a gate on a phase without data: exit 1, before any output", s.stderr)
    s = run(base, new, "--service", "nope")
    ok(s.returncode == 1 and "window has no task" in s.stderr, "an empty window: exit 1", s.stderr)
    # issue 34 item 7: each bad input is one line on stderr, nothing on stdout
    for args, code, words, name in (
            (("--service", "nope"), 1, "window has no task", "an empty window"),
            (("--fail-on", "pul.p50>+1s"), 2, "no phase 'pul'", "an unknown phase in --fail-on"),
            (("--fail-on", "pull.p99>+1s"), 2, "no statistic 'p99'", "an unknown stat in --fail-on"),
            (("--split", "2027-01-01"), 1, "outside the history", "a WHEN after the history"),
            (("--split", "2020-01-01"), 1, "outside the history", "a WHEN before the history"),
            (("--split", "yesterday"), 2, "'yesterday' is neither", "an unparseable WHEN")):
        s = run(*args, base, new) if args[0] == "--split" else run(base, new, *args)
        ok(s.returncode == code and words in s.stderr and s.stderr.count("\n") == 1 and
           s.stdout == "", "%s: one line, exit %d" % (name, code),
           "exit %d, stdout %r, stderr %r" % (s.returncode, s.stdout[:200], s.stderr))
    # a phase with no data on one side: the row says so, the rest of the diff stands
    with open(new) as f:
        doc = json.load(f)
    for t in doc["tasks"]:
        t.pop("pullStartedAt", None)
        t.pop("pullStoppedAt", None)
    nopull = os.path.join(tmp, "nopull.json")
    with open(nopull, "w") as f:
        json.dump(doc, f)
    s = run(base, nopull, "--format", "csv")
    pull = [r for r in rows(s.stdout) if r["phase"] == "pull" and r["part"] == "all"]
    ok(s.returncode == 0 and len(pull) == 1 and pull[0]["new_n"] == "0" and
       pull[0]["p50_delta_s"] == "" and pull[0]["significant"] in ("", "false"),
       "a phase with no data in the new window: an empty change, exit 0", s.stdout + s.stderr)
    s = run(base, nopull)
    ok(s.returncode == 0 and "(no data on a side)" in s.stdout,
       "the table says the phase has no data on a side", s.stdout)
    ok("pull: no data on one side, nothing to compare" in s.stdout and
       "power (pull)" not in s.stdout and "not enough data" not in s.stdout,
       "no power line for it, a line saying there is nothing to compare", s.stdout)

    same = os.path.join(tmp, "same")
    gen("same", 2, same)
    r = run(os.path.join(same, "base.json"), os.path.join(same, "new.json"),
            "--fail-on", "total.p90>+5%", "--fail-on", "pull.p50>+1s")
    ok(r.returncode == 0 and "no significant change in any phase" in r.stdout,
       "one distribution: no significant change, exit 0", r.stdout + r.stderr)

    fails = 0
    for seed in range(PAIRS):
        gen("same", 1000 + seed, same)
        r = run(os.path.join(same, "base.json"), os.path.join(same, "new.json"),
                "--fail-on", "pull.p50>+0s", "--fail-on", "total.p90>+0%",
                "--fail-on", "provision.mean<+0s", "--format", "csv")
        if r.returncode not in (0, 3):
            ok(False, "seed %d runs" % seed, r.stderr)
            break
        fails += r.returncode == 3
    rate = fails / PAIRS
    print("# false failures of --fail-on: %d of %d pairs of one distribution (%.1f%%)" %
          (fails, PAIRS, 100 * rate))
    ok(rate < 0.05, "the false-failure rate stays under 5%% (%d of %d)" % (fails, PAIRS))

print("1..%d" % ok.count)
sys.exit(1 if failed else 0)
