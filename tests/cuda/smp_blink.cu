// smp_blink.cu - warps cooperating on a linked list of sorted nodes (the leaf level of a B-link
// tree, as HeCBench's btree builds it): each 32-word node is read one word per lane (reversed),
// locked by lane 30 with atomicOr / atomicAnd and __threadfence, the lock state broadcast with
// __shfl_sync; a full node splits by moving its upper half with __shfl_up_sync(0x0000FFFF, v,
// 16) executed by the whole warp (lanes 16..31 receive lanes 0..15's words, as on the
// hardware), keys enter at the position a ballot finds. Warps of many blocks insert at once,
// waiting for each other's locks. Checked against a C reference: every key found with its
// value, absent keys not found, the list sorted and linked right, no lock left.
// cuda-static-build
#include "cuda_check.h"

#define FULL 0xffffffffu
#define LOCK 0x80000000u
#define KEY_LANES 0x2aaaaaaau   // lanes 29, 27, ..., 1 hold keys (pair i at lane 29 - 2i)
#define MAX_NODES 2048

__device__ unsigned node_read(volatile unsigned *pool, unsigned node)
{
    return pool[node * 32 + (31 - (threadIdx.x & 31))];
}

__device__ void node_write(volatile unsigned *pool, unsigned node, unsigned v)
{
    pool[node * 32 + (31 - (threadIdx.x & 31))] = v;
}

__device__ void lock(unsigned *pool, unsigned node)
{
    unsigned lane = threadIdx.x & 31;
    bool held = true;
    while (held) {
        if (lane == 30)
            held = (atomicOr(&pool[node * 32 + 1], LOCK) & LOCK) != 0;
        held = __shfl_sync(FULL, held, 30);
    }
    __threadfence();
}

__device__ void unlock(unsigned *pool, unsigned node)
{
    __threadfence();
    if ((threadIdx.x & 31) == 30)
        atomicAnd(&pool[node * 32 + 1], ~LOCK);
}

__device__ unsigned value_of(unsigned key) { return key * 3 + 1; }

// Insert key (the whole warp, converged) into the list that starts at node 0.
__device__ void insert(unsigned *pool, unsigned *nodes, unsigned key)
{
    unsigned lane = threadIdx.x & 31, node = 0;
    for (;;) {
        unsigned data = node_read(pool, node);
        unsigned link_min = __shfl_sync(FULL, data, 30) & ~LOCK;
        if (link_min && key >= link_min) {          // belongs further right
            node = __shfl_sync(FULL, data, 31);
            continue;
        }
        lock(pool, node);
        data = node_read(pool, node);
        link_min = __shfl_sync(FULL, data, 30) & ~LOCK;
        if (link_min && key >= link_min) {          // split meanwhile: go on right
            unlock(pool, node);
            continue;
        }
        unsigned hit = __ballot_sync(FULL, (KEY_LANES >> lane & 1) && data == key);
        if (hit) {                                  // present: set its value
            if (lane == (unsigned)__ffs(hit) - 2)
                pool[node * 32 + (31 - lane)] = value_of(key);
            unlock(pool, node);
            return;
        }
        if (__shfl_sync(FULL, data, 1)) {           // full: split
            unsigned fresh = 0;
            if (lane == 0)
                fresh = atomicAdd(nodes, 1);
            fresh = __shfl_sync(FULL, fresh, 0);
            unsigned moved = __shfl_up_sync(0x0000ffff, data, 16);
            unsigned next = __shfl_sync(FULL, data, 31);
            unsigned right_min = __shfl_sync(FULL, data, 13);
            unsigned right = lane >= 16 ? moved : 0;
            if (lane == 31)
                right = next;
            if (lane == 30)
                right = LOCK | link_min;            // born locked
            node_write(pool, fresh, right);
            __threadfence();
            if (lane < 14)
                data = 0;
            if (lane == 31)
                data = fresh;
            if (lane == 30)
                data = LOCK | right_min;
            node_write(pool, node, data);
            if (key >= right_min) {
                unlock(pool, node);
                node = fresh;
                data = right;
            } else {
                unlock(pool, fresh);
            }
        }
        int pos = __popc(__ballot_sync(FULL, (KEY_LANES >> lane & 1) && data && data < key));
        unsigned shifted = __shfl_down_sync(FULL, data, 2);
        if ((int)lane <= 27 - 2 * pos)
            data = shifted;
        if ((int)lane == 29 - 2 * pos)
            data = key;
        if ((int)lane == 28 - 2 * pos)
            data = value_of(key);
        node_write(pool, node, data);
        unlock(pool, node);
        return;
    }
}

