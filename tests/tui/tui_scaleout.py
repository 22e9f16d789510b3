#!/usr/bin/env python3
"""TAP: the scale-out view as a person meets it in tmux (`report --scaleout` of the shipped
example on a terminal, 3 scale-outs). Without colour each stage is its letter, so the
screen shows: one line per scale-out with its bar on the shared axis (the alarm's starts
with detect, has react, provision, pull and ends in register), the selected one's advice
under them and j moving to the next; Enter shows that scale-out's tasks and only them
(as many as its tasks_started in the CSV, each created inside its launch window, none of
another scale-out's) and Tab there their summary (its n is tasks_started), the title says
which, Esc and q come back, ? lists the view's keys,
and q at the view quits with status 0."""
import csv
import datetime
import io
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import Tap  # noqa: E402

ECSPROF = os.environ["ECSPROF"]
SRCDIR = os.environ["SRCDIR"]
EX = [os.path.join(SRCDIR, "examples", "scaleout.json"),
      os.path.join(SRCDIR, "examples", "scaleout-sources.jsonl")]
SOCK = "ecsprof-so-%d" % os.getpid()
T = Tap()
ok = T.ok


def tm(*args):
    return subprocess.run(["tmux", "-L", SOCK, "-f", "/dev/null"] + list(args),
                          capture_output=True, text=True)


def screen():
    return tm("capture-pane", "-p", "-t", "t").stdout


def wait_for(pattern, secs=8):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if re.search(pattern, screen(), re.M):
            return True
        time.sleep(0.1)
    return False


def keys(*k):
    tm("send-keys", "-t", "t", *k)
    time.sleep(0.4)


def iso_ms(s):
    d = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ")
    return round(d.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)


def shown_ids(scr):
    return [m.group(1) for m in re.finditer(r"^([0-9a-f]{8}) ", scr, re.M)]


def main():
    if shutil.which("tmux") is None:
        print("1..1\nnot ok 1 - tmux is not installed (apt-get install tmux)")
        return 1
    r = subprocess.run([ECSPROF, "report", "--scaleout"] + EX + ["--format", "csv"],
                       capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    r = subprocess.run([ECSPROF, "report", "--format", "csv", EX[0]], capture_output=True,
                       text=True)
    created = {t["task_id"][:8]: iso_ms(t["created_at"])
               for t in csv.DictReader(io.StringIO(r.stdout))}
    cmd = " ".join([ECSPROF, "report", "--scaleout"] + EX)
    tm("new-session", "-d", "-s", "t", "-x", "130", "-y", "40",
       "env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color %s; echo EXIT=$?; "
       "sleep 60" % cmd)
    try:
        ok(wait_for(r"3 scale-outs"), "a terminal opens on the scale-out view", screen())
        scr = screen()
        lines = [ln for ln in scr.splitlines() if re.match(r"^[ >]\d\d-\d\d \d\d:\d\d:\d\d ", ln)]
        ok(len(lines) == 3, "one line per scale-out (%d)" % len(lines), scr)
        alarm = next((ln for ln in lines if " alarm " in ln), "")
        m = re.search(r"\d+s +(\S+)$", alarm.rstrip())
        bar = m.group(1) if m else ""
        ok(re.match(r"^d+r+s*p+i+c+.*t+", bar) is not None,
           "the alarm's bar: detect, react, provision, pull, start, then register", alarm)
        ok(re.search(r"4->30 +327s", alarm) is not None, "its desired counts and total",
           alarm)
        roll = [ln for ln in lines if " deployment " in ln]
        ok(len(roll) == 2 and all(re.search(r" deployment +\d+ rolling +~?\d+s", ln)
                                  for ln in roll) and "?" not in "".join(lines) and
           not re.search(r"(\d+)->\1\b", scr),
           "a rolling replacement says so as the table does (not 30->30), no '?'", scr)
        ok("desired 4 (unchanged: a rolling replacement), 4 tasks started" in scr,
           "the selected one's line has the table's words", scr)
        ok(re.search(r"\|0s +\|1m", scr) is not None, "a shared time axis over the bars",
           scr)
        ok(lines and lines[0].startswith(">") and "advice: register ~150 s" in scr,
           "the first scale-out is selected and its advice shown", scr)
        keys("j")
        scr = screen()
        ok(re.search(r"^>\S+ 14:01:53 alarm", scr, re.M) and "advice: detect 234 s" in scr
           and "register ~150 s" not in scr,
           "j selects the next; its advice replaces the first's", scr)
        seen = {}
        for i, row in enumerate(rows):
            keys("g")
            for _ in range(i):
                keys("j")
            keys("Enter")
            want = int(row["tasks_started"])
            ok(wait_for(r"scale-out %d of 3" % (i + 1)) and
               wait_for(r"%d/30 tasks" % want),
               "Enter on scale-out %d: its %d tasks in the task table" % (i + 1, want), screen())
            ids = shown_ids(screen())
            lo, hi = iso_ms(row["launch_from"]), iso_ms(row["launch_to"])
            bad = [t for t in ids if not lo <= created.get(t, -1) <= hi]
            ok(len(ids) == want and not bad,
               "scale-out %d: every task shown was created in its launch window" % (i + 1),
               "%d ids, outside: %r\n%s" % (len(ids), bad, screen()))
            seen[i] = set(ids)
            keys("Tab")
            ok(wait_for(r"^GROUP \S+: %d tasks?," % want),
               "Tab there: the summary of scale-out %d's %d tasks, not of all" % (i + 1, want),
               screen())
            keys("Tab")
            wait_for(r"^TASK ")
            keys("Escape" if i % 2 == 0 else "q")
            ok(wait_for(r"3 scale-outs") and "TASK " not in screen(),
               "%s goes back to the scale-outs" % ("Esc" if i % 2 == 0 else "q"), screen())
        ok(not (seen[0] & seen[1]) and not (seen[1] & seen[2]) and not (seen[0] & seen[2]),
           "no task is shown under two scale-outs", seen)
        keys("?")
        scr = screen()
        ok("Enter" in scr and "tasks of the selected scale-out" in scr and "F10" in scr and
           "registration" in scr, "? lists the view's keys and its bar", scr)
        keys("x")
        ok(wait_for(r"3 scale-outs"), "any other key leaves the help", screen())
        keys("q")
        ok(wait_for(r"EXIT=0"), "q at the scale-outs quits with status 0", screen())
    finally:
        tm("kill-server")
    # in colour: each stage of the alarm's bar in its own colour (so_stage_colours), on a
    # server of its own (the first may still be going away)
    global SOCK
    SOCK += "c"
    tm("new-session", "-d", "-s", "t", "-x", "130", "-y", "40",
       "env -u NO_COLOR LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color %s; sleep 60" % cmd)
    try:
        wait_for(r"3 scale-outs")
        time.sleep(0.3)
        raw = tm("capture-pane", "-p", "-e", "-t", "t").stdout
        line = next((ln for ln in raw.splitlines() if " alarm " in ln), "")
        colours = set(re.findall(r"\x1b\[(?:[0-9;]*;)?(38;5;\d+|3\d)m", line))
        # detect 247, react 243, provision blue, pull 172, start green, register 139
        ok({"38;5;247", "38;5;172", "38;5;139"} <= colours and len(colours) >= 5,
           "in colour each stage of the bar has its own colour (%d)" % len(colours),
           repr(line[:300]) + repr(colours))
    finally:
        tm("kill-server")
    return T.report()


if __name__ == "__main__":
    sys.exit(main())
