#!/bin/sh
# Offline benchmark: N tasks (default 50,000) as EventBridge "ECS Task State Change"
# events in JSON Lines (~126 MB), read by ecsprof and by a plain Python script (phases.py)
# computing the same four durations. Prints wall time, CPU time and peak RSS of each from
# one run, checks that all computed the same numbers, and prints PASS or MISS against the
# goals (issue 2): ecsprof at least 2x faster (wall) than phases.py, peak RSS at most half
# the input. Then `report --format json` and `--format csv` are run in turn PAIRS times
# (interleaved, so a load change hits both) and the median JSON/CSV ratio of wall and CPU
# time is printed against issue 16's goal (JSON within 1.3x of CSV; the JSON's task ids
# and durations are checked against phases.py too). A busy machine skews both sides: the
# load average is printed with the figures.
#
# usage: bench/offline.sh [BENCH_INPUT]     (meson test --benchmark -C BUILD offline)
# env:   ECSPROF   the ecsprof binary (default: ./ecsprof); `ecsprof report` is timed when
#                  it can read the file, BENCH_INPUT (bench/bench_input, the input path
#                  alone) always
#        N         number of tasks;  PYTHON  the interpreter (default python3)
#        PAIRS     JSON/CSV pairs timed for the ratio (default 3; 0 skips them)
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

# same task ids and durations as phases.py, from the JSON's task objects
agree_json() { # file
	if "$python" - "$work/python.csv" "$1" <<'PY'
import csv, json, sys
want = sorted(tuple(r) for r in csv.reader(open(sys.argv[1], newline="")))
s = lambda v: "" if v is None else "%.3f" % v
got = [("task_id", "provision_s", "pull_s", "start_s", "total_s")]
got += [(t["task_id"], s(t["provision_s"]), s(t["pull_s"]), s(t["start_s"]), s(t["total_s"]))
        for t in json.load(open(sys.argv[2], encoding="utf-8"))["tasks"]]
sys.exit(0 if sorted(got) == want else 1)
PY
	then
		echo "ecsprof report --format json and phases.py agree on all $n tasks"
	else
		echo "MISMATCH between ecsprof report --format json and phases.py (KEEP=1 to look)" >&2
		status=1
	fi
}

# JSON and CSV in turn, each to a file: "csv_wall csv_cpu csv_rss json_wall json_cpu json_rss"
# a line in $work/pairs
pairs=${PAIRS:-3}
if [ -x "$ecsprof" ] && [ "$pairs" -gt 0 ] && [ -s "$work/ecsprof-o.csv" ]; then
	: > "$work/pairs"
	i=0
	while [ "$i" -lt "$pairs" ]; do
		out="$work/ecsprof.json.stdout"
		ej=$(measure "$ecsprof" report --format json -o "$work/ecsprof-o.json" "$work/events.jsonl")
		out="$work/ecsprof.csv"
		ec=$(measure "$ecsprof" report --format csv -o "$work/ecsprof-o.csv" "$work/events.jsonl")
		if [ "$(echo "$ej" | cut -d' ' -f4)" != 0 ] || [ "$(echo "$ec" | cut -d' ' -f4)" != 0 ]; then
			echo "ecsprof report --format json or csv failed" >&2
			status=1
			break
		fi
		echo "$(echo "$ec" | cut -d' ' -f1-3) $(echo "$ej" | cut -d' ' -f1-3)" >> "$work/pairs"
		i=$((i + 1))
	done
	if [ "$i" = "$pairs" ]; then
		# the median of each column and of the pairs' ratios (the lower middle of an even count)
		set -- $(awk '
		function med(a, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return a[int((n + 1) / 2)]
		}
		{ cw[NR] = $1; cc[NR] = $2; cr[NR] = $3; jw[NR] = $4; jc[NR] = $5; jr[NR] = $6
		  rw[NR] = $1 > 0 ? $4 / $1 : 0; rc[NR] = $2 > 0 ? $5 / $2 : 0 }
		END {
			n = NR
			printf "%s %s %s %s %s %s %.3f %.3f\n", med(cw, n), med(cc, n), med(cr, n),
			    med(jw, n), med(jc, n), med(jr, n), med(rw, n), med(rc, n)
		}' "$work/pairs")
		printf 'JSON vs CSV, medians of %s interleaved pairs (each to a file):\n' "$pairs"
		awk -v cw="$1" -v cc="$2" -v cr="$3" -v jw="$4" -v jc="$5" -v jr="$6" -v rw="$7" \
		    -v rc="$8" 'BEGIN {
			printf "%-34s %8.2f %8.2f %12.1f\n", "ecsprof report --format csv", cw, cc, cr / 1024
			printf "%-34s %8.2f %8.2f %12.1f\n", "ecsprof report --format json", jw, jc, jr / 1024
			ok = rw <= 1.3 && rc <= 1.3
			printf "%s: --format json takes %.2fx the wall and %.2fx the CPU time of --format csv (goal <= 1.3x: %s)\n",
			    ok ? "PASS" : "MISS", rw, rc, ok ? "met" : "missed" }'
		awk '{ w = w sprintf(" %.2f", $1 > 0 ? $4 / $1 : 0); c = c sprintf(" %.2f", $2 > 0 ? $5 / $2 : 0) }
		END { printf "json/csv of each pair: wall%s, cpu%s\n", w, c }' "$work/pairs"
		agree_json "$work/ecsprof-o.json"
		if [ "$(awk -v a="$7" -v b="$8" 'BEGIN { print (a <= 1.3 && b <= 1.3) }')" != 1 ] &&
		    [ "${STRICT:-0}" = 1 ]; then
			status=1
		fi
	fi
fi
exit $status
