#!/bin/sh
# checkers.sh - the checkers end to end: planted bugs found at their line, look-alikes clean.
# Usage: sh tests/checkers.sh [PTXDBG]     (default ./ptxdbg)
#
# Kernels: tests/fixtures/checkers/memcheck.cu (-G and -O3 -lineinfo PTX from
# tests/gen-fixtures.sh) holds kernels with one planted bug each, the line marked
# "// BUG: KIND", and a correct look-alike NAME_ok of each. Every buggy kernel runs under
#     PTXDBG -batch --check=memcheck --check-report=FILE -ex 'buffer ...' -ex 'launch ...'
# and must give exactly one finding, of kind KIND, whose user line is the marked line of
# memcheck.cu (the expected line comes from the source, never from ptxdbg), with a non-zero exit
# status; every look-alike must give no finding under --check=all and exit 0.
# Programs (tests/cuda/chk_*.cu, built by tests/cuda/build.sh): use after cudaFree, leaks at exit,
# and the accesses a GPU completes past an allocation, in plain runs (PTXDBG_CHECK,
# PTXDBG_LEAK_CHECK) and under ptxdbg -batch; and the front end's errors and settings.
# One line per case, "PASS name" or "FAIL name: reason"; last line "checkers: N passed, N failed".

ptxdbg=${1:-./ptxdbg}
suite=checkers
. "$(dirname "$0")/batch-lib.sh"
batch_setup
K=$top/tests/fixtures/checkers
C=$top/tests/cuda
libdir=$top/build/lib
n_case=0

newdir() {
    n_case=$((n_case + 1))
    d=$tmp/$n_case
    mkdir -p "$d"
}

# the line of memcheck.cu marked "// BUG: KIND" inside kernel NAME (the first after its head)
bug_line() {
    awk -v k="$1" '$0 ~ "void " k "\\(" { on = 1 } on && /\/\/ BUG: / { print NR; exit }' \
        "$K/memcheck.cu"
}
bug_kind() {
    awk -v k="$1" '$0 ~ "void " k "\\(" { on = 1 }
                   on && /\/\/ BUG: / { sub(/.*\/\/ BUG: /, ""); print; exit }' "$K/memcheck.cu"
}

# kernel NAME SETUP LAUNCH: the bug in NAME, then its look-alike NAME_ok with the same inputs
kernel() {
    name=$1 setup=$2 args=$3
    line=$(bug_line "$name")
    kind=$(bug_kind "$name")
    for v in G lineinfo; do
        cname="$name.$v"
        if [ $have_ptxdbg -eq 0 ]; then fail "$cname" "ptxdbg not found"; continue; fi
        newdir
        # shellcheck disable=SC2086
        eval "set -- $setup"
        run_dbg "$d" -batch --check=memcheck --check-report=r.jsonl "$@" \
            -ex "launch $name$args" "$K/memcheck.$v.ptx"
        rc=$(cat "$d/rc")
        n=$(grep -c . "$d/r.jsonl" 2>/dev/null || echo 0)
        if [ "$rc" = 0 ]; then fail "$cname" "exit status 0 with a bug"; continue; fi
        if [ "$n" != 1 ]; then fail "$cname" "$n findings, want 1: $(first_line "$d/stderr")"; continue; fi
        if ! grep -q "\"kind\":\"$kind\"" "$d/r.jsonl"; then
            fail "$cname" "not a $kind finding: $(cut -c1-160 "$d/r.jsonl")"; continue
        fi
        if ! grep -q "\"user_file\":\"memcheck.cu\",\"user_line\":$line}" "$d/r.jsonl"; then
            fail "$cname" "not at memcheck.cu:$line: $(sed 's/.*"threads"/threads/' "$d/r.jsonl" | cut -c1-200)"
            continue
        fi
        if ! grep -q "^memcheck: Invalid \|^memcheck: Malloc/Free error" "$d/stderr"; then
            fail "$cname" "no report on stderr: $(first_line "$d/stderr")"; continue
        fi
        pass "$cname"
        cname="${name}_ok.$v"
        newdir
        eval "set -- $setup"
        run_dbg "$d" -batch --check=all --check-report=r.jsonl "$@" \
            -ex "launch ${name}_ok$args" "$K/memcheck.$v.ptx"
        rc=$(cat "$d/rc")
        if [ "$rc" != 0 ] || [ -s "$d/r.jsonl" ]; then
            fail "$cname" "exit status $rc, findings: $(cut -c1-160 "$d/r.jsonl") $(first_line "$d/stderr")"
            continue
        fi
        pass "$cname"
    done
}

