#!/bin/sh
# fuzz.sh - build each libFuzzer harness with clang (ASan + UBSan) and run it, bounded.
# Usage: tests/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]   (default 60 s, every harness)
#   SECONDS 0: no time limit (then set FUZZ_RUNS, as `make fuzz-long` does).
#   FUZZ_RUNS=N: stop each harness after N executions (-runs=N) as well.
# Prints a table: harness, executions, wall time, exec/s, CPU seconds, executions per CPU
# second (the fair figure on a shared machine), crashes. Logs: build-fuzz/log-NAME.txt.
# Seeds come from the test fixtures (and, for fuzz_core, from a core the harness writes);
# crashes land in build-fuzz/crashes/ and must become regression inputs in tests/badinput/
# (fuzz-NAME-N.*) with a row in tests/test_badinput.c. Exit status 1 when a harness crashed.
set -eu
secs=${1:-60}
[ $# -gt 0 ] && shift
runs=${FUZZ_RUNS:-}
command -v clang >/dev/null 2>&1 || sh tests/install-deps.sh clang libclang-rt-14-dev
B=build-fuzz
FLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# -Wall in the Makefile's XCFLAGS comes after CFLAGS and turns -Wunknown-pragmas back on
# (gcc's `#pragma GCC ivdep`); FILE_CFLAGS comes after it (and must keep -ffp-contract=off).
make -s BUILD=$B CC=clang CFLAGS="$FLAGS -fsanitize=fuzzer-no-link" \
    FILE_CFLAGS="-Wno-unknown-pragmas -ffp-contract=off" $B/libptxdbg.a
mkdir -p $B/crashes
harnesses=${*:-$(ls tests/fuzz/fuzz_*.c | sed 's|tests/fuzz/||; s|\.c$||')}
table=$B/fuzz-table.txt
printf '%-14s %12s %7s %7s %7s %9s %8s\n' harness executions time_s exec/s cpu_s exec/cpu_s \
    crashes >"$table"
# CPU seconds (user + system) of this shell's children so far: `times` must run in this shell
# (in a pipeline or $(...) it would report a subshell's children), so snap writes it to a file.
snap() { times >$B/.times; }
cpusecs() {
    awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] }
        printf "%d", t }' $B/.times
}
status=0
for h in $harnesses; do
    clang $FLAGS -fsanitize=fuzzer -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
        -Wno-unknown-pragmas -Icore/ptx -Icore/exec -Icore/isa -Icore/mem -Idwarf -Idebugger -Icommands \
        -o $B/$h tests/fuzz/$h.c $B/libptxdbg.a \
        $(pkg-config --libs libdwarf 2>/dev/null || echo -ldwarf) -lreadline -lm -lpthread
    corpus=$B/corpus-$h
    mkdir -p "$corpus"
    seeds=tests/fuzz/seeds-$h
    [ -d "$seeds" ] || seeds=""
    opts=""
    case $h in
        fuzz_parser)
            # small fixtures only: libFuzzer cuts longer inputs to -max_len anyway
            find tests/fixtures tests/badinput -name '*.ptx' -size -16k -exec cp {} "$corpus/" \;
            opts="-max_len=4096 -dict=tests/fuzz/ptx.dict" ;;
        fuzz_dwarf)
            # byte 0 picks the module, bytes 1-2 a cut (none), then patches (none)
            for i in 0 1 2; do printf "\\$i\\0\\0" >"$corpus/seed-module-$i"; done
            opts="-max_len=1024" ;;
        fuzz_commands) opts="-max_len=1024" ;;
        fuzz_exec) opts="-max_len=512" ;;
        fuzz_core)
            FUZZ_CORE_SEEDS="$corpus" $B/$h
            opts="-max_len=65536" ;;
    esac
    [ -n "$runs" ] && opts="$opts -runs=$runs"
    [ "$secs" != 0 ] && opts="$opts -max_total_time=$secs"
    before=$(ls $B/crashes | grep -c "^$h-" || true)
    log=$B/log-$h.txt
    echo "== $h (${secs}s${runs:+, $runs runs})"
    start=$(date +%s)
    snap
    cpu0=$(cpusecs)
    # shellcheck disable=SC2086
    $B/$h $opts -timeout=10 -rss_limit_mb=2048 -artifact_prefix=$B/crashes/$h- \
        -print_final_stats=1 "$corpus" $seeds >"$log" 2>&1 || true
    end=$(date +%s)
    snap
    cpus=$(($(cpusecs) - cpu0))
    grep -E 'ERROR|SUMMARY|Done|stat::number_of_executed_units' "$log" || true
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    t=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    [ -n "$t" ] || t=$((end - start))
    # after a crash there are no final stats: the last status line's count
    [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    [ -n "$n" ] || n=0
    after=$(ls $B/crashes | grep -c "^$h-" || true)
    crashes=$((after - before))
    [ "$crashes" -gt 0 ] && status=1
    rate=$([ "$t" -gt 0 ] && echo $((n / t)) || echo "$n")
    crate=$([ "$cpus" -gt 0 ] && echo $((n / cpus)) || echo "$n")
    printf '%-14s %12s %7s %7s %7s %9s %8s\n' "$h" "$n" "$t" "$rate" "$cpus" "$crate" \
        "$crashes" >>"$table"
done
echo
cat "$table"
[ "$status" = 0 ] || echo "crash inputs: $B/crashes/ (make each a tests/badinput/fuzz-NAME-N.* row)"
exit $status
