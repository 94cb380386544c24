// rt_hostwindows.cu - device allocations never fail for where the host put them: host memory at
// any address the kernel may map (here pinned with mmap at 0x7e00'0000'0000 and
// 0x7f00'0000'0000, where Linux places mappings and where the emulator's address windows once
// lay) is registered and used by kernels, and thousands of cudaMalloc blocks (the large ones
// mmap'd by the host wherever it likes) all succeed and work.
#include <sys/mman.h>
#include "cuda_check.h"

__global__ void fill(int *p, int n, int v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = v + i;
}

int main()
{
    const unsigned long long spots[] = { 0x7e0000000000ull, 0x7e0100002000ull, 0x7f0000000000ull,
                                         0x7f0000100000ull };
    const size_t len = 1 << 20;
    int used = 0;
    for (int k = 0; k < 4; k++) {
        void *want = (void *)(size_t)spots[k];
        void *p = mmap(want, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p != want) {   // something of the process is already there: nothing to test
            if (p != MAP_FAILED)
                munmap(p, len);
            continue;
        }
        used++;
        CHECK(cudaHostRegister(p, len, cudaHostRegisterMapped));
        int *d;
        CHECK(cudaHostGetDevicePointer((void **)&d, p, 0));
        fill<<<4, 128>>>(d, (int)(len / sizeof(int)), k * 1000);
        CHECK_LAUNCH();
        for (size_t i = 0; i < len / sizeof(int); i += 4099)
            EXPECT(((int *)p)[i] == (int)(k * 1000 + i), "host memory at %p [%zu] = %d", p, i,
                   ((int *)p)[i]);
        CHECK(cudaHostUnregister(p));
        munmap(p, len);
    }
    // the four spots cannot all be taken by the process's own mappings: the runtime must not
    // have reserved them
    EXPECT(used > 0, "no host mapping possible at any of the four addresses");
    // many device allocations, small (heap) and large (mmap'd) ones
    const int n = 3000;
    static int *ptr[n];
    for (int i = 0; i < n; i++)
        CHECK(cudaMalloc(&ptr[i], i % 3 == 0 ? (size_t)(256 << 10) : 512));
    for (int i = 0; i < n; i += 97) {
        fill<<<1, 64>>>(ptr[i], 128, i);
        CHECK_LAUNCH();
        int h[128];
        CHECK(cudaMemcpy(h, ptr[i], sizeof h, cudaMemcpyDeviceToHost));
        for (int j = 0; j < 128; j++)
            EXPECT(h[j] == i + j, "allocation %d [%d] = %d", i, j, h[j]);
    }
    for (int i = 0; i < n; i++)
        CHECK(cudaFree(ptr[i]));
    printf("rt_hostwindows: %d fixed host ranges, %d allocations: PASSED\n", used, n);
    return 0;
}
