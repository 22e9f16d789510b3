#!/usr/bin/env bash
# The TUI's `a` key in tmux (issue 9's surviving bug "the TUI a key doing nothing"): the
# bars start aligned at each task's createdAt ("created+" over the bars); `a` puts them on
# one shared time axis (a clock time over the bars, the bars themselves move), and `a`
# again brings the aligned view back. Issue 11 item 2: the shared axis spans the scale-out
# (26 tasks from 14:02), not the 4 tasks of 08:41 that stretched it to 5h24m and put all
# 26 bars in one column: they start in at least 10 columns (a staircase), the 4 are
# clipped with a marker, and `A` widens the axis to every task (and back). Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
SOCK="ecsprof-axis-$$"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecsprof-axis.XXXXXX") || exit 1
. "$SRCDIR/tests/tui/tmux_tap.sh"
cleanup() { tm kill-server 2>/dev/null; rm -rf "$tmp"; }
bars() { screen | sed -n '4,20p' | cut -c85-; }
# the distinct columns the bars of the 26 scale-out tasks (those not clipped at the left)
# start in; the bar column starts under the clock time of the header
starts() {
	screen | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
x = re.search(r"\d\d:\d\d:\d\d", lines[2]).start()
cols, clipped = set(), 0
for l in lines[3:33]:
    bar = l[x:]
    if bar[:1] in ("\u25c2", "<"):
        clipped += 1
    elif bar.strip():
        cols.add(len(bar) - len(bar.lstrip()))
print(len(cols), clipped)'
}   # the bar column of the task rows
echo "1..8"
tm new-session -d -s t -x 120 -y 40 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF report $DATA; sleep 60"
wait_for '30/30 tasks'
bars >"$tmp/aligned"
check "the bars start aligned at createdAt" \
	"screen | grep -q 'axis: aligned at createdAt' && screen | grep -Eq '^TASK .* created\\+ '"
tm send-keys -t t a
wait_for 'axis: scale-out'
check "a puts them on one shared time axis, a clock time over the bars" \
	"screen | grep -q 'axis: scale-out 208.8s (A: all)' && screen | grep -Eq '^TASK .* TOTAL 14:02:11 +208.8s'"
read -r ncols nclip < <(starts)
check "the 26 scale-out bars are a staircase: they start in >= 10 columns ($ncols), the 4 of 08:41 clipped ($nclip)" \
	"[ $ncols -ge 10 ] && [ $nclip -eq 4 ]"
bars >"$tmp/shared"
check "and the bars move (not only the label)" "! cmp -s '$tmp/aligned' '$tmp/shared'"
tm send-keys -t t a
wait_for 'axis: aligned at createdAt'
bars >"$tmp/again"
check "a again: aligned at createdAt, the same bars as at first" \
	"screen | grep -q 'axis: aligned at createdAt' && cmp -s '$tmp/aligned' '$tmp/again'"
tm send-keys -t t a
wait_for 'axis: scale-out'
tm send-keys -t t A
wait_for 'axis: all tasks'
read -r ncols nclip < <(starts)
check "A widens the axis to every task (5h24m from 08:41): the 26 fall into $ncols column(s), none clipped" \
	"screen | grep -q 'axis: all tasks 5h24m (A: scale-out)' && screen | grep -Eq '^TASK .* TOTAL 08:41:07 +5h24m' && [ $ncols -le 2 ] && [ $nclip -eq 0 ]"
tm send-keys -t t A
wait_for 'axis: scale-out'
read -r ncols nclip < <(starts)
check "A again: back to the scale-out ($ncols columns)" \
	"screen | grep -q 'axis: scale-out 208.8s (A: all)' && [ $ncols -ge 10 ]"
tm send-keys -t t /checkout-api:8 Enter
wait_for '12/30 tasks'
check "filtered to one burst, the axis is all of it and says so" \
	"screen | grep -Eq 'axis: all tasks [0-9.]+s\$'"
exit $FAILED
