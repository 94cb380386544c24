#!/bin/sh
# json.sh - JSON mode (docs/JSON.md): real sessions with --json on PTX fixtures and a CUDA
# program; tests/json/check.js parses every line and asserts the fields of each case.
# Usage: sh tests/json.sh [PTXDBG]. Last line "json: N passed, N failed".
ptxdbg=${1:-./ptxdbg}
suite=json
. "$(dirname "$0")/batch-lib.sh"
batch_setup
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP json: node is not installed"
    exit 0
fi
[ $have_ptxdbg -eq 1 ] || { echo "json: no $ptxdbg"; exit 1; }
F=$top/tests/fixtures
check() { # check CASE FILE ARGS...
    out=$(node "$top/tests/json/check.js" "$@" 2>&1)
    case $out in
        "PASS $1") pass "$1" ;;
        *) fail "$1" "$(echo "$out" | head -n 1)" ;;
    esac
}
lineof() { grep -n "$1" "$2" | head -n 1 | cut -d: -f1; }

# source-level PTX: stops, print, backtrace, breakpoints, lanes, errors
src=$F/source/srcdbg.cu
$limit "$ptxdbg" -batch --json -ex 'buffer x f32 64 = iota' -ex 'buffer y f32 64 = fill 1' \
    -ex 'break add_one' -ex 'launch saxpy<<<2, 32>>>(40, 2, x, y)' -ex 'print x' \
    -ex 'backtrace' -ex 'info breakpoints' -ex 'info cuda lanes' -ex 'info cuda warps' \
    -ex 'info args' -ex 'x/4fw x' -ex 'up' -ex 'x/4fw x' -ex 'info registers' \
    -ex 'frobnicate' -ex 'print nosuch' -ex 'show output' -ex 'echo a\tb\n' -ex 'delete' \
    -ex "break srcdbg.cu:$(lineof 'int k = add_one' "$src") if i == 37" -ex 'continue' \
    -ex 'print i' "$F/source/srcdbg.G.ptx" >"$tmp/source" 2>"$tmp/source.err"
check source "$tmp/source" "$(lineof 'int y = x + 1' "$src")" "$(lineof 'int k = add_one' "$src")"

# every structured command of the output model, checked against the fixture's source and PTX
ptx=$F/source/srcdbg.G.ptx
$limit "$ptxdbg" -batch --json -ex 'buffer x f32 64 = iota' -ex 'buffer y f32 64 = fill 1' \
    -ex 'break add_one' -ex "break srcdbg.cu:$(lineof 'int k = add_one' "$src") if i == 37" \
    -ex 'launch saxpy<<<2, 32>>>(40, 2, x, y)' -ex 'info breakpoints' -ex 'list add_one' \
    -ex 'disassemble' -ex 'x/3i $pc' -ex 'info cuda blocks' -ex 'info cuda kernels' \
    -ex 'info cuda threads' -ex 'info frame' -ex 'info buffers' -ex 'info line add_one' \
    -ex 'whatis x' -ex 'ptype x' -ex 'display x' -ex 'info display' -ex 'print -lanes x' \
    -ex 'info functions' -ex 'info sharedmem' -ex 'info locals' -ex 'up' -ex 'x/2xw y' \
    "$ptx" >"$tmp/model" 2>"$tmp/model.err"
check model "$tmp/model" "$src" "$ptx" "$(lineof 'int add_one' "$src")" \
    "$(lineof 'int y = x + 1' "$src")" "$(lineof '.entry _Z5saxpy' "$ptx")"

# a checker's finding that does not stop, and info checks
$limit "$ptxdbg" -batch --json -ex 'buffer a s32 30' -ex 'launch off_by_one<<<1,32>>>(a, 30)' \
    -ex 'info checks' "$F/checkers/memcheck.G.ptx" >"$tmp/finding" 2>"$tmp/finding.err"
check finding "$tmp/finding" "$(grep -n 'BUG: out-of-bounds' "$F/checkers/memcheck.cu" | head -n 1 | cut -d: -f1)"

# a fault (memcheck off): the stop with the exception
$limit "$ptxdbg" -batch --json -ex 'set check memcheck off' -ex 'buffer a s32 32' \
    -ex 'launch far_write<<<1,32>>>(a, 4096)' -ex 'continue' "$F/checkers/memcheck.G.ptx" \
    >"$tmp/fault" 2>"$tmp/fault.err"
check fault "$tmp/fault" "$(grep -n 'BUG: out-of-bounds' "$F/checkers/memcheck.cu" | sed -n 2p | cut -d: -f1)"

# kernel printf in a PTX session: output events as the kernel prints, between the two stops;
# every command here renders only through the model (nothing captured at the descriptor level)
pf=$F/kernels/printf.cu
$limit "$ptxdbg" -batch --json -ex 'buffer v s32 4 = {7, -3, 123456, 0}' \
    -ex 'buffer f f32 8 = fill 1' -ex 'buffer d f64 8 = fill 1' \
    -ex "break printf.cu:$(lineof 'printf("thread %d' "$pf")" \
    -ex "break printf.cu:$(lineof '__syncthreads' "$pf")" \
    -ex 'launch printf_formats<<<1, 4>>>(v, f, d)' -ex 'continue' \
    "$F/kernels/printf.G.ptx" >"$tmp/printf" 2>"$tmp/printf.err"
check printf "$tmp/printf" "$pf"

# a CUDA program: its session's objects and the program's output (streamed as output events)
# share stdout cleanly
prog=$top/tests/cuda/device_printf
if [ -x "$prog" ]; then
    $limit "$ptxdbg" -batch --json -ex 'break hello' -ex 'run' -ex 'backtrace' -ex 'continue' \
        --args "$prog" >"$tmp/program" 2>"$tmp/program.err"
    check program "$tmp/program"
    # a stop between two launches: what the program printed before it comes first
    $limit "$ptxdbg" -batch --json -ex 'break formats' -ex 'run' -ex 'continue' \
        --args "$prog" >"$tmp/order" 2>"$tmp/order.err"
    check program-order "$tmp/order"
fi

# set output text: back to gdb's text; --interpreter=mi is refused toward --dap and --json
out=$("$ptxdbg" -batch --json -ex 'set output text' -ex 'print 6*7' "$F/source/srcdbg.G.ptx" 2>&1)
if [ "$out" = '{"command":"set output text","ok":true}
$1 = 42' ]; then pass text-again; else fail text-again "$(echo "$out" | tail -n 1)"; fi
out=$("$ptxdbg" --interpreter=mi 2>&1 </dev/null)
case $out in
    *--dap*--json*) pass mi-refused ;;
    *) fail mi-refused "$out" ;;
esac
batch_summary
