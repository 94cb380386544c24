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
# initcheck.cu (same builds) holds initcheck's planted bugs (shared halo corners never loaded, an
# accumulator nobody zeroed, through an atomic too, a local array read before written, a register
# read on a path that skipped its write, a partly written word, shared memory read past what was
# written), each found at its marked line (every finding of the run), and look-alikes that
# initialise (buffers with an initialiser, a previous kernel) running clean under --check=all;
# then `set fill`. chk_init.cu is the whole-program version (cudaMalloc, cudaMemset, cudaMemcpy,
# a previous kernel, managed memory; PTXDBG_FILL).
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

# marked SRC KERNEL MARK: the line of SRC holding MARK inside kernel KERNEL (from its head to its
# closing brace); bug_kind SRC KERNEL: what follows "// BUG: " there. Expected lines come from
# the sources, never from ptxdbg.
marked() {
    awk -v k="$2" -v mk="$3" '$0 ~ "void (__cluster_dims__\\([0-9, ]*\\) )?" k "\\(" { on = 1 }
        on && index($0, mk) { print NR; exit } on && /^}/ { exit }' "$1"
}
bug_kind() {
    bl=$(marked "$1" "$2" "// BUG: ")
    [ -n "$bl" ] && sed -n "${bl}s/.*\/\/ BUG: //p" "$1"
}

# bug_case CNAME CHECK PTX SRC SETUP LAUNCH KIND LINE POLICY REPORT: `ptxdbg -batch
# --check=CHECK` runs `launch LAUNCH` after SETUP on PTX. Wanted: a non-zero exit status; findings
# of KIND whose user line is SRC:LINE, as POLICY says (one: exactly one finding, there; all: every
# finding there; any: every finding of KIND, one at least there: an unrolled loop gives one per
# copy of the instruction); a line matching REPORT on stderr. Outside initcheck's own runs its
# findings do not count (an mbarrier used before mbarrier.init is also a read of unwritten
# shared memory).
bug_case() {
    # (b_ and c_ names: sh functions share their callers' variables)
    cname=$1 b_check=$2 b_ptx=$3 b_src=$4 b_setup=$5 b_launch=$6 b_kind=$7 b_line=$8
    b_policy=$9 b_report=${10}
    if [ $have_ptxdbg -eq 0 ]; then fail "$cname" "ptxdbg not found"; return; fi
    [ -n "$b_line" ] && [ -n "$b_kind" ] || { fail "$cname" "no BUG line in $b_src"; return; }
    newdir
    eval "set -- $b_setup"
    run_dbg "$d" -batch --check="$b_check" --check-report=r.jsonl "$@" -ex "launch $b_launch" "$b_ptx"
    rc=$(cat "$d/rc")
    touch "$d/r.jsonl"
    if [ "$b_check" = initcheck ]; then cp "$d/r.jsonl" "$d/mine"
    else grep -v '"checker":"initcheck"' "$d/r.jsonl" >"$d/mine"; fi
    n=$(grep -c . "$d/mine") nk=$(grep -c "\"kind\":\"$b_kind\"" "$d/mine")
    at=$(grep -c "\"kind\":\"$b_kind\".*\"user_file\":\"$b_src\",\"user_line\":$b_line}" "$d/mine")
    if [ "$rc" = 0 ]; then fail "$cname" "exit status 0 with a bug"; return; fi
    case $b_policy in
        one) [ "$n" = 1 ] && [ "$at" = 1 ] ;;
        all) [ "$n" -gt 0 ] && [ "$at" = "$n" ] ;;
        *) [ "$n" -gt 0 ] && [ "$nk" = "$n" ] && [ "$at" -gt 0 ] ;;
    esac || {
        fail "$cname" "$n findings, $nk of kind $b_kind, $at at $b_src:$b_line: $(sed 's/.*"threads"/threads/' "$d/mine" | head -n 2 | cut -c1-240) $(first_line "$d/stderr")"
        return
    }
    grep -q "$b_report" "$d/stderr" || { fail "$cname" "no report on stderr: $(first_line "$d/stderr")"; return; }
    pass "$cname"
}
# clean_case CNAME CHECK PTX SETUP LAUNCH: the same run of a correct kernel gives no finding and
# exit status 0
clean_case() {
    cname=$1 c_check=$2 c_ptx=$3 c_setup=$4 c_launch=$5
    if [ $have_ptxdbg -eq 0 ]; then fail "$cname" "ptxdbg not found"; return; fi
    newdir
    eval "set -- $c_setup"
    run_dbg "$d" -batch --check="$c_check" --check-report=r.jsonl "$@" -ex "launch $c_launch" "$c_ptx"
    rc=$(cat "$d/rc")
    if [ "$rc" != 0 ] || [ -s "$d/r.jsonl" ]; then
        fail "$cname" "exit status $rc, findings: $(cut -c1-200 "$d/r.jsonl") $(first_line "$d/stderr")"
        return
    fi
    pass "$cname"
}