kernel off_by_one    "-ex 'buffer a s32 30'" "<<<1,32>>>(a, 30)"
kernel far_write     "-ex 'buffer a s32 32'" "<<<1,32>>>(a, 4096)"
kernel shared_oob    "-ex 'buffer o s32 64'" "<<<1,64>>>(o, 8)"
kernel misaligned    "-ex 'buffer p u8 256' -ex 'buffer o s32 32'" "<<<1,32>>>(p, o)"
kernel null_ptr      "-ex 'buffer o s32 32'" "<<<1,32>>>(o, 0)"
kernel local_oob     "-ex 'buffer o s32 32'" "<<<1,32>>>(o, 1000)"
kernel heap_overflow "-ex 'buffer o s32 32'" "<<<1,32>>>(o)"
kernel double_free   "-ex 'buffer o s32 32'" "<<<1,1>>>(o)"
kernel atomic_oob    "-ex 'buffer c s32 4'" "<<<1,32>>>(c, 4)"

# ---- stops at the prompt ---------------------------------------------------------------------
# expect_out NAME STATUS PATTERN... -- ARGS: ptxdbg ARGS; status (nz: any non-zero), then every
# extended regex must match a line of stdout+stderr
expect_out() {
    cname=$1 want=$2
    shift 2
    pats=
    while [ "$1" != -- ]; do pats="$pats
$1"; shift; done
    shift
    if [ $have_ptxdbg -eq 0 ]; then fail "$cname" "ptxdbg not found"; return; fi
    newdir
    run_dbg "$d" "$@"
    rc=$(cat "$d/rc")
    cat "$d/stdout" "$d/stderr" >"$d/all"
    if [ "$want" = nz ] && [ "$rc" = 0 ]; then fail "$cname" "exit status 0"; return; fi
    if [ "$want" != nz ] && [ "$rc" != "$want" ]; then
        fail "$cname" "exit status $rc, want $want: $(first_line "$d/stderr")"; return
    fi
    echo "$pats" | while IFS= read -r p; do
        [ -z "$p" ] && continue
        grep -Eq -- "$p" "$d/all" || { echo "$p" >"$d/missing"; break; }
    done
    if [ -f "$d/missing" ]; then fail "$cname" "no line matching '$(cat "$d/missing")'"; return; fi
    pass "$cname"
}

# ---- synccheck: tests/fixtures/checkers/synccheck.cu --------------------------------------------
# skernel NAME SETUP LAUNCH: under --check=all the bug gives findings of its kind only (an unrolled
# loop gives one per copy of the instruction), one of them at the marked line, and a non-zero
# exit status; the look-alike NAME_ok runs clean
sbug() {
    awk -v k="$1" -v f="$2" '$0 ~ "void (__cluster_dims__\\([0-9, ]*\\) )?" k "\\(" { on = 1 }
        on && /\/\/ BUG: / { if (f == "line") print NR; else { sub(/.*\/\/ BUG: /, ""); print }; exit }' \
        "$K/synccheck.cu"
}
skernel() {
    name=$1 setup=$2 args=$3
    line=$(sbug "$name" line)
    kind=$(sbug "$name" kind)
    [ -n "$line" ] || { fail "$name" "no BUG line for $name in synccheck.cu"; return; }
    for v in G lineinfo; do
        cname="sync.$name.$v"
        if [ $have_ptxdbg -eq 0 ]; then fail "$cname" "ptxdbg not found"; continue; fi
        newdir
        eval "set -- $setup"
        run_dbg "$d" -batch --check=all --check-report=r.jsonl "$@" \
            -ex "launch $name$args" "$K/synccheck.$v.ptx"
        rc=$(cat "$d/rc")
        n=$(grep -c . "$d/r.jsonl" 2>/dev/null || echo 0)
        nk=$(grep -c "\"checker\":\"synccheck\",\"kind\":\"$kind\"" "$d/r.jsonl" 2>/dev/null || echo 0)
        if [ "$rc" = 0 ]; then fail "$cname" "exit status 0 with a bug"; continue; fi
        if [ "$n" = 0 ] || [ "$n" != "$nk" ]; then
            fail "$cname" "$n findings, $nk of kind $kind: $(cut -c1-160 "$d/r.jsonl" | head -n 2) $(first_line "$d/stderr")"; continue
        fi
        if ! grep -q "\"user_file\":\"synccheck.cu\",\"user_line\":$line}" "$d/r.jsonl"; then
            fail "$cname" "not at synccheck.cu:$line: $(sed 's/.*"threads"/threads/' "$d/r.jsonl" | head -n 1 | cut -c1-240)"
            continue
        fi
        if ! grep -q "^synccheck: Barrier error detected\|^synccheck: Warp shuffle error detected" "$d/stderr"; then
            fail "$cname" "no report on stderr: $(first_line "$d/stderr")"; continue
        fi
        pass "$cname"
        cname="sync.${name}_ok.$v"
        newdir
        eval "set -- $setup"
        run_dbg "$d" -batch --check=all --check-report=r.jsonl "$@" \
            -ex "launch ${name}_ok$args" "$K/synccheck.$v.ptx"
        rc=$(cat "$d/rc")
        if [ "$rc" != 0 ] || [ -s "$d/r.jsonl" ]; then
            fail "$cname" "exit status $rc, findings: $(cut -c1-160 "$d/r.jsonl") $(first_line "$d/stderr")"
            continue
        fi
        pass "$cname"
    done
}

