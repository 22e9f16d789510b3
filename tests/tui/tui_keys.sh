#!/usr/bin/env bash
# The TUI's help and quit keys as a person meets them in tmux (issue 11 items 7 and 8):
# the help wraps instead of being cut at 80 columns and scrolls to its last line, names F5,
# F10 and Ctrl-C and the bar legend; Esc at the table does not quit, F10 does; the footer's
# colour legend never overprints the key hints (after / 1c Enter, Enter, Esc); in ASCII + is
# only the start bar and > marks a phase still going. Prints TAP.
set -u
export LC_ALL=C.UTF-8

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
DATA="$SRCDIR/examples/scaleout.json"
STARTS=0
SOCK="ecsprof-keys-$$"

echo "1..19"
. "$SRCDIR/tests/tui/tmux_tap.sh"

start() {   # $1 x $2: size; the rest: ecsprof arguments
	local c=$1 l=$2; shift 2
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-keys-$$-$STARTS"
	tm new-session -d -s t -x "$c" -y "$l" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF $* ; echo EXIT=\$?; sleep 60"
}
joined() { screen | tr -s ' \n' '  '; echo; }   # the screen as one line: wrapping aside
widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen)
	echo $w
}

# ---- help at 80x24 ----
start 80 24 report "$DATA"
wait_for '30/30 tasks'
keys '?'
wait_for '^ *Keys'
check "the help is wrapped to 80 columns, not cut (the filter line goes on below)" \
	"[ \$(widest) -le 80 ] && screen | grep -q 'filter: id, taskdef, status, AZ, group' && screen | grep -Eq '^ +Esc clears\\)'"
check "the footer says there is more below" "screen | tail -n 1 | grep -q 'more below'"
keys G
check "G scrolls to the end: F10 and ^C quit, F5 refreshes" \
	"screen | grep -Eq '^ F10 \\^C +quit at once' && screen | grep -Eq '^ r F5 +refresh'"
check "and the bar legend names every bar, the failed one too" \
	"screen | grep -q 'Bars:' && joined | grep -q 'stopped before RUNNING ·' && joined | grep -q 'app to HEALTHY ▒'"
keys g
check "g goes back to its top" "screen | grep -Eq '^ Keys' && ! screen | grep -q 'F10'"
keys x
wait_for 'TASK +TASKDEF'
check "any other key leaves the help" "screen | grep -Eq '^[0-9a-f]{8} '"

# ---- Esc and F10 ----
keys Escape
sleep 0.5
check "Esc at the table does not quit (k9s, htop)" "! screen | grep -q 'EXIT=' && screen | grep -q 'TASK'"
keys F10
wait_for 'EXIT='
check "F10 quits with status 0 (htop)" "screen | grep -q 'EXIT=0'"

# ---- footer at 120 columns ----
start 120 30 report "$DATA"
wait_for '30/30 tasks'
# the header can be on screen a moment before the footer under load (CI saw it once)
wait_for 'q:quit.*stopped|stopped.*q:quit'
check "at 120 columns the footer has the hints and the legend, the failed bar's too" \
	"screen | tail -n 1 | grep -q 'q:quit' && screen | tail -n 1 | grep -q 'provision' && screen | tail -n 1 | grep -q 'stopped'"
keys / c h e c k o u t - a p i : 8 Enter
wait_for 'filter: checkout-api:8'
check "after a filter the legend does not overprint the hints" \
	"screen | tail -n 1 | grep -q 'filter: checkout-api:8  (Esc clears)  ?:help /:filter Enter:details Tab:summary s/I:sort a:axis q:quit'"
keys Escape
wait_for '30/30 tasks'
# the issue's own keys: / 1c Enter, then Enter into a task and Esc back out, twice
HINT='?:help /:filter Enter:details Tab:summary s/I:sort a:axis q:quit'
keys / 1 c Enter
wait_for 'filter: 1c'
check "after / 1c Enter the footer is the filter and the hints, unbroken, no legend over them" \
	"[ \"\$(screen | tail -n 1)\" = \"filter: 1c  (Esc clears)  \$HINT\" ]"
keys Enter
wait_for 'q/Esc/Enter:back'
check "Enter: the details' footer is its hints alone" \
	"[ \"\$(screen | tail -n 1)\" = 'j/k:scroll  q/Esc/Enter:back  Tab:summary' ]"
keys Escape
wait_for 'filter: 1c'
check "Esc leaves the details: the filter's footer again, unbroken" \
	"[ \"\$(screen | tail -n 1)\" = \"filter: 1c  (Esc clears)  \$HINT\" ]"
keys Escape
wait_for '30/30 tasks'
hint_then_legend() {
	local l; l=$(screen | tail -n 1)
	[[ "$l" == "$HINT   "*" ░provision  ▓pull  █start  ·stopped" ]]
}
check "Esc clears the filter: the hints, then the legend apart from them" hint_then_legend
keys C-c
wait_for 'EXIT='
check "Ctrl-C quits at once" "screen | grep -q 'EXIT='"

# ---- F10 quits while a filter is being typed (it quits from any view, the help says) ----
start 100 30 report "$DATA"
wait_for '30/30 tasks'
keys / c h e
wait_for '^/che'
keys F10
wait_for 'EXIT='
check "F10 quits while typing a filter (it was typed into the filter)" "screen | grep -q 'EXIT=0'"

# ---- ASCII: the still-running mark is not the start bar's + ----
tm kill-server 2>/dev/null
STARTS=$((STARTS + 1)); SOCK="ecsprof-keys-$$-$STARTS"
tm new-session -d -s t -x 80 -y 24 \
	"env LANG=C LC_ALL=C NO_COLOR=1 TERM=xterm-256color $ECSPROF report $DATA ; echo EXIT=\$?; sleep 60"
wait_for 'tasks'
check "in ASCII a phase still going ends in > (the start bar is +)" \
	"screen | grep -E '^73ca6621 ' | grep -Eq '[0-9]s?>'"
check "in ASCII + is only the start bar: the task still pulling has none, no time ends in +" \
	"! screen | grep -E '^73ca6621 ' | grep -q '+' && ! screen | grep -E '^[0-9a-f]{8} ' | grep -Eq '[0-9]s?\\+'"
keys '?' G
wait_for 'Bars:'
check "the ASCII help's legend: start +, > after a time: still going" \
	"screen | tr -s ' \\n' '  ' | grep -q 'start +, .*; > after a time: the phase is still going'"
exit $FAILED
