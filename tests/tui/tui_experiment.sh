#!/usr/bin/env bash
# `ecsprof experiment` on a terminal (issue 13, What to build 2): while the tasks start,
# the arms side by side in a tmux pane, filling in as RunTask starts them and as each
# reaches RUNNING, against the fake ECS server (tests/fake_ecs.py) on a clock 8x real time
# (soci's tasks are RUNNING after about 4 s, no-soci's after about 13 s); a RunTask
# failure's warning on the view and again after it; the normal screen and the summary
# back at the end; stacked arms on a narrow pane; Ctrl-C in the view stops every task and
# gives the terminal back; without --yes the question, and 'n' launches nothing;
# ECSPROF_EXPERIMENT_LINES keeps the one progress line instead of the view. Prints TAP.
set -u
export LC_ALL=C.UTF-8   # ${#line} counts characters, not bytes

ECSPROF=${ECSPROF:?ECSPROF must name the ecsprof binary}
SRCDIR=${SRCDIR:?SRCDIR must name the source tree}
SOCK="ecsprof-tui-experiment-$$"
TMP=$(mktemp -d)

echo "1..17"

. "$SRCDIR/tests/tui/tmux_tap.sh"

# the whole pane with its scrollback: what is left once the view has gone
full() { tm capture-pane -p -J -S -400 -t t 2>/dev/null; }
widest() {
	local w=0 l
	while IFS= read -r l; do [ ${#l} -gt $w ] && w=${#l}; done < <(screen)
	echo $w
}
wait_long() {   # up to $2 seconds for the regex $1 anywhere in the pane's history
	for _ in $(seq 1 $(($2 * 10))); do
		full | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

cat >"$TMP/scenario.json" <<'EOF'
{"speed": 8, "credentials": {"AKIDFAKE": "fakesecret"},
 "clusters": {"prod": {"tasks": []}, "narrow": {"tasks": []}, "no": {"tasks": []},
              "lines": {"tasks": []}},
 "runTaskFailures": [{"taskDefinition": "checkout-api:8", "count": 1, "reason": "RESOURCE:MEMORY"}],
 "taskDefinitions": {
  "checkout-api:7": {"provision": [18.2, 24.7, 21.3, 27.9], "pull": [71.4, 65.2, 78.9, 69.3],
                     "start": [4.1, 3.6, 5.2, 4.4], "cpu": "512", "memory": "1024"},
  "checkout-api:8": {"provision": [20.4, 22.8, 18.9, 26.1], "pull": [2.8, 3.9, 2.1, 4.4],
                     "start": [7.2, 6.1, 8.4, 6.8], "cpu": "512", "memory": "1024"}}}
EOF
python3 "$SRCDIR/tests/fake_ecs.py" --scenario "$TMP/scenario.json" >"$TMP/port" 2>"$TMP/fake.err" &
FAKE=$!
for _ in $(seq 1 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
PORT=$(head -1 "$TMP/port")
cleanup() { tm kill-server 2>/dev/null; kill "$FAKE" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

STARTS=0
start() {   # $1: COLSxLINES, $2: cluster, the rest: more ecsprof arguments
	local size=$1 cluster=$2; shift 2
	tm kill-server 2>/dev/null
	STARTS=$((STARTS + 1))
	SOCK="ecsprof-tui-experiment-$$-$STARTS"
	tm new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
		"cd '$TMP' && env -u AWS_PROFILE ${EXTRA_ENV:-} LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=xterm-256color AWS_ACCESS_KEY_ID=AKIDFAKE AWS_SECRET_ACCESS_KEY=fakesecret AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_ENDPOINT_URL_ECR=http://127.0.0.1:9 AWS_ENDPOINT_URL_STS=http://127.0.0.1:9 AWS_ENDPOINT_URL_SSO=http://127.0.0.1:9 $ECSPROF experiment --cluster $cluster --arm no-soci=checkout-api:7 --arm soci=checkout-api:8 -n 4 --subnets subnet-1 -o $cluster.jsonl --endpoint-url http://127.0.0.1:$PORT --region us-east-1 --interval 0.5 --no-images $* ; echo EXIT=\$?; sleep 60"
	tm set-option -t t history-limit 2000 >/dev/null 2>&1
}

# ---- the question on a terminal: n launches nothing ----
start 100x30 no --id tt0
wait_for 'Launch these 8 tasks\? \[y/N\]'
check "without --yes, on a terminal: the plan, then 'Launch these 8 tasks? [y/N]'" \
	"screen | grep -q '^experiment tt0 on cluster no (us-east-1): 2 arms x 4 tasks = 8 tasks' && screen | grep -q 'Launch these 8 tasks? \[y/N\]'"
keys n Enter
wait_for 'EXIT='
NO=$(python3 -c "import json,urllib.request;print(len(json.load(urllib.request.urlopen('http://127.0.0.1:$PORT/_fake/state/no'))['tasks']))")
check "answered n: 'not confirmed; nothing launched', exit 2, no task ($NO)" \
	"screen | grep -q 'experiment: not confirmed; nothing launched' && screen | grep -q 'EXIT=2' && [ '$NO' = 0 ]"

# ---- 120x40: answered y, the arms side by side ----
start 120x40 prod --id tt1
wait_for 'Launch these 8 tasks'
keys y Enter
wait_for 'ecsprof experiment tt1 · cluster prod · waiting for each task to be RUNNING \(at most 10m\)'
check "the view opens on the terminal: id, cluster, what it waits for and the --timeout" \
	"screen | head -1 | grep -q 'ecsprof experiment tt1 · cluster prod · waiting for each task to be RUNNING (at most 10m)'"
check "the arms side by side: both headers on one line, a rule between them" \
	"screen | grep -Eq '^no-soci  checkout-api:7 +│ soci  checkout-api:8'"
wait_for 'RUNNING'
# soci's tasks are RUNNING while no-soci's still pull: the rows fill in arm by arm
for _ in $(seq 1 100); do
	screen | grep -Eq 'pulling .*│ .*RUNNING' && break
	sleep 0.1
done
check "rows fill in: a no-soci task still pulling beside a soci task RUNNING, on one line" \
	"screen | grep -Eq '^ +[0-9] .*pulling .*│ +[0-9] .*RUNNING +[0-9.]+s\$'"
check "each arm counts its tasks: 4/4 launched, and soci's running ones" \
	"screen | grep -Eq '4/4 launched .*│ 4/4 launched · [1-4] running'"
check "the RunTask failure (retried) is a warning line under the arms" \
	"screen | grep -q 'warning: RunTask soci (checkout-api:8): RESOURCE:MEMORY'"
check "no line of the view is wider than the terminal (120)" "[ \$(widest) -le 120 ]"
wait_long 'EXIT=' 40
check "at the end the normal screen is back: the summary by arm and exit 0" \
	"full | grep -q '^GROUP soci: 4 tasks' && full | grep -q '^total .* (p=0.11 n=4+4)' && full | grep -q 'EXIT=0' && ! screen | grep -q 'Ctrl-C: stop every task'"
check "the view's last state stays as one line, and its warning is repeated after it" \
	"full | grep -Eq '^\\[ *[0-9]+s\\] no-soci 4/4: 4 running \\| soci 4/4: 4 running' && full | grep -q '^ecsprof: warning: RunTask soci (checkout-api:8): RESOURCE:MEMORY'"
check "every task was stopped (the summary's launch lines)" \
	"full | grep -q 'arm no-soci (checkout-api:7): 4 of 4 launched, 4 reached RUNNING' && full | grep -q 'arm soci (checkout-api:8): 4 of 4 launched, 4 reached RUNNING'"

# ---- 50x30: too narrow for two columns; Ctrl-C in the view ----
start 50x30 narrow --id tt2 --yes --interval 6
wait_for 'ecsprof experiment tt2'
wait_for 'soci  checkout-api:8'
# polls every 6 s, but the clock in the title moves every second
# (sampled for 4.5 s, less than one interval: three different titles need two redraws
# between polls; sampling, not two fixed instants, so a loaded machine's late frame passes)
TITLES=$(for _ in $(seq 1 15); do screen | head -1; sleep 0.3; done | uniq)
check "between two polls (--interval 6) the view is redrawn every second: $(printf '%s' "$TITLES" | tr '\n' '|')" \
	"[ \$(printf '%s\n' \"\$TITLES\" | sort -u | wc -l) -ge 3 ]"
check "50 columns: the arms one under the other, each header on its own line" \
	"screen | grep -q '^no-soci  checkout-api:7' && screen | grep -q '^soci  checkout-api:8' && ! screen | grep -q '│'"
check "50 columns: no line wider than the terminal" "[ \$(widest) -le 50 ]"
keys C-c
wait_long 'EXIT=' 30
check "Ctrl-C in the view: it closes, says it stops the tasks, and the run exits 1" \
	"full | grep -q \"warning: Ctrl-C: stopping the experiment's tasks\" && full | grep -q 'EXIT=1' && ! screen | grep -q 'Ctrl-C: stop every task'"

STATE=$(python3 -c "import json,urllib.request;print(json.dumps([t['desiredStatus'] for t in json.load(urllib.request.urlopen('http://127.0.0.1:$PORT/_fake/state/narrow'))['tasks'] if t['tags'].get('ecsprof:arm')]))")
check "Ctrl-C in the view: every task it started is stopped ($STATE)" \
	"python3 -c \"import json,sys; s=json.loads(sys.argv[1]); sys.exit(not s or any(x != 'STOPPED' for x in s))\" '$STATE'"

# ---- ECSPROF_EXPERIMENT_LINES: on a terminal, the one progress line instead of the view ----
EXTRA_ENV=ECSPROF_EXPERIMENT_LINES=1 start 100x30 lines --id tt3 --yes
wait_for '^\[ *[0-9]+s\] no-soci [0-9]/4'
check "ECSPROF_EXPERIMENT_LINES=1: the plan stays on the screen and one progress line follows it, no view" \
	"screen | grep -q '^experiment tt3 on cluster lines' && screen | grep -Eq '^\[ *[0-9]+s\] no-soci [0-9]/4' && ! screen | grep -q 'waiting for each task'"
wait_long 'EXIT=' 40
exit $FAILED