skernel divergent_bar  "-ex 'buffer i s32 256 = iota' -ex 'buffer o s32 4'" "<<<1,256>>>(i, o)"
skernel shfl_exited    "-ex 'buffer x f32 32 = iota' -ex 'buffer y f32 4'" "<<<1,32>>>(x, y, 20)"
skernel shfl_divergent "-ex 'buffer i s32 32 = iota' -ex 'buffer o s32 32'" "<<<1,32>>>(i, o)"
skernel syncwarp_self  "-ex 'buffer o s32 32'" "<<<1,32>>>(o)"
skernel bar_counts     "-ex 'buffer o s32 64'" "<<<1,64>>>(o)"
skernel mbar_uninit    "-ex 'buffer o s32 64'" "<<<1,64>>>(o)"
skernel cluster_wait   "-ex 'buffer o s32 64'" "<<<2,32>>>(o)"

# the divergent barrier's report names where each warp waits and which lanes left
expect_out sync.report nz '^synccheck: Barrier error detected\. Divergent thread\(s\) in block$' \
    'at divergent_bar in synccheck\.cu:[0-9]+ ' 'warp [4-7] lanes 0-31 exited at synccheck\.cu:[0-9]+' \
    'warp 0 lanes 0-31 reached barrier 0 at synccheck\.cu:[0-9]+' '^ERROR SUMMARY: [0-9]+ errors$' -- \
    -batch --check=synccheck -ex 'buffer i s32 256 = iota' -ex 'buffer o s32 4' \
    -ex 'launch divergent_bar<<<1,256>>>(i, o)' "$K/synccheck.G.ptx"
# a stop at the prompt: the focus is a lane waiting at the barrier; continue goes on
expect_out sync.stop nz '^synccheck: Barrier error detected\. Divergent thread\(s\) in block$' \
    '^\$1 = 0$' '^ +1 synccheck +divergent-barrier +[0-9]+ ' -- \
    -batch -ex 'set check synccheck on' -ex 'set check stop on' -ex 'buffer i s32 256 = iota' \
    -ex 'buffer o s32 4' -ex 'launch divergent_bar<<<1,256>>>(i, o)' -ex 'print threadIdx.x' \
    -ex continue -ex 'info checks' "$K/synccheck.G.ptx"
# partial warps: lanes past the CTA's 48 threads count as exited; a full mask there is clean
for v in G lineinfo; do
    expect_out "sync.partial_warp.$v" 0 '^\$1 = ' -- -batch --check=all -ex 'buffer i s32 48 = iota' \
        -ex 'buffer o u32 48' -ex 'launch partial_warp_ok<<<1,48>>>(i, o)' -ex 'print o[40]' \
        "$K/synccheck.$v.ptx"
done

