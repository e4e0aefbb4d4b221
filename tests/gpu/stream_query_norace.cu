// The host polls the stream until cudaStreamQuery says its work is done,
// then reads the pinned result.
// EXPECT: no-report
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
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  printf("%g\n", h[0]);
  return 0;
}
