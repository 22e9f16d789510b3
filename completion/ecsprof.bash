# bash completion for ecsprof(1): the commands, each command's own options, the values of
# --format, --group-by, --status, --time-format (and every other option with choices) and
# file names. Nothing is listed here: the binary answers (`ecsprof __complete`), so a new
# command or option completes by itself. Installed by `meson install` where
# bash-completion looks (DATADIR/bash-completion/completions/ecsprof).

# The VALUES column of option $2 in the table $1 ("NAME<TAB>VALUES" lines).
_ecsprof_values() {
	local line
	while IFS= read -r line; do
		if [[ ${line%%$'\t'*} == "$2" ]]; then
			printf '%s\n' "${line#*$'\t'}"
			return
		fi
	done <<<"$1"
}

# Completes $cur as a value of an option whose VALUES are $1 (with $2 before each: "--x=").
_ecsprof_value_of() {
	local v
	case $1 in
	FILE)
		compopt -o filenames 2>/dev/null
		while IFS= read -r v; do COMPREPLY+=("$2$v"); done < <(compgen -f -- "$cur")
		;;
	'?' | - | '') ;;
	*)
		for v in $(compgen -W "$1" -- "$cur"); do COMPREPLY+=("$2$v"); done
		# "tag:" goes on with the tag's name
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
		;;
	esac
}

_ecsprof() {
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=""
	local cmd="" all table commands values w i
	COMPREPLY=()
	((COMP_CWORD > 1)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	all=$("$prog" __complete options 2>/dev/null) || return 0
	commands=$("$prog" __complete commands 2>/dev/null)
	# the command word: the first that is neither an option nor an option's value
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -* ]]; then
			values=$(_ecsprof_values "$all" "$w")
			# its value is the next word, or the one after "=" (a word of its own
			# when COMP_WORDBREAKS holds "=", as by default)
			[[ $w != *=* && -n $values && $values != - ]] && ((i++))
			[[ ${COMP_WORDS[i]} == = ]] && ((i++))
		elif [[ -z $cmd ]]; then
			cmd=$w
		fi
	done
	# the value of an option: "--format c" or "--format=c"
	if [[ $cur == --*=* ]]; then
		w=${cur%%=*}
		cur=${cur#*=}
		_ecsprof_value_of "$(_ecsprof_values "$all" "$w")" ""
		return 0
	fi
	[[ $prev == = ]] && ((COMP_CWORD > 2)) && prev=${COMP_WORDS[COMP_CWORD - 2]}
	if [[ $prev == -* ]]; then
		values=$(_ecsprof_values "$all" "$prev")
		if [[ -n $values && $values != - ]]; then
			_ecsprof_value_of "$values" ""
			return 0
		fi
	fi
	if [[ $cur == -* ]]; then
		table=$("$prog" __complete options "$cmd" 2>/dev/null)
		COMPREPLY=($(compgen -W "$(cut -f1 <<<"$table")" -- "$cur"))
	elif [[ -z $cmd || ($cmd == help && $prev == help) ]]; then
		COMPREPLY=($(compgen -W "$(cut -f1 <<<"$commands")" -- "$cur"))
	elif [[ $(_ecsprof_values "$commands" "$cmd") == FILE ]]; then
		_ecsprof_value_of FILE ""
	fi
	return 0
}
complete -F _ecsprof ecsprof
