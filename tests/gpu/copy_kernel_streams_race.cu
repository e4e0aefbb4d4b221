// A copy into d on stream s1 and a kernel reading d on stream s2: nothing
// orders the two streams.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=cudaMemcpy:cudaMemcpyAsync(HtoD),kernel:scale lines=14,15
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e, *h;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s1));
  scale<<<n / 256, 256, 0, s2>>>(e, d, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
