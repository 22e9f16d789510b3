#!/usr/bin/env bash
# The first minute of a new user: the README's two commands, taken from README.md itself
# (so the README cannot drift from what is tested), each run in a tmux terminal of 80x24,
# 60x15 and 200x50, and the screens read back as a person would read them; the README's
# samples and screen and the man page's sample of the comparison are what they print. Prints TAP.
set -u
export LC_ALL=C.UTF-8   # ${#line} counts characters, not bytes

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
STARTS=0
SOCK="ecsprof-readme-$$"

. "$SRCDIR/tests/tui/tmux_tap.sh"
# The whole pane, scrollback included (a printed summary is longer than 15 lines).
screen() { tm capture-pane -p -J -S -300 -t t 2>/dev/null | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
visible() { tm capture-pane -p -t t 2>/dev/null; }
widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen | grep -v '^EXIT=')
	echo $w
}

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

# ---- the README shows the output as it is ----
readme_sample() {
	# $1: the command after "$ ecsprof "; prints the README's sample under it, unindented
	python3 - "$SRCDIR/README.md" "$1" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = lines.index("    $ ecsprof " + sys.argv[2]) + 1
out = []
while i < len(lines) and (lines[i].startswith("    ") or lines[i] == ""):
    out.append(lines[i][4:])
    i += 1
while out and out[-1] == "":
    out.pop()
print("\n".join(out))
PY
}
(cd "$SRCDIR" && eval "set -- $CMD2" && COLUMNS=100 "$ECSPROF" "$@") >/tmp/readme-actual.$$ 2>&1
readme_sample "$CMD2" >/tmp/readme-sample.$$
check "README's sample of '$CMD2' is what it prints (COLUMNS=100)" \
	"diff -u /tmp/readme-sample.$$ /tmp/readme-actual.$$ >&2"
(cd "$SRCDIR" && eval "set -- $CMD1" && COLUMNS=100 "$ECSPROF" "$@") >/tmp/readme-actual.$$ 2>&1
readme_sample "$CMD1" | grep -v '^\.\.\.$' >/tmp/readme-sample.$$
check "every line of README's sample of '$CMD1' is in what it prints, in order (a line ending in ... as a prefix)" \
	"python3 $SRCDIR/tests/tui/lines_in_order.py /tmp/readme-actual.$$ /tmp/readme-sample.$$"
# the man page's sample of the comparison and the verdict is what CMD2 prints
python3 - "$SRCDIR/man/ecsprof.1" >/tmp/readme-sample.$$ <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = lines.index("soci vs no\\-soci (baseline)   p50 \\(+- 95% CI")
while lines[i] != ".EE":
    print(lines[i].replace("\\(+-", "\u00b1").replace("\\-", "-"))
    i += 1
PY
(cd "$SRCDIR" && eval "set -- $CMD2" && COLUMNS=100 "$ECSPROF" "$@") >/tmp/readme-actual.$$ 2>&1
check "the man page's sample of the comparison and verdict is what '$CMD2' prints" \
	"[ \$(grep -c . /tmp/readme-sample.$$) -ge 8 ] && python3 $SRCDIR/tests/tui/lines_in_order.py /tmp/readme-actual.$$ /tmp/readme-sample.$$"
# the README's screen of the terminal UI (the block that starts with its title line) is
# what the first command shows in a terminal of 100x24
python3 - "$SRCDIR/README.md" >/tmp/readme-sample.$$ <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = next(i for i, l in enumerate(lines) if l.startswith("     ecsprof  ecsprof report: "))
while i < len(lines) and lines[i].startswith("    "):
    print(lines[i][4:])
    i += 1
PY
start 100x24 "$CMD1"
wait_for 'q:quit'
visible >/tmp/readme-actual.$$
check "README's screen of 'ecsprof $CMD1' is what a 100x24 terminal shows" \
	"[ \$(wc -l </tmp/readme-sample.$$) -eq 24 ] && diff -u /tmp/readme-sample.$$ /tmp/readme-actual.$$ >&2"
keys q
rm -f /tmp/readme-actual.$$ /tmp/readme-sample.$$

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
	check "$size: the summary compares as benchstat does: start +86.9% (p<0.001 n=16+12: n in column order), provision ~" \
		"screen | grep -Eq '^start .*\+86\.9% \(p<0\.001 n=16\+12\)' && screen | grep -Eq '^provision .* ~ \(p=0\.83 n=18\+12\)'"
	check "$size: and ends with hyperfine's verdict: soci x3.1 faster than no-soci" \
		"screen | grep -v '^EXIT=' | tail -3 | grep -q 'soci: x3.1 faster than no-soci'"
	check "$size: no line of the printed summary is wider than the terminal" "[ \$(widest) -le $cols ]"

	# ---- the same in the terminal UI's summary view ----
	start "$size" "report --format tui ${CMD2#report }"
	wait_for 'faster'
	check "$size: --format tui --summary opens the summary view with the verdict on top" \
		"visible | sed -n 3p | grep -q 'soci: x3.1 faster than no-soci'"
	check "$size: the summary view shows the significant start regression" \
		"visible | grep -Eq '^start .*\+86\.9% \(p<0\.001 n=16\+12\)'"
	check "$size: the summary view fits the terminal" "[ \$(widest) -le $cols ]"
	keys j j j j j j j j j j
	check "$size: j scrolls under the verdict to a group's n, min, p50, p90, p99, max and mean" \
		"visible | sed -n 3p | grep -q 'soci: x3.1 faster' && visible | grep -Eq '^PHASE +N +MIN +P50 +P90 +P99 +MAX +MEAN' && visible | grep -Eq '^start +1[26] ' && [ \$(widest) -le $cols ]"
	keys Tab
	wait_for 'TASK '
	check "$size: Tab goes from the summary to the task table" "visible | grep -Eq '^TASK .*TOTAL'"
	keys q
done

echo "1..$N"
exit $FAILED
