#!/bin/sh
# bench.sh - build and run the benchmark program (figures, not timed tests); see BENCHMARKS.md.
# Usage: tests/bench.sh [FILTER]   (kernels, checks, threads, debugger, launch, load, memory,
# runtime)
set -e
BUILD=${BUILD:-build}
make -s BUILD="$BUILD" "$BUILD/libptxdbg.a"
cc -O2 -g -std=c11 -D_GNU_SOURCE -c -o "$BUILD/bench_baseline.o" tests/bench/baseline.c
cc -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Icore/ptx -Icore/exec -Icore/isa -Icore/mem -Idebugger/include -Idwarf -Icheckers -Itests/bench \
    -o "$BUILD/bench" tests/bench/bench.c "$BUILD/bench_baseline.o" "$BUILD/libptxdbg.a" \
    $(pkg-config --libs libdwarf 2>/dev/null || echo -ldwarf) -lreadline -lm -lpthread
# the load benchmark's 5.6 MB -G module, stored compressed (tests/bench/gen-big.sh makes it)
BIG="$BUILD/big_kernels.G.ptx"
[ -f "$BIG" ] || gzip -dc tests/bench/big_kernels.G.ptx.gz > "$BIG"
echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%d)"
if [ "${1:-}" != runtime ]; then
    BENCH_BIG="$BIG" "$BUILD/bench" tests/bench "$@"
fi
# The CUDA runtime's per-operation overhead: tests/cuda/rt_bench (an nvcc-built program) on
# build/lib/libcudart.so.13 (10,000 empty launches, 10,000 small copies each way, 10,000
# cudaMalloc/cudaFree pairs).
if [ $# -eq 0 ] || [ "$1" = runtime ]; then
    make -s BUILD="$BUILD" "$BUILD/lib/libcudart.so.13"
    echo "runtime (tests/cuda/rt_bench, microseconds per operation):"
    LD_LIBRARY_PATH="$BUILD/lib" tests/cuda/rt_bench | sed -n 's/^/  /; /PASSED/!p'
fi
