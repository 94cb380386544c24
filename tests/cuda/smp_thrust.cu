// smp_thrust.cu - Thrust programs (radixSortThrust and friends): device_vector, sort and
// sort_by_key, reduce, transform with a functor, inclusive/exclusive scan, count_if, unique,
// sequence, copy back to host_vector, checked against the host algorithms.
#include "smp_helper.h"
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/count.h>
#include <thrust/unique.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>
#include <algorithm>
#include <numeric>
#include <vector>

struct saxpy_functor {
    const float a;
    saxpy_functor(float _a) : a(_a) {}
    __host__ __device__ float operator()(const float &x, const float &y) const { return a * x + y; }
};
struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 1 << 16;
    thrust::host_vector<unsigned> hkeys(n);
    thrust::host_vector<int> hvals(n);
    for (int i = 0; i < n; i++) { hkeys[i] = (unsigned)rand(); hvals[i] = i; }
    thrust::device_vector<unsigned> dkeys = hkeys;
    thrust::device_vector<int> dvals = hvals;
    SmpTimer t; t.start();
    thrust::sort_by_key(dkeys.begin(), dkeys.end(), dvals.begin());
    printf("sort_by_key: %.3f ms\n", t.stop());
    thrust::host_vector<unsigned> skeys = dkeys;
    thrust::host_vector<int> svals = dvals;
    std::vector<unsigned> ref(hkeys.begin(), hkeys.end());
    std::sort(ref.begin(), ref.end());
    for (int i = 0; i < n; i++) if (skeys[i] != ref[i] || hkeys[svals[i]] != skeys[i]) { printf("sort %d\n", i); ok = false; break; }
    thrust::device_vector<float> x(n), y(n);
    thrust::sequence(x.begin(), x.end(), 1.0f);
    thrust::fill(y.begin(), y.end(), 2.0f);
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_functor(3.0f));
    float s = thrust::reduce(y.begin(), y.end(), 0.0f, thrust::plus<float>());
    double ref_s = 0; for (int i = 0; i < n; i++) ref_s += 3.0 * (i + 1) + 2.0;
    if (fabs(s - ref_s) / ref_s > 1e-5) { printf("saxpy reduce %f %f\n", s, ref_s); ok = false; }
    thrust::device_vector<int> iv(1000);
    thrust::sequence(iv.begin(), iv.end());
    thrust::device_vector<int> incl(1000), excl(1000);
    thrust::inclusive_scan(iv.begin(), iv.end(), incl.begin());
    thrust::exclusive_scan(iv.begin(), iv.end(), excl.begin(), 10);
    if (incl[999] != 999 * 1000 / 2 || excl[0] != 10 || excl[999] != 998 * 999 / 2 + 10) { printf("scan %d %d\n", (int)incl[999], (int)excl[999]); ok = false; }
    int odd = thrust::count_if(iv.begin(), iv.end(), is_odd());
    if (odd != 500) { printf("count_if %d\n", odd); ok = false; }
    thrust::device_vector<int> dup(2000);
    for (int i = 0; i < 2000; i++) dup[i] = i / 4;
    auto end = thrust::unique(dup.begin(), dup.end());
    if (end - dup.begin() != 500) { printf("unique %ld\n", (long)(end - dup.begin())); ok = false; }
    int mx = thrust::reduce(iv.begin(), iv.end(), -1, thrust::maximum<int>());
    int dot = thrust::inner_product(iv.begin(), iv.begin() + 10, iv.begin(), 0);
    if (mx != 999 || dot != 285) { printf("max/dot %d %d\n", mx, dot); ok = false; }
    thrust::device_vector<double> dd(n);
    thrust::sequence(dd.begin(), dd.end(), (double)n, -1.0);
    thrust::sort(dd.begin(), dd.end(), thrust::less<double>());
    if (dd[0] != 1.0 || dd[n - 1] != (double)n) { printf("double sort\n"); ok = false; }
    SMP_RESULT("smp_thrust", ok);
}
