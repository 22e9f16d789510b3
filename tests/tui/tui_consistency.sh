#!/usr/bin/env bash
# The TUI says what the table says (issue 11 item 8), as a person sees it in tmux: the
# durations are tenths whose decimal points line up down a column and whose numbers are
# the table's; a wide terminal shows the group; sorting by task id is hex order, as the
# table's; with 256 colours the pull bar is orange (yellow vanishes on a light
# background). Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
N=0
FAILED=0
STARTS=0
SOCK="ecsprof-cons-$$"

echo "1..7"
ok() { N=$((N + 1)); echo "ok $N - $1"; }
nok() {
	N=$((N + 1)); FAILED=1
	echo "not ok $N - $1"
	echo "# screen:"; screen | sed 's/^/#   /'
}
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
screen() { tm capture-pane -p -t t 2>/dev/null; }
wait_for() {
	for _ in $(seq 1 50); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
trap 'tm kill-server 2>/dev/null' EXIT
command -v tmux >/dev/null || { echo "not ok 1 - tmux is not installed"; exit 1; }

start() {   # $1 x $2: size, $3: NO_COLOR value; the rest: ecsprof arguments
	local c=$1 l=$2 nc=$3; shift 3
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-cons-$$-$STARTS"
	tm new-session -d -s t -x "$c" -y "$l" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=$nc TERM=xterm-256color $ECSPROF $* ; echo EXIT=\$?; sleep 60"
}
rows() { screen | grep -E '^[0-9a-f]{8} '; }

# ---- durations ----
start 100 40 1 report "$DATA"
wait_for '30/30 tasks'
# where each row's TOTAL decimal point is: one column for all of them
points=$(rows | grep ' RUNNING ' | awk '{ line = $0; n = split($0, f, " ");
	for (i = n; i > 0; i--) if (f[i] ~ /^[0-9]+\.[0-9]s$/) { print index(line, f[i]) + length(f[i]) - 3; break } }' | sort -u)
check "the TOTAL column's decimal points are one under another" \
	"[ -n \"\$points\" ] && [ \$(echo \"\$points\" | wc -l) -eq 1 ]"
check "durations are tenths (4.4s, not 4.385s)" \
	"rows | grep -E '^a2fb4b6e ' | grep -Eq ' 14\\.7s +72\\.3s +4\\.4s +91\\.3s '"
# the table's numbers for the same tasks
want=$("$ECSPROF" report --format table "$DATA" | grep -E '^[0-9a-f]{8} .* RUNNING ' | awk '{ print $1, $NF }' | sort)
got=$(rows | grep ' RUNNING ' | awk '{ for (i = NF; i > 0; i--) if ($i ~ /^[0-9]+\.[0-9]s$/) { sub(/s$/, "", $i); print $1, $i; break } }' | sort)
check "every TOTAL is the number --format table prints" \
	"[ \$(echo \"\$got\" | wc -l) -ge 20 ] && [ \"\$(echo \"\$want\" | grep -F -f <(echo \"\$got\" | cut -d' ' -f1))\" = \"\$got\" ]"

# ---- wide: the group ----
start 200 40 1 report --group-by taskdef "$DATA"
wait_for '30/30 tasks'
check "at 200 columns a GROUP column shows each task's group" \
	"screen | grep -E '^TASK ' | grep -q 'GROUP' && rows | grep -E '^a2fb4b6e ' | grep -Eq 'checkout-api:7 +RUNNING +us-east-1a +checkout-api:7 '"
start 120 40 1 report --group-by taskdef "$DATA"
wait_for '30/30 tasks'
check "at 120 columns there is no GROUP column (the bar is worth more)" \
	"! screen | grep -E '^TASK ' | grep -q 'GROUP'"

# ---- sorting by task id: hex, as the table ----
start 100 40 1 report --sort task_id "$DATA"
wait_for '30/30 tasks'
check "sorted by task id, 129a2aa7 comes before 1b349c6a (hex order, not version order)" \
	"[ \"\$(rows | awk '{print \$1}' | head -n 6 | tr '\n' ' ')\" = '08bc401c 08e98727 0c722e11 129a2aa7 198c228f 1b349c6a ' ]"

# ---- colour: orange, not yellow, with 256 colours ----
start 100 30 '' report "$DATA"
wait_for '30/30 tasks'
check "with 256 colours the pull bar is colour 172 (orange), not yellow" \
	"tm capture-pane -e -p -t t | grep 'a2fb4b6e ' | grep -q '38;5;172m'"
exit $FAILED
