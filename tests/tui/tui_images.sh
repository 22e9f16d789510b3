#!/usr/bin/env bash
# The details pane's image facts, as a person sees them: ecsprof report --format tui on the
# recording of the soci_advice goldens (tests/fixtures/images/) runs in a tmux pane of
# 80x24; a task is picked with the filter, opened with Enter and scrolled with j, and the
# screen is read back with capture-pane. Prints TAP.
set -u
export LC_ALL=C.UTF-8
ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
FIX="$SRCDIR/tests/fixtures/images"
STARTS=0
echo "1..10"
. "$SRCDIR/tests/tui/tmux_tap.sh"
widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen)
	echo $w
}
start() {
	[ -n "${SOCK:-}" ] && tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-tui-images-$$-$STARTS"
	tm new-session -d -s t -x 80 -y 24 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color $ECSPROF $* ; echo EXIT=\$?; sleep 60"
}
# opens the details of task $1 and scrolls down to its images
details() {
	keys / $(echo "$1" | sed 's/./& /g') Enter
	wait_for '1/11 tasks'
	keys Enter
	wait_for 'Timestamps'
	for _ in $(seq 1 30); do tm send-keys -t t j; done
	sleep 0.5
}

start report --format tui "$FIX/recording.jsonl" "$FIX/metadata-soci.json"
wait_for 'TASK +TASKDEF'
# checkout-api on the index digest, lazy-loaded by task metadata
details 4e5f6a7b8c9d
check "the details pane has the task's images and the advice in words" \
	"screen | grep -q '^Images (ECR)' && screen | grep -q 'advice lazy-loaded: task metadata says'"
check "the platform manifest of the index it ran, and its SOCI index v2" \
	"screen | grep -q 'checkout-api:8  linux/amd64' && screen | grep -q '(of the index sha256:' && screen | grep -Eq 'SOCI index +v2 sha256:'"
check "size, layers, compression and the largest layers with their build steps" \
	"screen | grep -Eq 'compressed +333\.0 MiB in 3 layers, gzip' && screen | grep -Eq 'largest +290\.0 MiB +RUN apt-get install -y build-essential'"
check "no line is wider than 80 columns" "[ \$(widest) -le 80 ]"
keys Escape
wait_for 'TASK +TASKDEF'; keys Escape
wait_for '11/11 tasks'
# the arm64 task of the same index: its own manifest, without the index v2 (amd64's)
details 7b8c9d0e1f2a
check "an arm64 task: the arm64 manifest of the same index, no v2 index" \
	"screen | grep -q 'checkout-api:8  linux/arm64' && screen | grep -Eq 'compressed +311\.0 MiB in 3 layers' && screen | grep -Eq 'SOCI index +none' && screen | grep -q 'advice worth-indexing'"
keys Escape
wait_for 'TASK +TASKDEF'; keys Escape
wait_for '11/11 tasks'
details ae1f2a3b4c5d
check "a task whose repository is not there: no images section" \
	"screen | grep -q 'missing-legacy' && ! screen | grep -q '^Images (ECR)'"
keys Escape
wait_for 'TASK +TASKDEF'; keys Escape
wait_for '11/11 tasks'
# the images view: every image of the tasks shown, largest first
keys i
wait_for '^Images of'
check "i opens the images view: 7 images of the 11 tasks, largest first" \
	"screen | grep -q '^Images of 11 tasks (ECR): 7, largest first' && screen | sed -n 5p | grep -q 'ml-serve:1  linux/amd64' && screen | grep -q 'tasks        1, pull p50 88.0 s; advice zstd'"
keys j j j j j j j j j j j j j j j j j j j j
check "j scrolls to the other images" "screen | grep -q 'advice index-v1-only\|advice too-small\|advice worth-indexing'"
keys q
wait_for 'TASK +TASKDEF'
keys / c h e c k o u t Enter
wait_for '4/11 tasks'; keys i
wait_for '^Images of'
check "the filter applies: the 4 checkout-api tasks pulled 3 images (index amd64 and arm64, the manifest)" \
	"screen | grep -q '^Images of 4 tasks (ECR): 3,' && ! screen | grep -q 'ml-serve'"
keys q
wait_for 'TASK +TASKDEF'; keys Escape
keys q
wait_for 'EXIT='; check "q quits with status 0" "screen | grep -q 'EXIT=0'"
exit $FAILED
