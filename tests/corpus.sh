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
top=$(cd "$(dirname "$0")/.." && pwd)
case $ptxdbg in
    /*) ;;
    *) ptxdbg=$(pwd)/$ptxdbg ;;
esac
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxdbg-corpus.XXXXXX") || { echo "corpus: cannot create a temp dir"; exit 1; }
trap 'rm -rf "$tmp"' 0
trap 'exit 2' INT TERM HUP

passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

if command -v timeout >/dev/null 2>&1; then
    limit="timeout 60"
else
    limit=
fi

first_line() {
    if [ -s "$1" ]; then
        sed -n '1{s/[[:cntrl:]]/ /g;p;q;}' "$1" | cut -c1-160
    else
        echo "(empty)"
    fi
}

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

refs=$tmp/corpus_refs
ref_ok=1
if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -ffp-contract=off -frounding-math \
        -o "$refs" "$top/tests/ref/corpus_refs.c" -lm >"$tmp/refs.log" 2>&1; then
    ref_ok=0
    echo "corpus: building tests/ref/corpus_refs.c failed:"
    sed 's/^/    /' "$tmp/refs.log" | head -n 20
fi

kernel_case() {
    name=$1
    script=$top/tests/corpus/$name.cmd
    kernel=${name%%-*}
    src=$top/tests/fixtures/corpus
    refdir=$tmp/ref/$name
    if [ $ref_ok -eq 1 ]; then
        mkdir -p "$refdir/exp"
        "$refs" "$name" "$refdir" >"$tmp/ref.log" 2>&1 || {
            echo "corpus: refs $name: $(first_line "$tmp/ref.log")"
            rm -rf "$refdir"
        }
    fi
    for v in G O3 lineinfo; do
        case_name=$name.$v
        ptx=$src/$kernel.$v.ptx
        if [ ! -x "$ptxdbg" ]; then fail "$case_name" "ptxdbg not found at $ptxdbg"; continue; fi
        if [ $ref_ok -eq 0 ]; then fail "$case_name" "reference program did not build"; continue; fi
        if [ ! -d "$refdir" ]; then fail "$case_name" "no reference for $name"; continue; fi
        if [ ! -f "$ptx" ]; then fail "$case_name" "missing fixture $ptx"; continue; fi
        d=$tmp/run/$case_name
        mkdir -p "$d"
        for f in "$refdir"/*; do
            [ -f "$f" ] && cp "$f" "$d/"
        done
        cp "$script" "$d/$name.cmd"
        (cd "$d" && $limit "$ptxdbg" -batch -x "$name.cmd" "$ptx" >stdout 2>stderr </dev/null)
        rc=$?
        if [ "$rc" = 124 ] && [ -n "$limit" ]; then fail "$case_name" "timed out"; continue; fi
        if [ "$rc" != 0 ]; then
            fail "$case_name" "exit status $rc: $(first_line "$d/stderr")"
            continue
        fi
        why=
        for e in "$refdir"/exp/*; do
            [ -f "$e" ] || continue
            f=$(basename "$e")
            case $f in
                *.tol) continue ;;
                stdout)
                    contains_block "$e" "$d/stdout" ||
                        why="printf output differs (expected $(first_line "$e"))"
                    ;;
                *)
                    if [ ! -f "$d/$f" ]; then
                        why="$f was not dumped"
                    elif [ -f "$e.tol" ]; then
                        "$refs" --cmp-tol "$(cat "$e.tol")" "$e" "$d/$f" >"$d/tol.log" 2>&1 ||
                            why="$f out of tolerance: $(first_line "$d/tol.log")"
                    elif ! cmp -s "$e" "$d/$f"; then
                        why="$f differs: $(cmp "$e" "$d/$f" 2>&1 | sed 's/.*differ: //' | head -n 1)"
                    fi
                    ;;
            esac
            [ -n "$why" ] && break
        done
        if [ -z "$why" ]; then pass "$case_name"; else fail "$case_name" "$why"; fi
    done
}

if [ $# -gt 0 ]; then
    for c in "$@"; do kernel_case "$c"; done
else
    for s in "$top"/tests/corpus/*.cmd; do
        [ -f "$s" ] || continue
        kernel_case "$(basename "$s" .cmd)"
    done
fi

echo "corpus: $passed passed, $failed failed"
[ $failed -eq 0 ]
