// A kernel counts into a counter with atomicAdd on one stream while
// another stream copies the counter out: the copy is no atomic, and
// nothing orders it after the kernel.
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#2 nodes=kernel:count,cudaMemcpy:cudaMemcpyAsync(DtoH) lines=26,27
#include "gpu_check.h"
__global__ void count(int *counter, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.5f)
    atomicAdd(counter, 1);
}
int main() {
  const int n = 1 << 16;
  float *h, *a;
  int *counter, *result;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMallocHost(&result, sizeof(int)));
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 3);
  CHECK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  // The copy (line 27) reads the counter the kernel (line 26) updates.
  count<<<n / 256, 256, 0, s1>>>(counter, a, n);
  CHECK(cudaMemcpyAsync(result, counter, sizeof(int), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaDeviceSynchronize());
  printf("%d\n", *result);
  return 0;
}
