// The twin of pageable_async_norace with pinned memory: the copy reads the
// source while the host overwrites it.
// EXPECT[inst]: data-race subkind=missing-sync view=cudaMallocHost#1 nodes=cudaMemcpy:cudaMemcpyAsync(HtoD),host lines=13,14
// EXPECT[preload]: no-report (the host code's access is not instrumented)
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
  h[0] = 2.0f;
  CHECK(cudaStreamSynchronize(s));
  printf("done\n");
  return 0;
}
