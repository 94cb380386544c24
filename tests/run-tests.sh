#!/bin/sh
# run-tests.sh - run every Check suite and the end-to-end tests; print one summary line.
# Usage: tests/run-tests.sh BUILD_DIR TEST_BINARY...
# VALGRIND="valgrind ..." runs each suite under it; PTXDBG names the binary the e2e tests use.
build=$1; shift
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
# End-to-end batch tests print "e2e: N passed, N failed".
e2e_out=$(sh tests/e2e.sh "${PTXDBG:-./ptxdbg}" 2>&1); rc=$?
echo "$e2e_out"
line=$(echo "$e2e_out" | grep -E '^e2e: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/e2e: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    passed=$((passed + p)); failed=$((failed + f))
else
    failed=$((failed + 1))
fi
[ $rc -ne 0 ] && status=1
# The corpus of diverse nvcc kernels prints "corpus: N passed, N failed".
corpus_out=$(sh tests/corpus.sh "${PTXDBG:-./ptxdbg}" 2>&1); rc=$?
echo "$corpus_out"
line=$(echo "$corpus_out" | grep -E '^corpus: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/corpus: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    passed=$((passed + p)); failed=$((failed + f))
else
    failed=$((failed + 1))
fi
[ $rc -ne 0 ] && status=1
# Terminal tests (tmux drives the real REPL) print "interactive: N passed, N failed".
tty_out=$(sh tests/interactive.sh "${PTXDBG:-./ptxdbg}" 2>&1); rc=$?
echo "$tty_out"
line=$(echo "$tty_out" | grep -E '^interactive: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/interactive: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    passed=$((passed + p)); failed=$((failed + f))
elif ! echo "$tty_out" | grep -q '^SKIP'; then
    failed=$((failed + 1))
fi
[ $rc -ne 0 ] && status=1
total=$((passed + failed))
pct=100; [ $total -gt 0 ] && pct=$((passed * 100 / total))
echo "$pct%: Checks: $total, Failures: $failed, Errors: 0"
echo "$passed passed, $failed failed"
[ $failed -ne 0 ] && status=1
exit $status
