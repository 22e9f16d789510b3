#!/usr/bin/env bash
# Watch benchmark: `ecsprof watch` polling a steady service of 3,000 running tasks on the
# fake ECS server (tests/fake_ecs.py) with 20 ms of latency per request. Prints, per poll
# after the first, the requests ecsprof made (from its --verbose line, checked against the
# server's count) and its CPU time (user + system: a run of 1 poll and one of 1 + POLLS
# polls, the difference divided by POLLS). Goals (issue 16): <= 35 requests and <= 30 ms
# of CPU per poll. Give a second binary (BASE=path) to print the same figures for it, side
# by side, in interleaved rounds (median of ROUNDS). A benchmark, not a test: it reports
# the goals but exits 0 unless something broke.
#
# usage: bench/watch.sh [ECSPROF]   (env: TASKS=3000 LATENCY_MS=20 POLLS=5 ROUNDS=3 BASE=)
set -euo pipefail

ECSPROF=${1:-${ECSPROF:-}}
HERE=$(cd "$(dirname "$0")" && pwd)
FAKE="$HERE/../tests/fake_ecs.py"
TASKS=${TASKS:-3000}
LATENCY_MS=${LATENCY_MS:-20}
POLLS=${POLLS:-5}
ROUNDS=${ROUNDS:-3}
BASE=${BASE:-}

if [[ -z "$ECSPROF" || ! -x "$ECSPROF" ]]; then
	echo "watch.sh: give the ecsprof binary as argument or in ECSPROF" >&2
	exit 1
fi

TMP=$(mktemp -d)
SERVER_PID=
cleanup() {
	[[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# steady: every task started 10 to 25 minutes ago, of a task definition without a health
# check (what DescribeTaskDefinition tells watch)
cat >"$TMP/scenario.json" <<EOF
{"credentials": {"AKIDBENCH": "benchsecret"},
 "taskDefinitions": {"web:1": {}},
 "clusters": {"bench": {"services": {"web": {}},
   "generate": {"count": $TASKS, "service": "web", "seed": 11, "spread": 900, "age": 600}}}}
EOF

mkfifo "$TMP/port"
python3 "$FAKE" --scenario "$TMP/scenario.json" --latency-ms "$LATENCY_MS" \
	--processes 1 >"$TMP/port" &
SERVER_PID=$!
read -r PORT <"$TMP/port"
URL="http://127.0.0.1:$PORT"

export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=benchsecret
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE="$TMP/none" \
	AWS_SHARED_CREDENTIALS_FILE="$TMP/none" AWS_DEFAULT_REGION=us-east-1
unset AWS_PROFILE AWS_ENDPOINT_URL AWS_ENDPOINT_URL_ECS AWS_MAX_ATTEMPTS || true

server_requests() {
	curl -s "$URL/_fake/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])'
}

# CPU ms (user + system) of one watch run of $2 polls of binary $1; its stderr in $3
cpu_ms() {
	python3 - "$1" "$2" "$URL" "$3" <<'PY'
import resource, subprocess, sys
exe, polls, url, errf = sys.argv[1:5]
# what python's own start left in RUSAGE_CHILDREN (here ~0.4 s) is not ecsprof's
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(errf, "w") as err:
    subprocess.run([exe, "watch", "--cluster", "bench", "--service", "web", "--interval", "1",
                    "--count", polls, "--format", "csv", "--no-images", "--verbose",
                    "--endpoint-url", url, "--region", "us-east-1"],
                   stdout=subprocess.DEVNULL, stderr=err, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(int((r.ru_utime + r.ru_stime - r0.ru_utime - r0.ru_stime) * 1000))
PY
}

# one binary: "requests per later poll (its --verbose lines, n/a without them) | the
# server's count of them | CPU ms per later poll"
measure() {
	local exe=$1 one many s0 s1 s2 reported later cpu
	s0=$(server_requests)
	one=$(cpu_ms "$exe" 1 "$TMP/err1")
	s1=$(server_requests)
	many=$(cpu_ms "$exe" $((POLLS + 1)) "$TMP/errn")
	s2=$(server_requests)
	reported=$({ grep -o 'poll [0-9]*: [0-9]* requests' "$TMP/errn" || true; } |
		awk 'NR > 1 {s += $3; n++} END {if (n) printf "%.1f", s / n; else print "n/a"}')
	later=$(awk -v a="$s0" -v b="$s1" -v c="$s2" -v p="$POLLS" \
		'BEGIN { printf "%.1f", (c - b - (b - a)) / p }')
	cpu=$(awk -v a="$one" -v b="$many" -v p="$POLLS" 'BEGIN { printf "%.1f", (b - a) / p }')
	echo "$reported $later $cpu"
}

echo "watch benchmark: $TASKS running tasks (a steady service), $LATENCY_MS ms latency, $POLLS polls after the first, median of $ROUNDS rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# rounds interleaved (ecsprof, then base), so that a busy machine weighs on both alike;
# the CPU per poll is the median of the rounds, the requests those of the last round
cpus=() bcpus=()
for ((r = 0; r < ROUNDS; r++)); do
	read -r req srv cpu < <(measure "$ECSPROF")
	cpus+=("$cpu")
	if [[ -n "$BASE" && -x "$BASE" ]]; then
		read -r breq bsrv bcpu < <(measure "$BASE")
		bcpus+=("$bcpu")
	fi
done
cpu=$(printf '%s\n' "${cpus[@]}" | median)
echo "  ecsprof:  $req requests per poll (server counted $srv), $cpu ms CPU per poll (rounds: ${cpus[*]})   (goals <= 35, <= 30 ms)"
if [[ -n "$BASE" && -x "$BASE" ]]; then
	bcpu=$(printf '%s\n' "${bcpus[@]}" | median)
	echo "  base:     $breq requests per poll (server counted $bsrv), $bcpu ms CPU per poll (rounds: ${bcpus[*]})   ($BASE)"
	awk -v a="$bsrv" -v b="$srv" -v c="$bcpu" -v d="$cpu" \
		'BEGIN { printf "  base / ecsprof: %.2fx the requests, %.2fx the CPU\n", a / b, (d > 0 ? c / d : 0) }'
fi
