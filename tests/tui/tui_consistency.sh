#!/usr/bin/env bash
# The TUI says what the table says (issue 11 item 8), as a person sees it in tmux: the
# durations are tenths whose decimal points line up down a column and whose numbers are
# the table's; a wide terminal shows the group; sorting by task id is hex order, as the
# table's, with its LAUNCH and SOCI; every phase is the CSV's milliseconds rounded to tenths; a failed task is
# STOPPED! in both; with 256 colours the pull bar is orange (yellow vanishes on a light
# background); the failed task's magenta bar is in the footer's and the help's legend.
# Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
STARTS=0
SOCK="ecsprof-cons-$$"

echo "1..15"
. "$SRCDIR/tests/tui/tmux_tap.sh"

start() {   # $1 x $2: size, $3: NO_COLOR value; the rest: ecsprof arguments
	local c=$1 l=$2 nc=$3; shift 3
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-cons-$$-$STARTS"
	tm new-session -d -s t -x "$c" -y "$l" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=$nc TERM=${TERM_IN:-xterm-256color} ${FGBG:+COLORFGBG='$FGBG'} $ECSPROF $* ; echo EXIT=\$?; sleep 60"
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
# every decimal point on the screen, the growing times of the task still pulling
# (73ca6621: 33.0… 71.4…) included: one column each for PROV, PULL, START and TOTAL
points=$(rows | python3 -c 'import re, sys
print(" ".join(str(p) for p in sorted({m.start(1) for l in sys.stdin
      for m in re.finditer(r"\d(\.)\d(?:s|\u2026)", l)})))')
check "the decimal points of all rows, the still-pulling task's growing times too, are in 4 columns ($points)" \
	"[ \$(echo \$points | wc -w) -eq 4 ] && rows | grep -E '^73ca6621 ' | grep -q '…'"
check "durations are tenths (4.4s, not 4.385s)" \
	"rows | grep -E '^a2fb4b6e ' | grep -Eq ' 14\\.7s +72\\.3s +4\\.4s +91\\.3s '"
# the table's numbers for the same tasks
want=$("$ECSPROF" report --format table "$DATA" | grep -E '^[0-9a-f]{8} .* RUNNING ' | awk '{ print $1, $NF }' | sort)
got=$(rows | grep ' RUNNING ' | awk '{ for (i = NF; i > 0; i--) if ($i ~ /^[0-9]+\.[0-9]s$/) { sub(/s$/, "", $i); print $1, $i; break } }' | sort)
check "every TOTAL is the number --format table prints" \
	"[ \$(echo \"\$got\" | wc -l) -ge 20 ] && [ \"\$(echo \"\$want\" | grep -F -f <(echo \"\$got\" | cut -d' ' -f1))\" = \"\$got\" ]"

# the CSV's milliseconds, rounded half up to tenths: every phase of every running task
want=$("$ECSPROF" report --format csv "$DATA" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["last_status"] == "RUNNING" { printf "%s", substr($c["task_id"], 1, 8);
		split("provision_s pull_s start_s total_s", k, " ");
		for (j = 1; j <= 4; j++) { v = $c[k[j]]; sub(/\./, "", v); ms = v + 0;
			printf " %d.%d", int((ms + 50) / 100 / 10), int((ms + 50) / 100) % 10 }
		print "" }' | sort)
got=$(rows | grep ' RUNNING ' | awk '{ printf "%s", $1; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]s$/) { sub(/s$/, "", $i); printf " %s", $i }; print "" }' | sort)
check "every phase is the CSV's milliseconds rounded to tenths (7.115 is 7.1 in both)" \
	"[ \$(echo \"\$got\" | wc -l) -ge 20 ] && [ \"\$(echo \"\$want\" | grep -F -f <(echo \"\$got\" | cut -d' ' -f1))\" = \"\$got\" ]"
# the failed task: STOPPED! in both, and every other status the table's too
want=$("$ECSPROF" report --format table "$DATA" | grep -E '^[0-9a-f]{8} ' | awk '{ print $1, $3 }' | sort)
got=$(rows | awk '{ print $1, $3 }' | sort)
check "the failed task is STOPPED! in the TUI as in --format table (not STOPPED* in one)" \
	"rows | grep -E '^313da244 ' | grep -q ' STOPPED! ' && [ \"\$(echo \"\$want\" | grep -F -f <(echo \"\$got\" | cut -d' ' -f1))\" = \"\$got\" ]"

# ---- wide: the group ----
start 200 40 1 report --group-by taskdef "$DATA"
wait_for '30/30 tasks'
check "at 200 columns a GROUP column shows each task's group, after the table's LAUNCH and SOCI" \
	"screen | grep -E '^TASK ' | grep -Eq 'AZ +LAUNCH +SOCI +GROUP ' && rows | grep -E '^a2fb4b6e ' | grep -Eq 'checkout-api:7 +RUNNING +us-east-1a +FARGATE +unknown +checkout-api:7 '"
start 200 40 1 report "$DATA"
wait_for '30/30 tasks'
check "at 200 columns without --group-by: every row's LAUNCH and SOCI as the table's, no GROUP of 'all'" \
	"screen | grep -E '^TASK ' | grep -Eq 'AZ +LAUNCH +SOCI +PROV ' && [ \"\$(rows | awk '{ print \$1, \$5, \$6 }' | sort)\" = \"\$(COLUMNS=100 \"\$ECSPROF\" report --format table \"\$DATA\" | grep -E '^[0-9a-f]{8} ' | awk '{ print \$1, \$5, \$6 }' | sort | grep -F -f <(rows | awk '{ print \$1 }'))\" ] && ! rows | grep -q ' all '"
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
start 120 30 '' report "$DATA"   # 120: the footer's legend fits
wait_for '30/30 tasks'
check "with 256 colours the pull bar is colour 172 (orange), not yellow" \
	"tm capture-pane -e -p -t t | grep 'a2fb4b6e ' | grep -q '38;5;172m'"
# the failed task's bar is magenta, and so is the legend's 'stopped' on the footer
check "the failed task's bar is magenta (35m) and the footer's legend has it: magenta 'stopped'" \
	"tm capture-pane -e -p -t t | grep '^.*313da244 ' | grep -q \$'\\e\\[35m' && tm capture-pane -e -p -t t | tail -n 1 | grep -q \$'\\e\\[35m[^ ]*\\e\\[39mstopped'"
# 8 colours: no orange; on a light background (COLORFGBG) the pull bar is black, not
# yellow, and the help's legend says so
TERM_IN=screen FGBG='0;15' start 120 30 '' report "$DATA"
wait_for '30/30 tasks'
check "8 colours on a light background (COLORFGBG=0;15): the pull bar is black (30m), not yellow" \
	"tm capture-pane -e -p -t t | grep 'a2fb4b6e ' | grep -q \$'\\e\\[30m' && ! tm capture-pane -e -p -t t | grep 'a2fb4b6e ' | grep -q \$'\\e\\[33m'"
TERM_IN=screen start 120 30 '' report "$DATA"
wait_for '30/30 tasks'
check "8 colours, background not known: the pull bar stays yellow (33m)" \
	"tm capture-pane -e -p -t t | grep 'a2fb4b6e ' | grep -q \$'\\e\\[33m'"
start 80 30 '' report "$DATA"
wait_for '30/30 tasks'
keys() { tm send-keys -t t "$@"; sleep 0.3; }
keys '?' G
check "the help's bar legend names the failed bar's colour: 'stopped before RUNNING magenta'" \
	"screen | tr -s ' \n' '  ' | grep -q 'stopped before RUNNING magenta'"
exit $FAILED
