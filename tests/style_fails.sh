#!/usr/bin/env bash
# tests/style.sh's layering check can fail: each case copies src/ and include/ into a
# temporary tree, breaks one rule of src/README.md's layers, and expects style.sh to exit
# non-zero naming the offending line; a control case with an allowed include must pass.
# Prints TAP.
set -u
: "${SRCDIR:?}"
style="$SRCDIR/tests/style.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecsprof-style.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
# case NAME FILE LINE EXPECT [CHECK]: appends LINE to FILE in a fresh copy; EXPECT is a
# fixed string style.sh must print in the "not ok" block of check CHECK (default 5, the
# layering), or "" when the copy must pass
case_() {
	local name=$1 file=$2 line=$3 expect=$4 num=${5:-5} out rc
	n=$((n + 1))
	rm -rf "$tmp/t" && mkdir -p "$tmp/t/tests" &&
		cp -r "$SRCDIR/src" "$SRCDIR/include" "$tmp/t/" || { echo "not ok $n - $name: copy"; fail=$((fail + 1)); return; }
	printf '%s\n' "$line" >>"$tmp/t/$file"
	out=$(SRCDIR="$tmp/t" bash "$style" 2>&1)
	rc=$?
	if [ -z "$expect" ]; then
		if [ $rc -eq 0 ]; then echo "ok $n - $name"; else
			echo "not ok $n - $name: style.sh failed on an allowed include"
			printf '%s\n' "$out" | sed 's/^/# /'; fail=$((fail + 1)); fi
	elif [ $rc -ne 0 ] && grep -q "^not ok $num " <<<"$out" && grep -qF -- "$expect" <<<"$out"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name: expected exit 1 and '# $expect', got exit $rc"
		printf '%s\n' "$out" | sed 's/^/# /'; fail=$((fail + 1))
	fi
}
echo "1..7"
case_ "control: cmd may include tui and in" src/cmd/cmd.c \
	'#include "ecsprof/tui.h"' ""
case_ "base including a tui header fails" src/base/err.c \
	'#include "ecsprof/tui.h"' "src/base/err.c:$(($(wc -l <"$SRCDIR/src/base/err.c") + 1)): base includes ecsprof/tui.h (tui)"
case_ "model including an aws header (a sibling, not below) fails" src/model/task.c \
	'#include "ecsprof/ecs.h"' "model includes ecsprof/ecs.h (aws)"
case_ "a base public header including a model header fails" include/ecsprof/strset.h \
	'#include "ecsprof/task.h"' "include/ecsprof/strset.h:"
case_ "a header of another folder by path fails" src/out/csv.c \
	'#include "../in/input_int.h"' 'includes "../in/input_int.h" by path'
case_ "an unknown ecsprof header is in no layer" src/cmd/cmd.c \
	'#include "ecsprof/nosuchmodule.h"' "ecsprof/nosuchmodule.h (in no layer)"
case_ "two headers including each other fail" include/ecsprof/strset.h \
	'#include "ecsprof/log.h"' "include/ecsprof/log.h -> include/ecsprof/strset.h -> include/ecsprof/log.h" 6
exit $((fail > 0))
