// particles.cu - structs (Particle, float3), a template kernel with inline device functions, atomics,
// a host function, and planted faults: "atomic" (atomicAdd on a freed counter) and "freed" (a
// kernel reads a buffer after cudaFree). Exit 0 with "particles: PASSED", or 3 after a fault.
// cuda-G-build
// cuda-host-debug
// cuda-opt: -O3 -lineinfo
#include "cuda_check.h"
#include <string.h>

struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    int id;
};

__device__ __forceinline__ float3 step_pos(float3 p, float3 v, float dt)
{
    return make_float3(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt);
}

__device__ __forceinline__ float energy(const Particle &q)
{
    return 0.5f * q.mass * (q.vel.x * q.vel.x + q.vel.y * q.vel.y + q.vel.z * q.vel.z);
}

__global__ void advance(Particle *ps, int n, float dt, int *moved)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q = ps[i];
        q.pos = step_pos(q.pos, q.vel, dt);
        ps[i] = q;
        if (energy(q) > 1.0f)
            atomicAdd(moved, 1);
    }
}

template <int W> __device__ __forceinline__ int row_sum(const int *row)
{
    int s = 0;
#pragma unroll
    for (int k = 0; k < W; k++)
        s += row[k];
    return s;
}

template <int W> __global__ void copy_row(const int *src, int *dst, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows)
        dst[r] = row_sum<W>(src + r * W);
}

// host only: the reference energy count
static int host_fn(const Particle *ps, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++) {
        float e = 0.5f * ps[i].mass * (ps[i].vel.x * ps[i].vel.x + ps[i].vel.y * ps[i].vel.y +
                                       ps[i].vel.z * ps[i].vel.z);
        c += e > 1.0f;
    }
    return c;
}

static void release(void *p)
{
    CHECK(cudaFree(p));
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const int n = 100, rows = 64;
    Particle h[n];
    for (int i = 0; i < n; i++) {
        h[i].pos = make_float3(i, 2.0f * i, -1.0f * i);
        h[i].vel = make_float3(0.5f * (i % 5), 1.0f, -0.25f * (i % 3));
        h[i].mass = 1.0f + (i % 4);
        h[i].id = i;
    }
    Particle *dp;
    int *moved, *src, *dst;
    CHECK(cudaMalloc(&dp, sizeof h));
    CHECK(cudaMalloc(&moved, sizeof(int)));
    CHECK(cudaMalloc(&src, rows * 4 * sizeof(int)));
    CHECK(cudaMalloc(&dst, rows * sizeof(int)));
    CHECK(cudaMemcpy(dp, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(moved, 0, sizeof(int)));
    if (strcmp(mode, "atomic") == 0) {
        release(moved);
        advance<<<1, 128>>>(dp, n, 0.5f, moved);
        return expect_fault(cudaGetLastError(), cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    }
    advance<<<1, 128>>>(dp, n, 0.5f, moved);
    CHECK_LAUNCH();
    int hm = 0;
    Particle out[n];
    CHECK(cudaMemcpy(&hm, moved, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out, dp, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(hm == host_fn(h, n), "moved %d, want %d", hm, host_fn(h, n));
    for (int i = 0; i < n; i++)
        EXPECT(out[i].pos.y == 2.0f * i + 0.5f, "pos.y[%d] = %g", i, out[i].pos.y);
    int hs[rows * 4], hd[rows];
    for (int i = 0; i < rows * 4; i++)
        hs[i] = i * 3 - 100;
    CHECK(cudaMemcpy(src, hs, sizeof hs, cudaMemcpyHostToDevice));
    if (strcmp(mode, "freed") == 0)
        release(src);
    copy_row<4><<<2, 32>>>(src, dst, rows);
    if (strcmp(mode, "freed") == 0)
        return expect_fault(cudaGetLastError(), cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hd, dst, sizeof hd, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        EXPECT(hd[r] == 48 * r + 18 - 400, "dst[%d] = %d", r, hd[r]);
    release(dp);
    release(moved);
    release(src);
    release(dst);
    printf("particles: PASSED\n");
    return 0;
}
