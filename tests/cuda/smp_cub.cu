// smp_cub.cu - CUB device-wide algorithms with the two-call temporary storage protocol:
// DeviceReduce::Sum/Max, DeviceScan::ExclusiveSum, DeviceRadixSort::SortPairs,
// DeviceSelect::Flagged, DeviceHistogram::HistogramEven, DeviceSegmentedReduce::Sum, plus
// block-level BlockReduce/BlockScan/BlockLoad in a kernel.
#include "smp_helper.h"
#include <cub/cub.cuh>
#include <vector>
#include <algorithm>

template <int BLOCK, int ITEMS>
__global__ void block_kernel(const int *in, int *scan_out, int *sums)
{
    typedef cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE> Load;
    typedef cub::BlockScan<int, BLOCK> Scan;
    typedef cub::BlockReduce<int, BLOCK> Reduce;
    __shared__ union { typename Load::TempStorage load; typename Scan::TempStorage scan; typename Reduce::TempStorage red; } tmp;
    int items[ITEMS];
    int off = blockIdx.x * BLOCK * ITEMS;
    Load(tmp.load).Load(in + off, items);
    __syncthreads();
    int agg = Reduce(tmp.red).Sum(items);
    __syncthreads();
    Scan(tmp.scan).ExclusiveSum(items, items);
    for (int i = 0; i < ITEMS; i++) scan_out[off + threadIdx.x * ITEMS + i] = items[i];
    if (threadIdx.x == 0) sums[blockIdx.x] = agg;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 100000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1000 - 300;
    int *d_in, *d_out;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_out, n * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    void *tmp = NULL; size_t tmp_bytes = 0;
    checkCudaErrors(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    checkCudaErrors(cub::DeviceReduce::Sum(tmp, tmp_bytes, d_in, d_out, n));
    int got; long long ref = 0; for (int v : h) ref += v;
    checkCudaErrors(cudaMemcpy(&got, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    if (got != ref) { printf("DeviceReduce::Sum %d vs %lld\n", got, ref); ok = false; }
    checkCudaErrors(cudaFree(tmp)); tmp = NULL; tmp_bytes = 0;
    checkCudaErrors(cub::DeviceReduce::Max(tmp, tmp_bytes, d_in, d_out, n));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    checkCudaErrors(cub::DeviceReduce::Max(tmp, tmp_bytes, d_in, d_out, n));
    checkCudaErrors(cudaMemcpy(&got, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    if (got != *std::max_element(h.begin(), h.end())) { printf("Max %d\n", got); ok = false; }
    checkCudaErrors(cudaFree(tmp)); tmp = NULL; tmp_bytes = 0;
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, n));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, n));
    std::vector<int> hs(n);
    checkCudaErrors(cudaMemcpy(hs.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int i = 0; i < n; i++) { if (hs[i] != acc) { printf("ExclusiveSum %d\n", i); ok = false; break; } acc += h[i]; }
    checkCudaErrors(cudaFree(tmp)); tmp = NULL; tmp_bytes = 0;
    // radix sort pairs
    std::vector<unsigned> k(n); std::vector<int> v(n);
    for (int i = 0; i < n; i++) { k[i] = (unsigned)rand(); v[i] = i; }
    unsigned *dk, *dk2; int *dv, *dv2;
    checkCudaErrors(cudaMalloc(&dk, n * 4)); checkCudaErrors(cudaMalloc(&dk2, n * 4));
    checkCudaErrors(cudaMalloc(&dv, n * 4)); checkCudaErrors(cudaMalloc(&dv2, n * 4));
    checkCudaErrors(cudaMemcpy(dk, k.data(), n * 4, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dv, v.data(), n * 4, cudaMemcpyHostToDevice));
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, dk, dk2, dv, dv2, n));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    SmpTimer t; t.start();
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, dk, dk2, dv, dv2, n));
    printf("SortPairs: %.3f ms\n", t.stop());
    std::vector<unsigned> sk(n); std::vector<int> sv(n);
    checkCudaErrors(cudaMemcpy(sk.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(sv.data(), dv2, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if ((i && sk[i - 1] > sk[i]) || k[sv[i]] != sk[i]) { printf("SortPairs %d\n", i); ok = false; break; }
    checkCudaErrors(cudaFree(tmp)); tmp = NULL; tmp_bytes = 0;
    // select flagged
    std::vector<char> fl(n); int nsel_ref = 0;
    for (int i = 0; i < n; i++) { fl[i] = (i % 3) == 0; nsel_ref += fl[i]; }
    char *dfl; int *dnsel;
    checkCudaErrors(cudaMalloc(&dfl, n)); checkCudaErrors(cudaMalloc(&dnsel, 4));
    checkCudaErrors(cudaMemcpy(dfl, fl.data(), n, cudaMemcpyHostToDevice));
    checkCudaErrors(cub::DeviceSelect::Flagged(tmp, tmp_bytes, d_in, dfl, d_out, dnsel, n));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    checkCudaErrors(cub::DeviceSelect::Flagged(tmp, tmp_bytes, d_in, dfl, d_out, dnsel, n));
    int nsel; checkCudaErrors(cudaMemcpy(&nsel, dnsel, 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(hs.data(), d_out, nsel * 4, cudaMemcpyDeviceToHost));
    if (nsel != nsel_ref) { printf("Flagged %d %d\n", nsel, nsel_ref); ok = false; }
    for (int i = 0; i < nsel && ok; i++) if (hs[i] != h[3 * i]) { printf("Flagged value %d\n", i); ok = false; }
    checkCudaErrors(cudaFree(tmp)); tmp = NULL; tmp_bytes = 0;
    // histogram even
    int levels = 11; int *dhist; int hh[10], hr[10] = {0};
    checkCudaErrors(cudaMalloc(&dhist, sizeof(hh)));
    checkCudaErrors(cub::DeviceHistogram::HistogramEven(tmp, tmp_bytes, d_in, dhist, levels, -300, 700, n));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    checkCudaErrors(cub::DeviceHistogram::HistogramEven(tmp, tmp_bytes, d_in, dhist, levels, -300, 700, n));
    checkCudaErrors(cudaMemcpy(hh, dhist, sizeof(hh), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (h[i] >= -300 && h[i] < 700) hr[(h[i] + 300) / 100]++;
    for (int i = 0; i < 10; i++) if (hh[i] != hr[i]) { printf("Histogram bin %d %d %d\n", i, hh[i], hr[i]); ok = false; break; }
    checkCudaErrors(cudaFree(tmp)); tmp = NULL; tmp_bytes = 0;
    // segmented reduce
    int nseg = 10; std::vector<int> offs(nseg + 1);
    for (int i = 0; i <= nseg; i++) offs[i] = i * (n / nseg);
    int *doffs; checkCudaErrors(cudaMalloc(&doffs, (nseg + 1) * 4));
    checkCudaErrors(cudaMemcpy(doffs, offs.data(), (nseg + 1) * 4, cudaMemcpyHostToDevice));
    checkCudaErrors(cub::DeviceSegmentedReduce::Sum(tmp, tmp_bytes, d_in, d_out, nseg, doffs, doffs + 1));
    checkCudaErrors(cudaMalloc(&tmp, tmp_bytes));
    checkCudaErrors(cub::DeviceSegmentedReduce::Sum(tmp, tmp_bytes, d_in, d_out, nseg, doffs, doffs + 1));
    checkCudaErrors(cudaMemcpy(hs.data(), d_out, nseg * 4, cudaMemcpyDeviceToHost));
    for (int s = 0; s < nseg; s++) { int r = 0; for (int i = offs[s]; i < offs[s + 1]; i++) r += h[i]; if (r != hs[s]) { printf("segmented %d\n", s); ok = false; break; } }
    // block primitives
    const int B = 128, I = 4, nb = 8;
    int *dsc, *dsums, hsums[nb];
    checkCudaErrors(cudaMalloc(&dsc, nb * B * I * 4)); checkCudaErrors(cudaMalloc(&dsums, nb * 4));
    block_kernel<B, I><<<nb, B>>>(d_in, dsc, dsums);
    checkCudaErrors(cudaMemcpy(hs.data(), dsc, nb * B * I * 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(hsums, dsums, sizeof(hsums), cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb && ok; b++) {
        int a2 = 0;
        for (int i = 0; i < B * I; i++) { if (hs[b * B * I + i] != a2) { printf("BlockScan %d %d\n", b, i); ok = false; break; } a2 += h[b * B * I + i]; }
        if (a2 != hsums[b]) { printf("BlockReduce %d\n", b); ok = false; }
    }
    SMP_RESULT("smp_cub", ok);
}
