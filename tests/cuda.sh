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
# Programs named api_*.cu, rt_*.cu and smp_*.cu (sample-style programs) join the table by
# themselves ("// cuda-needs: LIB": skipped with a SKIP line where LIB, a CUDA toolkit library,
# cannot be found); a line
# "// cuda-test: EXIT STDOUT-REGEX FAULT-KIND" in the source (spaces in the regex as \s or [ ],
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
command -v timeout >/dev/null 2>&1 && limit="timeout 60"

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
vector_add        0 ^vector_add:\s1000\selements\sPASSED$                 -
vector_add.G      0 ^vector_add:\s1000\selements\sPASSED$                 -
many_launches     0 ^many_launches:\s2000\slaunches\sPASSED$              -
memcpy_2d3d       0 ^memcpy_2d3d:\sPASSED$                                -
symbols           0 ^symbols:\sPASSED$                                    -
managed           0 ^managed:\sPASSED$                                    -
mapped            0 ^mapped:\sPASSED$                                     -
streams_events    0 ^streams_events:\sPASSED$                             -
reduce_shared     0 ^reduce_shared:\ssum\s1996440\sPASSED$                -
reduce_shared.G   0 ^reduce_shared:\ssum\s1996440\sPASSED$                -
device_printf     0 ^device_printf:\sPASSED$                              -
device_malloc     0 ^device_malloc:\sPASSED$                              -
virtual           0 ^virtual:\sPASSED$                                    -
ticket_reduce     0 ^ticket_reduce:\ssum\s-143\sPASSED$                  -
chained_scan      0 ^chained_scan:\s79\sblocks\sPASSED$                   -
coop_grid         0 ^coop_grid:\s[0-9]+\sblocks\sPASSED$                  -
host_threads      0 ^host_threads:\sPASSED$                               -
templates         0 ^templates:\sPASSED$                                  -
occupancy         0 ^occupancy:\sgrid\s[0-9]+\sx\s[0-9]+\son\s[0-9]+\sSMs\s\(sm_80\+\)\sPASSED$ -
mallocasync       0 ^mallocasync:\sPASSED$                                -
spin_flag         0 ^spin_flag:\sPASSED$                                  -
multi_module      0 ^multi_module:\sPASSED$                               -
multi_module.G    0 ^multi_module:\sPASSED$                               -
spin_flag.G       0 ^spin_flag:\sPASSED$                                  -
fault_oob         3 ^FAULT\scudaErrorIllegalAddress$                      Warp\s(Out-of-range|Illegal)\sAddress
fault_oob.G       3 ^FAULT\scudaErrorIllegalAddress$                      Warp\s(Out-of-range|Illegal)\sAddress
fault_misaligned  3 ^FAULT\scudaErrorMisalignedAddress$                   Warp\sMisaligned\sAddress
fault_assert      3 ^FAULT\scudaErrorAssert$                              Warp\sAssert
fault_trap        3 ^FAULT\scudaErrorLaunchFailure$                       Warp\sIllegal\sInstruction
TABLE
    for f in "$C"/api_*.cu "$C"/rt_*.cu "$C"/smp_*.cu; do
        [ -f "$f" ] || continue
        b=$(basename "$f" .cu)
        # a space in the regex may also be spelt [ ] (read by `read` as \s)
        spec=$(sed -n 's|^// cuda-test: *||p' "$f" | head -n 1 | sed 's/\[ \]/\\s/g')
        echo "$b ${spec:-0 PASSED$ -}"
        case $b in smp_*) grep -q '^// cuda-G-build' "$f" && echo "$b.G ${spec:-0 PASSED$ -}" ;; esac
    done
}

