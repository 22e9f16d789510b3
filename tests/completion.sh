#!/usr/bin/env bash
# TAP (issue 30 item 6): the bash and zsh completions (completion/), sourced in bash and in
# zsh as a shell would: the commands, each command's own options, the values of --format,
# --group-by, --status and --time-format, file names, and an option's value skipped when
# the command word is looked for. zsh's completion system is stood in for by compadd and
# _files printing what they are given. Their lists come from `ecsprof __complete`, which
# this test checks against each command's --help (the one option table).
set -u
: "${ECSPROF:?}" "${SRCDIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data" && : >"$tmp/data/tasks.json" && : >"$tmp/data/other.csv"
cd "$tmp/data" || exit 1
n=0
bad=0
ok() {   # name, expected words (blank-separated, sorted), got words
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "#   want: $2"
		echo "#   got:  $3"
		bad=1
	fi
}
has() {  # name, words that must be among the got words, got words
	n=$((n + 1))
	local w missing=""
	for w in $2; do
		case " $3 " in *" $w "*) ;; *) missing="$missing $w" ;; esac
	done
	if [ -z "$missing" ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"; echo "#   missing:$missing"; echo "#   got: $3"; bad=1; fi
}
lacks() {  # name, words that must not be among the got words, got words
	n=$((n + 1))
	local w found=""
	for w in $2; do
		case " $3 " in *" $w "*) found="$found $w" ;; esac
	done
	if [ -z "$found" ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"; echo "#   found:$found"; bad=1; fi
}
words() { tr '\n' ' ' | tr -s ' ' | sed 's/^ //; s/ $//'; }
sorted() { tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//'; }

# the words a completion offers for a command line whose last word is being typed
in_bash() {
	bash --norc -c 'source "$1" || exit 1; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _ecsprof
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SRCDIR/completion/ecsprof.bash" "$ECSPROF" "$@" |
		words
}
in_zsh() {
	zsh -f -c '
		compadd() {
			while [[ $# -gt 0 && $1 == -* && $1 != -- ]]; do
				[[ $1 == -[SPXJ] ]] && shift; shift; done
			[[ $1 == -- ]] && shift
			# zsh keeps the matches of the word typed so far
			local m=(${(M)@:#${words[CURRENT]}*}); (( $#m )) && print -l -- $m; return 0; }
		_files() { print -l -- ${words[CURRENT]}*(N); }
		_message() { :; }
		compset() { :; }
		f=$1; shift; words=("$@"); CURRENT=$#words; source "$f"' \
		_ "$SRCDIR/completion/_ecsprof" "$ECSPROF" "$@" | words
}

echo "1..30"
for sh in bash zsh; do
	c=in_$sh
	ok "$sh: the commands" "check diff experiment help images record report scaleout tasks watch" \
		"$($c "" | sorted)"
	ok "$sh: a command's prefix" "record report" "$($c re | sorted)"
	got=$($c report --)
	has "$sh: report's options" "--summary --group-by --format --output --time-format --help" "$got"
	lacks "$sh: ... and not those of watch or experiment" "--interval --count --arm --image" "$got"
	has "$sh: watch's options" "--interval --count --record" "$($c watch --)"
	ok "$sh: --format's values" "csv html json markdown table tui xlsx" "$($c report --format "" | sorted)"
	has "$sh: --group-by's values" "taskdef family soci az tag:" "$($c report --group-by "")"
	ok "$sh: --status's values" "all running stopped" "$($c tasks --status "" | sorted)"
	ok "$sh: --time-format's values" "epoch iso spreadsheet" "$($c report --time-format "" | sorted)"
	ok "$sh: report's FILE arguments are file names" "other.csv tasks.json" \
		"$($c report --summary "" | sorted)"
	ok "$sh: -o FILE completes a file name" "tasks.json" "$($c tasks -o ta)"
	ok "$sh: an option's value is not the command word" "record report" \
		"$($c --cluster prod re | sorted)"
	ok "$sh: help COMMAND" "watch" "$($c help wa)"
done
ok "bash: --format=VALUE" "csv" "$(in_bash report --format=cs)"
ok "bash: --format=VALUE, '=' a word of its own (COMP_WORDBREAKS)" "csv" \
	"$(in_bash report --format = cs)"
ok "bash: ... and not taken for the command word" "--summary" "$(in_bash report --format = csv --summ)"

# the lists are the binary's own: each command's options as its --help lists them
for cmd in $("$ECSPROF" __complete commands | cut -f1 | grep -v '^help$'); do
	want=$("$ECSPROF" "$cmd" --help | grep -oE '^  (-[a-zA-Z], )?    --[a-z-]+|^  -[a-zA-Z], --[a-z-]+' |
		grep -oE -- '--[a-z-]+' | sort | tr '\n' ' ')
	got=$("$ECSPROF" __complete options "$cmd" | cut -f1 | grep -- '^--' | sort | tr '\n' ' ')
	[ "$want" = "$got" ] || { echo "# $cmd: --help lists $want; completion $got"; bad=1; }
done

# meson install puts them where bash-completion and zsh look
inst=$(meson introspect "${BUILDDIR:-$SRCDIR/build}" --installed 2>/dev/null)
case $inst in
*'/bash-completion/completions/ecsprof"'*'/zsh/site-functions/_ecsprof"'* | \
*'/zsh/site-functions/_ecsprof"'*'/bash-completion/completions/ecsprof"'*)
	echo "ok 30 - meson install: DATADIR/bash-completion/completions/ecsprof, DATADIR/zsh/site-functions/_ecsprof" ;;
*) echo "not ok 30 - meson install puts the completions where the shells look"; echo "# $inst"; bad=1 ;;
esac
exit $bad
