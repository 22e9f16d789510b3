#!/usr/bin/env bash
# House rules a compiler does not check: banned C functions, the one-curses-includer /
# jansson-at-the-edges boundaries, the include layering of src/README.md and no include
# cycle among the headers. Prints TAP.
# SRCDIR is the tree to check (tests/style_fails.sh runs it on a broken copy).
set -u
: "${SRCDIR:?}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$SRCDIR" || exit 1
n=0 fail=0
# STYLE_ONLY="N...": run only those checks, the others pass as SKIP (style_fails.sh's
# object cases need only the graph checks, and the layering loop is slow on a busy machine)
want() { [ -z "${STYLE_ONLY:-}" ] || [[ " $STYLE_ONLY " == *" $1 "* ]]; }
check() {
	n=$((n + 1))
	if ! want $n; then echo "ok $n - $1 # SKIP"; return; fi
	if [ -z "$2" ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"; printf '%s\n' "$2" | sed 's/^/# /'; fail=$((fail + 1)); fi
}
echo "1..8"
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

# Layering: a file in src/X/ (and a public header whose module lives in src/X/) includes
# only ecsprof/ headers of X and of the layers below it. The same graph as src/README.md's
# "(uses ...)" and meson.build's link_with, so an upward include fails here even where it
# would still link (a macro, an inline, a struct).
declare -A layer_uses=(
	[base]="base"
	[aws]="aws base"
	[model]="model base"
	[in]="in model aws base"
	[out]="out model base"
	[tui]="tui model base"
	[cmd]="cmd tui out in model aws base"
)
# public headers not named after a .c of their module
declare -A header_layer=([app]=cmd [image_io]=in [rowtab]=model [sink]=out [report_cols]=model [memeq]=base)
# the layer of ecsprof/NAME.h: its table entry, else the folder of src/*/NAME.c (one pass
# over the tree here: a lookup per include line, each forking sed and globbing, made this
# check take 24 s, and style_fails runs it once per case)
for c in src/*/*.c; do
	name=${c##*/}
	name=${name%.c}
	[ -n "${header_layer[$name]:-}" ] && continue
	dir=${c#src/}
	header_layer[$name]=${dir%%/*}
done
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)"'
layering=$(want 5 || exit 0
	for f in src/*/*.[ch] include/ecsprof/*.h; do
		case $f in
		src/*) l=${f#src/}; l=${l%%/*} ;;
		*) h=${f##*/}; l=${header_layer[${h%.h}]:-} ;;
		esac
		if [ -z "${layer_uses[$l]:-}" ]; then
			echo "$f: in no layer of src/README.md (no src/*/$(basename "$f" .h).c; add it to header_layer in tests/style.sh)"
			continue
		fi
		lineno=0
		while IFS= read -r line || [ -n "$line" ]; do
			lineno=$((lineno + 1))
			[[ $line =~ $include_re ]] || continue
			inc=${BASH_REMATCH[1]}
			case $inc in
			ecsprof/*/*) echo "$f:$lineno: includes \"$inc\" (no such layer path)" ;;
			ecsprof/*.h)
				h=${inc#ecsprof/}; h=${h%.h}
				hl=${header_layer[$h]:-}
				case " ${layer_uses[$l]} " in
				*" ${hl:-?} "*) ;;
				*) echo "$f:$lineno: $l includes $inc (${hl:-in no layer}), an upward include" ;;
				esac ;;
			*/*) echo "$f:$lineno: includes \"$inc\" by path: a header of another folder goes in include/ecsprof/" ;;
			esac
		done <"$f"
	done
)
check "includes follow the layers (src/README.md): each folder includes only its own and lower layers' headers" "$layering"

# No include cycle among the headers (issue 9: creds.c and creds_sso.c once included each
# other): a header's "..." includes, ecsprof/NAME.h or beside it, form a graph without a
# cycle. One cycle is printed per line, as the chain of headers.
cycles=$(python3 - <<'PY'
import glob, os, re
heads = glob.glob("include/ecsprof/*.h") + glob.glob("src/*/*.h")
graph = {}
for h in heads:
    deps = []
    with open(h, errors="replace") as f:
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', f.read(), re.M):
            for cand in (os.path.join("include", inc), os.path.join(os.path.dirname(h), inc)):
                if os.path.isfile(cand):
                    deps.append(os.path.normpath(cand))
                    break
    graph[os.path.normpath(h)] = deps
state, seen = {}, set()
def visit(u, path):
    state[u] = 1
    path.append(u)
    for v in graph.get(u, []):
        if state.get(v) == 1:
            cyc = path[path.index(v):]
            key = frozenset(cyc)
            if key not in seen:
                seen.add(key)
                print(" -> ".join(cyc + [v]))
        elif v in graph and not state.get(v):
            visit(v, path)
    path.pop()
    state[u] = 2
for h in sorted(graph):
    if not state.get(h):
        visit(h, [])
PY
)
check "no include cycle among the headers" "$cycles"

# No cycle between the .c files (issue 32 item 7): not by includes (A.c or A's header
# includes B's header), not by calls (A's object needs a symbol B's defines: nm of the
# build's objects, BUILDDIR). A file that calls back into its caller is one concern split
# in two, or two concerns tangled. known_cycles are the ones not broken yet, each a set of
# files: a cycle inside one of them is listed (as a "known" line) but passes; any other
# fails. The list only shrinks; it is empty: every layer's files form a DAG.
: "${BUILDDIR:?BUILDDIR: the build directory, whose objects give the call graph}"
known_cycles='
'
graph=$(python3 "$here/style_graph.py" cycles "$BUILDDIR" <(printf '%s\n' "$known_cycles") 2>&1)
if [ $? -eq 0 ]; then
	check "no include or call cycle between the .c files" ""
	[ -z "$graph" ] || printf '%s\n' "$graph" | sed 's/^/# /'
else
	check "no include or call cycle between the .c files" "$graph"
fi

# No process-wide mutable state (issue 32 item 4): no writable static or global in any
# object of src/ (objdump: .data, .bss and the thread-locals), but for what a signal
# handler reads or writes, in the files that handle signals (and the symbol named).
# process_allow: state that is process-wide by a library's own design, each with its why.
# not_yet: the ones still to be passed as a context, each "FILE [SYMBOL...]"; it only shrinks
# (empty since log's level and sink became a struct log passed in: keep it so).
signal_allow='
src/base/atomicfile.c slots slots_lock old_int old_term
src/cmd/experiment_signal.c
src/cmd/watch.c watch_sigint
src/tui/tui_term.c got_sigint
src/tui/tui_experiment.c restore_len restore_seq saved_tio saved_tio_ok
'
# curl_global_init() sets up libcurl (and OpenSSL) for the whole process, is not
# thread-safe and must run once per process before any handle: a pthread_once guard and its
# result are the one correct shape for it, whatever context the transports are made in.
process_allow='
src/aws/http_curl.c global_rc global_once
'
not_yet='
'
statics=$(python3 "$here/style_graph.py" statics "$BUILDDIR" <(printf '%s\n%s\n%s\n' "$signal_allow" "$process_allow" "$not_yet") 2>&1)
check "no writable static outside signal handling" "$statics"
exit $((fail > 0))