# missing NAME: the library a program's "// cuda-needs: LIB" line names when the dynamic
# linker cannot find it (programs that use the CUDA toolkit itself, such as NVRTC); such a
# program is skipped, with a SKIP line, where the toolkit is not installed.
missing() {
    needs=$(sed -n 's|^// cuda-needs: *||p' "$C/${1%.G}.cu" 2>/dev/null | head -n 1)
    [ -n "$needs" ] || return 1
    LD_LIBRARY_PATH="$libdir" ldd "$C/$1" 2>/dev/null | grep -q "$needs => not found" || return 1
    echo "$needs"
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
    lib=$(missing "$name") && { echo "SKIP $cname: $lib not found (no CUDA toolkit)"; return; }
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
    lib=$(missing "$name") && { echo "SKIP $cname: $lib not found (no CUDA toolkit)"; return; }
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

# ---- debugging scenarios on the -G builds ---------------------------------------------------------
# scenario NAME EXIT ARGS... <<PATTERNS: run PTXDBG -batch ARGS in tests/cuda (where the sources
# are); the exit status must be EXIT ("nz": any non-zero) and the extended regexes of PATTERNS
# (stdin, one a line) must match lines of stdout+stderr in that order.
scenario() {
    name=$1 want=$2
    shift 2
    cname="scenario $name"
    cat >"$tmp/pats"
    selected "$name" || return 0
    [ $have_ptxdbg -eq 1 ] || { fail "$cname" "ptxdbg not found at $ptxdbg"; return; }
    [ -n "$why_nolib" ] && { fail "$cname" "$why_nolib"; return; }
    newdir
    (cd "$C" && $limit "$ptxdbg" -batch "$@" >"$d/stdout" 2>"$d/stderr" </dev/null)
    rc=$?
    if [ "$rc" = 124 ] && [ -n "$limit" ]; then fail "$cname" "timed out"; return; fi
    if [ "$want" = nz ]; then
        [ "$rc" != 0 ] || { fail "$cname" "exit status 0, want non-zero"; return; }
    elif [ "$rc" != "$want" ]; then
        fail "$cname" "exit status $rc, want $want: $(first_line "$d/stderr")"
        return
    fi
    cat "$d/stdout" "$d/stderr" >"$d/all"
    missing=$(awk 'NR == FNR { p[n++] = $0; next }
                   k < n && $0 ~ p[k] { k++ }
                   END { if (k < n) print p[k] }' "$tmp/pats" "$d/all")
    if [ -n "$missing" ]; then
        fail "$cname" "no line matching '$missing' (in order); output: $(first_line "$d/all")"
        return
    fi
    pass "$cname"
}

# vector_add: element i is i + (2i + 1); 128 threads per block, 1000 elements -> 8 blocks
VA="--args ./vector_add.G 1000"
FA="--args ./fault_oob.G"
va_i5=5 va_s5=$((5 + 2 * 5 + 1))
va_i133=$((1 * 128 + 5)) va_s133=$((133 + 2 * 133 + 1))

scenario break-by-name 0 -ex 'break vector_add' -ex run -ex 'print n' -ex 'info cuda kernels' \
    -ex 'print blockDim.x' -ex delete -ex continue $VA <<PATS
^Breakpoint 1 \(vector_add\) pending\.\$
^Breakpoint 1, vector_add<<<\(8,1,1\),\(128,1,1\)>>> \(a=0x[0-9a-f]+, b=0x[0-9a-f]+, c=0x[0-9a-f]+, n=1000\) at vector_add\.cu:7\$
^7[[:space:]]+int i = blockIdx\.x \* blockDim\.x \+ threadIdx\.x;
^\\\$1 = 1000\$
^\* +0 +0 +1 +Active +\(8,1,1\) +\(128,1,1\) .*vector_add
^\\\$2 = 128\$
^vector_add: 1000 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

scenario break-file-line-cond 0 -ex 'break vector_add.cu:10 if threadIdx.x == 5' -ex run \
    -ex 'print i' -ex 'print sum' -ex 'print -lanes i' -ex continue -ex 'print i' -ex 'print sum' \
    -ex 'info breakpoints' -ex delete -ex continue $VA <<PATS
^Breakpoint 1, vector_add.* at vector_add\.cu:10\$
^10[[:space:]]+c\[i\] = sum;
^\\\$1 = $va_i5\$
^\\\$2 = $va_s5\$
Lane +0 .*: 0\$
^\* Lane +5 .*: 5\$
Lane 31 .*: 31\$
^Breakpoint 1, vector_add.* at vector_add\.cu:10\$
^\\\$3 = $va_i133\$
^\\\$4 = $va_s133\$
stop only if threadIdx\.x == 5
breakpoint already hit 2 times
^vector_add: 1000 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

scenario break-on-launch 0 -ex 'set cuda break_on_launch application' -ex run -ex 'info cuda kernels' \
    -ex 'print n' -ex 'set cuda break_on_launch none' -ex continue $VA <<PATS
vector_add<<<\(8,1,1\),\(128,1,1\)>>> .*at vector_add\.cu:7\$
^\* +0 .*vector_add
^\\\$1 = 1000\$
^vector_add: 1000 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

# the program's own failure (a length it refuses) is ptxdbg's exit status
scenario exit-code 1 -ex run --args ./vector_add.G 0 <<PATS
^FAILED: .*bad length 0
^\[Inferior 1 \(process [0-9]+\) exited with code 01\]\$
PATS

# a tbreak and a commands block are replayed into the program's session; block 7 starts at 896
printf 'tbreak vector_add.cu:10\nbreak vector_add.cu:9 if blockIdx.x == 7\ncommands 2\nprint i\ncontinue\nend\n' \
    >"$tmp/setup.gdb"
scenario commands-tbreak 0 -x "$tmp/setup.gdb" -ex run -ex continue -ex 'info breakpoints' $VA <<PATS
^Temporary breakpoint 1, vector_add.* at vector_add\.cu:10\$
^Breakpoint 2, vector_add.* at vector_add\.cu:9\$
^\\\$1 = 896\$
^vector_add: 1000 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
breakpoint already hit [0-9]+ time
PATS

# thread 37 = block 1, thread 5 writes 4 MB past the 64-int allocation at line 10
scenario fault-stop nz -ex run -ex 'print i' -ex 'print value' -ex bt $FA <<PATS
CUDA Exception: Warp (Out-of-range|Illegal) Address
block \(1,0,0\) thread \(5,0,0\) at fault_oob\.cu:10
^10[[:space:]]+p\[n \+ \(1 << 20\)\] = value;
^\\\$1 = 37\$
^\\\$2 = 370\$
^#0 .*write_past.* at fault_oob\.cu:10
PATS

# continue after the fault: the program sees the sticky error and exits 3 (its own status)
scenario fault-continue 3 -ex run -ex continue $FA <<PATS
CUDA Exception: Warp (Out-of-range|Illegal) Address
^FAULT cudaErrorIllegalAddress\$
^\[Inferior 1 \(process [0-9]+\) exited with code 03\]\$
PATS

# reduce_static in block 2 (elements 512..767): buf[0] after the tree is the block's sum
rs_b2=$(awk 'BEGIN { s = 0; for (i = 512; i < 768; i++) s += (i * 2654435761) % 4294967296 % 1000 - 300; print s }')
scenario shared-memory 0 -ex 'break reduce_shared.cu:21 if blockIdx.x == 2' -ex run -ex 'print buf[0]' \
    -ex 'info cuda kernels' -ex delete -ex continue --args ./reduce_shared.G <<PATS
^Breakpoint 1, reduce_static.* at reduce_shared\.cu:21\$
^\\\$1 = $rs_b2\$
^\* .*reduce_static
^reduce_shared: sum 1996440 PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

# two modules: offset (multi_module_b.cu) is kernel 5 at r = 2; x[3] is then ((3*2+100)*2+100-7)*2+100
mm_x3=$(( ((3 * 2 + 100) * 2 + 100 - 7) * 2 + 100 ))
scenario two-modules 0 -ex 'break multi_module_b.cu:12 if threadIdx.x == 3 && add == 2' -ex run \
    -ex 'print i' -ex 'print delta' -ex 'print bias_b' -ex 'print x[i]' -ex 'info cuda kernels' \
    -ex delete -ex continue --args ./multi_module.G <<PATS
^Breakpoint 1, offset<<<\(5,1,1\),\(64,1,1\)>>> .*add=2\) at multi_module_b\.cu:12\$
^\\\$1 = 3\$
^\\\$2 = 14\$
^\\\$3 = 7\$
^\\\$4 = $mm_x3\$
^\* +5 +0 +6 .*offset
^multi_module: PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

# start ARGS: run with new arguments, stopping at the first kernel's entry (50 elements: 1 block)
scenario start 0 -ex 'start 50' -ex 'print n' -ex continue --args ./vector_add.G <<PATS
^vector_add<<<\(1,1,1\),\(128,1,1\)>>> .*n=50\) at vector_add\.cu:7\$
^\\\$1 = 50\$
^vector_add: 50 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

