// One allocation split in chunks, one stream per chunk: copy the chunk in,
// a kernel given the whole buffer and the chunk's offset, copy it out (the
// "overlap data transfers" pattern).  The kernels reach only their own
// chunk: kkrace bounds what each launch touches from the kernel's code.
// EXPECT: no-report
#include "gpu_check.h"
__global__ void chunk(float *a, int offset) {
  int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
  float x = (float)i;
  a[i] = a[i] + sqrtf(x * x + 1.0f);
}
int main() {
  const int streams = 4, block = 256, per = 64 * block, n = streams * per;
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; i++) h[i] = 0;
  cudaStream_t s[streams];
  for (int k = 0; k < streams; k++) CHECK(cudaStreamCreate(&s[k]));
  for (int k = 0; k < streams; k++) {
    int off = k * per;
    CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, s[k]));
    chunk<<<per / block, block, 0, s[k]>>>(d, off);
    CHECK(cudaMemcpyAsync(h + off, d + off, per * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
  }
  CHECK(cudaDeviceSynchronize());
  printf("%g\n", h[n - 1]);
  return 0;
}