# kernel NAME SETUP LAUNCH: the bug in NAME, then its look-alike NAME_ok with the same inputs
kernel() {
    name=$1 setup=$2 args=$3
    line=$(marked "$K/memcheck.cu" "$name" "// BUG: ") kind=$(bug_kind "$K/memcheck.cu" "$name")
    for v in G lineinfo; do
        bug_case "$name.$v" memcheck "$K/memcheck.$v.ptx" memcheck.cu "$setup" "$name$args" \
            "$kind" "$line" one '^memcheck: Invalid \|^memcheck: Malloc/Free error'
        clean_case "${name}_ok.$v" all "$K/memcheck.$v.ptx" "$setup" "${name}_ok$args"
    done
}

kernel off_by_one    "-ex 'buffer a s32 30'" "<<<1,32>>>(a, 30)"
kernel far_write     "-ex 'buffer a s32 32'" "<<<1,32>>>(a, 4096)"
kernel shared_oob    "-ex 'buffer o s32 64'" "<<<1,64>>>(o, 8)"
kernel misaligned    "-ex 'buffer p u8 256 = fill 0' -ex 'buffer o s32 32'" "<<<1,32>>>(p, o)"
kernel null_ptr      "-ex 'buffer o s32 32'" "<<<1,32>>>(o, 0)"
kernel local_oob     "-ex 'buffer o s32 32 = fill 0'" "<<<1,32>>>(o, 1000)"
kernel heap_overflow "-ex 'buffer o s32 32'" "<<<1,32>>>(o)"
kernel double_free   "-ex 'buffer o s32 32'" "<<<1,1>>>(o)"
kernel atomic_oob    "-ex 'buffer c s32 4 = fill 0'" "<<<1,32>>>(c, 4)"

