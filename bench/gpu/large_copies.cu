// Large copies: 1 GiB from pinned host memory to the device and back, 8
// times, with a kernel between.
#include "bench_common.h"
__global__ void touch(float *a, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}
int main() {
  const size_t n = (size_t)1 << 28; /* 1 GiB of floats */
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (size_t i = 0; i < n; i += 1024) h[i] = 1.0f;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  {
    Timer t;
    for (int k = 0; k < 8; k++) {
      CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
      touch<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(d, n);
      CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
    }
  }
  printf("%g\n", h[0]);
  return 0;
}
