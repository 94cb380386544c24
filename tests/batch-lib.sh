# batch-lib.sh - what tests/e2e.sh and tests/corpus.sh share; sourced by both with
#     . "$(dirname "$0")/batch-lib.sh"
# The suite sets suite (its name: messages start with it, its cases are tests/$suite/NAME.cmd)
# and ptxdbg (the binary under test) before batch_setup.

# batch_setup: top (the repository), ptxdbg made absolute, have_ptxdbg, the C locale, the core
# round-trip check of every stop (PTXDBG_CORE_CHECK), a scratch
# directory tmp removed on exit, the pass/fail counters and limit (the command that stops a
# run that hangs, so that it cannot hang the suite).
batch_setup() {
    top=$(cd "$(dirname "$0")/.." && pwd)
    case $ptxdbg in
        /*) ;;
        *) ptxdbg=$(pwd)/$ptxdbg ;;
    esac
    LC_ALL=C
    export LC_ALL
    # every stop of every debugging session is also saved as a core file, reopened and compared
    # with the live stop (commands/cmd_corecheck.c); PTXDBG_CORE_CHECK=0 turns it off
    PTXDBG_CORE_CHECK=${PTXDBG_CORE_CHECK-1}
    export PTXDBG_CORE_CHECK
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxdbg-$suite.XXXXXX") || { echo "$suite: cannot create a temp dir"; exit 1; }
    trap 'rm -rf "$tmp"' 0
    trap 'exit 2' INT TERM HUP
    passed=0
    failed=0
    # the work is bounded, not the wall time: every command this shell starts gets 120 s of
    # CPU time (a hang uses it up; a loaded machine only stretches the wall time), and a
    # wall-clock backstop of 600 s catches a process blocked without using CPU
    ulimit -t 120 2>/dev/null || true
    if command -v timeout >/dev/null 2>&1; then
        limit="timeout 600"
    else
        limit=
    fi
    have_ptxdbg=1
    [ -x "$ptxdbg" ] || have_ptxdbg=0
}

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# batch_summary: the last line; its status is the suite's (1 when any case failed)
batch_summary() {
    echo "$suite: $passed passed, $failed failed"
    [ $failed -eq 0 ]
}

# first line of a file, shortened, for failure reasons
first_line() {
    if [ -s "$1" ]; then
        sed -n '1{s/[[:cntrl:]]/ /g;p;q;}' "$1" | cut -c1-160
    else
        echo "(empty)"
    fi
}

# run_dbg DIR ARGS...: run ptxdbg in DIR, stdout/stderr/status into DIR/{stdout,stderr,rc}
run_dbg() {
    d=$1
    shift
    (cd "$d" && $limit "$ptxdbg" "$@" >stdout 2>stderr </dev/null)
    echo $? >"$d/rc"
}

# contains_block EXPECTED ACTUAL: EXPECTED's lines occur contiguously in ACTUAL
contains_block() {
    awk 'NR == FNR { e[n++] = $0; next }
         { a[m++] = $0 }
         END {
             for (i = 0; i + n <= m; i++) {
                 for (j = 0; j < n && a[i + j] == e[j]; j++) ;
                 if (j == n) exit 0
             }
             exit 1
         }' "$1" "$2"
}

# build_refs PROG: compile the reference program tests/ref/PROG.c into refs ($tmp/PROG);
# ref_ok=0 when it does not build
build_refs() {
    refs=$tmp/$1
    ref_ok=1
    if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -ffp-contract=off -frounding-math \
            -o "$refs" "$top/tests/ref/$1.c" -lm >"$tmp/refs.log" 2>&1; then
        ref_ok=0
        echo "$suite: building tests/ref/$1.c failed:"
        sed 's/^/    /' "$tmp/refs.log" | head -n 20
    fi
}

# same_as_dumped: why= says how the dumped file $d/$f differs from the expected file $e
same_as_dumped() {
    if [ ! -f "$d/$f" ]; then
        why="$f was not dumped"
    elif ! cmp -s "$e" "$d/$f"; then
        why="$f differs: $(cmp "$e" "$d/$f" 2>&1 | sed 's/.*differ: //' | head -n 1)"
    fi
}

# kernel_case NAME: the reference writes NAME's inputs and expected files into $tmp/ref/NAME,
# then tests/$suite/NAME.cmd runs (with --check=all: a finding fails the case) in a scratch
# directory holding the inputs on KERNEL.VARIANT.ptx for VARIANT in G, O3 and lineinfo (KERNEL:
# NAME up to its first '-').
# The suite defines kernel_src (sets src, the directory of KERNEL's fixtures, from $kernel)
# and check_exp (sets why when the expected file $e, named $f, does not match the run in $d).
kernel_case() {
    name=$1
    script=$top/tests/$suite/$name.cmd
    kernel=${name%%-*}
    kernel_src
    refdir=$tmp/ref/$name
    if [ $ref_ok -eq 1 ]; then
        mkdir -p "$refdir/exp"
        "$refs" "$name" "$refdir" >"$tmp/ref.log" 2>&1 || {
            echo "$suite: refs $name: $(first_line "$tmp/ref.log")"
            rm -rf "$refdir"
        }
    fi
    for v in G O3 lineinfo; do
        case_name=$name.$v
        ptx=$src/$kernel.$v.ptx
        if [ $have_ptxdbg -eq 0 ]; then fail "$case_name" "$missing"; continue; fi
        if [ $ref_ok -eq 0 ]; then fail "$case_name" "reference program did not build"; continue; fi
        if [ ! -d "$refdir" ]; then fail "$case_name" "no reference for $name"; continue; fi
        if [ ! -f "$ptx" ]; then fail "$case_name" "missing fixture $ptx"; continue; fi
        d=$tmp/run/$case_name
        mkdir -p "$d"
        for f in "$refdir"/*; do
            [ -f "$f" ] && cp "$f" "$d/"
        done
        cp "$script" "$d/$name.cmd"
        # every correct kernel runs clean under every checker (a finding fails the batch)
        run_dbg "$d" -batch --check=all -x "$name.cmd" "$ptx"
        rc=$(cat "$d/rc")
        if [ "$rc" = 124 ] && [ -n "$limit" ]; then fail "$case_name" "timed out"; continue; fi
        if [ "$rc" != 0 ]; then
            fail "$case_name" "exit status $rc: $(first_line "$d/stderr")"
            continue
        fi
        why=
        for e in "$refdir"/exp/*; do
            [ -f "$e" ] || continue
            f=$(basename "$e")
            check_exp
            [ -n "$why" ] && break
        done
        if [ -z "$why" ]; then pass "$case_name"; else fail "$case_name" "$why"; fi
    done
}
