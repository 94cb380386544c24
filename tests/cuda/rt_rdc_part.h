// rt_rdc_part.h - the second translation unit of rt_rdc.cu (compiled as CUDA with -x cu and
// -rdc=true): a device function and a variable the first unit uses, a template instantiated
// in both units, a static function and a printf string of the same names as the first's.
#include <cstdio>
template <typename T> __device__ T square(T x) { return x * x; }
static __device__ int helper(int x) { return x + 2; }
__device__ int launches;
__device__ int part_value(int x)
{
    if (x == 0)
        printf("part: %d\n", square(3));
    return 100 * x + helper(0) + square(0);
}
