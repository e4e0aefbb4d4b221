// cudaMemset is asynchronous for device memory, and a kernel on a
// non-blocking stream reads the buffer while the memset may still run.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=cudaMemset:cudaMemset,kernel:scale
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  scale<<<n / 256, 256, 0, s>>>(e, d, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
