#!/bin/sh
# e2e.sh - end-to-end tests of ptxdbg's batch mode on real kernels.
# Usage: sh tests/e2e.sh [PTXDBG]        (default ./ptxdbg)
#
# Kernel cases: for every tests/e2e/NAME.cmd, the reference program (tests/ref/refs.c, built
# here with cc) writes NAME's input files and the exact bytes the GPU writes; the script runs
#     PTXDBG -batch -x NAME.cmd KERNEL.VARIANT.ptx
# inside a scratch directory holding those inputs, for VARIANT in G, O3 and lineinfo, where
# KERNEL is NAME up to its first '-' (tests/fixtures/kernels/KERNEL.cu, else examples/).
# Every file the reference expects is compared with cmp against the file the script dumped;
# exp/stdout must appear in ptxdbg's stdout as one contiguous block of lines, and the lines
# of exp/stdout.unordered (printf from several blocks, whose order is unspecified) must be
# exactly the "[blk " lines of stdout, in any order. The exit status must be 0.
# Then command cases (-ex, info functions, help, print) and error paths (malformed PTX,
# unknown commands, bad launches, trap, assert, faults, missing files): those must exit
# non-zero with an error on stderr.
# One line per case, "PASS name" or "FAIL name: reason"; last line "e2e: N passed, N failed".
# Exit status 1 when any case failed.

ptxdbg=${1:-./ptxdbg}
suite=e2e
. "$(dirname "$0")/batch-lib.sh"
batch_setup
missing="ptxdbg not found at $1 (build it with make)"
[ -n "$1" ] || missing="ptxdbg not found at ./ptxdbg (build it with make)"

# ---- references ----------------------------------------------------------------------------
build_refs refs

# ---- kernel cases --------------------------------------------------------------------------
kernel_src() {
    src=$top/tests/fixtures/kernels
    [ -f "$src/$kernel.cu" ] || src=$top/examples
}

check_exp() {
    case $f in
        stdout)
            contains_block "$e" "$d/stdout" ||
                why="printf output differs (expected $(first_line "$e"))"
            ;;
        stdout.unordered)
            sort "$e" >"$d/want.sorted"
            grep '^\[blk ' "$d/stdout" | sort >"$d/got.sorted"
            cmp -s "$d/want.sorted" "$d/got.sorted" ||
                why="printf lines differ (expected $(first_line "$d/want.sorted"))"
            ;;
        *) same_as_dumped ;;
    esac
}