# a watchpoint on c[200] (element 200 of 300: 200 + 2*200 + 1, written by block 1, thread 72),
# a core file written at that stop, then opened on its own
scenario watch-core 0 -ex 'break vector_add.cu:10 if blockIdx.x == 1 && threadIdx.x == 0' -ex run \
    -ex 'watch c[200]' -ex continue -ex "generate-core-file $tmp/va.core" -ex delete -ex continue \
    --args ./vector_add.G 300 <<PATS
^Hardware watchpoint 2: c\[200\]\$
block \(1,0,0\), thread \(72,0,0\)
^New value = 601\$
^Saved corefile
^vector_add: 300 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS
# (the core file of watch-core)
scenario core-open 0 -ex 'print c[200]' -ex 'print i' -ex 'print n' --core "$tmp/va.core" <<PATS
^\\\$1 = 601\$
^\\\$2 = 200\$
^\\\$3 = 300\$
PATS

# focus: the stop is on thread 0 of block 2; thread 3 of the same warp has i = 2*128 + 3
scenario focus 0 -ex 'break vector_add.cu:10 if blockIdx.x == 2' -ex run -ex 'cuda thread (3,0,0)' \
    -ex 'print i' -ex 'cuda thread' -ex delete -ex continue $VA <<PATS
^Breakpoint 1, vector_add.* at vector_add\.cu:10\$
block \(2,0,0\), thread \(3,0,0\)
^\\\$1 = $((2 * 128 + 3))\$
^thread \(3,0,0\)\$
^vector_add: 1000 elements PASSED\$
PATS

