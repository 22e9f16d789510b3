#!/usr/bin/env python3
"""What the second core gives `ecsprof report --format csv` (or json; issue 35 item 2),
measured so that a loaded machine does not change it: the serial part of the CPU time.

Runs the report on all cores while sampling every thread's CPU time from
/proc/PID/task/*/schedstat every 5 ms, then on one core (taskset -c 0: one thread reads,
no workers, so only its wall and CPU are printed), REPEAT times each, and prints:
  - each thread's CPU time: the main thread, the read's workers (alive from the start),
    the threads after the read (the report's summaries, the output's second formatter);
  - the read (until the last worker ends): the main thread's CPU against the workers',
    and how long each worker waited for work (alive, neither running nor runnable:
    the read's pipeline starving it; on a loaded machine also the main thread waiting
    for a CPU), which the estimate below does not count;
  - after the read: the CPU of the main thread and of the others, segment by segment
    (while another thread runs, the two share the work; else the main thread is alone);
  - the estimated 2-core time: the read at max(main, all / 2), each later segment the
    same way, what the main thread does alone in full, and the CPU the sampling missed
    (the last 5 ms of each thread, the exit) counted as serial too; apart, how long the
    main thread waited at the end neither running nor runnable (the output's fsync and
    rename: no CPU, but as long on one core as on two);
  - the serial part S = 2 x T2 - T1 (Amdahl: T2 = S + (T1 - S) / 2), its share of the CPU
    time and the bound T1 / T2 (1.7x needs S under ~18%), and the bound with the wait at
    the end counted on both;
  - the walls on 2 cores and on 1 and their ratio, with the load average: on a loaded
    machine the ratio is noise, the serial part is not.

With BASELINE (another ecsprof, a copy of main's), both run in the same session,
alternating run by run, and each gets its summary: on a shared machine only figures
from one session compare.

usage: bench/cores.py ECSPROF FILE|N [REPEAT [FORMAT [BASELINE]]]   (N: tasks, written by
       gen_events.py; FORMAT csv, the default, or json)
"""
import os
import resource
import subprocess
import sys
import tempfile
import time


