#!/usr/bin/env bash
# The TUI's `a` key in tmux (issue 9's surviving bug "the TUI a key doing nothing"): the
# bars start aligned at each task's createdAt ("created+" over the bars); `a` puts them on
# one shared time axis (a clock time over the bars, the bars themselves move), and `a`
# again brings the aligned view back. Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
SOCK="ecsprof-axis-$$"
N=0
FAILED=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecsprof-axis.XXXXXX") || exit 1
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
screen() { tm capture-pane -p -t t 2>/dev/null; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
ok() { N=$((N + 1)); echo "ok $N - $1"; }
nok() { N=$((N + 1)); FAILED=1; echo "not ok $N - $1"; echo "# screen:"; screen | sed 's/^/#   /'; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
wait_for() {
	for _ in $(seq 1 50); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
bars() { screen | sed -n '4,20p' | cut -c85-; }   # the bar column of the task rows
echo "1..4"
command -v tmux >/dev/null || { echo "not ok 1 - tmux is not installed"; exit 1; }
tm new-session -d -s t -x 120 -y 30 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF report $DATA; sleep 60"
wait_for '30/30 tasks'
bars >"$tmp/aligned"
check "the bars start aligned at createdAt" \
	"screen | grep -q 'axis: aligned at createdAt' && screen | grep -Eq '^TASK .* created\\+ '"
tm send-keys -t t a
wait_for 'axis: shared time'
check "a puts them on one shared time axis, a clock time over the bars" \
	"screen | grep -q 'axis: shared time' && screen | grep -Eq '^TASK .* TOTAL [0-9]{2}:[0-9]{2}:[0-9]{2} '"
bars >"$tmp/shared"
check "and the bars move (not only the label)" "! cmp -s '$tmp/aligned' '$tmp/shared'"
tm send-keys -t t a
wait_for 'axis: aligned at createdAt'
bars >"$tmp/again"
check "a again: aligned at createdAt, the same bars as at first" \
	"screen | grep -q 'axis: aligned at createdAt' && cmp -s '$tmp/aligned' '$tmp/again'"
exit $FAILED