# ---- racecheck: tests/fixtures/checkers/racecheck.cu -------------------------------------------
# race NAME LAUNCH: the bug in NAME must give findings, the first of the kind marked on NAME's
# "// BUG: KIND" line, whose first party is at the line marked "// FIRST" in NAME (else the BUG
# line) and whose second party is at the BUG line (both user lines, from the source); then
# NAME_ok (when it exists) must give none. clean NAME LAUNCH: a correct kernel, no finding.
R=$K/racecheck.cu
race_line() { marked "$R" "$1" "$2"; }   # race_line KERNEL MARK
RSETUP="-ex 'buffer in s32 128 = iota' -ex 'buffer a s32 64' -ex 'buffer out s32 64' -ex 'buffer data s32 4' -ex 'buffer flag s32 1'"
race_run() {    # race_run KERNEL LAUNCH VARIANT: the run in a new $d
    k=$1 a=$2 rv=$3
    newdir
    eval "set -- $RSETUP"
    run_dbg "$d" -batch --check=racecheck --check-report=r.jsonl "$@" -ex "launch $k$a" \
        "$K/racecheck.$rv.ptx"
}
clean() {
    for v in G lineinfo; do
        clean_case "race.$1.$v" racecheck "$K/racecheck.$v.ptx" "$RSETUP" "$1$2"
    done
}
race() {
    name=$1 args=$2
    bug=$(race_line "$name" "// BUG: ")
    first=$(race_line "$name" "// FIRST")
    [ -n "$first" ] || first=$bug
    kind=$(bug_kind "$R" "$name")
    for v in G lineinfo; do
        cname="race.$name.$v"
        if [ $have_ptxdbg -eq 0 ]; then fail "$cname" "ptxdbg not found"; continue; fi
        race_run "$name" "$args" "$v"
        rc=$(cat "$d/rc")
        f1=$(head -n 1 "$d/r.jsonl" 2>/dev/null)
        if [ "$rc" = 0 ] && [ "$kind" != race-same-value ]; then fail "$cname" "exit status 0 with a race"; continue; fi
        case "$f1" in *"\"kind\":\"$kind\""*) ;; *)
            fail "$cname" "first finding not a $kind: $(echo "$f1" | cut -c1-160) $(first_line "$d/stderr")"; continue ;; esac
        case "$f1" in *"\"user_file\":\"racecheck.cu\",\"user_line\":$first},{"*"\"user_file\":\"racecheck.cu\",\"user_line\":$bug}]"*) ;; *)
            fail "$cname" "parties not at racecheck.cu:$first and :$bug: $(echo "$f1" | sed 's/.*"threads"/threads/' | cut -c1-300)"; continue ;; esac
        if ! grep -q "^racecheck: \(Error\|Warning\): Race reported between .* access at $name+0x[0-9a-f]* in racecheck.cu:$first\$" "$d/stderr"; then
            fail "$cname" "no compute-sanitizer report on stderr: $(first_line "$d/stderr")"; continue
        fi
        pass "$cname"
    done
    if grep -q "void ${name}_ok(" "$R"; then clean "${name}_ok" "$args"; fi
}
race reduce_nobar "<<<1,64>>>(in, out)"
race interwarp "<<<1,64>>>(in, out)"
race interblock "<<<2,32>>>(in, a, out)"
race flag_nofence "<<<2,32>>>(data, flag, out)"
clean flag_atomic_ok "<<<2,32>>>(data, flag, out)"
race counted_bar "<<<1,96>>>(in, out)"
race same_value "<<<1,64>>>(in, out)"
race lockstep_ww "<<<1,32>>>(in, out)"
clean warp_reduce_ok "<<<1,64>>>(in, out)"
clean shfl_atomic_ok "<<<2,128>>>(in, out)"
# severities: two writes of the same value are a warning, the others errors
race_run same_value "<<<1,64>>>(in, out)" G
grep -q '"severity":"warning"' "$d/r.jsonl" && pass race.severity.warning ||
    fail race.severity.warning "$(head -c 200 "$d/r.jsonl")"
race_run lockstep_ww "<<<1,32>>>(in, out)" G
grep -q '"severity":"error".*"value":"0x00000000".*"value":"0x00000001"' "$d/r.jsonl" &&
    pass race.values || fail race.values "$(head -c 300 "$d/r.jsonl")"

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

# ---- the scheduler: set scheduler, --schedule=random:SEED ---------------------------------------
expect_out sched.show 0 '^The scheduler is round-robin\.$' '^The scheduler is random with seed 7\.$' \
    'Ambiguous set command "sched": scheduler, scheduler-locking\.' \
    '^Usage: set scheduler round-robin\|random \[SEED\]$' -- \
    -ex 'show scheduler' -ex 'set scheduler random 7' -ex 'show scheduler' -ex 'set sched random' \
    -ex 'set scheduler bogus' -ex 'set scheduler round-robin' -ex 'show scheduler' \
    -ex 'show scheduler-locking' "$K/racecheck.G.ptx"
expect_out sched.badopt 2 "--schedule takes random:SEED or round-robin \('random:x'\)" -- \
    --schedule=random:x "$K/racecheck.G.ptx"
