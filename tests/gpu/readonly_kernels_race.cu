// The twin of readonly_kernels_norace: the second kernel writes the buffer
// the first one reads.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:sum,kernel:fill lines=16,17
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *o1;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&o1, sizeof(float)));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  CHECK(cudaMemset(o1, 0, sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  sum<<<n / 256, 256, 0, s1>>>(d, o1, n);
  fill<<<n / 256, 256, 0, s2>>>(d, 2.0f, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
