#!/bin/sh
# cuda.sh - unmodified CUDA programs (tests/cuda/, built by tests/cuda/build.sh) on ptxdbg's runtime.
# Usage: sh tests/cuda.sh [PTXDBG] [PROGRAM...]     (default ./ptxdbg, every program)
#
# Every program checks its own results against a host reference and prints one success line
# ("... PASSED") with exit status 0; the fault programs print "FAULT cudaErrorNAME" (the sticky
# error they saw) and exit 3. Each program runs twice:
#   run NAME   LD_LIBRARY_PATH=$(PTXDBG --print-libdir) tests/cuda/NAME
#              (exit status and success line; a fault also reports "CUDA Exception: KIND" on
#              stderr; device_printf's stdout must equal device_printf.expected); correct
#              programs run with PTXDBG_CHECK=all, so a finding fails them
#   dbg NAME   PTXDBG -batch -ex run --args tests/cuda/NAME (memcheck is on: a finding fails a
#              correct program)
#              (the program's own exit status and output, then gdb's "[Inferior 1 (process N)
#              exited ...]" line; a fault stops in the debugger with the exception message and
#              ptxdbg exits non-zero)
# NAME.static and NAME.G.static (a "// cuda-static-build" line: built with nvcc's default, the
# CUDA runtime linked statically) run the same two ways with NAME's expected results.
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
dbg_particles     0 ^dbg_particles:\sPASSED$                              -
dbg_bank          0 ^dbg_bank:\sPASSED$                                   -
dbg_bank.G        0 ^dbg_bank:\sPASSED$                                   -
dbg_tiles         0 ^dbg_tiles:\stile\s[0-9]+\sbytes,\speak\s[0-9]+,\sPASSED$ -
dbg_tiles.G       0 ^dbg_tiles:\stile\s[0-9]+\sbytes,\speak\s[0-9]+,\sPASSED$ -
dbg_particles.G   0 ^dbg_particles:\sPASSED$                              -
particles         0 ^particles:\sPASSED$                                 -
particles.G       0 ^particles:\sPASSED$                                 -
fault_oob         3 ^FAULT\scudaErrorIllegalAddress$                      Warp\s(Out-of-range|Illegal)\sAddress
fault_oob.G       3 ^FAULT\scudaErrorIllegalAddress$                      Warp\s(Out-of-range|Illegal)\sAddress
fault_misaligned  3 ^FAULT\scudaErrorMisalignedAddress$                   Warp\sMisaligned\sAddress
fault_assert      3 ^FAULT\scudaErrorAssert$                              Warp\sAssert
fault_trap        3 ^FAULT\scudaErrorLaunchFailure$                       Warp\sIllegal\sInstruction
TABLE
    # cmake/cmake_app.cu: the sum of (i % 97 - 40)^2 over 5000 elements
    cm=$(awk 'BEGIN { s = 0; for (i = 0; i < 5000; i++) { v = i % 97 - 40; s += v * v }; print s }')
    echo "cmake_app 0 ^cmake_app:\\ssum\\sof\\ssquares\\s$cm\\sPASSED$ -"
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
    src=${1%.static}
    needs=$(sed -n 's|^// cuda-needs: *||p' "$C/${src%.G}.cu" 2>/dev/null | head -n 1)
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
    # a correct program runs clean under every checker (a finding would change its exit status)
    chk=
    [ "$fault" = - ] && chk=PTXDBG_CHECK=all
    run_case "$d" env LD_LIBRARY_PATH="$libdir" $chk "$C/$name"
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
    exp=${name%.static}
    if [ -f "$C/$exp.expected" ] && ! cmp -s "$C/$exp.expected" "$d/stdout"; then
        fail "$cname" "stdout differs from $exp.expected: $(diff "$C/$exp.expected" "$d/stdout" | sed -n 2p)"
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
        exp=${name%.static}
        if [ -f "$C/$exp.expected" ] && ! contains_block "$C/$exp.expected" "$d/stdout"; then
            fail "$cname" "stdout does not contain $exp.expected"
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
# the statically linked builds, with the expected results of the program they were built from
for f in "$C"/*.static; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    spec=$(awk -v b="${n%.static}" '$1 == b { $1 = ""; print; exit }' "$tmp/table")
    if [ -n "$spec" ]; then echo "$n$spec" >>"$tmp/table"; else fail "table $n" "no program ${n%.static} in the table"; fi
done
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
# are; in $scen_dir when set); the exit status must be EXIT ("nz": any non-zero) and the
# extended regexes of PATTERNS (stdin, one a line) must match lines of stdout+stderr in that
# order. scen_stdin names a file for ptxdbg's stdin (default /dev/null); scen_batch= runs it
# without -batch.
scenario() {
    name=$1 want=$2
    shift 2
    cname="scenario $name"
    cat >"$tmp/pats"
    selected "$name" || return 0
    [ $have_ptxdbg -eq 1 ] || { fail "$cname" "ptxdbg not found at $ptxdbg"; return; }
    [ -n "$why_nolib" ] && { fail "$cname" "$why_nolib"; return; }
    newdir
    (cd "${scen_dir:-$C}" && $limit "$ptxdbg" ${scen_batch--batch} "$@" >"$d/stdout" \
        2>"$d/stderr" <"${scen_stdin:-/dev/null}")
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

# a module unloaded and another loaded in its place (same file and kernel names, other lines):
# the trap in the second is reported at the second's line, not from what was read of the first
scenario module-reload nz -ex run -ex bt --args ./api_reload <<PATS
^The exception was triggered at PC 0x4 \(reload\.cu:42\)
^#0 +k<<<.* at reload\.cu:42\$
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

# ---- dbg_particles.G (tests/cuda/dbg_particles.cu): structs, atomicAdd on int and float ------------
# init_particles gives particle i: x = i/2, v = i%7 - 3, cell = i%16; thread 0 of tally deposits
# particle 0 (v = -3): e = 0.5 * 9 = 4.5.
DP="--args ./dbg_particles.G"

# a core written inside atomicAdd(float *), called from deposit (a bigger frame than the
# earlier atomicAdd(int *) left behind), reopens with every frame
scenario core-in-atomicadd 0 -ex 'break deposit' -ex run -ex next -ex next -ex next -ex next \
    -ex next -ex step -ex bt -ex "generate-core-file $tmp/pa.core" -ex delete -ex continue $DP <<PATS
^Breakpoint 1, deposit \(st=0x[0-9a-f]+, q=\.\.\.\) at dbg_particles\.cu:38\$
^43[[:space:]]+atomicAdd\(&st->energy, e \+ unused\);
atomicAdd \(address=0x[0-9a-f]+, val=4\.5\) at sm_20_atomic_functions\.hpp:84\$
^#2 .* in tally<<<\(4,1,1\),\(64,1,1\)>>> .* at dbg_particles\.cu:53\$
^Saved corefile
^dbg_particles: PASSED\$
PATS
scenario core-in-atomicadd-open 0 -ex bt -ex 'print val' -ex up -ex 'print e' -ex 'print q' \
    -ex 'info cuda threads' --core "$tmp/pa.core" <<PATS
^#0 .*atomicAdd \(address=0x[0-9a-f]+, val=4\.5\) at sm_20_atomic_functions\.hpp:84\$
^#1 .* in deposit \(st=0x[0-9a-f]+, q=\.\.\.\) at dbg_particles\.cu:43\$
^#2 .* in tally<<<\(4,1,1\),\(64,1,1\)>>> .* at dbg_particles\.cu:53\$
^\\\$1 = 4\.5\$
^\\\$2 = 4\.5\$
^\\\$3 = \{x = 0, v = -3, cell = 0\}\$
^\* +\(0,0,0\) +\(0,0,0\) +\(0,0,0\) +\(31,0,0\) +32 .*sm_20_atomic_functions\.hpp +84\$
PATS

# PTXDBG_AUTO_CORE=1 at the real fault (atomicAdd(float *) on a pointer far past its allocation,
# a plain run): the core reopens on its own, in another folder, with sources and every frame
mkdir -p "$tmp/ac"
(cd "$tmp/ac" && env PTXDBG_AUTO_CORE=1 LD_LIBRARY_PATH="$libdir" $limit "$C/dbg_particles.G" 10 fault \
    >/dev/null 2>&1)
ac_core=$(ls "$tmp/ac"/core.tally.* 2>/dev/null | head -n 1)
scenario auto-core-at-fault 0 -ex bt -ex 'frame 2' -ex 'print q' --core "${ac_core:-$tmp/ac/missing}" <<PATS
^CUDA Exception: Warp Out-of-range Address\$
^#0 .*__fAtomicAdd
^#1 .*atomicAdd \(address=0x[0-9a-f]+, val=4\.5\) at sm_20_atomic_functions\.hpp:84\$
^#2 .* in deposit \(st=0x[0-9a-f]+, q=\.\.\.\) at dbg_particles\.cu:43\$
^#3 .* in tally<<<\(4,1,1\),\(64,1,1\)>>> .* at dbg_particles\.cu:53\$
^43[[:space:]]+atomicAdd\(&st->energy, e \+ unused\);
^\\\$1 = \{x = 0, v = -3, cell = 0\}\$
PATS

# a script's lines after `run` run at the program's stops, however the script comes: -x,
# `source` typed at the prompt, a breakpoint's commands; a tbreak it hit is gone afterwards
cat >"$tmp/after.gdb" <<'GDB'
break tally
run
print p[3]
print n
info breakpoints
next
next
print i
tbreak deposit
continue
print q
info breakpoints
delete
continue
GDB
after_pats() {
    cat <<PATS
^Breakpoint 1, tally<<<\(4,1,1\),\(64,1,1\)>>> .* at dbg_particles\.cu:49\$
^\\\$1 = \{x = 1\.5, v = 0, cell = 3\}\$
^\\\$2 = 256\$
^1 +breakpoint +keep y +0x[0-9a-f]+ in tally\(.*\) at dbg_particles\.cu:49\$
breakpoint already hit 1 time
^51[[:space:]]+Particle q = p\[i\];
^\\\$3 = 0\$
^Temporary breakpoint 2, deposit \(st=0x[0-9a-f]+, q=\.\.\.\) at dbg_particles\.cu:38\$
^\\\$4 = \{x = 0, v = -3, cell = 0\}\$
^1 +breakpoint +keep y
^dbg_particles: PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS
}
after_pats | scenario script-after-run 0 -x "$tmp/after.gdb" $DP
printf 'source %s\n' "$tmp/after.gdb" >"$tmp/after.in"
after_pats >"$tmp/after.pats"
scen_stdin=$tmp/after.in
scen_batch=
scenario source-after-run 0 -q $DP <"$tmp/after.pats"
printf 'break tally\nrun\nprint n\nnext\nprint i\ndelete\ncontinue\nprint $2 + 5\n' >"$tmp/stdin.in"
scen_stdin=$tmp/stdin.in
scenario stdin-after-run 0 -q $DP <<PATS
^\\\$1 = 256\$
^50[[:space:]]+if \(i < n\) \{
^\\\$2 = 0\$
^dbg_particles: PASSED\$
^\\\$3 = 5\$
PATS
unset scen_stdin scen_batch
# a breakpoint's commands run at the stop first, then the script's next lines (gdb drops a
# command list's lines after one that resumes, such as next)
printf 'break tally\ncommands\nprint n\nprint p[2]\nend\nrun\nnext\nprint i\ndelete\ncontinue\nprint $3 + 1\n' \
    >"$tmp/bpcmds.gdb"
scenario commands-then-script 0 -x "$tmp/bpcmds.gdb" $DP <<PATS
^Breakpoint 1, tally
^\\\$1 = 256\$
^\\\$2 = \{x = 1, v = -1, cell = 2\}\$
^50[[:space:]]+if \(i < n\) \{
^\\\$3 = 0\$
^dbg_particles: PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
^\\\$4 = 1\$
PATS

# a user command that walks lanes at a stop (define/while over $argc-given bounds)
printf 'define lanes
  set $l = $arg0
  while $l < $arg1
    cuda lane $l
    print i
    set $l = $l + 1
  end
end
break dbg_particles.cu:50
run
lanes 2 5
' \
    >"$tmp/lanes.gdb"
scenario define-walks-lanes 0 -x "$tmp/lanes.gdb" $DP <<PATS
^Breakpoint 1, tally
^\\\$1 = 2\$
^\\\$2 = 3\$
^\\\$3 = 4\$
PATS

# a rerun keeps the state: hit counts of a breakpoint made at a stop after `start`, the value
# history's numbers (7, 256, 263, then 526 after the program ended)
scenario rerun-state 0 -ex 'print 7' -ex start -ex 'print n' -ex 'break deposit' -ex continue \
    -ex run -ex 'info breakpoints' -ex 'print $1 + $2' -ex delete -ex continue \
    -ex 'print $3 * 2' $DP <<PATS
^\\\$1 = 7\$
^init_particles<<<\(2,1,1\),\(128,1,1\)>>> .* at dbg_particles\.cu:24\$
^\\\$2 = 256\$
^Breakpoint 1, deposit
^Breakpoint 1, deposit
breakpoint already hit 2 times
^\\\$3 = 263\$
^dbg_particles: PASSED\$
^\\\$4 = 526\$
PATS

# set logging overwrite on empties the log when logging is switched on, never at a run; the
# program's own output is not the debugger's (not logged)
echo stale >"$tmp/log.txt"
scenario logging-across-run 0 -ex "set logging file $tmp/log.txt" -ex 'set logging overwrite on' \
    -ex 'set logging on' -ex 'echo before-run\n' -ex 'break tally' -ex run -ex 'echo at-stop\n' \
    -ex delete -ex continue -ex 'echo after-exit\n' -ex 'set logging off' $DP <<PATS
^before-run\$
^at-stop\$
^dbg_particles: PASSED\$
^after-exit\$
PATS
if ! selected logging-across-run; then
    :
elif ! grep -q before-run "$tmp/log.txt" || ! grep -q at-stop "$tmp/log.txt" ||
   ! grep -q after-exit "$tmp/log.txt"; then
    fail "logging-file" "the log lost lines: $(tr '\n' '|' <"$tmp/log.txt" | cut -c1-200)"
elif grep -q stale "$tmp/log.txt" || grep -q 'dbg_particles: PASSED' "$tmp/log.txt"; then
    fail "logging-file" "the log kept old lines or the program's output"
elif [ "$(grep -n before-run "$tmp/log.txt" | cut -d: -f1)" -gt "$(grep -n at-stop "$tmp/log.txt" | cut -d: -f1)" ]; then
    fail "logging-file" "lines out of order"
else
    pass "logging-file"
fi

# one lane stepped at a breakpoint line (a loop of __shfl_down_sync, a call under -G): its
# warp-mates sitting at the breakpoint are not new hits, the focus stays on thread 5, and no lane
# is left inside __shfl_down_sync while thread 5 is past it
scenario lane-step-at-breakpoint 0 -ex 'break dbg_particles.cu:62' -ex run -ex 'cuda thread (5,0,0)' \
    -ex 'next -lane' -ex 'next -lane' -ex 'next -lane' -ex 'next -lane' -ex delete \
    -ex 'next -lane' -ex 'next -lane' -ex 'next -lane' -ex 'info cuda lanes' -ex continue $DP <<PATS
^\[Switching focus to CUDA kernel 2, grid 3, block \(0,0,0\), thread \(5,0,0\)
^61[[:space:]]+for \(int off = 16; off > 0; off /= 2\)
^dbg_particles: PASSED\$
PATS
if selected lane-step-at-breakpoint && [ -f "$d/all" ]; then
    after=$(sed -n '/thread (5,0,0), device/,$p' "$d/all" | tail -n +2)
    if echo "$after" | grep -q '^\[Switching focus'; then
        fail "lane-step-focus" "the focus left thread 5: $(echo "$after" | grep -m1 '^\[Switching')"
    elif echo "$after" | grep -q 'sm_30_intrinsics'; then
        fail "lane-step-focus" "a lane was left inside __shfl_down_sync"
    else
        pass "lane-step-focus"
    fi
fi

# ---- the same scenarios on statically linked builds (nvcc's default runtime) ----------------------
VS="--args ./vector_add.G.static 1000"
scenario static-break-file-line-cond 0 -ex 'break vector_add.cu:10 if threadIdx.x == 5' -ex run \
    -ex 'print i' -ex 'print sum' -ex 'info cuda kernels' -ex continue -ex 'print i' -ex delete \
    -ex continue $VS <<PATS
^Breakpoint 1 \(vector_add\.cu:10\) pending\.\$
^Breakpoint 1, vector_add<<<\(8,1,1\),\(128,1,1\)>>> \(a=0x[0-9a-f]+, b=0x[0-9a-f]+, c=0x[0-9a-f]+, n=1000\) at vector_add\.cu:10\$
^\\\$1 = $va_i5\$
^\\\$2 = $va_s5\$
^\* +0 +0 +1 +Active +\(8,1,1\) +\(128,1,1\) .*vector_add
^Breakpoint 1, vector_add.* at vector_add\.cu:10\$
^\\\$3 = $va_i133\$
^vector_add: 1000 elements PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

scenario static-fault-stop nz -ex run -ex 'print i' -ex 'print value' -ex bt --args ./fault_oob.G.static <<PATS
CUDA Exception: Warp (Out-of-range|Illegal) Address
block \(1,0,0\) thread \(5,0,0\) at fault_oob\.cu:10
^\\\$1 = 37\$
^\\\$2 = 370\$
^#0 .*write_past.* at fault_oob\.cu:10
PATS

scenario static-two-modules 0 -ex 'break multi_module_b.cu:12 if threadIdx.x == 3 && add == 2' -ex run \
    -ex 'print i' -ex 'print delta' -ex 'print x[i]' -ex 'info cuda kernels' -ex delete -ex continue \
    --args ./multi_module.G.static <<PATS
^Breakpoint 1, offset<<<\(5,1,1\),\(64,1,1\)>>> .*add=2\) at multi_module_b\.cu:12\$
^\\\$1 = 3\$
^\\\$2 = 14\$
^\\\$3 = $mm_x3\$
^\* +5 +0 +6 .*offset
^multi_module: PASSED\$
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
PATS

# ---- particles.cu: structs, templates, inline functions; -G and -O3 -lineinfo builds ----------------
PA="--args ./particles.G"
PO="--args ./particles"
# thread 96 is lane 0 of warp 3; threads 100..127 (lanes 4..31) have i >= n = 100 and wait at
# the end of the kernel (line 37), where q does not exist. Particle is 2 float3 + float + int.
# (stdout comes before stderr: the refused calls are matched last)
pa_size=$(( 3 * 4 + 3 * 4 + 4 + 4 ))
scenario expressions nz -ex 'break particles.cu:33 if i == 96' -ex run -ex 'print sizeof(Particle)' \
    -ex 'print sizeof(float3)' -ex 'print sizeof(Particle) == sizeof(struct Particle)' \
    -ex 'print ((Particle)ps[i]).id' -ex 'print ((float3)q.vel).y' -ex 'print (Particle)*(ps + 97)' \
    -ex 'print energy(q)' -ex 'call step_pos(q.pos, q.vel, dt)' -ex 'print -lanes q.mass' \
    -ex delete -ex continue $PA <<PATS
^Breakpoint 1, advance.* at particles\.cu:33\$
^\\\$1 = $pa_size\$
^\\\$2 = 12\$
^\\\$3 = 1\$
^\\\$4 = 96\$
^\\\$5 = 1\$
^\\\$6 = \{pos = \{x = 97, y = 194, z = -97\}, vel = \{x = 1, y = 1, z = -0.25\}, mass = 2, id = 97\}\$
^\* Lane +0 \(thread \(96,0,0\)\): 1\$
Lane +3 \(thread \(99,0,0\)\): 4\$
Lane +4 \(thread \(100,0,0\)\): <inactive> +\(divergent at particles\.cu:37\)\$
Lane 31 \(thread \(127,0,0\)\): <inactive>
^particles: PASSED\$
energy\(\.\.\.\): calling functions is not supported
step_pos\(\.\.\.\): calling functions is not supported
PATS

# absent NAME REGEX: the output of the last scenario (NAME) has no line matching REGEX
absent() {
    selected "$1" || return 0
    if grep -Eq "$2" "$d/all" 2>/dev/null; then
        fail "absent $1" "a line matches '$2': $(grep -Em1 "$2" "$d/all" | cut -c1-160)"
    else
        pass "absent $1"
    fi
}

# -O3 -lineinfo: row_sum<4> is inlined into copy_row<4> at line 52; every name is demangled
# (bt, frame lines, info frame, breakpoint locations, disassemble headers); disassemble's
# /s /m /r modifiers (alone and combined, with and without a function)
scenario lineinfo-names 0 -ex 'break particles.cu:44' -ex run -ex bt -ex 'info frame' \
    -ex 'info breakpoints' -ex 'disassemble /s' -ex 'disassemble /m' -ex 'disassemble /r' \
    -ex 'disassemble /rs copy_row<4>' -ex 'disassemble /r /m' -ex delete -ex continue $PO <<PATS
^Breakpoint 1, row_sum<4> \(\) at particles\.cu:44\$
^44[[:space:]]+s \+= row\[k\];
^#0  row_sum<4> \(\) at particles\.cu:44\$
^#1  copy_row<4><<<\(2,1,1\),\(32,1,1\)>>> \(.*\) at particles\.cu:52\$
 pc = 0x[0-9a-f]+ in row_sum<4> \(particles\.cu:44\)\$
in row_sum<4>\(int const\*\) at particles\.cu:44\$
^Dump of assembler code for function copy_row<4>\(int const\*, int\*, int\):\$
^particles\.cu:\$
^52[[:space:]]+dst\[r\] = row_sum<W>\(src \+ r \* W\);
^44[[:space:]]+s \+= row\[k\];
^=> 0x[0-9a-f]+ <\+[0-9]+>:[[:space:]]+mul\.wide\.s32
^End of assembler dump\.\$
^Dump of assembler code for function copy_row<4>
^44[[:space:]]+s \+= row\[k\];
^48[[:space:]]+template <int W>
^52[[:space:]]+dst\[r\]
^End of assembler dump\.\$
^Dump of assembler code for function copy_row<4>
^   0x[0-9a-f]+ <\+0>:[[:space:]]+ptx:[0-9]+[[:space:]]+ld\.param
^End of assembler dump\.\$
^Dump of assembler code for function copy_row<4>
^particles\.cu:\$
^   0x[0-9a-f]+ <\+0>:[[:space:]]+ptx:[0-9]+[[:space:]]+ld\.param
^End of assembler dump\.\$
^Dump of assembler code for function copy_row<4>
^44[[:space:]]+s \+= row\[k\];
^=> 0x[0-9a-f]+ <\+[0-9]+>:[[:space:]]+ptx:[0-9]+[[:space:]]+mul\.wide\.s32
^particles: PASSED\$
PATS
absent lineinfo-names '_Z[0-9]+row_sum|Function "/'

# sources moved away: the stop lists PTX (file missing), `directory` finds them, and every
# list form is back to source lines (A,B  N  ,B  A,  -  FUNC), not PTX lines
mkdir -p "$tmp/moved"
cp "$C/particles.G" "$tmp/moved/" 2>/dev/null
scen_dir=$tmp/moved
# the sources must be missing at the path the program records (the staging folder of
# build.sh, which a rebuild may have left behind): substitute-path sends it nowhere
scenario list-directory nz -ex 'set substitute-path /tmp/ptxdbg-cuda-programs /nonexistent-ptxdbg-staging' \
    -ex 'break particles.cu:33' -ex run -ex list -ex 'list 30,32' \
    -ex "directory $C" -ex 'list 30,32' -ex 'list 41,41' -ex 'list ,19' -ex 'list 24,' \
    -ex list -ex 'list -' -ex 'list energy' --args ./particles.G <<PATS
^Breakpoint 1, advance.* at particles\.cu:33\$
^[0-9]+[[:space:]]+\.loc[[:space:]]
^30[[:space:]]+if \(i < n\) \{\$
^31[[:space:]]+Particle q = ps\[i\];\$
^32[[:space:]]+q\.pos = step_pos\(q\.pos, q\.vel, dt\);\$
^41[[:space:]]+int s = 0;\$
^19[[:space:]]+return make_float3
^24[[:space:]]+return 0\.5f \* q\.mass
^33[[:space:]]+ps\[i\] = q;\$
^Listing the PTX: source file particles\.cu not found
PATS
unset scen_dir

# a fault inside a toolkit helper: atomicAdd on a freed counter faults in __iAtomicAdd (-G, no
# line) or in the inlined atomicAdd of device_atomic_functions.hpp (-O3): the reports name the
# user's line 35 in advance, in plain runs and at the stop; the kernel is Terminated and its
# block shows the exception, not "running"
scenario helper-fault-G nz -ex run -ex bt -ex 'info cuda kernels' -ex 'info cuda blocks' \
    --args ./particles.G atomic <<PATS
^The exception was triggered at PC 0x[0-9a-f]+ \(.*:[0-9]+ in __iAtomicAdd, called from particles\.cu:35 in advance\)\$
^Kernel faulted: block \(0,0,0\) thread \(1,0,0\) at particles\.cu:35 in advance\$
in advance<<<\(1,1,1\),\(128,1,1\)>>> \(.*\) at particles\.cu:35\$
^#0  __iAtomicAdd \(\)
^#1  0x[0-9a-f]+ in atomicAdd \(address=0x[0-9a-f]+, val=1\) at device_atomic_functions\.hpp:[0-9]+\$
^#2  0x[0-9a-f]+ in advance<<<
^\* +0 +0 +1 Terminated
^\* +\(0,0,0\) +\(0,0,0\) +1 exception\$
PATS
absent helper-fault-G '_INTERNAL_| running$'
scenario helper-fault-O3 nz -ex run --args ./particles atomic <<PATS
^The exception was triggered at PC 0x[0-9a-f]+ \(device_atomic_functions\.hpp:[0-9]+ in atomicAdd, called from particles\.cu:35 in advance\)\$
^Kernel faulted: block \(0,0,0\) thread \(1,0,0\) at particles\.cu:35 in advance\$
PATS
# two blocks: block 0 exited, block 1 faulted
scenario blocks-after-fault nz -ex run -ex 'info cuda blocks' $FA <<PATS
^ +\(0,0,0\) +\(0,0,0\) +1 exited\$
^\* +\(1,0,0\) +\(1,0,0\) +1 exception\$
PATS
# plain runs (no debugger): the same user line in the report on stderr
selected report-atomic && for prog in particles particles.G; do
    newdir
    run_case "$d" env LD_LIBRARY_PATH="$libdir" "$C/$prog" atomic
    if [ "$(cat "$d/rc")" = 3 ] &&
       grep -Eq '^The exception was triggered at PC 0x[0-9a-f]+ \(.* in (__iAtomicAdd|atomicAdd), called from particles\.cu:35 in advance; PTX line [0-9]+\)$' "$d/stderr" &&
       grep -Eq '^Kernel faulted: kernel advance\(Particle\*, int, float, int\*\) \(launch 0\), block \(0,0,0\) thread \(1,0,0\) at particles\.cu:35 in advance$' "$d/stderr"; then
        pass "report $prog atomic"
    else
        fail "report $prog atomic" "exit $(cat "$d/rc"); $(grep -m1 triggered "$d/stderr")"
    fi
done

# host code (item: break main stayed <PENDING> for the whole run): functions and lines of the
# program's host side are refused with the reason, device ones stay pending and are hit; the
# launch site comes from the program's own host DWARF. Lines are looked up in the source.
pl() { grep -n -F "$1" "$C/particles.cu" | head -n 1 | cut -d: -f1; }
l_free=$(pl 'CHECK(cudaFree(p));')
l_rel_src=$(pl 'release(src);')
l_rel_moved=$(pl 'release(moved);')
l_copy=$(pl 'copy_row<4><<<2, 32>>>(src, dst, rows);')
l_adv=$(pl 'advance<<<1, 128>>>(dp, n, 0.5f, moved);')
l_host=$(pl 'c += e > 1.0f;')
scenario host-breaks nz -ex 'break main' -ex 'break host_fn' -ex "break particles.cu:$l_host" \
    -ex 'tbreak release' -ex 'break particles.cu:44' -ex run -ex bt -ex 'info cuda kernels' \
    -ex 'break main' -ex delete -ex continue $PA <<PATS
^Breakpoint 1 \(particles\.cu:44\) pending\.\$
^Breakpoint 1, row_sum<4> \(row=0x[0-9a-f]+\) at particles\.cu:44\$
^#1  copy_row<4><<<
^Launched from host: main at particles\.cu:$l_copy\$
Launch Site
^\* +1 +0 +2 Active .* main at particles\.cu:$l_copy copy_row<4>
^particles: PASSED\$
^Function "main" is host code of particles\.G: ptxdbg stops in device code only
^Function "host_fn" is host code of particles\.G: ptxdbg stops in device code only
^Line $l_host of "particles\.cu" is host code of particles\.G: ptxdbg stops in device code only
^Function "release" is host code of particles\.G
^Function "main" is host code of particles\.G
PATS
# -O3 -lineinfo: the first launch is advance's
scenario launch-site-O3 0 -ex 'break particles.cu:33' -ex run -ex bt -ex delete -ex continue $PO <<PATS
^Launched from host: main at particles\.cu:$l_adv\$
^particles: PASSED\$
PATS
# a program without host debug info (stripped): the site is an address, and says why
scenario launch-site-stripped 0 -ex 'break vector_add.cu:10' -ex run -ex bt -ex delete -ex continue \
    $VA <<PATS
^Launched from host: 0x[0-9a-f]+ in vector_add\.G \(no host debug info\)\$
^vector_add: 1000 elements PASSED\$
PATS
# a kernel reading memory released by cudaFree: inside that allocation, freed by cudaFree, and
# where (release at the cudaFree line, called from main where release(src) is)
freed_re="inside cudaMalloc#[0-9]+ \[0x[0-9a-f]+, 1024 bytes\) at offset [0-9]+, which was freed by cudaFree, called from release at particles\.cu:$l_free, called from main at particles\.cu:$l_rel_src"
scenario freed-G nz -ex run --args ./particles.G freed <<PATS
^Kernel faulted: block \(0,0,0\) thread \(0,0,0\) at particles\.cu:44 in row_sum<4>\$
$freed_re\$
PATS
selected freed-plain && for prog in particles particles.G; do
    newdir
    run_case "$d" env LD_LIBRARY_PATH="$libdir" "$C/$prog" freed
    if [ "$(cat "$d/rc")" = 3 ] && grep -Eq "\($freed_re\)\$" "$d/stderr" &&
       grep -Eq "^  launched from main at particles\.cu:$l_copy\$" "$d/stderr"; then
        pass "freed-plain $prog"
    else
        fail "freed-plain $prog" "exit $(cat "$d/rc"); $(grep -m1 'access' "$d/stderr")"
    fi
done
# atomicAdd on the freed counter: the same description, the free of release(moved)
selected freed-atomic && {
    newdir
    run_case "$d" env LD_LIBRARY_PATH="$libdir" "$C/particles" atomic
    if grep -Eq "inside cudaMalloc#[0-9]+ \[0x[0-9a-f]+, 4 bytes\) at offset 0, which was freed by cudaFree, called from release at particles\.cu:$l_free, called from main at particles\.cu:$l_rel_moved\)\$" "$d/stderr"; then
        pass "freed-atomic"
    else
        fail "freed-atomic" "$(grep -m1 'access' "$d/stderr")"
    fi
}

# functions that exist only inlined (row_sum<4> at -O3, energy with __forceinline__ in both
# builds): break and list find their inlined instances instead of staying pending
scenario inline-breaks-O3 0 -ex 'break energy' -ex 'break row_sum' -ex run -ex bt -ex 'list energy' \
    -ex 'delete 1' -ex continue -ex bt -ex delete -ex continue $PO <<PATS
^Breakpoint 1, energy \(\) at particles\.cu:24\$
^#0  energy \(\) at particles\.cu:24\$
^#1  advance<<<
^2[0-9][[:space:]]
^24[[:space:]]+return 0\.5f \* q\.mass
^Breakpoint 2, row_sum<4> \(\) at particles\.cu:4[0-9]\$
^#1  copy_row<4><<<
^particles: PASSED\$
PATS
scenario inline-breaks-G 0 -ex 'break energy' -ex run -ex 'print q.mass' -ex 'info breakpoints' \
    -ex delete -ex continue $PA <<PATS
^Breakpoint 1, energy \(q=\.\.\.\) at particles\.cu:24\$
^\\\$1 = 1\$
in energy\(Particle const&\) at particles\.cu:24\$
^particles: PASSED\$
PATS

# ---- dbg_tiles.cu: cooperative groups, a template taking a tile, atomics, cudaFreeAsync ---------
DT="--args ./dbg_tiles.G"
dt_line() { grep -n -F "$1" "$C/dbg_tiles.cu" | head -n 1 | cut -d: -f1; }
dt_cas=$(dt_line 'old = atomicCAS(p, seen')
dt_launch=$(dt_line 'cudaLaunchCooperativeKernel')
dt_free=$(dt_line 'CHECK(cudaFreeAsync(hist, st));')
dt_part=$(dt_line 'partial<<<N / 128, 128, 0, st>>>')
dt_hsum=$(dt_line 'T s = 0;')
# tile_sum<8>'s mangled name has a template parameter inside a parameter type: tbreak, the stop
# and bt name it; sizeof takes the tile's type as DWARF and the demangler write it (the program
# prints the host's sizeof of cg::thread_block_tile<8>); host templates and lines are refused.
# Thread 0's v is scale(in[0]) = 3 * ((0 * 7) % 13 + 1) = 3 (apply's lambda added the 1).
scenario template-tile nz -ex 'tbreak tile_sum<8>' -ex 'break host_sum' -ex "break dbg_tiles.cu:$dt_hsum" \
    -ex run -ex bt -ex 'print sizeof(thread_block_tile<8U,void>)' \
    -ex 'print sizeof(cg::thread_block_tile<8u, void>)' -ex 'whatis t' -ex 'info breakpoints' \
    -ex continue -ex 'print $_exitcode' $DT <<PATS
^Temporary breakpoint 1, tile_sum<8> \(t=\.\.\., v=3\) at dbg_tiles\.cu:2[0-9]\$
^#0  tile_sum<8> \(t=\.\.\., v=3\) at dbg_tiles\.cu:2[0-9]\$
^#1  .* in partial<<<\(8,1,1\),\(128,1,1\)>>> .* at dbg_tiles\.cu:[0-9]+\$
^Launched from host: main at dbg_tiles\.cu:$dt_part\$
^\\\$1 = ([0-9]+)\$
^\\\$2 = ([0-9]+)\$
^type = thread_block_tile<8U,void>\$
^No breakpoints or watchpoints\.\$
^dbg_tiles: tile ([0-9]+) bytes
^\[Inferior 1 \(process [0-9]+\) exited normally\]\$
^\\\$3 = 0\$
^Function "host_sum" is host code of dbg_tiles\.G: ptxdbg stops in device code only
^Line $dt_hsum of "dbg_tiles\.cu" is host code of dbg_tiles\.G
PATS
# the three sizes must agree (the regexes above only say they are numbers)
if selected template-tile; then
    dt_sizes=$(sed -n 's/^\$[12] = //p; s/^dbg_tiles: tile \([0-9]*\) bytes.*/\1/p' "$d/all" 2>/dev/null |
               sort -u | wc -l)
    if [ "${dt_sizes:-0}" = 1 ]; then pass "template-tile-sizeof"
    else fail "template-tile-sizeof" "sizes differ: $(grep -E '^\$[12] =|bytes' "$d/all" 2>/dev/null | tr '\n' ' ')"; fi
