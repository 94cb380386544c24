#!/bin/sh
# fuzz.sh - build each libFuzzer harness with clang and run it for a bounded time.
# Usage: tests/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]   (default 60 s, every harness)
# Seeds come from the test fixtures; crashes land in build-fuzz/crashes/ and must become
# regression tests.
set -eu
secs=${1:-60}
[ $# -gt 0 ] && shift
command -v clang >/dev/null 2>&1 || sh tests/install-deps.sh clang libclang-rt-14-dev
B=build-fuzz
FLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wno-unknown-pragmas"
make -s BUILD=$B CC=clang CFLAGS="$FLAGS -fsanitize=fuzzer-no-link" $B/libptxdbg.a
mkdir -p $B/crashes
harnesses=${*:-$(ls tests/fuzz/fuzz_*.c | sed 's|tests/fuzz/||; s|\.c$||')}
for h in $harnesses; do
    clang $FLAGS -fsanitize=fuzzer -std=c11 -D_GNU_SOURCE -Icore -Idwarf -Idebugger -Icommands \
        -o $B/$h tests/fuzz/$h.c $B/libptxdbg.a \
        $(pkg-config --libs libdwarf 2>/dev/null || echo -ldwarf) -lreadline -lm -lpthread
    corpus=$B/corpus-$h
    mkdir -p "$corpus"
    seeds=tests/fuzz/seeds-$h
    [ -d "$seeds" ] || seeds=""
    case $h in
        fuzz_parser|fuzz_exec) find tests/fixtures -name '*.ptx' -size -64k -exec cp {} "$corpus/" \; ;;
    esac
    echo "== $h ($secs s)"
    $B/$h -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -artifact_prefix=$B/crashes/$h- \
        -print_final_stats=1 "$corpus" $seeds 2>&1 | grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|Done' || true
done
