// cudaFreeAsync on stream s2 while a kernel on s1 may still use the memory.
// EXPECT: data-race subkind=use-after-free view=cudaMallocAsync#1 nodes=kernel:fill,cudaFreeAsync:cudaFreeAsync
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d;
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaMallocAsync(&d, n * sizeof(float), s1));
  fill<<<n / 256, 256, 0, s1>>>(d, 1.0f, n);
  CHECK(cudaFreeAsync(d, s2));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
