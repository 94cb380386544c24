// rt_multi_part.h - the second translation unit of rt_multi.cu (compiled as CUDA with -x cu):
// its own module, with a kernel and a __device__ table the first one reaches by pointer.
__device__ int part_table[64];

__global__ void part_fill(int base)
{
    part_table[threadIdx.x] = base + threadIdx.x;
}

void part_launch(int base)
{
    part_fill<<<1, 64>>>(base);
}

int *part_table_address()
{
    void *p = 0;
    cudaGetSymbolAddress(&p, part_table);
    return (int *)p;
}
