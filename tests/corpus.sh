#!/bin/sh
# corpus.sh - a corpus of ordinary CUDA kernels run through ptxdbg's batch contract.
# Usage: sh tests/corpus.sh [PTXDBG] [CASE...]     (default ./ptxdbg, every case)
#
# For every tests/corpus/NAME.cmd, the reference program (tests/ref/corpus_refs.c, built here
# with cc) writes NAME's input files and the exact bytes the GPU writes; the script runs
#     PTXDBG -batch -x NAME.cmd KERNEL.VARIANT.ptx
# in a scratch directory holding those inputs, for VARIANT in G, O3 and lineinfo, where KERNEL
# is NAME up to its first '-' (tests/fixtures/corpus/KERNEL.cu, compiled by
# tests/gen-fixtures.sh). Every expected file is compared with cmp, except that a file F with
# a companion exp/F.tol ("f32 ULPS ABS" or "f64 ULPS ABS") is compared element by element:
# |got - want| <= max(ULPS units in the last place of want, ABS) - for kernels that use the
# hardware approximations (__expf, __sinf, rsqrtf, ...), whose exact bits are the SFU's.
# exp/stdout must appear in ptxdbg's stdout as one contiguous block of lines.
# One line per case, "PASS name" or "FAIL name: reason"; last line "corpus: N passed, N failed".
# Exit status 1 when any case failed.

ptxdbg=${1:-./ptxdbg}
[ $# -gt 0 ] && shift
suite=corpus
. "$(dirname "$0")/batch-lib.sh"
batch_setup
missing="ptxdbg not found at $ptxdbg"

build_refs corpus_refs

kernel_src() { src=$top/tests/fixtures/corpus; }

check_exp() {
    case $f in
        *.tol) ;;
        stdout)
            contains_block "$e" "$d/stdout" ||
                why="printf output differs (expected $(first_line "$e"))"
            ;;
        *)
            if [ -f "$d/$f" ] && [ -f "$e.tol" ]; then
                "$refs" --cmp-tol "$(cat "$e.tol")" "$e" "$d/$f" >"$d/tol.log" 2>&1 ||
                    why="$f out of tolerance: $(first_line "$d/tol.log")"
            else
                same_as_dumped
            fi
            ;;
    esac
}

if [ $# -gt 0 ]; then
    for c in "$@"; do kernel_case "$c"; done
else
    for s in "$top"/tests/corpus/*.cmd; do
        [ -f "$s" ] || continue
        kernel_case "$(basename "$s" .cmd)"
    done
fi

batch_summary