# a stop in a kernel on a stream's thread while the host thread waits for another stream: the
# first gated_store of rt_async stores 41 once the host opened the gate; the program goes on
gs_line=$(grep -n 'the gated store' "$C/rt_async.cu" | cut -d: -f1)
scenario async-stop 0 -ex "break rt_async.cu:$gs_line" -ex run -ex 'print v' -ex 'print *gate' \
    -ex 'info cuda kernels' -ex delete -ex continue --args ./rt_async.G <<PATS
^Breakpoint 1, gated_store<<<\(1,1,1\),\(1,1,1\)>>> .* at rt_async\.cu:$gs_line\$
^\\\$1 = 41\$
^\\\$2 = 1\$
^\* +[0-9]+ +0 +[0-9]+ +Active .*gated_store
^rt_async: PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

# ---- asynchronous streams and runaway kernels ------------------------------------------------------
# rt_exit: the static destructor's cudaFree after exit ended the work in flight
if selected rt_exit-destructor; then
    newdir
    run_case "$d" env LD_LIBRARY_PATH="$libdir" "$C/rt_exit"
    if [ "$(cat "$d/rc")" = 0 ] && grep -q '^rt_exit: freed at exit$' "$d/stdout"; then
        pass "rt_exit-destructor"
    else
        fail "rt_exit-destructor" "status $(cat "$d/rc"), stdout: $(tail -n 1 "$d/stdout")"
    fi
fi

