#!/usr/bin/env python3
"""--format xlsx interrupted by a real signal: a 50,000-task export is stopped with SIGINT
and with SIGTERM once its temporary workbook exists in TMPDIR; ecsprof must end by that
signal and leave TMPDIR empty, and neither the -o file nor its own temporary beside it.
TAP output."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bigset  # noqa: E402

ECSPROF = os.environ["ECSPROF"]
n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:20]:
            print("# " + line)
    sys.stdout.flush()


def default_signals():
    # a non-interactive parent (CI, nohup, a shell's background job) may ignore SIGINT,
    # and an ignored signal stays ignored across exec
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def interrupt(work, big, sig):
    name = signal.Signals(sig).name
    tmpdir = os.path.join(work, "tmp-" + name)
    outdir = os.path.join(work, "out-" + name)
    os.mkdir(tmpdir)
    os.mkdir(outdir)
    book = os.path.join(outdir, "big.xlsx")
    p = subprocess.Popen([ECSPROF, "report", "--format", "xlsx", "-o", book,
                          "--group-by", "taskdef", big],
                         env=dict(os.environ, TMPDIR=tmpdir), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=default_signals)
    deadline = time.monotonic() + 120
    seen = []
    while time.monotonic() < deadline and p.poll() is None:
        seen = [f for f in os.listdir(tmpdir) if f.startswith("ecsprof-xlsx-")]
        if seen:
            break
        time.sleep(0.005)
    ok(bool(seen) and p.poll() is None, "%s: the temporary workbook appears in TMPDIR "
       "while the export runs" % name, "exit %s, TMPDIR %s" % (p.poll(), os.listdir(tmpdir)))
    if p.poll() is None:
        time.sleep(0.05)   # into the writing, not just past mkstemp
        p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    ok(p.returncode in (-sig, 128 + sig), "%s: ecsprof ends by the signal (exit %d)"
       % (name, p.returncode), err.decode(errors="replace"))
    ok(os.listdir(tmpdir) == [], "%s: TMPDIR is left empty" % name, os.listdir(tmpdir))
    ok(os.listdir(outdir) == [], "%s: neither the -o file nor its temporary is left" % name,
       os.listdir(outdir))


def main():
    work = tempfile.mkdtemp(prefix="ecsprof-xlsx-signal-")
    try:
        big = os.path.join(work, "big.json")
        bigset.write(big, 50000)
        interrupt(work, big, signal.SIGINT)
        interrupt(work, big, signal.SIGTERM)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
