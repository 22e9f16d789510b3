#!/usr/bin/env bash
# The diff benchmark: digest's history a hundred times larger (tests/cli/diffgen.py big:
# 6,000 baseline tasks, 5,200 new), the CI of each phase's p50 change before and after in
# one run (bench_diff), then the whole command. Usage: diff.sh BENCH_DIFF ECSPROF SRCDIR
set -eu
BENCH=$1 ECSPROF=$2 SRC=$3
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 "$SRC/tests/cli/diffgen.py" big 1 "$DIR"
"$BENCH" "$DIR/base.json" "$DIR/new.json"
start=$(date +%s%N)
"$ECSPROF" diff "$DIR/base.json" "$DIR/new.json" --format csv >/dev/null
echo "ecsprof diff, 6,000 vs 5,200 tasks: $(( ($(date +%s%N) - start) / 1000000 )) ms"
