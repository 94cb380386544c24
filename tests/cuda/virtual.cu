// virtual.cu - objects with virtual functions constructed and called on the device.
#include "cuda_check.h"
#include <new>

struct shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    __device__ virtual ~shape() {}
};
struct rect : shape {
    float w, h;
    __device__ rect(float w_, float h_) : w(w_), h(h_) {}
    __device__ float area() const override { return w * h; }
    __device__ int sides() const override { return 4; }
};
struct tri : shape {
    float b, h;
    __device__ tri(float b_, float h_) : b(b_), h(h_) {}
    __device__ float area() const override { return 0.5f * b * h; }
    __device__ int sides() const override { return 3; }
};
struct square : rect {
    __device__ square(float s) : rect(s, s) {}
    __device__ int sides() const override { return rect::sides(); }
};

__global__ void shapes(float *area, int *sides, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    // placement new into per-thread storage, then calls through a base pointer
    union {
        char raw[sizeof(rect) > sizeof(tri) ? sizeof(rect) : sizeof(tri)];
        double align;
    } store;
    shape *s;
    switch (i % 3) {
    case 0: s = new (store.raw) rect(i, 2.0f); break;
    case 1: s = new (store.raw) tri(i, 4.0f); break;
    default: s = new (store.raw) square(i % 7); break;
    }
    area[i] = s->area();
    sides[i] = s->sides();
    s->~shape();
}

int main()
{
    const int n = 96;
    float *da, ha[n];
    int *ds, hs[n];
    CHECK(cudaMalloc(&da, sizeof ha));
    CHECK(cudaMalloc(&ds, sizeof hs));
    shapes<<<3, 32>>>(da, ds, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(ha, da, sizeof ha, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float want_a;
        int want_s;
        switch (i % 3) {
        case 0: want_a = i * 2.0f; want_s = 4; break;
        case 1: want_a = 0.5f * i * 4.0f; want_s = 3; break;
        default: want_a = (float)((i % 7) * (i % 7)); want_s = 4; break;
        }
        EXPECT(ha[i] == want_a && hs[i] == want_s, "shape %d: area %g sides %d", i, ha[i], hs[i]);
    }
    printf("virtual: PASSED\n");
    return 0;
}
