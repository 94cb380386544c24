// rt_multi.cu - a program of two translation units, so two fat binaries and two modules: each
// module's kernels run, and a pointer to one module's __device__ variable works in the other's.
// nvcc-flags: -x cu rt_multi_part.h
// cuda-test: 0 ^rt_multi:\sPASSED$ -
#include "cuda_check.h"

void part_launch(int base);
int *part_table_address();

__global__ void sum_table(const int *t, int n, int *out)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += t[i];
    *out = s;
}

int main()
{
    part_launch(1000);
    CHECK_LAUNCH();
    int *table = part_table_address();
    EXPECT(table != 0, "address of the other module's table");
    int *out;
    CHECK(cudaMalloc(&out, sizeof(int)));
    sum_table<<<1, 1>>>(table, 64, out);
    CHECK_LAUNCH();
    int s = 0, h[64];
    CHECK(cudaMemcpy(&s, out, sizeof s, cudaMemcpyDeviceToHost));
    EXPECT(s == 64 * 1000 + 63 * 64 / 2, "sum %d", s);
    CHECK(cudaMemcpy(h, table, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[63] == 1063, "table through its address: %d", h[63]);
    printf("rt_multi: PASSED\n");
    return 0;
}
