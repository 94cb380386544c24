#!/bin/sh
# cuda.sh - unmodified CUDA programs (tests/cuda/, built by tests/cuda/build.sh) on ptxdbg's runtime.
# Usage: sh tests/cuda.sh [PTXDBG] [PROGRAM...]     (default ./ptxdbg, every program)
#
# Every program checks its own results against a host reference and prints one success line
# ("... PASSED") with exit status 0; the fault programs print "FAULT cudaErrorNAME" (the sticky
# error they saw) and exit 3. Each program runs twice:
#   run NAME   LD_LIBRARY_PATH=$(PTXDBG --print-libdir) tests/cuda/NAME
#              (exit status and success line; a fault also reports "CUDA Exception: KIND" on
#              stderr; device_printf's stdout must equal device_printf.expected)
#   dbg NAME   PTXDBG -batch -ex run --args tests/cuda/NAME
#              (the program's own exit status and output, then gdb's "[Inferior 1 (process N)
#              exited ...]" line; a fault stops in the debugger with the exception message and
#              ptxdbg exits non-zero)
# Programs named api_*.cu, rt_*.cu and smp_*.cu (sample-style programs) join the table by themselves; a line
# "// cuda-test: EXIT STDOUT-REGEX FAULT-KIND" in the source (spaces in the regex as [ ],
# FAULT-KIND - for none) states what they print; the default is "0 PASSED$ -".
# Then debugging scenarios on the -G builds (NAME.G). Expected values come from the programs'
# own arithmetic (restated here), never from ptxdbg's output.
# One line per case, "PASS name" or "FAIL name: reason"; last line "cuda: N passed, N failed".

ptxdbg=${1:-./ptxdbg}
[ $# -gt 0 ] && shift
suite=cuda
. "$(dirname "$0")/batch-lib.sh"
batch_setup
C=$top/tests/cuda
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 120"

libdir=
if [ $have_ptxdbg -eq 1 ]; then
    libdir=$("$ptxdbg" --print-libdir 2>/dev/null </dev/null) || libdir=
fi
[ -n "$libdir" ] && [ -d "$libdir" ] || libdir=$top/build/lib
why_nolib=
[ -f "$libdir/libcudart.so.13" ] || why_nolib="no libcudart.so.13 in $libdir (make builds it)"

# program table: NAME  EXIT  STDOUT-REGEX  FAULT-KIND (- for none)
programs() {
    cat <<'TABLE'
vector_add        0 ^vector_add:[ ]1000[ ]elements[ ]PASSED$                 -
vector_add.G      0 ^vector_add:[ ]1000[ ]elements[ ]PASSED$                 -
many_launches     0 ^many_launches:[ ]2000[ ]launches[ ]PASSED$              -
memcpy_2d3d       0 ^memcpy_2d3d:[ ]PASSED$                                -
symbols           0 ^symbols:[ ]PASSED$                                    -
managed           0 ^managed:[ ]PASSED$                                    -
mapped            0 ^mapped:[ ]PASSED$                                     -
streams_events    0 ^streams_events:[ ]PASSED$                             -
reduce_shared     0 ^reduce_shared:[ ]sum[ ]1996440[ ]PASSED$                -
reduce_shared.G   0 ^reduce_shared:[ ]sum[ ]1996440[ ]PASSED$                -
device_printf     0 ^device_printf:[ ]PASSED$                              -
device_malloc     0 ^device_malloc:[ ]PASSED$                              -
virtual           0 ^virtual:[ ]PASSED$                                    -
ticket_reduce     0 ^ticket_reduce:[ ]sum[ ]-143[ ]PASSED$                  -
chained_scan      0 ^chained_scan:[ ]79[ ]blocks[ ]PASSED$                   -
coop_grid         0 ^coop_grid:[ ][0-9]+[ ]blocks[ ]PASSED$                  -
host_threads      0 ^host_threads:[ ]PASSED$                               -
templates         0 ^templates:[ ]PASSED$                                  -
occupancy         0 ^occupancy:[ ]grid[ ][0-9]+[ ]x[ ][0-9]+[ ]on[ ][0-9]+[ ]SMs[ ]\(sm_80\+\)[ ]PASSED$ -
mallocasync       0 ^mallocasync:[ ]PASSED$                                -
fault_oob         3 ^FAULT[ ]cudaErrorIllegalAddress$                      Warp[ ](Out-of-range|Illegal)[ ]Address
fault_oob.G       3 ^FAULT[ ]cudaErrorIllegalAddress$                      Warp[ ](Out-of-range|Illegal)[ ]Address
fault_misaligned  3 ^FAULT[ ]cudaErrorMisalignedAddress$                   Warp[ ]Misaligned[ ]Address
fault_assert      3 ^FAULT[ ]cudaErrorAssert$                              Warp[ ]Assert
fault_trap        3 ^FAULT[ ]cudaErrorLaunchFailure$                       Warp[ ]Illegal[ ]Instruction
TABLE
    for f in "$C"/api_*.cu "$C"/rt_*.cu "$C"/smp_*.cu; do
        [ -f "$f" ] || continue
        b=$(basename "$f" .cu)
        spec=$(sed -n 's|^// cuda-test: *||p' "$f" | head -n 1)
        echo "$b ${spec:-0 PASSED$ -}"
        case $b in smp_*) grep -q '^// cuda-G-build' "$f" && echo "$b.G ${spec:-0 PASSED$ -}" ;; esac
    done
}

