#!/usr/bin/env bash
# TAP (issue 30 item 3): scripts/build says what it does before it compiles (one line,
# "building build/ecsprof (first build: about a minute) ..."), and shows ninja's progress
# when standard output is a terminal (script(1) gives it one), not in a pipe. meson, ninja
# and scripts/deps are stand-ins here: the test builds nothing.
set -u
SRCDIR=${SRCDIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/repo/scripts" "$tmp/bin"
cp "$SRCDIR/scripts/build" "$tmp/repo/scripts/build"
printf '#!/bin/sh\nexit 0\n' >"$tmp/repo/scripts/deps"
# meson setup writes DIR/build.ninja; ninja prints its progress as the real one does
printf '#!/bin/sh\n[ "$1" = setup ] && mkdir -p "$2" && : >"$2/build.ninja"\nexit 0\n' >"$tmp/bin/meson"
printf '#!/bin/sh\necho "ninja: Entering directory \\`$2'"'"'"\necho "[1/2] Compiling C object src/a.c.o"\necho "[2/2] Linking target ecsprof"\n' >"$tmp/bin/ninja"
chmod +x "$tmp/repo/scripts/build" "$tmp/repo/scripts/deps" "$tmp/bin/meson" "$tmp/bin/ninja"
n=0
bad=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; bad=1; sed 's/^/#   /' "$tmp/out"; fi
}
echo "1..4"
PATH="$tmp/bin:$PATH" "$tmp/repo/scripts/build" >"$tmp/out" 2>&1
check "a first build says so in one line before compiling" \
	"[ \"\$(head -1 $tmp/out)\" = 'building build/ecsprof (first build: about a minute) ...' ]"
check "in a pipe, no progress lines" "! grep -q '^\[1/2\]' $tmp/out"
PATH="$tmp/bin:$PATH" script -qec "$tmp/repo/scripts/build" /dev/null >"$tmp/out" 2>&1
check "an incremental build says what it builds" "head -1 $tmp/out | grep -q '^building build/ecsprof \.\.\.'"
check "on a terminal, ninja's progress" "grep -q '\[1/2\] Compiling' $tmp/out"
exit $bad
