#!/bin/sh
# Offline benchmark: N tasks (default 50,000) as EventBridge "ECS Task State Change"
# events in JSON Lines (~126 MB), read by ecsprof and by a plain Python script (phases.py)
# computing the same four durations. Prints wall time, CPU time and peak RSS of each from
# one run, checks that all computed the same numbers, and prints PASS or MISS against the
# goals (issue 2): ecsprof at least 2x faster (wall) than phases.py, peak RSS at most half
# the input. A busy machine skews both sides: the load average is printed with the figures.
#
# usage: bench/offline.sh [BENCH_INPUT]     (meson test --benchmark -C BUILD offline)
# env:   ECSPROF   the ecsprof binary (default: ./ecsprof); `ecsprof report` is timed when
#                  it can read the file, BENCH_INPUT (bench/bench_input, the input path
#                  alone) always
#        N         number of tasks;  PYTHON  the interpreter (default python3)
#        KEEP=1    keep the generated file and outputs in /tmp
#        STRICT=1  exit 1 on a MISS too (by default only a wrong result fails)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
n=${N:-50000}
python=${PYTHON:-python3}
ecsprof=${ECSPROF:-./ecsprof}
bench_input=${1:-}
work=$(mktemp -d /tmp/ecsprof-bench.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT INT TERM

# runs "$@" with stdout to $out; prints "wall_s cpu_s peak_rss_kb exit" (getrusage of the child)
measure() {
	"$python" - "$out" "$@" <<'PY'
import resource, subprocess, sys, time
out = open(sys.argv[1], "wb")
t = time.monotonic()
rc = subprocess.run(sys.argv[2:], stdout=out).returncode
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %.2f %d %d" % (wall, r.ru_utime + r.ru_stime, r.ru_maxrss, rc))
PY
}

echo "generating $n tasks as EventBridge events in $work ..."
"$python" "$here/gen_events.py" "$n" "$work/events.jsonl"
size=$(stat -c %s "$work/events.jsonl")
lines=$(wc -l < "$work/events.jsonl")
printf 'input: %s bytes (%.1f MB), %s events, %s tasks, %s cores, load average %s\n' \
    "$size" "$(echo "$size" | awk '{print $1/1e6}')" "$lines" "$n" "$(nproc)" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

printf '%-34s %8s %8s %12s %s\n' "program" "wall_s" "cpu_s" "peak_rss_MB" "vs python (wall)"
out="$work/python.csv"
py=$(measure "$python" "$here/phases.py" "$work/events.jsonl")
set -- $py
py_wall=$1
[ "$4" = 0 ] || { echo "phases.py failed" >&2; exit 1; }

row() { # name "wall cpu rss rc"
	set -- "$1" $2
	awk -v name="$1" -v w="$2" -v c="$3" -v r="$4" -v pw="$py_wall" -v sz="$size" 'BEGIN {
		printf "%-34s %8.2f %8.2f %12.1f %5.2fx faster, rss %.0f%% of input\n",
		    name, w, c, r / 1024, (w > 0 ? pw / w : 0), 100 * r * 1024 / sz }'
}
row "python3 phases.py" "$py"

status=0
# same task ids and durations as phases.py, in any order; CSV columns found by name
agree() { # name file
	if "$python" - "$work/python.csv" "$2" <<'PY'
import csv, sys
want = sorted(tuple(r) for r in csv.reader(open(sys.argv[1], newline="")))
rows = list(csv.reader(open(sys.argv[2], newline="")))
pick = [rows[0].index(c) for c in ("task_id", "provision_s", "pull_s", "start_s", "total_s")]
got = sorted(tuple(r[i] for i in pick) for r in rows)
sys.exit(0 if got == want else 1)
PY
	then
		echo "$1 and phases.py agree on all $n tasks"
	else
		echo "MISMATCH between $1 and phases.py (KEEP=1 to look)" >&2
		status=1
	fi
}

if [ -n "$bench_input" ]; then
	out="$work/bench_input.csv"
	bi=$(measure "$bench_input" "$work/events.jsonl" 2>/dev/null)
	row "bench_input (input + phases)" "$bi"
	if [ "$(echo "$bi" | cut -d' ' -f4)" != 0 ]; then
		echo "bench_input failed" >&2
		status=1
	else
		agree bench_input "$out"
	fi
fi

verdict="MISS: ecsprof report was not timed"
if [ -x "$ecsprof" ]; then
	# to a file, so the output is checked too and the writer's cost is counted
	out="$work/ecsprof.csv"
	ec=$(measure "$ecsprof" report --format csv -o "$work/ecsprof-o.csv" "$work/events.jsonl")
	set -- $ec
	if [ "$4" = 0 ]; then
		row "ecsprof report --format csv" "$ec"
		agree "ecsprof report" "$work/ecsprof-o.csv"
		verdict=$(awk -v w="$1" -v r="$3" -v pw="$py_wall" -v sz="$size" 'BEGIN {
			speed = w > 0 ? pw / w : 0; share = r * 1024 / sz
			fast = (speed >= 2) ? "met" : "missed"; small = (share <= 0.5) ? "met" : "missed"
			printf("%s: %.2fx faster than python (goal >= 2x: %s), peak RSS %.0f%% of the input (goal <= 50%%: %s)\n",
			    (fast == "met" && small == "met") ? "PASS" : "MISS", speed, fast, 100 * share,
			    small) }')
	else
		echo "(ecsprof report could not read the file: exit $4, not timed)"
		status=1
	fi
fi
echo "$verdict"
case $verdict in
MISS*) [ "${STRICT:-0}" = 1 ] && status=1 ;;
esac
exit $status
