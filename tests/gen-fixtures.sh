#!/bin/sh
# gen-fixtures.sh - regenerate the committed PTX fixtures from their CUDA sources with nvcc.
#
# Every NAME.cu under tests/fixtures/, tests/transcripts/, tests/bench/ and examples/ becomes,
# beside it:
#   NAME.G.ptx         nvcc -G        (full DWARF, what users debug)
#   NAME.O3.ptx        nvcc -O3       (optimised, no line info)
#   NAME.lineinfo.ptx  nvcc -O3 -lineinfo (line table with inline chains)
# with the exact commands below. A line "// nvcc-flags: FLAGS" in the .cu adds FLAGS (for
# example -arch=sm_90); the default architecture is sm_80.
# Sources are copied to a fixed neutral staging directory and compiled there, so the paths
# nvcc writes into .file and DWARF are the same on every machine and name nothing of it;
# ptxdbg finds the sources beside the PTX files.
# Usage: tests/gen-fixtures.sh [FILE.cu ...]   (default: all)
set -eu
STAGE=/tmp/ptxdbg-fixtures
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "gen-fixtures: nvcc not found" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ $# -eq 0 ]; then
    set -- $(find tests/fixtures tests/transcripts tests/bench examples -name '*.cu' | sort)
fi
# one run at a time uses the staging folder
if command -v flock >/dev/null 2>&1; then
    exec 9>"$STAGE.lock"
    flock 9
fi
rm -rf "$STAGE"
mkdir -p "$STAGE"
for cu in "$@"; do
    dir=$(dirname "$cu")
    base=$(basename "$cu" .cu)
    flags=$(sed -n 's|^// nvcc-flags: *||p' "$cu" | head -n 1)
    case "$flags" in *-arch*) ;; *) flags="-arch=sm_80 $flags" ;; esac
    cp "$cu" "$STAGE/$base.cu"
    # also stage headers the kernel includes from its own directory
    for h in "$dir"/*.h "$dir"/*.cuh; do [ -f "$h" ] && cp "$h" "$STAGE/"; done
    (cd "$STAGE" &&
        $NVCC $flags -ptx -G -o "$base.G.ptx" "$base.cu" &&
        $NVCC $flags -ptx -O3 -o "$base.O3.ptx" "$base.cu" &&
        $NVCC $flags -ptx -O3 -lineinfo -o "$base.lineinfo.ptx" "$base.cu")
    for v in G O3 lineinfo; do cp "$STAGE/$base.$v.ptx" "$dir/$base.$v.ptx"; done
    # the examples' NAME.ptx (what `make run` opens) is the -G build
    case "$dir" in examples) cp "$dir/$base.G.ptx" "$dir/$base.ptx" ;; esac
    echo "generated $dir/$base.{G,O3,lineinfo}.ptx ($flags)"
done
