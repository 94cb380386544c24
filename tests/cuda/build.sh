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
# "// cuda-keep-symbols" strips only the debug information (a release build: host symbols,
# no lines).
# A line "// cuda-static-build" also builds NAME.static the same way but with nvcc's default,
# the CUDA runtime linked statically (no -cudart shared: libcudart_static.a, which reaches the
# driver through libcuda.so.1's private tables), and "// cuda-static-build: G" builds the -G
# variant that way instead (NAME.G.static); both stripped (unless "// cuda-host-debug").
# Sources are copied to a fixed neutral staging directory and compiled there, so the paths nvcc
# records are the same on every machine; ptxdbg finds the sources beside the executables.
# Usage: tests/cuda/build.sh [NAME.cu ...]   (default: all)
set -eu
STAGE=/tmp/ptxdbg-cuda-programs
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "build.sh: nvcc not found" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
all=0
[ $# -eq 0 ] && { all=1; set -- *.cu; }
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
    [ "$cu" = cmake ] && continue
    grep -q '^// cuda-part-of:' "$cu" && continue
    base=$(basename "$cu" .cu)
    flags=$(sed -n 's|^// nvcc-flags: *||p' "$base.cu" | head -n 1)
    case "$flags" in *-arch*) ;; *) flags="-arch=sm_80 $flags" ;; esac
    more=$(sed -n 's|^// cuda-sources: *||p' "$base.cu" | head -n 1)
    opt=$(sed -n 's|^// cuda-opt: *||p' "$base.cu" | head -n 1)
    strip=strip
    grep -q '^// cuda-keep-symbols' "$base.cu" && strip="strip --strip-debug"
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
    static=$(sed -n 's|^// cuda-static-build:* *||p' "$base.cu" | head -n 1)
    if grep -q '^// cuda-static-build' "$base.cu"; then
        case "$static" in G) g=-G sname=$base.G.static ;; *) g= sname=$base.static ;; esac
        (cd "$STAGE" && $NVCC $flags ${g:--O2} -o "$sname" "$base.cu" $more && $strip "$sname")
        cp "$STAGE/$sname" "$sname"
        out="$out $sname"
    fi
    echo "built tests/cuda/$out ($flags)"
done
# cmake/: a program built with CMake's defaults (static runtime, the compiler's default
# architecture), as tests/cuda/cmake_app; with all programs or when "cmake" is named.
want_cmake=$all
for a in "$@"; do [ "$a" = cmake ] && want_cmake=1; done
if [ $want_cmake = 1 ]; then
    if command -v cmake >/dev/null 2>&1; then
        mkdir -p "$STAGE/cmake"
        cp cmake/CMakeLists.txt cmake/cmake_app.cu "$STAGE/cmake/"
        (cd "$STAGE/cmake" && cmake -S . -B build -DCMAKE_CUDA_COMPILER="$(command -v "$NVCC")" \
             >/dev/null && cmake --build build >/dev/null && strip build/cmake_app)
        cp "$STAGE/cmake/build/cmake_app" cmake_app
        echo "built tests/cuda/cmake_app (CMake defaults)"
    else
        echo "build.sh: cmake not found: tests/cuda/cmake_app not rebuilt" >&2
    fi
fi
