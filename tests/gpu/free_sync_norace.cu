// cudaFree waits for the device first: the kernel that used the memory is
// done.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  fill<<<n / 256, 256, 0, s>>>(d, 1.0f, n);
  CHECK(cudaFree(d));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
