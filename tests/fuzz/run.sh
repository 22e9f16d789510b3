#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang + ASan + UBSan in DIR and runs each for
# FUZZ_SECONDS (default 30) from its seed corpus. A crash, leak or timeout fails the run
# and leaves the input in DIR/crashes/. Usage: tests/fuzz/run.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-fuzz}
secs=${FUZZ_SECONDS:-30}
if [ ! -f "$dir/build.ninja" ]; then
	CC=clang CFLAGS=-fsanitize=fuzzer-no-link meson setup "$dir" -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$dir" tests/fuzz/fuzz_input tests/fuzz/fuzz_awscfg tests/fuzz/fuzz_fastjson \
	tests/fuzz/fuzz_taskscan tests/fuzz/fuzz_creds tests/fuzz/fuzz_awsquery tests/fuzz/fuzz_taskdef \
	tests/fuzz/fuzz_scaleout tests/fuzz/fuzz_ec2 >/dev/null
mkdir -p "$dir/crashes"
for f in input awscfg fastjson taskscan creds awsquery taskdef scaleout ec2; do
	# a harness named after its module reads that module's seeds; fastjson and taskscan
	# read input's
	case $f in
	fastjson | taskscan) corpus=input ;;
	*) corpus=$f ;;
	esac
	work=$(mktemp -d)
	echo "fuzz_$f: ${secs}s"
	"$dir/tests/fuzz/fuzz_$f" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 \
		-timeout=10 -artifact_prefix="$dir/crashes/$f-" -print_final_stats=1 \
		"$work" "tests/fuzz/corpus/$corpus" 2>&1 | grep -E "^(stat::number_of_executed_units|==|SUMMARY|Done)" || true
	rm -rf "$work"
	if ls "$dir/crashes/$f-"* >/dev/null 2>&1; then
		echo "fuzz_$f: found a failing input: $(ls "$dir/crashes/$f-"*)" >&2
		exit 1
	fi
done
