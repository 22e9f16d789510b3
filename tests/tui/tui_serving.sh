#!/usr/bin/env bash
# The terminal UI's time to serving, startup cost and diagnosis (issue 14), as a person sees
# them in a 120x40 tmux pane: the details pane's cost line (priced by --prices, and a Spot
# task without a price), its healthy line (observed by a poll), its diagnosis and next step,
# and the summary view's cost line per group against the baseline. Figures computed by hand
# in tests/fixtures/cost/README.md. Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
COST="$SRCDIR/tests/fixtures/cost"
RULES="$SRCDIR/tests/fixtures/diagnose/rules.json"
SOCK="ecsprof-tui-serving-$$"

echo "1..13"

. "$SRCDIR/tests/tui/tmux_tap.sh"

STARTS=0
start() {
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-tui-serving-$$-$STARTS"
	tm new-session -d -s t -x "${WIDTH:-120}" -y "${HEIGHT:-40}" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF $* ; echo EXIT=\$?; sleep 60"
}
# opens the details of the one task whose id contains $1
details() {
	keys / "$1" Enter
	wait_for '1/[0-9]+ tasks'
	keys Enter
	wait_for '^Timestamps'
}
back() { keys Escape; wait_for 'TASK +TASKDEF'; keys Escape; }

# ---- cost, on-demand and Spot ----
start report --format tui --group-by capacity-provider --baseline FARGATE \
	--prices "$COST/prices.txt" "$COST/spot-arm.json"
wait_for 'TASK +TASKDEF'
details b004
check "details: an ARM Spot task priced by --prices, billed from the pull start (90 s x 0.0062/3600)" \
	"screen | grep -q 'startup billed 90.000 s (pull start to RUNNING): \\\$0.000155'"
back
details a002
check "details: an ARM on-demand task priced from the built-in table (60 s x 0.0395/3600)" \
	"screen | grep -q 'startup billed 60.000 s (pull start to RUNNING): \\\$0.000658'"
back
details b005
check "details: a Spot task without a price says so" \
	"screen | grep -q 'startup billed 60.000 s (pull start to RUNNING): no price for its region/architecture/capacity'"
back
wait_for '5/5 tasks'
keys Tab
wait_for 'GROUP FARGATE_SPOT'
check "summary view: the baseline's cost per start and per 1,000 starts" \
	"screen | grep -q '  startup cost: \\\$0.000741 per start (mean of 2, \\\$0.74 per 1,000 starts)'"
check "summary view: the Spot group's cost and its delta per 1,000 starts against the baseline" \
	"screen | grep -q 'startup cost: \\\$0.000207 per start (mean of 2, \\\$0.21 per 1,000 starts), \\\$0.53 less per 1,000 starts than FARGATE'"
check "summary view: the unpriced Spot task is named, the line wrapped within 120 columns" \
	"screen | grep -q 'without a price (eu-west-1 x86_64 FARGATE_SPOT): add it with --prices FILE' && ! screen | grep -q '.\{121\}'"
keys q
wait_for 'TASK +TASKDEF'; keys q
wait_for 'EXIT='; check "q leaves the summary, q again quits with status 0" "screen | grep -q 'EXIT=0'"

# ---- the summary's cost line wraps in columns, not bytes (utf8-groups.json: 130 columns,
# 137 bytes, indent 2) ----
BASE='café-crème-été-ñandú-ça-va'
WIDTH=132 start report --format tui --group-by service --baseline "$BASE" \
	--prices "$COST/prices.txt" "$COST/utf8-groups.json"
wait_for 'TASK +TASKDEF'
keys Tab
wait_for 'GROUP web'
check "summary view at 132 columns: a 130-column cost line with a multi-byte group name fills one row" \
	"screen | grep -qx '  startup cost: \\\$0.000207 per start (mean of 2, \\\$0.21 per 1,000 starts), \\\$0.53 less per 1,000 starts than $BASE'"
WIDTH=131 start report --format tui --group-by service --baseline "$BASE" \
	--prices "$COST/prices.txt" "$COST/utf8-groups.json"
wait_for 'TASK +TASKDEF'
keys Tab
wait_for 'GROUP web'
check "summary view at 131 columns: the same line wraps before the name, which starts the next row" \
	"screen | grep -qx '  startup cost: .* \\\$0.53 less per 1,000 starts than' && screen | grep -qx '    $BASE'"

# ---- healthy, observed by a watch poll ----
start report --format tui "$COST/healthy.jsonl"
wait_for 'TASK +TASKDEF'
keys Enter
wait_for '^Timestamps'
check "details: ready and serving, observed, with the poll's resolution" \
	"screen | grep -q 'healthy: ready 15.000 s after RUNNING, serving 85.000 s after createdAt (observed by a poll, up to 1.000 s late)'"
check "details: billed to healthy, not RUNNING (75 s x 0.04937/3600)" \
	"screen | grep -q 'startup billed 75.000 s (pull start to healthy): \\\$0.001029'"

# ---- diagnosis ----
start report --format tui "$RULES"
wait_for 'TASK +TASKDEF'
details ef34ff90
check "details: the diagnosis of an i/o timeout without a public IP, and its next step" \
	"screen | grep -q 'diagnosis no-route-to-ecr: no route to ECR from a private subnet' && screen | grep -q 'next step add a NAT gateway or the VPC endpoints ecr.api, ecr.dkr and an S3 gateway'"

# ---- the summary view counts the stopped tasks per cause, as the printed summary does ----
HEIGHT=60 start report --format tui --group-by soci --soci-if taskdef=checkout-api:8 \
	"$SRCDIR/examples/scaleout.json"
wait_for 'TASK +TASKDEF'
keys Tab
wait_for 'pull histogram'
check "summary view: the diagnosis block, its count per cause and next step, wrapped" \
	"screen | grep -qx 'DIAGNOSIS: 1 stopped task with a known cause' && screen | grep -q '^  1 x no-route-to-ecr: no route to ECR from a private subnet; next: add a NAT gateway' && screen | grep -q '^    .*S3 gateway endpoint\$'"

exit $FAILED
