#!/usr/bin/env bash
# `ecsprof diff` on a terminal (issue 34 item 6), in a tmux pane as a person sees it: the
# default on a terminal is the UI; each phase's two windows side by side (pull 60 tasks
# p50 14.4 against 52 tasks p50 48.0, its change with the CI), the explanation below it
# naming the new digest, scrolling (G) to the power lines under a column header that stays in
# place, 3 tasks against 3 marked (1) with the footnote, q giving the terminal back with the
# --fail-on line and exit 3; a narrow pane wraps every line within its width; the same
# command with its output piped is the table, not the UI. Prints TAP.
set -u
export LC_ALL=C.UTF-8   # ${#line} counts characters, not bytes

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
D="$SRCDIR/tests/fixtures/diff/digest"
SOCK="ecsprof-tui-diff-$$"

echo "1..15"

. "$SRCDIR/tests/tui/tmux_tap.sh"
full() { tm capture-pane -p -J -S -200 -t t 2>/dev/null; }
widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen)
	echo $w
}

STARTS=0
start() {   # $1: COLSxLINES, the rest: diff's arguments
	local size=$1; shift
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-tui-diff-$$-$STARTS"
	tm new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
		"cd '$SRCDIR' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF diff $* ; echo EXIT=\$?; sleep 60"
}

start 110x24 "'$D/base.json' '$D/new.json' --fail-on 'pull.p50>+10s'"
wait_for 'ecsprof diff: baseline 60 tasks, new 52 tasks'
check "the UI by default on a terminal, its title naming the windows" \
	"screen | grep -q 'ecsprof diff: baseline 60 tasks, new 52 tasks'"
check "the windows side by side: pull 60 14.4 | 52 48.0, its change, CI and the table's p" \
	"screen | grep -Eq '^pull +60 +14\.4 +16\.4 │ +52 +48\.0 +52\.8 │ \+33\.7 s \[\+32\.3, \+34\.9\] p<0\.001'"
check "a phase that did not change is marked ~" \
	"screen | grep -Eq '^start .*~ p='"
check "the explanation below names the new digest and the tasks still on the old one" \
	"screen | grep -A2 '^why:' | tr '\n' ' ' | grep -q 'pull p50 +33.7 s: tasks with image digest sha256:ab125d0e5d0e.. +34.5 s (n=40); tasks still on'"
check "a 24-line pane does not show the power lines yet" "! screen | grep -q '^power (pull)'"
keys G
check "G scrolls to the end: the power lines" "wait_for '^power \(pull\)'"
check "the column header stays in place above the scrolled lines (BASELINE, NEW; PHASE n p50 p90)" \
	"screen | sed -n 2p | grep -Eq '^ +BASELINE +│ +NEW +│ P50 CHANGE' && screen | sed -n 3p | grep -Eq '^PHASE +n +p50 +p90 │'"
check "… while the phase rows scrolled away under it" "! screen | grep -Eq '^pull +60 '"
keys q
wait_for '^EXIT='
check "q gives the terminal back: the gate's line and exit 3" \
	"full | grep -q 'likely cause: image digest sha256:ab125d0e5d0e' && full | grep -q '^EXIT=3'"

start 60x20 "'$D/base.json' '$D/new.json'"
wait_for 'ecsprof diff'
check "a 60-column pane: every line within its width" "[ \$(widest) -le 60 ]"
check "… and the pull row still reads whole (wrapped, not cut)" \
	"screen | grep -Eq '^pull +60 +14\.4'"
keys C-c
wait_for '^EXIT='
check "Ctrl-C leaves the view (tui_term's handler): the shell's prompt back, exit 0" \
	"full | grep -q '^EXIT=0' && ! screen | grep -q 'q quit'"

# 3 tasks against 3: no p-value could go below 0.05, as the table's (1) says
FEW="--task d95bafc8f2a4d27bdcf4bb99f4bea973 --task 4067c3584ee207f8da94e3e8ab73738f --task cdbd47d364be8049a372db8f6e405d93 --task 16d1b246a0fbab7081321343cc40df61 --task 1ca652baf52f688e0faf60b147095b9b --task 55afc8da13cf8a545b28371b51821b27"
start 110x30 "'$D/base.json' '$D/new.json' $FEW"
wait_for 'ecsprof diff: baseline 3 tasks, new 3 tasks'
check "3 against 3: the pull row carries the table's (1) marker" \
	"screen | grep -Eq '^pull +3 .*~ p=[0-9.]+ \(1\)'"
check "… and its footnote says what it means" "screen | grep -q '^(1) too few tasks to tell'"
keys q
wait_for '^EXIT='

start 110x40 "'$D/base.json' '$D/new.json' | cat"
wait_for '^EXIT='
check "piped, the table, not the UI" \
	"full | grep -q 'P50 CHANGE \[95% CI\]' && ! full | grep -q 'q quit'"
exit $FAILED
