#!/usr/bin/env bash
# House rules a compiler does not check: banned C functions, and the one-curses-includer /
# jansson-at-the-edges boundaries. Prints TAP.
set -u
: "${SRCDIR:?}"
cd "$SRCDIR" || exit 1
n=0 fail=0
check() {
	n=$((n + 1))
	if [ -z "$2" ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"; printf '%s\n' "$2" | sed 's/^/# /'; fail=$((fail + 1)); fi
}
echo "1..4"
# word-boundary match on a call, outside comments' typical "/* ... */" lines
banned=$(grep -nE '\b(strcpy|strcat|sprintf|vsprintf|strtok|atoi|atol|gmtime|localtime|gets)[[:space:]]*\(' \
	src/*/*.c src/*/*.h include/ecsprof/*.h | grep -vE '^[^:]+:[0-9]+:\s*(/\*|\*)' || true)
check "no banned functions (strcpy strcat sprintf strtok atoi gmtime localtime gets)" "$banned"
curses=$(grep -lE '#include [<"](n?curses|ncursesw/)' src/*/*.c src/*/*.h include/ecsprof/*.h | grep -vE '^src/tui/tui[^/]*\.c$' || true)
check "only src/tui/tui*.c include curses" "$curses"
jansson=$(grep -l '#include <jansson.h>' include/ecsprof/*.h || true)
check "no public header exposes jansson (json_t stays inside its module)" "$jansson"
config_h=$(ls include/ecsprof/config.h src/*/config.h 2>/dev/null || true)
check "no header named config.h" "$config_h"
exit $((fail > 0))
