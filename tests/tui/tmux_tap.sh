# Sourced by the tmux tests of the terminal UI: TAP counters and the pane they read.
# The sourcing script sets SOCK (its own tmux server) first, may redefine screen(), and
# names its session "t". N and FAILED count the checks.
N=0
FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $1"; }
# a failed check shows the screen it saw
nok() {
	N=$((N + 1)); FAILED=1
	echo "not ok $N - $1"
	echo "# screen:"; screen | sed 's/^/#   /'
}
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
screen() { tm capture-pane -p -t t 2>/dev/null; }
# Waits until the screen matches an extended regex (up to 5 s).
wait_for() {
	for _ in $(seq 1 50); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
keys() { tm send-keys -t t "$@"; sleep 0.3; }
cleanup() { tm kill-server 2>/dev/null; }
trap cleanup EXIT
# A missing tmux fails the test (CI installs it), never skips it.
if ! command -v tmux >/dev/null; then
	echo "not ok 1 - tmux is not installed (apt-get install tmux)"
	exit 1
fi
