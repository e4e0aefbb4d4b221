// cudaMemcpyFromSymbolAsync copies a __device__ array into pinned memory
// on stream s, and the host reads the pinned memory before synchronizing
// with s; after cudaStreamSynchronize, the read is fine.
// EXPECT[inst]: data-race subkind=missing-sync view=cudaMallocHost#1 nodes=cudaMemcpy:cudaMemcpyFromSymbolAsync(DtoH),host lines=19,20
// EXPECT[preload]: no-report (the host code's access is not instrumented)
#include "gpu_check.h"
__device__ float table[1 << 16];
__global__ void fill_table(float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  table[i] = v;
}
int main() {
  const int n = 1 << 16;
  float *h;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  fill_table<<<n / 256, 256, 0, s>>>(2.0f);
  CHECK(cudaMemcpyFromSymbolAsync(h, table, n * sizeof(float), 0, cudaMemcpyDeviceToHost, s));
  float x = h[n - 1];
  CHECK(cudaStreamSynchronize(s));
  float y = h[0];
  printf("%g %g\n", x, y);
  return 0;
}
