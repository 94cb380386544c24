// debug.cu - divergence, a device function, shared memory and brkpt for the debugger transcripts.
__device__ __noinline__ int twice(int v)
{
    return 2 * v;
}

__global__ void diverge(int *out, int n)
{
    __shared__ int tile[64];
    int t = threadIdx.x;
    int v;
    if (t % 2 == 0)
        v = twice(t);
    else
        v = t + 100;
    tile[t] = v;
    __syncthreads();
    if (t == 5)
        asm volatile("brkpt;");
    if (t < n)
        out[t] = tile[63 - t];
}
