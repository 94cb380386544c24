#!/bin/sh
# bench.sh - build and run the benchmark program (figures, not timed tests); see BENCHMARKS.md.
# Usage: tests/bench.sh [FILTER]   (kernels, threads, debugger, launch, load, memory)
set -e
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/libptxdbg.a"
cc -O2 -g -std=c11 -D_GNU_SOURCE -c -o "$BUILD/bench_baseline.o" tests/bench/baseline.c
cc -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Icore -Idwarf -Itests/bench \
    -o "$BUILD/bench" tests/bench/bench.c "$BUILD/bench_baseline.o" "$BUILD/libptxdbg.a" \
    $(pkg-config --libs libdwarf 2>/dev/null || echo -ldwarf) -lreadline -lm -lpthread
# the load benchmark's 5.6 MB -G module, stored compressed (tests/bench/gen-big.sh makes it)
BIG="$BUILD/big_kernels.G.ptx"
[ -f "$BIG" ] || gzip -dc tests/bench/big_kernels.G.ptx.gz > "$BIG"
echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%d)"
BENCH_BIG="$BIG" "$BUILD/bench" tests/bench "$@"