for s in "$top"/tests/e2e/*.cmd; do
    [ -f "$s" ] || continue
    kernel_case "$(basename "$s" .cmd)"
done

# ---- command cases and error paths ---------------------------------------------------------
K=$top/tests/fixtures/kernels
n_case=0

# expect NAME STATUS(0|nonzero) CHECK ARGS...: run ptxdbg with ARGS in a fresh dir; CHECK is
# a shell command run in that dir afterwards (true = no extra check), whose failure fails the
# case with the message in $why.
expect() {
    case_name=$1
    want=$2
    check=$3
    shift 3
    if [ $have_ptxdbg -eq 0 ]; then fail "$case_name" "$missing"; return; fi
    n_case=$((n_case + 1))
    d=$tmp/cmd/$n_case
    mkdir -p "$d"
    run_dbg "$d" "$@"
    rc=$(cat "$d/rc")
    if [ "$rc" = 124 ] && [ -n "$limit" ]; then fail "$case_name" "timed out"; return; fi
    if [ "$want" = 0 ] && [ "$rc" != 0 ]; then
        fail "$case_name" "exit status $rc: $(first_line "$d/stderr")"
        return
    fi
    if [ "$want" != 0 ] && [ "$rc" = 0 ]; then
        fail "$case_name" "exit status 0, expected failure"
        return
    fi
    if [ "$want" != 0 ] && [ "$rc" -gt 128 ] 2>/dev/null; then
        fail "$case_name" "killed by signal $((rc - 128)) (crash)"
        return
    fi
    why=
    here=$(pwd)
    cd "$d" || return
    if eval "$check"; then ok=1; else ok=0; fi
    cd "$here" || exit 1
    if [ $ok -eq 1 ]; then pass "$case_name"; else fail "$case_name" "${why:-check failed}"; fi
}
# helpers for checks (run inside the case dir)
err_nonempty() { [ -s stderr ] || { why="nothing on stderr"; return 1; }; }
err_has() {
    grep -Eq "$1" stderr || { why="stderr lacks /$1/: $(first_line stderr)"; return 1; }
}
out_has() {
    grep -Eq "$1" stdout || { why="stdout lacks /$1/: $(first_line stdout)"; return 1; }
}
any_has() {
    cat stdout stderr | grep -Eiq "$1" || { why="no output mentions /$1/"; return 1; }
}

# commands given with -ex only (no script), and -x followed by -ex
expect ex-only 0 'cmp -s out.bin "$tmp/ref/dynshared-reverse/exp/out.bin" || { why="out.bin differs"; false; }' \
    -batch -ex 'buffer in s32 256 = iota' -ex 'buffer out s32 256' \
    -ex 'launch _Z13reverse_blockPKiPi<<<4, 64, 256>>>(in, out)' -ex 'dump out out.bin' \
    "$K/dynshared.G.ptx"
cp "$top/tests/e2e/grid3d-ids.cmd" "$tmp/ids.cmd"
expect script-then-ex 0 'cmp -s out.bin "$tmp/ref/grid3d-ids/exp/out.bin" || { why="out.bin differs"; false; }' \
    -batch -x "$tmp/ids.cmd" -ex 'print/x out[287]' -ex quit "$K/grid3d.O3.ptx"
expect info-functions 0 'out_has _Z14reduce_sum_i32PKiPii && out_has _Z13reduce_argmaxPKiPiS1_i' \
    -batch -ex 'info functions' "$K/reduce.G.ptx"
expect help 0 '[ -s stdout ] || { why="help printed nothing"; false; }' -batch -ex help
expect print-values 0 'out_has "(^|[^0-9])42([^0-9]|$)" && out_has "0x0*ff([^0-9a-fA-F]|$)" && out_has "(^|[^0-9])-4([^0-9]|$)"' \
    -batch -ex 'buffer v s32 4 = {3, -4, 42, 255}' -ex 'print v[2]' -ex 'print/x v[3]' \
    -ex 'print v[1]' "$K/reduce.G.ptx"
expect print-after-launch 0 'out_has "(^|[^0-9.])1999([^0-9]|$)"' \
    -batch -ex 'buffer x f32 1000 = iota' -ex 'buffer y f32 1000 = fill 1' \
    -ex 'launch saxpy<<<4, 256>>>(1000, 2.0, x, y)' -ex 'print y[999]' "$top/examples/saxpy.G.ptx"

# the example session of examples/README.md
expect example-saxpy 0 'out_has "1998\.5" && [ -s saxpy-y.bin ] || { why="${why:-saxpy-y.bin not written}"; false; }' \
    -batch -x "$top/examples/saxpy.cmd" "$top/examples/saxpy.ptx"

# malformed input files: FILE:LINE:COL: error: on stderr
expect no-such-file nonzero err_nonempty -batch "$tmp/does-not-exist.ptx"
for v in opcode:19 register:18 syntax:17; do
    b=${v%%:*}
    l=${v#*:}
    expect "bad-$b-ptx" nonzero "err_has 'bad-$b\\.ptx:$l:[0-9]+: error:'" \
        -batch "$top/tests/e2e/bad-$b.ptx"
done
expect bad-truncated-ptx nonzero "err_has 'bad-truncated\\.ptx:[0-9]+:[0-9]+: error:'" \
    -batch "$top/tests/e2e/bad-truncated.ptx"

# bad commands
R=$K/reduce.G.ptx
L='_Z14reduce_sum_i32PKiPii'
expect unknown-command nonzero err_nonempty -batch -ex 'frobnicate 1 2' "$R"
expect launch-too-few-args nonzero err_nonempty -batch -ex 'buffer in s32 16' \
    -ex "launch $L<<<1, 32>>>(in, in)" "$R"
expect launch-too-many-args nonzero err_nonempty -batch -ex 'buffer in s32 16' \
    -ex "launch $L<<<1, 32>>>(in, in, 16, 5)" "$R"
expect launch-unknown-kernel nonzero err_nonempty -batch -ex 'buffer in s32 16' \
    -ex 'launch no_such_kernel<<<1, 32>>>(in, in, 16)' "$R"
expect launch-unknown-buffer nonzero err_nonempty -batch -ex 'buffer in s32 16' \
    -ex "launch $L<<<1, 32>>>(in, nosuchbuf, 16)" "$R"
expect launch-block-too-big nonzero err_nonempty -batch -ex 'buffer in s32 16' \
    -ex "launch $L<<<1, 2048>>>(in, in, 16)" "$R"
expect launch-bad-syntax nonzero err_nonempty -batch -ex 'buffer in s32 16' \
    -ex "launch $L<<<1, 32>>(in, in, 16)" "$R"
expect buffer-bad-type nonzero err_nonempty -batch -ex 'buffer x u7 4' "$R"
expect buffer-missing-file nonzero err_nonempty -batch -ex 'buffer x u8 4 = file no-such-input.bin' "$R"
expect dump-unknown-buffer nonzero err_nonempty -batch -ex 'dump nosuch out.bin' "$R"
expect script-missing nonzero err_nonempty -batch -x no-such-script.cmd "$R"

# kernels that end in a trap, a failed assert or a memory fault
for v in G O3; do
    F=$K/faults.$v.ptx
    expect "trap.$v" nonzero "any_has trap" -batch -ex 'buffer in s32 64 = iota' \
        -ex 'buffer out s32 64' -ex 'launch _Z13trap_on_valuePKiPii<<<2, 32>>>(in, out, 13)' "$F"
    expect "assert-fail.$v" nonzero "any_has assert" -batch -ex 'buffer in s32 64 = iota' \
        -ex 'buffer out s32 64' -ex 'launch _Z11assert_failPKiPii<<<2, 32>>>(in, out, 40)' \
        "$K/assert.$v.ptx"
    expect "fault-null.$v" nonzero true -batch -ex 'launch _Z4pokePixi<<<1, 32>>>(0, 0, 1)' "$F"
    expect "fault-wild.$v" nonzero true -batch -ex 'buffer p s32 16' \
        -ex 'launch _Z4pokePixi<<<1, 32>>>(p, 100000000, 1)' "$F"
done

batch_summary