# interwarp's race shows under a random order: round-robin runs warp 0's store first (out[5] is
# in[5] * 3 = 15); some seed runs warp 1 first; a seed always gives the same run
sched_out() {
    newdir
    run_dbg "$d" -batch --check=none "$@" -ex 'buffer in s32 64 = iota' -ex 'buffer out s32 64' \
        -ex 'launch interwarp<<<1,64>>>(in, out)' -ex 'print out[5]' "$K/racecheck.lineinfo.ptx"
    sed -n 's/^\$1 = //p' "$d/stdout"
}
rr=$(sched_out)
[ "$rr" = 15 ] && pass sched.round_robin || fail sched.round_robin "out[5] = '$rr', want 15"
differs=0 same=1
for seed in 1 2 3; do
    a=$(sched_out --schedule=random:$seed) b=$(sched_out --schedule=random:$seed)
    [ "$a" != 15 ] && differs=1
    [ "$a" = "$b" ] && [ -n "$a" ] || same=0
done
[ $differs = 1 ] && pass sched.random_shows || fail sched.random_shows "seeds 1..3 all ran warp 0 first"
[ $same = 1 ] && pass sched.deterministic || fail sched.deterministic "a seed gave two results"
# a correct kernel's results do not depend on the order
newdir
run_dbg "$d" -batch --schedule=random:11 --check=racecheck -ex 'buffer in s32 64 = iota' \
    -ex 'buffer out s32 64' -ex 'launch reduce_nobar_ok<<<1,64>>>(in, out)' -ex 'print out[0]' \
    "$K/racecheck.G.ptx"
grep -q '^\$1 = 2016$' "$d/stdout" && [ "$(cat "$d/rc")" = 0 ] && pass sched.correct ||
    fail sched.correct "$(first_line "$d/stdout") $(first_line "$d/stderr")"
# --schedules=N: interwarp's result under round-robin is in[i] * 3 (out[1] = 3); some seed of
# 1..8 gives another, which is reported with the racing pair and a failing exit status; a correct
# reduction gives 0+1+...+63 under every schedule
expect_out sched.schedules_differ nz \
    '^Schedule random:[0-9]+ gives a different result: byte [0-9]+ of buffer out ' \
    '^The racing pair\(s\) racecheck found:$' 'Race reported between Write access at interwarp' -- \
    -batch --check=racecheck --schedules=8 -ex 'buffer in s32 64 = iota' -ex 'buffer out s32 64' \
    -ex 'launch interwarp<<<1,64>>>(in, out)' "$K/racecheck.lineinfo.ptx"
expect_out sched.schedules_same 0 '^All 8 random schedules give the same result as the first run\.$' \
    '^\$1 = 2016$' -- -batch --check=none --schedules=8 -ex 'buffer in s32 64 = iota' \
    -ex 'buffer out s32 64' -ex 'launch reduce_nobar_ok<<<1,64>>>(in, out)' -ex 'print out[0]' \
    "$K/racecheck.G.ptx"
expect_out sched.schedules_bad 2 '^ptxdbg: --schedules takes a number of schedules from 1 to 100000' -- \
    --schedules=0 "$K/racecheck.G.ptx"

# ---- stops at the prompt ---------------------------------------------------------------------

# ---- synccheck: tests/fixtures/checkers/synccheck.cu --------------------------------------------
# skernel NAME SETUP LAUNCH: under --check=all the bug gives findings of its kind only (an unrolled
# loop gives one per copy of the instruction), one of them at the marked line, and a non-zero
# exit status; the look-alike NAME_ok runs clean
skernel() {
    name=$1 setup=$2 args=$3
    line=$(marked "$K/synccheck.cu" "$name" "// BUG: ") kind=$(bug_kind "$K/synccheck.cu" "$name")
    for v in G lineinfo; do
        bug_case "sync.$name.$v" all "$K/synccheck.$v.ptx" synccheck.cu "$setup" "$name$args" \
            "$kind" "$line" any '^synccheck: Barrier error detected\|^synccheck: Warp shuffle error detected'
        clean_case "sync.${name}_ok.$v" all "$K/synccheck.$v.ptx" "$setup" "${name}_ok$args"
    done
}

