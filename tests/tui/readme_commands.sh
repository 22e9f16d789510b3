#!/usr/bin/env bash
# The first minute of a new user: the README's two commands, taken from README.md itself
# (so the README cannot drift from what is tested), each run in a tmux terminal of 80x24,
# 60x15 and 200x50, and the screens read back as a person would read them. Prints TAP.
set -u
export LC_ALL=C.UTF-8   # ${#line} counts characters, not bytes

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
N=0
FAILED=0
STARTS=0
SOCK="ecsprof-readme-$$"

ok() { N=$((N + 1)); echo "ok $N - $1"; }
nok() {
	N=$((N + 1)); FAILED=1
	echo "not ok $N - $1"
	echo "# screen:"; screen | sed 's/^/#   /'
}
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# The whole pane, scrollback included (a printed summary is longer than 15 lines).
screen() { tm capture-pane -p -J -S -300 -t t 2>/dev/null | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
visible() { tm capture-pane -p -t t 2>/dev/null; }
wait_for() {
	for _ in $(seq 1 50); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
keys() { tm send-keys -t t "$@"; sleep 0.3; }
cleanup() { tm kill-server 2>/dev/null; }
trap cleanup EXIT
widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen | grep -v '^EXIT=')
	echo $w
}

if ! command -v tmux >/dev/null; then
	echo "1..1"; echo "not ok 1 - tmux is not installed (apt-get install tmux)"; exit 1
fi

# "    scripts/build && build/ecsprof report ... && build/ecsprof report --summary ..."
line=$(grep -m1 -E '^    scripts/build && build/ecsprof ' "$SRCDIR/README.md")
if [ -z "$line" ]; then
	echo "1..1"; echo "not ok 1 - README.md has no 'scripts/build && build/ecsprof ...' line"; exit 1
fi
CMD1=$(echo "$line" | awk -F' && ' '{print $2}' | sed 's|^build/ecsprof ||')
CMD2=$(echo "$line" | awk -F' && ' '{print $3}' | sed 's|^build/ecsprof ||')



start() {
	# $1: COLSxLINES; the rest: ecsprof arguments, run from the source root as the README says
	local size=$1; shift
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-readme-$$-$STARTS"
	tm new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
		"cd '$SRCDIR' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF $* ; echo EXIT=\$?; sleep 60"
	tm set-option -t t history-limit 1000 >/dev/null 2>&1
}

for size in 80x24 60x15 200x50; do
	cols=${size%x*}
	# ---- the first command: the task table ----
	start "$size" "$CMD1"
	wait_for 'TASK +TASKDEF'
	check "$size: 'ecsprof $CMD1' opens the task table" \
		"visible | grep -Eq 'TASK .*TOTAL' && visible | grep -q '30/30 tasks'"
	check "$size: no line of the table is wider than the terminal" "[ \$(widest) -le $cols ]"
	keys q
	wait_for 'EXIT='; check "$size: q quits the table with status 0" "screen | grep -q 'EXIT=0'"

	# ---- the second command: the summary, printed ----
	start "$size" "$CMD2"
	wait_for 'EXIT='
	check "$size: 'ecsprof report --summary ...' on a terminal prints the summary, not the task table" \
		"screen | grep -q 'GROUP no-soci (baseline): 18 tasks' && screen | grep -q 'GROUP soci: 12 tasks' && ! screen | grep -Eq 'TASK +TASKDEF' && screen | grep -q 'EXIT=0'"
done

echo "1..$N"
exit $FAILED
