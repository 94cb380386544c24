#!/bin/sh
# bench.sh - build and run the benchmark program (figures, not timed tests).
set -e
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/libptxdbg.a"
cc -O2 -g -std=c11 -D_GNU_SOURCE -c -o "$BUILD/bench_baseline.o" tests/bench/baseline.c
cc -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Icore -Itests/bench \
    -o "$BUILD/bench" tests/bench/bench.c "$BUILD/bench_baseline.o" "$BUILD/libptxdbg.a" \
    $(pkg-config --libs libdwarf 2>/dev/null || echo -ldwarf) -lreadline -lm -lpthread
echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%d)"
"$BUILD/bench" tests/bench
