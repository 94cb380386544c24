#!/bin/sh
# interactive.sh - drive ptxdbg's REPL in a real terminal (tmux): editing, history, completion, repeat, Ctrl-C.
# Usage: sh tests/interactive.sh [PTXDBG]        (default $PTXDBG, else ./ptxdbg)
# VALGRIND="valgrind ..." runs ptxdbg under it (with longer timeouts).
#
# ptxdbg runs inside a detached tmux session on a private socket with a fixed window size,
# HOME, INPUTRC and PTXDBG_HISTORY pointing into a scratch directory (the user's files are
# never read or written). Keys go in with `tmux send-keys`; the screen comes back with
# `tmux capture-pane -p`. Every wait is a polling loop with a timeout.
# One line per case, "PASS name" or "FAIL name: reason"; last line
# "interactive: N passed, N failed"; exit status 1 when a case failed. Without tmux the script
# prints a SKIP line and exits 0.

ptxdbg=${1:-${PTXDBG:-./ptxdbg}}
top=$(cd "$(dirname "$0")/.." && pwd)
case $ptxdbg in
    /*) ;;
    *) ptxdbg=$(pwd)/$ptxdbg ;;
esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP interactive: tmux is not installed (make deps installs it)"
    echo "interactive: 0 passed, 0 failed"
    exit 0
fi
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxdbg-tty.XXXXXX") || { echo "interactive: cannot create a temp dir"; exit 1; }
nsess=0
sock=$tmp/tmux.0
T() { tmux -S "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1; rm -rf "$tmp"' 0
trap 'exit 2' INT TERM HUP

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL $1: $2"
    failed=$((failed + 1))
    echo "--- screen:"; T ls 2>&1 | sed "s|^|    tmux: |"
    snap | tail -n 15 | sed 's/^/    /'
    echo "---"
}

if [ ! -x "$ptxdbg" ]; then
    echo "FAIL setup: ptxdbg not found at $ptxdbg (build it with make)"
    echo "interactive: 0 passed, 1 failed"
    exit 1
fi

mkdir -p "$tmp/home"
hist=$tmp/history

# start ARGS...: a fresh tmux server (own socket) running ptxdbg ARGS in the repository; when
# ptxdbg exits the pane shows "[exit STATUS]" and stays open. The wrapper shell catches SIGINT
# so a Ctrl-C meant for ptxdbg does not end it.
start() {
    T kill-server >/dev/null 2>&1
    nsess=$((nsess + 1))
    sock=$tmp/tmux.$nsess
    T new-session -d -s dbg -x 160 -y 50 -c "$top" \
        env HOME="$tmp/home" INPUTRC=/dev/null PTXDBG_HISTORY="$hist" PTXDBG_HISTSIZE="${HISTSIZE_FOR_TEST:-}" \
        ${RL_FOR_TEST+PTXDBG_READLINE=$RL_FOR_TEST} \
        sh -c 'trap : INT; "$@"; echo "[exit $?]"; exec cat' sh ${VALGRIND:-} "$ptxdbg" -q "$@"
    base=1
    cmd_base=0
}

# The whole pane (scrollback included) without trailing blank lines.
snap() {
    T capture-pane -p -S - -t dbg 2>/dev/null |
        awk '{ l[NR] = $0; if ($0 != "") last = NR } END { for (i = 1; i <= last; i++) print l[i] }'
}
# mark: what is on screen now is old; `since` shows from the current (prompt) line on.
mark() { base=$(snap | wc -l); [ "$base" -gt 0 ] || base=1; }
since() { snap | tail -n +"$base"; }
lastline() { snap | tail -n 1; }

# poll CMD... until it succeeds, for at most $limit tenths of a second (default 300; times 10
# under valgrind). A poll returns as soon as CMD succeeds, so the generous bound costs nothing
# when the screen is right and only keeps a loaded machine from failing a case.
scale=1
if [ -n "${VALGRIND:-}" ]; then
    scale=10
    case $VALGRIND in
        *valgrind*) VALGRIND="$VALGRIND --suppressions=$top/tests/fixtures/interactive/readline.supp" ;;
    esac
fi
poll() {
    i=0
    while [ "$i" -lt $((${limit:-300} * scale)) ]; do
        "$@" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
has() { since | grep -F -q -- "$1"; }
count_is_at_least() { [ "$(since | grep -F -c -- "$1")" -ge "$2" ]; }
# idle: an empty prompt is the last line, and after `cmd` it is a new one: the screen has grown
# past the mark (right after typing, the old prompt is still the last line until the terminal
# shows the typed line; a loaded machine shows it late).
idle() { [ "$(lastline)" = "(ptxdbg)" ] && [ "$(snap | wc -l)" -gt "${cmd_base:-0}" ]; }
line_is() { [ "$(lastline)" = "$1" ]; }
# wait_for TEXT: TEXT appears after the mark
wait_for() { poll has "$1"; }
# wait for an empty prompt as the last line
wait_idle() { poll idle; }
keys() { T send-keys -t dbg "$@"; }
text() { T send-keys -t dbg -l -- "$1"; }
# cmd LINE: mark, type LINE and Enter
cmd() { mark; cmd_base=$base; text "$1"; keys Enter; }

# ---- session 1: source-level kernel -------------------------------------------------------------
start examples/saxpy.G.ptx
if wait_idle; then pass "start"; else fail "start" "no (ptxdbg) prompt"; fi

# readline editing: C-a / Right to fix the command name, C-e / Left to insert a digit
mark
text "prin 100+1"
keys C-a Right Right Right Right
text "t"
keys C-e Left Left
text "0"
if poll line_is "(ptxdbg) print 1000+1"; then
    keys Enter
    if wait_for '$1 = 1001'; then pass "editing"; else fail "editing" "edited command did not run"; fi
else
    fail "editing" "line is not 'print 1000+1'"
fi
wait_idle

# history: Up recalls the previous command
mark
keys Up
if poll line_is "(ptxdbg) print 1000+1"; then
    keys Enter
    if wait_for '$2 = 1001'; then pass "history-up"; else fail "history-up" "recalled command did not run"; fi
else
    fail "history-up" "Up did not recall 'print 1000+1'"
fi
wait_idle

# Ctrl-C at the prompt clears the line and keeps the session
mark
text "print 12345"
poll line_is "(ptxdbg) print 12345"
keys C-c
if poll idle; then
    cmd "print 2+2"
    if wait_for '$3 = 4' && ! has '12345'; then pass "ctrl-c-at-prompt"
    else fail "ctrl-c-at-prompt" "line not cleared"; fi
else
    fail "ctrl-c-at-prompt" "no fresh prompt after C-c"
fi
wait_idle

# completion of a sub-command
mark
text "info brea"
keys Tab
if poll line_is "(ptxdbg) info breakpoints"; then
    keys Enter
    if wait_for "No breakpoints or watchpoints."; then pass "complete-info-subcommand"
    else fail "complete-info-subcommand" "info breakpoints did not run"; fi
else
    fail "complete-info-subcommand" "'info brea<Tab>' did not give 'info breakpoints'"
fi
wait_idle

# completion of a kernel name (demangled)
mark
text "break sax"
keys Tab
if poll line_is "(ptxdbg) break saxpy"; then
    keys Enter
    if wait_for "Breakpoint 1 at"; then pass "complete-kernel"
    else fail "complete-kernel" "break saxpy did not set a breakpoint"; fi
else
    fail "complete-kernel" "'break sax<Tab>' did not give 'break saxpy'"
fi
wait_idle

# run to the breakpoint
cmd "buffer x f32 1024 = iota"
wait_idle
cmd "buffer y f32 1024 = fill 0.5"
wait_idle
cmd "launch saxpy<<<4,256>>>(1000, 2.0, x, y)"
limit=600
if wait_for "Breakpoint 1, " && wait_idle; then pass "launch"; else fail "launch" "no stop at breakpoint 1"; fi
limit=

# registers of the focused function after %r, listed by a double Tab
mark
text "print %r"
keys Tab Tab
if wait_for "%rd11" && has "%r6"; then pass "complete-registers"
else fail "complete-registers" "no register list"; fi
keys C-u
poll line_is "(ptxdbg)"

# special registers after %
mark
text "print %tid."
keys Tab Tab
if wait_for "%tid.z"; then pass "complete-special-registers"
else fail "complete-special-registers" "no %tid.x/y/z list"; fi
keys C-u
poll line_is "(ptxdbg)"

# source variables at the focus and buffer names
mark
text "print "
keys Tab Tab
if wait_for "threadIdx" && since | grep -q -E '(^| )n( |$)' && since | grep -q -E '(^| )y( |$)'
then pass "complete-variables"
else fail "complete-variables" "no variable list with n and y"; fi
keys C-u
poll line_is "(ptxdbg)"

# breakpoint numbers
mark
text "disable "
keys Tab
if poll line_is "(ptxdbg) disable 1"; then pass "complete-breakpoint-number"
else fail "complete-breakpoint-number" "'disable <Tab>' did not give 1"; fi
keys C-u
poll line_is "(ptxdbg)"

# an empty line repeats next
cmd "next"
wait_for "if (i < n)" && wait_idle
mark
keys Enter
if wait_for "y[i] = a * x[i] + y[i]" && wait_idle; then pass "repeat-next"
else fail "repeat-next" "empty line did not step again"; fi

cmd "kill"
wait_idle
cmd "quit"
if wait_for "[exit 0]"; then pass "quit"; else fail "quit" "ptxdbg did not exit with 0"; fi

# ---- session 2: history from session 1, Ctrl-C during a long kernel -----------------------------
start tests/fixtures/interactive/spin.ptx
wait_idle
mark
keys Up
if poll line_is "(ptxdbg) quit"; then pass "history-across-sessions"
else fail "history-across-sessions" "Up did not recall session 1's 'quit'"; fi
keys C-u
poll line_is "(ptxdbg)"
# reverse search finds an older line of session 1
mark
keys C-r
text "1000+"
keys Enter
if wait_for '$1 = 1001'; then pass "history-search"; else fail "history-search" "C-r did not find 'print 1000+1'"; fi
wait_idle

cmd "buffer out u32 64"
wait_idle
cmd "launch spin<<<2,64>>>(4000000000, out)"
wait_for "[Launch of CUDA Kernel 0"
sleep 1
if idle; then fail "kernel-runs" "the prompt came back before C-c"; else pass "kernel-runs"; fi
keys C-c
limit=600
if wait_for "Program received signal SIGINT, Interrupt." && wait_for "spin.ptx:" && wait_idle
then pass "ctrl-c-kernel"
else fail "ctrl-c-kernel" "no interrupt report and prompt"; fi
limit=
cmd "info warps"
if wait_for "(32,0,0)" && wait_idle; then pass "state-after-interrupt"
else fail "state-after-interrupt" "info warps failed"; fi
cmd "continue"
sleep 0.5
keys C-c
limit=600
if wait_for "Program received signal SIGINT, Interrupt." && wait_idle
then pass "ctrl-c-continue"
else fail "ctrl-c-continue" "second C-c did not stop the kernel"; fi
limit=
cmd "print %r3 > 0"
if wait_for "= 1" && wait_idle; then pass "registers-after-interrupt"
else fail "registers-after-interrupt" "loop counter not readable"; fi
cmd "kill"
if wait_for "killed" && wait_idle; then pass "kill"; else fail "kill" "kill did not end the kernel"; fi
cmd "quit"
if wait_for "[exit 0]"; then pass "quit-2"; else fail "quit-2" "ptxdbg did not exit with 0"; fi

# ---- session 3: the history file is bounded -----------------------------------------------------
HISTSIZE_FOR_TEST=3
start tests/fixtures/interactive/spin.ptx
wait_idle
cmd "quit"
wait_for "[exit 0]"
n=$(wc -l <"$hist")
if [ "$n" -le 3 ] && grep -q '^quit$' "$hist"; then pass "history-bounded"
else fail "history-bounded" "history file has $n lines (PTXDBG_HISTSIZE=3)"; fi
HISTSIZE_FOR_TEST=

# ---- session 4: the pager (set height) and confirmation of quit/run over a live kernel ----------
start examples/saxpy.G.ptx
wait_idle
cmd "set height 5"
wait_idle
cmd "help set"
# a page of 5 lines: the command line, 4 lines of output, then the pager's question
if wait_for "--Type <RET> for more, q to quit, c to continue without paging--" &&
   [ "$(since | wc -l)" -eq 6 ]
then pass "pager-prompt"; else fail "pager-prompt" "no pager question after 4 lines"; fi
mark
keys Enter
if wait_for "--Type <RET> for more" && [ "$(since | wc -l)" -eq 6 ]
then pass "pager-next-page"; else fail "pager-next-page" "RET did not show one more page"; fi
text "q"
keys Enter
if wait_for "Quit" && wait_idle; then pass "pager-quit"; else fail "pager-quit" "q did not end the output"; fi
cmd "help set"
wait_for "--Type <RET> for more"
text "c"
keys Enter
if wait_for "set width -- " && wait_idle; then pass "pager-continue"
else fail "pager-continue" "c did not show the rest"; fi
cmd "set pagination off"
wait_idle
cmd "help set"
if wait_for "set width -- " && wait_idle && ! since | grep -q '^--Type <RET>'; then pass "pagination-off"
else fail "pagination-off" "paged with pagination off"; fi
cmd "buffer x f32 1024 = iota"
cmd "buffer y f32 1024"
cmd "break saxpy"
cmd "launch saxpy<<<4,256>>>(1000, 2.0, x, y)"
wait_for "Breakpoint 1, " && wait_idle
# confirm NAME COMMAND QUESTION ANSWER RESULT: COMMAND asks QUESTION, ANSWER gives RESULT
confirm() {
    cmd "$2"
    if wait_for "$3"; then
        text "$4"
        keys Enter
        if wait_for "$5" && wait_idle; then pass "$1"
        else fail "$1" "answering $4 did not give '$5'"; fi
    else fail "$1" "$2 over a live kernel did not ask"; fi
}
confirm confirm-quit-no quit "Quit anyway? (y or n)" n "Not confirmed."
confirm confirm-run-yes run "Start it from the beginning? (y or n)" y "Breakpoint 1, "
cmd "set confirm off"
wait_idle
cmd "quit"
if wait_for "[exit 0]" && ! has "(y or n)"; then pass "confirm-off"
else fail "confirm-off" "set confirm off still asked"; fi

# ---- session 5: a CUDA program; its debugger session runs inside it ----------------------------------
# spin_flag forever: its kernel spins on a flag nobody sets, until Ctrl-C. vector_add: element i
# is i + (2i + 1), so thread 3 of block 0 computes sum = 10.
if [ -f "$top/build/lib/libcudart.so.13" ]; then
    start --args tests/cuda/spin_flag.G forever
    wait_idle
    cmd "run"
    sleep 0.5
    keys C-c
    limit=100
    if wait_for "Program received signal SIGINT, Interrupt." && wait_idle
    then pass "program-ctrl-c"
    else fail "program-ctrl-c" "C-c did not stop the program's kernel"; fi
    limit=
    cmd "print *flag"
    if wait_for "= 0" && wait_idle; then pass "program-print-at-stop"
    else fail "program-print-at-stop" "the kernel's parameter was not readable"; fi
    cmd "kill"
    wait_for "(y or n)" && { text "y"; keys Enter; }
    if wait_for "killed]" && wait_idle; then pass "program-kill"
    else fail "program-kill" "kill did not end the program"; fi
    cmd "file tests/cuda/vector_add.G"
    cmd "break vector_add.cu:10 if threadIdx.x == 3"
    cmd "run"
    if wait_for "Breakpoint 1, vector_add" && wait_idle; then pass "program-breakpoint"
    else fail "program-breakpoint" "no stop at the conditional breakpoint"; fi
    cmd "print sum"
    if wait_for "= 10" && wait_idle; then pass "program-print-local"
    else fail "program-print-local" "sum is not 10"; fi
    cmd "disable 1"
    cmd "continue"
    if wait_for "vector_add: 1000 elements PASSED" && wait_for "exited normally]" && wait_idle
    then pass "program-continue-to-exit"
    else fail "program-continue-to-exit" "the program did not finish"; fi
    cmd "quit"
    if wait_for "[exit 0]"; then pass "program-quit"; else fail "program-quit" "ptxdbg did not exit with 0"; fi
else
    fail "program-session" "build/lib/libcudart.so.13 is not built"
fi

# ---- session 6: a program's stop pages; Ctrl-C focuses a live thread --------------------------------
# dbg_particles with 4000000000 rounds: its last kernel (linger) runs until Ctrl-C, thread 0 of
# each block having returned at once (the focus a launch starts with: it has no stack).
if [ -f "$top/build/lib/libcudart.so.13" ]; then
    start --args tests/cuda/dbg_particles.G 4000000000
    wait_idle
    cmd "set height 10"
    wait_idle
    cmd "break tally"
    wait_idle
    cmd "run"
    limit=100
    wait_for "Breakpoint 1, tally" && wait_idle
    limit=
    cmd "help running"
    if wait_for "--Type <RET> for more, q to quit, c to continue without paging--" &&
       [ "$(since | wc -l)" -le 11 ]
    then pass "program-stop-pager"; else fail "program-stop-pager" "no page at a program's stop"; fi
    text "q"
    keys Enter
    wait_for "Quit" && wait_idle
    cmd "delete"
    wait_idle
    cmd "continue"
    sleep 1
    keys C-c
    limit=100
    if wait_for "Program received signal SIGINT, Interrupt." && wait_idle; then
        cmd "bt"
        if wait_for "#0  " && wait_idle && ! has "No stack."
        then pass "program-ctrl-c-live-focus"
        else fail "program-ctrl-c-live-focus" "bt after Ctrl-C: no stack"; fi
        cmd "print r > 0"
        if wait_for "= 1" && wait_idle; then pass "program-ctrl-c-print"
        else fail "program-ctrl-c-print" "the loop counter was not readable"; fi
        cmd "cuda thread (0,0,0)"
        wait_idle
        cmd "continue"
        sleep 0.5
        keys C-c
        if wait_for "Program received signal SIGINT, Interrupt." && wait_idle; then
            cmd "bt"
            if wait_for "#0  " && wait_idle && ! has "No stack."
            then pass "program-ctrl-c-again"
            else fail "program-ctrl-c-again" "bt after the second Ctrl-C: no stack"; fi
        else
            fail "program-ctrl-c-again" "the second C-c did not stop the kernel"
        fi
    else
        fail "program-ctrl-c-live-focus" "C-c did not stop the program's kernel"
    fi
    limit=
    cmd "kill"
    wait_for "(y or n)" && { text "y"; keys Enter; }
    wait_for "killed]" && wait_idle
    cmd "quit"
    if wait_for "[exit 0]"; then pass "program-quit-2"; else fail "program-quit-2" "ptxdbg did not exit with 0"; fi
else
    fail "program-session-2" "build/lib/libcudart.so.13 is not built"
fi

# ---- session 7: no readline (commands/cmd_rl.c): said once, then plain lines at the prompt ---------
RL_FOR_TEST=$tmp/no-such-libreadline.so
start examples/saxpy.ptx
if wait_for "cannot open shared object file" && wait_for "reading plain lines" && wait_idle; then
    cmd "print 6 * 7"
    if wait_for "= 42" && wait_idle; then pass "no-readline-plain-lines"
    else fail "no-readline-plain-lines" "print at the plain prompt"; fi
else
    fail "no-readline-plain-lines" "no message or prompt without readline"
fi
cmd "quit"
if wait_for "[exit 0]"; then pass "no-readline-quit"; else fail "no-readline-quit" "ptxdbg did not exit with 0"; fi
unset RL_FOR_TEST

T kill-server >/dev/null 2>&1
echo "interactive: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
