#!/usr/bin/env bash
# -o FILE without --format: the extension picks the format (issue 11 item 7), as a person
# runs it: the file is read back and must be what its name says. --format still wins, and
# a recording's -o is never turned into a report. Prints TAP.
set -u
ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=0 FAILED=0
echo "1..9"
check() {
	N=$((N + 1))
	if eval "$2"; then echo "ok $N - $1"; else FAILED=1; echo "not ok $N - $1"; fi
}

"$ECSPROF" report -o "$T/r.csv" "$DATA" 2>/dev/null
check "-o r.csv writes CSV (the header row of the contract)" "head -n 1 '$T/r.csv' | grep -q '^task_arn,task_id,cluster,'"
"$ECSPROF" report --summary -o "$T/s.JSON" "$DATA" 2>/dev/null
check "-o s.JSON (any case) writes JSON that parses" "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$T/s.JSON'"
"$ECSPROF" report -o "$T/r.html" "$DATA" 2>/dev/null
check "-o r.html writes HTML" "head -c 200 '$T/r.html' | grep -qi '<!doctype html'"
"$ECSPROF" report -o "$T/r.xlsx" "$DATA" 2>/dev/null
check "-o r.xlsx writes a workbook (a zip)" "[ \"\$(head -c 2 '$T/r.xlsx')\" = PK ]"
"$ECSPROF" report --format table -o "$T/t.csv" "$DATA" 2>/dev/null
check "--format table -o t.csv: --format wins" "head -n 1 '$T/t.csv' | grep -q '^TASK '"
"$ECSPROF" report -o "$T/r.txt" "$DATA" 2>/dev/null
check "-o r.txt writes the table" "head -n 1 '$T/r.txt' | grep -q '^TASK '"
"$ECSPROF" report -o "$T/r.md" "$DATA" 2>/dev/null
check "-o r.md writes a Markdown table" "head -n 2 '$T/r.md' | tail -n 1 | grep -q '^|---|'"
"$ECSPROF" report --summary -o "$T/s.markdown" "$DATA" 2>/dev/null
check "-o s.markdown writes the summary in Markdown" "head -n 1 '$T/s.markdown' | grep -q '^| GROUP | PHASE |'"
"$ECSPROF" report -o "$T/r.weird" "$DATA" 2>"$T/err"
check "-o r.weird: the table, and one warning naming the extension" \
	"head -n 1 '$T/r.weird' | grep -q '^TASK ' && [ \"\$(wc -l <'$T/err')\" = 1 ] && grep -q '\\.weird names no format' '$T/err'"
exit $FAILED
