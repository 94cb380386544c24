#!/bin/sh
# run-tests.sh - run every Check suite and the script-driven suites; print one summary line.
# Usage: tests/run-tests.sh BUILD_DIR TEST_BINARY...
# VALGRIND="valgrind ..." runs each suite under it; PTXDBG names the binary the scripts use.
build=$1; shift
# every stop of every debugging test (PTX sessions and CUDA programs, Check suites and scripts)
# is also saved as a core file, reopened and compared with the live stop (cmd_corecheck.c)
PTXDBG_CORE_CHECK=${PTXDBG_CORE_CHECK-1}
export PTXDBG_CORE_CHECK
passed=0; failed=0; status=0
log=$(mktemp)
for t in "$@"; do
    CK_FORK=${CK_FORK:-yes} ${VALGRIND:-} "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    # Check's summary: "100%: Checks: 12, Failures: 0, Errors: 0"
    line=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        n=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
        f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
        e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
        passed=$((passed + n - f - e)); failed=$((failed + f + e))
    else
        echo "$t: no Check summary (exit $rc)"; failed=$((failed + 1))
    fi
    [ $rc -ne 0 ] && status=1
done
rm -f "$log"

# script_suite NAME SCRIPT: run `sh SCRIPT PTXDBG`, which ends with "NAME: N passed, N failed"
# (or a line starting with SKIP when it cannot run here), and add its counts.
script_suite() {
    out=$(sh "$2" "${PTXDBG:-./ptxdbg}" 2>&1); rc=$?
    echo "$out"
    line=$(echo "$out" | grep -E "^$1: [0-9]+ passed, [0-9]+ failed" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E "s/$1: ([0-9]+) passed.*/\\1/")
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        passed=$((passed + p)); failed=$((failed + f))
    elif ! echo "$out" | grep -q '^SKIP'; then
        echo "$2: no summary line (exit $rc)"; failed=$((failed + 1))
    fi
    [ $rc -ne 0 ] && status=1
}
script_suite layers tests/check-layers.sh  # front ends use the engine's public API only
script_suite e2e tests/e2e.sh            # the batch contract on the e2e kernels
script_suite corpus tests/corpus.sh      # diverse nvcc programs against C references
script_suite interactive tests/interactive.sh   # tmux drives the real REPL
script_suite cuda tests/cuda.sh          # unmodified CUDA programs on the runtime library
script_suite dap tests/dap.sh            # ptxdbg --dap under VS Code's adapter test client
script_suite checkers tests/checkers.sh  # planted bugs found at their lines, look-alikes clean
script_suite json tests/json.sh          # --json sessions, every line parsed (docs/JSON.md)

total=$((passed + failed))
pct=100; [ $total -gt 0 ] && pct=$((passed * 100 / total))
echo "$pct%: Checks: $total, Failures: $failed, Errors: 0"
echo "$passed passed, $failed failed"
[ $failed -ne 0 ] && status=1
exit $status
