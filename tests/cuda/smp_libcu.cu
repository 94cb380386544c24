// smp_libcu.cu - libcu++ and the async-copy samples (globalToShmemAsyncCopy, simpleAWBarrier):
// cuda::memcpy_async with a block-scoped cuda::barrier, a two-stage cuda::pipeline,
// __pipeline_memcpy_async primitives, cooperative_groups::memcpy_async + wait,
// cuda::atomic_ref / cuda::atomic, and an arrive/wait barrier used as a split-phase __syncthreads.
// cuda-G-build
#include "smp_helper.h"
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/atomic>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void barrier_copy(const int *in, int *out, int n)
{
    __shared__ int tile[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    for (int base = blockIdx.x * 256; base < n; base += gridDim.x * 256) {
        cuda::memcpy_async(block, tile, in + base, sizeof(int) * 256, bar);
        bar.arrive_and_wait();
        out[base + threadIdx.x] = tile[threadIdx.x] * 2 + tile[255 - threadIdx.x];
        bar.arrive_and_wait();
    }
}

__global__ void pipeline_sum(const float *in, float *out, int chunks)
{
    constexpr int stages = 2;
    __shared__ float buf[stages][128];
    auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto pipe = cuda::make_pipeline(block, &state);
    const float *src = in + (size_t)blockIdx.x * chunks * 128;
    float acc = 0;
    int fetch = 0;
    for (int c = 0; c < chunks; c++) {
        for (; fetch < chunks && fetch < c + stages; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % stages], src + fetch * 128, sizeof(float) * 128, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += buf[c % stages][threadIdx.x];
        pipe.consumer_release();
    }
    out[blockIdx.x * 128 + threadIdx.x] = acc;
}

__global__ void prim_copy(const int4 *in, int4 *out)
{
    __shared__ int4 sh[64];
    __pipeline_memcpy_async(&sh[threadIdx.x], &in[blockIdx.x * 64 + threadIdx.x], sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    int4 v = sh[63 - threadIdx.x];
    out[blockIdx.x * 64 + threadIdx.x] = make_int4(v.w, v.z, v.y, v.x);
}

__global__ void cg_copy(const double *in, double *out, int n)
{
    extern __shared__ double dsh[];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, dsh, in, sizeof(double) * n);
    cg::wait(block);
    double s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += dsh[i];
    auto tile = cg::tiled_partition<32>(block);
    for (int o = 16; o > 0; o /= 2) s += tile.shfl_down(s, o);
    if (tile.thread_rank() == 0) atomicAdd(out, s);
}

__global__ void atomics(int *counter, unsigned long long *flags, int *order)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
    int t = c.fetch_add(1, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> f(*flags);
    f.fetch_or(1ull << (t % 64));
    int expected = 0;
    cuda::atomic_ref<int, cuda::thread_scope_system> o(*order);
    o.compare_exchange_strong(expected, blockIdx.x * 1000 + threadIdx.x + 1);
    c.fetch_max(0);
}

__global__ void split_phase(float *data, float *result)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float partial[128];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    partial[threadIdx.x] = data[threadIdx.x] * data[threadIdx.x];
    auto token = bar.arrive();
    float independent = data[threadIdx.x] + 1.0f;
    bar.wait(std::move(token));
    if (threadIdx.x == 0) {
        float s = 0;
        for (int i = 0; i < blockDim.x; i++) s += partial[i];
        result[0] = s;
    }
    data[threadIdx.x] = independent;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    int n = 256 * 16;
    int *hi = (int *)malloc(n * 4), *ho = (int *)malloc(n * 4), *di, *dout;
    for (int i = 0; i < n; i++) hi[i] = i * 3 - 100;
    checkCudaErrors(cudaMalloc(&di, n * 4)); checkCudaErrors(cudaMalloc(&dout, n * 4));
    checkCudaErrors(cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice));
    barrier_copy<<<5, 256>>>(di, dout, n);
    getLastCudaError("barrier_copy");
    checkCudaErrors(cudaMemcpy(ho, dout, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) { int b = i / 256 * 256, t = i % 256; if (ho[i] != hi[i] * 2 + hi[b + 255 - t]) { printf("barrier copy %d\n", i); ok = false; break; } }
    int chunks = 6, blocks = 3;
    float *hf = (float *)malloc(blocks * chunks * 128 * 4), *hr = (float *)malloc(blocks * 128 * 4), *df, *dr;
    for (int i = 0; i < blocks * chunks * 128; i++) hf[i] = (float)(i % 13);
    checkCudaErrors(cudaMalloc(&df, blocks * chunks * 128 * 4)); checkCudaErrors(cudaMalloc(&dr, blocks * 128 * 4));
    checkCudaErrors(cudaMemcpy(df, hf, blocks * chunks * 128 * 4, cudaMemcpyHostToDevice));
    pipeline_sum<<<blocks, 128>>>(df, dr, chunks);
    getLastCudaError("pipeline_sum");
    checkCudaErrors(cudaMemcpy(hr, dr, blocks * 128 * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks && ok; b++) for (int t = 0; t < 128; t++) {
        float s = 0; for (int c = 0; c < chunks; c++) s += hf[(b * chunks + c) * 128 + t];
        if (s != hr[b * 128 + t]) { printf("pipeline %d %d: %f vs %f\n", b, t, hr[b * 128 + t], s); ok = false; break; }
    }
    int4 *d4i, *d4o, h4[128];
    for (int i = 0; i < 128; i++) h4[i] = make_int4(i, i + 1, i + 2, i + 3);
    checkCudaErrors(cudaMalloc(&d4i, sizeof(h4))); checkCudaErrors(cudaMalloc(&d4o, sizeof(h4)));
    checkCudaErrors(cudaMemcpy(d4i, h4, sizeof(h4), cudaMemcpyHostToDevice));
    prim_copy<<<2, 64>>>(d4i, d4o);
    int4 r4[128];
    checkCudaErrors(cudaMemcpy(r4, d4o, sizeof(r4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) { int s = (i / 64) * 64 + 63 - i % 64; if (r4[i].x != s + 3 || r4[i].w != s) { printf("pipeline primitives %d\n", i); ok = false; break; } }
    int dn = 1000;
    double *hd = (double *)malloc(dn * 8), *dd, *dsum, hs, ref = 0;
    for (int i = 0; i < dn; i++) { hd[i] = i * 0.25; ref += hd[i]; }
    checkCudaErrors(cudaMalloc(&dd, dn * 8)); checkCudaErrors(cudaMalloc(&dsum, 8));
    checkCudaErrors(cudaMemcpy(dd, hd, dn * 8, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(dsum, 0, 8));
    cg_copy<<<1, 96, dn * 8>>>(dd, dsum, dn);
    checkCudaErrors(cudaMemcpy(&hs, dsum, 8, cudaMemcpyDeviceToHost));
    if (hs != ref) { printf("cg memcpy_async %f vs %f\n", hs, ref); ok = false; }
    int *dc, *dord; unsigned long long *dfl;
    checkCudaErrors(cudaMalloc(&dc, 4)); checkCudaErrors(cudaMalloc(&dord, 4)); checkCudaErrors(cudaMalloc(&dfl, 8));
    checkCudaErrors(cudaMemset(dc, 0, 4)); checkCudaErrors(cudaMemset(dord, 0, 4)); checkCudaErrors(cudaMemset(dfl, 0, 8));
    atomics<<<4, 64>>>(dc, dfl, dord);
    int hc, hord; unsigned long long hfl;
    checkCudaErrors(cudaMemcpy(&hc, dc, 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(&hord, dord, 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(&hfl, dfl, 8, cudaMemcpyDeviceToHost));
    if (hc != 256 || hfl != ~0ull || hord == 0) { printf("atomic_ref %d %llx %d\n", hc, hfl, hord); ok = false; }
    float hdat[128], *ddat, *dres, hres;
    for (int i = 0; i < 128; i++) hdat[i] = (float)(i % 5);
    checkCudaErrors(cudaMalloc(&ddat, sizeof(hdat))); checkCudaErrors(cudaMalloc(&dres, 4));
    checkCudaErrors(cudaMemcpy(ddat, hdat, sizeof(hdat), cudaMemcpyHostToDevice));
    split_phase<<<1, 128>>>(ddat, dres);
    checkCudaErrors(cudaMemcpy(&hres, dres, 4, cudaMemcpyDeviceToHost));
    float want = 0; for (int i = 0; i < 128; i++) want += hdat[i] * hdat[i];
    if (hres != want) { printf("split phase %f vs %f\n", hres, want); ok = false; }
    SMP_RESULT("smp_libcu", ok);
}
