// smp_thrust2.cu - more Thrust: reduce_by_key, copy_if/remove_if, zip and counting iterators,
// transform_reduce, device lambdas, thrust::complex, sort with greater<>, unique_by_key,
// lower_bound, set_intersection, merge, gather/scatter, max_element, raw pointers through
// device_pointer_cast, and execution on an explicit stream policy.
// nvcc-flags: --extended-lambda
#include "smp_helper.h"
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/copy.h>
#include <thrust/remove.h>
#include <thrust/transform_reduce.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/complex.h>
#include <thrust/unique.h>
#include <thrust/binary_search.h>
#include <thrust/set_operations.h>
#include <thrust/merge.h>
#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/extrema.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>
#include <vector>
#include <algorithm>

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 20000;
    thrust::device_vector<int> keys(n), vals(n);
    thrust::tabulate(keys.begin(), keys.end(), [] __device__(int i) { return i / 10; });
    thrust::tabulate(vals.begin(), vals.end(), [] __device__(int i) { return i % 10; });
    thrust::device_vector<int> ok_keys(n), ok_vals(n);
    auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), vals.begin(), ok_keys.begin(), ok_vals.begin());
    int groups = ends.first - ok_keys.begin();
    if (groups != n / 10 || ok_vals[5] != 45) { printf("reduce_by_key %d %d\n", groups, (int)ok_vals[5]); ok = false; }
    thrust::device_vector<int> evens(n);
    auto e2 = thrust::copy_if(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n), evens.begin(),
                              [] __host__ __device__(int x) { return x % 2 == 0; });
    if (e2 - evens.begin() != n / 2 || evens[100] != 200) { printf("copy_if\n"); ok = false; }
    thrust::device_vector<float> a(n), b(n);
    thrust::sequence(a.begin(), a.end());
    thrust::fill(b.begin(), b.end(), 0.5f);
    float dot = thrust::transform_reduce(
        thrust::make_zip_iterator(thrust::make_tuple(a.begin(), b.begin())),
        thrust::make_zip_iterator(thrust::make_tuple(a.end(), b.end())),
        [] __host__ __device__(thrust::tuple<float, float> t) { return thrust::get<0>(t) * thrust::get<1>(t); }, 0.0f,
        thrust::plus<float>());
    double want = 0.5 * (double)n * (n - 1) / 2;
    if (fabs(dot - want) / want > 1e-5) { printf("zip transform_reduce %f %f\n", dot, want); ok = false; }
    thrust::device_vector<thrust::complex<double>> c(100);
    thrust::tabulate(c.begin(), c.end(), [] __device__(int i) { return thrust::complex<double>(i, -i); });
    thrust::complex<double> cs = thrust::reduce(c.begin(), c.end(), thrust::complex<double>(0, 0),
                                                [] __host__ __device__(thrust::complex<double> x, thrust::complex<double> y) { return x * thrust::complex<double>(0, 1) * 0.0 + x + y; });
    if (cs.real() != 4950 || cs.imag() != -4950) { printf("complex %f %f\n", cs.real(), cs.imag()); ok = false; }
    thrust::device_vector<int> r(n);
    for (int i = 0; i < 50; i++) r[i] = (i * 37) % 50;
    thrust::sort(r.begin(), r.begin() + 50, thrust::greater<int>());
    if (r[0] != 49 || r[49] != 0) { printf("sort greater\n"); ok = false; }
    thrust::device_vector<int> uk(n);
    thrust::tabulate(uk.begin(), uk.end(), [] __device__(int i) { return i / 3; });
    thrust::device_vector<int> uv(n, 1);
    auto ue = thrust::unique_by_key(uk.begin(), uk.end(), uv.begin());
    if (ue.first - uk.begin() != (n + 2) / 3) { printf("unique_by_key\n"); ok = false; }
    thrust::device_vector<int> sorted(1000), q(5), pos(5);
    thrust::sequence(sorted.begin(), sorted.end(), 0, 2);
    q[0] = -1; q[1] = 0; q[2] = 3; q[3] = 1998; q[4] = 5000;
    thrust::lower_bound(sorted.begin(), sorted.end(), q.begin(), q.end(), pos.begin());
    int pw[5] = {0, 0, 2, 999, 1000};
    for (int i = 0; i < 5; i++) if (pos[i] != pw[i]) { printf("lower_bound %d: %d\n", i, (int)pos[i]); ok = false; }
    thrust::device_vector<int> s1(100), s2(100), si(100), mg(200);
    thrust::sequence(s1.begin(), s1.end(), 0, 2);
    thrust::sequence(s2.begin(), s2.end(), 0, 3);
    auto ie = thrust::set_intersection(s1.begin(), s1.end(), s2.begin(), s2.end(), si.begin());
    if (ie - si.begin() != 34) { printf("set_intersection %ld\n", (long)(ie - si.begin())); ok = false; }
    thrust::merge(s1.begin(), s1.end(), s2.begin(), s2.end(), mg.begin());
    if (!thrust::is_sorted(mg.begin(), mg.end())) { printf("merge\n"); ok = false; }
    thrust::device_vector<int> map(10), src(10), dst(10);
    thrust::sequence(src.begin(), src.end(), 100);
    for (int i = 0; i < 10; i++) map[i] = 9 - i;
    thrust::gather(map.begin(), map.end(), src.begin(), dst.begin());
    if (dst[0] != 109) { printf("gather\n"); ok = false; }
    thrust::scatter(src.begin(), src.end(), map.begin(), dst.begin());
    if (dst[0] != 109 || dst[9] != 100) { printf("scatter\n"); ok = false; }
    auto mx = thrust::max_element(a.begin(), a.end());
    if (mx - a.begin() != n - 1) { printf("max_element\n"); ok = false; }
    int *raw;
    checkCudaErrors(cudaMalloc(&raw, 1000 * sizeof(int)));
    thrust::device_ptr<int> dp = thrust::device_pointer_cast(raw);
    cudaStream_t st;
    checkCudaErrors(cudaStreamCreate(&st));
    thrust::sequence(thrust::cuda::par.on(st), dp, dp + 1000);
    int tot = thrust::reduce(thrust::cuda::par.on(st), dp, dp + 1000);
    if (tot != 499500) { printf("raw pointer on stream %d\n", tot); ok = false; }
    thrust::device_vector<int> rm(100);
    thrust::sequence(rm.begin(), rm.end());
    auto re = thrust::remove_if(rm.begin(), rm.end(), [] __host__ __device__(int x) { return x % 3 == 0; });
    if (re - rm.begin() != 66) { printf("remove_if\n"); ok = false; }
    SMP_RESULT("smp_thrust2", ok);
}