# rt_runaway forever: nobody releases the kernel. Its warp 0 spins at the line marked "the
# spinning line", warp 1 waits at "the waiting line" (__syncthreads); the launch fails with
# cudaErrorLaunchTimeout (the program prints FAULT and exits 3). Block 1 starts once block 0 has
# spun for a turn, so the budget may end in either block's warp 0.
spin_line=$(grep -n 'the spinning line' "$C/rt_runaway.cu" | cut -d: -f1)
bar_line=$(grep -n 'the waiting line' "$C/rt_runaway.cu" | cut -d: -f1)
# runaway NAME PROGRAM ENV... <<PATTERNS: stderr must match PATTERNS in order
runaway() {
    name=$1 prog=$2
    shift 2
    cat >"$tmp/pats"
    selected "$name" || return 0
    newdir
    run_case "$d" env LD_LIBRARY_PATH="$libdir" "$@" "$C/$prog" forever
    rc=$(cat "$d/rc")
    if [ "$rc" != 3 ] || ! grep -q '^FAULT cudaErrorLaunchTimeout$' "$d/stdout"; then
        fail "$name" "status $rc, stdout: $(tail -n 1 "$d/stdout")"
        return
    fi
    missing=$(awk 'NR == FNR { p[n++] = $0; next }
                   k < n && $0 ~ p[k] { k++ }
                   END { if (k < n) print p[k] }' "$tmp/pats" "$d/stderr")
    [ -z "$missing" ] || { fail "$name" "no line matching '$missing' in stderr: $(first_line "$d/stderr")"; return; }
    pass "$name"
}
runaway runaway-max-steps rt_runaway.G PTXDBG_MAX_STEPS=200000 <<PATS
^ptxdbg: kernel runaway\(.*\) \(launch 0\) did not finish within PTXDBG_MAX_STEPS=200000 warp-instructions\$
^  running: block \([01],0,0\) warp 0 lanes 0xffffffff at rt_runaway\.cu:$spin_line \(PTX line [0-9]+, pc 0x[0-9a-f]+\)\$
where every warp is
^    block \(0,0,0\) warp 0 lanes 0xffffffff at rt_runaway\.cu:$spin_line
^    block \(0,0,0\) warp 1 lanes 0xffffffff waiting at a barrier at rt_runaway\.cu:$bar_line
cudaErrorLaunchTimeout
PATS
runaway runaway-timeout rt_runaway PTXDBG_TIMEOUT=1 <<PATS
^ptxdbg: kernel runaway\(.*\) \(launch 0\) did not finish within PTXDBG_TIMEOUT=1 seconds\$
^    block \(0,0,0\) warp 0 lanes 0xffffffff at PTX line [0-9]+, pc 0x[0-9a-f]+\$
^    block \(0,0,0\) warp 1 lanes 0xffffffff waiting at a barrier at PTX line
cudaErrorLaunchTimeout
PATS

# Ctrl-C in a plain run, once the kernel runs: the same report, then the program ends by SIGINT
if selected runaway-sigint; then
    newdir
    (cd "$d" && exec env LD_LIBRARY_PATH="$libdir" "$C/rt_runaway.G" forever >stdout 2>stderr </dev/null) &
    pid=$!
    n=0
    while ! grep -q '^rt_runaway: spinning$' "$d/stdout" 2>/dev/null && [ $n -lt 600 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    if [ "$rc" != 130 ]; then
        kill -KILL $pid 2>/dev/null
        fail "runaway-sigint" "status $rc, want 130 (SIGINT): $(first_line "$d/stderr")"
    elif ! grep -q 'kernel runaway(.*) (launch 0) interrupted (SIGINT)$' "$d/stderr" ||
         ! grep -Eq "block \(0,0,0\) warp 0 lanes 0xffffffff at rt_runaway\.cu:$spin_line " "$d/stderr"; then
        fail "runaway-sigint" "no report of where the warps are: $(first_line "$d/stderr")"
    else
        pass "runaway-sigint"
    fi
fi

batch_summary
