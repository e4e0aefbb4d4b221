// The twin of free_async_race: the free is on the kernel's own stream.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d;
  cudaStream_t s1;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaMallocAsync(&d, n * sizeof(float), s1));
  fill<<<n / 256, 256, 0, s1>>>(d, 1.0f, n);
  CHECK(cudaFreeAsync(d, s1));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
