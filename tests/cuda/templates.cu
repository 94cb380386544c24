// templates.cu - templated kernels, functors, lambdas, constexpr and structs passed by value.
// nvcc-flags: --extended-lambda
#include "cuda_check.h"

template <typename T> struct plus_op {
    __device__ __host__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct max_op {
    __device__ __host__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, typename Op, int BLOCK>
__global__ void block_reduce(const T *in, T *out, int n, T init, Op op)
{
    __shared__ T buf[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : init;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = buf[0];
}

template <typename F> __global__ void apply(int *x, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = f(x[i], i);
}

struct params {
    int scale;
    short bias;
    double weight;
    char tag[3];
};
__global__ void by_value(params p, double *out)
{
    *out = p.scale * p.weight + p.bias + p.tag[0] + p.tag[2];
}

__host__ __device__ constexpr int cube(int v) { return v * v * v; }

template <typename T, typename Op, int BLOCK>
static T run_reduce(const T *h, int n, T init, Op op)
{
    int blocks = (n + BLOCK - 1) / BLOCK;
    T *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(T)));
    CHECK(cudaMalloc(&dout, blocks * sizeof(T)));
    CHECK(cudaMemcpy(din, h, n * sizeof(T), cudaMemcpyHostToDevice));
    block_reduce<T, Op, BLOCK><<<blocks, BLOCK>>>(din, dout, n, init, op);
    CHECK_LAUNCH();
    T *part = (T *)malloc(blocks * sizeof(T));
    CHECK(cudaMemcpy(part, dout, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    T r = init;
    for (int b = 0; b < blocks; b++)
        r = op(r, part[b]);
    free(part);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return r;
}

int main()
{
    const int n = 3000;
    static long long hl[n];
    static double hd[n];
    long long want_l = 0;
    double want_max = -1.0;
    for (int i = 0; i < n; i++) {
        hl[i] = (long long)i * 1000003 - 7;
        want_l += hl[i];
        hd[i] = (i * 37 % 1001) * 0.25;
        want_max = hd[i] > want_max ? hd[i] : want_max;
    }
    long long got_l = run_reduce<long long, plus_op<long long>, 128>(hl, n, 0, plus_op<long long>());
    EXPECT(got_l == want_l, "long long sum %lld want %lld", got_l, want_l);
    double got_d = run_reduce<double, max_op<double>, 64>(hd, n, -1.0, max_op<double>());
    EXPECT(got_d == want_max, "double max %g want %g", got_d, want_max);

    int *dx, hx[n];
    CHECK(cudaMalloc(&dx, sizeof hx));
    CHECK(cudaMemset(dx, 0, sizeof hx));
    int k = 5;
    apply<<<(n + 127) / 128, 128>>>(dx, n, [k] __device__(int v, int i) { return v + k * i + cube(3); });
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hx, dx, sizeof hx, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hx[i] == 5 * i + 27, "lambda x[%d] = %d", i, hx[i]);

    params p = {3, -2, 1.5, {'a', 'b', 'c'}};
    double *dout, hout;
    CHECK(cudaMalloc(&dout, sizeof(double)));
    by_value<<<1, 1>>>(p, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    EXPECT(hout == 3 * 1.5 - 2 + 'a' + 'c', "struct by value %g", hout);
    printf("templates: PASSED\n");
    return 0;
}
