#!/usr/bin/env bash
# The details pane in tmux at 80 columns (issue 30 item 7): a long stop reason wraps at
# words, its continuation lines indented under the reason's first word rather than
# starting at the screen's edge, and no word of it is lost. Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
SOCK="ecsprof-dwrap-$$"

echo "1..3"
. "$SRCDIR/tests/tui/tmux_tap.sh"

tm new-session -d -s t -x 80 -y 40 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF report --task 313da244 $DATA; echo EXIT=\$?; sleep 60"
wait_for '1/1 tasks'
keys Enter
wait_for '^  reason '
# the reason's line and the lines that go on from it, up to the next field
reason() { screen | sed -n '/^  reason /,/^  [a-z]/p' | sed '$d'; }
check "the stop reason wraps: its continuations start under its first word (column 9)" \
	"[ \$(reason | wc -l) -ge 3 ] && ! reason | sed 1d | grep -qv '^         [^ ]'"
check "... at word boundaries: no word is cut in two" \
	"reason | sed 's/^ *//' | tr '\n' ' ' | grep -q 'dial tcp 10.40.26.139:443: i/o timeout' &&
	 reason | sed 's/^ *//' | tr '\n' ' ' | grep -q 'failed to resolve ref 123456789012.dkr.ecr'"
check "no line is wider than the screen" "! screen | grep -q '.\{81\}'"
exit $FAILED
