// smp_locks.cu - locks taken by threads of one warp, which independent thread scheduling (sm_70+)
// makes safe: a spin lock acquired in a loop with the critical section after the loop, a
// per-bucket lock table contended by a whole grid, and a ticket lock.
#include "smp_helper.h"

__device__ void lock(int *m) { while (atomicCAS(m, 0, 1) != 0) { } __threadfence(); }
__device__ void unlock(int *m) { __threadfence(); atomicExch(m, 0); }

__global__ void naive_lock(int *mutex, int *counter, int *log)
{
    lock(mutex);
    int v = *(volatile int *)counter;   // unprotected read-modify-write, protected by the lock
    log[v] = blockIdx.x * blockDim.x + threadIdx.x;
    *(volatile int *)counter = v + 1;
    unlock(mutex);
}
__global__ void buckets(int *locks, int *sums, int nb, const int *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int b = keys[i] % nb;
    lock(&locks[b]);
    volatile int *s = sums;
    s[2 * b] = s[2 * b] + keys[i];
    s[2 * b + 1] = s[2 * b + 1] + 1;
    unlock(&locks[b]);
}
__global__ void ticket(unsigned *next, volatile unsigned *serving, int *order)
{
    unsigned my = atomicAdd(next, 1u);
    while (*serving != my) { }
    order[my] = blockIdx.x * blockDim.x + threadIdx.x;
    __threadfence();
    *serving = my + 1;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int T = 4 * 64;
    int *mutex, *counter, *log, hl[T], hc;
    checkCudaErrors(cudaMalloc(&mutex, 4)); checkCudaErrors(cudaMalloc(&counter, 4)); checkCudaErrors(cudaMalloc(&log, T * 4));
    checkCudaErrors(cudaMemset(mutex, 0, 4)); checkCudaErrors(cudaMemset(counter, 0, 4));
    naive_lock<<<4, 64>>>(mutex, counter, log);
    getLastCudaError("naive_lock");
    checkCudaErrors(cudaMemcpy(&hc, counter, 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(hl, log, sizeof(hl), cudaMemcpyDeviceToHost));
    int seen[T] = {0};
    for (int i = 0; i < T; i++) if (hl[i] >= 0 && hl[i] < T) seen[hl[i]]++;
    for (int i = 0; i < T; i++) if (seen[i] != 1) { ok = false; break; }
    if (hc != T || !ok) { printf("warp spin lock: counter %d\n", hc); ok = false; }
    const int n = 4096, nb = 7;
    int *keys = (int *)malloc(n * 4), *dk, *dl, *ds, hs[2 * nb], ref[2 * nb] = {0};
    for (int i = 0; i < n; i++) { keys[i] = (i * 131) % 1000; ref[2 * (keys[i] % nb)] += keys[i]; ref[2 * (keys[i] % nb) + 1]++; }
    checkCudaErrors(cudaMalloc(&dk, n * 4)); checkCudaErrors(cudaMalloc(&dl, nb * 4)); checkCudaErrors(cudaMalloc(&ds, sizeof(hs)));
    checkCudaErrors(cudaMemcpy(dk, keys, n * 4, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(dl, 0, nb * 4)); checkCudaErrors(cudaMemset(ds, 0, sizeof(hs)));
    buckets<<<n / 128, 128>>>(dl, ds, nb, dk, n);
    getLastCudaError("buckets");
    checkCudaErrors(cudaMemcpy(hs, ds, sizeof(hs), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2 * nb; i++) if (hs[i] != ref[i]) { printf("bucket locks %d: %d vs %d\n", i, hs[i], ref[i]); ok = false; break; }
    unsigned *nx, *sv; int *ord, ho[128];
    checkCudaErrors(cudaMalloc(&nx, 4)); checkCudaErrors(cudaMalloc(&sv, 4)); checkCudaErrors(cudaMalloc(&ord, sizeof(ho)));
    checkCudaErrors(cudaMemset(nx, 0, 4)); checkCudaErrors(cudaMemset(sv, 0, 4));
    ticket<<<2, 64>>>(nx, sv, ord);
    getLastCudaError("ticket");
    checkCudaErrors(cudaMemcpy(ho, ord, sizeof(ho), cudaMemcpyDeviceToHost));
    int s2[128] = {0};
    for (int i = 0; i < 128; i++) if (ho[i] >= 0 && ho[i] < 128) s2[ho[i]]++;
    for (int i = 0; i < 128; i++) if (s2[i] != 1) { printf("ticket lock\n"); ok = false; break; }
    SMP_RESULT("smp_locks", ok);
}
