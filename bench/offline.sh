#!/bin/sh
# Offline benchmark: N tasks (default 50,000) as EventBridge "ECS Task State Change"
# events in JSON Lines (~110 MB), read by ecsprof and by a plain Python script (phases.py)
# computing the same four durations. Prints wall time, CPU time and peak RSS of each from
# one run, and checks that both computed the same numbers.
#
# usage: bench/offline.sh [BENCH_INPUT]     (meson test --benchmark -C BUILD offline)
# env:   ECSPROF   the ecsprof binary (default: ./ecsprof); `ecsprof report` is timed when
#                  it can read the file, BENCH_INPUT (bench/bench_input, the input path
#                  alone) always
#        N         number of tasks;  PYTHON  the interpreter (default python3)
#        KEEP=1    keep the generated file and outputs in /tmp
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
printf 'input: %s bytes (%.1f MB), %s events, %s tasks, %s cores\n' "$size" \
    "$(echo "$size" | awk '{print $1/1e6}')" "$lines" "$n" "$(nproc)"

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
if [ -n "$bench_input" ]; then
	out="$work/bench_input.csv"
	bi=$(measure "$bench_input" "$work/events.jsonl" 2>/dev/null)
	row "bench_input (input + phases)" "$bi"
	if [ "$(echo "$bi" | cut -d' ' -f4)" != 0 ]; then
		echo "bench_input failed" >&2
		status=1
	elif sort "$work/python.csv" > "$work/p.sorted" && sort "$work/bench_input.csv" > \
	    "$work/b.sorted" && cmp -s "$work/p.sorted" "$work/b.sorted"; then
		echo "bench_input and phases.py agree on all $n tasks"
	else
		echo "MISMATCH between bench_input and phases.py (KEEP=1 to look)" >&2
		status=1
	fi
fi
if [ -x "$ecsprof" ] && "$ecsprof" report --format csv -o /dev/null "$work/events.jsonl" \
    >/dev/null 2>&1; then
	out=/dev/null
	ec=$(measure "$ecsprof" report --format csv -o /dev/null "$work/events.jsonl")
	row "ecsprof report --format csv" "$ec"
else
	echo "(ecsprof report could not read the file yet: not timed)"
fi
echo "goal: >= 2x faster than python, peak RSS <= 50% of the input"
exit $status
