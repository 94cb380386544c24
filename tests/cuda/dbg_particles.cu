// dbg_particles.cu - a debugging target: structs, several kernels, atomicAdd on int and float, warp
// shuffles, and a kernel whose thread 0 leaves early while the others spin (Ctrl-C scenarios).
// Usage: dbg_particles [ROUNDS [fault]]: ROUNDS for linger (default 10); "fault" gives tally a
// Stats pointer far past its allocation, so atomicAdd(float *) faults (exit 3, FAULT line).
// cuda-G-build
#include <string.h>
#include "cuda_check.h"

struct Particle {
    float x, v;
    int cell;
};

struct Stats {
    int count;
    float energy;
};

#define N 256
#define CELLS 16

__global__ void init_particles(Particle *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q;
        q.x = i * 0.5f;
        q.v = (float)(i % 7 - 3);
        q.cell = i % CELLS;
        p[i] = q;
    }
}

// the particle's share of the statistics (a call of its own under -G, with a bigger frame than
// atomicAdd's: a stop inside the atomicAdd it calls has frames the earlier calls left behind)
__device__ void deposit(Stats *st, Particle q)
{
    float v2 = q.v * q.v;
    float half = 0.5f;
    float e = half * v2;
    float x2 = q.x * q.x;
    float unused = x2 - x2;
    atomicAdd(&st->energy, e + unused);
    atomicAdd(&st->count, 1);
}

__global__ void tally(const Particle *p, int n, int *cells, Stats *st)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q = p[i];
        atomicAdd(&cells[q.cell], 1);
        deposit(st, q);
    }
}

__global__ void warp_sum(const Particle *p, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? p[i].x : 0.0f;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

// thread 0 of each block returns at once; the others count to `rounds` (set very large to have a
// kernel that runs until Ctrl-C)
__global__ void linger(int *out, long long rounds)
{
    if (threadIdx.x == 0)
        return;
    long long k = 0;
    for (long long r = 0; r < rounds; r++)
        k += r & 3;
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)(k & 0xff);
}

int main(int argc, char **argv)
{
    long long rounds = argc > 1 ? atoll(argv[1]) : 10;
    Particle *p;
    int *cells, *lout;
    Stats *st;
    float *sum;
    CHECK(cudaMalloc(&p, N * sizeof(Particle)));
    CHECK(cudaMalloc(&cells, CELLS * sizeof(int)));
    CHECK(cudaMalloc(&st, sizeof(Stats)));
    CHECK(cudaMalloc(&sum, sizeof(float)));
    CHECK(cudaMalloc(&lout, 64 * sizeof(int)));
    CHECK(cudaMemset(cells, 0, CELLS * sizeof(int)));
    CHECK(cudaMemset(st, 0, sizeof(Stats)));
    CHECK(cudaMemset(sum, 0, sizeof(float)));
    init_particles<<<N / 128, 128>>>(p, N);
    int fault = argc > 2 && !strcmp(argv[2], "fault");
    tally<<<N / 64, 64>>>(p, N, cells, fault ? st + (1 << 20) : st);
    if (fault) {
        cudaError_t launch = cudaGetLastError();
        return expect_fault(launch, cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    }
    warp_sum<<<N / 64, 64>>>(p, N, sum);
    linger<<<2, 32>>>(lout, rounds);
    CHECK(cudaDeviceSynchronize());
    int hc[CELLS];
    Stats hs;
    float hsum;
    CHECK(cudaMemcpy(hc, cells, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hs, st, sizeof hs, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hsum, sum, sizeof hsum, cudaMemcpyDeviceToHost));
    // references: N/CELLS particles per cell; energy sum of 0.5 v^2 (exact in float: halves of
    // small integers); x sum = 0.5 * N(N-1)/2
    int ok = hs.count == N;
    for (int c = 0; c < CELLS; c++)
        ok = ok && hc[c] == N / CELLS;
    float e = 0;
    for (int i = 0; i < N; i++)
        e += 0.5f * (float)((i % 7 - 3) * (i % 7 - 3));
    ok = ok && hs.energy == e && hsum == 0.5f * (N * (N - 1) / 2);
    if (!ok) {
        printf("dbg_particles: FAILED count %d energy %g (want %g) sum %g\n", hs.count, hs.energy, e,
               hsum);
        return 1;
    }
    printf("dbg_particles: PASSED\n");
    return 0;
}
