// The host reads pinned memory that a copy on stream s is still writing:
// no cudaStreamSynchronize before the read.
// EXPECT[inst]: data-race subkind=missing-sync view=cudaMallocHost#1 nodes=cudaMemcpy:cudaMemcpyAsync(DtoH),host lines=14,15
// EXPECT[preload]: no-report (the host code's access is not instrumented)
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *h;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  fill<<<n / 256, 256, 0, s>>>(d, 1.0f, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  float x = h[n - 1];
  CHECK(cudaStreamSynchronize(s));
  printf("%g\n", x);
  return 0;
}
