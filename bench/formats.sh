#!/bin/sh
# Writers benchmark: `ecsprof report --format csv` against `--format json` on one generated
# file of N tasks (EventBridge events, bench/gen_events.py), each to /dev/null, run in turn
# ROUNDS times (interleaved, so a change of load hits both). Prints the median wall and
# CPU time (user + system) of each, and the median of the rounds' JSON/CSV ratios, against
# issue 35's goal (JSON within 1.3x of CSV in wall time). Give a second binary (BEFORE=path,
# main's build) to time it in the same rounds and print the same figures for it, and each
# format's time against it. A busy machine skews all sides alike: the load average is
# printed with the figures. A benchmark, not a test: it exits 0 unless a run failed or the
# two binaries' outputs differ (KEEP=1 keeps them).
#
# OUTDIR=dir writes each output as a user's -o file there (created, fsync'ed, renamed;
# removed before each run) instead of standard output to /dev/null: a folder on the disk
# times the writes and the disk too, one in /dev/shm the page cache alone, against
# /dev/null's formatting alone (issue 35: the JSON is 3.4x the CSV's bytes). Into a
# regular file both formatting threads write their own chunks (pwrite, rowchunks.c), so
# the kernel's copy into the page cache is timed on two cores there, on one to /dev/null
# or a pipe. On 2 cores a load average near 2 or more leaves no second core to time: the
# walls are then noise, the CPU times and bench/cores.py's serial part are not.
#
# usage: bench/formats.sh [ECSPROF]   (env: N=200000 ROUNDS=5 BEFORE= PYTHON=python3
#        EVENTS=file: an events file already generated, instead of N; OUTDIR=dir)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ecsprof=${1:-${ECSPROF:-./ecsprof}}
before=${BEFORE:-}
n=${N:-200000}
rounds=${ROUNDS:-5}
python=${PYTHON:-python3}
outdir=${OUTDIR:-}
work=$(mktemp -d /tmp/ecsprof-formats.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT INT TERM

[ -x "$ecsprof" ] || { echo "formats.sh: no ecsprof binary at $ecsprof" >&2; exit 1; }
[ -z "$before" ] || [ -x "$before" ] || { echo "formats.sh: BEFORE=$before is no binary" >&2; exit 1; }
[ -z "$outdir" ] || [ -d "$outdir" ] || { echo "formats.sh: OUTDIR=$outdir is no folder" >&2; exit 1; }

events=${EVENTS:-}
if [ -z "$events" ]; then
	echo "generating $n tasks as EventBridge events ..."
	events="$work/events.jsonl"
	"$python" "$here/gen_events.py" "$n" "$events"
fi
printf 'input: %s (%.1f MB), %s cores, load average %s; medians of %s interleaved rounds\n' \
    "$events" "$(stat -c %s "$events" | awk '{print $1/1e6}')" "$(nproc)" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" "$rounds"
echo "output: ${outdir:+-o files in }${outdir:-standard output to /dev/null}"

# "wall_s cpu_s exit" of one run (getrusage of the child), its output to out
measure() { # out binary args...
	"$python" - "$@" <<'PY'
import resource, subprocess, sys, time
out = open(sys.argv[1], "wb")
t = time.monotonic()
rc = subprocess.run(sys.argv[2:], stdout=out).returncode
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %.3f %d" % (wall, r.ru_utime + r.ru_stime, rc))
PY
}

# one line a round: "after_csv_w after_csv_c after_json_w after_json_c [before ... same]"
: > "$work/rounds"
i=0
while [ "$i" -lt "$rounds" ]; do
	line=
	for bin in "$ecsprof" $before; do
		for fmt in csv json; do
			# the first round keeps the output, to compare the binaries
			out=/dev/null
			[ "$i" != 0 ] || out="$work/$fmt.$(echo "$bin" | cksum | cut -d' ' -f1)"
			if [ -n "$outdir" ]; then
				rm -f "$outdir/formats-$$.$fmt"
				m=$(measure /dev/null "$bin" report --format "$fmt" \
				    -o "$outdir/formats-$$.$fmt" "$events")
				if [ "$out" != /dev/null ]; then
					mv "$outdir/formats-$$.$fmt" "$out"
				else
					rm -f "$outdir/formats-$$.$fmt"
				fi
			else
				m=$(measure "$out" "$bin" report --format "$fmt" "$events")
			fi
			set -- $m
			[ "$3" = 0 ] || { echo "formats.sh: $bin report --format $fmt failed ($3)" >&2; exit 1; }
			line="$line $1 $2"
		done
	done
	echo "$line" >> "$work/rounds"
	i=$((i + 1))
done

status=0
if [ -n "$before" ]; then
	for fmt in csv json; do
		a="$work/$fmt.$(echo "$ecsprof" | cksum | cut -d' ' -f1)"
		b="$work/$fmt.$(echo "$before" | cksum | cut -d' ' -f1)"
		if cmp -s "$a" "$b"; then
			echo "--format $fmt: both binaries wrote the same bytes ($(stat -c %s "$a") bytes)"
		else
			echo "--format $fmt: the binaries' outputs DIFFER" >&2
			status=1
		fi
	done
fi

awk -v before="$before" '
function med(a, n,   i, j, t, b) {
	for (i = 1; i <= n; i++) b[i] = a[i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && b[j - 1] > b[j]; j--) { t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
	return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
}
{
	nf = NF
	for (k = 1; k <= NF; k++) v[k, NR] = $k
	# JSON/CSV of each round, wall and CPU, per binary; each format against BEFORE
	rw[1, NR] = $3 / $1; rc[1, NR] = $4 / $2
	if (NF >= 8) {
		rw[2, NR] = $7 / $5; rc[2, NR] = $8 / $6
		cb[NR] = $1 / $5; jb[NR] = $3 / $7
	}
}
END {
	n = NR
	for (k = 1; k <= nf; k++) { for (i = 1; i <= n; i++) a[i] = v[k, i]; m[k] = med(a, n) }
	printf "%-28s %9s %9s %9s %9s %11s %10s\n", "binary", "csv_wall", "csv_cpu", "json_wall",
	    "json_cpu", "json/csv_w", "json/csv_c"
	for (s = 1; s <= (nf >= 8 ? 2 : 1); s++) {
		for (i = 1; i <= n; i++) { a[i] = rw[s, i]; c[i] = rc[s, i] }
		w = med(a, n); cc = med(c, n); o = 4 * (s - 1)
		name = s == 1 ? "this build" : "BEFORE"
		printf "%-28s %9.2f %9.2f %9.2f %9.2f %10.2fx %9.2fx\n", name, m[o + 1],
		    m[o + 2], m[o + 3], m[o + 4], w, cc
		if (s == 1) ratio = w
	}
	if (nf >= 8) {
		for (i = 1; i <= n; i++) a[i] = cb[i]
		x = med(a, n)
		for (i = 1; i <= n; i++) a[i] = jb[i]
		printf "this build against BEFORE (wall, median of the rounds): csv %.2fx, json %.2fx\n",
		    x, med(a, n)
	}
	for (i = 1; i <= n; i++) each = each sprintf(" %.2f", rw[1, i])
	printf "json/csv wall of each round (this build):%s\n", each
	printf "%s: --format json takes %.2fx the wall time of --format csv (goal <= 1.3x)\n",
	    ratio <= 1.3 ? "PASS" : "MISS", ratio
}' "$work/rounds"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
exit $status