skernel divergent_bar  "-ex 'buffer i s32 256 = iota' -ex 'buffer o s32 4'" "<<<1,256>>>(i, o)"
skernel shfl_exited    "-ex 'buffer x f32 32 = iota' -ex 'buffer y f32 4'" "<<<1,32>>>(x, y, 20)"
skernel shfl_divergent "-ex 'buffer i s32 32 = iota' -ex 'buffer o s32 32'" "<<<1,32>>>(i, o)"
skernel syncwarp_self  "-ex 'buffer o s32 32'" "<<<1,32>>>(o)"
skernel bar_counts     "-ex 'buffer o s32 64'" "<<<1,64>>>(o)"
skernel mbar_uninit    "-ex 'buffer o s32 64'" "<<<1,64>>>(o)"
skernel cluster_wait   "-ex 'buffer o s32 64'" "<<<2,32>>>(o)"
skernel divergent_bar_first "-ex 'buffer i s32 256 = iota' -ex 'buffer o s32 4'" "<<<1,256>>>(i, o)"
# threads past the end return before the kernel's only barrier: correct, and clean
for v in G lineinfo; do
    clean_case "sync.early_return_ok.$v" all "$K/synccheck.$v.ptx" \
        "-ex 'buffer i s32 256 = iota' -ex 'buffer o s32 256'" "early_return_ok<<<1,256>>>(i, o, 40)"
done

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

# ---- initcheck ---------------------------------------------------------------------------------
# initcheck.cu: each bug found (one finding or more, every one of kind KIND at the marked line of
# initcheck.cu); each look-alike, with its own setup (initialised buffers), runs clean
# ikernel NAME SETUP OK-SETUP LAUNCH
ikernel() {
    name=$1 setup=$2 oksetup=$3 args=$4
    line=$(marked "$K/initcheck.cu" "$name" "// BUG: ") kind=$(bug_kind "$K/initcheck.cu" "$name")
    for v in G lineinfo; do
        bug_case "initcheck.$name.$v" initcheck "$K/initcheck.$v.ptx" initcheck.cu "$setup" \
            "$name$args" "$kind" "$line" all '^initcheck: Uninitialized '
        clean_case "initcheck.${name}_ok.$v" all "$K/initcheck.$v.ptx" "$oksetup" "${name}_ok$args"
    done
}
ikernel halo_tile "-ex 'buffer in f32 256 = iota' -ex 'buffer out f32 256'" \
    "-ex 'buffer in f32 256 = iota' -ex 'buffer out f32 256'" "<<<(2,2),(8,8)>>>(in, out, 16)"
ikernel accum "-ex 'buffer in s32 64 = iota' -ex 'buffer acc s32 64'" \
    "-ex 'buffer in s32 64 = iota' -ex 'buffer acc s32 64 = fill 0'" "<<<2,32>>>(in, acc, 64)"
ikernel atomic_acc "-ex 'buffer in s32 32 = iota' -ex 'buffer acc s32 4'" \
    "-ex 'buffer in s32 32 = iota' -ex 'buffer acc s32 4 = {0, 0, 0, 0}'" "<<<1,32>>>(in, acc)"
ikernel local_array "-ex 'buffer idx s32 32 = fill 15' -ex 'buffer out s32 32'" \
    "-ex 'buffer idx s32 32 = fill 15' -ex 'buffer out s32 32'" "<<<1,32>>>(idx, out)"
ikernel reg_path "-ex 'buffer f s32 32 = {1, 0, 1, 0}' -ex 'buffer out s32 32'" \
    "-ex 'buffer f s32 32 = {1, 0, 1, 0}' -ex 'buffer out s32 32'" "<<<1,32>>>(f, out)"
ikernel partial "-ex 'buffer b s32 32' -ex 'buffer out s32 32'" \
    "-ex 'buffer b s32 32' -ex 'buffer out s32 32'" "<<<1,32>>>(b, out)"
ikernel shared_probe "-ex 'buffer out s32 32'" "-ex 'buffer out s32 32'" "<<<1,32>>>(out)"
# a previous kernel initialises what the next one reads
expect_out initcheck.previous_kernel 0 '^\$1 = 63$' -- -batch --check=all \
    -ex 'buffer in s32 64 = iota' -ex 'buffer acc s32 64' -ex 'launch zero<<<2,32>>>(acc, 64)' \
    -ex 'launch accum<<<2,32>>>(in, acc, 64)' -ex 'print acc[63]' "$K/initcheck.G.ptx"
