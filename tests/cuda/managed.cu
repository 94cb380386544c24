// managed.cu - cudaMallocManaged and __managed__ memory used by host and kernels with one pointer.
#include "cuda_check.h"

__managed__ int total;
__managed__ int squares[100];

struct node {
    int value;
    node *next;
};

__global__ void fill(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = data[i] * 3 + 1;
        squares[i % 100] = (i % 100) * (i % 100);
        atomicAdd(&total, data[i]);
    }
}

// walk a linked list built by the host in managed memory
__global__ void walk(node *head, int *sum)
{
    int s = 0;
    for (node *p = head; p; p = p->next)
        s += p->value;
    *sum = s;
}

int main()
{
    const int n = 1000;
    int *data;
    CHECK(cudaMallocManaged(&data, n * sizeof(int)));
    long long want = 0;
    for (int i = 0; i < n; i++) {
        data[i] = i - 500;
        want += (i - 500) * 3 + 1;
    }
    total = 0;
    fill<<<(n + 255) / 256, 256>>>(data, n);
    CHECK_LAUNCH();
    for (int i = 0; i < n; i++)
        EXPECT(data[i] == (i - 500) * 3 + 1, "data[%d] = %d", i, data[i]);
    EXPECT(total == want, "total = %d want %lld", total, want);
    for (int i = 0; i < 100; i++)
        EXPECT(squares[i] == i * i, "squares[%d] = %d", i, squares[i]);

    node *nodes;
    int *sum;
    CHECK(cudaMallocManaged(&nodes, 10 * sizeof(node)));
    CHECK(cudaMallocManaged(&sum, sizeof(int), cudaMemAttachGlobal));
    for (int i = 0; i < 10; i++) {
        nodes[i].value = i * i;
        nodes[i].next = i < 9 ? &nodes[i + 1] : NULL;
    }
    walk<<<1, 1>>>(nodes, sum);
    CHECK_LAUNCH();
    EXPECT(*sum == 285, "list sum = %d want 285", *sum);
    cudaPointerAttributes at;
    CHECK(cudaPointerGetAttributes(&at, data));
    EXPECT(at.type == cudaMemoryTypeManaged, "pointer type %d, want managed", (int)at.type);
    CHECK(cudaFree(data));
    CHECK(cudaFree(nodes));
    CHECK(cudaFree(sum));
    printf("managed: PASSED\n");
    return 0;
}
