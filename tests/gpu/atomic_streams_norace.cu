// Kernels on two streams that nothing orders count into one counter with
// atomicAdd: device atomics do not race with each other.  The counter is
// read after the device synchronized.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void count(int *counter, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.5f)
    atomicAdd(counter, 1);
}
int main() {
  const int n = 1 << 16;
  float *h, *a, *b;
  int *counter, result = 0;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 3);
  CHECK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  count<<<n / 256, 256, 0, s1>>>(counter, a, n);
  count<<<n / 256, 256, 0, s2>>>(counter, b, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&result, counter, sizeof(int), cudaMemcpyDeviceToHost));
  printf("%d\n", result);
  return 0;
}
