// bench_kernels.cu - the kernels `make bench` times (see tests/bench/bench.c and BENCHMARKS.md).

// ALU-bound: each thread runs ITERS dependent fma.rn.f32.
extern "C" __global__ void fma_loop(float *out, float a, float b, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)i * 1e-6f;
    for (int k = 0; k < iters; k++)
        x = fmaf(x, a, b);
    out[i] = x;
}

// Memory-bound: y = a*x + y.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Shared-memory tree reduction of 256-element blocks.
extern "C" __global__ void reduce(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// Divergent: Collatz steps (64-bit, data-dependent trip counts).
extern "C" __global__ void collatz(const unsigned long long *start, int *steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = start[i];
    int n = 0;
    while (v != 1) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        n++;
    }
    steps[i] = n;
}

// 16x16 tiled matrix multiply, C = A * B, n a multiple of 16.
#define TILE 16
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    C[row * n + col] = acc;
}
