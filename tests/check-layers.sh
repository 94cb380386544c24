#!/bin/sh
# check-layers.sh - the layering holds: front ends (commands/, dap/, runtime/) call no core or
# DWARF internals (exec_*, mem_*, ptx_*, dw_*) and include no header of core/ or dwarf/ nor the
# engine's or the checkers' internal ones (the runtime library runs kernels through the engine's
# execution API, dbg_target.h, like any front end); the engine's public folder (debugger/include/)
# declares nothing of them; the core, DWARF and the checkers include nothing of the engine.
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
for f in debugger/include/*.h; do
    strip "$f" | grep -nE '#include[[:space:]]*"|\b(exec|mem|ptx|dw)_[a-z0-9_]+[[:space:]]*\(' |
        grep -vE '#include[[:space:]]*"(dbg|dbg_[a-z_]+|ptxdbg_types|ptxdbg_exc)\.(h|def)"' |
        sed "s|^|$f:|"
done >"$tmp"; check "debugger/include: only the engine's own declarations"
strip checkers/chk.h | grep -nE '#include[[:space:]]*"' | grep -v '"ptxdbg_types.h"' |
    sed "s|^|checkers/chk.h:|" >"$tmp"; check "checkers/chk.h: the shared vocabulary only"
grep -rnE '#include[[:space:]]*"(dbg|dbg_[a-z_]+)\.h"' core dwarf checkers >"$tmp" 2>/dev/null
check "core/, dwarf/ and checkers/ include nothing of the engine"
echo "layers: $pass passed, $fail failed"
[ $fail -eq 0 ]
