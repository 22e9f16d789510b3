#!/usr/bin/env bash
# tests/style.sh's layering check can fail: each case copies src/ and include/ into a
# temporary tree, breaks one rule of src/README.md's layers, and expects style.sh to exit
# non-zero naming the offending line; a control case with an allowed include must pass.
# Prints TAP.
set -u
: "${SRCDIR:?}"
: "${BUILDDIR:?BUILDDIR: the build directory (its objects give the call graph)}"
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
	out=$(SRCDIR="$tmp/t" BUILDDIR="${objdir:-$BUILDDIR}" STYLE_ONLY="${STYLE_ONLY:-}" bash "$style" 2>&1)
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
# obj_case NAME EXPECT CHECK FILE=SOURCE...: the build's objects copied, plus an object
# compiled from each SOURCE as meson names src/base/FILE's; style.sh must fail check CHECK
# naming EXPECT (the tree itself unchanged)
obj_case() {
	local name=$1 expect=$2 num=$3 d o
	shift 3
	rm -rf "$tmp/b" && mkdir -p "$tmp/b" || return
	for d in "$BUILDDIR"/*.a.p; do
		mkdir -p "$tmp/b/${d##*/}" && cp "$d"/src_*.o "$tmp/b/${d##*/}/" 2>/dev/null
	done
	for o in "$@"; do
		printf '%s\n' "${o#*=}" >"$tmp/${o%%=*}.c"
		${CC:-cc} -c -fPIC -o "$tmp/b/libecsprof_base.a.p/src_base_${o%%=*}.c.o" "$tmp/${o%%=*}.c" ||
			{ n=$((n + 1)); echo "not ok $n - $name: cc"; fail=$((fail + 1)); return; }
	done
	objdir="$tmp/b" STYLE_ONLY="$num" case_ "$name" src/base/err.c "" "$expect" "$num"
}
echo "1..12"
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
# issue 32 item 7: a cycle between .c files, by includes or by calls
STYLE_ONLY=7 case_ "two .c files including each other's headers fail" src/base/xalloc.c \
	'#include "ecsprof/buf.h"' "include cycle: src/base/buf.c src/base/xalloc.c" 7
obj_case "two .c files calling each other fail" "call cycle: src/base/planta.c src/base/plantb.c" 7 \
	'planta=void plantb(void); void planta(void) { plantb(); }' \
	'plantb=void planta(void); void plantb(void) { planta(); }'
# issue 32 item 4: process-wide mutable state outside signal handling
obj_case "a writable static at file scope fails" "src/base/plantd.c: writable static counter" 8 \
	'plantd=static int counter; int plantd(void) { return ++counter; }'
obj_case "a static inside a function fails" "src/base/plante.c: writable static prev" 8 \
	'plante=int plante(int v) { static int prev; int r = prev; prev = v; return r; }'
obj_case "a thread-local fails" "src/base/plantf.c: writable static arena" 8 \
	'plantf=static _Thread_local void *arena; void *plantf(void) { return arena; }'
exit $((fail > 0))