# ---- the bench kernels run clean --------------------------------------------------------------
B=$top/tests/bench
for v in G O3 lineinfo; do
    expect_out "bench.$v" 0 '^\$1 = ' -- -batch --check=all \
        -ex 'buffer o f32 512' -ex 'launch fma_loop<<<2,256>>>(o, 1.0, 0.5, 20)' \
        -ex 'buffer x f32 1000 = iota' -ex 'buffer y f32 1000 = fill 1' \
        -ex 'launch saxpy<<<4,256>>>(1000, 2.0, x, y)' \
        -ex 'buffer in s32 1024 = iota' -ex 'buffer out s32 4' -ex 'launch reduce<<<4,256>>>(in, out)' \
        -ex 'buffer st u64 256 = fill 27' -ex 'buffer steps s32 256' \
        -ex 'launch collatz<<<2,128>>>(st, steps)' \
        -ex 'buffer A f32 1024 = fill 1' -ex 'buffer Bm f32 1024 = fill 2' -ex 'buffer Cm f32 1024' \
        -ex 'launch matmul<<<(2,2),(16,16)>>>(A, Bm, Cm, 32)' -ex 'print Cm[0] + steps[0] + out[3]' \
        "$B/bench_kernels.$v.ptx"
done

# with `set check stop on` (interactive sessions' default) the finding stops at the lane that
# made it, after the instruction; `print i` there is that lane's i, continue goes on
expect_out stop.off_by_one nz \
    '^memcheck: Invalid __global__ write of size 4 bytes$' \
    'at off_by_one in memcheck.cu:10 ' 'by thread \(30,0,0\) in block \(0,0,0\)' \
    'A GPU would not fault here: the address lies in the 392 bytes it maps after a\.' \
    '^\$1 = 30$' '^\$2 = 29$' '^ +1 memcheck +out-of-bounds +1 ' -- \
    -batch -ex 'set check stop on' -ex 'buffer a s32 30' -ex 'launch off_by_one<<<1,32>>>(a, 30)' \
    -ex 'print i' -ex continue -ex 'print a[29]' -ex 'info checks' "$K/memcheck.G.ptx"
# a fault memcheck explains: the finding, then the exception; the launch is over
expect_out stop.far_write nz '^memcheck: Invalid __global__ write of size 4 bytes$' \
    'A GPU would fault here\.' '^Program received signal CUDA_EXCEPTION_5, Warp Out-of-range Address\.$' \
    'no further execution is possible' -- \
    -batch -ex 'set check stop on' -ex 'buffer a s32 32' -ex 'launch far_write<<<1,32>>>(a, 4096)' \
    -ex continue "$K/memcheck.G.ptx"
# memcheck off: the access a GPU completes completes silently
expect_out memcheck_off 0 '^\$1 = 30$' -- -batch --check=none -ex 'buffer a s32 30' \
    -ex 'launch off_by_one<<<1,32>>>(a, 30)' -ex 'print a[29] + 1' "$K/memcheck.G.ptx"
# checkers not written yet are known and refused by name
expect_out not_implemented 2 'racecheck.*not implemented yet' -- --check=memcheck,racecheck \
    "$K/memcheck.G.ptx"
expect_out unknown_checker 2 'unknown checker "leakcheck"' -- --check=leakcheck "$K/memcheck.G.ptx"
expect_out set_check 0 '^memcheck +on ' '^synccheck +on ' 'Stopping at findings is on\.' -- \
    -batch -ex 'set check synccheck on' -ex 'info checks' -ex 'set check stop on' \
    -ex 'show check stop' "$K/memcheck.G.ptx"

# ---- programs --------------------------------------------------------------------------------
# prog NAME STATUS ENV... -- PATTERN...: LD_LIBRARY_PATH=build/lib ENV tests/cuda/NAME
prog() {
    cname=$1 want=$2
    shift 2
    envs=
    while [ "$1" != -- ]; do envs="$envs $1"; shift; done
    shift
    pname=${cname%%.*}
    [ -x "$C/$pname" ] || { fail "$cname" "tests/cuda/$pname missing (tests/cuda/build.sh)"; return; }
    [ -f "$libdir/libcudart.so.13" ] || { fail "$cname" "no libcudart.so.13 (make)"; return; }
    newdir
    # shellcheck disable=SC2086
    (cd "$d" && env LD_LIBRARY_PATH="$libdir" $envs $limit "$C/$pname" >stdout 2>stderr </dev/null)
    echo $? >"$d/rc"
    rc=$(cat "$d/rc")
    cat "$d/stdout" "$d/stderr" >"$d/all"
    if [ "$rc" != "$want" ]; then fail "$cname" "exit status $rc, want $want: $(first_line "$d/all")"; return; fi
    for p in "$@"; do
        grep -Eq -- "$p" "$d/all" || { fail "$cname" "no line matching '$p': $(first_line "$d/all")"; return; }
    done
    pass "$cname"
}

