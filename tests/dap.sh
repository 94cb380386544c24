#!/bin/sh
# dap.sh - the Debug Adapter Protocol suite: `ptxdbg --dap` driven by VS Code's adapter test client
# (@vscode/debugadapter-testsupport, tests/dap/package.json) under node's test runner.
# Usage: sh tests/dap.sh [PTXDBG]      (default ./ptxdbg)
# Installs the client with `npm ci` when tests/dap/node_modules is missing; prints a SKIP line
# when node or npm is absent. Last line: "dap: N passed, N failed".
ptxdbg=${1:-./ptxdbg}
top=$(cd "$(dirname "$0")/.." && pwd)
case "$ptxdbg" in /*) ;; *) ptxdbg=$(pwd)/$ptxdbg ;; esac
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "SKIP dap: node and npm are not installed"
    exit 0
fi
cd "$top/tests/dap" || exit 1
if [ ! -d node_modules/@vscode/debugadapter-testsupport ]; then
    npm ci --no-audit --no-fund --silent >/dev/null 2>&1 || {
        echo "dap: npm ci failed"
        echo "dap: 0 passed, 1 failed"
        exit 1
    }
fi
# the work is bounded by the kernels and the CPU limit; the clients' timeouts only bound waiting
ulimit -t 600 2>/dev/null
out=$(PTXDBG=$ptxdbg node --test --test-reporter=tap ptx.test.js editor.test.js extension.test.js cuda.test.js checks.test.js 2>&1)
rc=$?
echo "$out" | grep -E '^(not )?ok |^# Subtest|^  error:|^    [A-Za-z].*!==' | grep -v '^# Subtest'
pass=$(echo "$out" | sed -n 's/^# pass \([0-9]*\)$/\1/p' | tail -n 1)
fail=$(echo "$out" | sed -n 's/^# fail \([0-9]*\)$/\1/p' | tail -n 1)
canc=$(echo "$out" | sed -n 's/^# cancelled \([0-9]*\)$/\1/p' | tail -n 1)
[ -n "$pass" ] || { echo "$out" | tail -n 20; pass=0; fail=1; }
fail=$((${fail:-0} + ${canc:-0}))
[ $rc -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "dap: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