def sample(cmd):
    """Runs cmd; returns (wall, rusage cpu, main tid, {tid: (first, last, cpu)},
    [(t, main cpu)])."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    seen, main_at = {}, []
    while p.poll() is None:
        now = time.monotonic() - t0
        try:
            tids = os.listdir("/proc/%d/task" % p.pid)
        except OSError:
            break
        for tid in tids:
            try:
                with open("/proc/%d/task/%s/schedstat" % (p.pid, tid)) as f:
                    ss = f.read().split()
                cpu, runq = int(ss[0]) / 1e9, int(ss[1]) / 1e9
            except (OSError, ValueError, IndexError):
                continue
            tid = int(tid)
            first = seen[tid][0] if tid in seen else now
            seen[tid] = (first, now, cpu, runq)
            if tid == p.pid:
                main_at.append((now, cpu, runq))
        time.sleep(0.005)
    p.wait()
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if p.returncode != 0:
        sys.exit("%s: exit %d" % (" ".join(cmd), p.returncode))
    return wall, cpu, p.pid, seen, main_at


def run_rusage(cmds):
    """Runs cmds at once; returns [(wall, cpu)] for each (its own rusage, os.wait4)."""
    t0 = time.monotonic()
    ps = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in cmds]
    res = {}
    while len(res) < len(ps):
        pid, status, ru = os.wait4(-1, 0)
        for i, p in enumerate(ps):
            if p.pid == pid:
                if status != 0:
                    sys.exit("%s: exit status %d" % (" ".join(cmds[i]), status))
                res[i] = (time.monotonic() - t0, ru.ru_utime + ru.ru_stime)
    for p in ps:
        p.returncode = 0   # reaped above
    return [res[i] for i in range(len(ps))]


def ceiling(bin_, fmt, path, tmp, repeat):
    """Two one-core runs side by side against one alone, alternating; prints and returns
    (cpu alone, cpu in the pair, the ceiling 2 x wall alone / wall of the pair), each the
    median of its runs."""
    outs = [os.path.join(tmp, "ceil%d.%s" % (i, fmt)) for i in range(2)]
    alone, pair = [], []

    def cmd(cpu, out):
        return ["taskset", "-c", str(cpu), bin_, "report", "--format", fmt, "-o", out, path]

    def clean():
        for o in outs:
            if os.path.exists(o):
                os.unlink(o)
    for i in range(repeat):
        clean()
        alone.append(run_rusage([cmd(0, outs[0])])[0])
        clean()
        pair.append(run_rusage([cmd(0, outs[0]), cmd(1, outs[1])]))
        print("ceiling run %d (load average %s): alone wall %.2f s CPU %.2f s; side by side "
              "walls %.2f, %.2f s, CPU %.2f, %.2f s" % (
                  i + 1, " ".join(open("/proc/loadavg").read().split()[:3]), alone[-1][0],
                  alone[-1][1], pair[-1][0][0], pair[-1][1][0], pair[-1][0][1],
                  pair[-1][1][1]))
    clean()

    def med(v):
        v = sorted(v)
        return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
    ca = med([a[1] for a in alone])
    cp = med([(q[0][1] + q[1][1]) / 2 for q in pair])
    ceil = med([2 * a[0] / max(q[0][0], q[1][0]) for a, q in zip(alone, pair)])
    print("ceiling (median of %d): one run's CPU %.2f s alone, %.2f s beside another "
          "(x%.2f); two runs side by side give %.2fx one alone" % (repeat, ca, cp, cp / ca,
                                                                  ceil))
    # on a shared machine the least disturbed runs say most of the hardware
    la = min(a[1] for a in alone)
    lp = min(min(q[0][1], q[1][1]) for q in pair)
    lw = 2 * min(a[0] for a in alone) / min(max(q[0][0], q[1][0]) for q in pair)
    print("ceiling (the least of %d): one run's CPU %.2f s alone, %.2f s beside another "
          "(x%.2f); best walls: two side by side give %.2fx one alone" % (repeat, la, lp,
                                                                        lp / la, lw))
    return ca, cp, ceil


def main_cpu_at(main_at, t):
    v = 0.0
    for u, c, _ in main_at:
        if u <= t:
            v = c
    return v


def analyse(wall, total, pid, seen, main_at, phases=True):
    main_cpu = seen[pid][2] if pid in seen else 0.0
    others = sorted(((v[0], t, v) for t, v in seen.items() if t != pid))
    workers = [(t, v) for a, t, v in others if a <= others[0][0] + 0.05] if others else []
    later = [(t, v) for a, t, v in others if (t, v) not in workers]
    # a thread after the read that runs under a tenth of what the main thread runs
    # meanwhile waits on the disk (the output's syncer, rowchunks.c): it overlaps the
    # formatting threads and shares no CPU work
    idle = [(t, v) for t, v in later
            if v[2] < 0.1 * (main_cpu_at(main_at, v[1]) - main_cpu_at(main_at, v[0]))]
    later = [(t, v) for t, v in later if (t, v) not in idle]
    out = {"wall": wall, "cpu": total, "main": main_cpu, "waited": 0.0}
    print("  wall %.2f s, CPU %.2f s; main thread %.2f s" % (wall, total, main_cpu))
    if not phases:
        # one core: ecsprof starts no workers (ncpu.c: the affinity mask), so there are
        # no phases to split; the output's syncer would pass for a worker
        return out
    if not workers:
        print("  no worker threads seen (a small input reads on one thread)")
        return out
    read_end = max(v[1] for t, v in workers)
    mr = main_cpu_at(main_at, read_end)
    wr = sum(v[2] for t, v in workers)
    two = max(mr, (mr + wr) / 2)
    print("  the read (to %.2f s): main %.2f s, %d workers %.2f s (%s); main's share %.0f%%" %
          (read_end, mr, len(workers), wr, " + ".join("%.2f" % v[2] for t, v in workers),
           100 * mr / (mr + wr) if mr + wr > 0 else 0))
    # a worker neither running nor waiting for a CPU waits for work: the read's pipeline
    # starving it (on a loaded machine also the main thread waiting for a CPU)
    idle_w = [max(v[1] - v[0] - v[2] - v[3], 0) for t, v in workers]
    out["idle"] = sum(idle_w)
    print("  the read's workers idle, waiting for work: %s s" % " + ".join(
        "%.2f" % w for w in idle_w))
    t = read_end
    # threads whose lives overlap (the output's formatter and the JSON's groups, both
    # beside the main thread) share one segment: on 2 cores it takes the longest of them
    # or half of all their CPU, whichever is more
    segs = []
    for tid, (a, b, c, _) in sorted(later, key=lambda x: x[1][0]):
        if segs and a < segs[-1][1]:
            segs[-1] = (segs[-1][0], max(segs[-1][1], b), segs[-1][2] + [c])
        else:
            segs.append((a, b, [c]))
    for a, b, cs in segs:
        m0, m1, m2 = main_cpu_at(main_at, t), main_cpu_at(main_at, a), main_cpu_at(main_at, b)
        two += max(m1 - m0, 0) + max(m2 - m1, max(cs), (m2 - m1 + sum(cs)) / 2)
        print("  after: main alone %.2f s, then with %s (%.2f-%.2f s): main %.2f s, "
              "%s %s s" % (max(m1 - m0, 0), "a thread" if len(cs) == 1 else
                           "%d threads" % len(cs), a, b, m2 - m1,
                           "it" if len(cs) == 1 else "they",
                           " + ".join("%.2f" % c for c in cs)))
        t = max(t, b)
    for tid, (a, b, c, _) in idle:
        print("  after: a thread waiting on the disk (%.2f-%.2f s, %.2f s CPU), not counted"
              % (a, b, c))
    tail = main_cpu - main_cpu_at(main_at, t)
    # the end: what the main thread neither ran nor waited for a CPU is a wait (the
    # output's fsync and rename), as long on one core as on two
    rq = [q for u, c, q in main_at if u <= t]
    waited = 0.0
    if main_at and rq:
        waited = max((main_at[-1][0] - t) - tail - (main_at[-1][2] - rq[-1]), 0)
    out["waited"] = waited
    missed = max(total - main_cpu - wr - sum(v[2] for t, v in later + idle), 0)
    two += tail + missed
    s = 2 * two - total
    print("  after: main alone at the end %.2f s and waiting (fsync, rename) %.2f s; CPU "
          "the sampling missed %.2f s" % (tail, waited, missed))
    print("  estimated 2-core time %.2f s: serial part %.2f s = %.1f%% of the CPU, bound "
          "%.2fx" % (two, s, 100 * s / total, total / two))
    # the wait is as long on one core as on two: with it, T1 / T2 comes nearer 1
    print("  with the wait at the end on both: bound %.2fx" % ((total + waited) / (two + waited)))
    out.update(serial=s, share=100 * s / total, bound=total / two,
               bound_waited=(total + waited) / (two + waited))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ecsprof, what = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    fmt = sys.argv[4] if len(sys.argv) > 4 else "csv"
    if fmt not in ("csv", "json"):
        sys.exit(__doc__)
    tmp = tempfile.mkdtemp(prefix="ecsprof-cores.")
    try:
        if what.isdigit():
            path = os.path.join(tmp, "events.jsonl")
            here = os.path.dirname(os.path.abspath(__file__))
            subprocess.run([sys.executable, os.path.join(here, "gen_events.py"), what, path],
                           check=True)
        else:
            path = what
        with open(path, "rb") as f:   # the page cache warm for both runs alike
            while f.read(1 << 24):
                pass
        bins = [ecsprof] + ([sys.argv[5]] if len(sys.argv) > 5 else [])
        runs = {b: ([], []) for b in bins}
        csv = os.path.join(tmp, "out." + fmt)
        for i in range(repeat):
            for b in bins:
                cmd = [b, "report", "--format", fmt, "-o", csv, path]
                runs2, runs1 = runs[b]
                # a new file each run: replacing the last run's frees its blocks, a wait
                if os.path.exists(csv):
                    os.unlink(csv)
                print("%s: all cores (%d), run %d, load average %s:" %
                      (b, os.cpu_count(), i + 1,
                       " ".join(open("/proc/loadavg").read().split()[:3])))
                runs2.append(analyse(*sample(cmd)))
                print("%s: one core (taskset -c 0), run %d:" % (b, i + 1))
                os.unlink(csv)
                runs1.append(analyse(*sample(["taskset", "-c", "0"] + cmd), phases=False))
        ceil = ceiling(ecsprof, fmt, path, tmp, repeat)
        for b in bins:
            runs2, runs1 = runs[b]
            best = min(runs2, key=lambda r: r.get("serial", 1e9))
            w2 = min(r["wall"] for r in runs2)
            w1 = min(r["wall"] for r in runs1)
            print("%s:" % b)
            print("serial part (the least of %d runs): %.2f s = %.1f%% of %.2f s CPU, bound "
                  "%.2fx (1.7x needs under ~18%%)" % (repeat, best.get("serial", 0),
                                                    best.get("share", 0), best["cpu"],
                                                    best.get("bound", 0)))
            print("with the wait at the end (fsync, rename) on both: bound %.2fx" %
                  best.get("bound_waited", 0))
            print("read's workers idle, waiting for work (all runs): %s s" % " ".join(
                "%.2f" % r.get("idle", 0) for r in runs2))
            print("wall, least of %d: %.2f s on all cores, %.2f s on one: %.2fx; CPU least "
                  "%.2f s on all cores, %.2f s on one (load average %s)"
                  % (repeat, w2, w1, w1 / w2, min(r["cpu"] for r in runs2),
                     min(r["cpu"] for r in runs1),
                     " ".join(open("/proc/loadavg").read().split()[:3])))
            print("beside the ceiling: the second core gives %.2fx (wall) where two "
                  "independent one-core runs give %.2fx (%s's, this session)" %
                  (w1 / w2, ceil[2], os.path.basename(ecsprof)))
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    main()