# the hardware's granularity: a plain run completes like a GPU; memcheck reports all three
prog chk_pad.plain 0 -- '^chk_pad: PASSED$'
prog chk_pad.memcheck 1 PTXDBG_CHECK=memcheck -- '^chk_pad: PASSED$' \
    'lies in the 3932160 bytes it maps after cudaMalloc#1\.' \
    'and is 0 bytes after the nearest allocation at 0x[0-9a-f]+ of size 4194304 bytes' \
    'lies in the 256 bytes it maps after cudaMalloc#5\.' '^========= ERROR SUMMARY: 258 errors$'
# use after cudaFree: the allocation, and that the host freed it
prog chk_uaf.memcheck 1 PTXDBG_CHECK=memcheck -- '^FAULT cudaErrorIllegalAddress$' \
    '^=========     and is inside cudaMalloc#1 \[0x[0-9a-f]+, 256 bytes\) at offset 0, which was freed by cudaFree, called from ' \
    'CUDA Exception: Warp Out-of-range Address'
prog chk_uaf.report 1 PTXDBG_CHECK=memcheck PTXDBG_CHECK_REPORT=r.jsonl -- '^FAULT'
[ -f "$d/r.jsonl" ] && grep -q '"kind":"use-after-free"' "$d/r.jsonl" && pass chk_uaf.json ||
    fail chk_uaf.json "no use-after-free line in the JSON report"
# leaks: the two allocations never freed
prog chk_leak.plain 0 -- '^chk_leak: PASSED$'
prog chk_leak.leaks 1 PTXDBG_LEAK_CHECK=full -- '^chk_leak: PASSED$' \
    '^========= Leaked 1024 bytes at 0x' '^========= Leaked 512 bytes at 0x' \
    '^========= LEAK SUMMARY: 1536 bytes leaked in 2 allocations$'
prog chk_leak.exitcode 7 PTXDBG_LEAK_CHECK=full PTXDBG_CHECK_EXITCODE=7 -- '^chk_leak: PASSED$'

# synccheck in a plain run: the spmv bug (a full-mask shuffle after lanes returned) completes as
# on a GPU without checks; with them it is reported at the user's line, through the header
sline=$(grep -n 'BUG: shuffle-from-inactive-lane' "$C/chk_sync.cu" | cut -d: -f1)
prog chk_sync.plain 0 -- '^chk_sync: done$'
prog chk_sync.synccheck 1 PTXDBG_CHECK=synccheck -- '^chk_sync: done$' \
    '^========= Warp shuffle error detected\. Source lane\(s\) not participating$' \
    "^=========     called from chk_sync\.cu:$sline in spmv_warp\$" \
    '^=========     lane 0 reads lane 16; the value is undefined on a GPU$' \
    '^========= ERROR SUMMARY: [1-9][0-9]* errors$'

# under the debugger: memcheck on by default, the user's line, the leak check
if [ -x "$C/chk_uaf.G" ] && [ -x "$C/chk_leak" ]; then
    expect_out dbg.chk_uaf nz '^memcheck: Invalid __global__ read of size 4 bytes$' \
        'at sum_freed in chk_uaf.cu:10 ' 'which was freed by cudaFree' -- \
        -batch -ex run --args "$C/chk_uaf.G"
    expect_out dbg.chk_leak nz '^chk_leak: PASSED$' '^memcheck: Leaked 1024 bytes at 0x' \
        '^LEAK SUMMARY: 1536 bytes leaked in 2 allocations$' -- \
        --leak-check full -batch -ex run --args "$C/chk_leak"
    expect_out dbg.chk_leak_off 0 '^chk_leak: PASSED$' -- -batch -ex run --args "$C/chk_leak"
else
    fail dbg.programs "tests/cuda/chk_uaf.G or chk_leak missing (tests/cuda/build.sh)"
fi

batch_summary