# partial initialisation and the register's source variable (-G DWARF) in the words
expect_out initcheck.partial_words nz '^initcheck: Uninitialized __global__ memory read of size 4 bytes$' \
    '2 of its 4 bytes were never written \(partially initialised\)' -- -batch --check=initcheck \
    -ex 'buffer b s32 32' -ex 'buffer out s32 32' -ex 'launch partial<<<1,32>>>(b, out)' \
    "$K/initcheck.G.ptx"
expect_out initcheck.reg_words nz '^initcheck: Uninitialized register %r[0-9]+ read \(variable v\)$' \
    'by thread \(1,0,0\) in block' '\(30 occurrences\)' -- -batch --check=initcheck \
    -ex 'buffer f s32 32 = {1, 0, 1, 0}' -ex 'buffer out s32 32' -ex 'launch reg_path<<<1,32>>>(f, out)' \
    "$K/initcheck.G.ptx"
# a stop at the read, with the whole machine there (set check stop on)
expect_out initcheck.stop nz '^initcheck: Uninitialized __shared__ memory read of size 4 bytes$' \
    'thread \(0,0,0\)' '^\$1 = 0$' '^ +1 initcheck +uninit-memory +32 ' -- -batch \
    -ex 'set check initcheck on' -ex 'set check stop on' -ex 'buffer out s32 32' \
    -ex 'launch shared_probe<<<1,32>>>(out)' -ex 'print threadIdx.x' -ex continue -ex 'info checks' \
    "$K/initcheck.G.ptx"
# set fill: fresh local frames and shared memory hold the byte (0xA5A5A5A5 = -1515870811); off
expect_out fill.local 0 '^\$1 = -1515870811$' 'Fresh memory holds the byte 0xA5\.' '^\$2 = 0$' -- \
    -batch -ex 'set fill 0xA5' -ex 'show fill' -ex 'buffer idx s32 32 = fill 15' \
    -ex 'buffer out s32 32' -ex 'launch local_array<<<1,32>>>(idx, out)' -ex 'print out[3]' \
    -ex 'set fill off' -ex 'launch local_array<<<1,32>>>(idx, out)' -ex 'print out[3]' \
    "$K/initcheck.lineinfo.ptx"
expect_out fill.shared 0 '^\$1 = -1515870811$' -- -batch -ex 'set fill 165' -ex 'buffer out s32 32' \
    -ex 'launch shared_probe<<<1,32>>>(out)' -ex 'print out[5]' "$K/initcheck.O3.ptx"
expect_out fill.bad 1 'fill takes a byte \(0 to 255, e.g. 0xA5\) or "off", not "256"' -- \
    -batch -ex 'set fill 256' "$K/initcheck.G.ptx"

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
# a race stops at the second access, the first party described; print there is that lane's
expect_out stop.race nz '^racecheck: Error: Race reported between Write access at interwarp\+0x[0-9a-f]+ in racecheck\.cu:43$' \
    'by thread \(0,0,0\) in block \(0,0,0\) \(warp 0, lane 0\)' \
    'by thread \(32,0,0\) in block \(0,0,0\) \(warp 1, lane 0\)' '^\$1 = 32$' \
    '^ +1 racecheck +race-read-after-write +[0-9]+ +0 +racecheck\.cu:43 ' -- \
    -batch -ex 'set check stop on' --check=racecheck -ex 'buffer in s32 64 = iota' \
    -ex 'buffer out s32 64' -ex 'launch interwarp<<<1,64>>>(in, out)' -ex 'print threadIdx.x' \
    -ex 'info checks' "$K/racecheck.G.ptx"
# memcheck off: the access a GPU completes completes silently
expect_out memcheck_off 0 '^\$1 = 30$' -- -batch --check=none -ex 'buffer a s32 30' \
    -ex 'launch off_by_one<<<1,32>>>(a, 30)' -ex 'print a[29] + 1' "$K/memcheck.G.ptx"
# all is every checker
expect_out check_all 0 '^memcheck +on ' '^racecheck +on ' '^initcheck +on ' '^synccheck +on ' -- \
    -batch --check=all -ex 'info checks' "$K/memcheck.G.ptx"
