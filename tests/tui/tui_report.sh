#!/usr/bin/env bash
# End-to-end test of the terminal UI as a person sees it: ecsprof runs in a tmux pane of
# 80x24, keys are sent with send-keys and the screen is read back with capture-pane.
# Data: examples/scaleout.json (30 tasks: 28 RUNNING, 1 PENDING still pulling, 1 stopped
# by CannotPullContainerError; taskdefs checkout-api:7 and :8). Prints TAP.
set -u
export LC_ALL=C.UTF-8   # ${#line} counts characters, not bytes

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
SOCK="ecsprof-tui-$$"

echo "1..24"

. "$SRCDIR/tests/tui/tmux_tap.sh"
if [ ! -c /dev/null ]; then
	# tmux cannot start its server then; seen when a program renamed a file over it
	echo "not ok 1 - /dev/null is not a character device: $(ls -l /dev/null)"
	exit 1
fi
if [ ! -r "$DATA" ]; then
	echo "not ok 1 - $DATA is missing"
	exit 1
fi

start() {
	# $1: locale; the rest: ecsprof arguments. The pane stays after exit to show the status.
	# Each start gets a server of its own: a new session on a server that is still shutting
	# down after kill-server fails with "server exited unexpectedly".
	local loc=$1; shift
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-tui-$$-$STARTS"
	tm new-session -d -s t -x 80 -y 24 \
		"env LANG=$loc LC_ALL=$loc NO_COLOR=1 TERM=xterm-256color $ECSPROF $* ; echo EXIT=\$?; sleep 60"
}
STARTS=0

widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen)
	echo $w
}
data_rows() { screen | grep -cE '^[0-9a-f]{8} '; }
# The TOTAL column of the task rows, as seconds (empty totals are skipped).
totals() {
	screen | grep -E '^[0-9a-f]{8} ' | awk '{
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+s$/) last = $i;
		sub(/s$/, "", last); print last; last = "" }' | grep -v '^$'
}

# ---- first screen ----
start C.UTF-8 report --format tui --group-by taskdef "$DATA"
wait_for 'TASK +TASKDEF' ; check "first screen shows the table header" \
	"screen | grep -Eq 'TASK +TASKDEF +STATUS +AZ +PROV +PULL +START +TOTAL'"
check "title counts 30 of 30 tasks" "screen | grep -q '30/30 tasks'"
check "20 task rows fill an 80x24 screen" "[ \$(data_rows) -eq 20 ]"
check "no line is wider than 80 columns" "[ \$(data_rows) -gt 0 ] && [ \$(widest) -le 80 ]"
check "waterfall bars drawn with phase glyphs (no colour: shades)" \
	"screen | grep -E '^[0-9a-f]{8} ' | grep -q '▓'"
check "the task still pulling shows a growing time (…)" \
	"screen | grep -E '^73ca6621 ' | grep -q 'PENDING.*…'"
check "the task that failed to start is marked" "screen | grep -qE '^313da244 .*STOPPED!'"

# ---- help ----
keys '?'
wait_for '^ *Keys'; check "? opens the help with the keys" \
	"screen | grep -q 'filter: id, taskdef' && screen | grep -q 'on one shared time'"
keys q
wait_for 'TASK +TASKDEF'; check "q leaves the help, back to the table" "[ \$(data_rows) -eq 20 ]"

# ---- sort ----
for _ in 1 2 3 4 5 6 7 8; do tm send-keys -t t s; done
sleep 0.4
check "s cycles the sort column to TOTAL" "screen | grep -q 'TOTAL▲'"
check "rows sorted by total, ascending" "[ \$(totals | wc -l) -ge 15 ] && totals | sort -n -c"
keys I
check "I inverts: TOTAL▼ and the slowest task first" \
	"screen | grep -q 'TOTAL▼' && totals | sort -n -r -c && screen | grep -E '^[0-9a-f]{8} ' | head -1 | grep -q '112.7s'"

# ---- filter ----
keys / c h e c k o u t - a p i : 8 Enter
wait_for '12/30 tasks'; check "/ filters to the 12 tasks of checkout-api:8" \
	"screen | grep -q '12/30 tasks' && [ \$(data_rows) -eq 12 ] && ! screen | grep -E '^[0-9a-f]{8} ' | grep -q 'api:7'"
keys Escape
wait_for '30/30 tasks'; check "Esc clears the filter" "[ \$(data_rows) -eq 20 ]"

# ---- details ----
keys / S T O P P E D Enter
wait_for '1/30 tasks'; keys Enter
wait_for 'stop code'; check "Enter opens the details: stop code and reason first" \
	"screen | grep -q 'stop code TaskFailedToStart' && screen | grep -q 'CannotPullContainerError' && screen | grep -q 'SOCI unknown'"
keys j j j j j j j j j j
check "scrolling the details shows every timestamp" \
	"screen | grep -q 'pullStartedAt' && screen | grep -q 'executionStoppedAt'"
keys j j j j j j j j j j j j j j
check "and then the containers with image and digest" \
	"screen | grep -q 'Containers' && screen | grep -q 'digest'"
keys Escape
wait_for 'TASK +TASKDEF'; keys Escape
wait_for '30/30 tasks'

# ---- summary ----
keys Tab
wait_for 'p50'; check "Tab shows the verdict first: checkout-api:8 x3.1 faster than checkout-api:7" \
	"screen | sed -n 3p | grep -q 'checkout-api:8: x3.1 faster than checkout-api:7'"
check "and benchstat's comparison: the start regression is there, significant, with n" \
	"screen | grep -Eq '^start .*\+86\.9% \(p<0\.001 n=16\+12\)' && screen | grep -Eq '^provision .* ~ \(p=0\.83 n=18\+12\)'"
keys j j j j j j j j j j j j j j j j j j j j
check "j scrolls under the verdict to each group's n, min, p99, max, mean and the pull histograms" \
	"screen | sed -n 3p | grep -q 'x3.1 faster' && screen | grep -q 'pull histogram' && screen | grep -Eq 'N +MIN +P50 +P90 +P99 +MAX +MEAN'"
keys Tab
wait_for 'TASK +TASKDEF'

# ---- resize ----
tm resize-window -t t -x 60 -y 15 2>/dev/null || tm resize-pane -t t -x 60 -y 15
sleep 0.5
check "after a resize to 60x15 the table fits and still shows TOTAL" \
	"screen | grep -q 'TOTAL' && [ \$(widest) -le 60 ] && [ \$(data_rows) -eq 11 ]"

# ---- quit ----
keys q
wait_for 'EXIT='; check "q quits with status 0" "screen | grep -q 'EXIT=0'"

# ---- ASCII ----
start C report --format tui "$DATA"
wait_for 'TASK +TASKDEF'
check "without UTF-8 the bars are ASCII '=' '#' '+'" \
	"screen | grep -E '^[0-9a-f]{8} ' | grep -q '=*###*+' && ! screen | grep -q '▓'"
keys q
wait_for 'EXIT='; check "quit from the ASCII screen with status 0" "screen | grep -q 'EXIT=0'"

exit $FAILED
