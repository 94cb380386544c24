#!/bin/sh
# build.sh - rebuild the committed CUDA test programs of tests/cuda/ from their sources with nvcc.
#
# Every NAME.cu here becomes, beside it, the executable NAME built with
#     nvcc -cudart shared -arch=sm_80 -O2 FLAGS -o NAME NAME.cu      then  strip NAME
# and, when the source has a line "// cuda-G-build", also NAME.G built the same way with -G
# (device debug information and PTX with DWARF, for debugging scenarios; the host part is
# stripped, the fat binary keeps the device DWARF). A line "// nvcc-flags: FLAGS" adds FLAGS;
# "// cuda-sources: B.cu ..." compiles and links more translation units into the program (each
# one its own module); such a B.cu says "// cuda-part-of: NAME.cu" and is not a program.
# "// cuda-opt: FLAGS" replaces -O2 in the build of NAME (not NAME.G), e.g. -O3 -lineinfo.
# "// cuda-host-debug" builds both with host debug information (-g) and leaves them unstripped
# (for the launch sites and host backtraces ptxdbg reads from the program's own DWARF).
# Sources are copied to a fixed neutral staging directory and compiled there, so the paths nvcc
# records are the same on every machine; ptxdbg finds the sources beside the executables.
# Usage: tests/cuda/build.sh [NAME.cu ...]   (default: all)
set -eu
STAGE=/tmp/ptxdbg-cuda-programs
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "build.sh: nvcc not found" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ $# -eq 0 ] && set -- *.cu
# one build at a time uses the staging folder
if command -v flock >/dev/null 2>&1; then
    exec 9>"$STAGE.lock"
    flock 9
fi
rm -rf "$STAGE"
mkdir -p "$STAGE"
cp ./*.h "$STAGE/"
cp ./*.cu "$STAGE/"
for cu in "$@"; do
    grep -q '^// cuda-part-of:' "$cu" && continue
    base=$(basename "$cu" .cu)
    flags=$(sed -n 's|^// nvcc-flags: *||p' "$base.cu" | head -n 1)
    case "$flags" in *-arch*) ;; *) flags="-arch=sm_80 $flags" ;; esac
    more=$(sed -n 's|^// cuda-sources: *||p' "$base.cu" | head -n 1)
    opt=$(sed -n 's|^// cuda-opt: *||p' "$base.cu" | head -n 1)
    strip=strip
    if grep -q '^// cuda-host-debug' "$base.cu"; then
        flags="$flags -g"
        strip=true
    fi
    (cd "$STAGE" && $NVCC -cudart shared $flags ${opt:--O2} -o "$base" "$base.cu" $more && $strip "$base")
    cp "$STAGE/$base" "$base"
    out="$base"
    if grep -q '^// cuda-G-build' "$base.cu"; then
        (cd "$STAGE" && $NVCC -cudart shared $flags -G -o "$base.G" "$base.cu" $more && $strip "$base.G")
        cp "$STAGE/$base.G" "$base.G"
        out="$out $base.G"
    fi
    echo "built tests/cuda/$out ($flags)"
done