__global__ void insert_keys(unsigned *pool, unsigned *nodes, const unsigned *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pending = i < n;
    unsigned mine = pending ? keys[i] : 0, q;
    while ((q = __ballot_sync(FULL, pending))) {
        int leader = __ffs(q) - 1;
        insert(pool, nodes, __shfl_sync(FULL, mine, leader));
        if ((int)(threadIdx.x & 31) == leader)
            pending = false;
    }
}

__global__ void search_keys(const unsigned *pool, const unsigned *keys, unsigned *found, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pending = i < n;
    unsigned mine = pending ? keys[i] : 0, lane = threadIdx.x & 31, q;
    while ((q = __ballot_sync(FULL, pending))) {
        int leader = __ffs(q) - 1;
        unsigned key = __shfl_sync(FULL, mine, leader), node = 0, result = 0;
        for (;;) {
            unsigned data = pool[node * 32 + (31 - lane)];
            unsigned link_min = __shfl_sync(FULL, data, 30) & ~LOCK;
            if (link_min && key >= link_min) {
                node = __shfl_sync(FULL, data, 31);
                continue;
            }
            unsigned hit = __ballot_sync(FULL, (KEY_LANES >> lane & 1) && data == key);
            result = __shfl_sync(FULL, data, hit ? __ffs(hit) - 2 : 0);
            result = hit ? result : 0;
            break;
        }
        if ((int)lane == leader) {
            found[i] = result;
            pending = false;
        }
    }
}

int main()
{
    const int n = 2048, nq = 1024;
    unsigned *keys = (unsigned *)malloc(n * sizeof(unsigned));
    unsigned *queries = (unsigned *)malloc(nq * sizeof(unsigned));
    static unsigned char present[60001];
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        keys[i] = 1 + (s >> 8) % 30000 * 2;          // odd keys, with repeats
        present[keys[i]] = 1;
    }
    for (int i = 0; i < nq; i++)                     // half present, half even (absent)
        queries[i] = i % 2 ? keys[(i * 37) % n] : 2 + 2 * ((i * 7919) % 29999);
    unsigned *pool, *nodes, *d_keys, *d_q, *d_found;
    CHECK(cudaMalloc(&pool, MAX_NODES * 32 * sizeof(unsigned)));
    CHECK(cudaMalloc(&nodes, sizeof(unsigned)));
    CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_q, nq * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_found, nq * sizeof(unsigned)));
    CHECK(cudaMemset(pool, 0, MAX_NODES * 32 * sizeof(unsigned)));
    unsigned one = 1;
    CHECK(cudaMemcpy(nodes, &one, sizeof one, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_keys, keys, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_q, queries, nq * sizeof(unsigned), cudaMemcpyHostToDevice));
    insert_keys<<<n / 128, 128>>>(pool, nodes, d_keys, n);
    CHECK_LAUNCH();
    search_keys<<<nq / 64, 64>>>(pool, d_q, d_found, nq);
    CHECK_LAUNCH();
    unsigned *found = (unsigned *)malloc(nq * sizeof(unsigned)), used;
    unsigned *h = (unsigned *)malloc(MAX_NODES * 32 * sizeof(unsigned));
    CHECK(cudaMemcpy(found, d_found, nq * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&used, nodes, sizeof used, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h, pool, MAX_NODES * 32 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nq; i++) {
        unsigned want = present[queries[i]] ? queries[i] * 3 + 1 : 0;
        EXPECT(found[i] == want, "key %u: found (value = %u), want %u", queries[i], found[i],
               want);
    }
    // the list: keys ascending, every key present once with its value, links right
    int distinct = 0, count = 0;
    for (int k = 1; k <= 60000; k++)
        distinct += present[k];
    unsigned prev = 0, node = 0;
    for (unsigned hops = 0; hops <= used; hops++) {
        const unsigned *w = h + node * 32;
        EXPECT(!(w[1] & LOCK), "node %u left locked", node);
        for (int p = 0; p < 15 && w[2 + 2 * p]; p++) {
            unsigned k = w[2 + 2 * p];
            EXPECT(k > prev && present[k] && w[3 + 2 * p] == k * 3 + 1,
                   "node %u pair %d: key %u value %u after %u", node, p, k, w[3 + 2 * p], prev);
            prev = k;
            count++;
        }
        if (!w[0])
            break;
        EXPECT(w[1] == h[w[0] * 32 + 2], "node %u: link key %u, next node starts at %u", node,
               w[1], h[w[0] * 32 + 2]);
        node = w[0];
    }
    EXPECT(count == distinct, "%d keys in the list, want %d", count, distinct);
    CHECK(cudaFree(pool));
    CHECK(cudaFree(nodes));
    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_q));
    CHECK(cudaFree(d_found));
    printf("smp_blink: %d keys in %u nodes, %d queries: PASSED\n", distinct, used, nq);
    return 0;
}
