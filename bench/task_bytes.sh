#!/bin/sh
# Memory per task (issue 35): peak RSS of `ecsprof report --format csv` on N1 and N2 tasks
# of EventBridge events (bench/gen_events.py), and the bytes per task above a fixed base
# from the two sizes: (rss2 - rss1) / (n2 - n1), base = rss1 - that * n1 (as
# bench/duckdb.sh computes it, without its other contestants: a quick check of a memory
# change). Give a second binary (BASE=path) to print the same figures for it, measured in
# the same run, and the difference. Checks that both write the same CSV. Goal (issue 35):
# <= 300 bytes a task.
#
# usage: bench/task_bytes.sh ECSPROF   (env: N1=100000 N2=200000 BASE= KEEP=1 PYTHON)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ecsprof=${1:-${ECSPROF:-}}
n1=${N1:-100000}
n2=${N2:-200000}
base=${BASE:-}
python=${PYTHON:-python3}
[ -n "$ecsprof" ] && [ -x "$ecsprof" ] || { echo "task_bytes.sh: give the ecsprof binary" >&2; exit 2; }
[ "$n1" -lt "$n2" ] || { echo "N1 ($n1) must be smaller than N2 ($n2)" >&2; exit 2; }
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# peak RSS in KiB of the binary $1 on the file $2, its CSV written to $3
peak() {
	"$python" - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "report", "--format", "csv", "-o", sys.argv[3], sys.argv[2]],
               check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}

for n in "$n1" "$n2"; do
	"$python" "$here/gen_events.py" "$n" "$work/ev$n.jsonl"
done
echo "task_bytes: peak RSS of report --format csv at $n1 and $n2 tasks; load: $(cut -d' ' -f1-3 /proc/loadavg)"
line() {
	# $1 label, $2 binary; prints "bytes-per-task" on fd 3
	r1=$(peak "$2" "$work/ev$n1.jsonl" "$work/$1$n1.csv")
	r2=$(peak "$2" "$work/ev$n2.jsonl" "$work/$1$n2.csv")
	awk -v l="$1" -v a="$r1" -v b="$r2" -v n1="$n1" -v n2="$n2" 'BEGIN {
		per = (b - a) * 1024 / (n2 - n1); fixed = a * 1024 - per * n1
		printf "  %-8s %7.1f MB at %d, %7.1f MB at %d: %5.0f B a task above %5.1f MB (goal <= 300)\n",
			l, a * 1024 / 1e6, n1, b * 1024 / 1e6, n2, per, fixed / 1e6
		printf "%.0f\n", per > "/dev/fd/3" }'
}
exec 4>&1
per=$(line ecsprof "$ecsprof" 3>&1 >&4)
if [ -n "$base" ]; then
	bper=$(line base "$base" 3>&1 >&4)
	for n in "$n1" "$n2"; do
		cmp -s "$work/ecsprof$n.csv" "$work/base$n.csv" ||
			{ echo "  the CSVs differ at $n tasks" >&2; exit 1; }
	done
	echo "  ecsprof - base: $((per - bper)) B a task (same CSV)"
fi
