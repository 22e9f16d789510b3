#!/bin/bash
# Output contract, end to end: what `ecsprof report` writes in csv, json and table for the
# shipped examples and for a file of hostile cells, checked with the shared CSV contract
# checker and with python's json/csv readers. Prints TAP.
set -u
: "${ECSPROF:?}" "${SRCDIR:?}" "${SHARED_DIR:?}"
CHECK="$SHARED_DIR/tools/check-csv-contract"
NASTY="$SRCDIR/tests/fixtures/output/nasty-describe.json"
EX=("$SRCDIR/examples/scaleout.json" "$SRCDIR/examples/events.jsonl" "$SRCDIR"/examples/metadata/*.json)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
n=0
fails=0
ok() {   # ok DESCRIPTION COMMAND...
	local d=$1; shift
	n=$((n + 1))
	if "$@" >"$TMP/log" 2>&1; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		sed 's/^/# /' "$TMP/log"
		fails=$((fails + 1))
	fi
}
echo "1..10"

ok "task csv of the examples keeps the contract" \
	bash -c '"$0" report --format csv -o "$1/t.csv" "${@:3}" && python3 "$2" "$1/t.csv"' \
	"$ECSPROF" "$TMP" "$CHECK" "${EX[@]}"
ok "summary csv (--group-by soci, --soci-if) keeps the contract" \
	bash -c '"$0" report --summary --group-by soci --soci-if "taskdef=*:8" --format csv \
		"${@:3}" >"$1/s.csv" && python3 "$2" "$1/s.csv" --summary' \
	"$ECSPROF" "$TMP" "$CHECK" "${EX[@]}"
ok "hostile cells: csv keeps the contract" \
	bash -c '"$0" report --format csv "$2" >"$1/n.csv" 2>/dev/null && python3 "$3" "$1/n.csv"' \
	"$ECSPROF" "$TMP" "$NASTY" "$CHECK"
ok "hostile cells: formulas neutralised, quotes and line breaks survive a csv reader" \
	python3 - "$TMP/n.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8", newline="")))
assert len(rows) == 2, rows
r = rows[0]
assert r["service"] == "'+web, \"beta\"", r["service"]
assert r["platform_version"] == "'\t1.4.0", r["platform_version"]
assert r["availability_zone"] == "'@us-east-1a", r["availability_zone"]
assert r["cpu"] == "'-256", r["cpu"]
assert r["memory"] == "512\r\n1024" or r["memory"] == "512\n1024", repr(r["memory"])
assert r["image"] == "caf\u00e9\u2028line:1", repr(r["image"])
assert r["provision_s"] == "10.000" and r["total_s"] == "75.250"
s = rows[1]
assert s["stopped_reason"].startswith('CannotPullContainerError: "ref", not found\nsecond line'), repr(s["stopped_reason"])
assert s["provision_s"] == "", "clock-skewed phase must be empty: %r" % s["provision_s"]
PY
ok "task csv has one row per task of the json output" \
	bash -c '"$0" report --format json "${@:2}" >"$1/t.json" && python3 -c "
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline=\"\")))
assert len(d[\"tasks\"]) == len(rows) > 0, (len(d[\"tasks\"]), len(rows))
assert [t[\"task_arn\"] for t in d[\"tasks\"]] == [r[\"task_arn\"] for r in rows]
assert all(isinstance(g[\"phases\"][\"pull\"][\"n\"], int) for g in d[\"groups\"])
" "$1/t.json" "$1/t.csv"' "$ECSPROF" "$TMP" "${EX[@]}"
ok "summary json has only groups, the diagnosis counts and the baseline" \
	bash -c '"$0" report --summary --format json "${@:2}" | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert sorted(d) == [\"baseline\", \"diagnosis\", \"groups\"], sorted(d)
assert all(sorted(x) == [\"cause\", \"diagnosis\", \"n\", \"next_step\"] for x in d[\"diagnosis\"])
assert [g[\"name\"] for g in d[\"groups\"] if g[\"baseline\"]] == [d[\"baseline\"]]
"' "$ECSPROF" "${EX[@]}"
ok "hostile cells: json parses and keeps them verbatim" \
	bash -c '"$0" report --format json "$1" 2>/dev/null | python3 -c "
import json, sys
t = json.load(sys.stdin)[\"tasks\"]
assert t[0][\"cpu\"] == \"-256\" and t[0][\"tags\"] == {\"=k\": \"-v\"}, t[0]
assert t[1][\"provision_s\"] is None and t[1][\"phases\"][\"provision\"] is None
"' "$ECSPROF" "$NASTY"
ok "table of the examples: key columns within 80 columns, failed start explained" \
	bash -c '"$0" report --format table "${@:1}" | python3 -c "
import sys
lines = sys.stdin.read().split(\"\n\")
table = lines[:lines.index(\"\")]
assert len(table) > 1 and all(len(l) <= 80 for l in table), max(map(len, table))
assert table[0].split() == [\"TASK\", \"TASKDEF\", \"STATUS\", \"AZ\", \"PROVISION\", \"PULL\", \"START\", \"TOTAL\"], table[0]
assert any(\"STOPPED!\" in l for l in table)
assert any(l.startswith(\"! \") and \"CannotPullContainerError\" in l for l in lines)
"' "$ECSPROF" "${EX[@]}"
ok "hostile cells: table has no control bytes" \
	bash -c '"$0" report --format table "$1" 2>/dev/null | python3 -c "
import sys
b = sys.stdin.buffer.read()
assert not any(c < 0x20 and c != 0x0a or c == 0x7f for c in b), b
assert b\"?[31mred\" in b
"' "$ECSPROF" "$NASTY"
ok "summary table: every group, its n, and a verdict against the baseline" \
	bash -c '"$0" report --summary --group-by taskdef --format table "${@:1}" | python3 -c "
import sys
t = sys.stdin.read()
assert \"GROUP checkout-api:7 (baseline):\" in t, t
assert \"GROUP checkout-api:8:\" in t, t
assert \"vs checkout-api:7\" in t and \"n=12+16)\" in t, t
assert max(map(len, t.split(\"\n\"))) <= 80
"' "$ECSPROF" "${EX[@]}"
exit $((fails > 0))
