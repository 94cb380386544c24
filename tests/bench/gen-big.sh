#!/bin/sh
# gen-big.sh - regenerate tests/bench/big_kernels.G.ptx.gz (nvcc -G of big_kernels.cu.in), the
# 5.6 MB module whose load time `make bench` reports. Compiled in a fixed neutral directory so
# the paths in the PTX name nothing of the machine.
set -eu
NVCC=${NVCC:-nvcc}
STAGE=/tmp/ptxdbg-fixtures
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$STAGE"
cp "$top/tests/bench/big_kernels.cu.in" "$STAGE/big_kernels.cu"
(cd "$STAGE" && $NVCC -arch=sm_80 -ptx -G -o big_kernels.G.ptx big_kernels.cu)
gzip -9n -c "$STAGE/big_kernels.G.ptx" > "$top/tests/bench/big_kernels.G.ptx.gz"
echo "generated tests/bench/big_kernels.G.ptx.gz"
