// cudaLaunchKernelEx (the extensible launch) on one stream and a copy on
// another, unordered.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:fill,cudaMemcpy:cudaMemcpyAsync(DtoD)
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / 256);
  cfg.blockDim = dim3(256);
  cfg.stream = s1;
  CHECK(cudaLaunchKernelEx(&cfg, fill, d, 1.0f, n));
  CHECK(cudaMemcpyAsync(e, d, n * sizeof(float), cudaMemcpyDeviceToDevice, s2));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
