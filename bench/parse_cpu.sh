#!/bin/sh
# CPU and instructions per task of the offline read (issue 35): `ecsprof report --format
# csv` on N tasks of EventBridge events (bench/gen_events.py), CPU time (user + sys, which
# the load of a shared machine changes less than wall time) as the mean of RUNS runs, the
# binaries taken in turn; and instructions per task, counted by callgrind (one thread at a
# time, so the count does not depend on the load) on the first CG_LINES lines. Give a
# second binary (BASE=path, e.g. the lead's) to print the same figures for it, measured
# in the same run, and the ratios. Checks that both write the same CSV.
#
# usage: bench/parse_cpu.sh ECSPROF   (env: N=200000 RUNS=3 CG_LINES=22000 BASE= KEEP=1
#                                     PYTHON; CG_LINES=0 skips callgrind)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ecsprof=${1:-${ECSPROF:-}}
n=${N:-200000}
runs=${RUNS:-3}
cg_lines=${CG_LINES:-22000}
base=${BASE:-}
python=${PYTHON:-python3}
[ -n "$ecsprof" ] && [ -x "$ecsprof" ] || { echo "parse_cpu.sh: give the ecsprof binary" >&2; exit 2; }
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

"$python" "$here/gen_events.py" "$n" "$work/ev.jsonl"
echo "parse_cpu: report --format csv, $n tasks; load: $(cut -d' ' -f1-3 /proc/loadavg)"

# CPU seconds (user + sys) of binary $1 writing its CSV to $2
cpu() {
	"$python" - "$1" "$work/ev.jsonl" "$2" <<'PY'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "report", "--format", "csv", "-o", sys.argv[3], sys.argv[2]],
               check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (r.ru_utime + r.ru_stime))
PY
}

bins="new"
[ -n "$base" ] && bins="base new"
: >"$work/cpu"
i=0
while [ "$i" -lt "$runs" ]; do
	for b in $bins; do
		bin=$ecsprof
		[ "$b" = base ] && bin=$base
		echo "$b $(cpu "$bin" "$work/$b.csv")" >>"$work/cpu"
	done
	i=$((i + 1))
done
if [ -n "$base" ] && ! cmp -s "$work/base.csv" "$work/new.csv"; then
	echo "parse_cpu: FAIL: the two binaries wrote different CSV" >&2
	exit 1
fi

if [ "$cg_lines" -gt 0 ] && command -v valgrind >/dev/null 2>&1; then
	head -n "$cg_lines" "$work/ev.jsonl" >"$work/cg.jsonl"
	tasks=$(($("$ecsprof" report --format csv "$work/cg.jsonl" | wc -l) - 1))
	for b in $bins; do
		bin=$ecsprof
		[ "$b" = base ] && bin=$base
		ir=$(valgrind --tool=callgrind --callgrind-out-file="$work/cg.$b" "$bin" report \
		    --format csv "$work/cg.jsonl" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,)
		echo "$b $ir" >>"$work/ir"
	done
fi

for b in $bins; do
	awk -v b="$b" -v n="$n" -v tasks="${tasks:-0}" -v ir="$(awk -v b="$b" '$1 == b { print $2 }' "$work/ir" 2>/dev/null)" '
		$1 == b { c += $2; k++ }
		END {
			printf "%-4s CPU %.3f s (mean of %d runs), %.2f us a task", b, c / k, k, c / k / n * 1e6
			if (ir != "" && tasks > 0)
				printf "; %.1fM instructions on %d tasks, %.0f a task", ir / 1e6, tasks, ir / tasks
			printf "\n"
		}' "$work/cpu"
done
if [ -n "$base" ]; then
	awk '{ c[$1] += $2; k[$1]++ } END { printf "new/base CPU: %.3f\n", (c["new"] / k["new"]) / (c["base"] / k["base"]) }' "$work/cpu"
	[ -s "$work/ir" ] && awk '{ ir[$1] = $2 } END { printf "new/base instructions: %.3f\n", ir["new"] / ir["base"] }' "$work/ir"
fi
exit 0
