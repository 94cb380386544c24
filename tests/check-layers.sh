#!/bin/sh
# check-layers.sh - the layering holds: front ends (commands/, dap/, runtime/) call no core or
# DWARF internals (exec_*, mem_*, ptx_*, dw_*) and include no header of core/ or dwarf/ nor the
# engine's or the checkers' internal ones (the runtime library runs kernels through the engine's
# execution API, dbg_target.h, like any front end); the engine's public folder (debugger/include/)
# declares nothing of them; the core, DWARF and the checkers include nothing of the engine; the
# runtime library names no other front end (no header of commands/ or dap/, no cmd_*/dap_* call:
# the in-process front ends reach it through the engine's dbg_frontend.h table) and commands/
# and dap/ nothing of the runtime (no header of runtime/, no rt_* call).
# Prints every violation and
# "layers: N passed, M failed" (the Makefile compiles front ends with the public folders only,
# so the compiler refuses most of these first; this also catches names in macros and a header
# included through a relative path).
cd "$(dirname "$0")/.." || exit 1
pass=0; fail=0
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
check() { # NAME; the offending lines are in $tmp
    out=$(cat "$tmp")
    if [ -n "$out" ]; then
        echo "FAIL $1"; echo "$out" | sed 's/^/  /'; fail=$((fail + 1))
    else
        echo "PASS $1"; pass=$((pass + 1))
    fi
}
# Code lines only: drop /* ... */ comments (one-line ones and the inside of blocks) and strings.
strip() {
    sed -e 's|/\*.*\*/||g' -e '/\/\*/,/\*\//d' \
        -e '/^[[:space:]]*#[[:space:]]*include/!s/"\([^"\\]\|\\.\)*"/""/g' "$@"
}
violations() { # FILE: its offending lines
    calls='\b(exec|mem|ptx|dw)_[a-z0-9_]+[[:space:]]*\(|\bdbg_(module|machine|dwarf)[[:space:]]*\('
    hdrs='(exec|exec_[a-z_]+|mem|ptx|ptx_[a-z_]+|dw|dw_[a-z_]+|dbg_int|dbg_expr|dbg_tgt|chk_int|fileck)'
    strip "$1" | grep -nE "$calls" | sed "s|^|$1:|"
    grep -nE "#include[[:space:]]*\"([^\"]*/)?$hdrs\\.h\"" "$1" | sed "s|^|$1:|"
}
for dir in commands dap runtime; do
    for f in $dir/*.c $dir/*.h $dir/*/*.c; do
        [ -f "$f" ] || continue
        violations "$f"
    done >"$tmp"
    check "$dir: no core, DWARF or internal calls and headers"
done
# Front ends against each other: FROM's sources include no header that lives in one of the
# folders TO... and call no function with their prefixes.
crossed() { # FROM "PREFIXES" TO...
    from=$1 prefixes=$2; shift 2
    names=$(for d in "$@"; do for h in $d/*.h $d/*.def; do
        [ -f "$h" ] && basename "$h"; done; done | sed 's/\./\\./g' | paste -sd'|' -)
    for f in $from/*.c $from/*.h $from/*/*.c; do
        [ -f "$f" ] || continue
        grep -nE "#include[[:space:]]*\"([^\"]*/)?($names)\"" "$f" | sed "s|^|$f:|"
        strip "$f" | grep -nE "\b($prefixes)_[a-z0-9_]+[[:space:]]*\(" | sed "s|^|$f:|"
    done
}
crossed runtime 'cmd|dap' commands dap >"$tmp"
check "runtime: nothing of commands/ or dap/ (in-process front ends register with the engine)"
{ crossed commands rt runtime; crossed dap rt runtime; } >"$tmp"
check "commands, dap: nothing of runtime/"
for f in debugger/include/*.h; do
    strip "$f" | grep -nE '#include[[:space:]]*"|\b(exec|mem|ptx|dw)_[a-z0-9_]+[[:space:]]*\(' |
        grep -vE '#include[[:space:]]*"(dbg|dbg_[a-z_]+|ptxdbg_types|ptxdbg_exc)\.(h|def)"' |
        sed "s|^|$f:|"
done >"$tmp"; check "debugger/include: only the engine's own declarations"
strip checkers/chk.h | grep -nE '#include[[:space:]]*"' | grep -v '"ptxdbg_types.h"' |
    sed "s|^|checkers/chk.h:|" >"$tmp"; check "checkers/chk.h: the shared vocabulary only"
grep -rnE '#include[[:space:]]*"(dbg|dbg_[a-z_]+)\.h"' core dwarf checkers >"$tmp" 2>/dev/null
check "core/, dwarf/ and checkers/ include nothing of the engine"
# The runtime library links the in-process front ends but not readline (commands/cmd_rl.c opens it
# at the first terminal prompt): no DT_NEEDED on it, nor in ptxdbg (PTXDBG: $1, as the other
# suites take it).
ptxdbg=${1:-./ptxdbg}
libdir=$("$ptxdbg" --print-libdir 2>/dev/null)
if [ -f "$libdir/libcudart.so.13" ] && command -v readelf >/dev/null; then
    for f in "$libdir/libcudart.so.13" "$ptxdbg"; do
        readelf -d "$f" | grep -E 'NEEDED.*readline' | sed "s|^|$f:|"
    done >"$tmp"
    check "libcudart.so.13 and ptxdbg: no DT_NEEDED on readline (loaded at the first prompt)"
else
    echo "SKIP libcudart.so.13 not built or no readelf: its dependencies not checked"
fi
echo "layers: $pass passed, $fail failed"
[ $fail -eq 0 ]
