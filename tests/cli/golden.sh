#!/usr/bin/env bash
# Golden transcripts of the ecsprof command line (Criterion's cram tests, by hand).
# Each tests/cli/cases/NAME.cmd holds one command line, run from the source root with
# "ecsprof" standing for the binary (a line "stdin: FILE" feeds it FILE, "columns: N" runs
# it with COLUMNS=N instead of 100); NAME.out holds the expected stdout, then a line
# "--- stderr", the expected stderr, then "--- exit N". UPDATE=1 rewrites the .out files
# (read the diff before committing them).
set -u
: "${ECSPROF:?set ECSPROF to the binary}" "${SRCDIR:?set SRCDIR to the source root}"
cd "$SRCDIR" || exit 1
cases=(tests/cli/cases/*.cmd)
echo "1..${#cases[@]}"
n=0 fail=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	name=$(basename "$c" .cmd)
	cmd=$(sed -n '1p' "$c")
	stdin_file=$(sed -n 's/^stdin: //p' "$c")
	cols=$(sed -n 's/^columns: //p' "$c")
	cols=${cols:-100}
	actual=$(mktemp)
	{
		if [ -n "$stdin_file" ]; then
			(eval "set -- $cmd"; TZ=Asia/Kolkata COLUMNS=$cols "$ECSPROF" "${@:2}" <"$stdin_file" 2>"$actual.err")
		else
			(eval "set -- $cmd"; TZ=Asia/Kolkata COLUMNS=$cols "$ECSPROF" "${@:2}" </dev/null 2>"$actual.err")
		fi
		echo "--- exit $?"
	} >"$actual.out"
	{
		sed '$d' "$actual.out"
		echo "--- stderr"
		cat "$actual.err"
		tail -n 1 "$actual.out"
	} >"$actual"
	want="${c%.cmd}.out"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$actual" "$want"
	fi
	if [ -f "$want" ] && diff -u "$want" "$actual" >"$actual.diff"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name: $cmd"
		sed 's/^/# /' "$actual.diff" 2>/dev/null | head -40
		[ -f "$want" ] || echo "# missing $want"
		fail=$((fail + 1))
	fi
	rm -f "$actual" "$actual.out" "$actual.err" "$actual.diff"
done
exit $((fail > 0))
