#!/usr/bin/env bash
# ecsprof check as a person runs it (issue 36): the region its prices come from (--region,
# AWS_REGION, AWS_DEFAULT_REGION, the profile's, else us-east-1; a malformed config file
# named), -o FILE's extension picking the format and the file read back, '-' reading
# stdin, and the exit status: 0 clean, 1 with an error finding, 2 usage, 4 no verdict (a
# file that cannot be read, a malformed config), with one line naming what failed.
# Prints TAP.
set -u
ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
CLEAN="$SRCDIR/examples/rerank-api.json"
BROKEN="$SRCDIR/tests/fixtures/check/broken.json"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=0 FAILED=0
echo "1..20"
check() {
	N=$((N + 1))
	if eval "$2"; then echo "ok $N - $1"; else FAILED=1; echo "not ok $N - $1"; fi
}
# no configuration at all unless a case gives one
run() { env -u AWS_REGION -u AWS_DEFAULT_REGION -u AWS_PROFILE HOME="$T/home" \
	AWS_CONFIG_FILE="$T/none" AWS_SHARED_CREDENTIALS_FILE="$T/none" "$@"; }
mkdir -p "$T/home"
printf '[default]\nregion = eu-west-2\n[profile ml]\nregion = ap-south-1\n' >"$T/config"

run "$ECSPROF" check "$CLEAN" >"$T/out" 2>&1
rc=$?
check "no region configured: us-east-1 prices, exit 0" "[ $rc -eq 0 ] && grep -q 'ARM64 in us-east-1: .0.0932 per hour' '$T/out'"
run env AWS_CONFIG_FILE="$T/config" "$ECSPROF" check "$CLEAN" >"$T/out" 2>&1
check "the default profile's region" "grep -q 'in eu-west-2: ' '$T/out'"
run env AWS_CONFIG_FILE="$T/config" "$ECSPROF" check --profile ml "$CLEAN" >"$T/out" 2>&1
check "--profile's region" "grep -q 'in ap-south-1: ' '$T/out'"
run env AWS_CONFIG_FILE="$T/config" AWS_REGION=us-west-1 "$ECSPROF" check "$CLEAN" >"$T/out" 2>&1
check "AWS_REGION before the profile" "grep -q 'in us-west-1: ' '$T/out'"
run env AWS_REGION=us-west-1 "$ECSPROF" check --region eu-west-1 "$CLEAN" >"$T/out" 2>&1
check "--region before AWS_REGION" "grep -q 'in eu-west-1: ' '$T/out'"
printf '[default\nregion = x\n' >"$T/bad-config"
run env AWS_CONFIG_FILE="$T/bad-config" "$ECSPROF" check "$CLEAN" >"$T/out" 2>"$T/err"
rc=$?
check "a malformed config file: exit 4 (no verdict), the file named" "[ $rc -eq 4 ] && grep -q '^ecsprof: check: no verdict: .*bad-config:1' '$T/err'"

run "$ECSPROF" check -o "$T/f.md" "$BROKEN" 2>/dev/null
rc=$?
check "-o f.md: Markdown, exit 1 for the errors" "[ $rc -eq 1 ] && head -n 1 '$T/f.md' | grep -q '^| SEVERITY | RULE | PATH | MESSAGE | FIX |'"
run "$ECSPROF" check -o "$T/f.csv" "$BROKEN" 2>/dev/null
check "-o f.csv: CSV, errors first" "head -n 2 '$T/f.csv' | tail -n 1 | grep -q '^error,fargate-network-mode,networkMode,'"
run "$ECSPROF" check -o "$T/f.json" "$BROKEN" 2>/dev/null
check "-o f.json: JSON that parses, 4 errors" "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(sum(f[\"severity\"]==\"error\" for f in d[\"findings\"])!=4)' '$T/f.json'"
run "$ECSPROF" check - <"$SRCDIR/tests/fixtures/check/described.json" >"$T/out" 2>&1
rc=$?
check "'-' reads stdin (DescribeTaskDefinition's answer)" "[ $rc -eq 0 ] && head -n 1 '$T/out' | grep -q '^rerank-api:7 (stdin)'"
run "$ECSPROF" check "$T/missing.json" >"$T/out" 2>&1
rc=$?
check "a missing file: exit 4 (no verdict), named" "[ $rc -eq 4 ] && grep -q 'missing.json: cannot open' '$T/out'"
run "$ECSPROF" check --platform-version 2 "$CLEAN" >"$T/out" 2>&1
rc=$?
check "a bad --platform-version: exit 2" "[ $rc -eq 2 ] && grep -q 'is not LATEST or MAJOR.MINOR' '$T/out'"
printf 'us-east-1 arm64 FARGATE 0.05 0.005\n' >"$T/prices"
run "$ECSPROF" check --prices "$T/prices" "$CLEAN" >"$T/out" 2>&1
check "--prices: 2 x 0.05 + 8 x 0.005 = \$0.14 per hour" "grep -q 'in us-east-1: .0.1400 per hour; .2.33 per 1,000' '$T/out'"
# the pull forecast: make_history.py's pulls put 1.2 GB at 48 s (p10 34, p90 60) and the
# container start at 5 s: 53 s at $0.14 per hour is 0.14 x 53 / 3600 x 1000 = $2.06
HISTORY="$SRCDIR/tests/fixtures/check/history.jsonl"
run "$ECSPROF" check --prices "$T/prices" --history "$HISTORY" "$CLEAN" >"$T/out" 2>&1
rc=$?
tr -s ' \n' '  ' <"$T/out" >"$T/flat"
check "--history: the pull forecast and the price at the expected start" "[ $rc -eq 0 ] && grep -q 'expected pull 48 s (p10 34 s, p90 60 s) for 1.20 GB compressed' '$T/flat' && grep -q '5 of the 7 recorded pulls in' '$T/flat' && grep -q '.2.06 per 1,000 starts at the expected start of 53 s' '$T/flat'"
# the same figures for scripts: JSON members and CSV columns after the contract's five,
# equal to those the messages give in words, and null / empty on the other findings
cat >"$T/figures.py" <<'PY'
import csv, json, re, sys
fmt, path = sys.argv[1], sys.argv[2]
rows = json.load(open(path))["findings"] if fmt == "json" else list(csv.DictReader(open(path)))
num = (lambda v: v) if fmt == "json" else (lambda v: float(v) if v != "" else None)
by = {r["rule"]: r for r in rows}
if fmt == "csv":
    assert list(rows[0])[:5] == ["severity", "rule", "path", "message", "fix"], list(rows[0])
