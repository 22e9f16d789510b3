#!/usr/bin/env bash
# --output: a failed run keeps the old file; a device or FIFO is written to, never
# replaced by a regular file (a rename over /dev/null once broke this machine's tmux).
set -u
: "${ECSPROF:?}" "${SRCDIR:?}"
cd "$SRCDIR" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=$((fail + 1)); fi; }
echo "1..6"

"$ECSPROF" report --format csv -o "$tmp/good.csv" examples/scaleout.json
check "csv written to --output" '[ "$(wc -l <"$tmp/good.csv")" -eq 31 ]'
cp "$tmp/good.csv" "$tmp/before.csv"
"$ECSPROF" report --format csv -o "$tmp/good.csv" tests/fixtures/input/bad_json.json 2>"$tmp/err"
rc=$?
check "bad input exits 1" '[ $rc -eq 1 ]'
check "bad input keeps the previous output file" 'cmp -s "$tmp/good.csv" "$tmp/before.csv"'
check "no temporary file is left behind" '[ "$(ls "$tmp" | grep -c tmp)" -eq 0 ]'

mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
"$ECSPROF" report --format csv -o "$tmp/fifo" examples/scaleout.json
wait $reader
check "a FIFO stays a FIFO" '[ -p "$tmp/fifo" ]'
check "the FIFO carried the CSV" 'cmp -s "$tmp/from-fifo" "$tmp/before.csv"'
exit $((fail > 0))
