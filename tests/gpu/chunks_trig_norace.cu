// The "overlap data transfers" program as it is usually written: one
// allocation in chunks, one stream each, and a kernel that computes sinf
// and cosf of its index (their argument reduction uses local memory).  Each
// kernel reaches only its chunk.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void kernel(float *a, int offset) {
  int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
  float x = (float)i;
  float s = sinf(x);
  float c = cosf(x);
  a[i] = a[i] + sqrtf(s * s + c * c);
}
int main() {
  const int streams = 4, block = 256, per = 1024 * block, n = streams * per;
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = 0;
  cudaStream_t s[streams];
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < streams; k++) {
    int off = k * per;
    CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    kernel<<<per / block, block, 0, s[k]>>>(d, off);
    CHECK(cudaMemcpyAsync(h + off, d + off, per * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", h[n - 1]);
  return 0;
}