fi
# a kernel template launched with a __device__ lambda: its name demangles (a lambda, a local
# name of main) and its launch site is main's line, past the host wrapper (whose template
# argument is nvcc's lambda wrapper, not the lambda)
dt_apply=$(dt_line 'apply<<<N / 128, 128, 0, st>>>')
for dt_bin in dbg_tiles.G dbg_tiles.G.static; do
scenario "lambda-kernel-$dt_bin" 0 -ex 'break apply' -ex run -ex bt -ex delete \
    -ex continue --args ./$dt_bin <<PATS
^Breakpoint 1, apply<main::\{lambda\(int\)#1\}><<<\(8,1,1\),\(128,1,1\)>>> \(p=0x[0-9a-f]+, n=1024, f=\.\.\.\) at dbg_tiles\.cu:[0-9]+\$
^#0  apply<main::\{lambda\(int\)#1\}><<<
^Launched from host: main at dbg_tiles\.cu:$dt_apply\$
^dbg_tiles: tile [0-9]+ bytes
PATS
done
# the stripped build (no host debug information): a template kernel named without its arguments
# is device code (no note); a name no module has stays pending with a note saying why
scenario lambda-kernel-stripped 0 -ex 'break apply' -ex 'break no_such_fn' -ex run -ex delete \
    -ex continue --args ./dbg_tiles <<PATS
^Breakpoint 1 \(apply\) pending\.\$
^No kernel or __device__ function "no_such_fn" in dbg_tiles; ptxdbg stops in device code only
^Breakpoint 2 \(no_such_fn\) pending\.\$
^Breakpoint 1, apply<main::\{lambda\(int\)#1\}><<<\(8,1,1\),\(128,1,1\)>>>
^dbg_tiles: tile [0-9]+ bytes
PATS
if selected lambda-kernel-stripped && [ -f "$d/all" ]; then
    if grep -q 'function "apply"' "$d/all"; then fail "lambda-kernel-stripped-nonote" "apply got a note"
    else pass "lambda-kernel-stripped-nonote"; fi
fi
# host functions named with their parameter lists (spaces inside them) are host code too; the
# device overload so named is not
scenario host-names-with-params nz -ex 'break scale(int, int)' \
    -ex 'break host_sum<int>(int const*, int)' -ex 'break scale(int)' -ex 'info breakpoints' $DT <<PATS
^Breakpoint 1 \(scale\(int\)\) pending\.\$
^1 +breakpoint +keep y +<PENDING> +scale\(int\)\$
^Function "scale\(int, int\)" is host code of dbg_tiles\.G: ptxdbg stops in device code only
^Function "host_sum<int>\(int const\*, int\)" is host code of dbg_tiles\.G
PATS
# a core written inside atomicCAS (unsigned long long) called from the CAS loop of max_double
scenario core-in-atomiccas 0 -ex "break dbg_tiles.cu:$dt_cas" -ex run -ex step \
    -ex "gcore $tmp/cas.core" -ex delete -ex continue $DT <<PATS
^Breakpoint 1, max_double \(a=0x[0-9a-f]+, v=[0-9.]+\) at dbg_tiles\.cu:$dt_cas\$
^atomicCAS \(address=0x[0-9a-f]+, compare=0, val=[0-9]+\) at device_atomic_functions\.hpp:[0-9]+\$
^Saved corefile
^dbg_tiles: tile [0-9]+ bytes
PATS
scenario core-in-atomiccas-open 0 -ex bt -ex up -ex 'print seen' -ex up -ex 'print i' \
    -ex 'info cuda kernels' --core "$tmp/cas.core" <<PATS
^#0  atomicCAS \(address=0x[0-9a-f]+, compare=0, val=[0-9]+\) at device_atomic_functions\.hpp:[0-9]+\$
^#1  0x[0-9a-f]+ in max_double \(a=0x[0-9a-f]+, v=[0-9.]+\) at dbg_tiles\.cu:$dt_cas\$
^#2  0x[0-9a-f]+ in combine<<<\(4,1,1\),\(32,1,1\)>>> .* at dbg_tiles\.cu:[0-9]+\$
^Launched from host: main at dbg_tiles\.cu:$dt_launch\$
^\\\$1 = 0\$
^\\\$2 = 96\$
main at dbg_tiles\.cu:$dt_launch combine\(int const\*, unsigned long long\*, double\*, int\*\)\$
PATS
# nvcc's default build (the runtime linked statically, with host debug information): the
# launch site and the release name the program's lines, not the static runtime's internals
for dt_bin in dbg_tiles.G dbg_tiles.G.static; do
scenario "freed-async-$dt_bin" nz -ex run -ex bt -ex 'info cuda kernels' --args ./$dt_bin free <<PATS
which was freed by cudaFreeAsync, called from main at dbg_tiles\.cu:$dt_free\)\$
^Launched from host: main at dbg_tiles\.cu:$dt_launch\$
main at dbg_tiles\.cu:$dt_launch combine
PATS
done

# ---- dbg_bank.cu: a class's members used bare, overloads, address locations --------------------
BK="--args ./dbg_bank.G"
bk_line() { grep -n -F "$1" "$C/dbg_bank.cu" | head -n 1 | cut -d: -f1; }
bk_post=$(bk_line 'atomicAdd(&count, 1);')
bk_or=$(bk_line 'atomicOr(&bits')
bk_audit=$(bk_line 'if (amt[i] < x.lo)')
bk_cf=$(bk_line '__device__ float clampv(float v)')
bk_ci=$(bk_line '__device__ int clampv(int v)')
# in a member function a member's bare name is this->member (gdb reads C++'s implicit this)
scenario member-implicit-this nz -ex 'break Ledger::post' -ex run -ex 'print count == this->count' \
    -ex 'print &total == &this->total' -ex 'print &bits' -ex 'print nosuch' -ex delete -ex continue $BK <<PATS
^Breakpoint 1, Ledger::post \(this=0x[0-9a-f]+, v=0\) at dbg_bank\.cu:$bk_post\$
^\\\$1 = 1\$
^\\\$2 = 1\$
^\\\$3 = \(unsigned long long \*\) 0x[0-9a-f]+\$
^dbg_bank: PASSED\$
^No symbol "nosuch" in current context\.\$
PATS
# break LINE before the run: the line of the program's .cu (its first kernel's file), not of the
# first file nvcc's line table names (a CUDA header); *EXPR locations (info line, stepi's
# address, until) as gdb evaluates them
scenario default-file-address-locations nz -ex "break $bk_audit if i == 999" -ex run -ex 'print i' \
    -ex 'info line *$pc' -ex stepi -ex 'until *$pc + 1' -ex 'info line *nosuch' -ex delete \
    -ex continue $BK <<PATS
^Breakpoint 1, audit<<<\(4,1,1\),\(256,1,1\)>>> \(amt=0x[0-9a-f]+, n=1000, r=0x[0-9a-f]+\) at dbg_bank\.cu:$bk_audit\$
^\\\$1 = 999\$
^Line $bk_audit of "dbg_bank\.cu" starts at address 0x[0-9a-f]+ <audit\+[0-9]+> and ends at 0x[0-9a-f]+ <audit\+[0-9]+>\.\$
^0x[0-9a-f]+	$bk_audit	
^0x[0-9a-f]+ in audit<<<\(4,1,1\),\(256,1,1\)>>> \(amt=0x[0-9a-f]+, n=1000, r=0x[0-9a-f]+\) at dbg_bank\.cu:$bk_audit\$
^dbg_bank: PASSED\$
^No symbol "nosuch" in current context\.\$
PATS
# a launch through cuda_runtime.h's template cudaLaunchKernel<T> in a program with symbols but
# no lines: the launch site is main's address, not the template's (it said cudaLaunchKernel<void
# (float const*, int, Pair<float>*)>+0x4e); block (4,0,0) thread (64,0,0) reads amt[1088], past
# the 4000 bytes and the 352 a GPU maps after them
scenario launch-template-site nz -ex run -ex bt -ex 'info cuda kernels' -ex 'info cuda blocks' \
    $BK audit <<PATS
^  launched from main\+0x[0-9a-f]+ in dbg_bank\.G \(no host debug info\)\$
^#0  0x[0-9a-f]+ in audit<<<\(8,1,1\),\(256,1,1\)>>> .* at dbg_bank\.cu:$bk_audit\$
^Launched from host: main\+0x[0-9a-f]+ in dbg_bank\.G \(no host debug info\)\$
^\* +1 +0 +2 Terminated .* main\+0x[0-9a-f]+ in dbg_bank\.G \(no host debug info\) audit\(
^\*    \(4,0,0\)      \(4,0,0\)       1 exception\$
PATS
# print -lanes of an expression the focused lane cannot evaluate is one error, as print's; lane
# k of block 0 has v = clampv(scale(k % 17)) = 2 * k for k < 17
scenario lanes-expr-error nz -ex 'break max_float' -ex run -ex 'print -lanes nosuch' \
    -ex 'print -lanes v' -ex delete -ex continue $BK <<PATS
^\* Lane  0 \(thread \(0,0,0\)\): 0\$
^  Lane  3 \(thread \(3,0,0\)\): 6\$
^  Lane 16 \(thread \(16,0,0\)\): 32\$
^dbg_bank: PASSED\$
^No symbol "nosuch" in current context\.\$
PATS
if selected lanes-expr-error && [ -f "$d/all" ]; then
    n_err=$(grep -c 'No symbol "nosuch"' "$d/all")
    if [ "$n_err" = 1 ]; then pass "lanes-expr-error-once"
    else fail "lanes-expr-error-once" "$n_err error lines"; fi
fi
# a fault inside atomicAdd's helpers selects the user's frame (#2, deposit); the core of that
# stop (the round trip check of every stop) reopens with the same frame selected
scenario fault-in-helper-core-frame nz -ex run -ex frame --args ./dbg_particles.G 10 fault <<PATS
^#2  0x[0-9a-f]+ in deposit \(st=0x[0-9a-f]+, q=\.\.\.\) at dbg_particles\.cu:[0-9]+\$
PATS
if selected fault-in-helper-core-frame && [ -f "$d/all" ]; then
    if grep -q 'Core round trip' "$d/all"; then
        fail "fault-in-helper-core-frame-roundtrip" "$(grep -A2 'Core round trip' "$d/all" | tr '\n' ' ')"
    else pass "fault-in-helper-core-frame-roundtrip"; fi
fi
# -O3 -lineinfo: Ledger::post is inlined with atomicAdd inlined into its first instruction; the
# breakpoint on post stops in post's frame (gdb hides the inlined frames that start there; it
# said "Breakpoint 1, atomicAdd ()"), and next steps post's lines, over the inlined atomics
scenario break-inline-frame-O3 0 -ex 'break Ledger::post' -ex run -ex next -ex next -ex delete \
    -ex continue --args ./dbg_bank <<PATS
^Breakpoint 1, Ledger::post \(\) at dbg_bank\.cu:$bk_post\$
^$((bk_post + 1))	        atomicAdd\(&total, v\);\$
^$((bk_post + 2))	        atomicAdd\(&dtotal, \(double\)v\);\$
^dbg_bank: PASSED\$
PATS
# -O3 -lineinfo has no DWARF variables: the kernel's parameters go by the names its frame line
# shows (param_1 is deposit's n = 1000)
scenario o3-param-names nz -ex 'break deposit' -ex run -ex 'print param_1' -ex 'print param_1 * 2' \
    -ex 'print param_9' -ex delete -ex continue --args ./dbg_bank <<PATS
^Breakpoint 1, deposit<<<\(8,1,1\),\(128,1,1\)>>> \(param_0=0x[0-9a-f]+, param_1=1000, param_2=0x[0-9a-f]+, param_3=0x[0-9a-f]+\) at dbg_bank\.cu:[0-9]+\$
^\\\$1 = 1000\$
^\\\$2 = 2000\$
^dbg_bank: PASSED\$
^No symbol "param_9" in current context\.\$
PATS
# gdb says "Continuing." (and continue N's ignore count, naming the breakpoint) where the command
# came from a terminal or a -ex outside -batch, never in -batch or scripts; a deleted breakpoint
# is no longer the one stopped at
scen_batch=
scenario continuing-from-tty 0 -ex 'break scale' -ex run -ex 'continue 3' -ex delete \
    -ex 'continue 2' $BK <<PATS
^Will ignore next 2 crossings of breakpoint 1\.  Continuing\.\$
^Not stopped at any breakpoint; argument ignored\.\$
^Continuing\.\$
^dbg_bank: PASSED\$
PATS
unset scen_batch
scenario continuing-batch 0 -ex 'break scale' -ex run -ex 'continue 3' -ex delete -ex continue \
    $BK <<PATS
^dbg_bank: PASSED\$
PATS
if selected continuing-batch && [ -f "$d/all" ]; then
    if grep -q 'Continuing\|Will ignore' "$d/all"; then fail "continuing-batch-silent" "$(grep 'Contin' "$d/all")"
    else pass "continuing-batch-silent"; fi
fi
# -O3 -lineinfo: an overloaded device function, inlined twice, is one breakpoint of two locations
scenario overloads-O3 0 -ex 'break clampv' -ex run -ex 'info breakpoints' -ex bt -ex delete \
    -ex continue --args ./dbg_bank <<PATS
^Breakpoint 1, clampv \(\) at dbg_bank\.cu:$bk_cf\$
^1 +breakpoint +keep y +<MULTIPLE> *\$
^1\.1 +y +0x[0-9a-f]+ in clampv\(float\) at dbg_bank\.cu:$bk_cf\$
^1\.2 +y +0x[0-9a-f]+ in clampv\(int\) at dbg_bank\.cu:$bk_ci\$
^#0  clampv \(\) at dbg_bank\.cu:$bk_cf\$
^#1  deposit<<<
^dbg_bank: PASSED\$
PATS
# a core written inside atomicOr on unsigned long long, reached by a step, with Ledger::post's
# frame selected: the core reopens there (the selected frame is part of the saved focus), and the
# frames and the members read the same from the core as at the live stop
scenario core-in-atomicor 0 -ex "break $bk_or" -ex run -ex step -ex up -ex 'print *this' \
    -ex "gcore $tmp/or.core" -ex delete -ex continue $BK <<PATS
^Breakpoint 1, Ledger::post \(this=0x[0-9a-f]+, v=0\) at dbg_bank\.cu:$bk_or\$
^atomicOr \(address=0x[0-9a-f]+, val=1\) at sm_32_atomic_functions\.hpp:[0-9]+\$
^#1  0x[0-9a-f]+ in Ledger::post \(this=0x[0-9a-f]+, v=0\) at dbg_bank\.cu:$bk_or\$
^\\\$1 = \{count = [0-9]+, total = [0-9]+, dtotal = [0-9]+, bits = [0-9]+\}\$
^Saved corefile
^dbg_bank: PASSED\$
PATS
bk_live=
selected core-in-atomicor && bk_live=$(sed -n 's/^\$1 = //p' "$d/all" 2>/dev/null)
scenario core-in-atomicor-open 0 -ex bt -ex 'print *this' -ex 'print bits' \
    --core "$tmp/or.core" <<PATS
^0x[0-9a-f]+ in Ledger::post \(this=0x[0-9a-f]+, v=0\) at dbg_bank\.cu:$bk_or\$
^#0  atomicOr \(address=0x[0-9a-f]+, val=1\) at sm_32_atomic_functions\.hpp:[0-9]+\$
^#1  0x[0-9a-f]+ in Ledger::post \(this=0x[0-9a-f]+, v=0\) at dbg_bank\.cu:$bk_or\$
^#2  0x[0-9a-f]+ in deposit<<<\(8,1,1\),\(128,1,1\)>>> .* at dbg_bank\.cu:[0-9]+\$
^\\\$1 = \{count = [0-9]+, total = [0-9]+, dtotal = [0-9]+, bits = [0-9]+\}\$
PATS
if selected core-in-atomicor-open && [ -f "$d/all" ]; then
    bk_core=$(sed -n 's/^\$1 = //p' "$d/all")
    if [ -n "$bk_live" ] && [ "$bk_live" = "$bk_core" ]; then pass "core-in-atomicor-same"
    else fail "core-in-atomicor-same" "live '$bk_live', core '$bk_core'"; fi
fi

batch_summary