f, p = by["pull-forecast"], by["price"]
m = re.search(r"expected pull (\d+) s \(p10 (\d+) s, p90 (\d+) s\).* of (\d+) of the (\d+) recorded", f["message"])
assert m, f["message"]
assert [round(num(f[k])) for k in ("pull_p50_s", "pull_p10_s", "pull_p90_s")] == [int(x) for x in m.groups()[:3]] == [48, 34, 60], f
assert int(num(f["pulls_used"])) == int(m.group(4)) == 5 and int(num(f["pulls_recorded"])) == int(m.group(5)) == 7, f
assert f["forecast_basis"] == "throughput", f
m = re.search(r"\$([0-9.]+) per hour; \$([0-9.]+) per 1,000 starts at the expected start of (\d+) s", p["message"])
assert m, p["message"]
assert "%.4f" % num(p["usd_per_hour"]) == m.group(1) == "0.1400", p
assert "%.2f" % num(p["usd_per_1000_starts"]) == m.group(2) == "2.06", p
assert round(num(p["start_s"])) == int(m.group(3)) == 53, p
empty = None if fmt == "json" else ""
for r in rows:
    if r["rule"] not in ("pull-forecast", "price"):
        assert all(r[k] == empty for k in ("pull_p50_s", "pulls_used", "forecast_basis", "usd_per_hour")), r
PY
run "$ECSPROF" check --prices "$T/prices" --history "$HISTORY" --format json "$CLEAN" >"$T/f.json" 2>"$T/err"
check "--history --format json: the forecast's and the price's figures as numbers, as the text gives them" "python3 '$T/figures.py' json '$T/f.json'"
run "$ECSPROF" check --prices "$T/prices" --history "$HISTORY" --format csv "$CLEAN" >"$T/f.csv" 2>"$T/err"
check "--history --format csv: the same figures in columns after the contract's five" "python3 '$T/figures.py' csv '$T/f.csv'"
run "$ECSPROF" check --history "$T/missing.jsonl" "$CLEAN" >"$T/out" 2>&1
rc=$?
check "--history with a missing file: exit 4, named" "[ $rc -eq 4 ] && grep -q 'missing.jsonl' '$T/out'"
# check's help is check's: its options in its words, not the other commands'
run "$ECSPROF" check --help >"$T/out" 2>&1
check "check --help: check's options in check's words" "grep -q '^CHECK:' '$T/out' && grep -q '^NETWORK:' '$T/out' && grep -q 'judge as this service runs it' '$T/out' && ! grep -q -e '--concurrency' -e '--no-images' -e 'only tasks of this service' -e 'tui|' -e '^EXPERIMENT:' '$T/out'"
run "$ECSPROF" check --concurrency 2 "$CLEAN" >"$T/out" 2>&1
rc=$?
check "--concurrency does not apply to check: exit 2" "[ $rc -eq 2 ] && grep -q 'does not apply to check' '$T/out'"
# the README's sample is what the command prints (at the sample's width, no region set)
awk '/^    \$ ecsprof check examples\/rerank-api.json$/ { on = 1; next }
     on && /^[^ ]/ { exit } on { sub(/^    /, ""); print }' "$SRCDIR/README.md" |
	sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$T/readme"
(cd "$SRCDIR" && run env COLUMNS=92 "$ECSPROF" check examples/rerank-api.json) >"$T/out" 2>&1
check "the README's sample is what ecsprof check prints" "[ -s '$T/readme' ] && diff -u '$T/readme' '$T/out' >&2"
exit $FAILED
