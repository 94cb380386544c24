#!/bin/sh
# check-layers.sh - the layering holds: front ends (commands/, dap/, runtime/) call no core or
# DWARF internals (exec_*, mem_*, ptx_*, dw_*) and include no header of core/ or dwarf/; the
# engine's public folder (debugger/include/) declares nothing of them; the core takes only the
# vocabulary (ptxdbg_types.h, ptxdbg_exc.def) from that folder. Prints every violation and
# "layers: N passed, M failed" (the Makefile compiles front ends with -Idebugger/include only,
# so the compiler refuses most of these first; this also catches comments-free names in macros
# and a header included through a relative path).
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
for dir in commands dap runtime; do
    for f in $dir/*.c $dir/*.h $dir/*/*.c; do
        [ -f "$f" ] || continue
        strip "$f" | grep -nE '\b(exec|mem|ptx|dw)_[a-z0-9_]+[[:space:]]*\(' |
            sed "s|^|$f:|"
    done >"$tmp"; check "$dir: no calls to exec_*, mem_*, ptx_*, dw_*"
    grep -nE '#include[[:space:]]*"([^"]*/)?(exec|exec_[a-z_]+|mem|ptx|ptx_[a-z_]+|dw|dw_[a-z_]+|dbg_int|dbg_expr)\.h"' \
        $dir/*.c $dir/*.h 2>/dev/null >"$tmp"; check "$dir: no core, DWARF or engine-internal headers"
done
for f in debugger/include/*.h; do
    strip "$f" | grep -nE '#include[[:space:]]*"|\b(exec|mem|ptx|dw)_[a-z0-9_]+[[:space:]]*\(' |
        grep -vE '#include[[:space:]]*"(dbg|dbg_[a-z_]+|ptxdbg_types|ptxdbg_exc)\.(h|def)"' |
        sed "s|^|$f:|"
done >"$tmp"; check "debugger/include: only the engine's own declarations"
grep -rnE '#include[[:space:]]*"(dbg|dbg_[a-z_]+)\.h"' core dwarf >"$tmp" 2>/dev/null
check "core/ and dwarf/ include nothing of the engine"
echo "layers: $pass passed, $fail failed"
[ $fail -eq 0 ]
