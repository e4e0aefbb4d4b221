// Two kernels on two streams read the same buffer (const float *): reads
// never race.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *o1, *o2;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&o1, sizeof(float)));
  CHECK(cudaMalloc(&o2, sizeof(float)));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  CHECK(cudaMemset(o1, 0, sizeof(float)));
  CHECK(cudaMemset(o2, 0, sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  sum<<<n / 256, 256, 0, s1>>>(d, o1, n);
  sum<<<n / 256, 256, 0, s2>>>(d, o2, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