n_case=0
# run_case DIR CMD...: run a command in DIR with stdin from /dev/null; stdout, stderr, rc there
run_case() {
    d=$1
    shift
    (cd "$d" && $limit "$@" >stdout 2>stderr </dev/null)
    echo $? >"$d/rc"
}

newdir() {
    n_case=$((n_case + 1))
    d=$tmp/$n_case
    mkdir -p "$d"
}

# check_run NAME EXIT REGEX FAULT: the program run with the runtime library
check_run() {
    name=$1 want=$2 re=$3 fault=$4
    cname="run $name"
    [ -n "$why_nolib" ] && { fail "$cname" "$why_nolib"; return; }
    [ -x "$C/$name" ] || { fail "$cname" "tests/cuda/$name missing (tests/cuda/build.sh)"; return; }
    newdir
    run_case "$d" env LD_LIBRARY_PATH="$libdir" "$C/$name"
    rc=$(cat "$d/rc")
    if [ "$rc" = 124 ] && [ -n "$limit" ]; then fail "$cname" "timed out"; return; fi
    if [ "$rc" != "$want" ]; then
        fail "$cname" "exit status $rc, want $want: $(grep -h -m1 -E 'FAILED|error|rror' "$d/stdout" "$d/stderr" | cut -c1-160)"
        return
    fi
    if ! grep -Eq "$re" "$d/stdout"; then
        fail "$cname" "no line matching '$re' in stdout: $(first_line "$d/stdout")"
        return
    fi
    if [ "$fault" != - ] && ! grep -Eq "CUDA Exception: $fault" "$d/stderr"; then
        fail "$cname" "no 'CUDA Exception: $fault' report on stderr: $(first_line "$d/stderr")"
        return
    fi
    if [ -f "$C/$name.expected" ] && ! cmp -s "$C/$name.expected" "$d/stdout"; then
        fail "$cname" "stdout differs from $name.expected: $(diff "$C/$name.expected" "$d/stdout" | sed -n 2p)"
        return
    fi
    pass "$cname"
}

# check_dbg NAME EXIT REGEX FAULT: the program under ptxdbg -batch -ex run --args
check_dbg() {
    name=$1 want=$2 re=$3 fault=$4
    cname="dbg $name"
    [ $have_ptxdbg -eq 1 ] || { fail "$cname" "ptxdbg not found at $ptxdbg"; return; }
    [ -n "$why_nolib" ] && { fail "$cname" "$why_nolib"; return; }
    [ -x "$C/$name" ] || { fail "$cname" "tests/cuda/$name missing (tests/cuda/build.sh)"; return; }
    newdir
    run_case "$d" "$ptxdbg" -batch -ex run --args "$C/$name"
    rc=$(cat "$d/rc")
    if [ "$rc" = 124 ] && [ -n "$limit" ]; then fail "$cname" "timed out"; return; fi
    if [ "$fault" = - ]; then
        if [ "$rc" != "$want" ]; then
            fail "$cname" "exit status $rc, want $want: $(grep -h -m1 -E 'FAILED|rror' "$d/stdout" "$d/stderr" | cut -c1-160)"
            return
        fi
        grep -Eq "$re" "$d/stdout" ||
            { fail "$cname" "no line matching '$re' in stdout: $(first_line "$d/stdout")"; return; }
        grep -Eq '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' "$d/stdout" ||
            { fail "$cname" "no '[Inferior 1 (process N) exited normally]' line"; return; }
        if [ -f "$C/$name.expected" ] && ! contains_block "$C/$name.expected" "$d/stdout"; then
            fail "$cname" "stdout does not contain $name.expected"
            return
        fi
    else
        if [ "$rc" = 0 ]; then fail "$cname" "exit status 0 after a kernel fault"; return; fi
        cat "$d/stdout" "$d/stderr" >"$d/all"
        grep -Eq "CUDA Exception: $fault" "$d/all" ||
            { fail "$cname" "no 'CUDA Exception: $fault' message: $(first_line "$d/all")"; return; }
    fi
    pass "$cname"
}

selected() {
    [ -z "$only" ] && return 0
    for o in $only; do [ "$o" = "$1" ] && return 0; done
    return 1
}
only="$*"

# a regex writes a space as [ ]; the table is read by words, so it becomes [[:space:]] here
programs | sed 's/\[ \]/[[:space:]]/g' >"$tmp/table"
while read -r name code re fault; do
    selected "$name" || continue
    check_run "$name" "$code" "$re" "$fault"
done <"$tmp/table"
while read -r name code re fault; do
    selected "$name" || continue
    check_dbg "$name" "$code" "$re" "$fault"
done <"$tmp/table"

batch_summary