expect_out unknown_checker 2 'unknown checker "leakcheck"' -- --check=leakcheck "$K/memcheck.G.ptx"
expect_out set_check 0 '^memcheck +on ' '^synccheck +on ' 'Stopping at findings is on\.' -- \
    -batch -ex 'set check synccheck on' -ex 'info checks' -ex 'set check stop on' \
    -ex 'show check stop' "$K/memcheck.G.ptx"

# ---- programs --------------------------------------------------------------------------------
# prog_run CNAME PROGRAM ARGS STATUS ENV... -- PATTERN...: LD_LIBRARY_PATH=build/lib ENV
# tests/cuda/PROGRAM ARGS exits with STATUS and every extended regex matches a line of its output
prog_run() {
    cname=$1 pname=$2 pargs=$3 want=$4
    shift 4
    envs=
    while [ "$1" != -- ]; do envs="$envs $1"; shift; done
    shift
    [ -x "$C/$pname" ] || { fail "$cname" "tests/cuda/$pname missing (tests/cuda/build.sh)"; return; }
    [ -f "$libdir/libcudart.so.13" ] || { fail "$cname" "no libcudart.so.13 (make)"; return; }
    newdir
    # shellcheck disable=SC2086
    (cd "$d" && env LD_LIBRARY_PATH="$libdir" $envs $limit "$C/$pname" $pargs >stdout 2>stderr </dev/null)
    echo $? >"$d/rc"
    rc=$(cat "$d/rc")
    cat "$d/stdout" "$d/stderr" >"$d/all"
    if [ "$rc" != "$want" ]; then fail "$cname" "exit status $rc, want $want: $(first_line "$d/all")"; return; fi
    for p in "$@"; do
        grep -Eq -- "$p" "$d/all" || { fail "$cname" "no line matching '$p': $(first_line "$d/all")"; return; }
    done
    pass "$cname"
}
# prog NAME STATUS ENV... -- PATTERN...: the program named by NAME up to its first dot
prog() {
    cname=$1 want=$2
    shift 2
    prog_run "$cname" "${cname%%.*}" "" "$want" "$@"
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

# initcheck: the cudaMalloc accumulator nobody zeroed, and the look-alikes that initialise it
# iprog MODE STATUS ENV... -- PATTERN...: tests/cuda/chk_init MODE with the runtime library
iprog() {
    mode=$1 want=$2
    shift 2
    envs=
    for a in "$@"; do [ "$a" = -- ] && break; envs="$envs $a"; done
    prog_run "chk_init.$mode$(echo "$envs" | sed 's/.*PTXDBG_FILL.*/.fill/; s/ PTXDBG_CHECK=.*//')" \
        chk_init "$mode" "$want" "$@"
}
iprog none 1 PTXDBG_CHECK=initcheck -- '^chk_init: PASSED$' \
    '^========= Uninitialized __global__ memory read of size 4 bytes$' \
    'inside the allocation at 0x[0-9a-f]+ of size 1024 bytes \(cudaMalloc#2\) at offset 0' \
    '^========= ERROR SUMMARY: 256 errors$'
for mode in memset async memcpy kernel managed; do
    iprog $mode 0 PTXDBG_CHECK=all -- '^chk_init: PASSED$' '^========= ERROR SUMMARY: 0 errors$'
done
# PTXDBG_FILL: the accumulator nobody zeroed now holds 0xA5A5A5A5 and the result shows it
iprog none 1 PTXDBG_FILL=0xA5 -- '^chk_init: FAILED acc\[0\] = -1515870911, want -100$'
iprog memset 0 PTXDBG_FILL=0xA5 -- '^chk_init: PASSED$'
if [ -x "$C/chk_init.G" ]; then
    expect_out dbg.chk_init nz '^initcheck: Uninitialized __global__ memory read of size 4 bytes$' \
        'at accumulate in chk_init.cu:26 ' -- -batch --check=all -ex run --args "$C/chk_init.G" none
    expect_out dbg.chk_init_ok 0 '^chk_init: PASSED$' -- -batch --check=all -ex run \
        --args "$C/chk_init.G" kernel
fi

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
