// chk_sync.cu - a sparse matrix-vector product (CSR, one warp per row) whose warps reduce with
// a full-mask __shfl_down_sync after the lanes past the row's end returned: the lanes below
// read values of lanes that exited (synccheck: shuffle-from-inactive-lane). A plain run
// completes as a GPU would and prints the product; it checks nothing.
// cuda-opt: -O3 -lineinfo
#include <cstdio>
#include "cuda_check.h"

__global__ void spmv_warp(const int *rowp, const int *col, const float *val, const float *x,
                          float *y, int rows)
{
    int row = blockIdx.x;
    int lane = threadIdx.x;
    int begin = rowp[row], len = rowp[row + 1] - begin;
    if (row >= rows || lane >= len)
        return;
    float v = val[begin + lane] * x[col[begin + lane]];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off); // BUG: shuffle-from-inactive-lane
    if (lane == 0)
        y[row] = v;
}

int main()
{
    const int rows = 4, nnz = 40;
    int hp[rows + 1] = { 0, 10, 20, 30, 40 }, hc[nnz];
    float hv[nnz], hx[16], hy[rows];
    for (int i = 0; i < nnz; i++) {
        hc[i] = i % 16;
        hv[i] = 1.0f;
    }
    for (int i = 0; i < 16; i++)
        hx[i] = (float)i;
    int *rowp, *col;
    float *val, *x, *y;
    CHECK(cudaMalloc(&rowp, sizeof hp));
    CHECK(cudaMalloc(&col, sizeof hc));
    CHECK(cudaMalloc(&val, sizeof hv));
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(rowp, hp, sizeof hp, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(col, hc, sizeof hc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(val, hv, sizeof hv, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    spmv_warp<<<rows, 32>>>(rowp, col, val, x, y, rows);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        printf("y[%d] = %g\n", r, hy[r]);
    CHECK(cudaFree(rowp));
    CHECK(cudaFree(col));
    CHECK(cudaFree(val));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    printf("chk_sync: done\n");
    return 0;
}
